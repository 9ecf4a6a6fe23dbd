#!/usr/bin/env python3
"""Loads the extension into the oldest and newest DuckDB releases on PyPI (1.3 through 2.0).

Each version is pip-installed once into .cache/duckdb-<version>/ and exercised in a subprocess:
LOAD, a scalar call, a table function call. Prints one line per version and a closing count line.
"""
import os
import subprocess
import sys

VERSIONS = ["1.3.2", "1.4.4", "1.5.6", "2.0.0"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PROBE = r"""
import duckdb, json, sys
sys.path.insert(0, sys.argv[2])
from common import connect_duckdb
con = connect_duckdb(sys.argv[1])
score = con.execute("SELECT ast_ted('SELECT a FROM t', 'SELECT b FROM t')").fetchone()[0]
rows = con.execute("SELECT count(*) FROM sqlsim_functions()").fetchone()[0]
z3 = json.loads(con.execute("SELECT sqlsim_debug()").fetchone()[0])["z3"]
assert 0.0 < score < 1.0 and rows > 0 and z3.startswith("5."), (score, rows, z3)
print(duckdb.__version__, score, rows, "z3", z3)
"""


def main() -> int:
    extension = os.path.abspath(sys.argv[1])
    passed = failed = 0
    for version in VERSIONS:
        target = os.path.join(ROOT, ".cache", f"duckdb-{version}")
        if not os.path.isdir(os.path.join(target, "duckdb")):
            subprocess.run(
                [sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                 "--target", target, f"duckdb=={version}"],
                check=True,
            )
        env = dict(os.environ, PYTHONPATH=target)
        run = subprocess.run([sys.executable, "-c", PROBE, extension, os.path.join(ROOT, "scripts")],
                             env=env, capture_output=True, text=True)
        if run.returncode == 0:
            passed += 1
            print(f"duckdb {version}: ok ({run.stdout.strip()})")
        else:
            failed += 1
            print(f"duckdb {version}: FAILED\n{run.stdout}{run.stderr}")
    print(f"duckdb versions: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
