#!/usr/bin/env python3
"""Writes each host's copy of a report script from its one source in sql/source/.

    python3 scripts/build/sql_hosts.py            # write sql/spider_eval.sql and sql/spider_eval_sqlite.sql
    python3 scripts/build/sql_hosts.py --check    # exit 1 when a written file differs from its source

The source's lines before its first marker describe the source itself and are not copied. After
that, `-- @duckdb` and `-- @sqlite` start lines for that host's file only, `-- @both` lines for both.
In the SQLite file, `CREATE OR REPLACE TEMP TABLE t AS` (which SQLite lacks) becomes
`DROP TABLE IF EXISTS temp.t;` and `CREATE TEMP TABLE t AS`. Needs only the standard library.
"""

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common import ROOT, die  # noqa: E402

# source -> {host: written file}
SCRIPTS = {"sql/source/spider_eval.sql": {"duckdb": "sql/spider_eval.sql", "sqlite": "sql/spider_eval_sqlite.sql"}}
MARKER = re.compile(r"^-- @(duckdb|sqlite|both)\s*$")
CREATE = re.compile(r"^(\s*)CREATE OR REPLACE TEMP TABLE (\w+) AS\b", re.M)


def render(source: str, text: str, host: str) -> str:
    """`host`'s file from the source text (`source` is its path, named in the first line)."""
    out = [f"-- Written by scripts/build/sql_hosts.py from {source}: edit that file, then run `make docs`.\n"]
    current = None
    for line in text.splitlines(keepends=True):
        marker = MARKER.match(line)
        if marker:
            current = marker.group(1)
        elif current in (host, "both"):
            out.append(line)
    if current is None:
        die(f"{source} has no -- @duckdb, -- @sqlite or -- @both marker")
    body = "".join(out)
    if host == "sqlite":
        body = CREATE.sub(r"\1DROP TABLE IF EXISTS temp.\2;\n\1CREATE TEMP TABLE \2 AS", body)
    return body


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a written file is stale")
    args = parser.parse_args()
    stale = []
    for source, hosts in SCRIPTS.items():
        text = (ROOT / source).read_text(encoding="utf-8")
        for host, target in hosts.items():
            want = render(source, text, host)
            path = ROOT / target
            if path.is_file() and path.read_text(encoding="utf-8") == want:
                continue
            if args.check:
                stale.append(target)
            else:
                path.write_text(want, encoding="utf-8")
                print(f"wrote {target}")
    if stale:
        print(f"stale: {', '.join(stale)}; run `make docs` (scripts/build/sql_hosts.py)", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
