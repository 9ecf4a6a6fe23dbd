"""The schema argument for a labeled pair of ../shared/data: the Spider tables.json entry of its
db_id, a CREATE TABLE built from WikiSQL's markdown schema, or None (inferred from the queries) for
databases no schema file describes (the Spider-DK-only databases new_concert_singer, new_orchestra,
new_pets_1; on request, a tables.json-style entry built from their markdown in
schemas/spiderdk_schemas.json)."""

import json
import re
from pathlib import Path

_SPIDER = {}
_SPIDERDK = {}


def _spider_entries(data: Path):
    if not _SPIDER:
        path = data / "spider" / "tables.json"
        if path.exists():
            for entry in json.loads(path.read_text()):
                _SPIDER[entry["db_id"]] = json.dumps(entry)
    return _SPIDER


def quote(name):
    """`name` as a double-quoted SQL identifier."""
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
        columns.append(f"{quote(cells[0])} {kind}")
    if not columns:
        return None
    return f"CREATE TABLE {quote(table)} ({', '.join(columns)})"


_DK_TABLE = re.compile(r"the structure of table (\S+) is as follows", re.I)
_DK_PK = re.compile(r"^(\S+) is the primary key\.?$", re.I)
_DK_FK = re.compile(r"^The (\S+) is the foreign key, reference to (\S+) in table (\S+?)\.?$", re.I)


def spiderdk_entry(db_id, text):
    """A tables.json-style entry from the markdown schema text of schemas/spiderdk_schemas.json:
    columns and types from the tables, primary keys ('x is the primary key.', several in one table
    form one key, as in tables.json) and foreign keys ('The x is the foreign key, reference to y in
    table t.'). The text declares only what it says: no NOT NULL, and some foreign keys of the
    Spider originals are missing from it (new_pets_1's has_pet)."""
    tables, columns, types, pks, fks = [], [[-1, "*"]], ["text"], [], []

    def col(t, name):
        return next(i for i, (ti, n) in enumerate(columns) if ti == t and n.lower() == name.lower())

    for line in text.splitlines():
        line = line.strip()
        m = _DK_TABLE.search(line)
        if m:
            tables.append(m.group(1))
            continue
        if not tables:
            continue
        cur = len(tables) - 1
        cells = [c.strip() for c in line.strip("|").split("|")] if line.startswith("|") else []
        if len(cells) == 2 and cells[0] not in ("column name", "") and not set(cells[0]) <= set("- "):
            columns.append([cur, cells[0]])
            types.append(cells[1])
        elif _DK_PK.match(line):
            pks.append(col(cur, _DK_PK.match(line).group(1)))
        elif _DK_FK.match(line):
            a, b, t = _DK_FK.match(line).groups()
            fks.append([col(cur, a), col(tables.index(t), b)])
    return {"db_id": db_id, "table_names_original": tables, "table_names": tables,
            "column_names_original": columns, "column_names": columns, "column_types": types,
            "primary_keys": pks, "foreign_keys": fks}


def _spiderdk_entries(data: Path):
    if not _SPIDERDK:
        path = data / "schemas" / "spiderdk_schemas.json"
        if path.exists():
            for db_id, text in json.loads(path.read_text()).items():
                _SPIDERDK[db_id] = json.dumps(spiderdk_entry(db_id, text))
    return _SPIDERDK


def pair_schema(row, data: Path, spiderdk_markdown=False):
    """The schema text for `row` (a pair-set JSON object), or None. With `spiderdk_markdown`, the
    Spider-DK-only databases get the entry built from their markdown instead of None."""
    if row.get("source", "").startswith("wikisql"):
        return wikisql_ddl(row.get("meta") or {})
    db_id = row.get("db_id")
    entry = _spider_entries(data).get(db_id)
    if entry is None and spiderdk_markdown:
        entry = _spiderdk_entries(data).get(db_id)
    return entry


if __name__ == "__main__":
    print(wikisql_ddl({"table": "t1", "schema": "| column name | column type |\n| --- | --- |\n| first elected | STRING |\n| votes | REAL |"}))
    assert re.search(r'"first elected" TEXT', wikisql_ddl({"table": "t", "schema": "| first elected | STRING |"}))
