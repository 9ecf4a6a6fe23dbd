"""Ensembles of GMN members: several seeds trained side by side (train.py --seeds), saved as one
parameter file, exported as one ONNX model whose score is the members' mean (models/gmn/model.py).

Needs the training stack (JAX, jax2onnx): skipped without it, a failure under
SQLSIM_REQUIRE_JAX=1 (`make test-models-jax`, CI)."""
import json
import os

import numpy as np
import pytest

ort = pytest.importorskip("onnxruntime")

from models.gmn import tensors as T  # noqa: E402

VOCAB = 40


def jax_modules():
    if os.environ.get("SQLSIM_REQUIRE_JAX") == "1":
        import jax.numpy as jnp
    else:
        jnp = pytest.importorskip("jax.numpy", reason="JAX is not installed: `make test-models-jax` runs this test")
    from models.gmn import export as E
    from models.gmn import model as M

    return jnp, E, M


def feed_args(jnp, pairs):
    feed = T.batch_tensors(pairs)
    return feed, [jnp.asarray(feed[n]) for n in T.INPUT_NAMES]


def small(cfg, dim=16):
    return dict(cfg, dim=dim, char_ch=8, char_emb=4)


@pytest.mark.parametrize("kind", ["funceval", "hybrid"])
def test_ensemble_scores_the_members_mean_in_jax_and_onnx(kind, tmp_path):
    jnp, E, M = jax_modules()
    if kind == "funceval":
        ms = [M.init_funceval(s, VOCAB, small(M.FUNCEVAL_CFG)) for s in (1, 2, 3)]
    else:
        ms = [M.init_hybrid(s, VOCAB, small(M.HYBRID_CFG)) for s in (1, 2, 3)]
    ens = {"members": ms}
    rng = np.random.default_rng(3)
    pairs = [T.random_pair(rng, kind, VOCAB) for _ in range(5)]
    feed, args = feed_args(jnp, pairs)
    alone = [np.asarray(E.forward_fn(kind, m, VOCAB)(*args)[-1]) for m in ms]  # distance / probability
    together = np.asarray(E.forward_fn(kind, ens, VOCAB)(*args)[-1])
    np.testing.assert_allclose(together, np.mean(alone, axis=0), rtol=1e-5, atol=1e-6)
    assert not np.allclose(alone[0], alone[1])  # the members differ, so the mean means something

    npz = tmp_path / f"{kind}_gmn.params.npz"
    E.save_params(npz, ens, VOCAB)
    loaded, vocab = E.load_params(kind, str(npz))
    assert vocab == VOCAB and len(loaded["members"]) == 3
    onnx_path = tmp_path / f"{kind}_gmn.onnx"
    E.export(kind, loaded, vocab, onnx_path, 3 if kind == "funceval" else 4)
    sess = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    got = sess.run(None, feed)
    np.testing.assert_allclose(got[0], np.asarray(E.forward_fn(kind, ens, VOCAB)(*args)[0]), atol=1e-4)
    if kind == "funceval":
        np.testing.assert_allclose(got[1], together, rtol=1e-4, atol=1e-4)


def test_training_several_seeds_keeps_each_members_best_epoch(tmp_path):
    """train.py --seeds 5,6: one member per seed, each at its own best validation epoch, saved
    after every epoch that improved one (so a run stopped from outside keeps them)."""
    jax_modules()
    from models.gmn import train

    rng = np.random.default_rng(11)
    rows, graphs = [], []
    for i in range(72):
        rows.append({"id": f"syn{i}", "source": "synthetic_spider", "db_id": f"db{i % 24}", "label": i % 2})
        graphs.append({"id": f"syn{i}", "funceval": T.random_pair(rng, "funceval", VOCAB), "hybrid": None})
    (tmp_path / "pairs.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (tmp_path / "graphs.jsonl").write_text("".join(json.dumps(g) + "\n" for g in graphs))
    vocab = tmp_path / "vocab.json"
    vocab.write_text(json.dumps([str(i) for i in range(VOCAB)]))
    out = tmp_path / "funceval_gmn.onnx"
    train.main(["--model", "funceval", "--pairs", str(tmp_path / "pairs.jsonl"), "--graphs", str(tmp_path / "graphs.jsonl"),
                "--eval-graphs", str(tmp_path / "none.jsonl"), "--vocab", str(vocab), "--epochs", "2", "--batch", "8",
                "--seeds", "5,6", "--dim", "16", "--params-only", "--out", str(out)])
    report = json.loads((tmp_path / "funceval_gmn.onnx.report.json").read_text())
    assert report["seeds"] == [5, 6] and report["epochs_run"] == 2 and len(report["best_epoch"]) == 2
    assert all(len(c["val_auc"]) == 2 and len(c["val_spearman"]) == 2 for c in report["curve"])
    for k in range(2):  # each member's best is the maximum of its own curve
        assert report["best_val_auc"][k] == max(c["val_auc"][k] for c in report["curve"])
    z = np.load(tmp_path / "funceval_gmn.params.npz")
    assert {k.split("]")[1] for k in z.files if k.startswith("['members']")} == {"[0", "[1"}
    assert not out.exists()  # --params-only: no ONNX export
