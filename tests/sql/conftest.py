"""Fixtures for SQL-level tests: the built extension loaded into real SQLite (apsw, sqlite3 shell)
and real DuckDB (Python duckdb, duckdb CLI)."""
import json
import os
import re
import sqlite3
import subprocess
import sys

import apsw
import duckdb
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPTS = os.path.join(ROOT, "scripts")
sys.path.insert(0, SCRIPTS)
import common  # noqa: E402  (scripts/common.py)

SQLITE_EXTENSION = str(common.DIST / common.SQLITE_FILE)
DUCKDB_EXTENSION = str(common.DIST / common.DUCKDB_FILE)
DUCKDB_CLI = os.path.join(ROOT, ".venv", "bin", "duckdb")
DATA = os.environ.get("SQLSIM_DATA", os.path.join(ROOT, "..", "shared", "data"))


class HostError(Exception):
    """A SQL error raised by either host, with its message."""


class SqliteHost:
    name = "sqlite"

    def __init__(self):
        self.con = common.connect_apsw(SQLITE_EXTENSION)

    def rows(self, sql, params=()):
        try:
            return [tuple(r) for r in self.con.execute(sql, params)]
        except apsw.Error as e:
            raise HostError(str(e)) from e

    def value(self, sql, params=()):
        return self.rows(sql, params)[0][0]

    def table_call(self, function, args, named=None):
        """SELECT * FROM function(args...): optional arguments are positional in SQLite."""
        values = list(args) + list((named or {}).values())
        marks = ", ".join("?" for _ in values)
        return self.rows(f"SELECT * FROM {function}({marks})", values)


class DuckHost:
    name = "duckdb"

    def __init__(self):
        self.con = common.connect_duckdb(DUCKDB_EXTENSION)

    def rows(self, sql, params=()):
        try:
            return [tuple(r) for r in self.con.execute(sql, list(params)).fetchall()]
        except duckdb.Error as e:
            raise HostError(str(e)) from e

    def value(self, sql, params=()):
        return self.rows(sql, params)[0][0]

    def table_call(self, function, args, named=None):
        """SELECT * FROM function(args..., name := value): optional arguments are named in DuckDB."""
        parts = ["?" for _ in args] + [f"{k} := ?" for k in (named or {})]
        values = list(args) + list((named or {}).values())
        return self.rows(f"SELECT * FROM {function}({', '.join(parts)})", values)


@pytest.fixture(scope="session", params=["sqlite", "duckdb"])
def host(request):
    return SqliteHost() if request.param == "sqlite" else DuckHost()


@pytest.fixture(scope="session")
def sqlite_host():
    return SqliteHost()


@pytest.fixture(scope="session")
def duck_host():
    return DuckHost()


def run_sqlite_shell(script):
    """Runs `script` in the real sqlite3 shell with the extension loaded; returns the process."""
    return subprocess.run(
        ["sqlite3", "-bail", *common.sqlite_shell_args(SQLITE_EXTENSION), ":memory:"],
        input=script, capture_output=True, text=True, timeout=300,
    )


def run_duckdb_shell(script):
    """Runs `script` in the real duckdb shell with the extension loaded; returns the process."""
    return subprocess.run(
        [DUCKDB_CLI, *common.duckdb_shell_args(DUCKDB_EXTENSION), ":memory:"],
        input=script, capture_output=True, text=True, timeout=300,
    )


def opts(**kw):
    """An options argument: opts(dialect="postgres") is '{"dialect": "postgres"}'."""
    return json.dumps(kw)


def sqlite_database(tmp_path, ddl, rows):
    """A SQLite file under tmp_path made by the DDL script `ddl`, its first table holding `rows`;
    returns its path (for exec_match and the functions that run on a real database)."""
    path = tmp_path / "t.sqlite"
    con = sqlite3.connect(path)
    con.executescript(ddl)
    if rows:
        table = re.match(r"\s*CREATE TABLE (\w+)", ddl, re.I).group(1)
        marks = ", ".join("?" for _ in rows[0])
        con.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)
    con.commit()
    con.close()
    return str(path)
