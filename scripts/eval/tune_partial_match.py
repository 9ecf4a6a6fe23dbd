#!/usr/bin/env python3
"""Grid search of partial matching's alpha and beta by ROC AUC on the labeled pair sets, in DuckDB.

Usage (with the project venv, after `make`):

    .venv/bin/python scripts/eval/tune_partial_match.py [--function astpm] [--schema-arg] [--sets NAME,...]

For every alpha in {0.1, ..., 0.9} and beta in {0.5, 1, 2} the metric is computed through DuckDB and
dist/sqlsim.duckdb_extension as `function(gold, pred, alpha, beta)`, or with --schema-arg as
`function(gold, pred, schema, alpha, beta)` (for relpm), where `schema` is the Spider tables.json entry
of the pair's db_id (../shared/data/spider/tables.json) and NULL for sets whose databases are not
there. It prints ROC AUC per set and the mean over the sets for each grid point, then the best
(alpha, beta) by mean AUC (ties: the smaller alpha, then beta = 1 first). The sets are the labeled
ones of scripts/eval/eval.py except the DeepSeek file, a copy of the CodeLlama outputs. A NULL score counts
as 0.0, as in eval.py.
"""

import argparse
import importlib.util
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("sqlsim_eval", HERE / "eval.py")
ev = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ev)

ALPHAS = [round(0.1 * i, 1) for i in range(1, 10)]
BETAS = [0.5, 1.0, 2.0]
SETS = [name for name in ev.SETS if "deepseek" not in name]
SHORT = {
    "spiderdk_pair_dev.nooverlap": "spiderdk",
    "wikisql_pair_dev": "wikisql",
    "spider_dev_llm_gpt4.nooverlap": "gpt4",
    "spider_dev_llm_gpt3.5.nooverlap": "gpt3.5",
    "spider_dev_llm_codellama_7b.nooverlap": "codellama",
}


def call(function, schema_arg, alpha, beta):
    schema = "schema, " if schema_arg else ""
    return f"{function}(gold, pred, {schema}{alpha!r}::DOUBLE, {beta!r}::DOUBLE)"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--function", default="astpm", help="SQL function to tune (default astpm)")
    parser.add_argument("--schema-arg", action="store_true",
                        help="pass the Spider tables.json entry (or NULL) as the third argument")
    parser.add_argument("--sets", help="comma-separated substrings of set names (default: all five)")
    parser.add_argument("--data", help=f"shared data folder (default $SQLSIM_DATA or {ev.DATA})")
    parser.add_argument("--json", help="also write every grid point's AUCs as JSON to this file")
    args = parser.parse_args()
    if args.data:
        ev.DATA = Path(args.data).resolve()
    if not ev.DUCKDB_EXT.is_file():
        ev.die(f"missing {ev.DUCKDB_EXT}; build the extension first with `make`")
    sets = SETS
    if args.sets:
        wanted = [s.strip() for s in args.sets.split(",") if s.strip()]
        sets = [s for s in SETS if any(w in s for w in wanted)]
        if not sets:
            ev.die(f"no set matches {args.sets!r}")

    duck = ev.DuckHost()
    grid = {(a, b): {} for b in BETAS for a in ALPHAS}
    for name in sets:
        rows = ev.load_rows(name)
        labels = [r[2] for r in rows]
        duck.load(rows)
        for (alpha, beta), aucs in grid.items():
            scores = duck.scores(call(args.function, args.schema_arg, alpha, beta))
            aucs[name] = ev.roc.roc_auc([float(v) if v is not None else 0.0 for v in scores], labels)
        print(f"{name}: {len(rows)} pairs scored at {len(grid)} grid points", file=sys.stderr, flush=True)

    columns = [SHORT.get(s, s) for s in sets]
    header = f"{'alpha':>5} {'beta':>4} " + " ".join(f"{c:>9}" for c in columns) + f" {'mean':>7}"
    print(f"{args.function}: ROC AUC per set")
    print(header)
    print("-" * len(header))
    results = []
    for (alpha, beta), aucs in grid.items():
        mean = sum(aucs[s] for s in sets) / len(sets)
        results.append({"alpha": alpha, "beta": beta, "auc": aucs, "mean_auc": mean})
        print(f"{alpha:>5.1f} {beta:>4.1f} " + " ".join(f"{aucs[s]:>9.4f}" for s in sets) + f" {mean:>7.4f}")
    best = max(results, key=lambda r: (round(r["mean_auc"], 12), -r["alpha"], r["beta"] == 1.0, -r["beta"]))
    print("-" * len(header))
    print(f"best by mean AUC: alpha = {best['alpha']}, beta = {best['beta']} (mean AUC {best['mean_auc']:.4f})")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
