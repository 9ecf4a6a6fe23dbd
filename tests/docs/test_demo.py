"""sql/demo.sql, what `make demo` shows a new user, runs without an error in the real sqlite3 and
duckdb shells, both print the same values, and it still shows what it says it shows: the scores,
verdicts with reasons, a counterexample, the other metrics and a plan."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import common  # noqa: E402  (scripts/common.py)

DEMO = (ROOT / "sql" / "demo.sql").read_text(encoding="utf-8")
LIST_MODE = ["-cmd", ".mode list", "-cmd", ".headers off", "-cmd", ".nullvalue NULL"]


def run(argv):
    proc = subprocess.run(argv, input=DEMO, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    return proc.stdout


@pytest.fixture(scope="module")
def outputs():
    sqlite = run(["sqlite3", "-bail", *common.sqlite_shell_args(), *LIST_MODE, ":memory:"])
    duckdb = run([str(ROOT / ".venv" / "bin" / "duckdb"), "-bail", *common.duckdb_shell_args(),
                  *LIST_MODE, ":memory:"])
    return sqlite, duckdb


def test_both_shells_print_the_same(outputs):
    sqlite, duckdb = outputs
    assert sqlite == duckdb


def test_demo_shows_what_it_says(outputs):
    out = outputs[0]
    lines = out.splitlines()
    # 1. pair 1 (the same query, other spelling): similarity 1, equivalent, Spider exact match
    assert "1|1.0|1|1|easy" in lines
    # 2. reasons of both kinds
    assert any(l.startswith("2|equivalent: same results under bag semantics on") for l in lines)
    assert any(l.startswith("4|not equivalent: the results differ under bag semantics") for l in lines)
    # 3. the counterexample with both outputs
    assert 'singer|1|{"country":"France","singer_id":null}|[[2]]|[[0]]' in lines
    # 4. a prediction that does not parse scores 0 and says why
    assert any(l.startswith("7|0.0|0.0|0.0|NULL|NULL|NULL|sql parser error") for l in lines)
    # 7. the plan, one line per operator
    assert "  LogicalJoin(condition=[=($0, $4)], joinType=[inner])" in lines
    # 8. the function list ends the demo
    assert lines[-1] == "spider_schemas|table"
