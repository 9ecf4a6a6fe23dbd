#!/usr/bin/env python3
"""Stress test of the built extension: fresh processes across hosts x thread settings x function
families, plus in-process concurrency. The goal is zero crashes and zero hangs.

Usage (with the project venv, after `make`):

    .venv/bin/python scripts/check/stress.py [--dist DIR] [--repeats K] [--threads 1,2,...]
        [--families ast,plan,...] [--hosts duckdb-python,...] [--jobs 2] [--timeout S] [--short]
    .venv/bin/python scripts/check/stress.py --crash-table [--dist DIR] [--repeats 10] [--jobs 1]

Every cell (host, thread setting, family) runs `--repeats` fresh processes. Each process loads the
extension, applies the thread setting and scores the family's functions on about 2,000 rows built in
SQL: `range(2000)` in DuckDB, a recursive CTE in SQLite, with `i` in the query texts (e.g.
`'SELECT a, b FROM t WHERE x = ' || i`) so that no row repeats another, and some NULL and some
malformed SQL among them. The slow families (ParSEval) score fewer rows. Table functions are called
once per row on fewer rows: joined to the rows in SQLite, one statement per row in DuckDB (whose C API
table functions take constant arguments only).

Hosts, and what the thread setting N means for each:

- `duckdb-python`: Python duckdb, one connection, `SET threads=N`.
- `duckdb-cli`: the duckdb shell of the venv (`duckdb -unsigned`, its binary run directly),
  `SET threads=N`.
- `sqlite3-shell`: the system sqlite3 shell, `PRAGMA threads=N` (SQLite's helper threads for large
  sorts; SQLite calls scalar functions on the connection's thread whatever N is).
- `apsw`: N apsw connections, each on its own Python thread, each scoring its share of the rows at
  the same time (in-process concurrency in SQLite).
- `duckdb-cursors`: Python duckdb with `SET threads=N` and four Python threads scoring their share of
  the rows at the same time, two on cursors of one database and two on databases of their own that
  each load the extension (in-process concurrency in DuckDB).

The extension is loaded by scripts/common.py, as every script and test loads it: `duckdb.connect(
config={'allow_unsigned_extensions': 'true'})` then `LOAD '<abs path>'`; `apsw.Connection(':memory:')`,
`enable_load_extension(True)`, `load_extension(<abs path>)`; the shells with `-cmd`.

A process that ends by a signal (negative return code) is a crash; one that outlives `--timeout` is
a hang (its process group is killed); one that exits non-zero or never prints the end marker is an
error (a SQL error in the workload). The script prints a table per host x threads x family and the
stderr tail of every failure, and exits 1 on any crash, hang or error (2 when the setup fails, e.g. a
registered function that no family covers). The files of `--dist` are copied into a temporary
folder first, so a rebuild of dist/ during the run does not touch the processes under test.

`--crash-table` measures the crash table of issue 14: for threads 1, 2, 4, 8, 16 and each of
ast_ted, sql_equivalent, relpm and gmn_similarity, `--repeats` (default 10) fresh Python duckdb
processes that LOAD, `SET threads=N` and score the 2,000 rows of range(2000); it counts the
processes that die.

The families `dialects` and `dialects-equivalence` call every function that reads SQL (but the Spider
ones, which read SQLite only) with the dialect options on queries written for each dialect: row i's
gold for PostgreSQL, MySQL, ... in turn, its pred for the same or another dialect, the options naming
one dialect, both, or none.

`--short` is the CI version: every host and family once at threads 1, 3 (not the core count of
CI's 2-core machines) and 16, on a quarter of the rows (still one DuckDB chunk scored in parallel).
"""

import argparse
import concurrent.futures
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import common  # noqa: E402
from common import ROOT  # noqa: E402

VENV_PYTHON = ROOT / ".venv" / "bin" / "python"
# The binary of the duckdb-cli wheel: .venv/bin/duckdb is a Python wrapper that runs it and turns
# its death by a signal into an ordinary exit status (SIGSEGV: 245).
DUCKDB_CLI_GLOB = ".venv/lib/python3*/site-packages/duckdb_cli/duckdb"
SQLITE_SHELL = "sqlite3"
SQLITE_EXTENSION = common.SQLITE_FILE
DUCKDB_EXTENSION = common.DUCKDB_FILE

HOSTS = ("duckdb-python", "duckdb-cli", "sqlite3-shell", "apsw", "duckdb-cursors")
SQLITE_HOSTS = ("sqlite3-shell", "apsw")
FULL_THREADS = (1, 2, 3, 4, 8, 16)
SHORT_THREADS = (1, 3, 16)
SHORT_ROW_DIVISOR = 4
CURSOR_THREADS = 4
END_MARKER = "stress-done"

