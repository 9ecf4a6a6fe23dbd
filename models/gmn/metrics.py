"""ROC AUC / Spearman and the public labelled sets (evaluation only, never training data)."""

import json
from pathlib import Path

import numpy as np
from scipy.stats import rankdata, spearmanr

from models.gmn.dataset import wikisql_half
from pair_schemas import pair_schema  # scripts/, on the path through models.gmn.dataset

PUBLIC_SETS = [
    "spiderdk_pair_dev.nooverlap",
    "wikisql_pair_dev",  # held-out half only (the other half is training data)
    "spider_dev_llm_gpt4.nooverlap",
    "spider_dev_llm_gpt3.5.nooverlap",
    "spider_dev_llm_codellama_7b.nooverlap",
]


def roc_auc(y, s):
    y = np.asarray(y, np.float64)
    s = np.asarray(s, np.float64)
    pos, neg = y.sum(), len(y) - y.sum()
    if pos == 0 or neg == 0:
        return float("nan")
    r = rankdata(s)
    return float((r[y == 1].sum() - pos * (pos + 1) / 2) / (pos * neg))


def spearman(y, s):
    return float(spearmanr(y, s).statistic)


def public_rows(data: Path, name: str):
    """Labelled rows of a public set, with ids prefixed by the set name; pred may be None."""
    rows = []
    for line in (data / (name + ".jsonl")).read_text().splitlines():
        r = json.loads(line)
        if r.get("label") is None:
            continue
        if name == "wikisql_pair_dev" and wikisql_half(r["meta"]["table"]) != "heldout":
            continue
        rows.append({"id": "%s:%s" % (name, r["id"]), "source": name, "db_id": r["db_id"], "gold": r["gold"],
                     "pred": r.get("pred"), "label": int(r["label"]),
                     "schema": pair_schema(r, data, spiderdk_markdown=True)})  # as make eval passes it
    return rows
