#!/usr/bin/env python3
"""Scoring with sqlsim.ray on a local Ray cluster: 1 vs 2 workers, and scores identical to DuckDB's.

Usage (with the project venv and ray installed, after `make`):

    .venv/bin/python scripts/bench/ray_scale.py [--pairs 240] [--expr "sql_similarity(gold, pred, schema)"] [--json OUT]

Takes the first `--pairs` rows of bench_similarity.py's grouped workload (8 predictions per Spider-DK
gold, a gold's rows together), writes them as JSON lines to a temporary folder, and for 1 and 2
scoring actors (ray.init(num_cpus=2), one DuckDB thread per actor, batches of 64 rows, the rows
colocated by gold) reads, scores and writes Parquet with sqlsim.ray.score_files, timing the whole
pipeline (actor start-up and the extension load included). The scores read back must equal those
of one DuckDB connection over the same rows (exit status 1 otherwise). Printed: seconds, pairs/s and
the speed-up of 2 workers.
"""

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import common  # noqa: E402

sys.path.insert(0, str(common.ROOT / "python"))
EXTENSION = str(common.DIST / common.DUCKDB_FILE)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=240)
    parser.add_argument("--expr", default="sql_similarity(gold, pred, schema)")
    parser.add_argument("--json", help="also write the results as JSON to this file")
    args = parser.parse_args()

    import ray

    import bench_similarity
    import sqlsim.ray

    rows = [{"id": i, "gold": g, "pred": p, "schema": s}
            for i, (g, p, s) in enumerate(bench_similarity.grouped()[:args.pairs])]
    con = common.connect_duckdb(EXTENSION)
    con.execute("SET threads = 1")
    con.execute("CREATE TABLE t (id INTEGER, gold VARCHAR, pred VARCHAR, schema VARCHAR)")
    con.executemany("INSERT INTO t VALUES (?, ?, ?, ?)", [[r["id"], r["gold"], r["pred"], r["schema"]] for r in rows])
    start = time.perf_counter()
    want = dict(con.execute(f"SELECT id, {args.expr} FROM t").fetchall())
    duck_s = time.perf_counter() - start
    print(f"DuckDB, one connection, 1 thread: {len(rows)} pairs in {duck_s:.1f} s ({len(rows) / duck_s:.1f} pairs/s)")

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             runtime_env={"env_vars": {"PYTHONPATH": str(common.ROOT / "python")}})
    ray.data.DataContext.get_current().enable_progress_bars = False
    results, failed = [], False
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "pairs.jsonl"
        src.write_text("".join(json.dumps(r) + "\n" for r in rows))
        for workers in (1, 2):
            out = Path(tmp) / f"out{workers}"
            start = time.perf_counter()
            n = sqlsim.ray.score_files(str(src), out, args.expr, extension=EXTENSION, concurrency=workers,
                                       batch_size=64, colocate="gold", num_cpus=0.25)
            seconds = time.perf_counter() - start
            got = {r["id"]: r["score"] for r in ray.data.read_parquet(str(out)).take_all()}
            same = got == want
            failed |= not same
            print(f"Ray, {workers} worker(s): {n} pairs in {seconds:.1f} s ({n / seconds:.1f} pairs/s); "
                  f"scores identical to DuckDB's: {same}")
            results.append({"workers": workers, "pairs": n, "seconds": seconds, "identical": same})
    ray.shutdown()
    print(f"speed-up of 2 workers over 1: {results[0]['seconds'] / results[1]['seconds']:.2f}x")
    if args.json:
        Path(args.json).write_text(json.dumps({"duckdb_seconds": duck_s, "ray": results, "expr": args.expr}, indent=2))
    if failed:
        print("ray_scale.py: Ray scores differ from DuckDB's", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