CRASH_TABLE_THREADS = (1, 2, 4, 8, 16)
CRASH_TABLE_FUNCTIONS = ("ast_ted", "sql_equivalent", "relpm", "gmn_similarity")
CRASH_TABLE_ROWS = 2000

SCHEMA_DDL = (
    "CREATE TABLE t (id INTEGER PRIMARY KEY, a INT, b TEXT, x INT); "
    "CREATE TABLE u (id INTEGER PRIMARY KEY, t_id INT REFERENCES t(id), y INT, z TEXT)"
)

# The same schema as a Spider tables.json entry, for spider_schemas.
SPIDER_TABLES = [{
    "db_id": "stress",
    "table_names_original": ["t", "u"],
    "table_names": ["t", "u"],
    "column_names_original": [[-1, "*"], [0, "id"], [0, "a"], [0, "b"], [0, "x"],
                              [1, "id"], [1, "t_id"], [1, "y"], [1, "z"]],
    "column_names": [[-1, "*"], [0, "id"], [0, "a"], [0, "b"], [0, "x"],
                     [1, "id"], [1, "t id"], [1, "y"], [1, "z"]],
    "column_types": ["text", "number", "number", "text", "number", "number", "number", "number", "text"],
    "primary_keys": [1, 5],
    "foreign_keys": [[6, 1]],
}]

# Query texts of row i: shape i % len(shapes), with {i} replaced by i; None is a NULL row. The two
# lists have coprime lengths, so gold and pred shapes pair up in every combination.
GOLD_SHAPES = (
    "SELECT a, b FROM t WHERE x = {i}",
    "SELECT t.a, count(*) FROM t JOIN u ON t.id = u.t_id WHERE u.y > {i} GROUP BY t.a",
    "SELECT b FROM t WHERE x < {i} ORDER BY b DESC LIMIT 5",
    "SELECT max(x) FROM t WHERE b = 'n{i}'",
    None,
    "SELECT a FROM t WHERE x IN (SELECT y FROM u WHERE z LIKE '%{i}%')",
    "SELECT a FROM t WHERE x = {i} UNION SELECT y FROM u WHERE y <> {i}",
)
PRED_SHAPES = (
    "SELECT a, b FROM t WHERE x = {i}",
    "SELECT b, a FROM t WHERE {i} = x",
    "SELECT t.a, count(u.id) FROM t, u WHERE t.id = u.t_id AND u.y >= {i} GROUP BY 1",
    "SELECT b FROM t WHERE x <= {i} ORDER BY b DESC LIMIT 5",
    "SELECT x FROM t WHERE b = 'n{i}' ORDER BY x DESC LIMIT 1",
    "SELECT FROM WHERE ({i}",
    None,
    "SELECT a FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.y = t.x AND z LIKE '%{i}%')",
    "SELECT a FROM t WHERE x = 'unterminated {i}",
    "SELECT a FROM t WHERE x = {i} UNION ALL SELECT y FROM u",
    "SELECT nope FROM t WHERE x = {i}",
)

# The dialect families: row i's gold is written for QUERY_DIALECTS[i % 7] and its pred for
# QUERY_DIALECTS[i % 11 % 7] (each shape lines up with its dialect), and the rows carry the options
# `one` (`{"dialect": D}` of the gold, NULL every 13th row) and `pair` (the pair's dialects as
# `dialect`, as `gold_dialect` + `pred_dialect`, or as `dialect` + `pred_dialect`, in turn), so that
# every dialect and every pair of dialects is scored on every host and thread setting.
QUERY_DIALECTS = ("sqlite", "postgres", "mysql", "duckdb", "snowflake", "bigquery", "ansi")
DIALECT_GOLD_SHAPES = (
    "SELECT a, b FROM t WHERE x = {i} ORDER BY b LIMIT 3",
    "SELECT a::FLOAT / x, EXTRACT(YEAR FROM CAST(b AS DATE)) FROM t WHERE b ILIKE 'n{i}%' ORDER BY a",
    "SELECT `a` DIV 2, CONCAT(b, 'x') FROM t WHERE x <=> {i} AND b = 'N{i}' LIMIT 2, 5",
    "SELECT a, b FROM t WHERE x > {i} QUALIFY ROW_NUMBER() OVER (PARTITION BY a ORDER BY x) = 1",
    "SELECT TOP 5 IFF(x > {i}, a, NULL), NVL(b, 'none') FROM t ORDER BY x",
    "SELECT SAFE_DIVIDE(a, x), COUNTIF(x > {i}) FROM `proj.ds.t` GROUP BY a, x",
    "SELECT a FROM t WHERE x = {i} ORDER BY a FETCH FIRST 3 ROWS ONLY",
)
DIALECT_PRED_SHAPES = (
    "SELECT a, b FROM t WHERE x = {i}",
    "SELECT CAST(a AS REAL) / x, date_part('year', b::DATE) FROM t WHERE b ILIKE 'n{i}%'",
    "SELECT a DIV 2, b || 'x' FROM t WHERE x = {i} LIMIT 5 OFFSET 2",
    "SELECT a // 2, STRING_AGG(b, ',') FROM t WHERE x > {i} GROUP BY a",
    "SELECT IFF(x > {i}, a, NULL) FROM t ORDER BY x LIMIT 5",
    "SELECT `a` FROM `proj.ds.t` WHERE x = {i}",
    "SELECT a FROM t WHERE x = {i} OFFSET 1 ROWS FETCH NEXT 2 ROWS ONLY",
    None,
    "SELECT a FROM t WHERE x = {i} AND b ~ 'unterminated",
    "SELECT DATE_FORMAT(b, '%Y'), YEAR(b) FROM t WHERE x = {i}",
    "SELECT strftime(b::DATE, '%Y'), x FROM t WHERE x = {i}",
)


