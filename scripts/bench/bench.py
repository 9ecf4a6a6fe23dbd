#!/usr/bin/env python3
"""Throughput of sqlsim's ast_ted in DuckDB and SQLite next to the reference Python stack.

`--metric NAME` times another scalar function NAME(gold, pred) instead, e.g. `--metric gmn_similarity
--no-reference` (the GMN models must be in dist/ or SQLSIM_MODEL_DIR).

Usage (with the project venv, after `make`):

    .venv/bin/python scripts/bench/bench.py [--sets NAME,...] [--sample 150] [--repeat 3] [--json OUT]

For every pair set in ../shared/data (the labeled sets plus bird_dev_dail) it loads the pairs whose
gold and pred are both present into a table `pairs(gold, pred)` and times

    SELECT sum(ast_ted(gold, pred)) FROM pairs

in Python duckdb (dist/sqlsim.duckdb_extension) and in apsw SQLite (dist/sqlsim.so). sqlsim keeps a
process-wide cache of parsed queries and has no SQL function to clear it, so each (host, set) runs in
a fresh worker process: after a warm-up call on a trivial pair, the first timed run starts with an
empty cache ("cold": every distinct text parsed once, as a user sees it) and the best of `--repeat`
further runs is "warm" (all texts cached: tree edit distance only).

The reference is the stack the AST-TE paper used: sqlglot.parse_one(sql, read='sqlite') turned into a
zss tree (label = expression class name, plus the identifier/literal text on leaves; children = the
child expressions in order) and zss.simple_distance with insert/delete 1 and relabel 2, timed
per pair (parse + convert + distance) on a fixed-seed sample of each set in the same run.
Ratios compare cold sqlsim throughput with the reference.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import common  # noqa: E402
from common import DATA, DIST, die, read_jsonl, require_dist  # noqa: E402

DUCKDB_EXT = DIST / common.DUCKDB_FILE
SQLITE_EXT = DIST / common.SQLITE_FILE

SETS = [
    "spiderdk_pair_dev.nooverlap",
    "wikisql_pair_dev",
    "spider_dev_llm_gpt4.nooverlap",
    "spider_dev_llm_gpt3.5.nooverlap",
    "spider_dev_llm_codellama_7b.nooverlap",
    "spider_dev_llm_deepseek_6.7b.nooverlap",
    "bird_dev_dail",
]

METRIC = "ast_ted"


def query():
    return f"SELECT sum({METRIC}(gold, pred)) FROM pairs"


def warmup():
    return f"SELECT {METRIC}('SELECT 1', 'SELECT 2')"


def load_pairs(name):
    """(gold, pred) for every row of the set whose gold and pred are both present."""
    return [(r["gold"], r["pred"]) for r in read_jsonl(name, DATA)
            if r.get("gold") is not None and r.get("pred") is not None]


# ---------------------------------------------------------------- worker (one host, one set)


def duckdb_connection():
    return common.connect_duckdb(DUCKDB_EXT)


def run_duckdb(pairs, repeat):
    con = duckdb_connection()
    threads = con.execute("SELECT current_setting('threads')").fetchone()[0]
    con.execute("CREATE TABLE pairs (gold VARCHAR, pred VARCHAR)")
    golds = [g for g, _ in pairs]
    preds = [p for _, p in pairs]
    con.execute("INSERT INTO pairs SELECT unnest($1::VARCHAR[]), unnest($2::VARCHAR[])", [golds, preds])
    con.execute(warmup()).fetchall()
    return timed(lambda: con.execute(query()).fetchone()[0], repeat) | {"threads": threads}


def run_sqlite(pairs, repeat):
    con = common.connect_apsw(SQLITE_EXT)
    con.execute("CREATE TABLE pairs (gold TEXT, pred TEXT)")
    with con:
        con.executemany("INSERT INTO pairs VALUES (?, ?)", pairs)
    con.execute(warmup()).fetchall()
    return timed(lambda: con.execute(query()).fetchall()[0][0], repeat)


def timed(run, repeat):
    start = time.perf_counter()
    total = run()
    cold = time.perf_counter() - start
    warm = []
    for _ in range(repeat):
        start = time.perf_counter()
        again = run()
        warm.append(time.perf_counter() - start)
        if again is None or total is None or abs(again - total) > 1e-9 * max(1.0, abs(total)):
            raise RuntimeError(f"cached run gave {again}, first run {total}")
    return {"cold_s": cold, "warm_s": min(warm) if warm else None, "sum": total}


def worker(host, name, repeat):
    pairs = load_pairs(name)
    result = (run_duckdb if host == "duckdb" else run_sqlite)(pairs, repeat)
    result["pairs"] = len(pairs)
    print(json.dumps(result))


def in_fresh_process(host, name, repeat):
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", host, name]
    cmd += ["--repeat", str(repeat), "--data", str(DATA), "--metric", METRIC]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        die(f"{host} worker on {name} failed:\n{proc.stderr.strip()}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------- reference stack (sqlglot + zss)


def zss_tree(expression):
    import sqlglot.expressions as exp
    import zss

    def label(e):
        kids = list(e.iter_expressions())
        name = type(e).__name__
        if not kids:
            text = e.this if isinstance(e.this, str) else e.name
            if text:
                return f"{name}:{text}", kids
        return name, kids

    # Built iteratively: sqlglot trees of long IN lists or AND chains can be deep.
    root_label, root_kids = label(expression)
    root = zss.Node(root_label)
    stack = [(root, root_kids)]
    while stack:
        node, kids = stack.pop()
        for kid in kids:
            if not isinstance(kid, exp.Expression):
                continue
            kid_label, grandkids = label(kid)
            child = zss.Node(kid_label)
            node.addkid(child)
            stack.append((child, grandkids))
    return root


def zss_size(node):
    count, stack = 0, [node]
    while stack:
        n = stack.pop()
        count += 1
        stack.extend(n.children)
    return count


def reference_similarity(gold, pred):
    """The paper's AST-TE with sqlglot + zss; None when either side fails to parse."""
    import sqlglot
    import zss

    try:
        a = zss_tree(sqlglot.parse_one(gold, read="sqlite"))
        b = zss_tree(sqlglot.parse_one(pred, read="sqlite"))
    except Exception:  # noqa: BLE001 - any sqlglot failure means "does not parse"
        return None
    distance = zss.simple_distance(
        a,
        b,
        label_dist=lambda x, y: 0 if x == y else 2,
    )
    largest = max(zss_size(a), zss_size(b))
    return max(0.0, min(1.0, 1.0 - distance / largest)) if largest else 1.0


