"""Train FuncEvalGMN or Hybrid GMN on the cached sql_graph pairs, validate, evaluate, export ONNX.

    python -m models.gmn.train --model funceval --pairs /tmp/gmn_cache/pairs.jsonl \
        --graphs /tmp/gmn_cache/graphs.jsonl --eval-graphs /tmp/gmn_cache/eval_graphs.jsonl \
        --out models/funceval_gmn.onnx

Validation split: a stable hash of the pair's database (WikiSQL: of the pair id) puts ~10% of
the training data aside; the best epoch by validation AUC is exported. Public sets are scored
after training for the model card only.

`--seeds 1,2,3,4` trains one member per seed side by side (jax.vmap: one step updates all of them
on the same batch) and exports the ensemble, each member at its own best epoch (model.members).
`--params-only` writes the weights and the report and nothing else: what a GPU machine without
jax2onnx or the extension runs; `python -m models.gmn.export` makes the ONNX file from them, and
`python -m models.gmn.judge` applies the model card's shipping rule.
"""

import argparse
import hashlib
import json
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import optax

from models.gmn import model as M
from models.gmn.export import params_path, save_params
from models.gmn.graphs import load_cache
from models.gmn.metrics import PUBLIC_SETS, roc_auc, spearman
from models.gmn.tensors import INPUT_NAMES, batch_tensors, bucket

MAX_TRAIN_NODES = 128


def is_val(row):
    key = row["id"] if row["source"] == "wikisql_pair_dev" else row["source"].split("_")[0] + row["db_id"]
    return int(hashlib.sha256(key.encode()).hexdigest()[:8], 16) % 10 == 0


def examples(rows, cache, model):
    out = []
    for r in rows:
        g = cache.get(r["id"], {}).get(model)
        if g is not None:
            out.append((g, float(r["label"]), r))
    return out


def n_nodes(g):
    return max(len(g["graphs"][0]["types"]), len(g["graphs"][1]["types"]))


def batches(exs, bs, rng=None):
    """Size-bucketed batches: shuffle, sort chunks of 20 batches by size, cut."""
    idx = np.arange(len(exs))
    if rng is not None:
        rng.shuffle(idx)
    out = []
    chunk = bs * 20
    for s in range(0, len(idx), chunk):
        part = sorted(idx[s : s + chunk], key=lambda i: n_nodes(exs[i][0]))
        out += [part[k : k + bs] for k in range(0, len(part), bs)]
    if rng is not None:
        rng.shuffle(out)
    return out


def to_args(feed):
    return tuple(jnp.asarray(feed[n]) for n in INPUT_NAMES)


def split(args):
    return args[:5], args[5:]


def stack(trees):
    return jax.tree_util.tree_map(lambda *xs: jnp.stack(xs), *trees)


def member(stacked, i):
    return jax.tree_util.tree_map(lambda x: np.asarray(x[i]), stacked)


class Trainer:
    """One model per seed, trained side by side on the same batches (jax.vmap over the seeds:
    one step updates every member), so an ensemble costs one batch stream."""

    def __init__(self, kind, vocab, seeds, lr, dim=None):
        self.seeds = list(seeds)
        if kind == "funceval":
            cfg = dict(M.FUNCEVAL_CFG, **({"dim": dim} if dim else {}))
            init = lambda s: M.init_funceval(s, vocab, cfg)  # noqa: E731
            loss = lambda p, a, y: M.funceval_loss(p, vocab, *split(a), y, cfg)  # noqa: E731
        else:
            cfg = dict(M.HYBRID_CFG, **({"dim": dim} if dim else {}))
            init = lambda s: M.init_hybrid(s, vocab, cfg)  # noqa: E731
            loss = lambda p, a, y: M.hybrid_loss(p, vocab, *split(a), y)  # noqa: E731
        self.params = stack([init(s) for s in self.seeds])
        self.opt = optax.chain(optax.clip_by_global_norm(1.0), optax.adamw(lr, weight_decay=1e-4))
        self.state = jax.vmap(self.opt.init)(self.params)

        def step(params, state, a, y):
            lv, gr = jax.value_and_grad(loss)(params, a, y)
            upd, state = self.opt.update(gr, state, params)
            return optax.apply_updates(params, upd), state, lv

        self.step = jax.jit(jax.vmap(step, in_axes=(0, 0, None, None)))
        self.fwd = jax.jit(jax.vmap(score_fn(kind, vocab), in_axes=(0, None)))

    def train_epoch(self, exs, bs, rng, deadline=None):
        """Mean training loss of one epoch (over the members); stops early (a partial epoch) once
        time.time() > deadline."""
        tot, n = 0.0, 0
        for b in batches(exs, bs, rng):
            if len(b) < bs:  # one batch shape per node bucket
                continue
            if deadline is not None and time.time() > deadline:
                break
            feed = batch_tensors([exs[i][0] for i in b], same_n=True)
            y = jnp.asarray([exs[i][1] for i in b], jnp.float32)
            self.params, self.state, lv = self.step(self.params, self.state, to_args(feed), y)
            tot += float(jnp.mean(lv)) * len(b)
            n += len(b)
        return tot / max(n, 1)

    def score(self, exs):
        """Scores [members, len(exs)] in the order of exs."""
        return score_pairs(self.fwd, self.params, len(self.seeds), exs)


