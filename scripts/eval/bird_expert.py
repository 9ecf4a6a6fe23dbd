"""How `sql_similarity` agrees with people on BIRD: the expert-labelled NL2SQL-Bugs pairs of
../shared/data/bird_nl2sql_bugs.dev.jsonl, under the default options and each `benchmark` preset.

Used by scripts/eval/eval.py (`make eval`), which prints the report and writes its tables into
docs/quality.md between `<!-- eval-bird:begin -->` and `<!-- eval-bird:end -->`; also runnable alone:

    .venv/bin/python scripts/eval/bird_expert.py [--configs default,bird] [--json OUT] [--readme FILE]

Each configuration scores every pair once with `sql_similarity(gold, pred, schema, options)` in
DuckDB (dist/sqlsim.duckdb_extension, in a fresh process, as eval.py's workers), the schema being
the pair's BIRD DDL list from bird/schema.json. Reported at the threshold 0.5 (a pair "accepted"
when it scores 0.5 or more): ROC AUC with its 95% stratified bootstrap interval
(python/sqlsim/roc.py), accuracy, Cohen's kappa against the label, the true positive rate (label-1
pairs accepted) and the false positive rate (label-0 pairs accepted); the same per BIRD difficulty,
and per error kind of the label-0 pairs (meta.error_types' sub_error_type): the share rejected.

The set is for rules and validation only: never for training or selecting a learned model.
"""

import argparse
import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import common  # noqa: E402
from common import DATA, DIST, ROOT, die, read_jsonl  # noqa: E402

sys.path.insert(0, str(ROOT / "python"))
from sqlsim import roc  # noqa: E402

SET = "bird_nl2sql_bugs.dev"
# Configurations: name -> options JSON (None: the defaults).
CONFIGS = {
    "default": None,
    "bird": '{"benchmark": "bird"}',
    "spider": '{"benchmark": "spider"}',
    "spider2": '{"benchmark": "spider2"}',
}
BEGIN, END = "<!-- eval-bird:begin -->", "<!-- eval-bird:end -->"
DIFFICULTIES = ("simple", "moderate", "challenging")
# error kinds with fewer label-0 pairs are pooled as "other kinds"
MIN_KIND = 10


def load(data=None):
    """(gold, pred, label, difficulty, error kinds, schema text) of every labelled pair."""
    schemas = json.loads((Path(data or DATA) / "bird" / "schema.json").read_text())
    out = []
    for r in read_jsonl(SET, data):
        if r.get("label") is None:
            continue
        kinds = sorted({e["sub_error_type"] for e in r["meta"].get("error_types") or []})
        out.append((r["gold"], r["pred"], int(r["label"]), r["meta"].get("difficulty"), kinds,
                    json.dumps(schemas[r["db_id"]])))
    return out


def worker(options, data):
    """In a fresh process: prints {"scores": [...], "seconds": t} for one configuration."""
    rows = load(data)
    con = common.connect_duckdb(DIST / common.DUCKDB_FILE)
    con.execute("CREATE TABLE pairs (i INTEGER, gold VARCHAR, pred VARCHAR, schema VARCHAR)")
    con.executemany("INSERT INTO pairs VALUES (?, ?, ?, ?)",
                    [(i, r[0], r[1], r[5]) for i, r in enumerate(rows)])
    start = time.perf_counter()
    scores = [s for (s,) in con.execute(
        "SELECT sql_similarity(gold, pred, schema, ?::VARCHAR) FROM pairs ORDER BY i", [options]).fetchall()]
    print(json.dumps({"scores": scores, "seconds": time.perf_counter() - start}))