def one_options(i):
    """Row i's options of one query: its gold's dialect."""
    return None if i % 13 == 0 else json.dumps({"dialect": QUERY_DIALECTS[i % 7]})


def pair_options(i):
    """Row i's options of a pair: the dialects of its gold and its pred."""
    gold, pred = QUERY_DIALECTS[i % 7], QUERY_DIALECTS[i % 11 % 7]
    return json.dumps([{"dialect": gold}, {"gold_dialect": gold, "pred_dialect": pred},
                       {"dialect": gold, "pred_dialect": pred}][i % 3])


# One SQL expression per scalar function over the columns i, gold, pred of the rows; {schema},
# {db} and {tables_schema} are replaced by SQL literals.
SCALAR_CALLS = {
    "sql_similarity": "sql_similarity(gold, pred, {schema})",
    "sql_similarity_components": "sql_similarity_components(gold, pred, {schema})",
    "ast_ted": "ast_ted(gold, pred)",
    "ast_ted_distance": "ast_ted_distance(gold, pred)",
    "astpm": "astpm(gold, pred)",
    "sql_ast": "sql_ast(pred)",
    "sql_parse_error": "sql_parse_error(pred)",
    "sql_translate": "sql_translate(pred)",
    "relpm": "relpm(gold, pred, {schema})",
    "gmn_similarity": "gmn_similarity(gold, pred, {schema})",
    "hybrid_gmn_similarity": "hybrid_gmn_similarity(gold, pred, {schema})",
    "sql_graph": "sql_graph(gold, pred, {schema}, CASE WHEN i % 2 = 0 THEN 'funceval' ELSE 'hybrid' END)",
    "sql_plan": "sql_plan(pred, {schema})",
    "sql_plan_error": "sql_plan_error(pred, NULL)",
    "spider_hardness": "spider_hardness(gold, {tables_schema})",
    "spider_exact_match": "spider_exact_match(gold, pred, {tables_schema})",
    "spider_partial_match": "spider_partial_match(gold, pred, {schema})",
    "exec_match": "exec_match({db}, gold, pred)",
    "exec_match_reason": "exec_match_reason({db}, gold, pred, '{{\"semantics\": \"bird\"}}')",
    "bird_soft_f1": "bird_soft_f1({db}, gold, pred)",
    "bird_ves": "bird_ves({db}, gold, pred, '{{\"repeats\": 1}}')",
    "sql_equivalent": "sql_equivalent(gold, pred, {schema})",
    "sql_equivalent_reason": "sql_equivalent_reason(gold, pred, NULL)",
    "sqlsim_version": "sqlsim_version()",
    "sqlsim_debug": "sqlsim_debug()",
}

