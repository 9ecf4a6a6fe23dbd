#!/usr/bin/env python3
"""Plan fidelity and coverage of `sql_plan` on the labeled pair sets of ../shared/data.

Usage (after `make`): .venv/bin/python scripts/eval/plan_fidelity.py [--sets a,b] [--examples N]

Coverage: for every gold and predicted query, whether SQLite accepts it against the pair's schema
(prepared in an in-memory SQLite holding that schema's tables) and whether sqlsim plans it
(`sql_plan_error(sql, schema)` is NULL); unsupported constructs are listed by message.

Fidelity: ../shared/data/rel/*.rel.jsonl.gz holds Calcite's optimized RelNode JSON for the same
queries. The operator skeleton (operator kinds and tree shape) of ours is compared with Calcite's,
after mapping physical names to logical ones (HashJoin/NestedLoopJoin -> Join, HashAggregate ->
Aggregate, a Limit over a Sort -> one Sort, a lone Limit -> Sort). Reported: exact skeleton
agreement, agreement ignoring Project nodes (Calcite adds Projects for implicit CASTs), agreement
ignoring Projects and the order of join/union/intersect inputs, and the most frequent differences as
multisets of operator kinds.
"""

import argparse
import collections
import gzip
import json
import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common import DATA, connect_duckdb, pair_schema  # noqa: E402

SETS = [
    "spiderdk_pair_dev.nooverlap",
    "wikisql_pair_dev",
    "spider_dev_llm_gpt4.nooverlap",
    "spider_dev_llm_gpt3.5.nooverlap",
    "spider_dev_llm_codellama_7b.nooverlap",
]
KIND = {"HashJoin": "Join", "NestedLoopJoin": "Join", "HashAggregate": "Aggregate"}


def calcite_skeleton(text):
    try:
        j = json.loads(text)
    except (TypeError, ValueError):
        return None
    if not isinstance(j, dict) or "rels" not in j:
        return None
    rels = {r["id"]: r for r in j["rels"]}

    def rec(i):
        r = rels[i]
        op = KIND.get(r["operator"], r["operator"])
        kids = [rec(c) for c in r.get("inputs", [])]
        if op == "Limit":
            if len(kids) == 1 and kids[0][0] == "Sort":
                return kids[0]
            op = "Sort"
        return (op, tuple(kids))

    return rec(j["rels"][-1]["id"])


def our_skeleton(text):
    """Skeleton of sql_plan's text: top-level operator lines (subquery plans inside expressions,
    between braces, are skipped), nested by two-space indentation."""
    nodes = []
    depth_braces = 0
    for line in text.splitlines():
        stripped = line.strip()
        if depth_braces == 0 and stripped.startswith("Logical"):
            indent = (len(line) - len(line.lstrip(" "))) // 2
            nodes.append((indent, stripped[len("Logical"):].split("(", 1)[0]))
        depth_braces += line.count("{") - line.count("}")

    def build(i, indent):
        kind = nodes[i][1]
        kids = []
        j = i + 1
        while j < len(nodes) and nodes[j][0] > indent:
            if nodes[j][0] == indent + 1:
                child, j = build(j, indent + 1)
                kids.append(child)
            else:
                j += 1
        return (kind, tuple(kids)), j

    return build(0, 0)[0] if nodes else None


def without_projects(s):
    kind, kids = s
    kids = tuple(without_projects(k) for k in kids)
    if kind == "Project" and len(kids) == 1:
        return kids[0]
    return (kind, kids)


def unordered(s):
    """The skeleton with the inputs of joins, unions and intersections sorted (input order is a
    choice: we order inner joins canonically, Calcite keeps the written order)."""
    kind, kids = s
    kids = tuple(unordered(k) for k in kids)
    if kind in ("Join", "Union", "Intersect"):
        kids = tuple(sorted(kids, key=render))
    return (kind, kids)


def kinds(s, out=None):
    out = collections.Counter() if out is None else out
    out[s[0]] += 1
    for k in s[1]:
        kinds(k, out)
    return out


def render(s):
    kind, kids = s
    return kind + ("(" + ",".join(render(k) for k in kids) + ")" if kids else "")


def sqlite_accepts(sql, schema, cache):
    """True/False when SQLite (in memory, with the schema's tables) prepares `sql`; None when the
    schema is unknown."""
    if schema is None:
        return None
    con = cache.get(schema)
    if con is None:
        con = sqlite3.connect(":memory:")
        for ddl in schema_ddl(schema):
            try:
                con.execute(ddl)
            except sqlite3.Error:
                pass
        cache[schema] = con
    try:
        con.execute("EXPLAIN " + sql)
        return True
    except (sqlite3.Error, sqlite3.Warning, ValueError):
        return False


