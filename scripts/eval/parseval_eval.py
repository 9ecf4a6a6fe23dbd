#!/usr/bin/env python3
"""ParSEval measurements: support ratio, share disproved and time per pair of sql_equivalent.

BIRD: the 150-pair sample of bird_dev_dail.jsonl the issue names (random.Random(7).shuffle, first
150), or --bird-all. Spider labeled sets: share of label-0 and of label-1 pairs disproved. Every 0
verdict is re-checked here independently: its counterexample rows are inserted into a fresh SQLite
(apsw; Spider tables.json entries get CREATE TABLEs written here) and both queries run on it; a
database that breaks a declared primary or foreign key is reported (BREAKS SCHEMA). One pair at a
time in SQLite (apsw), timed around the call (cold: nothing cached). Prints a markdown table;
--disproved-label1 lists the label-1 disproofs. Spider-DK-only databases get their schema from the
markdown of schemas/spiderdk_schemas.json (scripts/common.py).

usage: scripts/eval/parseval_eval.py [--data ../shared/data] [--bird-all | --skip-bird] [--sets a,b] [--limit N]
       [--disproved-label1] [--dump FILE [--counterexamples]]
"""
import argparse
import json
import os
import random
import re
import statistics
import sys
import time
from pathlib import Path

import apsw

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common import DATA, DIST, SQLITE_FILE, connect_apsw, pair_schema, quote  # noqa: E402

EXT = os.environ.get("SQLSIM_EXT", str(DIST / SQLITE_FILE))

FEATURES = {
    "aggregation": r"\b(count|sum|avg|min|max)\s*\(",
    "having": r"\bhaving\b",
    "distinct": r"\bdistinct\b",
    "order by": r"\border\s+by\b",
    "subquery": r"\(\s*select\b",
    "case": r"\bcase\b",
    "cast/string/date fn": r"\b(cast|substr|substring|strftime|date|julianday|instr|replace|lower|upper|length|iif)\s*\(",
}


def connect():
    return connect_apsw(EXT)


def percentile(xs, p):
    xs = sorted(xs)
    if not xs:
        return float("nan")
    k = min(len(xs) - 1, max(0, int(round(p / 100 * (len(xs) - 1)))))
    return xs[k]


def spider_ddl(entry):
    """CREATE TABLE statements for a Spider tables.json entry, written here independently of the
    extension: declared types, one primary key per table (its listed columns together), no NOT NULL."""
    tables = entry["table_names_original"]
    cols = entry["column_names_original"]
    out = []
    for t, name in enumerate(tables):
        if name.lower().startswith("sqlite_"):
            continue
        parts = [f"{quote(c)} {entry['column_types'][i]}" for i, (ti, c) in enumerate(cols) if ti == t]
        pk = [quote(cols[i][1]) for i in entry.get("primary_keys", []) if isinstance(i, int) and cols[i][0] == t]
        if pk:
            parts.append(f"PRIMARY KEY ({', '.join(pk)})")
        out.append(f"CREATE TABLE {quote(name)} ({', '.join(parts)})")
    return out


def constraint_violations(db, entry):
    """Declared constraints a Spider-entry database breaks: NULL in a primary-key column (SQLite
    accepts it in non-INTEGER keys, SQL does not), a foreign-key value with no referenced row (each
    column pair of a foreign key checked on its own)."""
    tables = entry["table_names_original"]
    cols = entry["column_names_original"]
    bad = []
    for i in entry.get("primary_keys", []):
        if isinstance(i, int):
            t, c = tables[cols[i][0]], cols[i][1]
            if db.execute(f"SELECT count(*) FROM {quote(t)} WHERE {quote(c)} IS NULL").fetchone()[0]:
                bad.append(f"NULL primary key {t}.{c}")
    for a, b in entry.get("foreign_keys", []):
        ta, ca, tb, cb = tables[cols[a][0]], cols[a][1], tables[cols[b][0]], cols[b][1]
        n = db.execute(f"SELECT count(*) FROM {quote(ta)} WHERE {quote(ca)} IS NOT NULL AND NOT EXISTS "
                       f"(SELECT 1 FROM {quote(tb)} WHERE {quote(tb)}.{quote(cb)} = {quote(ta)}.{quote(ca)})").fetchone()[0]
        if n:
            bad.append(f"dangling foreign key {ta}.{ca} -> {tb}.{cb}")
    return bad