# The dialect families' calls: SCALAR_CALLS with the rows' options (the Spider functions read SQLite
# only, bird_ves's options are its own).
DIALECT_CALLS = {
    "sql_similarity": "sql_similarity(gold, pred, {schema}, pair)",
    "sql_similarity_components": "sql_similarity_components(gold, pred, {schema}, pair)",
    "ast_ted": "ast_ted(gold, pred, pair)",
    "ast_ted_distance": "ast_ted_distance(gold, pred, pair)",
    "astpm": "astpm(gold, pred, NULL, NULL, pair)",
    "sql_ast": "sql_ast(gold, one)",
    "sql_parse_error": "sql_parse_error(pred, one)",
    "sql_translate": "sql_translate(gold, one)",
    "relpm": "relpm(gold, pred, {schema}, NULL, NULL, pair)",
    "gmn_similarity": "gmn_similarity(gold, pred, {schema}, pair)",
    "hybrid_gmn_similarity": "hybrid_gmn_similarity(gold, pred, {schema}, pair)",
    "sql_graph": "sql_graph(gold, pred, {schema}, 'hybrid', pair)",
    "sql_plan": "sql_plan(gold, {schema}, one)",
    "sql_plan_error": "sql_plan_error(pred, NULL, one)",
    "exec_match": "exec_match({db}, gold, pred, pair)",
    "exec_match_reason": "exec_match_reason({db}, gold, pred, pair)",
    "bird_soft_f1": "bird_soft_f1({db}, gold, pred, pair)",
    "sql_equivalent": "sql_equivalent(gold, pred, {schema}, pair)",
    "sql_equivalent_reason": "sql_equivalent_reason(gold, pred, {schema}, pair)",
}

# Table functions called once per row: the row columns they take, then the schema (optional, named
# in DuckDB, positional in SQLite).
PER_ROW_TABLE_CALLS = {
    "sql_ast_nodes": (("pred",), False),
    "spider_partial": (("gold", "pred"), True),
    "parseval_generate": (("gold",), True),
    "sql_counterexample": (("gold", "pred"), True),
}

# Table functions called once per process, with constant arguments; {rows_cte} defines the rows
# `src` (at most CONSTANT_CALL_ROWS of them), {tables} is the tables.json path.
CONSTANT_TABLE_CALLS = {
    "sqlsim_functions": "SELECT count(*) FROM sqlsim_functions()",
    "spider_schemas": "{rows_cte} SELECT count(*), count(spider_partial_match(gold, pred, s.schema)) "
                      "FROM src, spider_schemas({tables}) AS s",
}
CONSTANT_CALL_ROWS = 200


@dataclass(frozen=True)
class Family:
    """Functions scored together in one process: scalars on `rows` rows, per-row table functions on
    `table_rows` rows, constant table functions once."""
    name: str
    functions: tuple
    rows: int
    table_rows: int
    dialects: bool = False


FAMILIES = (
    Family("ast", ("ast_ted", "ast_ted_distance", "sql_ast", "astpm", "sql_ast_nodes"), 2000, 200),
    Family("plan", ("relpm", "sql_plan", "sql_plan_error"), 2000, 0),
    Family("spider", ("spider_hardness", "spider_exact_match", "spider_partial_match",
                      "spider_partial", "spider_schemas"), 2000, 200),
    Family("gmn", ("gmn_similarity", "hybrid_gmn_similarity", "sql_graph"), 2000, 0),
    Family("equivalence", ("sql_equivalent", "sql_equivalent_reason", "sql_counterexample",
                           "parseval_generate"), 500, 50),
    Family("similarity", ("sql_similarity", "sql_similarity_components"), 500, 0),
    Family("exec", ("exec_match", "exec_match_reason", "bird_soft_f1", "bird_ves"), 2000, 0),
    Family("meta", ("sql_parse_error", "sql_translate", "sqlsim_version", "sqlsim_debug", "sqlsim_functions"), 2000, 0),
    Family("dialects", ("ast_ted", "ast_ted_distance", "astpm", "sql_ast", "sql_parse_error", "sql_translate", "relpm",
                        "sql_plan", "sql_plan_error", "sql_graph", "gmn_similarity", "hybrid_gmn_similarity",
                        "exec_match", "exec_match_reason", "bird_soft_f1", "sql_ast_nodes"), 2000, 200, True),
    Family("dialects-equivalence", ("sql_equivalent", "sql_equivalent_reason", "sql_similarity",
                                    "sql_similarity_components", "sql_counterexample", "parseval_generate"),
           300, 30, True),
)


# --- SQL of a workload --------------------------------------------------------------------------

def sql_literal(value):
    return "NULL" if value is None else "'" + str(value).replace("'", "''") + "'"


def query_text(shapes, i):
    shape = shapes[i % len(shapes)]
    return None if shape is None else shape.replace("{i}", str(i))


def query_text_sql(shapes):
    """The SQL CASE expression computing query_text(shapes, i) from the column i."""
    def arm(shape):
        if shape is None:
            return "NULL"
        return " || CAST(i AS TEXT) || ".join(sql_literal(piece) for piece in shape.split("{i}"))
    arms = " ".join(f"WHEN {k} THEN {arm(s)}" for k, s in enumerate(shapes))
    return f"CASE i % {len(shapes)} {arms} END"


