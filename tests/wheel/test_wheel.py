"""The installed wheel: what it holds, the loader in every host, and each `sqlsim` command on the fixtures
of tests/fixtures/wheel (and the Spider report fixture of tests/fixtures/spider_eval), run in a fresh venv
(conftest.py) — never with the checkout on sys.path."""

import json
import subprocess
import zipfile
from pathlib import Path

import pytest

from conftest import DIST, FIXTURES, ROOT, python_without_extension_loading

SPIDER_FIXTURE = ROOT / "tests" / "fixtures" / "spider_eval"
SPIDER_TABLES = ROOT / "tests" / "golden" / "spider" / "tables.json"
DUCKDB_CLI = ROOT / ".venv" / "bin" / "duckdb"


# --- the wheel file -------------------------------------------------------------------------------------

def test_wheel_holds_everything_it_needs(venv):
    names = set(zipfile.ZipFile(venv.wheel).namelist())
    for required in ("sqlsim/lib/sqlsim.so", "sqlsim/lib/sqlsim.duckdb_extension", "sqlsim/lib/funceval_gmn.onnx",
                     "sqlsim/lib/hybrid_gmn.onnx", "sqlsim/sql/spider_eval.sql", "sqlsim/sql/bird_eval.sql",
                     "sqlsim/LICENSE", "sqlsim/THIRD_PARTY_NOTICES", "sqlsim/lib/ONNXRUNTIME_THIRD_PARTY_NOTICES.txt"):
        assert required in names, required
    assert any(n.startswith("sqlsim/lib/libz3.so.") for n in names)
    assert any(n.startswith("sqlsim/lib/libonnxruntime.so.") for n in names)
    assert "-py3-none-manylinux_" in venv.wheel.name and venv.wheel.name.endswith("_x86_64.whl")
    wheel_meta = next(n for n in names if n.endswith(".dist-info/WHEEL"))
    assert "Root-Is-Purelib: false" in zipfile.ZipFile(venv.wheel).read(wheel_meta).decode()


def test_package_is_imported_from_the_venv_not_the_checkout(venv):
    out = venv.py("import sqlsim, sys; print(sqlsim.__file__); print(sqlsim.__version__)").stdout.split()
    assert out[0].startswith(str(venv.path)), out
    cargo_version = next(line.split('"')[1] for line in (ROOT / "Cargo.toml").read_text().splitlines()
                         if line.startswith("version"))
    assert out[1] == cargo_version


def test_extension_path(venv):
    out = venv.py("import sqlsim; print(sqlsim.extension_path('sqlite')); print(sqlsim.extension_path('duckdb'))")
    sqlite_path, duckdb_path = out.stdout.split()
    assert sqlite_path.endswith("/sqlsim/lib/sqlsim.so") and duckdb_path.endswith("/sqlsim/lib/sqlsim.duckdb_extension")
    bad = venv.py("import sqlsim; sqlsim.extension_path('postgres')", check=False)
    assert bad.returncode != 0 and "host must be 'sqlite' or 'duckdb'" in bad.stderr


# --- the loader ---------------------------------------------------------------------------------------
# Each host runs the verdict (Z3), a GMN score (ONNX Runtime and a model found beside the extension) and
# the version, so every bundled library is exercised from the installed location.
CHECK = ("SELECT sql_equivalent('SELECT 1', 'SELECT 1'), gmn_similarity('SELECT a FROM t', 'SELECT a FROM t') > 0.5,"
         " sqlsim_version()")


def test_load_apsw(venv):
    out = venv.py(f"""
import apsw, sqlsim
con = sqlsim.load(apsw.Connection(':memory:'))
print(list(con.execute("{CHECK}")))
""").stdout
    assert "(1, 1, 'sqlsim " in out


def test_load_duckdb(venv):
    out = venv.py(f"""
import duckdb, sqlsim
con = sqlsim.load(duckdb.connect(config={{'allow_unsigned_extensions': 'true'}}))
print(con.execute("{CHECK}").fetchall())
con2 = sqlsim.connect_duckdb()
print(con2.execute("SELECT ast_ted('SELECT 1', 'SELECT 1')").fetchall())
""").stdout
    assert "(1, True, 'sqlsim " in out and "[(1.0,)]" in out


def test_load_duckdb_without_unsigned_extensions_says_what_to_do(venv):
    proc = venv.py("import duckdb, sqlsim; sqlsim.load(duckdb.connect())", check=False)
    assert proc.returncode != 0
    assert "allow_unsigned_extensions" in proc.stderr and "sqlsim.connect_duckdb" in proc.stderr


