"""GMN graphs (and, once the runtime and models are present, scores) through both real hosts."""
import json
import os

import pytest

from conftest import ROOT, SCRIPTS, SQLITE_EXTENSION, HostError
import common  # scripts/common.py; conftest put scripts/ on sys.path

with open(os.path.join(ROOT, "tests", "fixtures", "plan_schema.json")) as f:
    SCHEMA = json.dumps(json.load(f))
with open(os.path.join(ROOT, "models", "vocab.json")) as f:
    VOCAB = json.load(f)

GOLD = "SELECT name FROM singer WHERE age > 20 ORDER BY age DESC"
PRED = "SELECT s.name FROM singer AS s WHERE s.age >= 21"


def check_graph(g, relations, pe_steps):
    n = len(g["types"])
    assert 0 < n <= 512
    assert len(g["chars"]) == n and len(g["pe"]) == n
    for t, chars in zip(g["types"], g["chars"]):
        assert 0 < t < len(VOCAB)
        assert (t == 2) == bool(chars)
        assert len(chars) <= 64 and all(0 <= c < 128 for c in chars)
    for src, dst, rel in g["edges"]:
        assert 0 <= src < n and 0 <= dst < n and 0 <= rel < relations
    for row in g["pe"]:
        assert len(row) == pe_steps and all(0.0 <= v <= 1.0 for v in row)


def test_sql_graph_funceval(host):
    out = json.loads(host.value("SELECT sql_graph(?, ?, ?)", [GOLD, PRED, SCHEMA]))
    assert (out["model"], out["version"], out["relations"], out["pe_steps"]) == ("funceval", 1, 3, 16)
    gold, pred = out["graphs"]
    for g in (gold, pred):
        check_graph(g, 3, 16)
    names = {VOCAB[t] for t in gold["types"]}
    assert {"Project", "Filter", "TableScan", "Sort", "DESC", ">"} <= names
    texts = {bytes(c).decode() for c in gold["chars"] if c}
    assert "singer" in texts and "20" in texts
    assert {e[2] for e in gold["edges"]} == {0, 1, 2}
    # The same pair with an inferred schema also plans; identical queries give identical graphs.
    same = json.loads(host.value("SELECT sql_graph(?, ?)", [GOLD, GOLD]))
    assert same["graphs"][0] == same["graphs"][1]


def test_sql_graph_hybrid(host):
    out = json.loads(host.value("SELECT sql_graph(?, ?, ?, 'hybrid')", [GOLD, PRED, SCHEMA]))
    assert (out["model"], out["relations"]) == ("hybrid", 4)
    for g in out["graphs"]:
        check_graph(g, 4, 16)
        names = {VOCAB[t] for t in g["types"]}
        assert "ast:Select" in names and "TableScan" in names
        assert {e[2] for e in g["edges"]} >= {0, 1, 2}


def test_sql_graph_nulls_and_errors(host):
    assert host.value("SELECT sql_graph(?, 'SELEC x')", [GOLD]) is None
    assert host.value("SELECT sql_graph(NULL, ?)", [GOLD]) is None
    big = "SELECT a FROM t WHERE " + " OR ".join(f"c{i} = {i}" for i in range(300))
    assert host.value("SELECT sql_graph(?, ?)", [big, GOLD]) is None
    assert host.value("SELECT sql_graph(?, ?, NULL, NULL)", [GOLD, PRED]) is not None
    with pytest.raises(HostError, match=r"sql_graph\(\): argument 'model'"):
        host.value("SELECT sql_graph(?, ?, NULL, 'gnn')", [GOLD, PRED])


# --- scores through ONNX Runtime ---------------------------------------------------------------
# Each case copies the built extension into a fresh directory (with or without the runtime and a
# test-only model from tests/gmn_fixture_model.py) and loads it in a new process, so that the
# lookup beside the extension, the environment variables and the once-per-process runtime loading
# are all exercised as a user meets them.

import math
import shutil
import subprocess
import sys

DIST = str(common.DIST)
ORT_LIB = "libonnxruntime.so.1.31.1"

PROBE = r"""
import json, sys
import apsw, duckdb
directory, sql, params = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
sys.path.insert(0, sys.argv[4])
from common import connect_apsw, connect_duckdb
out = {}
con = connect_apsw(directory + "/sqlsim.so")
try:
    out["sqlite"] = [list(r) for r in con.execute(sql, params)]
except apsw.Error as e:
    out["sqlite"] = "error: " + str(e)
duck = connect_duckdb(directory + "/sqlsim.duckdb_extension")
try:
    out["duckdb"] = [list(r) for r in duck.execute(sql, params).fetchall()]
except duckdb.Error as e:
    out["duckdb"] = "error: " + str(e)
print(json.dumps(out))
"""


