"""The shipped split models (models/gmn/split.py: `NAME.chars.onnx`, the character encoder, and
`NAME.main.onnx`, the rest) are the full models split, and score like them bit for bit when each
text's features are computed alone, as the runtime does (src/gmn/char_features.rs)."""
import sys
from pathlib import Path

import numpy as np
import pytest

ort = pytest.importorskip("onnxruntime")
onnx = pytest.importorskip("onnx")

from models.gmn import split as S  # noqa: E402
from models.gmn import tensors as T  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_onnx_parity import MODELS, sample_pairs  # noqa: E402



def vocab(kind):
    return int(np.load(str(MODELS[kind])[: -len(".onnx")] + ".params.npz")["__vocab_size__"])


def session(path):
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


@pytest.mark.parametrize("kind", ["funceval", "hybrid"])
def test_shipped_split_files_are_the_full_model_split(kind, tmp_path):
    copy = tmp_path / MODELS[kind].name
    copy.write_bytes(MODELS[kind].read_bytes())
    fresh = S.split(str(copy))
    for made, shipped in zip(fresh, S.part_paths(str(MODELS[kind]))):
        assert Path(shipped).is_file(), f"{shipped} missing: run python -m models.gmn.split"
        assert onnx.load(made).graph == onnx.load(shipped).graph, f"{shipped} is not {MODELS[kind].name} split"


@pytest.mark.parametrize("kind", ["funceval", "hybrid"])
def test_split_models_score_like_the_full_model(kind):
    full = session(MODELS[kind])
    chars_path, main_path = S.part_paths(str(MODELS[kind]))
    chars, main = session(chars_path), session(main_path)
    cache = {}

    def features(row):
        text = tuple(int(c) for c in np.trim_zeros(row, "b"))
        if text not in cache:
            alone = np.zeros((1, 1, 64), np.int64)
            alone[0, 0, : len(text)] = text
            cache[text] = chars.run(None, {"g_types": np.zeros((1, 1), np.int64), "g_chars": alone})[0][0, 0]
        return cache[text]

    pairs = sample_pairs(kind, vocab(kind))
    for batch in (pairs[:1], pairs[1:4], pairs):
        feed = T.batch_tensors(batch)
        want = full.run(["score"], feed)[0]
        split_feed = {k: v for k, v in feed.items() if not k.endswith("_chars")}
        for side in "gp":
            c = feed[f"{side}_chars"]
            split_feed[f"{side}_char_features"] = np.array(
                [[features(c[b, n]) for n in range(c.shape[1])] for b in range(c.shape[0])], np.float32)
        got = main.run(["score"], split_feed)[0]
        assert np.array_equal(got, want), (kind, len(batch), np.abs(got - want).max())