def schema_ddl(schema):
    if schema.lstrip().startswith("{"):
        e = json.loads(schema)
        q = lambda n: '"' + n.replace('"', '""') + '"'
        cols = collections.defaultdict(list)
        for (t, c), ty in zip(e["column_names_original"], e["column_types"]):
            if t >= 0:
                cols[t].append(f"{q(c)} {'TEXT' if ty == 'text' else 'NUMERIC'}")
        return [f"CREATE TABLE {q(n)} ({', '.join(cols[i])})" for i, n in enumerate(e["table_names_original"]) if cols[i]]
    return [schema]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--examples", type=int, default=2)
    ap.add_argument("--data", default=None, help="shared data folder (default $SQLSIM_DATA or ../shared/data)")
    ap.add_argument("--floor", type=float, default=None,
                    help="exit 1 when the share of SQLite-accepted queries that plan is below this")
    args = ap.parse_args()
    global DATA
    if args.data:
        DATA = Path(args.data)
    con = connect_duckdb()
    lite = {}
    total = collections.Counter()
    for name in args.sets.split(","):
        rows = {json.loads(l)["id"]: json.loads(l) for l in open(DATA / f"{name}.jsonl")}
        rels = {}
        rel_path = DATA / "rel" / f"{name}.rel.jsonl.gz"
        if rel_path.exists():
            for l in gzip.open(rel_path, "rt"):
                r = json.loads(l)
                rels[r["id"]] = r
        c = collections.Counter()
        errors = collections.Counter()
        diffs = collections.Counter()
        examples = collections.defaultdict(list)
        for rid, row in rows.items():
            schema = pair_schema(row, DATA)
            for side in ("gold", "pred"):
                sql = row.get(side)
                if not sql:
                    continue
                plan, err = con.execute("SELECT sql_plan(?, ?), sql_plan_error(?, ?)", [sql, schema, sql, schema]).fetchone()
                accepted = sqlite_accepts(sql, schema, lite)
                c["queries"] += 1
                c["planned"] += err is None
                if accepted:
                    c["sqlite_ok"] += 1
                    c["planned_of_sqlite_ok"] += err is None
                    if err is not None:
                        errors[err.split(":")[0][:60]] += 1
                ref = calcite_skeleton(rels.get(rid, {}).get(f"{side}_rel"))
                if ref is None or plan is None:
                    continue
                ours = our_skeleton(plan)
                c["compared"] += 1
                c["same"] += ours == ref
                same_np = without_projects(ours) == without_projects(ref)
                c["same_without_projects"] += same_np
                c["same_unordered"] += unordered(without_projects(ours)) == unordered(without_projects(ref))
                if not same_np:
                    ko, kr = kinds(without_projects(ours)), kinds(without_projects(ref))
                    d = [f"+{k}" for k in sorted((ko - kr).elements())] + [f"-{k}" for k in sorted((kr - ko).elements())]
                    key = " ".join(d) if d else "same kinds, other shape"
                    diffs[key] += 1
                    if len(examples[key]) < args.examples:
                        examples[key].append((sql, render(without_projects(ours)), render(without_projects(ref))))
        total.update(c)
        pct = lambda a, b: f"{100.0 * c[a] / c[b]:.1f}%" if c[b] else "n/a"
        print(f"\n== {name}: {c['queries']} queries; planned {pct('planned', 'queries')}; "
              f"of the {c['sqlite_ok']} SQLite accepts: {pct('planned_of_sqlite_ok', 'sqlite_ok')}")
        print(f"   skeleton vs Calcite on {c['compared']} queries: exact {pct('same', 'compared')}, "
              f"ignoring Projects {pct('same_without_projects', 'compared')}, "
              f"and join input order {pct('same_unordered', 'compared')}")
        for e, n in errors.most_common(8):
            print(f"   unsupported x{n}: {e}")
        for key, n in diffs.most_common(8):
            print(f"   diff x{n}: (+ ours, - Calcite) {key}")
            for sql, o, r in examples[key]:
                print(f"      {' '.join(sql.split())[:150]}\n        ours    {o}\n        calcite {r}")
    c = total
    pct = lambda a, b: f"{100.0 * c[a] / c[b]:.1f}%" if c[b] else "n/a"
    print(f"\n== all sets: planned {pct('planned', 'queries')} of {c['queries']}; of SQLite-accepted "
          f"{pct('planned_of_sqlite_ok', 'sqlite_ok')} of {c['sqlite_ok']}; skeleton exact {pct('same', 'compared')}, "
          f"ignoring Projects {pct('same_without_projects', 'compared')}, and join input order "
          f"{pct('same_unordered', 'compared')} of {c['compared']}")
    if args.floor is not None and c["sqlite_ok"]:
        share = c["planned_of_sqlite_ok"] / c["sqlite_ok"]
        if share < args.floor:
            print(f"plan_fidelity.py: coverage {share:.4f} is below the floor {args.floor}", file=sys.stderr)
            sys.exit(1)
        print(f"coverage floor {args.floor}: met ({share:.4f})")


if __name__ == "__main__":
    main()
