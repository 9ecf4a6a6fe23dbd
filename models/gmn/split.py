"""Split an exported GMN into its character encoder and the rest, so that inference encodes each
distinct content text once.

The character encoder (embedding, conv stem, residual blocks, max-pool over the 64 characters)
reads each node's text alone, and it is most of a pair's arithmetic: every node of both graphs
runs it, although a workload's content texts (table and column names, literals) repeat from pair
to pair and computing nodes all have the empty text. Cut where its output enters the rest of the
graph, the model becomes two:

- `NAME.chars.onnx`: inputs `g_types` [B, N] (read for its shape only) and `g_chars` [B, N, 64];
  output `char_features` [B, N, C], the encoder's features of each node's text;
- `NAME.main.onnx`: the model's inputs with `g_chars` / `p_chars` replaced by `g_char_features` /
  `p_char_features` [B, N, C]; output `score`.

Both are the exported graph's own nodes and weights (nothing is recomputed or re-exported): fed
the features of each text computed alone, the main graph's scores are the full model's, bit for
bit (tests/models/test_split.py). The runtime (src/gmn/runtime.rs) uses the pair where both files
lie beside the full model, and caches each text's features.

    python -m models.gmn.split models/funceval_gmn.onnx models/hybrid_gmn.onnx
"""

import os
import sys

import onnx
import onnx.utils

SIDE_INPUTS = ("types", "chars", "adj", "mask", "pe")


def part_paths(full_path):
    """(chars, main) file paths beside the full model `NAME.onnx`."""
    stem = str(full_path)[: -len(".onnx")]
    return stem + ".chars.onnx", stem + ".main.onnx"


def feature_tensors(model):
    """The tensors holding the encoder's per-node features of the gold and prediction sides: the
    Reshape of each side's max-pool back to [B, N, C]."""
    pools = [n.output[0] for n in model.graph.node if n.op_type == "ReduceMax"][:2]
    found = {}
    for n in model.graph.node:
        if n.op_type == "Reshape" and n.input[0] in pools:
            found[pools.index(n.input[0])] = n.output[0]
    if len(found) != 2:
        raise ValueError("the model has no character encoder output per side")
    return found[0], found[1]


def rename(model, old, new):
    for n in model.graph.node:
        n.input[:] = [new if x == old else x for x in n.input]
        n.output[:] = [new if x == old else x for x in n.output]
    for v in list(model.graph.value_info):
        if v.name == old:
            v.name = new


def split(full_path):
    model = onnx.load(full_path)
    gold, pred = feature_tensors(model)
    rename(model, gold, "g_char_features")
    rename(model, pred, "p_char_features")
    renamed = full_path + ".renamed.tmp"
    onnx.save(model, renamed)
    chars_path, main_path = part_paths(full_path)
    main_inputs = [f"{side}_{name}" if name != "chars" else f"{side}_char_features"
                   for side in "gp" for name in SIDE_INPUTS]
    onnx.utils.extract_model(renamed, main_path, main_inputs, ["score"])
    onnx.utils.extract_model(renamed, chars_path, ["g_types", "g_chars"], ["g_char_features"])
    chars = onnx.load(chars_path)
    rename(chars, "g_char_features", "char_features")
    for o in chars.graph.output:
        if o.name == "g_char_features":
            o.name = "char_features"
    onnx.checker.check_model(chars)
    onnx.save(chars, chars_path)
    os.remove(renamed)
    return chars_path, main_path


if __name__ == "__main__":
    for path in sys.argv[1:]:
        print(*split(path))