def test_load_stdlib_sqlite3(venv):
    has = venv.py("import sqlite3; print(hasattr(sqlite3.Connection, 'enable_load_extension'))").stdout.strip()
    if has != "True":
        pytest.skip("this venv's Python has no sqlite3 extension loading (set SQLSIM_WHEEL_PYTHON)")
    out = venv.py(f"""
import sqlite3, sqlsim
con = sqlsim.load(sqlite3.connect(':memory:'))
print(con.execute("{CHECK}").fetchall())
""").stdout
    assert "(1, 1, 'sqlsim " in out


def test_stdlib_sqlite3_without_extension_loading_says_what_to_use(venv):
    python = python_without_extension_loading()
    if python is None:
        pytest.skip("every Python here can load sqlite3 extensions")
    site = venv.py("import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip()
    env = venv.env()
    env["PYTHONPATH"] = site  # the installed package only
    proc = venv.run([python, "-c", "import sqlite3, sqlsim; sqlsim.load(sqlite3.connect(':memory:'))"],
                    check=False, env=env)
    assert proc.returncode != 0
    assert "without loadable extension support" in proc.stderr and "apsw" in proc.stderr and "DuckDB" in proc.stderr


def test_sqlite3_shell_loads_the_installed_extension(venv):
    path = venv.py("import sqlsim; print(sqlsim.extension_path('sqlite'))").stdout.strip()
    proc = subprocess.run(["sqlite3", ":memory:", f".load {path}", "SELECT sql_equivalent('SELECT 1', 'SELECT 1');"],
                          capture_output=True, text=True, cwd=venv.workdir, timeout=60)
    assert proc.stdout.strip() == "1", proc.stderr


# --- sqlsim spider ---------------------------------------------------------------------------------------

def shell_report(gold, pred, tables, etype="match", db=""):
    """`make spider-eval`'s DuckDB report: the duckdb shell running sql/spider_eval.sql with dist/'s extension."""
    cmds = []
    for name, value in {"gold": gold, "pred": pred, "tables": tables, "etype": etype, "db": db}.items():
        cmds += ["-cmd", f"SET VARIABLE {name} = '{value}'"]
    proc = subprocess.run([str(DUCKDB_CLI), "-unsigned", "-cmd", f"LOAD '{DIST / 'sqlsim.duckdb_extension'}'", *cmds,
                           ":memory:"], input=(ROOT / "sql" / "spider_eval.sql").read_text(), capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_spider_match_is_the_shell_report(venv):
    gold, pred = SPIDER_FIXTURE / "gold.txt", SPIDER_FIXTURE / "pred.txt"
    out = venv.cli("spider", "--gold", gold, "--pred", pred, "--table", SPIDER_TABLES).stdout
    assert out == shell_report(gold, pred, SPIDER_TABLES)
    lines = out.splitlines()
    assert len(lines) == 39
    # evaluation.py's numbers on these 8 examples (tests/sql/test_spider_report.py)
    count = next(line for line in lines if line.startswith("count"))
    assert count.split()[1:] == ["3", "3", "1", "1", "8"]
    exact = next(line for line in lines if line.startswith("exact match"))
    assert exact.split()[2:] == ["0.333", "0.667", "1.000", "0.000", "0.500"]


def test_spider_exec_and_all(venv, databases):
    gold, pred, tables = FIXTURES / "spider_gold.txt", FIXTURES / "spider_pred.txt", FIXTURES / "tables.json"
    for etype in ("exec", "all"):
        out = venv.cli("spider", "--gold", gold, "--pred", pred, "--table", tables, "--db", databases,
                       "--etype", etype).stdout
        assert out == shell_report(gold, pred, tables, etype, databases)
        execution = next(line for line in out.splitlines() if line.startswith("execution"))
        assert execution.split()[-1] == "0.800"  # 4 of 5 (the second prediction returns no row)
    examples = venv.workdir / "spider_examples.json"
    venv.cli("spider", "--gold", gold, "--pred", pred, "--table", tables, "--db", databases, "--etype", "exec",
             "--examples", examples)
    assert [r["exec"] for r in map(json.loads, examples.read_text().splitlines())] == [1, 0, 1, 1, 1]


def test_spider_bad_input_is_a_clear_error(venv):
    proc = venv.cli("spider", "--gold", "missing.txt", "--pred", "x", "--table", "y", check=False)
    assert proc.returncode == 2 and "--gold missing.txt: no such file" in proc.stderr
    proc = venv.cli("spider", "--gold", SPIDER_FIXTURE / "gold.txt", "--pred", SPIDER_FIXTURE / "pred.txt",
                    "--table", SPIDER_TABLES, "--etype", "exec", check=False)
    assert proc.returncode == 2 and "--etype exec needs --db" in proc.stderr


# --- sqlsim bird ---------------------------------------------------------------------------------------

def test_bird_report(venv, databases):
    # BIRD's own argument forms: a prediction folder prefix, dev_gold.sql, a db root ending in "/"
    out = venv.cli("bird", "--predicted_sql_path", str(FIXTURES) + "/", "--ground_truth_path", str(FIXTURES) + "/",
                   "--db_root_path", str(databases) + "/", "--diff_json_path", FIXTURES / "dev.json").stdout
    lines = out.splitlines()
    assert lines[0].split() == ["simple", "moderate", "challenging", "total"]
    assert lines[1].split() == ["count", "2", "2", "1", "5"]
    ex = next(line for line in lines if line.startswith("EX "))
    f1 = next(line for line in lines if line.startswith("Soft-F1 "))
    assert ex.split()[1:] == ["50.00", "50.00", "0.00", "40.00"]
    assert f1.split()[1:] == ["100.00", "75.00", "0.00", "70.00"]
    assert "gold exec errors     1" in out
    # the same from dev.json as ground truth (its difficulties), files given directly
    same = venv.cli("bird", "--predicted_sql_path", FIXTURES / "predict_dev.json", "--ground_truth_path",
                    FIXTURES / "dev.json", "--db_root_path", databases).stdout
    assert same == out
    missing = venv.cli("bird", "--predicted_sql_path", FIXTURES / "predict_dev.json", "--ground_truth_path",
                       FIXTURES / "dev_gold.sql", "--db_root_path", databases, check=False)
    assert missing.returncode == 2 and "--diff_json_path" in missing.stderr


# --- sqlsim score ----------------------------------------------------------------------------------------

def read_jsonl(path):
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("host", ["duckdb", "sqlite"])
def test_score_jsonl_with_tables_json(venv, host):
    out = venv.workdir / f"scored_{host}.jsonl"
    venv.cli("score", FIXTURES / "pairs.jsonl", "-o", out, "--metrics", "ast_ted,sql_equivalent,sql_similarity",
             "--schema", FIXTURES / "tables.json", "--keep", "id,label", "--host", host, "--no-resume")
    rows = read_jsonl(out)
    assert [r["row"] for r in rows] == list(range(8))
    assert list(rows[0]) == ["row", "id", "label", "gold", "pred", "ast_ted", "sql_equivalent", "sql_similarity"]
    assert all(0.0 <= r["sql_similarity"] <= 1.0 for r in rows)
    # the verdict agrees with the hand labels on these pairs
    assert [r["sql_equivalent"] for r in rows] == [r["label"] for r in rows]


def test_score_hosts_agree_and_formats(venv):
    venv.cli("score", FIXTURES / "pairs.jsonl", "-o", "a.csv", "--metrics", "relpm,astpm", "--host", "sqlite",
             "--schema", FIXTURES / "tables.json", "--no-resume")
    venv.cli("score", FIXTURES / "pairs.jsonl", "-o", "b.parquet", "--metrics", "relpm,astpm",
             "--schema", FIXTURES / "tables.json", "--no-resume")
    rows = venv.py("""
import csv, duckdb
a = list(csv.DictReader(open('a.csv')))
b = duckdb.sql("SELECT * FROM 'b.parquet' ORDER BY row").fetchall()
print(len(a), len(b), max(abs(float(x['relpm']) - y[3]) + abs(float(x['astpm']) - y[4]) for x, y in zip(a, b)))
""").stdout.split()
    assert rows[:2] == ["8", "8"] and float(rows[2]) < 1e-9


def test_score_resumes_after_an_interruption(venv):
    out = venv.workdir / "resume.jsonl"
    venv.cli("score", FIXTURES / "pairs.jsonl", "-o", out, "--metrics", "ast_ted", "--no-resume")
    full = out.read_text()
    lines = full.splitlines(keepends=True)
    out.write_text("".join(lines[:3]) + lines[3][:10])  # three rows and a line cut short
    proc = venv.cli("score", FIXTURES / "pairs.jsonl", "-o", out, "--metrics", "ast_ted", "--batch", "2")
    assert "5 pairs scored, 3 already there" in proc.stdout
    assert sorted(r["row"] for r in read_jsonl(out)) == list(range(8))
    assert {r["row"]: r["ast_ted"] for r in read_jsonl(out)} == {r["row"]: r["ast_ted"] for r in
                                                                  map(json.loads, full.splitlines())}
    again = venv.cli("score", FIXTURES / "pairs.jsonl", "-o", out, "--metrics", "ast_ted")
    assert "0 pairs scored, 8 already there" in again.stdout


def test_score_unknown_metric(venv):
    proc = venv.cli("score", FIXTURES / "pairs.jsonl", "-o", "x.jsonl", "--metrics", "no_such_metric", check=False)
    assert proc.returncode == 2 and "no_such_metric is not a scalar function" in proc.stderr


# --- sqlsim explain --------------------------------------------------------------------------------------

@pytest.mark.parametrize("host", ["duckdb", "sqlite"])
def test_explain_shows_verdict_components_and_counterexample(venv, host):
    out = venv.cli("explain", "SELECT name FROM item WHERE price > 10", "SELECT name FROM item WHERE price >= 10",
                   "--schema", FIXTURES / "tables.json", "--db-id", "shop", "--host", host).stdout
    assert "sql_similarity  0." in out
    assert "verdict reason  not equivalent" in out
    assert "components (sql_similarity_components):" in out and "gmn_similarity" in out
    assert "counterexample database" in out and "item" in out
    assert "gold output:" in out and "pred output:" in out


def test_explain_json_and_equivalent_pair(venv):
    out = venv.cli("explain", "SELECT count(*) FROM item", "SELECT count(id) FROM item", "--schema",
                   FIXTURES / "tables.json", "--db-id", "shop", "--json").stdout
    doc = json.loads(out)
    assert doc["reason"].startswith("equivalent") and doc["counterexample"] == []
    assert doc["sql_similarity"] >= 0.5 and doc["components"]["verdict"] in (1, "equivalent", True)


# --- sqlsim roc -----------------------------------------------------------------------------------------

def test_roc_auc_interval_and_png(venv):
    png = venv.workdir / "roc.png"
    out = venv.cli("roc", FIXTURES / "pairs.jsonl", "--label", "label", "--metrics", "ast_ted,sql_equivalent",
                   "--schema", FIXTURES / "tables.json", "-o", png, "--resamples", "500").stdout
    lines = {line.split()[0]: line.split() for line in out.splitlines()[1:] if line.startswith(("ast_ted", "sql_eq"))}
    assert lines["sql_equivalent"][3] == "1.0000"  # the verdict separates these pairs exactly
    low, high = float(lines["ast_ted"][4].strip("[,")), float(lines["ast_ted"][5].strip("]"))
    assert 0.0 <= low <= float(lines["ast_ted"][3]) <= high <= 1.0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # scored columns are read as they are
    venv.cli("score", FIXTURES / "pairs.jsonl", "-o", "for_roc.csv", "--metrics", "ast_ted", "--keep", "label",
             "--no-resume")
    again = venv.cli("roc", "for_roc.csv", "--label", "label", "--metrics", "ast_ted", "--resamples", "500").stdout
    assert again.splitlines()[1].split()[:4] == lines["ast_ted"][:4]


def test_progress_bar_only_on_a_terminal(venv):
    env = venv.env()
    env["SQLSIM_PROGRESS"] = "1"
    proc = venv.run([venv.sqlsim, "score", str(FIXTURES / "pairs.jsonl"), "-o", "bar.jsonl", "--metrics", "ast_ted",
                     "--no-resume"], env=env)
    assert "score:" in proc.stderr and "/8 [" in proc.stderr
    quiet = venv.cli("score", FIXTURES / "pairs.jsonl", "-o", "bar.jsonl", "--metrics", "ast_ted", "--no-resume")
    assert quiet.stderr == ""


def test_bird_r_ves(venv, databases):
    out = venv.cli("bird", "--predicted_sql_path", FIXTURES / "predict_dev.json", "--ground_truth_path",
                   FIXTURES / "dev.json", "--db_root_path", databases, "--ves").stdout
    r_ves = next(line for line in out.splitlines() if line.startswith("R-VES "))
    values = [float(v) for v in r_ves.split()[1:]]
    # two of the five pairs match as BIRD EX, so the total is 100 * mean(sqrt(reward)) over 5 with
    # rewards in {0, 0.25, ..., 1.25}: at most 2 * sqrt(1.25) / 5
    assert len(values) == 4 and values[2] == 0.0 and 0.0 < values[3] <= 100 * 2 * 1.25 ** 0.5 / 5 + 1e-9