def periodic_sql(f, period):
    """The SQL CASE expression computing f(i) from the column i, for f(i) = f(i % period)."""
    arms = " ".join(f"WHEN {k} THEN {sql_literal(f(k))}" for k in range(period))
    return f"CASE i % {period} {arms} END"


def rows_cte(dialect, rows, part, parts, dialects=False):
    """`WITH ...` defining `src(i, gold, pred)`: rows 0..rows-1 whose i % parts == part; with
    `dialects`, the dialect families' shapes and the options columns `one` and `pair`."""
    if dialects:
        columns = (f"i, {query_text_sql(DIALECT_GOLD_SHAPES)} AS gold, "
                   f"{query_text_sql(DIALECT_PRED_SHAPES)} AS pred, "
                   f"{periodic_sql(one_options, 7 * 13)} AS one, {periodic_sql(pair_options, 3 * 7 * 11)} AS pair")
    else:
        columns = f"i, {query_text_sql(GOLD_SHAPES)} AS gold, {query_text_sql(PRED_SHAPES)} AS pred"
    share = f" WHERE i % {parts} = {part}" if parts > 1 else ""
    if dialect == "duckdb":
        return f"WITH src AS (SELECT {columns} FROM range({rows}) r(i){share})"
    return (f"WITH RECURSIVE r(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i + 1 < {rows}), "
            f"src AS (SELECT {columns} FROM r{share})")


def per_row_table_statements(dialect, function, rows, part, parts, schema, dialects=False):
    """Statements calling a table function once per row (the dialect families add the options: `one`
    for a function of one query, `pair` for a pair)."""
    columns, takes_schema = PER_ROW_TABLE_CALLS[function]
    options = ("one" if len(columns) == 1 else "pair") if dialects else None
    if dialect == "sqlite":
        args = ([f"src.{c}" for c in columns] + ([schema] if takes_schema else [])
                + ([f"src.{options}"] if options else []))
        return [f"{rows_cte(dialect, rows, part, parts, dialects)} SELECT count(*) FROM src, "
                f"{function}({', '.join(args)})"]
    shapes = (DIALECT_GOLD_SHAPES, DIALECT_PRED_SHAPES) if dialects else (GOLD_SHAPES, PRED_SHAPES)
    statements = []
    for i in range(part, rows, parts):
        texts = {"gold": query_text(shapes[0], i), "pred": query_text(shapes[1], i),
                 "one": one_options(i), "pair": pair_options(i)}
        args = ([sql_literal(texts[c]) for c in columns] + ([f"schema := {schema}"] if takes_schema else [])
                + ([f"options := {sql_literal(texts[options])}"] if options else []))
        statements.append(f"SELECT count(*) FROM {function}({', '.join(args)})")
    return statements


def workload(dialect, functions, rows, table_rows, fixtures, part=0, parts=1, dialects=False):
    """The SQL statements of one process (or of one connection's share when parts > 1); `dialects`:
    a dialect family's (DIALECT_CALLS on the dialect shapes)."""
    literals = {"schema": sql_literal(SCHEMA_DDL), "db": sql_literal(fixtures["db"]),
                "tables": sql_literal(fixtures["tables"]),
                "tables_schema": sql_literal(json.dumps(SPIDER_TABLES[0]))}
    calls = DIALECT_CALLS if dialects else SCALAR_CALLS
    scalars = [calls[f].format(**literals) for f in functions if f in calls]
    statements = []
    if scalars:
        counts = ", ".join(f"count({e})" for e in scalars)
        statements.append(f"{rows_cte(dialect, rows, part, parts, dialects)} SELECT count(*), {counts} FROM src")
    for f in functions:
        if f in PER_ROW_TABLE_CALLS and table_rows:
            statements += per_row_table_statements(dialect, f, table_rows, part, parts, literals["schema"],
                                                   dialects)
        if f in CONSTANT_TABLE_CALLS:
            cte = rows_cte(dialect, min(rows, CONSTANT_CALL_ROWS), part, parts)
            statements.append(CONSTANT_TABLE_CALLS[f].format(rows_cte=cte, tables=literals["tables"]))
    return statements


# --- worker processes ---------------------------------------------------------------------------

def connect_duckdb(extension, threads):
    con = common.connect_duckdb(extension)
    con.execute(f"SET threads={threads}")
    return con


def connect_apsw(extension):
    return common.connect_apsw(extension)


def run_statements(con, statements):
    for statement in statements:
        con.execute(statement).fetchall()


