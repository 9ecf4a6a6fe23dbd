"""The Spider report scripts (sql/spider_eval.sql in the duckdb shell, sql/spider_eval_sqlite.sql in the
sqlite3 shell) on a small gold/pred fixture: the printed report matches evaluation.py's numbers.

The fixture is 8 concert_singer examples of the official gold_example.txt / pred_example.txt; the expected
figures are evaluation.py's aggregation of the official per-example results for them. The pred file also
has a CRLF line, a second tab field and a blank line, which evaluation.py strips, ignores and skips.
"""
import os
import subprocess

import pytest

from conftest import DUCKDB_CLI, DUCKDB_EXTENSION, ROOT, SQLITE_EXTENSION
import sqlsim_hosts  # conftest put scripts/ on sys.path

FIXTURE = os.path.join(ROOT, "tests", "fixtures", "spider_eval")
GOLD = os.path.join(FIXTURE, "gold.txt")
PRED = os.path.join(FIXTURE, "pred.txt")
TABLES = os.path.join(ROOT, "tests", "golden", "spider", "tables.json")
LEVELS = ["easy", "medium", "hard", "extra", "all"]

# evaluation.py on these 8 examples: count and exact per level, and (acc, rec, f1) of some components.
EXPECTED_COUNT = [3, 3, 1, 1, 8]
EXPECTED_EXACT = [0.333, 0.667, 1.000, 0.000, 0.500]
EXPECTED_PARTIAL = {
    "where": ([1.0, 0.5, 1.0, 0.0, 0.75], [1.0, 0.5, 1.0, 0.0, 0.6], [1.0, 0.5, 1.0, 1.0, 0.667]),
    "keywords": ([1.0, 0.667, 1.0, 0.0, 0.667], [1.0, 0.667, 1.0, 0.0, 0.667], [1.0, 0.667, 1.0, 1.0, 0.667]),
    "select": ([1.0] * 5, [1.0] * 5, [1.0] * 5),
}


def run_duckdb_report():
    with open(os.path.join(ROOT, "sql", "spider_eval.sql")) as f:
        script = f.read()
    proc = subprocess.run(
        [DUCKDB_CLI, *sqlsim_hosts.duckdb_shell_args(DUCKDB_EXTENSION),
         "-cmd", f"SET VARIABLE gold = '{GOLD}'", "-cmd", f"SET VARIABLE pred = '{PRED}'",
         "-cmd", f"SET VARIABLE tables = '{TABLES}'", ":memory:"],
        input=script, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def run_sqlite_report():
    with open(os.path.join(ROOT, "sql", "spider_eval_sqlite.sql")) as f:
        script = f.read()
    script = script.replace("{{GOLD}}", GOLD).replace("{{PRED}}", PRED).replace("{{TABLES}}", TABLES)
    proc = subprocess.run(["sqlite3", "-bail", *sqlsim_hosts.sqlite_shell_args(SQLITE_EXTENSION), ":memory:"],
                          input=script, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "", proc.stderr
    return proc.stdout


def parse_report(text):
    """{section: {row name: [5 values as text]}}; sections as evaluation.py prints them."""
    sections, section = {}, "counts"
    for line in text.splitlines():
        if not line.strip():
            continue
        if line.startswith(("=", "-")):
            section = line.strip("=- ")
            continue
        name, values = line[:20].strip(), line[21:].split()
        sections.setdefault(section, {})[name] = values
    return sections


@pytest.fixture(scope="module")
def reports():
    return {"duckdb": run_duckdb_report(), "sqlite": run_sqlite_report()}


def test_both_hosts_print_the_same_report(reports):
    assert reports["duckdb"] == reports["sqlite"]
    assert len(reports["duckdb"].splitlines()) == 39


@pytest.mark.parametrize("host", ["duckdb", "sqlite"])
def test_report_matches_the_official_evaluator(reports, host):
    r = parse_report(reports[host])
    assert r["counts"][""] == LEVELS
    assert [int(v) for v in r["counts"]["count"]] == EXPECTED_COUNT
    exact = r["EXACT MATCHING ACCURACY"]["exact match"]
    assert [float(v) for v in exact] == pytest.approx(EXPECTED_EXACT, abs=1e-9)
    for component, (acc, rec, f1) in EXPECTED_PARTIAL.items():
        assert [float(v) for v in r["PARTIAL MATCHING ACCURACY"][component]] == pytest.approx(acc), component
        assert [float(v) for v in r["PARTIAL MATCHING RECALL"][component]] == pytest.approx(rec), component
        assert [float(v) for v in r["PARTIAL MATCHING F1"][component]] == pytest.approx(f1), component
    for section in ("PARTIAL MATCHING ACCURACY", "PARTIAL MATCHING RECALL", "PARTIAL MATCHING F1"):
        assert len(r[section]) == 10
        assert all(len(values) == 5 for values in r[section].values())
