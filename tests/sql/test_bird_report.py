"""The BIRD report script (sql/bird_eval.sql in the duckdb shell) on BIRD's official file formats: a
prediction JSON ({"0": "SQL\\t----- bird -----\\tdb_id", ...}), a dev.json and a db root, over the tiny
databases of report_data.py. The figures are BIRD's rules worked by hand: EX compares row sets (column
order matters), Soft-F1 pairs rows by position and ignores column order, a failing gold scores 0.
"""
import json
import math
import os
import subprocess

import pytest

from conftest import DUCKDB_CLI, DUCKDB_EXTENSION, ROOT
import report_data
import common  # scripts/common.py; conftest put scripts/ on sys.path

SEP = "\t----- bird -----\t"
# (db_id, difficulty, gold, pred, EX, Soft-F1)
EXAMPLES = [
    ("shop", "simple", "SELECT name FROM item WHERE price > 10", "SELECT name FROM item WHERE price >= 12", 1, 1.0),
    # column order: EX 0 (tuples differ), Soft-F1 1 (values of each row all found)
    ("shop", "simple", "SELECT name, price FROM item WHERE id = 1", "SELECT price, name FROM item WHERE id = 1", 0, 1.0),
    # half of each row's values right: tp 1, fp 1, fn 1 -> F1 0.5
    ("zoo", "moderate", "SELECT name, age FROM animal WHERE species = 'dog'",
     "SELECT name, species FROM animal WHERE species = 'dog'", 0, 0.5),
    # the gold fails on the database (no weight column): BIRD scores 0
    ("zoo", "challenging", "SELECT weight FROM animal", "SELECT age FROM animal", 0, 0.0),
    ("zoo", "moderate", "SELECT count(*) FROM animal", "SELECT count(*) FROM animal", 1, 1.0),
]
LEVELS = ["simple", "moderate", "challenging", "total"]
EXPECTED_COUNT = [2, 2, 1, 5]
EXPECTED_EX = [50.0, 50.0, 0.0, 40.0]
EXPECTED_F1 = [100.0, 75.0, 0.0, 70.0]
RULE = "=" * 91


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("bird_report"))
    db_root, _ = report_data.write_databases(root)
    dev = [{"question_id": i, "db_id": db_id, "question": "?", "evidence": "", "SQL": gold, "difficulty": level}
           for i, (db_id, level, gold, _, _, _) in enumerate(EXAMPLES)]
    pred = {str(i): f"{p}{SEP}{db_id}" for i, (db_id, _, _, p, _, _) in enumerate(EXAMPLES)}
    paths = {"dev": os.path.join(root, "dev.json"), "pred": os.path.join(root, "predict_dev.json")}
    with open(paths["dev"], "w") as f:
        json.dump(dev, f, indent=2)
    with open(paths["pred"], "w") as f:
        json.dump(pred, f, indent=4)
    paths["db_root"] = db_root + "/"
    return paths


def run_report(inputs, ves=None, pred=None):
    with open(os.path.join(ROOT, "sql", "bird_eval.sql")) as f:
        script = f.read()
    variables = {"pred": pred or inputs["pred"], "dev": inputs["dev"], "db_root": inputs["db_root"]}
    cmds = [arg for name, value in variables.items() for arg in ("-cmd", f"SET VARIABLE {name} = '{value}'")]
    if ves:
        cmds += ["-cmd", f"SET VARIABLE ves = {ves}"]
    proc = subprocess.run([DUCKDB_CLI, *common.duckdb_shell_args(DUCKDB_EXTENSION), *cmds, ":memory:"],
                          input=script, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "", proc.stderr
    return proc.stdout


def blocks(text):
    """{metric: (header, count values, metric values)} from the print_data blocks."""
    out, lines = {}, text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("======================================    "):
            metric = line.strip("= ")
            assert line == f"======================================    {metric}    ====================================="
            header, count, row, rule = lines[i - 2], lines[i - 1], lines[i + 1], lines[i + 2]
            assert header == "{:20} {:20} {:20} {:20} {:20}".format("", *LEVELS)
            assert count.startswith("count ") and row.startswith(metric + " ") and rule == RULE
            out[metric] = ([int(v) for v in count.split()[1:]], [float(v) for v in row[20:].split()], row)
    return out


@pytest.fixture(scope="module")
def report(inputs):
    return run_report(inputs)


def test_ex_and_soft_f1_per_difficulty(report):
    b = blocks(report)
    assert list(b) == ["EX", "Soft-F1"]
    for metric, expected in (("EX", EXPECTED_EX), ("Soft-F1", EXPECTED_F1)):
        counts, values, row = b[metric]
        assert counts == EXPECTED_COUNT
        assert values == pytest.approx(expected, abs=1e-9)
        # the exact text of BIRD's row: '{:20} ' + '{:<20.2f}' per level
        assert row == "{:20} {:<20.2f} {:<20.2f} {:<20.2f} {:<20.2f}".format(metric, *expected)
    # BIRD scores the failing gold 0; the report says how many there were
    assert report.splitlines()[-1] == f"{'gold exec errors':20} 1"


def test_r_ves_when_asked(inputs):
    text = run_report(inputs, ves=1)
    b = blocks(text)
    assert list(b) == ["EX", "Soft-F1", "R-VES"]
    assert b["EX"][1] == pytest.approx(EXPECTED_EX)
    counts, values, _ = b["R-VES"]
    assert counts == EXPECTED_COUNT
    # only the two EX matches (one simple, one moderate) earn a reward r (timing decides which), scored
    # 100 * sqrt(r) and averaged over each level's examples
    assert values[2] == 0.0
    scores = [100 * math.sqrt(r) for r in (0.25, 0.5, 0.75, 1.0, 1.25)]
    for v in values[:2]:
        assert min(abs(2 * v - s) for s in scores) <= 0.011, v
    assert values[3] == pytest.approx((2 * values[0] + 2 * values[1]) / 5, abs=0.011)


def test_predictions_paired_by_position_and_counted(inputs, tmp_path):
    """Entries are taken in file order (BIRD's code does not read the keys); a missing one scores 0."""
    with open(inputs["pred"]) as f:
        pred = json.load(f)
    shorter = {str(i + 10): v for i, v in enumerate(list(pred.values())[:4])}
    path = tmp_path / "predict_dev.json"
    path.write_text(json.dumps(shorter))
    text = run_report(inputs, pred=str(path))
    b = blocks(text)
    assert b["EX"][1] == pytest.approx([50.0, 0.0, 0.0, 20.0])  # the moderate count(*) match is gone
    assert text.splitlines()[-1] == f"{'missing predictions':20} 1"