def counterexample(con, gold, pred, schema_text):
    """sql_counterexample's rows as {"tables": {table: [row, ...]}, "gold", "pred"} (outputs as the
    extension reports them), or None when it gives no rows."""
    rows = list(con.execute("SELECT * FROM sql_counterexample(?, ?, ?)", (gold, pred, schema_text)))
    if not rows:
        return None
    tables = {}
    for table, _, row, _, _ in rows:
        if table is not None:
            tables.setdefault(table, []).append(json.loads(row))
    return {"tables": tables, "gold": json.loads(rows[0][3]), "pred": json.loads(rows[0][4])}


def recheck(con, gold, pred, schema_text):
    """Rebuild the counterexample in a fresh SQLite and run both queries. Returns (differ, details):
    differ is True when the results differ, False when they do not, None when the database could
    not be rebuilt; details holds the counterexample, both re-run outputs and, for Spider entries,
    the declared constraints the database breaks."""
    ce = counterexample(con, gold, pred, schema_text)
    if ce is None:
        return False, None
    db = apsw.Connection(":memory:")
    text = schema_text.lstrip()
    entry = json.loads(text) if text.startswith("{") else None
    try:
        stmts = spider_ddl(entry) if entry else json.loads(text) if text.startswith("[") else [schema_text]
        for stmt in stmts:
            db.execute(stmt)
        for table, objs in ce["tables"].items():
            for obj in objs:
                names = ", ".join(map(quote, obj))
                marks = ", ".join("?" for _ in obj)
                db.execute(f"INSERT INTO {quote(table)} ({names}) VALUES ({marks})", list(obj.values()))
    except apsw.Error as e:
        return None, {**ce, "rebuild_error": str(e)}

    def run(q):
        try:
            return list(db.execute(q))
        except apsw.Error as e:
            return ("error", str(e))

    g, p = run(gold), run(pred)
    details = {**ce, "gold_rerun": g, "pred_rerun": p}
    if entry:
        details["violations"] = constraint_violations(db, entry)
    if isinstance(g, tuple):
        return False, details
    if isinstance(p, tuple):
        return True, details
    key = lambda r: tuple((x is None, str(type(x)), str(x)) for x in r)  # noqa: E731
    if sorted(map(key, g)) != sorted(map(key, p)):
        return True, details
    return g != p, details  # same bag: only an order difference (the extension checks ties)


def evaluate(con, rows, data, budget=None, keep_counterexamples=False):
    out = []
    opts = json.dumps({"budget_ms": budget}) if budget else None
    for row in rows:
        schema = row.get("_schema") or pair_schema(row, data, spiderdk_markdown=True)
        t0 = time.perf_counter()
        v = con.execute("SELECT sql_equivalent(?, ?, ?, ?)", (row["gold"], row["pred"], schema, opts)).fetchone()[0]
        dt = time.perf_counter() - t0
        reason = con.execute("SELECT sql_equivalent_reason(?, ?, ?, ?)",
                             (row["gold"], row["pred"], schema, opts)).fetchone()[0]
        rc, details = None, None
        if v == 0 and schema:
            rc, details = recheck(con, row["gold"], row["pred"], schema)
        r = {"id": row.get("id"), "db_id": row.get("db_id"), "label": row.get("label"), "v": v, "t": dt,
             "reason": reason, "recheck": rc, "gold": row["gold"], "pred": row["pred"]}
        if details and keep_counterexamples:
            r["counterexample"] = details
        out.append(r)
    return out


