"""The package as the one loader: sqlsim.extension_path / load take a source build's files from
$SQLSIM_DIST or an explicit file, a missing file is a LoadError naming its path, and
scripts/common.py loads through the package. Loads dist/ (run `make` first)."""

import os
import subprocess
import sys
from pathlib import Path

import apsw
import duckdb
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
import sqlsim  # noqa: E402

DIST = Path(os.environ.get("SQLSIM_DIST") or ROOT / "dist")
SQLITE = DIST / "sqlsim.so"
DUCKDB = DIST / "sqlsim.duckdb_extension"
VERSION = "SELECT sqlsim_version()"


@pytest.fixture
def env(monkeypatch):
    monkeypatch.delenv("SQLSIM_DIST", raising=False)
    monkeypatch.delenv("SQLSIM_DUCKDB_EXTENSION", raising=False)
    return monkeypatch


def test_sqlsim_dist_names_the_build_files(env):
    env.setenv("SQLSIM_DIST", str(DIST))
    assert sqlsim.extension_path("sqlite") == str(SQLITE)
    assert sqlsim.extension_path("duckdb") == str(DUCKDB)
    assert sqlsim.duckdb_extension() == str(DUCKDB)


def test_sqlsim_dist_relative_is_made_absolute(env, tmp_path):
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "sqlsim.so").write_bytes(b"")
    env.chdir(tmp_path)
    env.setenv("SQLSIM_DIST", "build")
    assert sqlsim.extension_path("sqlite") == str(tmp_path / "build" / "sqlsim.so")


def test_sqlsim_dist_loads_into_both_hosts(env):
    env.setenv("SQLSIM_DIST", str(DIST))
    assert sqlsim.connect_sqlite().execute(VERSION).fetchone()[0].startswith("sqlsim")
    assert sqlsim.load(apsw.Connection(":memory:")).execute(VERSION).fetchone()[0].startswith("sqlsim")
    assert sqlsim.connect_duckdb().execute(VERSION).fetchone()[0].startswith("sqlsim")
    assert sqlsim.open_duckdb().execute(VERSION).fetchone()[0].startswith("sqlsim")


def test_missing_file_in_sqlsim_dist_names_the_path_and_make(env, tmp_path):
    env.setenv("SQLSIM_DIST", str(tmp_path))
    for host, name in sqlsim.HOSTS.items():
        with pytest.raises(sqlsim.LoadError) as e:
            sqlsim.extension_path(host)
        assert str(tmp_path / name) in str(e.value) and "`make`" in str(e.value)
    with pytest.raises(sqlsim.LoadError, match="sqlsim.so"):
        sqlsim.load(apsw.Connection(":memory:"))
    with pytest.raises(sqlsim.LoadError, match="sqlsim.duckdb_extension"):
        sqlsim.connect_duckdb()


def test_without_sqlsim_dist_the_package_lib(env, tmp_path):
    env.setattr(sqlsim, "LIB_DIR", tmp_path)
    with pytest.raises(sqlsim.LoadError, match=str(tmp_path / "sqlsim.so")):
        sqlsim.extension_path("sqlite")
    (tmp_path / "sqlsim.so").write_bytes(b"")
    assert sqlsim.extension_path("sqlite") == str(tmp_path / "sqlsim.so")


def test_explicit_extension_wins_over_sqlsim_dist(env, tmp_path):
    env.setenv("SQLSIM_DIST", str(tmp_path))  # empty: only the explicit file can load
    assert sqlsim.load(apsw.Connection(":memory:"), SQLITE).execute(VERSION).fetchone()[0].startswith("sqlsim")
    assert sqlsim.connect_sqlite(extension=SQLITE).execute(VERSION).fetchone()[0].startswith("sqlsim")
    assert sqlsim.connect_duckdb(extension=DUCKDB).execute(VERSION).fetchone()[0].startswith("sqlsim")
    con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    assert sqlsim.load(con, extension=str(DUCKDB)).execute(VERSION).fetchone()[0].startswith("sqlsim")
    # SQLite's loader appends ".so" itself, so the name without it is a file too
    assert sqlsim.extension_path("sqlite", DIST / "sqlsim") == str(DIST / "sqlsim")


def test_missing_explicit_extension_names_the_path(env, tmp_path):
    env.setenv("SQLSIM_DIST", str(DIST))
    missing = tmp_path / "nowhere.so"
    with pytest.raises(sqlsim.LoadError, match=f"argument 'extension': no such file {missing}"):
        sqlsim.load(apsw.Connection(":memory:"), missing)
    with pytest.raises(sqlsim.LoadError, match="no such file"):
        sqlsim.connect_duckdb(extension=missing)
    with pytest.raises(sqlsim.LoadError, match="no such file"):  # no ".so" fallback for DuckDB
        sqlsim.extension_path("duckdb", DIST / "sqlsim")


def test_duckdb_extension_variable_before_sqlsim_dist(env, tmp_path):
    env.setenv("SQLSIM_DIST", str(tmp_path))
    env.setenv("SQLSIM_DUCKDB_EXTENSION", str(DUCKDB))
    assert sqlsim.duckdb_extension() == str(DUCKDB)
    assert sqlsim.duckdb_extension("x.duckdb_extension") == "x.duckdb_extension"


def test_scripts_common_loads_through_the_package(tmp_path):
    """scripts/common.py sets SQLSIM_DIST to the checkout's dist/ unless set, puts python/ on sys.path
    and loads with sqlsim; the processes it starts see the same SQLSIM_DIST."""
    probe = ("import os, sys; sys.path.insert(0, sys.argv[1]); import common, sqlsim; "
             "print(os.environ['SQLSIM_DIST']); print(sqlsim.__file__); "
             "print(common.sqlite_extension()); print(common.duckdb_shell_args()[-1]); "
             "print(common.connect_apsw().execute('SELECT sqlsim_version()').fetchone()[0]); "
             "print(common.connect_duckdb().execute('SELECT sqlsim_version()').fetchone()[0])")
    env = {k: v for k, v in os.environ.items() if k not in ("SQLSIM_DIST", "PYTHONPATH")}
    out = subprocess.run([sys.executable, "-c", probe, str(ROOT / "scripts")], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[:4] == [str(ROOT / "dist"), str(ROOT / "python" / "sqlsim" / "__init__.py"),
                         str(ROOT / "dist" / "sqlsim.so"), f"LOAD '{ROOT / 'dist' / 'sqlsim.duckdb_extension'}'"]
    assert lines[4].startswith("sqlsim") and lines[5].startswith("sqlsim")

    env["SQLSIM_DIST"] = str(tmp_path)  # an empty build folder: sqlsim's LoadError names the file
    out = subprocess.run([sys.executable, "-c", probe, str(ROOT / "scripts")], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode != 0
    assert f"sqlsim.LoadError: sqlsim.extension_path: {tmp_path / 'sqlsim.so'} is missing" in out.stderr
