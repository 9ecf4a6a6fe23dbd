"""FuncEvalGMN and Hybrid GMN as pure JAX functions of (params, dense pair tensors).

Both read the contract tensors (see tensors.py). Shared pieces:
- content encoder: a character embedding (= one-hot ASCII x matrix) and a 1-D ResNet over the
  64 characters, max-pooled; computing nodes get a type embedding; PE is projected to the node width.
- inner message passing with one weight matrix per relation channel (2R: both edge directions).
- cross-graph attention between the two graphs of a pair.

FuncEvalGMN: attention keys r = MLP(h ⊕ p) (p = projected PE), message = h_i - Σ_j a_ij h_j,
GRU update, gated-sum graph vector, Euclidean distance d, score = exp(-d), margin loss.
Hybrid GMN: separate encoders for computing and content nodes, residual GNN layers with
cross-graph attention, mean+max readout, MLP on [|u-v|, u*v] -> logit, score = sigmoid, BCE loss.
"""

import jax
import jax.numpy as jnp
import numpy as np

NEG = -1e9


def _dense(rng, i, o, scale=None):
    s = scale if scale is not None else np.sqrt(2.0 / (i + o))
    return {"w": (rng.normal(size=(i, o)) * s).astype(np.float32), "b": np.zeros((o,), np.float32)}


def _lin(p, x):
    return x @ p["w"] + p["b"]


def _conv(rng, k, i, o):
    return {"w": (rng.normal(size=(k, i, o)) * np.sqrt(2.0 / (k * i))).astype(np.float32),
            "b": np.zeros((o,), np.float32)}


def _conv1d(p, x, stride=1):
    y = jax.lax.conv_general_dilated(x, p["w"], (stride,), "SAME", dimension_numbers=("NWC", "WIO", "NWC"))
    return y + p["b"]


def init_char_encoder(rng, emb, ch, blocks):
    p = {"emb": (rng.normal(size=(128, emb)) * 0.5).astype(np.float32), "stem": _conv(rng, 3, emb, ch), "blocks": []}
    for _ in range(blocks):
        p["blocks"].append({"c1": _conv(rng, 3, ch, ch), "c2": _conv(rng, 3, ch, ch)})
    return p


def char_encoder(p, chars):
    """[B,N,64] int -> [B,N,C]: embedding (one-hot x matrix), conv stem, residual blocks, max-pool."""
    b, n, L = chars.shape
    x = jnp.take(p["emb"], chars.reshape(-1, L), axis=0)  # [B*N, L, E]
    x = jax.nn.relu(_conv1d(p["stem"], x, 2))
    for blk in p["blocks"]:
        y = jax.nn.relu(_conv1d(blk["c1"], x))
        x = jax.nn.relu(x + _conv1d(blk["c2"], y))
    x = jnp.max(x, axis=1)
    return x.reshape(b, n, -1)


def _types(types, vocab):
    t = types.astype(jnp.int32)
    return jnp.where((t >= 0) & (t < vocab), t, 1)


def _gru_init(rng, i, d):
    return {"x": _dense(rng, i, 3 * d), "h": _dense(rng, d, 3 * d)}


def _gru(p, x, h):
    d = h.shape[-1]
    gx = _lin(p["x"], x)
    gh = _lin(p["h"], h)
    z = jax.nn.sigmoid(gx[..., :d] + gh[..., :d])
    r = jax.nn.sigmoid(gx[..., d : 2 * d] + gh[..., d : 2 * d])
    nn = jnp.tanh(gx[..., 2 * d :] + r * gh[..., 2 * d :])
    return (1.0 - z) * h + z * nn


def _inner(wrel, adj, h):
    """Σ_r adj_r @ (h W_r): relation-specific messages over 2R channels."""
    hw = jnp.einsum("bjd,rde->brje", h, wrel)
    return jnp.einsum("brij,brje->bie", adj, hw)


def _cross(ka, kb, mask_b):
    """Attention of each node of A over the nodes of B: [B,Na,Nb]."""
    s = jnp.einsum("bid,bjd->bij", ka, kb) / np.sqrt(ka.shape[-1])
    s = jnp.where(mask_b[:, None, :] > 0, s, NEG)
    return jax.nn.softmax(s, axis=-1)


# ------------------------------------------------------------------ FuncEvalGMN

