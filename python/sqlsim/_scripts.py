"""Runs the packaged SQL report scripts (sqlsim/sql/*.sql, the same files as the repository's sql/)
in a Python DuckDB connection, as the duckdb shell runs them with `-cmd "SET VARIABLE ..."`.

Shell dot-commands (`.mode list`) are left out; the rows of the last statement are the report. A
statement after a `-- sqlsim-cli: slices TABLE` marker is the expensive per-example one: it runs
once per slice of TABLE (by its `line` column) so that a progress bar can follow it, and its
result table is then put together again; the script's other statements run unchanged."""

from __future__ import annotations

import re
from pathlib import Path

from ._progress import progress

SQL_DIR = Path(__file__).resolve().parent / "sql"
MARKER = re.compile(r"^-- sqlsim-cli: slices (\w+)\s*$", re.M)
CREATES = re.compile(r"CREATE\s+OR\s+REPLACE\s+TEMP\s+TABLE\s+(\w+)\s+AS", re.I)


def sql_string(text: str) -> str:
    return "'" + str(text).replace("'", "''") + "'"


def script_text(name: str) -> str:
    path = SQL_DIR / name
    if not path.is_file():
        raise FileNotFoundError(f"sqlsim: the report script {path} is missing from this installation")
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith(".")]
    return "\n".join(lines) + "\n"


def _statements(con, text: str) -> list[str]:
    return [s.query for s in con.extract_statements(text) if s.query.strip()]


def _run_sliced(con, statement: str, table: str, label: str, slice_rows: int | None):
    made = CREATES.search(statement)
    if not made:
        raise ValueError(f"sqlsim: the sliced statement must create a temp table:\n{statement[:200]}")
    result = made.group(1)
    total = con.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    size = slice_rows or max(64, min(2048, -(-total // 50)))
    con.execute(f"CREATE OR REPLACE TEMP TABLE __sqlsim_all AS SELECT * FROM {table}")
    first = True
    with progress(total=total, desc=label, unit="ex") as bar:
        for offset in range(0, max(total, 1), size):
            con.execute(f"CREATE OR REPLACE TEMP TABLE {table} AS SELECT * FROM __sqlsim_all "
                        f"ORDER BY line LIMIT {size} OFFSET {offset}")
            con.execute(statement)
            if first:
                con.execute(f"CREATE OR REPLACE TEMP TABLE __sqlsim_out AS SELECT * FROM {result}")
                first = False
            else:
                con.execute(f"INSERT INTO __sqlsim_out SELECT * FROM {result}")
            bar.update(min(size, total - offset))
    con.execute(f"CREATE OR REPLACE TEMP TABLE {result} AS SELECT * FROM __sqlsim_out ORDER BY line")
    con.execute(f"CREATE OR REPLACE TEMP TABLE {table} AS SELECT * FROM __sqlsim_all ORDER BY line")
    con.execute("DROP TABLE __sqlsim_out")
    con.execute("DROP TABLE __sqlsim_all")


def run_script(con, name: str, variables: dict, label: str, slice_rows: int | None = None) -> list[str]:
    """Runs sql/<name> with the given variables; returns the first column of the last statement's rows."""
    for key, value in variables.items():
        con.execute(f"SET VARIABLE {key} = {sql_string('' if value is None else value)}")
    text = script_text(name)
    parts = MARKER.split(text)
    rows = []
    # parts: [before, table, after] when the marker is there, else [text]
    before = parts[0]
    for statement in _statements(con, before):
        rows = con.execute(statement).fetchall()
    if len(parts) == 3:
        table, after = parts[1], parts[2]
        statements = _statements(con, after)
        _run_sliced(con, statements[0], table, label, slice_rows)
        for statement in statements[1:]:
            rows = con.execute(statement).fetchall()
    return [r[0] for r in rows]
