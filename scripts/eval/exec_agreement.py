"""sqlsim's execution verdicts against the official ones kept in tests/fixtures/exec_agreement (issue 16).

    python scripts/eval/exec_agreement.py [--fixture F] [--db-dir D] [--show 20] [--limit N] [--threads 1] [--check]

Regenerates the databases with scripts/eval/exec_dbgen.py (the seed and count named in the fixture's header)
into a temporary folder (or uses --db-dir when it already holds them), loads the extension in DuckDB
through scripts/common.py and, per (gold, pred, database) triple of the fixture, asks sqlsim for:

  exec3     exec_match(db, gold, pred)                              vs test-suite EX (ts_ex)
  ts        exec_match(db, gold, pred, '{"semantics":"test-suite"}') vs test-suite EX (ts_ex)
  ts_kd     exec_match(db, gold, pred, '{"keep_distinct":true}')     vs test-suite --keep_distinct (ts_ex_keep_distinct)
  ts_evalpy exec_match(db, gold, replace(pred, 'value', '1'))       vs evaluation.py's call (ts_ex_evalpy)
  bird      exec_match(db, gold, pred, '{"semantics":"bird"}')      vs BIRD EX (bird_ex)
  soft_f1   bird_soft_f1(db, gold, pred)                            vs BIRD mini-dev Soft-F1 (bird_f1, 6 digits)
  suite     exec_match(db_dir/db_id, gold, pred, '{"semantics":"test-suite"}') vs the folder verdict (k = all)

A gold that fails in the official test-suite code stops it with an AssertionError (ts_ex = assert); sqlsim
is expected to give NULL there. The official BIRD code gives 0 for a gold that fails; sqlsim gives NULL
(issue 16's rule), so a BIRD row whose status says the gold fails expects NULL. --check exits 1 on any
disagreement or unavailable rule (the SQL-level test runs it on a subset). A function or option the build lacks is reported once and that rule is
skipped. Prints agreement per rule and benchmark, the first --show disagreements, and sqlsim's throughput
(one whole-table SELECT per rule, DuckDB threads as --threads) beside the official code's, read from the
fixture header (measured when the fixture was made; rerun the official driver in the same session for an
honest ratio, see the fixture's README).
"""

import argparse
import csv
import hashlib
import json
import math
import os
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import exec_dbgen  # noqa: E402
from common import ROOT, connect_duckdb  # noqa: E402

FIXTURE = ROOT / "tests" / "fixtures" / "exec_agreement" / "verdicts.tsv"

RULES = {
    # name: (SQL over the table t(db, gold, pred), fixture column, rows: per-db or suite)
    "exec3": ("exec_match(db, gold, pred)", "ts_ex", "db"),
    "ts": ("exec_match(db, gold, pred, '{\"semantics\": \"test-suite\"}')", "ts_ex", "db"),
    "ts_kd": ("exec_match(db, gold, pred, '{\"keep_distinct\": true}')", "ts_ex_keep_distinct", "db"),
    "ts_evalpy": ("exec_match(db, gold, replace(pred, 'value', '1'))", "ts_ex_evalpy", "db"),
    "bird": ("exec_match(db, gold, pred, '{\"semantics\": \"bird\"}')", "bird_ex", "db"),
    "soft_f1": ("bird_soft_f1(db, gold, pred)", "bird_f1", "db"),
    "suite": ("exec_match(db, gold, pred, '{\"semantics\": \"test-suite\"}')", "ts_ex", "suite"),
}


def read_fixture(path):
    header, rows = {}, []
    with open(path) as f:
        lines = [ln for ln in f if not ln.startswith("#") or header.update(_kv(ln)) or False]
    for r in csv.DictReader(lines, delimiter="\t"):
        rows.append(r)
    return header, rows


def _kv(line):
    """'# key: value' header lines -> {key: value}."""
    body = line[1:].strip()
    if ":" in body:
        k, v = body.split(":", 1)
        return {k.strip(): v.strip()}
    return {}


# the official throughput (fixture header key) each rule is compared with
OFFICIAL_KEY = {"exec3": "ts_ex", "ts": "ts_ex", "ts_kd": "ts_ex_keep_distinct", "ts_evalpy": "ts_ex",
                "bird": "bird_ex", "soft_f1": "bird_f1", "suite": "suite_ts_ex_both"}


def expected(rule, value, status=""):
    """The fixture's official value as sqlsim should give it: None for a gold that fails (the
    official BIRD code gives 0 there; sqlsim gives NULL by design)."""
    if value in ("assert", "", "-"):
        return None
    if rule in ("bird", "soft_f1") and status.startswith("gold"):
        return None
    if rule == "soft_f1":
        return round(float(value), 6)
    return int(value)


def got_value(rule, v):
    if v is None:
        return None
    if rule == "soft_f1":
        return round(float(v), 6)
    return int(v)