FUNCEVAL_CFG = {"relations": 3, "dim": 48, "layers": 3, "char_emb": 16, "char_ch": 24, "char_blocks": 1,
                "out": 64, "margin": 0.5}


def init_funceval(seed, vocab, cfg=FUNCEVAL_CFG):
    rng = np.random.default_rng(seed)
    d, R = cfg["dim"], cfg["relations"]
    p = {
        "chars": init_char_encoder(rng, cfg["char_emb"], cfg["char_ch"], cfg["char_blocks"]),
        "char_proj": _dense(rng, cfg["char_ch"], d),
        "type_emb": (rng.normal(size=(vocab, d)) * 0.3).astype(np.float32),
        "pe_h": _dense(rng, 16, d),
        "pe_p": _dense(rng, 16, d),
        "layers": [],
        "gate": _dense(rng, d, cfg["out"]),
        "val": _dense(rng, d, cfg["out"]),
        "final": _dense(rng, cfg["out"], cfg["out"]),
    }
    for _ in range(cfg["layers"]):
        p["layers"].append({
            "rel": (rng.normal(size=(2 * R, d, d)) * np.sqrt(1.0 / d)).astype(np.float32),
            "r1": _dense(rng, 2 * d, d), "r2": _dense(rng, d, d),
            "gru": _gru_init(rng, 2 * d, d),
        })
    return jax.tree_util.tree_map(jnp.asarray, p)


def _fe_embed(params, types, chars, mask, pe, vocab):
    h = jnp.take(params["type_emb"], _types(types, vocab), axis=0)
    is_content = (types == 2).astype(jnp.float32)[..., None]
    h = h + is_content * _lin(params["char_proj"], char_encoder(params["chars"], chars))
    h = h + _lin(params["pe_h"], pe)
    pos = jnp.tanh(_lin(params["pe_p"], pe))
    return h * mask[..., None], pos


def funceval_vectors(params, vocab, g, p):
    """Graph vectors of both sides; g and p are (types, chars, adj, mask, pe)."""
    hg, pg = _fe_embed(params, g[0], g[1], g[3], g[4], vocab)
    hp, pp = _fe_embed(params, p[0], p[1], p[3], p[4], vocab)
    for L in params["layers"]:
        mg = _inner(L["rel"], g[2], hg)
        mp = _inner(L["rel"], p[2], hp)
        rg = _lin(L["r2"], jax.nn.relu(_lin(L["r1"], jnp.concatenate([hg, pg], -1))))
        rp = _lin(L["r2"], jax.nn.relu(_lin(L["r1"], jnp.concatenate([hp, pp], -1))))
        ug = hg - jnp.einsum("bij,bjd->bid", _cross(rg, rp, p[3]), hp)
        up = hp - jnp.einsum("bij,bjd->bid", _cross(rp, rg, g[3]), hg)
        hg = _gru(L["gru"], jnp.concatenate([mg, ug], -1), hg) * g[3][..., None]
        hp = _gru(L["gru"], jnp.concatenate([mp, up], -1), hp) * p[3][..., None]

    def agg(h, m):
        v = jnp.sum(jax.nn.sigmoid(_lin(params["gate"], h)) * _lin(params["val"], h) * m[..., None], axis=1)
        return _lin(params["final"], v)

    return agg(hg, g[3]), agg(hp, p[3])


def members(params):
    """The models of an ensemble ({"members": [...]}, each member a whole model) or [params]."""
    return params["members"] if "members" in params else [params]


def funceval_forward(params, vocab, g, p):
    """(score, distance) per pair: distance = ||u - v||_2, score = exp(-distance).

    An ensemble's distance is the mean of its members' distances."""
    dists = []
    for m in members(params):
        u, v = funceval_vectors(m, vocab, g, p)
        dists.append(jnp.sqrt(jnp.sum((u - v) ** 2, axis=-1) + 1e-12))
    dist = sum(dists) / len(dists)
    return jnp.exp(-dist), dist


def funceval_loss(params, vocab, g, p, y, cfg=FUNCEVAL_CFG):
    """GMN margin loss on the distance: t = ±1, max(0, γ - t (1 - d))."""
    _, d = funceval_forward(params, vocab, g, p)
    t = 2.0 * y - 1.0
    return jnp.mean(jax.nn.relu(cfg["margin"] - t * (1.0 - d)))