class Ensemble:
    """Scores of exported parameters (one model or {"members": [...]}) in train.py's batching."""

    def __init__(self, kind, params, vocab):
        f = jax.jit(score_fn(kind, vocab))
        self.params = params
        self.fwd = lambda p, a: f(p, a)[None]

    def score(self, exs):
        """Scores [1, len(exs)] in the order of exs."""
        return score_pairs(self.fwd, self.params, 1, exs)


def score_fn(kind, vocab):
    """(params, args) -> score per pair: FuncEvalGMN's exp(-distance), Hybrid's probability."""
    if kind == "funceval":
        return lambda p, a: M.funceval_forward(p, vocab, *split(a))[0]
    return lambda p, a: M.hybrid_forward(p, vocab, *split(a))


def score_pairs(fwd, params, rows, exs, budget=1_500_000):
    """fwd's [rows, B] scores of every pair of exs, in their order; batches of graphs of one size
    bucket, sized so that B * 2R * N^2 stays under budget."""
    out = np.zeros((rows, len(exs)), np.float32)
    order = sorted(range(len(exs)), key=lambda i: n_nodes(exs[i][0]))
    k = 0
    while k < len(order):
        n = bucket(n_nodes(exs[order[k]][0]))
        bs = 64
        while bs > 1 and bs * 8 * n * n > budget * 8:
            bs //= 2
        b = [i for i in order[k : k + bs] if bucket(n_nodes(exs[i][0])) == n]
        # round B up to a power of two by repeating the last pair (fewer recompiles)
        padded = b + [b[-1]] * (bs - len(b))
        feed = batch_tensors([exs[i][0] for i in padded], same_n=True)
        s = np.asarray(fwd(params, to_args(feed)))
        out[:, b] = s[:, : len(b)]
        k += len(b)
    return out


def per_member(values):
    """A report field: the value of a lone model, else the list of the members' values (4 digits)."""
    values = [round(v, 4) if isinstance(v, float) else v for v in values]
    return values[0] if len(values) == 1 else values


def best_params(best):
    """One model, or {"members": [...]} for several seeds: each member at its best epoch."""
    return best[0][1] if len(best) == 1 else {"members": [b[1] for b in best]}


