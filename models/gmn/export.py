"""Export a trained GMN to ONNX with the contract's tensor names and dynamic B / N axes.

jax2onnx traces the JAX forward function with symbolic dims (B, Ng, Np); the weights become
initializers. jax2onnx emits int32 for integer inputs, so the int inputs are re-declared as
int64 (the contract) and cast to int32 inside the graph. Its Einsum nodes are then written as
MatMul (ONNX Runtime's Einsum kernel transposes and copies around a generic contraction: a pair
scored alone runs in 0.82 ms instead of 1.1 for FuncEvalGMN, 1.84 instead of 2.87 for Hybrid GMN,
one CPU thread, Spider-DK graphs; scores move by at most 4e-7).

Re-export the shipped models from their weights, without training (what `make train-gmn` ends
with):

    python -m models.gmn.export models/funceval_gmn.params.npz models/hybrid_gmn.params.npz
"""

import sys

import jax
import jax.numpy as jnp
import numpy as np
import onnx
from jax import export as jexport
from onnx import TensorProto, helper, numpy_helper

from models.gmn import model as M
from models.gmn.tensors import CHARS, INPUT_NAMES, PE

OPSET = 21


def params_path(onnx_path):
    return str(onnx_path)[: -len(".onnx")] + ".params.npz"


def save_params(path, params, vocab):
    """Weights as a flat .npz keyed by tree path (plus vocab_size), for the parity test."""
    flat = {jax.tree_util.keystr(k): np.asarray(v) for k, v in jax.tree_util.tree_flatten_with_path(params)[0]}
    np.savez_compressed(path, __vocab_size__=np.asarray(vocab), **flat)


def load_params(kind, path):
    """(params, vocab) from save_params' file: the init tree with every leaf replaced (leaf shapes,
    so the width, come from the file; an ensemble's file holds `['members'][i]...` keys)."""
    z = np.load(path)
    vocab = int(z["__vocab_size__"])
    one = M.init_funceval(0, vocab) if kind == "funceval" else M.init_hybrid(0, vocab)
    n_members = len({k.split("]")[1] for k in z.files if k.startswith("['members']")})
    init = {"members": [one] * n_members} if n_members else one
    leaves, tree = jax.tree_util.tree_flatten_with_path(init)
    vals = [jnp.asarray(z[jax.tree_util.keystr(k)]) for k, _ in leaves]
    return jax.tree_util.tree_unflatten(tree, vals), vocab


def forward_fn(kind, params, vocab):
    if kind == "funceval":
        def f(gt, gc, ga, gm, gp, pt, pc, pa, pm, pp):
            return M.funceval_forward(params, vocab, (gt, gc, ga, gm, gp), (pt, pc, pa, pm, pp))
    else:
        def f(gt, gc, ga, gm, gp, pt, pc, pa, pm, pp):
            return (M.hybrid_forward(params, vocab, (gt, gc, ga, gm, gp), (pt, pc, pa, pm, pp)),)
    return f


def _specs(relations):
    b, ng, npp = jexport.symbolic_shape("B,Ng,Np")
    out = []
    for n in (ng, npp):
        out += [jax.ShapeDtypeStruct((b, n), jnp.int32), jax.ShapeDtypeStruct((b, n, CHARS), jnp.int32),
                jax.ShapeDtypeStruct((b, 2 * relations, n, n), jnp.float32),
                jax.ShapeDtypeStruct((b, n), jnp.float32), jax.ShapeDtypeStruct((b, n, PE), jnp.float32)]
    return out


def _int64_inputs(m: onnx.ModelProto) -> onnx.ModelProto:
    g = m.graph
    casts = []
    for inp in g.input:
        tt = inp.type.tensor_type
        if tt.elem_type == TensorProto.INT32:
            inner = inp.name + "__i32"
            for node in g.node:
                for i, x in enumerate(node.input):
                    if x == inp.name:
                        node.input[i] = inner
            for o in g.output:
                assert o.name != inp.name
            casts.append(helper.make_node("Cast", [inp.name], [inner], to=TensorProto.INT32, name=inp.name + "_cast"))
            tt.elem_type = TensorProto.INT64
    for c in reversed(casts):
        g.node.insert(0, c)
    return m


def _einsum_as_matmul(m: onnx.ModelProto) -> onnx.ModelProto:
    """Each Einsum of the GMN forward functions as MatMul (with Unsqueeze, ReduceSum or Transpose
    around it): the same contraction, summed in another order only where float rounding shows."""
    g = m.graph
    nodes = []
    for k, node in enumerate(g.node):
        if node.op_type != "Einsum":
            nodes.append(node)
            continue
        eq = next(a.s.decode() for a in node.attribute if a.name == "equation")
        a, b = node.input
        out = node.output[0]
        name = f"{node.name or 'einsum'}_{k}_as_matmul"
        axis = name + "_axis1"
        if eq in ("abc,cd->abd", "bij,bjd->bid"):  # dense layers; messages along weights
            nodes.append(helper.make_node("MatMul", [a, b], [out], name=name))
        elif eq == "bjd,rde->brje":  # one weight matrix per relation: broadcast over B and R
            g.initializer.append(numpy_helper.from_array(np.array([1], np.int64), axis))
            nodes += [helper.make_node("Unsqueeze", [a, axis], [name + "_h"], name=name + "_u"),
                      helper.make_node("MatMul", [name + "_h", b], [out], name=name)]
        elif eq == "brij,brje->bie":  # messages per relation, then summed over relations
            g.initializer.append(numpy_helper.from_array(np.array([1], np.int64), axis))
            nodes += [helper.make_node("MatMul", [a, b], [name + "_m"], name=name),
                      helper.make_node("ReduceSum", [name + "_m", axis], [out], name=name + "_sum", keepdims=0)]
        elif eq == "bid,bjd->bij":  # attention logits
            nodes += [helper.make_node("Transpose", [b], [name + "_t"], name=name + "_t", perm=[0, 2, 1]),
                      helper.make_node("MatMul", [a, name + "_t"], [out], name=name)]
        else:
            raise ValueError(f"no MatMul form for the Einsum equation {eq!r}")
    del g.node[:]
    g.node.extend(nodes)
    return m


def export(kind, params, vocab, path, relations):
    from jax2onnx import to_onnx  # the training stack only (a GPU machine may lack it: train --params-only)

    params = jax.tree_util.tree_map(lambda x: jnp.asarray(np.asarray(x)), params)
    outs = ["score", "distance"] if kind == "funceval" else ["score"]
    m = to_onnx(forward_fn(kind, params, vocab), _specs(relations), input_names=INPUT_NAMES,
                output_names=outs, opset=OPSET, model_name=kind + "_gmn")
    m = _einsum_as_matmul(_int64_inputs(m))
    # dims named B, Ng, Np in the ONNX file
    onnx.checker.check_model(m)
    onnx.save(m, str(path))
    return path


def main(argv):
    """Re-exports each `<name>.params.npz` to `<name>.onnx` beside it."""
    if not argv:
        sys.exit("usage: python -m models.gmn.export MODEL.params.npz ...")
    for npz in argv:
        onnx_path = npz[: -len(".params.npz")] + ".onnx"
        kind = "hybrid" if "hybrid" in onnx_path.rsplit("/", 1)[-1] else "funceval"
        params, vocab = load_params(kind, npz)
        export(kind, params, vocab, onnx_path, 3 if kind == "funceval" else 4)
        print(f"{onnx_path}: exported from {npz}")


if __name__ == "__main__":
    main(sys.argv[1:])