# ------------------------------------------------------------------ Hybrid GMN

HYBRID_CFG = {"relations": 4, "dim": 48, "layers": 3, "char_emb": 16, "char_ch": 24, "char_blocks": 1}


def init_hybrid(seed, vocab, cfg=HYBRID_CFG):
    rng = np.random.default_rng(seed)
    d, R = cfg["dim"], cfg["relations"]
    p = {
        "chars": init_char_encoder(rng, cfg["char_emb"], cfg["char_ch"], cfg["char_blocks"]),
        "content_enc": _dense(rng, cfg["char_ch"], d),
        "type_emb": (rng.normal(size=(vocab, d)) * 0.3).astype(np.float32),
        "compute_enc": _dense(rng, d, d),
        "pe": _dense(rng, 16, d),
        "layers": [],
        "head1": _dense(rng, 2 * 2 * d, d),
        "head2": _dense(rng, d, 1),
    }
    for _ in range(cfg["layers"]):
        p["layers"].append({
            "rel": (rng.normal(size=(2 * R, d, d)) * np.sqrt(1.0 / d)).astype(np.float32),
            "self": _dense(rng, d, d), "q": _dense(rng, d, d), "upd": _dense(rng, 3 * d, d),
        })
    return jax.tree_util.tree_map(jnp.asarray, p)


def _hy_embed(params, types, chars, mask, pe, vocab):
    is_content = (types == 2).astype(jnp.float32)[..., None]
    comp = jax.nn.relu(_lin(params["compute_enc"], jnp.take(params["type_emb"], _types(types, vocab), axis=0)))
    cont = jax.nn.relu(_lin(params["content_enc"], char_encoder(params["chars"], chars)))
    h = is_content * cont + (1.0 - is_content) * comp + _lin(params["pe"], pe)
    return h * mask[..., None]


def hybrid_logit(params, vocab, g, p):
    hg = _hy_embed(params, g[0], g[1], g[3], g[4], vocab)
    hp = _hy_embed(params, p[0], p[1], p[3], p[4], vocab)
    for L in params["layers"]:
        deg_g = jnp.maximum(jnp.sum(g[2], axis=(1, 3))[..., None], 1.0)
        deg_p = jnp.maximum(jnp.sum(p[2], axis=(1, 3))[..., None], 1.0)
        mg = _inner(L["rel"], g[2], hg) / deg_g + _lin(L["self"], hg)
        mp = _inner(L["rel"], p[2], hp) / deg_p + _lin(L["self"], hp)
        qg, qp = _lin(L["q"], hg), _lin(L["q"], hp)
        cg = hg - jnp.einsum("bij,bjd->bid", _cross(qg, qp, p[3]), hp)
        cp = hp - jnp.einsum("bij,bjd->bid", _cross(qp, qg, g[3]), hg)
        hg = (hg + jax.nn.relu(_lin(L["upd"], jnp.concatenate([hg, mg, cg], -1)))) * g[3][..., None]
        hp = (hp + jax.nn.relu(_lin(L["upd"], jnp.concatenate([hp, mp, cp], -1)))) * p[3][..., None]

    def readout(h, m):
        mean = jnp.sum(h, axis=1) / jnp.maximum(jnp.sum(m, axis=1, keepdims=True), 1.0)
        mx = jnp.max(jnp.where(m[..., None] > 0, h, NEG), axis=1)
        return jnp.concatenate([mean, mx], -1)

    u, v = readout(hg, g[3]), readout(hp, p[3])
    z = jax.nn.relu(_lin(params["head1"], jnp.concatenate([jnp.abs(u - v), u * v], -1)))
    return _lin(params["head2"], z)[..., 0]


def hybrid_forward(params, vocab, g, p):
    """Probability of equivalence; an ensemble's is the mean of its members' probabilities."""
    probs = [jax.nn.sigmoid(hybrid_logit(m, vocab, g, p)) for m in members(params)]
    return sum(probs) / len(probs)


def hybrid_loss(params, vocab, g, p, y):
    z = hybrid_logit(params, vocab, g, p)
    return jnp.mean(jax.nn.relu(z) - z * y + jnp.log1p(jnp.exp(-jnp.abs(z))))
