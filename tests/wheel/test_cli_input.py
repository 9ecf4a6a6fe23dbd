"""The `sqlsim` command as a careful user meets it (issue 44): it never prints a figure it did not compute
from the input the user meant. Every problem with the input is an error naming the file, row or column
and what was expected, with exit status 2 and no output file left behind; a score that depends on the
GMN parts says so when they are missing, and --require-gmn makes that an error. Run from the installed
wheel in a fresh venv (conftest.py), like test_wheel.py."""

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT

TABLES = FIXTURES / "tables.json"
PAIRS = FIXTURES / "pairs.jsonl"
DDL = "CREATE TABLE t (a INTEGER, b INTEGER)"


def fails(proc, *needles):
    """The command failed as bad input: exit status 2, one line on stderr holding every needle."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    for needle in needles:
        assert needle in proc.stderr, (needle, proc.stderr)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.stderr


def write(venv, name, text):
    path = venv.workdir / name
    path.write_text(text)
    return path


def jsonl(rows):
    return "".join(json.dumps(r) + "\n" for r in rows)


# --- 1. explain: the reason and the counterexample under the score's semantics -------------------

def test_explain_reason_and_counterexample_use_the_scores_semantics(venv):
    # equal under test-suite semantics (columns permuted), different under bag semantics
    out = venv.cli("explain", "SELECT a, b FROM t", "SELECT b, a FROM t", "--schema", DDL).stdout
    assert "verdict reason  equivalent: same results under test-suite semantics" in out, out
    assert "counterexample: none under test-suite semantics" in out, out
    doc = json.loads(venv.cli("explain", "SELECT a, b FROM t", "SELECT b, a FROM t", "--schema", DDL, "--json").stdout)
    assert doc["components"]["verdict"] == 1 and doc["reason"] == doc["components"]["reason"]
    assert doc["counterexample"] == [] and doc["semantics"] == "test-suite"
    # options naming another semantics apply to all three
    bag = json.loads(venv.cli("explain", "SELECT a, b FROM t", "SELECT b, a FROM t", "--schema", DDL, "--json",
                              "--options", '{"semantics": "bag"}').stdout)
    assert bag["components"]["verdict"] == 0 and bag["reason"].startswith("not equivalent")
    assert bag["counterexample"] and bag["semantics"] == "bag"


# --- 2. paths that do not exist are errors, not SQL text or DDL ------------------------------------

def test_explain_missing_files_are_errors(venv):
    fails(venv.cli("explain", "gold.sql", "pred.sql", check=False), "GOLD gold.sql: no such file")
    fails(venv.cli("explain", "SELECT 1", "pred_file", check=False), "PRED pred_file: no such file")
    fails(venv.cli("explain", "SELECT 1", "SELECT 2", "--schema", "nope.json", check=False),
          "--schema nope.json: no such file")
    gold = write(venv, "g.sql", "SELECT name FROM item\n")
    out = venv.cli("explain", gold, "SELECT name FROM item", "--schema", TABLES, "--db-id", "shop").stdout
    assert "gold: SELECT name FROM item\n" in out
    fails(venv.cli("explain", write(venv, "empty.sql", "\n"), "SELECT 1", check=False), "the file is empty")


def test_score_bad_schema_path_leaves_no_output(venv):
    out = venv.workdir / "no_schema.jsonl"
    fails(venv.cli("score", PAIRS, "-o", out, "--schema", "nope.json", check=False), "--schema nope.json: no such file")
    assert not out.exists()


# --- 3. resuming checks that the output was made by the same command -------------------------------

def test_score_resume_refuses_other_metrics_or_input(venv):
    out = venv.workdir / "resume_checked.jsonl"
    venv.cli("score", PAIRS, "-o", out, "--metrics", "ast_ted", "--no-resume")
    before = out.read_text()
    other = fails(venv.cli("score", PAIRS, "-o", out, "--metrics", "relpm", check=False), "holds the columns")
    assert "--no-resume" in other and out.read_text() == before
    rows = [json.loads(line) for line in PAIRS.read_text().splitlines()]
    rows[3]["pred"] = "SELECT 1"
    changed = write(venv, "changed_pairs.jsonl", jsonl(rows))
    fails(venv.cli("score", changed, "-o", out, "--metrics", "ast_ted", check=False),
          "its row 3 was scored from another input")
    assert out.read_text() == before
    again = venv.cli("score", PAIRS, "-o", out, "--metrics", "ast_ted")
    assert "0 pairs scored, 8 already there" in again.stdout


# --- 4. roc: a 0/1 label with both classes ------------------------------------------------------------

def test_roc_label_must_be_binary_with_both_classes(venv):
    scored = venv.workdir / "roc_input.jsonl"
    venv.cli("score", PAIRS, "-o", scored, "--metrics", "ast_ted", "--keep", "id,label", "--no-resume")
    fails(venv.cli("roc", scored, "--label", "id", "--metrics", "ast_ted", check=False),
          "column 'id' holds 2", "must be 0 or 1")
    fails(venv.cli("roc", scored, "--label", "nope", "--metrics", "ast_ted", check=False), "no column 'nope'")
    fails(venv.cli("roc", PAIRS, "--label", "label", "--metrics", "sql_similarity", "--schema", TABLES, "-o",
                   "no_such_folder/roc.png", check=False), "the folder no_such_folder does not exist")
    fails(venv.cli("score", venv.workdir, "-o", "folder_in.jsonl", check=False), "is a folder, expected a file")
    ones = write(venv, "one_class.jsonl", jsonl([{"label": 1, "s": 0.5}, {"label": 1, "s": 0.7}]))
    fails(venv.cli("roc", ones, "--label", "label", "--metrics", "s", check=False),
          "every one of the 2 labelled rows has label = 1", "both classes")


# --- 5. the GMN parts: announced when missing, and requirable ----------------------------------------

@pytest.fixture(scope="module")
def without_ort(venv, tmp_path_factory):
    """The installed package copied without ONNX Runtime, first on PYTHONPATH."""
    site = venv.py("import sqlsim, os; print(os.path.dirname(sqlsim.__file__))").stdout.strip()
    root = tmp_path_factory.mktemp("no_ort")
    shutil.copytree(site, root / "sqlsim")
    for lib in (root / "sqlsim" / "lib").glob("libonnxruntime.so*"):
        lib.unlink()
    env = venv.env()
    env["PYTHONPATH"] = str(root)
    return env


def test_missing_gmn_parts_are_announced_and_requirable(venv, without_ort):
    cli = [venv.python, "-m", "sqlsim"]
    pair = ["SELECT name FROM item WHERE price > 10", "SELECT name FROM item WHERE price >= 10", "--schema", TABLES,
            "--db-id", "shop"]
    proc = venv.run(cli + ["explain", *pair], env=without_ort)
    assert "warning: sql_similarity computed without gmn_similarity and hybrid_gmn_similarity" in proc.stderr
    assert "ONNX Runtime not found" in proc.stderr and "--require-gmn" in proc.stderr
    assert "missing:" in proc.stdout and "ast_ted" in proc.stdout
    fails(venv.run(cli + ["explain", *pair, "--require-gmn"], env=without_ort, check=False),
          "--require-gmn: the GMN scores cannot run here", "ONNX Runtime not found")
    out = venv.workdir / "required.jsonl"
    fails(venv.run(cli + ["score", str(PAIRS), "-o", str(out), "--require-gmn"], env=without_ort, check=False),
          "--require-gmn")
    assert not out.exists()
    # in SQL: sql_similarity_components lists what is missing, require_gmn makes it an error
    code = """
