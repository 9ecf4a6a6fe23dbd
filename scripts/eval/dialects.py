"""Dialect invariance: does a query written for another engine get the verdict its meaning deserves?

    python scripts/eval/dialects.py [--sets gpt4,bird_bugs] [--dialects postgres,mysql] [--limit N]
                                    [--sample N] [--minidev] [--models M] [--out /tmp/dialects]
                                    [--function sql_similarity]

Two measurements, the two of issue 39's check, built with sqlglot (requirements-bench.txt):

1. Rewritten labelled pairs. Each pair of a labelled set is rewritten by sqlglot into dialect D
   (gold and prediction both) and scored with '{"dialect": D}'; the same rewrite is read back into
   SQLite by sqlglot and scored with the defaults. Reported per set and dialect: the share of pairs
   whose verdict is the same both ways, as sql_similarity_components' verdict (1, 0 or NULL, the
   sql_equivalent verdict of sql_similarity's options) and as sql_similarity >= 0.5 (the score's
   threshold between "no difference found" and the rest), and ROC AUC of the score against the
   original labels on the SQLite originals, in D and on the round trip. Pairs sqlglot cannot
   rewrite are counted and left out. Dialect ansi's text is sqlglot's own dialect (`write=None`),
   the closest it has to standard SQL, though not standard SQL: sqlglot reads its `/` as real
   division and sorts its NULLs first, where sqlsim's ansi divides integers as integers and sorts
   NULLs as the largest value (Calcite), so a few pairs differ there by sqlglot's reading.
   Set bird_dail has no labels (DAIL-SQL's BIRD dev predictions): same verdicts only.
2. --minidev: LLM predictions written for PostgreSQL or MySQL (dialects/minidev_*.dev.jsonl),
   each against sqlglot's SQLite rewrite of itself, scored schema-less with gold_dialect sqlite
   and pred_dialect D: the shares judged equivalent, unknown and not equivalent, and the most
   common reasons of the last two. --models keeps one model's predictions (the rows' type);
   --limit and --sample apply to the pairs it keeps.

Every pair whose verdicts differ (either way of reading them) goes to <out>/<set>.<dialect>.jsonl
with both texts and reasons, for reading (each one is our error or sqlglot's). One of sqlglot's is
counted apart: SQLite reads a double-quoted token that names no column as a string ("UAL" in
Spider's gold), sqlglot's SQLite reader as a name, which it writes as a name into D, where it stays
one; its SQLite round trip is a string again. The line also gives the share of same verdicts over
the pairs whose SQLite text holds no double quote.
"""

import argparse
import collections
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python"))
from common import DATA, connect_duckdb, die, pair_schema, read_jsonl  # noqa: E402
from sqlsim.roc import roc_auc  # noqa: E402

SETS = {
    "gpt4": "spider_dev_llm_gpt4.nooverlap",
    "gpt3.5": "spider_dev_llm_gpt3.5.nooverlap",
    "codellama": "spider_dev_llm_codellama_7b.nooverlap",
    "spiderdk": "spiderdk_pair_dev.nooverlap",
    "wikisql": "wikisql_pair_dev",
    "bird_bugs": "bird_nl2sql_bugs.dev",
    "bird_dail": "bird_dev_dail",
}
# Sets without labels: only the share of same verdicts is measured (no AUC).
UNLABELLED = {"bird_dail"}
DIALECTS = ["postgres", "mysql", "duckdb", "snowflake", "bigquery"]
SQLGLOT_NAME = {"postgres": "postgres", "mysql": "mysql", "duckdb": "duckdb",
                "snowflake": "snowflake", "bigquery": "bigquery", "ansi": None}


def transpile(sql, read, write):
    import sqlglot
    try:
        out = sqlglot.transpile(sql, read=read, write=write, unsupported_level=sqlglot.ErrorLevel.RAISE)
    except Exception:  # noqa: BLE001 - any sqlglot failure means: no rewrite for this pair
        return None
    return out[0] if len(out) == 1 else None