def run(options, data):
    cmd = [sys.executable, __file__, "--worker", "--options", json.dumps(options), "--data", str(data or DATA)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        die(f"sql_similarity on {SET} with options {options} failed:\n{done.stderr.strip()}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    return [float(s) if s is not None else 0.0 for s in out["scores"]], out["seconds"]


def kappa(accepted, labels):
    """Cohen's kappa of two 0/1 raters."""
    n = len(labels)
    if n == 0:
        return None
    agree = sum(a == y for a, y in zip(accepted, labels)) / n
    pa, py = sum(accepted) / n, sum(labels) / n
    chance = pa * py + (1 - pa) * (1 - py)
    return None if chance == 1 else (agree - chance) / (1 - chance)


def rates(scores, labels):
    """accuracy, kappa, TPR, FPR at 0.5 (None where a class is empty)."""
    accepted = [int(s >= 0.5) for s in scores]
    pos = [a for a, y in zip(accepted, labels) if y == 1]
    neg = [a for a, y in zip(accepted, labels) if y == 0]
    return {
        "n": len(labels),
        "accuracy": sum(a == y for a, y in zip(accepted, labels)) / len(labels) if labels else None,
        "kappa": kappa(accepted, labels),
        "tpr": sum(pos) / len(pos) if pos else None,
        "fpr": sum(neg) / len(neg) if neg else None,
    }


def report(name, options, scores, seconds, rows, resamples=roc.RESAMPLES):
    labels = [r[2] for r in rows]
    curve = roc.curve(name, scores, labels, resamples=resamples)
    out = {"config": name, "options": options, "auc": roc.roc_auc(scores, labels),
           "auc_interval": list(curve.interval) if curve.interval else None, "seconds": seconds,
           **rates(scores, labels)}
    out["difficulty"] = {}
    for d in DIFFICULTIES:
        idx = [i for i, r in enumerate(rows) if r[3] == d]
        sub_s, sub_y = [scores[i] for i in idx], [labels[i] for i in idx]
        out["difficulty"][d] = {"auc": roc.roc_auc(sub_s, sub_y), **rates(sub_s, sub_y)}
    counts = Counter(k for r in rows if r[2] == 0 for k in r[4])
    out["error_kinds"] = {}
    for kind in sorted(counts, key=lambda k: (-counts[k], k)):
        if counts[kind] < MIN_KIND:
            continue
        idx = [i for i, r in enumerate(rows) if r[2] == 0 and kind in r[4]]
        out["error_kinds"][kind] = {"n": len(idx), "rejected": sum(scores[i] < 0.5 for i in idx) / len(idx)}
    rare = [i for i, r in enumerate(rows) if r[2] == 0 and r[4] and all(counts[k] < MIN_KIND for k in r[4])]
    if rare:
        out["error_kinds"]["other kinds"] = {"n": len(rare), "rejected": sum(scores[i] < 0.5 for i in rare) / len(rare)}
    return out


def f(x, digits=3):
    return "-" if x is None else f"{x:.{digits}f}"


def options_text(r):
    return "default" if r["options"] is None else f"`{r['options']}`"


def tables(results):
    """The Markdown the README section holds: overall, per difficulty, per error kind."""
    lines = ["| options | AUC | AUC 95% CI | acc@0.5 | κ@0.5 | TPR | FPR | DuckDB s |",
             "|---|---|---|---|---|---|---|---|"]
    for r in results:
        ci = "-" if not r["auc_interval"] else f"{r['auc_interval'][0]:.3f}–{r['auc_interval'][1]:.3f}"
        lines.append(f"| {options_text(r)} | {f(r['auc'], 4)} | {ci} | {f(r['accuracy'])} | {f(r['kappa'])} | "
                     f"{f(r['tpr'])} | {f(r['fpr'])} | {r['seconds']:.0f} |")
    lines += ["", "Per BIRD difficulty (pairs; AUC / accuracy / κ / TPR / FPR at 0.5):", "",
              "| options | " + " | ".join(f"{d} ({results[0]['difficulty'][d]['n']})" for d in DIFFICULTIES) + " |",
              "|---|" + "---|" * len(DIFFICULTIES)]
    for r in results:
        cells = [" / ".join(f(r["difficulty"][d][k]) for k in ("auc", "accuracy", "kappa", "tpr", "fpr"))
                 for d in DIFFICULTIES]
        lines.append(f"| {options_text(r)} | " + " | ".join(cells) + " |")
    kinds = list(results[0]["error_kinds"])
    lines += ["", "Label-0 pairs rejected (scored below 0.5), per error kind (pairs):", "",
              "| error kind | " + " | ".join(r["config"] for r in results) + " |",
              "|---|" + "---|" * len(results)]
    for kind in kinds:
        n = results[0]["error_kinds"][kind]["n"]
        lines.append(f"| {kind} ({n}) | " + " | ".join(f(r["error_kinds"][kind]["rejected"]) for r in results) + " |")
    return "\n".join(lines)


def write_readme(path, results):
    text = Path(path).read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        die(f"{path} has no {BEGIN} ... {END} markers")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    body = "\n<!-- written by `make eval` (scripts/eval/bird_expert.py); do not edit by hand -->\n" + tables(results) + "\n"
    Path(path).write_text(head + BEGIN + body + END + tail, encoding="utf-8")


def evaluate(configs, data=None, resamples=roc.RESAMPLES):
    """Scores and reports every configuration named in `configs` (keys of CONFIGS)."""
    rows = load(data)
    results = []
    for name in configs:
        scores, seconds = run(CONFIGS[name], data)
        results.append(report(name, CONFIGS[name], scores, seconds, rows, resamples))
        r = results[-1]
        print(f"{SET} {name:<8} AUC {f(r['auc'], 4)} {r['auc_interval'] and '%.3f-%.3f' % tuple(r['auc_interval'])} "
              f"acc {f(r['accuracy'])} kappa {f(r['kappa'])} TPR {f(r['tpr'])} FPR {f(r['fpr'])} "
              f"({seconds:.0f} s)", flush=True)
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--configs", default=",".join(CONFIGS),
                        help=f"comma-separated configurations (default {','.join(CONFIGS)})")
    parser.add_argument("--data", help=f"shared data folder (default $SQLSIM_DATA or {DATA})")
    parser.add_argument("--json", help="also write the results as JSON to this file")
    parser.add_argument("--readme", help="rewrite the tables between the eval-bird markers of this file")
    parser.add_argument("--resamples", type=int, default=roc.RESAMPLES)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--options", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(json.loads(args.options), args.data)
    configs = [c.strip() for c in args.configs.split(",") if c.strip()]
    unknown = [c for c in configs if c not in CONFIGS]
    if unknown:
        die(f"unknown configuration {', '.join(unknown)} (known: {', '.join(CONFIGS)})")
    results = evaluate(configs, args.data, args.resamples)
    print(tables(results))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    if args.readme:
        write_readme(args.readme, results)
        print(f"wrote the BIRD expert tables into {args.readme}")


if __name__ == "__main__":
    main()