def summary(name, res):
    n = len(res)
    sup = sum(r["v"] is not None for r in res)
    dis = sum(r["v"] == 0 for r in res)
    ts = [r["t"] for r in res]
    contradicted = sum(r["recheck"] is False for r in res)
    line = (f"| {name} | {n} | {sup / n:.1%} | {dis / n:.1%} | {statistics.median(ts):.3f} | "
            f"{percentile(ts, 90):.3f} | {percentile(ts, 95):.3f} | {max(ts):.3f} | {contradicted} |")
    lab = [r for r in res if r["label"] in (0, 1)]
    if lab:
        l0 = [r for r in lab if r["label"] == 0]
        l1 = [r for r in lab if r["label"] == 1]
        d0 = sum(r["v"] == 0 for r in l0) / max(1, len(l0))
        d1 = sum(r["v"] == 0 for r in l1) / max(1, len(l1))
        line += f" label-0 disproved {d0:.1%} ({len(l0)}), label-1 disproved {d1:.1%} ({len(l1)})"
    return line


def features(res):
    lines = ["| feature (gold) | pairs | supported |", "|---|---|---|"]
    for f, pat in FEATURES.items():
        sel = [r for r in res if re.search(pat, r["gold"], re.I)]
        if sel:
            lines.append(f"| {f} | {len(sel)} | {sum(r['v'] is not None for r in sel) / len(sel):.1%} |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("--bird-all", action="store_true")
    ap.add_argument("--skip-bird", action="store_true")
    ap.add_argument("--sets", default="spider_dev_llm_gpt4.nooverlap,spider_dev_llm_gpt3.5.nooverlap")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--budget", type=int, default=0)
    ap.add_argument("--show", default="", help="print pairs whose reason starts with this")
    ap.add_argument("--disproved-label1", action="store_true")
    ap.add_argument("--dump", default="", help="write every verdict (JSON lines) to this file")
    ap.add_argument("--counterexamples", action="store_true",
                    help="with --dump: add each disproof's database, both outputs and their re-run")
    a = ap.parse_args()
    data = Path(a.data)
    con = connect()
    print("| set | pairs | supported | disproved | median s | p90 s | p95 s | max s | contradicted by re-run |")
    print("|---|---|---|---|---|---|---|---|---|")
    schemas = json.loads((data / "bird" / "schema.json").read_text())
    bird = [json.loads(l) for l in open(data / "bird_dev_dail.jsonl")]
    if not a.bird_all:
        random.Random(7).shuffle(bird)
        bird = bird[:150]
    if a.limit:
        bird = bird[:a.limit]
    for r in bird:
        r["_schema"] = json.dumps(schemas[r["db_id"]])
    res = [] if a.skip_bird else evaluate(con, bird, data, a.budget or None, a.counterexamples)
    if res:
        print(summary("bird_dev_dail" + (" (all)" if a.bird_all else " (150 sample)"), res))
    all_res = {"bird": res}
    for s in [x for x in a.sets.split(",") if x]:
        rows = [json.loads(l) for l in open(data / f"{s}.jsonl")]
        if a.limit:
            rows = rows[:a.limit]
        r2 = evaluate(con, rows, data, a.budget or None, a.counterexamples)
        all_res[s] = r2
        print(summary(s, r2))
    print()
    if a.dump:
        with open(a.dump, "w") as f:
            for name, rs in all_res.items():
                for r in rs:
                    f.write(json.dumps({"set": name, **r}) + "\n")
    if res:
        print(features(res))
    for name, res in all_res.items():
        for r in res:
            if a.show and r["reason"].startswith(a.show):
                print(f"[{name} {r['id']}] {r['reason']}\n  gold: {r['gold']}\n  pred: {r['pred']}")
            if a.disproved_label1 and r["label"] == 1 and r["v"] == 0:
                print(f"[{name} {r['id']} label 1 disproved] {r['reason']}\n  gold: {r['gold']}\n  pred: {r['pred']}")
            if (r.get("counterexample") or {}).get("violations"):
                print(f"[{name} {r['id']} BREAKS SCHEMA] {r['counterexample']['violations']}")
            if r["recheck"] is False:
                print(f"[{name} {r['id']} CONTRADICTED] {r['reason']}\n  gold: {r['gold']}\n  pred: {r['pred']}")


if __name__ == "__main__":
    main()
