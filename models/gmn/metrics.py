"""Spearman and the public labelled sets (evaluation only, never training data); ROC AUC is
python/sqlsim/roc.py's, re-exported here: roc_auc(scores, labels)."""

import json
from pathlib import Path

from scipy.stats import spearmanr

from models.gmn.dataset import wikisql_half
from common import pair_schema  # scripts/, on the path through models.gmn.dataset
from sqlsim.roc import roc_auc  # noqa: F401  python/, on the path through models.gmn.dataset

PUBLIC_SETS = [
    "spiderdk_pair_dev.nooverlap",
    "wikisql_pair_dev",  # held-out half only (the other half is training data)
    "spider_dev_llm_gpt4.nooverlap",
    "spider_dev_llm_gpt3.5.nooverlap",
    "spider_dev_llm_codellama_7b.nooverlap",
]


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
