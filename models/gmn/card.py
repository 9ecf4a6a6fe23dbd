"""Markdown tables for the model card (models/README.md) from the training reports.

    python -m models.gmn.card --stats /tmp/gmn_cache/pairs.jsonl.stats.json models/*_gmn.report.json
"""

import argparse
import hashlib
import json
from pathlib import Path


def sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--stats", default=None)
    ap.add_argument("reports", nargs="+")
    a = ap.parse_args(argv)
    if a.stats:
        st = json.loads(Path(a.stats).read_text())
        print("| source | label 0 | label 1 |\n|---|---|---|")
        for src, (n0, n1) in st["by_source"].items():
            print(f"| {src} | {n0} | {n1} |")
        print()
        print("sql_equivalent on synthetic pairs:", json.dumps(st["synthetic"]))
        print("WikiSQL halves:", json.dumps(st["wikisql"]))
        print()
        if "synthetic_kinds" in st:
            print("synthetic pairs by kind (label 0 / label 1):",
                  ", ".join(f"{k} {n0}/{n1}" for k, (n0, n1) in st["synthetic_kinds"].items()))
            print()
    for rp in a.reports:
        r = json.loads(Path(rp).read_text())
        onnx = Path(rp).with_name(r["model"] + "_gmn.onnx")
        print(f"### {r['model']}: best epoch {r['best_epoch']} of {r['epochs_run']}, {r['train_minutes']} min, "
              f"train {r['train_pairs']} / val {r['val_pairs']} pairs, sha256 {sha256(onnx) if onnx.exists() else '-'}\n")
        print("| epoch | train loss | val AUC | val Spearman | minutes |\n|---|---|---|---|---|")
        for c in r["curve"]:
            print(f"| {c['epoch']} | {c['train_loss']} | {c['val_auc']} | {c['val_spearman']} | {c['minutes']} |")
        print()
        if "public" in r:
            print("| set | n | with graphs | AUC | Spearman |\n|---|---|---|---|---|")
            for k, v in r["public"].items():
                print(f"| {k} | {v['n']} | {v['graphs']} | {v['auc']} | {v['spearman']} |")
            print()


if __name__ == "__main__":
    main()