def chosen(rows, args):
    """The rows a run scores: the first --limit, then --sample of them drawn with --seed."""
    rows = rows[: args.limit] if args.limit else rows
    if args.sample and args.sample < len(rows):
        rows = random.Random(args.seed).sample(rows, args.sample)
    return rows


def bird_schemas():
    path = DATA / "bird" / "schema.json"
    return {k: json.dumps(v) for k, v in json.loads(path.read_text()).items()} if path.exists() else {}


def schema_of(row, bird):
    if row.get("source", "").startswith("bird") or row["db_id"] in bird:
        return bird.get(row["db_id"])
    return pair_schema(row, DATA)


def score(con, rows, function):
    """(verdict, reason, score) per row of (gold, pred, schema, options)."""
    con.execute("CREATE OR REPLACE TEMP TABLE pairs (i INTEGER, gold VARCHAR, pred VARCHAR, "
                "sch VARCHAR, opts VARCHAR)")
    con.executemany("INSERT INTO pairs VALUES (?, ?, ?, ?, ?)", [[i, *r] for i, r in enumerate(rows)])
    out = con.execute(f"SELECT i, {function}_components(gold, pred, sch, opts) FROM pairs ORDER BY i").fetchall()
    result = []
    for _, text in out:
        c = json.loads(text)
        result.append((c.get("verdict"), c.get("reason"), c.get("score")))
    return result


def double_quoted(row):
    """Whether the pair's SQLite text holds a double quote (a string or a name, as SQLite decides)."""
    return '"' in row["gold"] or '"' in row["pred"]


def passes(result):
    """Whether a (verdict, reason, score) scores at least 0.5: the band of no difference found."""
    return result[2] is not None and result[2] >= 0.5


def auc(scores, labels):
    pairs = [(s, y) for s, y in zip(scores, labels) if s is not None and y is not None]
    return roc_auc([s for s, _ in pairs], [y for _, y in pairs]) if pairs else None


def rewritten_sets(con, args, bird):
    out = Path(args.out)
    for name in args.sets.split(","):
        if name not in SETS:
            die(f"unknown set '{name}' (known: {', '.join(SETS)})")
        rows = [r for r in read_jsonl(SETS[name])
                if r.get("pred") and (name in UNLABELLED or r.get("label") is not None)]
        rows = chosen(rows, args)
        originals = score(con, [(r["gold"], r["pred"], schema_of(r, bird), None) for r in rows],
                          args.function)
        original_of = {id(r): o for r, o in zip(rows, originals)}
        for d in args.dialects.split(","):
            kept, skipped = [], 0
            for r in rows:
                g, p = transpile(r["gold"], "sqlite", SQLGLOT_NAME[d]), transpile(r["pred"], "sqlite", SQLGLOT_NAME[d])
                g_rt = g and transpile(g, SQLGLOT_NAME[d], "sqlite")
                p_rt = p and transpile(p, SQLGLOT_NAME[d], "sqlite")
                if not (g and p and g_rt and p_rt):
                    skipped += 1
                    continue
                kept.append((r, g, p, g_rt, p_rt))
            schemas = [schema_of(r, bird) for r, *_ in kept]
            dialect_opts = json.dumps({"dialect": d})
            in_d = score(con, [(g, p, s, dialect_opts) for (_, g, p, _, _), s in zip(kept, schemas)], args.function)
            back = score(con, [(g, p, s, None) for (_, _, _, g, p), s in zip(kept, schemas)], args.function)
            same = sum(a[0] == b[0] for a, b in zip(in_d, back))
            same_05 = sum(passes(a) == passes(b) for a, b in zip(in_d, back))
            quoted = [double_quoted(r) for r, *_ in kept]
            plain = [a[0] == b[0] for a, b, q in zip(in_d, back, quoted) if not q]
            labels = [r["label"] for r, *_ in kept]
            auc_d, auc_rt = auc([x[2] for x in in_d], labels), auc([x[2] for x in back], labels)
            auc_o = auc([original_of[id(r)][2] for r, *_ in kept], labels)
            n = len(kept)
            print(f"{name:10s} {d:9s} pairs {n:5d} (sqlglot failed {skipped:4d})  same verdict "
                  f"{same / max(n, 1):.4f} (>= 0.5: {same_05 / max(n, 1):.4f})  AUC original "
                  f"{auc_o or float('nan'):.4f}  {d} {auc_d or float('nan'):.4f}  round trip "
                  f"{auc_rt or float('nan'):.4f}  without double quotes: same verdict "
                  f"{sum(plain) / max(len(plain), 1):.4f} of {len(plain)}", flush=True)
            out.mkdir(parents=True, exist_ok=True)
            with open(out / f"{name}.{d}.jsonl", "w") as f:
                for (r, g, p, g_rt, p_rt), a, b in zip(kept, in_d, back):
                    if a[0] != b[0] or passes(a) != passes(b):
                        f.write(json.dumps({"id": r["id"], "label": r["label"], "db_id": r["db_id"],
                                            "double_quoted": double_quoted(r), "gold_orig": r["gold"],
                                            "pred_orig": r["pred"], "gold": g, "pred": p,
                                            "gold_rt": g_rt, "pred_rt": p_rt, "verdict": a[0],
                                            "reason": a[1], "score": a[2], "verdict_rt": b[0],
                                            "reason_rt": b[1], "score_rt": b[2]}) + "\n")