def run_on_python_threads(connections):
    """Runs each (connect, statements) pair on its own thread, all starting their statements at
    once; returns the tracebacks raised."""
    failures = []
    start = threading.Barrier(len(connections))

    def run(connect, statements):
        try:
            con = connect()
            start.wait()
            run_statements(con, statements)
        except Exception:  # reported by the worker's exit status
            failures.append(traceback.format_exc())
            start.abort()

    threads = [threading.Thread(target=run, args=pair) for pair in connections]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return failures


def worker_main(spec_path):
    """Entry point of a Python-host process: runs the workload of the spec file, prints the end
    marker; exits 1 on any SQL error."""
    spec = json.loads(Path(spec_path).read_text())
    host, threads, extension, parts = spec["host"], spec["threads"], spec["extension"], spec["parts"]
    if host == "duckdb-python":
        run_statements(connect_duckdb(extension, threads), parts[0])  # an error exits 1
        failures = []
    elif host == "apsw":
        failures = run_on_python_threads([(lambda: connect_apsw(extension), p) for p in parts])
    else:  # duckdb-cursors
        shared = connect_duckdb(extension, threads)
        connects = [shared.cursor if k % 2 == 0 else (lambda: connect_duckdb(extension, threads))
                    for k in range(len(parts))]
        failures = run_on_python_threads(list(zip(connects, parts)))
    for failure in dict.fromkeys(failures):  # each distinct traceback once
        print(failure, file=sys.stderr)
    if failures:
        sys.exit(1)
    print(END_MARKER)


# --- running processes --------------------------------------------------------------------------

@dataclass(frozen=True)
class Cell:
    host: str
    threads: int
    family: str


@dataclass
class Outcome:
    cell: Cell
    status: str  # ok, crash, hang, error
    returncode: int | None  # None for a hang
    seconds: float
    stderr: str


def process_command(cell, functions, rows, table_rows, dialects, extensions, fixtures, workdir):
    """The command line and stdin of one fresh process for `cell`."""
    if cell.host in ("duckdb-cli", "sqlite3-shell"):
        dialect = "sqlite" if cell.host == "sqlite3-shell" else "duckdb"
        statements = workload(dialect, functions, rows, table_rows, fixtures, dialects=dialects)
        script = ";\n".join(statements) + f";\nSELECT '{END_MARKER}';\n"
        if cell.host == "sqlite3-shell":
            return ([SQLITE_SHELL, "-bail", *common.sqlite_shell_args(extensions['sqlite']),
                     "-cmd", f"PRAGMA threads={cell.threads};", ":memory:"], script)
        return ([duckdb_cli(), "-bail", *common.duckdb_shell_args(extensions['duckdb']),
                 "-cmd", f"SET threads={cell.threads}", ":memory:"], script)
    dialect = "sqlite" if cell.host in SQLITE_HOSTS else "duckdb"
    parts = {"duckdb-python": 1, "apsw": cell.threads, "duckdb-cursors": CURSOR_THREADS}[cell.host]
    spec = {"host": cell.host, "threads": cell.threads, "extension": extensions[dialect],
            "parts": [workload(dialect, functions, rows, table_rows, fixtures, k, parts, dialects)
                      for k in range(parts)]}
    spec_file = tempfile.NamedTemporaryFile("w", suffix=".json", dir=workdir, delete=False)
    with spec_file:
        json.dump(spec, spec_file)
    return [str(VENV_PYTHON), str(Path(__file__).resolve()), "--worker", spec_file.name], ""


def run_process(cell, command, stdin, timeout, workdir):
    """Runs one fresh process in its own process group and classifies how it ended."""
    started = time.monotonic()
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=workdir, start_new_session=True)
    try:
        out, err = proc.communicate(stdin, timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return Outcome(cell, "hang", None, time.monotonic() - started, err)
    seconds = time.monotonic() - started
    if proc.returncode < 0:
        status = "crash"
    elif proc.returncode > 0 or END_MARKER not in out:
        status = "error"
    else:
        status = "ok"
    return Outcome(cell, status, proc.returncode, seconds, err)


def run_cells(tasks, jobs, timeout, workdir):
    """Runs (cell, command, stdin) tasks, `jobs` at a time; prints failures as they happen."""
    outcomes = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(run_process, cell, command, stdin, timeout, workdir)
                   for cell, command, stdin in tasks]
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            outcome = future.result()
            outcomes.append(outcome)
            if outcome.status != "ok":
                print_failure(outcome)
            if done % 25 == 0 or done == len(futures):
                print(f"  {done}/{len(futures)} processes done", flush=True)
    return outcomes


