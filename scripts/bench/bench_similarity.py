#!/usr/bin/env python3
"""Throughput of sql_similarity, sql_equivalent and the GMN scores in DuckDB, plain and grouped, and
the determinism checks that the caches behind them must pass.

Usage (with the project venv, after `make`):

    .venv/bin/python scripts/bench/bench_similarity.py [--metrics sql_similarity,...] [--workloads plain,grouped]
        [--threads 2] [--check] [--profile] [--json OUT] [--options JSON]

Workloads over Spider-DK (../shared/data/spiderdk_pair_dev.nooverlap.jsonl), each pair with its
schema as scripts/eval/eval.py passes it (scripts/common.py):

- plain: the set's 1,674 labeled pairs in file order (238 gold queries, 1 to 14 predictions each,
  interleaved: the file is not sorted by gold).
- grouped: the shape of an RL rollout group or a multi-model comparison, 8 distinct predictions per
  gold, the 8 rows of a gold next to each other: the set's own predictions of that gold, then the
  predictions of the Spider-dev LLM runs (spider_dev_llm_gpt4/gpt3.5/codellama_7b) for the same
  (db_id, gold), then the set's predictions of other golds over the same database (sorted by text,
  the first not taken yet), until 8; first 8 when a gold has more. 238 golds x 8 = 1,904 pairs.

`--options` passes an options JSON to the verdict metrics (sql_similarity, sql_equivalent), e.g.
`--options '{"databases":"gold"}'` for the scale setting (docs/SCALE.md).

Each (metric, workload) runs in a fresh worker process (sqlsim's caches are process-wide), DuckDB
with `--threads` threads (default 2), and times `SELECT metric(gold, pred, schema) FROM pairs` with
every row fetched. Printed: rows, seconds, pairs/s, the CPU seconds of the worker process (all its
threads: less sensitive to other load on the machine than the wall clock) and pairs per CPU-second,
and the process's peak RSS. `SQLSIM_DIST` picks the build to measure (default dist/).

`--profile` runs the timed workers with `SQLSIM_PROFILE=1` and prints, under each row, where the
calls' time went: each stage's share of the time inside the calls, summed over threads
(`sqlsim_debug()`'s `stages`: the search for databases without its solver checks, the Z3 checks,
loading databases and running the queries on them, making variants and random databases, the GMN
scores, and the rest: parsing, planning, the other scores, the glue). The timers cost well under
1% of the time; the determinism checks' workers run without them.

`--check` also verifies determinism for each metric on each workload: the scores of the rows in a
shuffled order (fixed seed) in another fresh process equal those in file order, exactly; and a
sample of `--single` rows (default 24), each scored alone as the only row of a fresh process, equals
its score in the batch (the GMN scores, float32 inference batched per DuckDB chunk, within 1e-5;
sql_similarity and sql_equivalent exactly). Exit status 1 on any difference.
"""

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import common  # noqa: E402
from common import DATA, DIST, die, pair_schema, read_jsonl  # noqa: E402

SET = "spiderdk_pair_dev.nooverlap"
LLM_SETS = ("spider_dev_llm_gpt4.nooverlap", "spider_dev_llm_gpt3.5.nooverlap",
            "spider_dev_llm_codellama_7b.nooverlap")
GROUP = 8
# $SQLSIM_BENCH_LIMIT: only the first N pairs of a workload (profiling)
LIMIT = int(os.environ.get("SQLSIM_BENCH_LIMIT", "0") or 0)
DEFAULT_METRICS = "sql_similarity,sql_equivalent,gmn_similarity,hybrid_gmn_similarity"
# float32 inference batched per chunk: the last bits may depend on the batch
TOLERANCE = {"gmn_similarity": 1e-5, "hybrid_gmn_similarity": 1e-5}
# the metrics that take ParSEval's options JSON as their fourth argument
WITH_OPTIONS = ("sql_similarity", "sql_equivalent")


def read(name):
    return read_jsonl(name, DATA)


def plain():
    """(gold, pred, schema) of the set's labeled pairs, in file order."""
    return [(r["gold"], r["pred"], pair_schema(r, DATA)) for r in read(SET)
            if r.get("label") is not None and r.get("pred") is not None]