def install(tmp_path, runtime=True, models=True):
    """A directory holding the extension (both hosts' files), libz3, optionally the runtime and
    the fixture models."""
    d = tmp_path / "ext"
    d.mkdir()
    for name in os.listdir(DIST):
        if name.startswith(("sqlsim.", "libz3")):
            shutil.copy(os.path.join(DIST, name), d / name)
    if runtime:
        shutil.copy(os.path.join(DIST, ORT_LIB), d / ORT_LIB)
    if models:
        write_models(d)
    return d


def write_models(d):
    d.mkdir(exist_ok=True)
    for file, relations in (("funceval_gmn.onnx", 3), ("hybrid_gmn.onnx", 4)):
        subprocess.run([sys.executable, os.path.join(ROOT, "tests", "gmn_fixture_model.py"),
                        str(d / file), str(relations)], check=True)


def probe(directory, sql, params=(), env=None):
    environment = {k: v for k, v in os.environ.items()
                   if k not in ("ORT_DYLIB_PATH", "SQLSIM_MODEL_DIR")}
    environment.update(env or {})
    done = subprocess.run([sys.executable, "-c", PROBE, str(directory), sql, json.dumps(list(params)), SCRIPTS],
                          capture_output=True, text=True, timeout=300, env=environment, cwd="/")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def sizes(model):
    out = json.loads(SqliteHostless.graph(GOLD, PRED, model))
    return [len(g["types"]) for g in out["graphs"]]


class SqliteHostless:
    @staticmethod
    def graph(gold, pred, model):
        con = common.connect_apsw(SQLITE_EXTENSION)
        return con.execute("SELECT sql_graph(?, ?, ?, ?)", (gold, pred, SCHEMA, model)).fetchone()[0]


def test_gmn_scores_with_runtime_and_models_beside_the_extension(tmp_path):
    d = install(tmp_path)
    sql = ("SELECT gmn_similarity(?, ?, ?), hybrid_gmn_similarity(?, ?, ?), "
           "gmn_similarity(?, 'SELEC x'), gmn_similarity(NULL, ?)")
    out = probe(d, sql, [GOLD, PRED, SCHEMA, GOLD, PRED, SCHEMA, GOLD, GOLD])
    (n_gold, n_pred), (h_gold, h_pred) = sizes("funceval"), sizes("hybrid")
    for host in ("sqlite", "duckdb"):
        f, h, unplannable, null = out[host][0]
        assert math.isclose(f, 1 / (1 + math.exp(n_pred - n_gold)), rel_tol=1e-5), (host, f)
        assert math.isclose(h, 1 / (1 + math.exp(h_pred - h_gold)), rel_tol=1e-5), (host, h)
        assert unplannable is None and null is None


def test_gmn_scores_vectorized_rows_keep_their_order(tmp_path):
    d = install(tmp_path)
    sql = ("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300) "
           "SELECT i, gmn_similarity('SELECT a FROM t' || CASE WHEN i % 2 = 0 THEN ' WHERE b = 1' ELSE '' END, "
           "'SELECT a FROM t') FROM n ORDER BY i")
    out = probe(d, sql)
    for host in ("sqlite", "duckdb"):
        rows = out[host]
        assert len(rows) == 300
        odd = {s for i, s in rows if i % 2 == 1}
        even = {s for i, s in rows if i % 2 == 0}
        assert odd == {0.5} and len(even) == 1 and even.pop() > 0.5


def test_gmn_models_from_sqlsim_model_dir(tmp_path):
    d = install(tmp_path, models=False)
    write_models(tmp_path / "models")
    out = probe(d, "SELECT gmn_similarity(?, ?)", [GOLD, GOLD],
                env={"SQLSIM_MODEL_DIR": str(tmp_path / "models")})
    assert out["sqlite"] == [[0.5]] and out["duckdb"] == [[0.5]]


def test_gmn_runtime_from_ort_dylib_path(tmp_path):
    d = install(tmp_path, runtime=False)
    out = probe(d, "SELECT hybrid_gmn_similarity(?, ?)", [GOLD, GOLD],
                env={"ORT_DYLIB_PATH": os.path.join(DIST, ORT_LIB)})
    assert out["sqlite"] == [[0.5]] and out["duckdb"] == [[0.5]]


