"""A fresh venv with dist/sqlsim-*.whl installed (`make wheel` first), shared by the wheel tests.

The venv is made in a temporary folder from a Python whose stdlib sqlite3 can load extensions
(/usr/bin/python3 on Debian; SQLSIM_WHEEL_PYTHON picks another), and every command runs with that
venv's python from a temporary working directory with no PYTHONPATH, so the checkout is never on
sys.path. Dependencies are installed from .cache/wheelhouse, filled by `pip download` on the first run
(the only network use) and offline afterwards."""

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DIST = Path(os.environ.get("SQLSIM_DIST", ROOT / "dist"))
FIXTURES = ROOT / "tests" / "fixtures" / "wheel"
WHEELHOUSE = ROOT / ".cache" / "wheelhouse"
EXTRAS = "[roc,apsw]"


def _loads_extensions(python):
    probe = "import sqlite3, sys; sys.exit(0 if hasattr(sqlite3.Connection, 'enable_load_extension') else 1)"
    return subprocess.run([python, "-c", probe], capture_output=True).returncode == 0


def _base_pythons():
    seen = []
    for p in (os.environ.get("SQLSIM_WHEEL_PYTHON"), "/usr/bin/python3", getattr(sys, "_base_executable", None),
              shutil.which("python3")):
        if p and Path(p).exists() and p not in seen:
            seen.append(p)
    return seen


def _has_venv(python):
    return subprocess.run([python, "-c", "import venv, ensurepip"], capture_output=True).returncode == 0


def base_python():
    candidates = [p for p in _base_pythons() if _has_venv(p)]
    if not candidates:
        pytest.fail("no Python with the venv module found (Debian: apt-get install python3-venv)")
    return next((p for p in candidates if _loads_extensions(p)), candidates[0])


def python_without_extension_loading():
    """An interpreter whose stdlib sqlite3 cannot load extensions, if this machine has one."""
    for p in _base_pythons():
        if not _loads_extensions(p):
            return p
    return None


class Venv:
    def __init__(self, path: Path, wheel: Path, install_seconds: float):
        self.path, self.wheel, self.install_seconds = path, wheel, install_seconds
        self.python = str(path / "bin" / "python")
        self.sqlsim = str(path / "bin" / "sqlsim")
        self.workdir = path.parent / "work"
        self.workdir.mkdir(exist_ok=True)

    def env(self):
        # SQLSIM_DIST and SQLSIM_DUCKDB_EXTENSION would make the package load dist/ instead of its own lib/
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "SQLSIM_MODEL_DIR", "ORT_DYLIB_PATH",
                                                                 "LD_LIBRARY_PATH", "VIRTUAL_ENV", "SQLSIM_DIST",
                                                                 "SQLSIM_DUCKDB_EXTENSION")}
        env["PATH"] = f"{self.path / 'bin'}:{env.get('PATH', '')}"
        env["SQLSIM_PROGRESS"] = "0"
        return env

    def run(self, args, check=True, timeout=300, env=None):
        proc = subprocess.run(args, cwd=self.workdir, env=env or self.env(), capture_output=True, text=True,
                              timeout=timeout)
        if check and proc.returncode != 0:
            raise AssertionError(f"{args} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
        return proc

    def py(self, code, check=True):
        return self.run([self.python, "-c", code], check=check)

    def cli(self, *args, check=True):
        return self.run([self.sqlsim, *map(str, args)], check=check)


def _pip(venv_python, *args):
    return subprocess.run([venv_python, "-m", "pip", "--disable-pip-version-check", *args], capture_output=True,
                          text=True)


@pytest.fixture(scope="session")
def venv(tmp_path_factory):
    wheels = sorted(DIST.glob("sqlsim-*.whl"))
    if len(wheels) != 1:
        pytest.fail(f"expected one sqlsim wheel in {DIST}, found {wheels}: run `make wheel`")
    wheel = wheels[0]
    path = tmp_path_factory.mktemp("fresh") / "venv"
    subprocess.run([base_python(), "-m", "venv", str(path)], check=True)
    python = str(path / "bin" / "python")
    WHEELHOUSE.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    offline = _pip(python, "install", "-q", "--no-index", "--find-links", str(WHEELHOUSE), f"{wheel}{EXTRAS}")
    if offline.returncode != 0:  # first run (or new dependencies): fill the wheelhouse, then install offline
        got = _pip(python, "download", "-q", "-d", str(WHEELHOUSE), f"{wheel}{EXTRAS}")
        assert got.returncode == 0, got.stderr
        (WHEELHOUSE / wheel.name).unlink(missing_ok=True)
        start = time.perf_counter()
        offline = _pip(python, "install", "-q", "--no-index", "--find-links", str(WHEELHOUSE), f"{wheel}{EXTRAS}")
    assert offline.returncode == 0, offline.stderr
    seconds = time.perf_counter() - start
    print(f"\nwheel {wheel.name} ({wheel.stat().st_size / 2**20:.1f} MiB) installed with its dependencies "
          f"into a fresh venv in {seconds:.1f} s")
    return Venv(path, wheel, seconds)


@pytest.fixture(scope="session")
def databases(tmp_path_factory):
    """db/<db_id>/<db_id>.sqlite for the fixture databases (as Spider's --db and BIRD's db_root expect)."""
    import json
    import sqlite3

    root = tmp_path_factory.mktemp("dbs") / "db"
    for db_id, statements in json.loads((FIXTURES / "databases.json").read_text()).items():
        (root / db_id).mkdir(parents=True)
        con = sqlite3.connect(root / db_id / f"{db_id}.sqlite")
        for s in statements:
            con.execute(s)
        con.commit()
        con.close()
    return root
