"""sqlsim: SQL similarity, equivalence and text-to-SQL evaluation inside SQLite and DuckDB.

The wheel carries both compiled extensions (SQLite's ``sqlsim.so``, DuckDB's
``sqlsim.duckdb_extension``) with the libraries and models they load from beside themselves
(libz3, ONNX Runtime, the GMN models) in ``sqlsim/lib/``. Nothing is compiled or downloaded.

    import sqlsim, apsw
    con = sqlsim.load(apsw.Connection(":memory:"))
    con.execute("SELECT sql_similarity('SELECT 1', 'SELECT 2')")

    con = sqlsim.connect_duckdb()          # DuckDB with unsigned extensions allowed, sqlsim loaded

In a source checkout the package has no lib/: set $SQLSIM_DIST to the folder `make` fills (dist/)
and the files are taken from there instead, or pass the file itself (``load(con, extension=...)``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ._scripts import sql_string

__all__ = ["load", "extension_path", "connect_duckdb", "connect_sqlite", "duckdb_extension", "open_duckdb", "LoadError", "__version__", "HOSTS"]

# The extension files of each host, in lib/ beside this file.
HOSTS = {"sqlite": "sqlsim.so", "duckdb": "sqlsim.duckdb_extension"}
LIB_DIR = Path(__file__).resolve().parent / "lib"


def _version() -> str:
    try:
        from importlib.metadata import PackageNotFoundError, version
    except ImportError:  # pragma: no cover - Python < 3.8
        return "0+unknown"
    try:
        return version("sqlsim")
    except PackageNotFoundError:
        return "0+unknown"


__version__ = _version()


class LoadError(RuntimeError):
    """The extension cannot be loaded into this connection; the message says what to do instead."""


def extension_path(host: str = "sqlite", extension: str | os.PathLike | None = None) -> str:
    """The absolute path of the extension file for ``host`` ("sqlite" or "duckdb"): ``extension``
    when given, else the host's file in $SQLSIM_DIST when that is set (a source build's dist/), else
    the installed package's in lib/. Raises LoadError naming the path when there is no such file."""
    if host not in HOSTS:
        raise ValueError(f"sqlsim.extension_path: host must be 'sqlite' or 'duckdb', got {host!r}")
    if extension is not None:
        path = os.path.abspath(os.fspath(extension))
        # SQLite's loader also tries the name with ".so" appended
        if os.path.isfile(path) or (host == "sqlite" and os.path.isfile(path + ".so")):
            return path
        raise LoadError(f"sqlsim.extension_path: argument 'extension': no such file {path}; "
                        "build the extension with `make`, which fills dist/")
    dist = os.environ.get("SQLSIM_DIST")
    if dist:
        path = Path(os.path.abspath(dist)) / HOSTS[host]
        if not path.is_file():
            raise LoadError(f"sqlsim.extension_path: {path} is missing ($SQLSIM_DIST is {dist}); build the "
                            "extension with `make`, which fills dist/, or unset SQLSIM_DIST to use the installed "
                            "package's")
        return str(path)
    path = LIB_DIR / HOSTS[host]
    if not path.is_file():
        raise LoadError(f"sqlsim.extension_path: {path} is missing; this sqlsim installation is incomplete "
                        "(reinstall the wheel, or build it with `make wheel`; in a source checkout run `make` "
                        "and set SQLSIM_DIST to its dist/ folder)")
    return str(path)


def _kind(con) -> str:
    """'apsw', 'sqlite3' or 'duckdb' by the connection's class, without importing a host not in use."""
    module = type(con).__module__.split(".")[0]
    apsw = sys.modules.get("apsw")
    if apsw is not None and isinstance(con, apsw.Connection):
        return "apsw"
    sqlite3 = sys.modules.get("sqlite3")
    if sqlite3 is not None and isinstance(con, sqlite3.Connection):
        return "sqlite3"
    duckdb = sys.modules.get("duckdb")
    if duckdb is not None and isinstance(con, duckdb.DuckDBPyConnection):
        return "duckdb"
    if module in ("duckdb", "_duckdb"):
        return "duckdb"
    raise TypeError(f"sqlsim.load: expected an apsw, sqlite3 or duckdb connection, got {type(con).__module__}."
                    f"{type(con).__qualname__}")