def grouped():
    """8 distinct predictions per gold, a gold's rows together (see the module text)."""
    rows = [r for r in read(SET) if r.get("label") is not None and r.get("pred") is not None]
    golds, own, schema_of = [], {}, {}
    for r in rows:
        key = (r["db_id"], r["gold"])
        if key not in own:
            golds.append(key)
            own[key] = []
            schema_of[key] = pair_schema(r, DATA)
        own[key].append(r["pred"])
    llm = {}
    for name in LLM_SETS:
        for r in read(name):
            if r.get("pred"):
                llm.setdefault((r["db_id"], r["gold"].strip()), []).append(r["pred"])
    by_db = {}
    for (db, _), preds in own.items():
        by_db.setdefault(db, set()).update(preds)
    out = []
    for key in golds:
        db, gold = key
        picked = []
        candidates = own[key] + llm.get((db, gold.strip()), []) + sorted(by_db[db])
        for p in candidates:
            if p not in picked:
                picked.append(p)
            if len(picked) == GROUP:
                break
        out += [(gold, p, schema_of[key]) for p in picked]
    return out


WORKLOADS = {"plain": plain, "grouped": grouped}


def connect(threads):
    con = common.connect_duckdb(DIST / common.DUCKDB_FILE)
    con.execute(f"SET threads = {int(threads)}")
    return con


def call(metric, options):
    """The SQL call of `metric` over the pairs table and its parameters: `options` where it takes them."""
    if options and metric in WITH_OPTIONS:
        return f"{metric}(gold, pred, schema, ?)", [options]
    return f"{metric}(gold, pred, schema)", []


