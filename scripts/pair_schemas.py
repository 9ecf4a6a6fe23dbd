"""The schema argument for a labeled pair of ../shared/data: the Spider tables.json entry of its
db_id, a CREATE TABLE built from WikiSQL's markdown schema, or None (inferred from the queries)
for databases no schema file describes (the Spider-DK-only databases)."""

import json
import re
from pathlib import Path

_SPIDER = {}


def _spider_entries(data: Path):
    if not _SPIDER:
        path = data / "spider" / "tables.json"
        if path.exists():
            for entry in json.loads(path.read_text()):
                _SPIDER[entry["db_id"]] = json.dumps(entry)
    return _SPIDER


def _quote(name):
    return '"' + name.replace('"', '""') + '"'


def wikisql_ddl(meta):
    """CREATE TABLE text from WikiSQL's 'the structure of table T is as follows' markdown."""
    text = meta.get("schema") or ""
    table = meta.get("table")
    if not table:
        return None
    columns = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 2 or cells[0] in ("column name", "") or set(cells[0]) <= set("- "):
            continue
        kind = "TEXT" if cells[1].upper() == "STRING" else "REAL"
        columns.append(f"{_quote(cells[0])} {kind}")
    if not columns:
        return None
    return f"CREATE TABLE {_quote(table)} ({', '.join(columns)})"


def pair_schema(row, data: Path):
    """The schema text for `row` (a pair-set JSON object), or None."""
    if row.get("source", "").startswith("wikisql"):
        return wikisql_ddl(row.get("meta") or {})
    return _spider_entries(data).get(row.get("db_id"))


if __name__ == "__main__":
    print(wikisql_ddl({"table": "t1", "schema": "| column name | column type |\n| --- | --- |\n| first elected | STRING |\n| votes | REAL |"}))
    assert re.search(r'"first elected" TEXT', wikisql_ddl({"table": "t", "schema": "| first elected | STRING |"}))
