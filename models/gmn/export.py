"""Export a trained GMN to ONNX with the contract's tensor names and dynamic B / N axes.

jax2onnx traces the JAX forward function with symbolic dims (B, Ng, Np); the weights become
initializers. jax2onnx emits int32 for integer inputs, so the int inputs are re-declared as
int64 (the contract) and cast to int32 inside the graph.
"""

import jax
import jax.numpy as jnp
import numpy as np
import onnx
from jax import export as jexport
from jax2onnx import to_onnx
from onnx import TensorProto, helper

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
    """(params, vocab) from save_params' file: the init tree with every leaf replaced."""
    z = np.load(path)
    vocab = int(z["__vocab_size__"])
    init = M.init_funceval(0, vocab) if kind == "funceval" else M.init_hybrid(0, vocab)
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


def export(kind, params, vocab, path, relations):
    params = jax.tree_util.tree_map(lambda x: jnp.asarray(np.asarray(x)), params)
    outs = ["score", "distance"] if kind == "funceval" else ["score"]
    m = to_onnx(forward_fn(kind, params, vocab), _specs(relations), input_names=INPUT_NAMES,
                output_names=outs, opset=OPSET, model_name=kind + "_gmn")
    m = _int64_inputs(m)
    # dims named B, Ng, Np in the ONNX file
    onnx.checker.check_model(m)
    onnx.save(m, str(path))
    return path
