"""Build the labelled GMN training set: synthetic pairs over the Spider and BIRD train schemas +
the WikiSQL train half.

Every synthetic label is checked with sqlsim's `sql_equivalent` under a work budget (`OPTS`: counted
solver work, so the labels do not depend on the machine's load): a positive that gets 0 becomes a
negative, a negative that gets 1 is dropped. No pair over the 20 Spider dev or the 11 BIRD dev
databases is read here (the BIRD dev DAIL-SQL pairs were training data until 2026-11-25; the
tightened rule of issue 15 excludes them from training, early stopping and selection).

    python -m models.gmn.dataset --data ../shared/data --ext dist/sqlsim.so --out /tmp/gmn_cache/pairs.jsonl
"""

import argparse
import hashlib
import json
import multiprocessing as mp
import re
import sys
import time
from pathlib import Path

from models.gmn import generate, schemas
from models.gmn.rewrites import CONVENTION

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python"))
from common import connect_apsw, pair_schema  # noqa: E402

# 2M work units: the fuzzer's budget; a generous wall-clock cap only guards against a runaway pair.
OPTS = '{"work":2000000,"timeout_ms":60000}'


def wikisql_half(table: str) -> str:
    """'train' or 'heldout': a stable hash of the WikiSQL table name."""
    h = int(hashlib.sha256(table.encode()).hexdigest()[:8], 16)
    return "train" if h % 2 == 0 else "heldout"


_TRAILING_LIMIT = re.compile(r"\s(LIMIT|limit) (\d+)$")
_SET_OPERATION = re.compile(r"\b(UNION|INTERSECT|EXCEPT)\b", re.I)


def calcite_fetch(row):
    """Calcite's default dialect prints LIMIT n as FETCH NEXT n ROWS ONLY, as the held-out Spider-Pair
    gold does. SQLite has no FETCH, so labels are computed on the LIMIT text and 70% of the
    Calcite-printed gold (backticks; stable hash of the pair id) is respelled afterwards."""
    gold = row["gold"]
    if "`" not in gold or _SET_OPERATION.search(gold) or not _TRAILING_LIMIT.search(gold):
        return row
    if int(hashlib.sha256(row["id"].encode()).hexdigest()[:8], 16) % 10 >= 7:
        return row
    return dict(row, gold=_TRAILING_LIMIT.sub(r" FETCH NEXT \2 ROWS ONLY", gold))


def schema_texts(data: Path) -> dict:
    """(source, db_id) -> schema argument text for every training schema."""
    out = {}
    for s in schemas.load_spider(data) + schemas.load_bird_train(data):
        out[(s.source, s.db_id)] = s.text
    return out


def schema_key(row):
    src = row["source"]
    if src == "synthetic_spider":
        return ("spider", row["db_id"])
    if src == "synthetic_bird":
        return ("bird", row["db_id"])
    return None


_CONN = None
_SCHEMAS = None


def _init(ext, data):
    global _CONN, _SCHEMAS
    _CONN = connect_apsw(ext)
    _SCHEMAS = schema_texts(Path(data))


def _verdict(row):
    key = schema_key(row)
    schema = _SCHEMAS.get(key) if key else None
    try:
        v = _CONN.execute("SELECT sql_equivalent(?, ?, ?, ?)", (row["gold"], row["pred"], schema, OPTS)).fetchone()[0]
    except Exception:  # noqa: BLE001 - an SQL error from the extension means undecided
        v = None
    return v


def label_all(rows, ext, data, workers=2):
    with mp.Pool(workers, initializer=_init, initargs=(ext, str(data))) as pool:
        return pool.map(_verdict, rows, chunksize=32)


def apply_verdict(row, v, counts):
    """The labelled synthetic pair for sql_equivalent's verdict v (1, 0 or None), or None to drop it.

    A positive with a counterexample becomes a negative, except the CONVENTION rewrites (equivalent
    under the public sets' labelling: columns as a set, key columns without NULLs); a negative
    proved equivalent is dropped; undecided pairs keep their constructed label."""
    r = dict(row, verdict=v)
    if r["label"] == 1:
        if v == 0 and r["kind"] in CONVENTION:
            counts["pos_convention"] += 1
        elif v == 0:
            counts["pos_flipped"] += 1
            r["label"] = 0
        else:
            counts["pos_kept" if v == 1 else "pos_undecided"] += 1
        return r
    if v == 1:
        counts["neg_dropped"] += 1
        return None
    counts["neg_kept" if v == 0 else "neg_undecided"] += 1
    return r


def build(data: Path, ext: str, n_synth: int, seed: int, workers: int):
    stats = {}
    sch = schemas.load_spider(data) + schemas.load_bird_train(data)
    syn = generate.generate(sch, n_synth, seed)
    t0 = time.time()
    verdicts = label_all(syn, ext, data, workers)
    stats["label_seconds"] = round(time.time() - t0, 1)
    out = []
    c = {"pos_kept": 0, "pos_flipped": 0, "pos_convention": 0, "pos_undecided": 0, "neg_kept": 0, "neg_dropped": 0,
         "neg_undecided": 0}
    for r, v in zip(syn, verdicts):
        r = apply_verdict(r, v, c)
        if r is not None:
            out.append(calcite_fetch(r))
    stats["synthetic"] = c
    kinds = {}
    for r in out:
        kinds.setdefault(r["kind"], [0, 0])[r["label"]] += 1
    stats["synthetic_kinds"] = dict(sorted(kinds.items(), key=lambda kv: -sum(kv[1])))
    w = {"train": 0, "heldout": 0}
    for x in (data / "wikisql_pair_dev.jsonl").read_text().splitlines():
        r = json.loads(x)
        half = wikisql_half(r["meta"]["table"])
        w[half] += 1
        if half == "train" and r.get("label") is not None and r.get("pred"):
            out.append({"id": "wiki%s" % r["id"], "source": "wikisql_pair_dev", "db_id": r["db_id"],
                        "gold": r["gold"], "pred": r["pred"], "label": int(r["label"]), "kind": "wikisql",
                        "schema": pair_schema(r, data)})
    stats["wikisql"] = w
    return out, stats


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--ext", default="dist/sqlsim.so")
    ap.add_argument("--out", default="/tmp/gmn_cache/pairs.jsonl")
    ap.add_argument("--n", type=int, default=12000)
    ap.add_argument("--seed", type=int, default=20261121)
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args(argv)
    rows, stats = build(Path(a.data), str(Path(a.ext).resolve()), a.n, a.seed, a.workers)
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    stats["total"] = len(rows)
    stats["by_source"] = {}
    for r in rows:
        d = stats["by_source"].setdefault(r["source"], [0, 0])
        d[r["label"]] += 1
    Path(str(out) + ".stats.json").write_text(json.dumps(stats, indent=1))
    print(json.dumps(stats, indent=1), file=sys.stderr)


if __name__ == "__main__":
    main()