def print_failure(outcome):
    cell = outcome.cell
    if outcome.status == "crash":
        how = f"signal {signal.Signals(-outcome.returncode).name}"
    elif outcome.status == "hang":
        how = f"no exit within the timeout ({outcome.seconds:.0f} s)"
    else:
        how = f"exit status {outcome.returncode}" + ("" if outcome.returncode else ", no end marker")
    tail = "\n".join(outcome.stderr.strip().splitlines()[-15:])
    print(f"FAIL {outcome.status}: {cell.host} threads={cell.threads} {cell.family}: {how}\n{tail}\n", flush=True)


# --- setup --------------------------------------------------------------------------------------

def setup_failed(message):
    print(f"stress.py: {message}", file=sys.stderr)
    sys.exit(2)


def snapshot_dist(dist, workdir):
    """Copies the extension and the libraries and models beside it, so that a rebuild of `dist`
    during the run leaves the processes under test alone."""
    copy = workdir / "dist"
    copy.mkdir()
    for f in sorted(Path(dist).iterdir()):
        if f.is_file():
            shutil.copy2(f, copy / f.name)
    return {"sqlite": str(copy / SQLITE_EXTENSION), "duckdb": str(copy / DUCKDB_EXTENSION)}


def duckdb_cli():
    binaries = sorted(ROOT.glob(DUCKDB_CLI_GLOB))
    if not binaries:
        setup_failed(f"no duckdb shell binary at {ROOT / DUCKDB_CLI_GLOB} (make venv)")
    return str(binaries[0])


def write_fixtures(workdir):
    """A Spider tables.json for spider_schemas and a small SQLite file for exec_match."""
    tables = workdir / "tables.json"
    tables.write_text(json.dumps(SPIDER_TABLES))
    db = workdir / "stress.sqlite"
    con = sqlite3.connect(db)
    con.executescript(SCHEMA_DDL)
    con.executemany("INSERT INTO t VALUES (?, ?, ?, ?)", [(k, k % 7, f"n{k}", k * 3 % 50) for k in range(60)])
    con.executemany("INSERT INTO u VALUES (?, ?, ?, ?)", [(k, k % 60, k % 40, f"z{k}") for k in range(90)])
    con.commit()
    con.close()
    return {"tables": str(tables), "db": str(db)}


def registered_functions(sqlite_extension):
    """Names of every function the extension registers, from sqlsim_functions() in the sqlite3 shell."""
    proc = subprocess.run([SQLITE_SHELL, "-bail", *common.sqlite_shell_args(sqlite_extension),
                           ":memory:", "SELECT name FROM sqlsim_functions(); SELECT sqlsim_version();"],
                          capture_output=True, text=True, timeout=60)
    if proc.returncode != 0:
        setup_failed(f"cannot list the registered functions: {proc.stderr.strip()}")
    *names, version = proc.stdout.strip().splitlines()
    return set(names), version


def check_coverage(registered):
    """Exits 2 unless the families cover exactly the registered functions."""
    covered = {f for family in FAMILIES for f in family.functions}
    uncovered, unknown = sorted(registered - covered), sorted(covered - registered)
    if uncovered or unknown:
        setup_failed(f"registered functions no family covers: {uncovered}; "
                     f"family functions the extension does not register: {unknown}")


# --- reports ------------------------------------------------------------------------------------

def print_stress_table(outcomes, wall):
    cells = {}
    for o in outcomes:
        cells.setdefault(o.cell, []).append(o)
    print(f"\n{'host':<15} {'threads':>7} {'family':<12} {'runs':>4} {'crash':>5} {'hang':>4} "
          f"{'error':>5} {'mean s':>7} {'max s':>6}")
    for cell in sorted(cells, key=lambda c: (HOSTS.index(c.host), c.threads, c.family)):
        runs = cells[cell]
        count = {s: sum(o.status == s for o in runs) for s in ("crash", "hang", "error")}
        seconds = [o.seconds for o in runs]
        print(f"{cell.host:<15} {cell.threads:>7} {cell.family:<12} {len(runs):>4} {count['crash']:>5} "
              f"{count['hang']:>4} {count['error']:>5} {sum(seconds) / len(seconds):>7.1f} {max(seconds):>6.1f}")
    totals = {s: sum(o.status == s for o in outcomes) for s in ("crash", "hang", "error")}
    print(f"\ntotal: {len(outcomes)} processes, {totals['crash']} crashes, {totals['hang']} hangs, "
          f"{totals['error']} errors, {wall:.0f} s wall")
    return totals


