"""The exported ONNX models score like the JAX models they came from (and like the extension).

Sample graphs are random graphs in the sql_graph JSON shape plus, when the built extension has
sql_graph, real graphs of a few queries; batches and node counts vary to exercise the dynamic axes.

The JAX side needs the training stack (requirements-train.txt). Without it, the parity test skips and
the others still run (`make test`, whose venv has no JAX); `make test-models-jax` (CI) installs the
stack and sets SQLSIM_REQUIRE_JAX=1, which turns that skip into a failure.
"""
import json
import os
import sys
from pathlib import Path

import numpy as np
import pytest

ort = pytest.importorskip("onnxruntime")

from models.gmn import tensors as T  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import common  # noqa: E402  (scripts/common.py)

MODELS = {"funceval": ROOT / "models" / "funceval_gmn.onnx", "hybrid": ROOT / "models" / "hybrid_gmn.onnx"}
EXT = Path(os.environ.get("SQLSIM_EXT", common.DIST / common.SQLITE_FILE))
QUERIES = [
    ("SELECT name FROM singer WHERE age > 20", "SELECT T1.name FROM singer AS T1 WHERE 20 < T1.age"),
    ("SELECT count(*) FROM singer", "SELECT count(*) FROM concert"),
    ("SELECT name, max(age) FROM singer GROUP BY name", "SELECT name FROM singer ORDER BY age DESC LIMIT 1"),
    ("SELECT a.name FROM singer AS a JOIN concert AS c ON a.id = c.singer_id WHERE c.year BETWEEN 2014 AND 2015",
     "SELECT name FROM singer WHERE id IN (SELECT singer_id FROM concert WHERE year >= 2014 AND year <= 2015)"),
]


def jax_side():
    """jax.numpy and the export module's forward function and parameter loader; a skip when JAX is
    not installed, unless SQLSIM_REQUIRE_JAX=1 (then the ImportError fails the test)."""
    if os.environ.get("SQLSIM_REQUIRE_JAX") == "1":
        import jax.numpy as jnp
    else:
        jnp = pytest.importorskip("jax.numpy", reason="JAX is not installed: `make test-models-jax` installs "
                                  "requirements-train.txt and runs this test")
    from models.gmn.export import forward_fn, load_params

    return jnp, forward_fn, load_params


def sample_pairs(kind, vocab):
    rng = np.random.default_rng(123)
    pairs = [T.random_pair(rng, kind, vocab) for _ in range(7)]
    if EXT.exists():
        import apsw

        con = common.connect_apsw(EXT)
        try:
            for g, p in QUERIES:
                txt = con.execute("SELECT sql_graph(?, ?, NULL, ?)", (g, p, kind)).fetchone()[0]
                if txt:
                    pairs.append(json.loads(txt))
        except apsw.Error:
            pass  # an extension without sql_graph: random graphs only
    return pairs


@pytest.mark.parametrize("kind", ["funceval", "hybrid"])
def test_onnx_matches_jax(kind):
    jnp, forward_fn, load_params = jax_side()
    path = MODELS[kind]
    params, vocab = load_params(kind, str(path)[: -len(".onnx")] + ".params.npz")
    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    names = [i.name for i in sess.get_inputs()]
    assert names == T.INPUT_NAMES
    outs = [o.name for o in sess.get_outputs()]
    assert outs == (["score", "distance"] if kind == "funceval" else ["score"])
    f = forward_fn(kind, params, vocab)
    pairs = sample_pairs(kind, vocab)
    for batch in (pairs[:1], pairs[1:4], pairs):
        feed = T.batch_tensors(batch)
        got = sess.run(None, feed)
        want = f(*[jnp.asarray(feed[n]) for n in T.INPUT_NAMES])
        np.testing.assert_allclose(got[0], np.asarray(want[0]), atol=1e-4)
        assert np.all((got[0] >= 0) & (got[0] <= 1))
        if kind == "funceval":
            np.testing.assert_allclose(got[0], np.exp(-got[1]), atol=1e-5)
    # padding extra nodes does not change a score
    one = T.batch_tensors(pairs[:1])
    padded = T.batch_tensors(pairs[:1], pad_to=64)
    np.testing.assert_allclose(sess.run(None, one)[0], sess.run(None, padded)[0], atol=1e-4)


def test_adjacency_convention():
    g = {"types": [3, 2], "chars": [[], [97]], "edges": [[0, 1, 2]], "pe": [[0.0] * 16, [0.5] * 16]}
    t = T.side_tensors([g], relations=3)
    assert t["adj"][0, 2, 1, 0] == 1 and t["adj"][0, 5, 0, 1] == 1 and t["adj"].sum() == 2
    assert t["chars"][0, 1, 0] == 97 and t["mask"].tolist() == [[1.0, 1.0]]


@pytest.mark.parametrize("kind,function", [("funceval", "gmn_similarity"), ("hybrid", "hybrid_gmn_similarity")])
def test_extension_scores_match_onnx(kind, function):
    """When the built extension has the GMN functions: its score equals ONNX on sql_graph's tensors."""
    if not EXT.exists():
        pytest.skip("dist/sqlsim.so not built")
    import apsw

    con = common.connect_apsw(EXT)
    try:
        con.execute(f"SELECT {function}('SELECT 1', 'SELECT 1')").fetchall()
    except apsw.Error as e:
        if "no such function" in str(e):
            pytest.skip(f"{function} not in this build")
        raise
    sess = ort.InferenceSession(str(MODELS[kind]), providers=["CPUExecutionProvider"])
    for g, p in QUERIES:
        txt = con.execute("SELECT sql_graph(?, ?, NULL, ?)", (g, p, kind)).fetchone()[0]
        got = con.execute(f"SELECT {function}(?, ?)", (g, p)).fetchone()[0]
        if txt is None:
            assert got is None
            continue
        want = sess.run(None, T.batch_tensors([json.loads(txt)]))[0][0]
        assert abs(got - float(want)) < 1e-4, (g, p, got, want)


@pytest.mark.parametrize("kind", ["funceval", "hybrid"])
def test_shipped_models_run_matmul_not_einsum(kind):
    """export.py writes every Einsum as MatMul: ONNX Runtime's Einsum made a pair scored alone
    about 1.5 times slower (models/gmn/export.py)."""
    import onnx

    ops = {n.op_type for n in onnx.load(str(MODELS[kind])).graph.node}
    assert "Einsum" not in ops and "MatMul" in ops
