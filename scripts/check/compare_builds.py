"""Behaviour check for a refactor: every scalar metric of two builds on the same public pairs, diffed.

    python scripts/check/compare_builds.py --base /tmp/old_dist --new dist [--sets gpt4,bird150] [--data DIR]

Each build runs in its own DuckDB process (two builds cannot load into one: same function names),
scoring every pair of the chosen sets with each metric (`--metrics`, default: ast_ted, astpm,
relpm, spider_exact_match, spider_hardness of the gold, sql_equivalent_reason, sql_similarity,
gmn_similarity, hybrid_gmn_similarity), with the pair's schema as scripts/common.py builds it
(BIRD: its schema.json DDL list). Prints, per set and metric, how many rows differ and the first few;
exits 1 when any differs. Deterministic metrics only: ParSEval's budgets count work, so its verdicts
and reasons compare exactly.

Sets: gpt4, gpt3.5, codellama, spiderdk, wikisql (the labelled pair files), bird150 (the 150-pair
BIRD sample of scripts/eval/parseval_eval.py: random.Random(7).shuffle, first 150), bird (all 1,534).
"""

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common import DATA, ROOT, pair_schema  # noqa: E402

SET_FILES = {
    "gpt4": "spider_dev_llm_gpt4.nooverlap.jsonl",
    "gpt3.5": "spider_dev_llm_gpt3.5.nooverlap.jsonl",
    "codellama": "spider_dev_llm_codellama_7b.nooverlap.jsonl",
    "spiderdk": "spiderdk_pair_dev.nooverlap.jsonl",
    "wikisql": "wikisql_pair_dev.jsonl",
}
DEFAULT_METRICS = ("ast_ted,astpm,relpm,spider_exact_match,spider_hardness,sql_equivalent_reason,"
                   "sql_similarity,gmn_similarity,hybrid_gmn_similarity")
# How each metric is called on (gold, pred, schema).
CALLS = {
    "ast_ted": "ast_ted(gold, pred)",
    "astpm": "astpm(gold, pred)",
    "relpm": "relpm(gold, pred, schema)",
    "spider_exact_match": "spider_exact_match(gold, pred, schema)",
    "spider_hardness": "spider_hardness(gold, schema)",
    "sql_equivalent_reason": "sql_equivalent_reason(gold, pred, schema)",
    "sql_similarity": "sql_similarity(gold, pred, schema)",
    "gmn_similarity": "gmn_similarity(gold, pred, schema)",
    "hybrid_gmn_similarity": "hybrid_gmn_similarity(gold, pred, schema)",
}


def load_set(name, data: Path):
    """[(id, gold, pred, schema)] of one set."""
    if name in ("bird", "bird150"):
        schemas = json.loads((data / "bird" / "schema.json").read_text())
        rows = [json.loads(line) for line in open(data / "bird_dev_dail.jsonl")]
        if name == "bird150":
            random.Random(7).shuffle(rows)
            rows = rows[:150]
        return [(str(r["id"]), r["gold"], r["pred"], json.dumps(schemas[r["db_id"]])) for r in rows]
    rows = [json.loads(line) for line in open(data / SET_FILES[name])]
    return [(str(r["id"]), r["gold"], r["pred"], pair_schema(r, data)) for r in rows if r.get("pred")]


def score(dist: Path, pairs_file: Path, metrics, out: Path):
    """Child process: scores every pair with `metrics` using the extension in `dist`."""
    from common import connect_duckdb

    con = connect_duckdb(dist / "sqlsim.duckdb_extension")
    con.execute("SET threads = 2")
    pairs = json.loads(pairs_file.read_text())
    con.execute("CREATE TABLE pairs (set_name TEXT, id TEXT, gold TEXT, pred TEXT, schema TEXT)")
    con.executemany("INSERT INTO pairs VALUES (?, ?, ?, ?, ?)", pairs)
    select = ", ".join(f"CAST({CALLS[m]} AS TEXT)" for m in metrics)
    rows = con.execute(f"SELECT set_name, id, {select} FROM pairs ORDER BY rowid").fetchall()
    out.write_text(json.dumps(rows))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", help="dist/ folder of the reference build (required)")
    ap.add_argument("--new", default=str(ROOT / "dist"), help="dist/ folder of the build to check")
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("--sets", default="gpt4,bird150")
    ap.add_argument("--metrics", default=DEFAULT_METRICS)
    ap.add_argument("--show", type=int, default=3, help="differing rows to print per metric")
    ap.add_argument("--child", nargs=3, metavar=("DIST", "PAIRS", "OUT"), help=argparse.SUPPRESS)
    a = ap.parse_args()
    metrics = [m.strip() for m in a.metrics.split(",") if m.strip()]
    unknown = [m for m in metrics if m not in CALLS]
    if unknown:
        ap.error(f"unknown metrics: {', '.join(unknown)} (known: {', '.join(CALLS)})")
    if a.child:
        score(Path(a.child[0]), Path(a.child[1]), metrics, Path(a.child[2]))
        return 0
    if not a.base:
        ap.error("--base is required")
    data = Path(a.data)
    pairs = []
    for name in a.sets.split(","):
        pairs += [(name, *p) for p in load_set(name, data)]
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        pairs_file = Path(tmp) / "pairs.json"
        pairs_file.write_text(json.dumps(pairs))
        for label, dist in (("base", a.base), ("new", a.new)):
            out = Path(tmp) / f"{label}.json"
            cmd = [sys.executable, __file__, "--metrics", ",".join(metrics), "--child", dist, str(pairs_file), str(out)]
            subprocess.run(cmd, check=True)
            results[label] = json.loads(out.read_text())
    base, new = results["base"], results["new"]
    differing = 0
    print(f"{len(pairs)} pairs ({a.sets}) x {len(metrics)} metrics: {a.base} vs {a.new}")
    for k, metric in enumerate(metrics):
        diffs = [(b[0], b[1], b[2 + k], n[2 + k]) for b, n in zip(base, new) if b[2 + k] != n[2 + k]]
        differing += len(diffs)
        print(f"  {metric:24} {len(diffs):5} rows differ")
        for set_name, pair_id, old, now in diffs[: a.show]:
            print(f"      {set_name} {pair_id}: {old!r} -> {now!r}")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
