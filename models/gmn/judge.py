"""The shipping rule of the model card, run: does a candidate replace the shipped model?

    python -m models.gmn.judge --cache /tmp/gmn_cache models/funceval_gmn.params.npz CANDIDATE.params.npz ...

The first file is the shipped model, the others candidates of the same kind (the kind is read from
the file name: `hybrid` in it means Hybrid GMN). Every model is scored, in train.py's batching, on
the validation split of the cache's training pairs (`train.is_val`) and on the public sets with
their schema as `make eval` passes it (`eval_graphs.jsonl`). A candidate replaces the shipped model
when its validation AUC is higher and its AUC on the WikiSQL held-out half (a table split no model
trains on) is not lower. The Spider-dev-based sets are printed beside, never read by the rule.
"""

import argparse
import json
from pathlib import Path

from models.gmn import train
from models.gmn.export import load_params
from models.gmn.graphs import load_cache
from models.gmn.metrics import roc_auc

RULE_SET = "wikisql_pair_dev"


def figures(npz, rows, cache, eval_cache, data):
    kind = "hybrid" if "hybrid" in Path(npz).name else "funceval"
    params, vocab = load_params(kind, npz)
    model = train.Ensemble(kind, params, vocab)
    val = [e for e in train.examples(rows, cache, kind) if train.is_val(e[2])]
    out = {"model": str(npz), "kind": kind, "members": len(params.get("members", [params])),
           "val_pairs": len(val), "val_auc": round(roc_auc(model.score(val)[0], [e[1] for e in val]), 4)}
    for name, res in train.evaluate_public(model, data, eval_cache, kind).items():
        out[name] = res["auc"]
    return out


def verdict(shipped, cand):
    if cand["kind"] != shipped["kind"]:
        return "not comparable (another kind of model)"
    if cand["val_auc"] <= shipped["val_auc"]:
        return f"keep the shipped model: validation AUC {cand['val_auc']} <= {shipped['val_auc']}"
    if cand[RULE_SET] < shipped[RULE_SET]:
        return f"keep the shipped model: WikiSQL held-out AUC {cand[RULE_SET]} < {shipped[RULE_SET]}"
    return "replaces the shipped model"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", default="/tmp/gmn_cache", help="pairs.jsonl, graphs.jsonl, eval_graphs.jsonl")
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("shipped")
    ap.add_argument("candidates", nargs="+")
    a = ap.parse_args(argv)
    cache_dir = Path(a.cache)
    rows = [json.loads(x) for x in (cache_dir / "pairs.jsonl").read_text().splitlines() if x.strip()]
    cache, eval_cache = load_cache(cache_dir / "graphs.jsonl"), load_cache(cache_dir / "eval_graphs.jsonl")
    shipped = figures(a.shipped, rows, cache, eval_cache, a.data)
    print(json.dumps(shipped), flush=True)
    for c in a.candidates:
        fig = figures(c, rows, cache, eval_cache, a.data)
        fig["verdict"] = verdict(shipped, fig)
        print(json.dumps(fig), flush=True)


if __name__ == "__main__":
    main()
