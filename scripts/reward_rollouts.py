#!/usr/bin/env python3
"""Scores a batch of RL rollouts with sqlsim.reward, as verl's reward manager would, and prints the rewards.

Usage (with the project venv, after `make`):

    .venv/bin/python scripts/reward_rollouts.py [--rollouts FILE.jsonl] [--group 8] [--golds 16] [--mode similarity]

FILE.jsonl has one rollout a line: {"data_source": ..., "response": "<model output>", "ground_truth":
{"sql": ..., "schema": ...}} (ground_truth may also be the gold SQL string). Without --rollouts, a demo
batch is built from Spider-DK (../shared/data): for `--golds` gold queries, `--group` responses each,
made of the set's predictions for that gold wrapped the ways models answer (a ```sql fence after some
reasoning, <answer> tags, bare SQL, prose), plus malformed answers (no SQL, truncated, not UTF-8). Each
batch is scored twice: one compute_score call per rollout (verl's per-sample hook) and one score_batch
call (one DuckDB query); the rewards must be equal. Printed: the rewards per gold group, their mean, and
rollouts/s of each way.
"""

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "scripts"))
os.environ.setdefault("SQLSIM_DUCKDB_EXTENSION", str(ROOT / "dist" / "sqlsim.duckdb_extension"))
DATA = Path(os.environ.get("SQLSIM_DATA", ROOT.parent / "shared" / "data"))

from sqlsim.reward import compute_score, score_batch  # noqa: E402

WRAPS = [
    lambda q: f"<think>The question asks for ... I join the tables.</think>\n```sql\n{q}\n```",
    lambda q: f"<answer>{q}</answer>",
    lambda q: q,
    lambda q: f"Let me write the query step by step.\nSo the final query is: {q};",
    lambda q: f"```sql\n-- first try\nSELECT 1;\n```\nOn reflection:\n```sql\n{q}\n```",
]
MALFORMED = ["I cannot answer this question.", "```sql\nSELECT name FROM", b"\xff\xfeSELECT \x80", "", "<answer>"]


def demo_batch(golds, group):
    from pair_schemas import pair_schema

    by_gold = {}
    with open(DATA / "spiderdk_pair_dev.nooverlap.jsonl", encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if r.get("pred"):
                by_gold.setdefault((r["db_id"], r["gold"]), (pair_schema(r, DATA), []))[1].append(r["pred"])
    batch = []
    for k, ((_, gold), (schema, preds)) in enumerate(list(by_gold.items())[:golds]):
        truth = {"sql": gold, "schema": schema}
        for j in range(group):
            if j == group - 1:
                response = MALFORMED[k % len(MALFORMED)]
            else:
                response = WRAPS[(k + j) % len(WRAPS)](preds[j % len(preds)])
            batch.append({"data_source": "spider_dk", "response": response, "ground_truth": truth, "group": k})
    return batch


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rollouts", help="JSONL of rollouts (default: a Spider-DK demo batch)")
    parser.add_argument("--group", type=int, default=8)
    parser.add_argument("--golds", type=int, default=16)
    parser.add_argument("--mode", default=None, help="similarity (default), binary or verdict")
    args = parser.parse_args()
    if args.rollouts:
        with open(args.rollouts, encoding="utf-8") as f:
            batch = [json.loads(line) for line in f if line.strip()]
    else:
        batch = demo_batch(args.golds, args.group)
    start = time.perf_counter()
    one_by_one = [compute_score(r.get("data_source"), r["response"], r["ground_truth"], r.get("extra_info"),
                                mode=args.mode) for r in batch]
    t_single = time.perf_counter() - start
    start = time.perf_counter()
    batched = score_batch([r.get("data_source") for r in batch], [r["response"] for r in batch],
                          [r["ground_truth"] for r in batch], [r.get("extra_info") for r in batch], mode=args.mode)
    t_batch = time.perf_counter() - start
    groups = {}
    for r, reward in zip(batch, one_by_one):
        groups.setdefault(r.get("group", 0), []).append(reward)
    for g, rewards in groups.items():
        print(f"group {g:>3}: " + " ".join(f"{x:.3f}" for x in rewards))
    print(f"{len(batch)} rollouts, mean reward {sum(one_by_one) / len(batch):.4f}")
    print(f"compute_score one by one: {len(batch) / t_single:.1f} rollouts/s (first call includes loading); "
          f"score_batch: {len(batch) / t_batch:.1f} rollouts/s (caches warm)")
    if one_by_one != batched:
        diff = [i for i, (a, b) in enumerate(zip(one_by_one, batched)) if a != b]
        print(f"reward_rollouts.py: score_batch differs from compute_score at rows {diff}", file=sys.stderr)
        sys.exit(1)
    print("score_batch equals compute_score on every rollout")


if __name__ == "__main__":
    main()
