"""Build the labelled GMN training set: synthetic pairs + WikiSQL train half + BIRD DAIL pairs.

Every synthetic label is checked with sqlsim's `sql_equivalent` (budget 300 ms): a positive that
gets 0 becomes a negative, a negative that gets 1 is dropped. BIRD DAIL pairs keep only pairs
that `sql_equivalent` decides. Pairs over the Spider dev databases are never read here.

    python -m models.gmn.dataset --data ../shared/data --ext dist/sqlsim.so --out /tmp/gmn_cache/pairs.jsonl
"""

import argparse
import hashlib
import json
import multiprocessing as mp
import sys
import time
from pathlib import Path

from models.gmn import generate, schemas
from models.gmn.rewrites import CONVENTION

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from sqlsim_hosts import connect_apsw  # noqa: E402

OPTS = '{"budget_ms":300}'


def wikisql_half(table: str) -> str:
    """'train' or 'heldout': a stable hash of the WikiSQL table name."""
    h = int(hashlib.sha256(table.encode()).hexdigest()[:8], 16)
    return "train" if h % 2 == 0 else "heldout"


def schema_texts(data: Path) -> dict:
    """(source, db_id) -> schema argument text for every training schema and the BIRD dev DBs."""
    out = {}
    for s in schemas.load_spider(data) + schemas.load_bird_train(data):
        out[(s.source, s.db_id)] = s.text
    for db_id, ddl in json.loads((data / "bird" / "schema.json").read_text()).items():
        out[("bird_dev", db_id)] = json.dumps(ddl) if isinstance(ddl, list) else ddl
    return out


def schema_key(row):
    src = row["source"]
    if src == "synthetic_spider":
        return ("spider", row["db_id"])
    if src == "synthetic_bird":
        return ("bird", row["db_id"])
    if src == "bird_dev_dail":
        return ("bird_dev", row["db_id"])
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
    bird_dev = [json.loads(x) for x in (data / "bird_dev_dail.jsonl").read_text().splitlines() if x.strip()]
    bird_dev = [r for r in bird_dev if r.get("pred")]
    t0 = time.time()
    verdicts = label_all(syn + bird_dev, ext, data, workers)
    stats["label_seconds"] = round(time.time() - t0, 1)
    out = []
    c = {"pos_kept": 0, "pos_flipped": 0, "pos_convention": 0, "pos_undecided": 0, "neg_kept": 0, "neg_dropped": 0,
         "neg_undecided": 0}
    for r, v in zip(syn, verdicts[: len(syn)]):
        r = apply_verdict(r, v, c)
        if r is not None:
            out.append(r)
    stats["synthetic"] = c
    kinds = {}
    for r in out:
        kinds.setdefault(r["kind"], [0, 0])[r["label"]] += 1
    stats["synthetic_kinds"] = dict(sorted(kinds.items(), key=lambda kv: -sum(kv[1])))
    b = {"label1": 0, "label0": 0, "undecided": 0}
    for r, v in zip(bird_dev, verdicts[len(syn):]):
        if v is None:
            b["undecided"] += 1
            continue
        b["label%d" % v] += 1
        out.append({"id": "bird%s" % r["id"], "source": "bird_dev_dail", "db_id": r["db_id"], "gold": r["gold"],
                    "pred": r["pred"], "label": v, "kind": "dail_sql", "verdict": v})
    stats["bird_dev_dail"] = b
    w = {"train": 0, "heldout": 0}
    for x in (data / "wikisql_pair_dev.jsonl").read_text().splitlines():
        r = json.loads(x)
        half = wikisql_half(r["meta"]["table"])
        w[half] += 1
        if half == "train" and r.get("label") is not None and r.get("pred"):
            out.append({"id": "wiki%s" % r["id"], "source": "wikisql_pair_dev", "db_id": r["db_id"],
                        "gold": r["gold"], "pred": r["pred"], "label": int(r["label"]), "kind": "wikisql"})
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