import json, sqlsim
con = sqlsim.connect_duckdb()
c = json.loads(con.execute("SELECT sql_similarity_components('SELECT 1', 'SELECT 2')").fetchone()[0])
print(sorted(c['missing']), sorted(c['components']))
try:
    con.execute("SELECT sql_similarity('SELECT 1', 'SELECT 2', NULL, '{\\"require_gmn\\": true}')").fetchall()
except Exception as e:
    print(e)
"""
    got = venv.run([venv.python, "-c", code], env=without_ort).stdout
    assert "['gmn_similarity', 'hybrid_gmn_similarity'] ['ast_ted', 'relpm']" in got
    assert "sql_similarity(): component gmn_similarity cannot run" in got and "require_gmn" in got
    # with the parts installed: no warning, nothing missing, and the option passes
    full = venv.cli("explain", *pair, "--require-gmn")
    assert "warning" not in full.stderr and "missing:" not in full.stdout


# --- 6. databases missing from the schema file, schema cells, options ---------------------------------

def test_score_database_missing_from_the_schema_file(venv):
    rows = [json.loads(line) for line in PAIRS.read_text().splitlines()]
    rows[5]["db_id"] = rows[6]["db_id"] = "new_concert_singer"
    path = write(venv, "new_db.jsonl", jsonl(rows))
    out = venv.workdir / "new_db_scored.jsonl"
    err = fails(venv.cli("score", path, "-o", out, "--schema", TABLES, check=False),
                "has no schema for 2 rows", "'new_concert_singer' (rows 5, 6)", "--missing-schema infer")
    assert "--db-id " not in err and not out.exists()
    fails(venv.cli("roc", path, "--label", "label", "--metrics", "ast_ted", "--schema", TABLES, check=False),
          "'new_concert_singer' (rows 5, 6)")
    proc = venv.cli("score", path, "-o", out, "--schema", TABLES, "--missing-schema", "infer", "--metrics", "relpm")
    assert "2 rows of databases missing" in proc.stderr and "2 rows with an inferred schema" in proc.stdout
    assert len(out.read_text().splitlines()) == 8


def test_score_schema_column_holding_json_objects(venv):
    entries = {e["db_id"]: e for e in json.loads(TABLES.read_text())}
    rows = [dict(json.loads(line)) for line in PAIRS.read_text().splitlines()]
    for r in rows:
        r["schema"] = entries[r["db_id"]]  # a JSON object, not a string
    path = write(venv, "schema_objects.jsonl", jsonl(rows))
    a, b = venv.workdir / "by_column.jsonl", venv.workdir / "by_file.jsonl"
    venv.cli("score", path, "-o", a, "--schema-column", "schema", "--metrics", "relpm", "--no-resume")
    venv.cli("score", PAIRS, "-o", b, "--schema", TABLES, "--metrics", "relpm", "--no-resume")
    assert [json.loads(x)["relpm"] for x in a.read_text().splitlines()] == \
        [json.loads(x)["relpm"] for x in b.read_text().splitlines()]
    bad = write(venv, "schema_bad.jsonl", jsonl([{"gold": "SELECT 1", "pred": "SELECT 1", "schema": "{not json"}]))
    fails(venv.cli("score", bad, "-o", "bad_schema.jsonl", "--schema-column", "schema", check=False),
          "row 0, column 'schema': the schema cannot be read")


def test_abbreviated_options_are_not_taken_for_others(venv):
    fails(venv.cli("score", PAIRS, "-o", "abbrev.jsonl", "--db-id", "shop", check=False),
          "unrecognized arguments: --db-id")


# --- 7. bird: the prediction format and the databases ---------------------------------------------------

def test_bird_wrong_prediction_format_and_missing_databases(venv, databases, tmp_path):
    lines = write(venv, "one_per_line.json", "SELECT 1\nSELECT 2\n")
    err = fails(venv.cli("bird", "--predicted_sql_path", lines, "--ground_truth_path", FIXTURES / "dev.json",
                         "--db_root_path", databases, check=False),
                "line 1, column 1: not JSON", "BIRD's prediction JSON")
    assert "map_entries" not in err and "Malformed" not in err
    empty = tmp_path / "empty_root"
    empty.mkdir()
    fails(venv.cli("bird", "--predicted_sql_path", FIXTURES / "predict_dev.json", "--ground_truth_path",
                   FIXTURES / "dev.json", "--db_root_path", empty, check=False),
          "no <db_id>/<db_id>.sqlite for 2 databases", "shop, zoo")
    fails(venv.cli("bird", "--predicted_sql_path", FIXTURES / "predict_dev.json", "--ground_truth_path",
                   FIXTURES / "dev.json", "--db_root_path", "", check=False), "--db_root_path: an empty path")


# --- 8. spider: as many predictions as gold queries ---------------------------------------------------------

def test_spider_prediction_count_must_match(venv, databases):
    gold = FIXTURES / "spider_gold.txt"
    short = write(venv, "short_pred.txt", "SELECT count(*) FROM item\nSELECT 1\n")
    fails(venv.cli("spider", "--gold", gold, "--pred", short, "--table", TABLES, check=False),
          "has 2 predictions (non-blank lines) for the 5 gold queries")
    empty = write(venv, "empty_pred.txt", "")
    fails(venv.cli("spider", "--gold", gold, "--pred", empty, "--table", TABLES, check=False), "has 0 predictions")
    no_db = write(venv, "gold_other_db.txt", "SELECT 1\tnowhere\n")
    fails(venv.cli("spider", "--gold", no_db, "--pred", write(venv, "one.txt", "SELECT 1\n"), "--table", TABLES,
                   check=False), "no entry for 1 databases", "nowhere")


# --- 9. a file that is not what its name says ------------------------------------------------------------

def test_misnamed_files_are_named_errors(venv):
    as_csv = write(venv, "really_jsonl.csv", PAIRS.read_text())
    err = fails(venv.cli("score", as_csv, "-o", "misnamed.jsonl", check=False), "looks like JSON lines",
                "name the file .jsonl")
    assert len(err) < 300 and "price" not in err  # no line of the file quoted
    as_jsonl = write(venv, "really_csv.jsonl", "gold,pred\nSELECT 1,SELECT 2\n")
    err = fails(venv.cli("score", as_jsonl, "-o", "misnamed2.jsonl", check=False), "line 1, column 1: not JSON",
                "it looks like CSV")
    assert "byte" not in err
    ragged = write(venv, "ragged.csv", "gold,pred\nSELECT 1,SELECT 2,extra\n")
    fails(venv.cli("score", ragged, "-o", "misnamed3.jsonl", check=False), "line 2 has 3 fields, the header has 2")
    for name in ("misnamed.jsonl", "misnamed2.jsonl", "misnamed3.jsonl"):
        assert not (venv.workdir / name).exists()


# --- 11. progress that moves ---------------------------------------------------------------------------------

def test_progress_moves_before_the_end(venv):
    env = venv.env()
    env["SQLSIM_PROGRESS"] = "1"
    proc = venv.run([venv.sqlsim, "score", str(PAIRS), "-o", "moving.jsonl", "--schema", str(TABLES), "--no-resume",
                     "--metrics", "sql_similarity"], env=env)
    assert re.search(r"\b[1-7]/8 \[", proc.stderr), proc.stderr  # a step before 8/8
    proc = venv.run([venv.sqlsim, "roc", str(PAIRS), "--label", "label", "--metrics", "sql_similarity", "--schema",
                     str(TABLES), "--resamples", "100"], env=env)
    assert "roc: scoring" in proc.stderr and "/8 [" in proc.stderr


# --- 12. the documentation's examples run as written -----------------------------------------------------

DATA = Path(os.environ.get("SQLSIM_DATA") or ROOT.parent / "shared" / "data")


def test_python_md_explain_example_is_what_the_command_prints(venv):
    text = (ROOT / "docs" / "python.md").read_text()
    block = re.search(r"```\n\$ (sqlsim explain [^\n]+)\n(.*?)```", text, re.S)
    assert block, "docs/python.md has no `$ sqlsim explain` example"
    command, shown = block.group(1), block.group(2)
    tables = DATA / "spider" / "tables.json"
    if not tables.is_file():
        pytest.skip(f"{tables} is absent (set SQLSIM_DATA)")
    gold = re.search(r"^gold: (.*?)\npred: ", shown, re.S | re.M).group(1)
    pred = re.search(r"^pred: (.*?)\nschema: ", shown, re.S | re.M).group(1)
    unwrap = lambda s: re.sub(r"\n {6}", " ", s)  # noqa: E731 - the example's SQL lines are wrapped
    write(venv, "gold.sql", unwrap(gold))
    write(venv, "pred.sql", unwrap(pred))
    args = command.split()[2:]
    args[args.index("spider/tables.json")] = str(tables)
    env = venv.env()
    env["COLUMNS"] = "100"
    proc = venv.run([venv.sqlsim, "explain", *args], env=env)
    assert proc.stdout == shown, proc.stdout


def test_readme_duckdb_counterexample_statement_runs(venv):
    readme = (ROOT / "README.md").read_text()
    section = readme.split("### SQL in DuckDB", 1)[1].split("\n### ", 1)[0]
    statements = [b for b in re.findall(r"```sql\n(.*?)```", section, re.S) if "sql_counterexample" in b]
    assert statements, "the README's DuckDB section shows no sql_counterexample statement"
    code = f"""