def time_reference(pairs, sample, seed):
    rng = random.Random(seed)
    chosen = pairs if len(pairs) <= sample else rng.sample(pairs, sample)
    # Warm-up: sqlglot imports and builds its dialect tables on first use.
    reference_similarity("SELECT a FROM t WHERE b = 1", "SELECT a FROM t WHERE b = 2")
    failures = 0
    start = time.perf_counter()
    for gold, pred in chosen:
        if reference_similarity(gold, pred) is None:
            failures += 1
    elapsed = time.perf_counter() - start
    return {"pairs": len(chosen), "seconds": elapsed, "failures": failures}


# ---------------------------------------------------------------- main


def rate(pairs, seconds):
    return pairs / seconds if seconds else float("nan")


def main():
    global DATA, METRIC
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", help="comma-separated substrings of set names (default: all)")
    parser.add_argument("--sample", type=int, default=150, help="reference sample per set (default 150)")
    parser.add_argument("--repeat", type=int, default=3, help="warm runs per host and set (default 3)")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--no-reference", action="store_true", help="skip the sqlglot + zss timing")
    parser.add_argument("--json", help="also write the results as JSON to this file")
    parser.add_argument("--data", help=f"shared data folder (default $SQLSIM_DATA or {DATA})")
    parser.add_argument("--metric", default="ast_ted",
                        help="scalar function metric(gold, pred) to time (default ast_ted; the reference "
                        "stack is AST-TE's, so use --no-reference for others)")
    parser.add_argument("--worker", nargs=2, metavar=("HOST", "SET"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.data:
        DATA = Path(args.data).resolve()
    if not args.metric.isidentifier():
        die(f"--metric must be a function name, got {args.metric!r}")
    METRIC = args.metric

    require_dist()
    if args.worker:
        worker(args.worker[0], args.worker[1], args.repeat)
        return

    sets = SETS
    if args.sets:
        wanted = [s.strip() for s in args.sets.split(",") if s.strip()]
        sets = [s for s in SETS if any(w in s for w in wanted)]
        if not sets:
            die(f"no set matches {args.sets!r}")

    load = os.getloadavg()[0]
    if load > 0.5:
        print(
            f"bench.py: WARNING load average {load:.2f} before starting: other processes compete for "
            "the cores, so the pairs/s below (DuckDB's parallel speed-up most) understate sqlsim",
            file=sys.stderr,
        )
    results = []
    threads = None
    for name in sets:
        pairs = load_pairs(name)
        duck = in_fresh_process("duckdb", name, args.repeat)
        lite = in_fresh_process("sqlite", name, args.repeat)
        threads = duck.get("threads", threads)
        if abs(duck["sum"] - lite["sum"]) > 1e-6:
            print(f"WARNING {name}: DuckDB sum {duck['sum']} != SQLite sum {lite['sum']}", file=sys.stderr)
        ref = None if args.no_reference else time_reference(pairs, args.sample, args.seed)
        results.append({"set": name, "pairs": len(pairs), "duckdb": duck, "sqlite": lite, "reference": ref})
        print(f"... {name}: done", file=sys.stderr, flush=True)

    print(
        f"{METRIC} throughput, pairs/s (DuckDB threads = {threads}, CPU cores = {os.cpu_count()}, "
        f"load average before/after {load:.2f}/{os.getloadavg()[0]:.2f})"
    )
    print("cold: fresh process, empty parse cache; warm: every text already cached; ref: sqlglot + zss sample")
    header = (
        f"{'set':<40} {'pairs':>6} {'duck cold':>10} {'duck warm':>10} {'sqlite cold':>11} "
        f"{'sqlite warm':>11} {'ref':>7} {'ref n':>5} {'duck/ref':>9} {'sqlite/ref':>10}"
    )
    print(header)
    print("-" * len(header))
    totals = {"pairs": 0, "duck": 0.0, "lite": 0.0, "ref_pairs": 0, "ref_s": 0.0}
    for r in results:
        n = r["pairs"]
        duck_cold = rate(n, r["duckdb"]["cold_s"])
        lite_cold = rate(n, r["sqlite"]["cold_s"])
        duck_warm = rate(n, r["duckdb"]["warm_s"]) if r["duckdb"]["warm_s"] else float("nan")
        lite_warm = rate(n, r["sqlite"]["warm_s"]) if r["sqlite"]["warm_s"] else float("nan")
        ref = r["reference"]
        ref_rate = rate(ref["pairs"], ref["seconds"]) if ref else float("nan")
        r.update(
            duckdb_cold_pps=duck_cold,
            duckdb_warm_pps=duck_warm,
            sqlite_cold_pps=lite_cold,
            sqlite_warm_pps=lite_warm,
            reference_pps=ref_rate,
        )
        print(
            f"{r['set']:<40} {n:>6} {duck_cold:>10.0f} {duck_warm:>10.0f} {lite_cold:>11.0f} "
            f"{lite_warm:>11.0f} {ref_rate:>7.1f} {ref['pairs'] if ref else 0:>5} "
            f"{duck_cold / ref_rate:>8.0f}x {lite_cold / ref_rate:>9.0f}x"
        )
        totals["pairs"] += n
        totals["duck"] += r["duckdb"]["cold_s"]
        totals["lite"] += r["sqlite"]["cold_s"]
        if ref:
            totals["ref_pairs"] += ref["pairs"]
            # The reference's time for the whole set, extrapolated from its sample.
            totals["ref_s"] += n / ref_rate
    if results:
        duck_all = rate(totals["pairs"], totals["duck"])
        lite_all = rate(totals["pairs"], totals["lite"])
        ref_all = rate(totals["pairs"], totals["ref_s"]) if totals["ref_s"] else float("nan")
        print("-" * len(header))
        print(
            f"{'all sets':<40} {totals['pairs']:>6} {duck_all:>10.0f} {'':>10} {lite_all:>11.0f} "
            f"{'':>11} {ref_all:>7.1f} {totals['ref_pairs']:>5} "
            f"{duck_all / ref_all:>8.0f}x {lite_all / ref_all:>9.0f}x"
        )
        print("(all sets: reference time per set extrapolated from its sample to the whole set)")
        ref_failures = sum(r["reference"]["failures"] for r in results if r["reference"])
        if ref_failures:
            print(f"(reference: {ref_failures} sampled pairs did not parse in sqlglot; their time is included)")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