def print_crash_table(outcomes, repeats):
    print(f"\nprocesses that died, of {repeats} per cell (Python duckdb, {CRASH_TABLE_ROWS} rows):")
    print(f"{'function':<16}" + "".join(f"{f'threads={n}':>12}" for n in CRASH_TABLE_THREADS))
    for function in CRASH_TABLE_FUNCTIONS:
        line = f"{function:<16}"
        for n in CRASH_TABLE_THREADS:
            runs = [o for o in outcomes if o.cell.family == function and o.cell.threads == n]
            line += f"{sum(o.status == 'crash' for o in runs):>9}/{len(runs):<2}"
        print(line)
    signals = sorted({signal.Signals(-o.returncode).name for o in outcomes if o.status == "crash"})
    others = {s: sum(o.status == s for o in outcomes) for s in ("hang", "error")}
    print(f"signals: {', '.join(signals) or 'none'}; hangs: {others['hang']}; errors: {others['error']}")


# --- main ---------------------------------------------------------------------------------------

def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--dist", default=str(ROOT / "dist"), help="folder with the built extension (default dist/)")
    p.add_argument("--repeats", type=int, help="fresh processes per cell (default 2; 1 with --short; 10 with --crash-table)")
    p.add_argument("--threads", help="comma-separated thread settings (default 1,2,3,4,8,16)")
    p.add_argument("--families", help="comma-separated families (default all: "
                   + ",".join(f.name for f in FAMILIES) + ")")
    p.add_argument("--hosts", help="comma-separated hosts (default all: " + ",".join(HOSTS) + ")")
    p.add_argument("--jobs", type=int, default=2, help="processes run at once (default 2)")
    p.add_argument("--timeout", type=float, default=300, help="seconds before a process counts as hung (default 300)")
    p.add_argument("--short", action="store_true", help="the CI version: threads 1,3,16, a quarter of the rows, once")
    p.add_argument("--crash-table", action="store_true", help="issue 14's crash table (Python duckdb only)")
    p.add_argument("--worker", metavar="SPEC", help=argparse.SUPPRESS)
    return p.parse_args()


def planned_tasks(args, extensions, fixtures, workdir):
    """The (cell, command, stdin) of every process of the run."""
    if args.crash_table:
        repeats = args.repeats or 10
        cells = [Cell("duckdb-python", n, f) for f in CRASH_TABLE_FUNCTIONS for n in CRASH_TABLE_THREADS]
        plans = {f: ((f,), CRASH_TABLE_ROWS, 0, False) for f in CRASH_TABLE_FUNCTIONS}
    else:
        repeats = args.repeats or (1 if args.short else 2)
        threads = [int(n) for n in args.threads.split(",")] if args.threads else (
            SHORT_THREADS if args.short else FULL_THREADS)
        hosts = args.hosts.split(",") if args.hosts else HOSTS
        if set(hosts) - set(HOSTS):
            setup_failed(f"unknown hosts {sorted(set(hosts) - set(HOSTS))}")
        names = args.families.split(",") if args.families else [f.name for f in FAMILIES]
        if set(names) - {f.name for f in FAMILIES}:
            setup_failed(f"unknown families {sorted(set(names) - {f.name for f in FAMILIES})}")
        divisor = SHORT_ROW_DIVISOR if args.short else 1
        plans = {f.name: (f.functions, f.rows // divisor, f.table_rows // divisor, f.dialects)
                 for f in FAMILIES if f.name in names}
        cells = [Cell(h, n, f) for h in hosts for n in threads for f in plans]
    tasks = []
    for _ in range(repeats):
        for cell in cells:
            command, stdin = process_command(cell, *plans[cell.family], extensions, fixtures, workdir)
            tasks.append((cell, command, stdin))
    return tasks, repeats


def main():
    args = parse_args()
    if args.worker:
        worker_main(args.worker)
        return
    with tempfile.TemporaryDirectory(prefix="sqlsim-stress-") as tmp:
        workdir = Path(tmp)
        extensions = snapshot_dist(args.dist, workdir)
        fixtures = write_fixtures(workdir)
        registered, version = registered_functions(extensions["sqlite"])
        check_coverage(registered)
        tasks, repeats = planned_tasks(args, extensions, fixtures, workdir)
        print(f"{version} from {args.dist}: {len(tasks)} processes, {args.jobs} at a time, "
              f"timeout {args.timeout:.0f} s", flush=True)
        started = time.monotonic()
        outcomes = run_cells(tasks, args.jobs, args.timeout, workdir)
        wall = time.monotonic() - started
    if args.crash_table:
        print_crash_table(outcomes, repeats)
        failed = any(o.status != "ok" for o in outcomes)
    else:
        failed = any(print_stress_table(outcomes, wall).values())
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
