"""Graph cache: sql_graph JSON of every training / evaluation pair, built by the Rust extension.

The graphs come only from sqlsim's `sql_graph(gold, pred, schema, model)` (the same builder the
ort inference uses); this module just calls it through SQLite (apsw) in worker processes and
stores one JSON line per pair: {"id", "funceval": graph-or-null, "hybrid": graph-or-null}.
"""

import json
import multiprocessing as mp
import sys
from pathlib import Path

from models.gmn.dataset import schema_key, schema_texts

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from common import connect_apsw  # noqa: E402

_CONN = None
_SCHEMAS = None
_SPIDER = None


def _init(ext, data):
    global _CONN, _SCHEMAS, _SPIDER
    _CONN = connect_apsw(ext)
    _SCHEMAS = schema_texts(Path(data))
    _SPIDER = {e["db_id"]: json.dumps(e) for e in json.loads((Path(data) / "spider" / "tables.json").read_text())}


def pair_schema(row):
    """Schema text for a pair: the row's own (WikiSQL's table, the public sets' as make eval passes
    it), else the training schema of its source, else the Spider tables.json entry of its db_id."""
    if row.get("schema"):
        return row["schema"]
    key = schema_key(row)
    if key is not None:
        return _SCHEMAS.get(key)
    return _SPIDER.get(row.get("db_id"))


def _one(row):
    out = {"id": row["id"]}
    schema = pair_schema(row)
    for model in ("funceval", "hybrid"):
        g = None
        if row.get("gold") and row.get("pred"):
            try:
                txt = _CONN.execute("SELECT sql_graph(?, ?, ?, ?)", (row["gold"], row["pred"], schema, model)).fetchone()[0]
                g = json.loads(txt) if txt else None
            except Exception:  # noqa: BLE001 - unplannable pair: no graph, skipped in training
                g = None
        out[model] = g
    return out


def build_cache(rows, ext, data, out_path, workers=2):
    """Write graphs of rows to out_path (JSONL); returns the number of pairs with both graphs."""
    out_path = Path(out_path)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    ok = 0
    with mp.Pool(workers, initializer=_init, initargs=(str(Path(ext).resolve()), str(data))) as pool, \
            out_path.open("w") as f:
        for g in pool.imap(_one, rows, chunksize=16):
            ok += g["funceval"] is not None and g["hybrid"] is not None
            f.write(json.dumps(g, separators=(",", ":")) + "\n")
    return ok


def load_cache(path):
    out = {}
    with Path(path).open() as f:
        for line in f:
            g = json.loads(line)
            out[g["id"]] = g
    return out


def main(argv=None):
    import argparse

    from models.gmn.metrics import PUBLIC_SETS, public_rows

    ap = argparse.ArgumentParser(description="cache sql_graph JSON for the training pairs and the public sets")
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--ext", default="dist/sqlsim.so")
    ap.add_argument("--pairs", default="/tmp/gmn_cache/pairs.jsonl")
    ap.add_argument("--out", default="/tmp/gmn_cache/graphs.jsonl")
    ap.add_argument("--eval-out", default="/tmp/gmn_cache/eval_graphs.jsonl")
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args(argv)
    rows = [json.loads(x) for x in Path(a.pairs).read_text().splitlines() if x.strip()]
    ok = build_cache(rows, a.ext, a.data, a.out, a.workers)
    print(f"training pairs: {ok} of {len(rows)} with both graphs", flush=True)
    ev = [r for name in PUBLIC_SETS for r in public_rows(Path(a.data), name)]
    ok = build_cache(ev, a.ext, a.data, a.eval_out, a.workers)
    print(f"public-set pairs: {ok} of {len(ev)} with both graphs", flush=True)


if __name__ == "__main__":
    main()