import sqlsim
con = sqlsim.connect_duckdb()
rows = con.execute({statements[0]!r}).fetchall()
print(len(rows), rows[0][0])
"""
    assert venv.py(code).stdout.split() == ["2", "singer"]


# --- 13. the smaller ones ------------------------------------------------------------------------------------

def test_help_percent_and_metric_typos(venv):
    assert "%%" not in venv.cli("roc", "--help").stdout
    fails(venv.cli("score", PAIRS, "-o", "typo.jsonl", "--metrics", "sql_similarty", check=False),
          "did you mean sql_similarity")
    assert not (venv.workdir / "typo.jsonl").exists()


def test_bad_schemas_exit_2(venv):
    bad = write(venv, "bad_tables.json", '[{"db_id": "shop", "table_names_original": 5}]')
    fails(venv.cli("score", PAIRS, "-o", "bad_tables.jsonl", "--schema", bad, "--missing-schema", "infer",
                   check=False), "database 'shop' of", "the schema cannot be read")
    assert not (venv.workdir / "bad_tables.jsonl").exists()
    fails(venv.cli("explain", "SELECT 1", "SELECT 2", "--schema", write(venv, "broken.json", "{"), check=False),
          "line 1, column 2: not JSON")


def test_unparsable_gold_is_said(venv):
    fails(venv.cli("explain", "SELEC name FROM item", "SELECT name FROM item", check=False), "GOLD does not parse")
    rows = [json.loads(line) for line in PAIRS.read_text().splitlines()]
    rows[2]["gold"] = "SELEC name FROM item"
    path = write(venv, "bad_gold.jsonl", jsonl(rows))
    proc = venv.cli("score", path, "-o", "bad_gold_scored.jsonl", "--no-resume", "--metrics", "ast_ted")
    assert "the gold query of 1 row does not parse (row 2; row 2: " in proc.stderr
    assert "1 gold query not parsed" in proc.stdout


def test_wide_counterexamples_fit_the_terminal(venv):
    columns = ", ".join(f"column_number_{i} INTEGER" for i in range(30))
    ddl = f"CREATE TABLE wide (id INTEGER PRIMARY KEY, {columns})"
    env = venv.env()
    env["COLUMNS"] = "100"
    proc = venv.run([venv.sqlsim, "explain", "SELECT id FROM wide WHERE column_number_3 > 5",
                     "SELECT id FROM wide WHERE column_number_3 >= 5", "--schema", ddl], env=env)
    assert "counterexample database" in proc.stdout
    assert max(map(len, proc.stdout.splitlines())) <= 100


def test_docs_state_the_wheel_size(venv):
    text = (ROOT / "docs" / "python.md").read_text()
    stated = float(re.search(r"Size: ([\d.]+) MiB", text).group(1))
    actual = venv.wheel.stat().st_size / 2**20
    assert abs(stated - actual) <= 0.03 * actual, (stated, actual)
