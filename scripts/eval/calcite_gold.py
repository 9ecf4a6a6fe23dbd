#!/usr/bin/env python3
"""The public Spider pair sets with their gold queries printed in Calcite's style, the surface of
the held-out Spider-Pair gold, to measure how much a metric depends on how the gold is printed.

Usage (with the project venv and the bench stack, `make eval-calcite`):

    .venv/bin/python scripts/eval/calcite_gold.py --data ../shared/data --out build/calcite-data

writes OUT/<set>.jsonl for the four Spider-based labeled sets with only `gold` rewritten, and
links OUT/spider, OUT/schemas (and the other files of the data folder) to the originals, so that
`scripts/eval/eval.py --data OUT` scores the same pairs with the same schemas. The rewrite (sqlglot,
read as SQLite) does what Calcite's SQL printer does to Spider's gold:

- columns qualified by their table or alias (`singer.name`), with the pair's schema;
- unaliased computed outputs named `EXPR$i` by position (`COUNT(*) AS `EXPR$0``), and an ORDER BY
  on such an output referring to that name;
- `JOIN` printed `INNER JOIN`, `LIMIT n` printed `FETCH NEXT n ROWS ONLY`;
- the argument of AVG cast to DOUBLE (`AVG(CAST(age AS DOUBLE))`);
- keywords upper case, double-quoted strings single-quoted, backticks where a name needs them.

Not reproduced: Calcite's planner-level rewrites (subqueries into joins), which its printed gold
does not show either. A query sqlglot cannot read stays as it was (counted in the summary line).
sqlglot is the reference stack's (requirements-bench.txt), not a dependency of sqlsim.
"""

import argparse
import functools
import json
import os
import re
import sys
from pathlib import Path

import sqlglot
from sqlglot import exp
from sqlglot.optimizer.qualify import qualify

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common import pair_schema  # noqa: E402

SETS = ["spiderdk_pair_dev.nooverlap", "spider_dev_llm_gpt4.nooverlap", "spider_dev_llm_gpt3.5.nooverlap",
        "spider_dev_llm_codellama_7b.nooverlap"]
DOUBLE_QUOTED = re.compile(r'"([^"]*)"')
UNNAMED_OUTPUT = re.compile(r"\b_col_(\d+)\b")
TRAILING_LIMIT = re.compile(r"\bLIMIT (\d+)")


@functools.lru_cache(maxsize=None)
def table_columns(entry_text):
    """{table: {column: type}} of a Spider tables.json entry (for sqlglot's qualifier), or None;
    parsed once per distinct entry (a set has a few dozen databases and thousands of rows)."""
    if not entry_text or not entry_text.startswith("{"):
        return None
    entry = json.loads(entry_text)
    out = {t: {} for t in entry["table_names_original"]}
    for (t, column), kind in zip(entry["column_names_original"], entry["column_types"]):
        if t >= 0:
            out[entry["table_names_original"][t]][column] = "DOUBLE" if kind == "number" else "TEXT"
    return out


def calcite_print(sql, columns=None):
    """`sql` (Spider gold, SQLite dialect) printed as Calcite prints it; raises on SQL sqlglot
    cannot read."""
    sql = DOUBLE_QUOTED.sub(lambda m: "'" + m.group(1).replace("'", "''") + "'", sql)
    tree = sqlglot.parse_one(sql, read="sqlite")
    if columns:
        try:
            tree = qualify(tree, schema=columns, dialect="sqlite", expand_stars=False,
                           validate_qualify_columns=False, quote_identifiers=False, identify=False)
        except sqlglot.errors.SqlglotError:
            pass
    # the qualifier names every output; Calcite names only the computed ones, EXPR$<position>
    for alias in list(tree.find_all(exp.Alias)):
        if isinstance(alias.this, exp.Column) and alias.alias == alias.this.name or alias.alias.startswith("_col_"):
            alias.replace(alias.this.copy())
    for table in tree.find_all(exp.Table):
        if table.alias and table.alias == table.name:
            table.set("alias", None)
    for select in tree.find_all(exp.Select):
        outputs = []
        for i, e in enumerate(select.expressions):
            if not isinstance(e, (exp.Column, exp.Alias, exp.Star)):
                e = exp.alias_(e, exp.to_identifier(f"EXPR${i}", quoted=True))
            outputs.append(e)
        select.set("expressions", outputs)
        for join in select.args.get("joins") or []:
            if not join.args.get("kind") and not join.args.get("side"):
                join.set("kind", "INNER")
    for avg in list(tree.find_all(exp.Avg)):
        if isinstance(avg.this, exp.Column):
            avg.set("this", exp.Cast(this=avg.this.copy(), to=exp.DataType.build("DOUBLE")))
    text = tree.sql(dialect="mysql")
    text = UNNAMED_OUTPUT.sub(lambda m: f"`EXPR${m.group(1)}`", text)
    return TRAILING_LIMIT.sub(r"FETCH NEXT \1 ROWS ONLY", text)


def write(data: Path, out: Path):
    out.mkdir(parents=True, exist_ok=True)
    for item in data.iterdir():
        link = out / item.name
        if item.name.endswith(".jsonl") and item.name[: -len(".jsonl")] in SETS:
            continue
        if not link.exists() and not link.is_symlink():
            os.symlink(item.resolve(), link)
    for name in SETS:
        rows = kept = 0
        with open(data / f"{name}.jsonl", encoding="utf-8") as src, \
                open(out / f"{name}.jsonl", "w", encoding="utf-8") as dst:
            for line in src:
                if not line.strip():
                    continue
                row = json.loads(line)
                rows += 1
                try:
                    row["gold"] = calcite_print(row["gold"], table_columns(pair_schema(row, data, spiderdk_markdown=True)))
                except sqlglot.errors.SqlglotError:
                    kept += 1
                dst.write(json.dumps(row) + "\n")
        print(f"{name}: {rows} pairs, gold rewritten for {rows - kept} ({kept} kept as they were)")


def self_test():
    columns = {"singer": {"singer_id": "DOUBLE", "name": "TEXT", "age": "DOUBLE", "country": "TEXT"}}
    got = calcite_print('SELECT name, avg(age) FROM singer WHERE country = "France" GROUP BY name '
                        "ORDER BY count(*) DESC LIMIT 1", columns)
    want = ("SELECT singer.name, AVG(CAST(singer.age AS DOUBLE)) AS `EXPR$1` FROM singer WHERE "
            "singer.country = 'France' GROUP BY singer.name ORDER BY COUNT(*) DESC FETCH NEXT 1 ROWS ONLY")
    assert got == want, got
    got = calcite_print("SELECT T1.name FROM singer AS T1 JOIN singer AS T2 ON T1.singer_id = T2.singer_id")
    assert got == "SELECT T1.name FROM singer AS T1 INNER JOIN singer AS T2 ON T1.singer_id = T2.singer_id", got


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=os.environ.get("SQLSIM_DATA", "../shared/data"))
    parser.add_argument("--out", required=True, help="folder for the rewritten sets (created)")
    args = parser.parse_args()
    self_test()
    write(Path(args.data).resolve(), Path(args.out))


if __name__ == "__main__":
    main()