def worker(metric, workload, threads, order, only, options):
    """In a fresh process: prints {"scores": [...], "seconds": t, "rss_mb": m}."""
    pairs = WORKLOADS[workload]()
    if LIMIT:
        pairs = pairs[:LIMIT]
    index = list(range(len(pairs)))
    if order == "shuffled":
        random.Random(19).shuffle(index)
    if only is not None:
        index = [only]
    con = connect(threads)
    con.execute("CREATE TABLE pairs (i INTEGER, gold VARCHAR, pred VARCHAR, schema VARCHAR)")
    con.execute("INSERT INTO pairs SELECT unnest($1::INTEGER[]), unnest($2::VARCHAR[]), unnest($3::VARCHAR[]), "
                "unnest($4::VARCHAR[])", [index, [pairs[i][0] for i in index], [pairs[i][1] for i in index],
                                          [pairs[i][2] for i in index]])
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    cpu = resource.getrusage(resource.RUSAGE_SELF)
    start = time.perf_counter()
    # rowid order is insertion order: the rows reach the function in the order of `index`
    expr, params = call(metric, options)
    got = con.execute(f"SELECT i, {expr} FROM pairs", params).fetchall()
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu_s = after.ru_utime + after.ru_stime - cpu.ru_utime - cpu.ru_stime
    scores = [None] * len(pairs)
    for i, s in got:
        scores[i] = s
    debug = json.loads(con.execute("SELECT sqlsim_debug()").fetchone()[0])
    print(json.dumps({"scores": scores, "seconds": seconds, "cpu_s": cpu_s, "rows": len(index), "rss_mb_before": rss_before,
                      "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                      "caches": debug.get("caches"), "stages": debug.get("stages")}))


def run_worker(metric, workload, threads, order="file", only=None, options=None, profile=False):
    cmd = [sys.executable, str(Path(__file__).resolve()), "--data", str(DATA), "--worker", metric, workload,
           "--threads", str(threads), "--order", order]
    if options:
        cmd += ["--options", options]
    if only is not None:
        cmd += ["--only", str(only)]
    env = {**os.environ, "SQLSIM_DIST": str(DIST)}
    env.pop("SQLSIM_PROFILE", None)
    if profile:
        env["SQLSIM_PROFILE"] = "1"
    done = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        die(f"{metric} on {workload} failed:\n{done.stderr.strip()}")
    return json.loads(done.stdout.strip().splitlines()[-1])


STAGES = (("generation", "generation"), ("solving", "solving"), ("queries", "running queries"),
          ("databases", "variant/random dbs"), ("gmn", "GMN"))


def stage_shares(stages):
    """[(label, share of the calls' time)] of a worker's `stages`, the rest last as "other"."""
    total = stages.get("calls", {}).get("seconds", 0.0)
    if not total:
        return []
    shares = [(label, stages.get(key, {}).get("seconds", 0.0) / total) for key, label in STAGES]
    return shares + [("other", max(0.0, 1.0 - sum(s for _, s in shares)))]


def same(a, b, tolerance):
    if (a is None) != (b is None):
        return False
    return a is None or abs(float(a) - float(b)) <= tolerance


def main():
    global DATA
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--metrics", default=DEFAULT_METRICS)
    parser.add_argument("--workloads", default="plain,grouped")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--check", action="store_true", help="verify order and single-row determinism")
    parser.add_argument("--profile", action="store_true", help="print each stage's share of the time")
    parser.add_argument("--single", type=int, default=24, help="rows scored alone by --check")
    parser.add_argument("--json", help="also write the results as JSON to this file")
    parser.add_argument("--options", help="options JSON for sql_similarity and sql_equivalent")
    parser.add_argument("--data", help=f"shared data folder (default $SQLSIM_DATA or {DATA})")
    parser.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--order", default="file", help=argparse.SUPPRESS)
    parser.add_argument("--only", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.data:
        DATA = Path(args.data).resolve()
    if args.worker:
        return worker(args.worker[0], args.worker[1], args.threads, args.order, args.only, args.options)
    if not (DIST / common.DUCKDB_FILE).is_file():
        die(f"missing {DIST / common.DUCKDB_FILE}; build it with `make`")
    results, failures = [], []
    print(f"{'metric':<22} {'workload':<8} {'rows':>5} {'seconds':>8} {'pairs/s':>8} {'CPU s':>8} "
          f"{'pairs/CPU-s':>11} {'peak MB':>8}  check")
    for workload in args.workloads.split(","):
        for metric in args.metrics.split(","):
            r = run_worker(metric, workload, args.threads, options=args.options, profile=args.profile)
            check = ""
            if args.check:
                tol = TOLERANCE.get(metric, 0.0)
                shuffled = run_worker(metric, workload, args.threads, "shuffled", options=args.options)
                bad = [i for i, (a, b) in enumerate(zip(r["scores"], shuffled["scores"])) if not same(a, b, tol)]
                sample = random.Random(7).sample(range(len(r["scores"])), min(args.single, len(r["scores"])))
                alone = [i for i in sample
                         if not same(run_worker(metric, workload, 1, only=i, options=args.options)["scores"][i],
                                     r["scores"][i], tol)]
                check = f"shuffled: {len(bad)} differ; alone: {len(alone)}/{len(sample)} differ"
                if bad or alone:
                    failures.append(f"{metric} on {workload}: shuffled rows {bad[:10]}, alone rows {alone}")
            rate = r["rows"] / r["seconds"]
            print(f"{metric:<22} {workload:<8} {r['rows']:>5} {r['seconds']:>8.2f} {rate:>8.1f} {r['cpu_s']:>8.2f} "
                  f"{r['rows'] / max(r['cpu_s'], 1e-9):>11.1f} {r['rss_mb']:>8.0f}  {check}", flush=True)
            shares = stage_shares(r.get("stages") or {})
            if shares:
                print("    stages: " + ", ".join(f"{label} {100 * s:.1f}%" for label, s in shares), flush=True)
            results.append({"metric": metric, "workload": workload, "rows": r["rows"], "seconds": r["seconds"],
                            "pairs_per_s": rate, "cpu_s": r["cpu_s"], "peak_rss_mb": r["rss_mb"], "threads": args.threads,
                            "options": args.options if metric in WITH_OPTIONS else None,
                            "caches": r["caches"], "stages": r.get("stages"), "check": check or None})
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    for f in failures:
        print(f"bench_similarity.py: not deterministic: {f}", file=sys.stderr)
    if failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