_NO_SQLITE3_EXTENSIONS = (
    "sqlsim.load: this Python's sqlite3 module was built without loadable extension support "
    "(sqlite3.Connection has no enable_load_extension; the case for macOS's system Python and some "
    "pyenv or conda builds). Use apsw instead (`pip install apsw`; "
    "sqlsim.load(apsw.Connection(path))) or DuckDB (sqlsim.connect_duckdb(path)).")


def _duckdb_allows_unsigned(con) -> bool:
    value = con.execute("SELECT current_setting('allow_unsigned_extensions')").fetchone()[0]
    return value is True or str(value).lower() == "true"


def load(con, extension: str | os.PathLike | None = None):
    """Loads sqlsim into an apsw, sqlite3 or duckdb connection and returns the connection.

    ``extension``: the extension file to load (e.g. another build's); by default
    :func:`extension_path`'s ($SQLSIM_DIST's file when set, else the installed package's).
    DuckDB connections must be opened with ``config={"allow_unsigned_extensions": "true"}``
    (or use :func:`connect_duckdb`), since the extension is not signed by DuckDB Labs.
    """
    kind = _kind(con)
    if kind == "duckdb":
        if not _duckdb_allows_unsigned(con):
            raise LoadError(
                "sqlsim.load: this DuckDB connection refuses unsigned extensions, and sqlsim is not signed by "
                "DuckDB Labs. Open it with duckdb.connect(path, config={'allow_unsigned_extensions': 'true'}) "
                "or use sqlsim.connect_duckdb(path); the setting cannot be changed on an open connection.")
        con.execute("LOAD " + sql_string(extension_path("duckdb", extension)))
        return con
    path = extension_path("sqlite", extension)
    if kind == "sqlite3" and not hasattr(con, "enable_load_extension"):
        raise LoadError(_NO_SQLITE3_EXTENSIONS)
    con.enable_load_extension(True)
    try:
        con.load_extension(path)
    finally:
        con.enable_load_extension(False)
    return con


def duckdb_extension(explicit: str | None = None) -> str:
    """The DuckDB extension file for workers outside a user's connection (sqlsim.ray, sqlsim.reward):
    ``explicit`` when given, else $SQLSIM_DUCKDB_EXTENSION, else :func:`extension_path`'s
    ($SQLSIM_DIST's file when set, else the installed package's)."""
    return str(explicit) if explicit else os.environ.get("SQLSIM_DUCKDB_EXTENSION") or extension_path("duckdb")


def open_duckdb(extension: str | None = None, threads: int | None = None):
    """A new in-memory DuckDB connection with :func:`duckdb_extension`'s file loaded (and
    ``threads`` DuckDB threads when given): what each Ray actor and reward worker holds."""
    import duckdb

    config = {"allow_unsigned_extensions": "true"}
    if threads is not None:
        config["threads"] = str(int(threads))
    con = duckdb.connect(config=config)
    con.execute("LOAD " + sql_string(duckdb_extension(extension))).fetchall()
    return con


def connect_duckdb(database: str = ":memory:", read_only: bool = False, config: dict | None = None,
                   extension: str | os.PathLike | None = None):
    """A DuckDB connection with unsigned extensions allowed and sqlsim loaded (``extension`` as in :func:`load`).

    ``config`` is passed on to ``duckdb.connect`` with ``allow_unsigned_extensions`` added.
    """
    try:
        import duckdb
    except ImportError as e:  # pragma: no cover - duckdb is a dependency of the wheel
        raise LoadError("sqlsim.connect_duckdb: the duckdb package is not installed (`pip install duckdb`)") from e
    settings = dict(config or {})
    settings["allow_unsigned_extensions"] = "true"
    return load(duckdb.connect(database, read_only=read_only, config=settings), extension)


def connect_sqlite(database: str = ":memory:", extension: str | os.PathLike | None = None):
    """An apsw connection with sqlsim loaded (apsw's bundled SQLite always allows extensions;
    ``extension`` as in :func:`load`)."""
    try:
        import apsw
    except ImportError as e:
        raise LoadError("sqlsim.connect_sqlite: the apsw package is not installed (`pip install apsw`; "
                        "or use sqlite3.connect(...) with sqlsim.load where it allows extensions)") from e
    return load(apsw.Connection(database), extension)