def same_rows(db, gold, pred):
    """Whether `gold` and `pred` give the same set of distinct rows on `db` (Python's sqlite3)."""
    import sqlite3

    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    con.text_factory = lambda b: b.decode(errors="ignore")
    try:
        return set(con.execute(gold).fetchall()) == set(con.execute(pred).fetchall())
    except sqlite3.Error:
        return False
    finally:
        con.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fixture", default=str(FIXTURE))
    ap.add_argument("--db-dir", help="databases already generated (db_dir/db_id/db_id_k.sqlite)")
    ap.add_argument("--show", type=int, default=20, help="disagreements listed per rule")
    ap.add_argument("--limit", type=int, help="only the first N fixture rows")
    ap.add_argument("--threads", type=int, default=1, help="DuckDB threads for the timed SELECTs")
    ap.add_argument("--rules", default=",".join(RULES))
    ap.add_argument("--data", default=str(exec_dbgen.DATA))
    ap.add_argument("--check", action="store_true", help="exit 1 on any disagreement or unavailable rule")
    ap.add_argument("--ves", type=int, default=0, metavar="N",
                    help="also run bird_ves twice over N BIRD triples with bird_ex = 1 and report how "
                         "often the reward changes between the runs (timing noise)")
    a = ap.parse_args()

    header, rows = read_fixture(a.fixture)
    if a.limit:
        rows = rows[: a.limit]
    seed, per_db = int(header.get("seed", exec_dbgen.SEED)), int(header.get("per_db", exec_dbgen.PER_DB))
    pairs = {(p["set"], str(p["id"])): p for p in exec_dbgen.load_pairs(a.data)}

    tmp = None
    db_dir = a.db_dir
    if not db_dir:
        tmp = tempfile.TemporaryDirectory(prefix="sqlsim-exec-")
        db_dir = tmp.name
        t0 = time.perf_counter()
        exec_dbgen.generate(db_dir, seed, per_db, a.data)
        print(f"databases: exec_dbgen seed={seed} per_db={per_db} -> {db_dir} ({time.perf_counter() - t0:.1f} s)")

    # the triples as a DuckDB table; rows whose pair text changed since the fixture are left out
    trip, drift = [], 0
    for i, r in enumerate(rows):
        p = pairs.get((r["set"], r["pair_id"]))
        h = p and hashlib.sha1((p["gold"] + "\x00" + p["pred"]).encode()).hexdigest()[:10]
        if p is None or h != r["h"]:
            drift += 1
            continue
        if r["k"] == "all":
            db = os.path.join(db_dir, r["db_id"])
        else:
            db = os.path.join(db_dir, r["db_id"], f"{r['db_id']}_{r['k']}.sqlite")
        trip.append((i, db, p["gold"], p["pred"], r))
    if drift:
        print(f"warning: {drift} fixture rows left out: their pair is missing or its gold/pred text changed")

    con = connect_duckdb()
    con.execute(f"SET threads = {a.threads}")
    con.execute("CREATE TABLE t (i INTEGER, db VARCHAR, gold VARCHAR, pred VARCHAR, suite BOOLEAN)")
    con.executemany("INSERT INTO t VALUES (?, ?, ?, ?, ?)",
                    [(i, db, g, p, r["k"] == "all") for i, db, g, p, r in trip])
    by_i = {i: r for i, _, _, _, r in trip}
    n_db = sum(1 for *_, r in trip if r["k"] != "all")
    n_suite = len(trip) - n_db
    print(f"triples: {n_db} (gold, pred, database) + {n_suite} test suites (folders)")

    official = {k: header[k] for k in header if k.startswith("official_throughput")}
    report = {}
    failed = False
    for rule in [r.strip() for r in a.rules.split(",") if r.strip()]:
        expr, col, kind = RULES[rule]
        where = "suite" if kind == "suite" else "NOT suite"
        # probe: does this build have the function / option at all?
        try:
            con.execute(f"SELECT {expr} FROM t WHERE {where} LIMIT 1").fetchall()
        except Exception as e:
            msg = str(e).splitlines()[0]
            if "fails on the database" not in msg:
                print(f"\n[{rule}] not available in this build: {msg[:200]}")
                report[rule] = "unavailable"
                failed = True
                continue
        # one whole-table SELECT (throughput); a statement-aborting error falls back to one row at a time
        t0 = time.perf_counter()
        got, mode = {}, "one SELECT"
        try:
            for i, v in con.execute(f"SELECT i, {expr} FROM t WHERE {where} ORDER BY i").fetchall():
                got[i] = ("ok", v)
        except Exception:
            mode = "row by row (the whole-table SELECT aborted)"
            got = {}
            for i, db, g, p, r in trip:
                if (r["k"] == "all") != (kind == "suite"):
                    continue
                try:
                    got[i] = ("ok", con.execute(f"SELECT {expr.replace('db, gold, pred', '?, ?, ?')}",
                                                [db, g, p]).fetchone()[0])
                except Exception as e:
                    got[i] = ("error", str(e).splitlines()[0][:160])
        secs = time.perf_counter() - t0
        agree, total = Counter(), Counter()
        dis = []
        for i, (how, v) in sorted(got.items()):
            r = by_i[i]
            want = expected(rule, r[col], r["status"])
            have = got_value(rule, v) if how == "ok" else ("error", v)
            total[r["bench"]] += 1
            if have == want:
                agree[r["bench"]] += 1
            else:
                dis.append((r, want, have))
        n = sum(total.values())
        rate = n / secs if secs else float("inf")
        off = official.get("official_throughput_" + OFFICIAL_KEY.get(rule, ""), "")
        off_rate = float(off.split()[0]) if off else None
        vs = f" ({rate / off_rate:.1f}x the official {off_rate:.0f}/s)" if off_rate else ""
        print(f"\n[{rule}] {expr}  vs official {col}: {sum(agree.values())}/{n} agree"
              f"  ({', '.join(f'{b} {agree[b]}/{total[b]}' for b in sorted(total))}); "
              f"{secs:.2f} s, {rate:.0f} triples/s{vs}, {mode}")
        # A prediction the official run's SQLite (3.40.1) rejects but sqlsim runs, through a function
        # it adds from newer SQLite (concat, string_agg, ...): the disagreement is the SQLite version,
        # not the rule. Told apart by the official status and sqlsim's reason; listed, not a failure.
        paths = {i: (db, g, p) for i, db, g, p, _ in trip}
        newer, dis_rest = [], []
        for d in dis:
            r = d[0]
            db, g, p = paths[int(next(i for i, rr in by_i.items() if rr is r))]
            why = con.execute("SELECT exec_match_reason(?, ?, ?, '{\"semantics\": \"bird\"}')",
                              [db, g, p]).fetchone()[0] if r["status"] == "pred_error" else ""
            (newer if why and "pred error" not in why else dis_rest).append(d)
        if newer:
            print(f"  explained: {len(newer)} where the official SQLite 3.40.1 rejects the prediction "
                  f"and sqlsim runs it with a function of newer SQLite it adds (e.g. concat, 3.44)")
        # Soft-F1 compares the distinct rows pairwise in the order the official code lists them, which
        # follows the order SQLite returns them in; without ORDER BY that order is the plan's, and the
        # engine's SQLite (3.50) plans some joins differently from the official run's 3.40.1. A pair
        # whose gold and prediction give the same distinct rows (run here on Python's sqlite3) and that
        # sqlsim scores 1.0 differs by row order only: listed, not a failure.
        order = [d for d in dis_rest if d[2] == 1.0 and same_rows(*paths[
            int(next(i for i, rr in by_i.items() if rr is d[0]))])] if rule == "soft_f1" else []
        if order:
            print(f"  explained: {len(order)} whose gold and prediction give the same distinct rows, "
                  f"in an order that differs between the official SQLite 3.40.1 and sqlsim's engine")
        dis = [d for d in dis_rest if not any(d is o for o in order)]
        kinds = Counter((str(w), str(h if not isinstance(h, tuple) else "error")) for _, w, h in dis)
        if dis:
            print("  disagreements (official -> sqlsim): " + ", ".join(f"{w}->{h}: {c}" for (w, h), c in kinds.most_common()))
        for r, want, have in dis[: a.show]:
            p = pairs[(r["set"], r["pair_id"])]
            print(f"  {r['set']}#{r['pair_id']} {r['db_id']}_{r['k']} [{r['status']}] official={want} sqlsim={have}")
            print(f"    gold: {p['gold'][:200]}")
            print(f"    pred: {p['pred'][:200]}")
        failed = failed or bool(dis)
        report[rule] = dict(agree=dict(agree), total=dict(total), seconds=secs, per_s=rate)
    if a.ves:
        ves_noise(con, trip, a.ves)
    if official:
        print("\nofficial code (from the fixture header): " + "; ".join(f"{k[len('official_throughput_'):]}: {v}" for k, v in official.items()))
    if tmp:
        tmp.cleanup()
    if a.check and failed:
        print("\ncheck failed: a rule disagrees with the official verdicts or is unavailable")
        sys.exit(1)
    return report


def ves_noise(con, trip, n):
    """bird_ves twice (official 100 repeats) over n BIRD triples whose BIRD EX is 1."""
    picked = [(i, db, g, p) for i, db, g, p, r in trip
              if r["k"] != "all" and r["bench"] == "bird" and r["bird_ex"] == "1"][:n]
    runs = []
    for _ in range(2):
        t0 = time.perf_counter()
        runs.append([con.execute("SELECT bird_ves(?, ?, ?)", [db, g, p]).fetchone()[0]
                     for _, db, g, p in picked])
        secs = time.perf_counter() - t0
        print(f"\n[ves] {len(picked)} triples in {secs:.1f} s; R-VES = "
              f"{100 * sum(math.sqrt(v) for v in runs[-1]) / max(1, len(picked)):.2f}; rewards "
              f"{dict(sorted(Counter(runs[-1]).items()))}")
    changed = sum(1 for a, b in zip(*runs) if a != b)
    print(f"[ves] reward changed between the two runs on {changed}/{len(picked)} triples")


if __name__ == "__main__":
    main()
