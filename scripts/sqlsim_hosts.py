"""Loading the built extension into a host: the one place the scripts, the tests and models/gmn do it.

    from sqlsim_hosts import connect_apsw, connect_duckdb, sqlite_shell_args, duckdb_shell_args

    con = connect_apsw()                      # apsw.Connection(':memory:') with dist/sqlsim.so loaded
    con = connect_duckdb()                    # duckdb.connect(allow_unsigned_extensions) + LOAD
    ["sqlite3", "-bail", *sqlite_shell_args(), ":memory:"]        # the sqlite3 shell
    [duckdb_cli, *duckdb_shell_args(), ":memory:"]                # the duckdb shell (-unsigned)

Every function takes the extension file as an optional argument; without it, the file in dist/
($SQLSIM_DIST when set, else dist/ of this checkout). A missing file raises ExtensionMissing, which
names the path and says to run `make`, before any host sees it. Host modules (apsw, duckdb) are
imported when a connection is made, so that a process with only one of them (the DuckDB versions of
tests/duckdb_versions.py) can use this module.

Importable without installing: scripts/ run as `python scripts/x.py` have this folder on sys.path
already; tests/ and models/gmn/ add ROOT/scripts to sys.path, as scripts/ do for their siblings.
"""

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIST = Path(os.environ.get("SQLSIM_DIST", ROOT / "dist"))
SQLITE_FILE = "sqlsim.so"
DUCKDB_FILE = "sqlsim.duckdb_extension"


class ExtensionMissing(FileNotFoundError):
    """The extension file to load does not exist."""


def _checked(extension, default, suffix=None):
    """`extension` (or DIST/`default` when None) as a string; raises ExtensionMissing when there is
    no such file (nor, for SQLite, the path + `suffix`, which SQLite's loader tries too)."""
    path = str(extension if extension is not None else DIST / default)
    if os.path.isfile(path) or (suffix and os.path.isfile(path + suffix)):
        return path
    hint = " (or set SQLSIM_DIST to the folder that holds it)" if extension is None else ""
    raise ExtensionMissing(f"sqlsim extension not found: {path}; build it with `make`, which fills dist/{hint}")


def sqlite_extension(extension=None):
    """The SQLite extension file (default dist/sqlsim.so), checked to exist."""
    return _checked(extension, SQLITE_FILE, ".so")


def duckdb_extension(extension=None):
    """The DuckDB extension file (default dist/sqlsim.duckdb_extension), checked to exist."""
    return _checked(extension, DUCKDB_FILE)


def connect_apsw(extension=None, database=":memory:"):
    """An apsw connection to `database` with the extension loaded."""
    import apsw

    path = sqlite_extension(extension)
    con = apsw.Connection(database)
    con.enable_load_extension(True)
    con.load_extension(path)
    return con


def connect_duckdb(extension=None):
    """An in-memory Python duckdb connection, unsigned extensions allowed, with the extension loaded."""
    import duckdb

    path = duckdb_extension(extension)
    con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    con.execute(f"LOAD '{path}'")
    return con


def sqlite_shell_args(extension=None):
    """sqlite3 shell options that load the extension before the first statement."""
    return ["-cmd", f".load {sqlite_extension(extension)}"]


def duckdb_shell_args(extension=None):
    """duckdb shell options that allow unsigned extensions and load this one before the first statement."""
    return ["-unsigned", "-cmd", f"LOAD '{duckdb_extension(extension)}'"]