def evaluate_public(tr, data, eval_cache, model):
    from models.gmn.metrics import public_rows

    res = {}
    for name in PUBLIC_SETS:
        rows = public_rows(Path(data), name)
        exs = examples(rows, eval_cache, model)
        sc = dict(zip([e[2]["id"] for e in exs], tr.score(exs)[0])) if exs else {}
        y = [r["label"] for r in rows]
        s = [float(sc.get(r["id"], 0.0)) for r in rows]  # no graph (unplannable / no pred): score 0
        res[name] = {"n": len(rows), "graphs": len(exs), "auc": round(roc_auc(s, y), 4), "spearman": round(spearman(y, s), 4)}
    return res


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", choices=["funceval", "hybrid"], required=True)
    ap.add_argument("--pairs", default="/tmp/gmn_cache/pairs.jsonl")
    ap.add_argument("--graphs", default="/tmp/gmn_cache/graphs.jsonl")
    ap.add_argument("--eval-graphs", default="/tmp/gmn_cache/eval_graphs.jsonl")
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--vocab", default="models/vocab.json")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seeds", default="7", help="comma-separated: one member per seed, trained side by side")
    ap.add_argument("--dim", type=int, default=None, help="node width (default: the model's, 48)")
    ap.add_argument("--max-minutes", type=float, default=25.0)
    ap.add_argument("--out", required=True)
    ap.add_argument("--report", default=None)
    ap.add_argument("--params-only", action="store_true",
                    help="write the .params.npz and the report only (no ONNX export, no public sets)")
    a = ap.parse_args(argv)
    seeds = [int(x) for x in a.seeds.split(",")]
    vocab = len(json.loads(Path(a.vocab).read_text()))
    rows = [json.loads(x) for x in Path(a.pairs).read_text().splitlines() if x.strip()]
    cache = load_cache(a.graphs)
    exs = examples(rows, cache, a.model)
    tr_ex = [e for e in exs if not is_val(e[2]) and n_nodes(e[0]) <= MAX_TRAIN_NODES]
    va_ex = [e for e in exs if is_val(e[2])]
    vy = [e[1] for e in va_ex]
    print(f"{a.model}: {len(rows)} pairs, {len(exs)} with graphs, train {len(tr_ex)}, val {len(va_ex)}, "
          f"seeds {seeds}, dim {a.dim or 'default'}, backend {jax.default_backend()}", flush=True)
    tr = Trainer(a.model, vocab, seeds, a.lr, a.dim)
    rng = np.random.default_rng(seeds[0])
    curve = []
    best = [(-1.0, None, -1) for _ in seeds]  # per member: (val AUC, params, epoch)
    t0 = time.time()
    deadline = t0 + a.max_minutes * 60
    for ep in range(1, a.epochs + 1):
        loss = tr.train_epoch(tr_ex, a.batch, rng, deadline=deadline)
        vs = tr.score(va_ex)
        aucs = [roc_auc(v, vy) for v in vs]
        rhos = [spearman(vy, v) for v in vs]
        curve.append({"epoch": ep, "train_loss": round(loss, 4), "val_auc": per_member(aucs),
                      "val_spearman": per_member(rhos), "minutes": round((time.time() - t0) / 60, 2)})
        print(json.dumps(curve[-1]), flush=True)
        improved = False
        for k, auc in enumerate(aucs):
            if auc > best[k][0]:
                best[k], improved = (auc, member(tr.params, k), ep), True
        if improved:  # the best members so far, in case the run is stopped from outside
            save_params(params_path(a.out), best_params(best), vocab)
        if time.time() > deadline:  # the time budget, checked between batches too
            break
    train_minutes = round((time.time() - t0) / 60, 2)
    params = best_params(best)
    ens = Ensemble(a.model, jax.tree_util.tree_map(jnp.asarray, params), vocab)
    ens_auc = roc_auc(ens.score(va_ex)[0], vy)
    save_params(params_path(a.out), params, vocab)
    report = {"model": a.model, "seeds": seeds, "dim": a.dim, "epochs_run": len(curve),
              "best_epoch": per_member([b[2] for b in best]), "best_val_auc": per_member([b[0] for b in best]),
              "ensemble_val_auc": round(ens_auc, 4), "train_pairs": len(tr_ex), "val_pairs": len(va_ex),
              "vocab_size": vocab, "train_minutes": train_minutes, "backend": jax.default_backend(), "curve": curve}
    print(json.dumps({k: report[k] for k in ("best_epoch", "best_val_auc", "ensemble_val_auc")}), flush=True)
    if not a.params_only:
        from models.gmn.export import export

        export(a.model, ens.params, vocab, a.out, 3 if a.model == "funceval" else 4)
        if Path(a.eval_graphs).exists():
            report["public"] = evaluate_public(ens, a.data, load_cache(a.eval_graphs), a.model)
        print(json.dumps(report.get("public", {}), indent=1), flush=True)
    Path(a.report or (str(a.out) + ".report.json")).write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
