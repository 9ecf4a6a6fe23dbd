"""The battery again in the real command-line shells: the process survives every statement and
the statement after the bad ones still runs."""
import os

from conftest import run_duckdb_shell, run_sqlite_shell

BATTERY = [
    "SELECT ast_ted(NULL, NULL);",
    "SELECT ast_ted('SELECT ' || printf('%.*c', 10000, '(') || '1' || printf('%.*c', 10000, ')'), 'SELECT 1');",
    "SELECT sql_parse_error('SELECT * FROM (((');",
    "SELECT ast_ted('garbage', 'more garbage');",
    "SELECT 'alive', ast_ted('SELECT a FROM t', 'SELECT a FROM t');",
]


def test_sqlite_shell_survives_the_battery():
    script = "\n".join(BATTERY) + "\nSELECT length(sql_parse_error(printf('SELECT %.*c', 10500000, 'x'))) > 0;\n"
    proc = run_sqlite_shell(script)
    assert proc.returncode == 0, proc.stderr
    assert "alive|1.0" in proc.stdout


def test_sqlite_shell_errors_then_continues():
    proc = run_sqlite_shell("SELECT ast_ted(1, 2);\n")
    assert "ast_ted(): argument 'a' must be TEXT" in proc.stderr
    proc = run_sqlite_shell(".bail off\nSELECT ast_ted(x'ff', 'a');\nSELECT 'next', ast_ted('SELECT 1', 'SELECT 1');\n")
    assert "not valid UTF-8" in proc.stderr and "next|1.0" in proc.stdout


def test_duckdb_shell_survives_the_battery():
    battery = [s.replace("printf('%.*c', 10000, '(')", "repeat('(', 10000)").replace(
        "printf('%.*c', 10000, ')')", "repeat(')', 10000)") for s in BATTERY]
    script = ".mode list\n" + "\n".join(battery) + "\nSELECT ast_ted(1, 2);\nSELECT 'after-error', ast_ted('SELECT 1', 'SELECT 1');\n"
    proc = run_duckdb_shell(script)
    assert "alive|1.0" in proc.stdout, proc.stdout + proc.stderr
    assert "after-error|1.0" in proc.stdout
    assert "ast_ted" in proc.stderr  # the binder error names the function


def test_extensions_load_from_any_directory(tmp_path):
    os.chdir(tmp_path)
    assert "alive|1.0" in run_sqlite_shell(BATTERY[-1]).stdout


def test_libz3_is_found_beside_the_extension_with_no_environment(tmp_path):
    """dist/ carries libz3 (the z3-solver wheel's); the library finds it through its $ORIGIN run
    path from any directory, with an empty environment, in sqlite3, apsw and DuckDB."""
    import subprocess
    import sys

    from conftest import DUCKDB_EXTENSION, SCRIPTS, SQLITE_EXTENSION
    import common  # scripts/common.py; conftest put scripts/ on sys.path

    probe = "SELECT json_extract(sqlsim_debug(), '$.z3');"
    shell = subprocess.run(["/usr/bin/sqlite3", *common.sqlite_shell_args(SQLITE_EXTENSION), ":memory:",
                            probe], cwd=tmp_path, env={}, capture_output=True, text=True, timeout=60)
    assert shell.stdout.startswith("5."), shell.stdout + shell.stderr
    script = f"""
import json, sys
sys.path.insert(0, {SCRIPTS!r})
from common import connect_apsw, connect_duckdb
c = connect_apsw({SQLITE_EXTENSION!r})
d = connect_duckdb({DUCKDB_EXTENSION!r})
q = "SELECT sqlsim_debug()"
print(json.loads(c.execute(q).fetchone()[0])['z3'], json.loads(d.execute(q).fetchone()[0])['z3'])
"""
    py = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env={},
                        capture_output=True, text=True, timeout=120)
    assert py.returncode == 0, py.stderr
    apsw_z3, duck_z3 = py.stdout.split()
    assert apsw_z3 == duck_z3 and apsw_z3.startswith("5.")


def test_sqlite_shell_keeps_its_sqlite_and_queries_run_on_the_engine(tmp_path):
    """The sqlite3 shell answers sqlite_version() with its own SQLite while sqlsim's queries run on
    the one compiled into the library (3.47 or later): neither copy's symbols bind to the other's
    (with a shell older than 3.47, as Debian 12's 3.40, a hijack either way shows)."""
    import sqlite3
    import subprocess

    db = tmp_path / "one.sqlite"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE t(a)")
    con.commit()
    con.close()
    engine_sql = "json_extract(sqlsim_debug(), '$.sqlite')"
    proc = run_sqlite_shell(f"SELECT sqlite_version(), {engine_sql},\n"
                            f"  exec_match('{db}', 'SELECT sqlite_version()', 'SELECT ' || quote({engine_sql}));\n")
    assert proc.returncode == 0, proc.stderr
    host, engine, same = proc.stdout.strip().split("|")
    shell_version = subprocess.run(["sqlite3", "--version"], capture_output=True, text=True).stdout.split()[0]
    assert host == shell_version, (host, shell_version)
    assert tuple(int(p) for p in engine.split(".")) >= (3, 47), engine
    assert same == "1", proc.stdout