def minidev(con, args):
    out = Path(args.out)
    for d, file in [("postgres", "minidev_postgresql"), ("mysql", "minidev_mysql")]:
        rows = read_jsonl(f"dialects/{file}.dev")
        if args.models:
            rows = [r for r in rows if r.get("type") in args.models.split(",")]
        rows = chosen(rows, args)
        opts = json.dumps({"gold_dialect": "sqlite", "pred_dialect": d})
        res = score(con, [(r["gold"], r["pred"], None, opts) for r in rows], args.function)
        counts = collections.Counter(v for v, _, _ in res)
        n = len(rows)
        print(f"minidev {d:9s} pairs {n:5d}  equivalent {counts[1] / n:.4f}  unknown "
              f"{counts[None] / n:.4f}  not equivalent {counts[0] / n:.4f}", flush=True)
        reasons = collections.Counter((v, (why or "")[:90]) for v, why, _ in res if v != 1)
        for (v, why), k in reasons.most_common(args.reasons):
            print(f"    {k:4d}  {v}  {why}")
        out.mkdir(parents=True, exist_ok=True)
        with open(out / f"minidev.{d}.jsonl", "w") as f:
            for r, (v, why, s) in zip(rows, res):
                if v != 1:
                    f.write(json.dumps({"id": r["id"], "type": r.get("type"), "db_id": r["db_id"],
                                        "gold": r["gold"], "pred": r["pred"], "verdict": v,
                                        "reason": why}) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", default="gpt4,bird_bugs")
    ap.add_argument("--dialects", default=",".join(DIALECTS))
    ap.add_argument("--limit", type=int, default=0, help="first N pairs of each set (0: all)")
    ap.add_argument("--sample", type=int, default=0, help="N pairs of each set drawn at random (0: all)")
    ap.add_argument("--seed", type=int, default=39, help="seed of --sample")
    ap.add_argument("--minidev", action="store_true", help="also the PostgreSQL/MySQL LLM predictions")
    ap.add_argument("--only-minidev", action="store_true")
    ap.add_argument("--models", default="", help="minidev: only these models' predictions (the rows' "
                    "type: gpt-35-turbo-instruct, gpt-4-32k, meta-llama-3-8b-instruct-2, "
                    "phi-3-medium-128k-instruct-1; comma-separated)")
    ap.add_argument("--function", default="sql_similarity", help="sql_similarity (its _components)")
    ap.add_argument("--reasons", type=int, default=12, help="most common reasons shown per minidev dialect")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", default="/tmp/sqlsim-dialects")
    args = ap.parse_args()
    try:
        import sqlglot  # noqa: F401
    except ImportError:
        die("needs sqlglot: make bench-venv (requirements-bench.txt)")
    con = connect_duckdb()
    con.execute(f"SET threads={args.threads}")
    if not args.only_minidev:
        rewritten_sets(con, args, bird_schemas())
    if args.minidev or args.only_minidev:
        minidev(con, args)


if __name__ == "__main__":
    main()
