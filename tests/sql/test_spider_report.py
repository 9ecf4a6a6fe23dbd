"""The Spider report scripts (sql/spider_eval.sql in the duckdb shell, sql/spider_eval_sqlite.sql in the
sqlite3 shell) on a small gold/pred fixture: the printed report matches evaluation.py's numbers.

The fixture is 8 concert_singer examples of the official gold_example.txt / pred_example.txt; the expected
figures are evaluation.py's aggregation of the official per-example results for them. The pred file also
has a CRLF line, a second tab field and a blank line, which evaluation.py strips, ignores and skips.

The execution report (etype exec and all) runs on the tiny databases of report_data.py: six examples over
two db_ids whose verdicts follow the official rules (test-suite comparison, evaluation.py's `value` -> `1`
on the prediction, a gold that fails on its database counted as not matched and reported).
"""
import os
import subprocess

import pytest

from conftest import DUCKDB_CLI, DUCKDB_EXTENSION, ROOT, SQLITE_EXTENSION
import report_data
import common  # scripts/common.py; conftest put scripts/ on sys.path

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


def run_duckdb_report(gold=GOLD, pred=PRED, tables=TABLES, etype=None, db=None, check=True):
    with open(os.path.join(ROOT, "sql", "spider_eval.sql")) as f:
        script = f.read()
    variables = {"gold": gold, "pred": pred, "tables": tables, "etype": etype, "db": db}
    cmds = [arg for name, value in variables.items() if value is not None
            for arg in ("-cmd", f"SET VARIABLE {name} = '{value}'")]
    proc = subprocess.run(
        [DUCKDB_CLI, *common.duckdb_shell_args(DUCKDB_EXTENSION), *cmds, ":memory:"],
        input=script, capture_output=True, text=True, timeout=300)
    if not check:
        return proc
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def run_sqlite_report(gold=GOLD, pred=PRED, tables=TABLES, etype=None, db=None):
    """The script as the Makefile feeds it (placeholders the caller does not set stay as they are)."""
    with open(os.path.join(ROOT, "sql", "spider_eval_sqlite.sql")) as f:
        script = f.read()
    script = script.replace("{{GOLD}}", gold).replace("{{PRED}}", pred).replace("{{TABLES}}", tables)
    if etype is not None:
        script = script.replace("{{ETYPE}}", etype)
    if db is not None:
        script = script.replace("{{DB}}", db)
    proc = subprocess.run(["sqlite3", "-bail", *common.sqlite_shell_args(SQLITE_EXTENSION), ":memory:"],
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


# --- execution accuracy (etype exec / all) on tiny databases ---------------------------------------------
# (gold, db_id, pred, hardness, official exec verdict)
EXEC_EXAMPLES = [
    ("SELECT count(*) FROM item", "shop", "SELECT count(*) FROM item", "easy", 1),
    ("SELECT name FROM item WHERE price > 10", "shop", "SELECT name FROM item WHERE price > 100", "easy", 0),
    # the gold's ORDER BY makes order matter; the prediction's columns may be permuted
    ("SELECT name , age FROM animal ORDER BY age", "zoo", "SELECT age, name FROM animal ORDER BY age", "medium", 1),
    ("SELECT species , count(*) FROM animal GROUP BY species", "zoo",
     "SELECT count(*), species FROM animal GROUP BY species", "medium", 1),
    # the gold fails on the database (no weight column): evaluation.py would stop; scored 0 and counted
    ("SELECT weight FROM animal", "zoo", "SELECT age FROM animal", "easy", 0),
    # evaluation.py replaces `value` by `1` in the prediction before running it
    ("SELECT name FROM item WHERE price > 1", "shop", "SELECT name FROM item WHERE price > value", "easy", 1),
]
# easy 2/4, medium 2/2, hard and extra empty, all 4/6
EXPECTED_EXEC_COUNT = [4, 2, 0, 0, 6]
EXPECTED_EXEC = [0.5, 1.0, 0.0, 0.0, 0.667]


@pytest.fixture(scope="module")
def exec_inputs(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("spider_exec"))
    db_dir, tables = report_data.write_databases(root)
    gold, pred = os.path.join(root, "gold.txt"), os.path.join(root, "pred.txt")
    with open(gold, "w") as g, open(pred, "w") as p:
        for gold_sql, db_id, pred_sql, _, _ in EXEC_EXAMPLES:
            g.write(f"{gold_sql}\t{db_id}\n")
            p.write(f"{pred_sql}\n")
    return {"gold": gold, "pred": pred, "tables": tables, "db": db_dir}


@pytest.fixture(scope="module")
def exec_reports(exec_inputs):
    out = {}
    files = {k: exec_inputs[k] for k in ("gold", "pred", "tables")}
    db = exec_inputs["db"] + "/"  # a trailing slash is fine
    for etype in ("match", "exec", "all"):
        out["duckdb", etype] = run_duckdb_report(etype=etype, db=db, **files)
        out["sqlite", etype] = run_sqlite_report(etype=etype, db=db, **files)
    return out


@pytest.mark.parametrize("etype", ["match", "exec", "all"])
def test_exec_report_same_on_both_hosts(exec_reports, etype):
    assert exec_reports["duckdb", etype] == exec_reports["sqlite", etype]


@pytest.mark.parametrize("host", ["duckdb", "sqlite"])
def test_exec_report_figures(exec_reports, host):
    text = exec_reports[host, "exec"]
    lines = text.splitlines()
    # evaluation.py --etype exec: header, count, the banner, the execution row; then our gold-error line
    assert lines[2] == "=====================   EXECUTION ACCURACY     ====================="
    assert lines[4] == f"{'gold exec errors':20} 1"
    assert len(lines) == 5
    r = parse_report(text)
    assert r["counts"][""] == LEVELS
    assert [int(v) for v in r["counts"]["count"]] == EXPECTED_EXEC_COUNT
    assert [float(v) for v in r["EXECUTION ACCURACY"]["execution"]] == pytest.approx(EXPECTED_EXEC, abs=5e-4)
    # the exact text of the official row: '{:20} ' + '{:<20.3f}' per level
    assert lines[3] == "{:20} {:<20.3f} {:<20.3f} {:<20.3f} {:<20.3f} {:<20.3f}".format(
        "execution", 0.5, 1.0, 0.0, 0.0, 4 / 6)


@pytest.mark.parametrize("host", ["duckdb", "sqlite"])
def test_exec_all_is_match_report_with_the_exec_rows(exec_reports, host):
    """etype all = the match report with the execution banner and row after the count (as evaluation.py
    prints them) and the gold-error line at the end; etype match is unchanged by the db setting."""
    match, everything = exec_reports[host, "match"], exec_reports[host, "all"]
    assert "EXECUTION" not in match and "gold exec errors" not in match
    m, a = match.splitlines(), everything.splitlines()
    assert a[2:4] == exec_reports[host, "exec"].splitlines()[2:4]
    assert a[:2] + a[4:-1] == m
    assert a[-1] == f"{'gold exec errors':20} 1"
    assert a[4] == ""  # evaluation.py prints '\n=== EXACT MATCHING ACCURACY' right after the execution row


def test_exec_verdicts_per_example(exec_inputs):
    """spider_eval_examples keeps the per-example verdicts: NULL for the failing gold."""
    con = common.connect_duckdb(DUCKDB_EXTENSION)
    for name in ("gold", "pred", "tables", "db"):
        con.execute(f"SET VARIABLE {name} = '{exec_inputs[name]}'")
    con.execute("SET VARIABLE etype = 'exec'")
    with open(os.path.join(ROOT, "sql", "spider_eval.sql")) as f:
        script = f.read()
    create = script[script.index("CREATE OR REPLACE TEMP TABLE spider_eval_params"):
                    script.index("CREATE OR REPLACE TEMP TABLE spider_eval_scores")]
    con.execute(create)
    rows = con.execute("SELECT hardness, exec FROM spider_eval_examples ORDER BY line").fetchall()
    expected = [(h, None if gold.startswith("SELECT weight") else v) for gold, _, _, h, v in EXEC_EXAMPLES]
    assert rows == expected


def test_exec_needs_a_valid_etype_and_db(exec_inputs):
    args = {k: exec_inputs[k] for k in ("gold", "pred", "tables")}
    proc = run_duckdb_report(etype="exact", check=False, **args)
    assert proc.returncode != 0 and "etype must be match, exec or all" in proc.stderr
    proc = run_duckdb_report(etype="exec", check=False, **args)
    assert proc.returncode != 0 and "needs the database folder" in proc.stderr
