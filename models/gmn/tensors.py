"""Dense ONNX input tensors from `sql_graph` JSON (contract section 2 of the GMN interface).

For a batch of B pairs and one side (gold "g" or prediction "p"), N is the largest node count
of that side (optionally rounded up to a multiple of `pad_to`; padding nodes have mask 0):
types int64 [B,N], chars int64 [B,N,64], adj float32 [B,2R,N,N] with adj[b,rel,dst,src] = 1 and
adj[b,R+rel,src,dst] = 1 per edge, mask float32 [B,N], pe float32 [B,N,PE].
"""

import numpy as np

CHARS = 64
PE = 16


def side_tensors(graphs, relations, pad_to=1, n=None):
    if n is None:
        n = max(len(g["types"]) for g in graphs)
        n = max(1, -(-n // pad_to) * pad_to)
    b = len(graphs)
    types = np.zeros((b, n), np.int64)
    chars = np.zeros((b, n, CHARS), np.int64)
    adj = np.zeros((b, 2 * relations, n, n), np.float32)
    mask = np.zeros((b, n), np.float32)
    pe = np.zeros((b, n, PE), np.float32)
    for i, g in enumerate(graphs):
        k = len(g["types"])
        types[i, :k] = g["types"]
        mask[i, :k] = 1.0
        for j, cs in enumerate(g["chars"]):
            cs = cs[:CHARS]
            if cs:
                chars[i, j, : len(cs)] = np.minimum(np.asarray(cs, np.int64), 127)
        for s, d, r in g["edges"]:
            adj[i, r, d, s] = 1.0
            adj[i, relations + r, s, d] = 1.0
        if k:
            p = np.asarray(g["pe"], np.float32).reshape(k, -1)[:, :PE]
            pe[i, :k, : p.shape[1]] = p
    return {"types": types, "chars": chars, "adj": adj, "mask": mask, "pe": pe}


BUCKETS = (16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512)


def bucket(n):
    for b in BUCKETS:
        if n <= b:
            return b
    return n


def batch_tensors(pair_graphs, pad_to=1, same_n=False):
    """ONNX feed dict (g_*, p_*) for a list of sql_graph objects (parsed JSON).

    same_n: pad both sides to one bucketed node count (fewer distinct shapes for jit)."""
    rel = pair_graphs[0]["relations"]
    n = None
    if same_n:
        n = bucket(max(len(g["types"]) for pg in pair_graphs for g in pg["graphs"]))
    out = {}
    for side, idx in (("g", 0), ("p", 1)):
        t = side_tensors([pg["graphs"][idx] for pg in pair_graphs], rel, pad_to, n)
        for k, v in t.items():
            out[side + "_" + k] = v
    return out


INPUT_NAMES = [s + "_" + k for s in ("g", "p") for k in ("types", "chars", "adj", "mask", "pe")]


def random_graph(rng, n_nodes, relations, vocab_size):
    """A synthetic graph in the sql_graph JSON shape (for tests and development)."""
    types, chars = [], []
    for _ in range(n_nodes):
        if rng.random() < 0.4:
            types.append(2)
            chars.append([int(c) for c in rng.integers(32, 127, rng.integers(1, 20))])
        else:
            types.append(int(rng.integers(3, vocab_size)))
            chars.append([])
    edges = []
    for i in range(1, n_nodes):
        edges.append([int(rng.integers(0, i)), i, 0])
    for _ in range(n_nodes // 2):
        edges.append([int(rng.integers(0, n_nodes)), int(rng.integers(0, n_nodes)), int(rng.integers(1, relations))])
    pe = rng.random((n_nodes, PE)).round(4).tolist()
    return {"types": types, "chars": chars, "edges": edges, "pe": pe}


def random_pair(rng, model, vocab_size):
    rel = 3 if model == "funceval" else 4
    return {"model": model, "version": 1, "relations": rel, "pe_steps": PE,
            "graphs": [random_graph(rng, int(rng.integers(2, 30)), rel, vocab_size) for _ in range(2)]}