def test_gmn_missing_runtime_or_model_is_a_clear_error(tmp_path):
    d = install(tmp_path, runtime=False)
    out = probe(d, "SELECT gmn_similarity(?, ?)", [GOLD, PRED])
    for host in ("sqlite", "duckdb"):
        assert "gmn_similarity(): ONNX Runtime not found: looked in" in out[host], out[host]
        assert "ORT_DYLIB_PATH (unset)" in out[host]
    bad = tmp_path / "not_a_runtime.so"
    bad.write_text("not a library")
    out = probe(d, "SELECT gmn_similarity(?, ?)", [GOLD, PRED], env={"ORT_DYLIB_PATH": str(bad)})
    assert "ONNX Runtime not found" in out["sqlite"] and "ONNX Runtime not found" in out["duckdb"]
    d2 = install(tmp_path / "second", models=False) if (tmp_path / "second").mkdir() is None else None
    out = probe(d2, "SELECT hybrid_gmn_similarity(?, ?)", [GOLD, PRED])
    for host in ("sqlite", "duckdb"):
        assert "hybrid_gmn_similarity(): model hybrid_gmn.onnx not found: looked in" in out[host]


def test_sql_similarity_falls_back_to_ast_ted_and_relpm_without_the_models(tmp_path):
    """sql_similarity's default components are the two GMN scores; where ONNX Runtime or the
    models are missing it averages AST-TE and RelPM instead of failing, and a GMN the options
    name is a clear error."""
    full = probe(install(tmp_path), "SELECT sql_similarity_components(?, ?)", [GOLD, PRED])
    bare = install(tmp_path / "bare", runtime=False) if (tmp_path / "bare").mkdir() is None else None
    out = probe(bare, "SELECT sql_similarity_components(?, ?)", [GOLD, PRED])
    named = probe(bare, "SELECT sql_similarity(?, ?, NULL, ?)", [GOLD, PRED, '{"components": ["gmn_similarity"]}'])
    for host in ("sqlite", "duckdb"):
        assert sorted(json.loads(full[host][0][0])["components"]) == ["gmn_similarity", "hybrid_gmn_similarity"]
        s = json.loads(out[host][0][0])
        assert sorted(s["components"]) == ["ast_ted", "relpm"], s
        assert s["structural"] == sum(s["components"].values()) / 2
        assert "sql_similarity(): " in named[host] and "component gmn_similarity: ONNX Runtime not found" in named[host]


def shipped_models(d, split):
    """The shipped models into `d`: the full models, and with `split` their split files too."""
    for name in os.listdir(DIST):
        if name.endswith(".onnx") and (split or name.count(".") == 1):
            shutil.copy(os.path.join(DIST, name), d / name)


def test_split_models_score_like_the_full_models(tmp_path):
    """Beside its split files (models/gmn/split.py) a model runs as the character encoder, once per
    text, and the rest: the same scores, bit for bit, in both hosts, as the full model alone."""
    pairs = [(GOLD, PRED), ("SELECT count(*) FROM singer", "SELECT count(*) FROM concert"),
             ("SELECT name FROM singer WHERE country = 'France'", "SELECT name FROM singer WHERE country = 'US'"),
             (PRED, GOLD)]
    values = " UNION ALL ".join(f"SELECT {i} AS i, ? AS g, ? AS p" for i in range(len(pairs)))
    sql = (f"SELECT i, gmn_similarity(g, p, ?), hybrid_gmn_similarity(g, p, ?) FROM ({values}) ORDER BY i")
    params = [SCHEMA, SCHEMA] + [q for pair in pairs for q in pair]
    out = {}
    for split in (False, True):
        (tmp_path / str(split)).mkdir()
        d = install(tmp_path / str(split), models=False)
        shipped_models(d, split)
        out[split] = probe(d, sql, params)
    for host in ("sqlite", "duckdb"):
        assert out[True][host] == out[False][host], host
        assert len(out[True][host]) == len(pairs) and all(None not in row for row in out[True][host])
    # a broken main graph is an error: the split files are what runs
    (tmp_path / "broken").mkdir()
    d = install(tmp_path / "broken", models=False)
    shipped_models(d, True)
    (d / "funceval_gmn.main.onnx").write_text("not a model")
    broken = probe(d, "SELECT gmn_similarity(?, ?)", [GOLD, PRED])
    for host in ("sqlite", "duckdb"):
        assert "gmn_similarity(): cannot load model" in broken[host] and "funceval_gmn.main.onnx" in broken[host]
