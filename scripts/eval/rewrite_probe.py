#!/usr/bin/env python3
"""Equivalent rewrites of the Spider dev gold queries, the shapes LLMs give when asked for an
equivalent query, and what the structural scores and the verdict make of them.

Usage (project venv with the bench stack, `make eval-rewrites`):

    .venv/bin/python scripts/eval/rewrite_probe.py --data ../shared/data [--out rewrites.jsonl]

Each rewrite is made with sqlglot (read and printed as SQLite) and keeps the query's meaning:

- `cte_wrap`: `WITH q AS (gold) SELECT * FROM q`; `derived`: `SELECT * FROM (gold) AS sub`
  (both for gold without ORDER BY or LIMIT, whose order a wrapper need not keep);
- `comma_join`: `FROM a JOIN b ON c` as `FROM a, b WHERE c`; `count_one`: `COUNT(1)` for
  `COUNT(*)`; `in_to_exists`: `x [NOT] IN (SELECT y FROM b ...)` as a correlated `[NOT] EXISTS`
  (equal where x and y hold no NULL); `between_split`: BETWEEN as `>= AND <=`; `neq_not`: `a != b`
  as `NOT (a = b)`; `alias_outputs`: an alias on every select item; `having_to_derived`: HAVING as
  a WHERE over the grouped query in a derived table.

Every pair is scored in DuckDB with its Spider schema (`sql_similarity_components`, default
options), and the script prints, per kind, the verdicts and the mean and 10th percentile of
`gmn_similarity` and `hybrid_gmn_similarity` over the pairs found equivalent: an equivalent
rewrite should score near 1. Validation use only (Spider dev): nothing is trained or selected on
these pairs. sqlglot is the reference stack's (requirements-bench.txt), not a dependency of sqlsim.
"""

import argparse
import json
import statistics
import sys
from collections import Counter, defaultdict
from pathlib import Path

import sqlglot
from sqlglot import exp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common import pair_schema  # noqa: E402
from common import connect_duckdb  # noqa: E402


def unordered_select(t):
    return isinstance(t, exp.Select) and not (t.args.get("with") or t.args.get("order") or t.args.get("limit"))


def cte_wrap(t):
    """WITH q AS (gold) SELECT * FROM q, for gold without WITH, ORDER BY or LIMIT."""
    if not unordered_select(t):
        return None
    return sqlglot.parse_one(f"WITH q AS ({t.sql('sqlite')}) SELECT * FROM q", read="sqlite")


def derived(t):
    """SELECT * FROM (gold) AS sub, for gold without WITH, ORDER BY or LIMIT."""
    if not unordered_select(t):
        return None
    return sqlglot.parse_one(f"SELECT * FROM ({t.sql('sqlite')}) AS sub", read="sqlite")


def comma_join(t):
    """FROM a JOIN b ON c  ->  FROM a, b WHERE c (outer query only, inner joins only)."""
    if not isinstance(t, exp.Select):
        return None
    joins = t.args.get("joins") or []
    if not joins or any(j.side or (j.kind and j.kind.upper() not in ("INNER",)) for j in joins):
        return None
    if any(not j.args.get("on") for j in joins):
        return None
    t = t.copy()
    conds = []
    for j in t.args["joins"]:
        conds.append(j.args["on"].copy())
        j.set("on", None)
        j.set("kind", None)
    # the conditions move to WHERE, then "JOIN x" is printed ", x"
    t2 = t.copy()
    where = t2.args.get("where")
    cond = conds[0]
    for c in conds[1:]:
        cond = exp.and_(cond, c)
    if where:
        cond = exp.and_(cond, exp.Paren(this=where.this.copy()))
    t2.set("where", exp.Where(this=cond))
    sql = t2.sql("sqlite")
    sql = sql.replace(" JOIN ", ", ").replace(" CROSS , ", ", ")
    return sqlglot.parse_one(sql, read="sqlite")


def replace_each(t, kind, replacement):
    """A copy of `t` with every node of `kind` for which `replacement(node)` gives a node replaced
    by it, or None when none was."""
    t = t.copy()
    hit = False
    for node in list(t.find_all(kind)):
        new = replacement(node)
        if new is not None:
            node.replace(new)
            hit = True
    return t if hit else None


def count_one(t):
    """COUNT(1) for COUNT(*)."""
    return replace_each(t, exp.Count, lambda c: exp.Count(this=exp.Literal.number(1))
                        if isinstance(c.this, exp.Star) else None)


def in_to_exists(t):
    """outer.col IN (SELECT y FROM b [WHERE ...])  ->  EXISTS (SELECT 1 FROM b WHERE ... AND b.y = outer.col)."""
    t = t.copy()
    hit = False
    for node in list(t.find_all(exp.In)):
        q = node.args.get("query")
        if not q:
            continue
        sub = q.this if isinstance(q, exp.Subquery) else q
        if not isinstance(sub, exp.Select) or sub.args.get("group") or sub.args.get("limit") or len(sub.expressions) != 1:
            continue
        if sub.args.get("joins") or any(isinstance(x, exp.AggFunc) for x in sub.expressions[0].find_all(exp.AggFunc)):
            continue
        col = sub.expressions[0]
        if not isinstance(col, exp.Column):
            continue
        frm = sub.args["from_"].this
        if not isinstance(frm, exp.Table):
            continue
        outer = node.this
        if not isinstance(outer, exp.Column):
            continue
        alias = "ex_" + frm.name
        new_sub = sub.copy()
        new_sub.args["from_"].this.set("alias", exp.TableAlias(this=exp.to_identifier(alias)))
        for c in new_sub.find_all(exp.Column):
            c.set("table", exp.to_identifier(alias))
        inner_col = exp.column(col.name, alias)
        # qualify the outer column if unqualified: use outer FROM table
        if not outer.table:
            ofrm = t.args.get("from_")
            if not ofrm or not isinstance(ofrm.this, exp.Table) or t.args.get("joins"):
                continue
            o = ofrm.this
            outer = exp.column(outer.name, o.alias_or_name)
        cond = exp.EQ(this=inner_col, expression=outer.copy())
        w = new_sub.args.get("where")
        new_sub.set("where", exp.Where(this=exp.and_(w.this, cond) if w else cond))
        new_sub.set("expressions", [exp.Literal.number(1)])
        ex = exp.Exists(this=new_sub)
        node.replace(ex)
        hit = True
    return t if hit else None


def between_split(t):
    """x BETWEEN a AND b as (x >= a AND x <= b)."""
    return replace_each(t, exp.Between, lambda b: exp.Paren(this=exp.and_(
        exp.GTE(this=b.this.copy(), expression=b.args["low"].copy()),
        exp.LTE(this=b.this.copy(), expression=b.args["high"].copy()))))


def neq_not(t):
    """a != b as NOT (a = b)."""
    return replace_each(t, exp.NEQ, lambda n: exp.Not(this=exp.Paren(
        this=exp.EQ(this=n.this.copy(), expression=n.expression.copy()))))


def alias_outputs(t):
    if not isinstance(t, exp.Select):
        return None
    t = t.copy()
    hit = False
    new = []
    for i, e in enumerate(t.expressions):
        if isinstance(e, exp.Alias) or isinstance(e, exp.Star):
            new.append(e)
            continue
        new.append(exp.alias_(e, f"out_{i}"))
        hit = True
    t.set("expressions", new)
    return t if hit else None


def having_to_derived(t):
    """SELECT k, agg FROM ... GROUP BY k HAVING cond  ->  SELECT k, agg FROM (SELECT k, agg, count(*) AS cnt ...) WHERE ..."""
    if not isinstance(t, exp.Select) or not t.args.get("having") or t.args.get("order") or t.args.get("limit"):
        return None
    if t.args.get("with"):
        return None
    h = t.args["having"].this
    inner = t.copy()
    inner.set("having", None)
    outs = []
    for i, e in enumerate(inner.expressions):
        if isinstance(e, exp.Star):
            return None
        outs.append(f"c{i}")
    hexpr_aggs = list(h.find_all(exp.AggFunc))
    if not hexpr_aggs:
        return None
    exprs = [exp.alias_(e.unalias().copy() if isinstance(e, exp.Alias) else e.copy(), f"c{i}") for i, e in enumerate(inner.expressions)]
    h2 = h.copy()
    extra = []
    for j, a in enumerate(list(h2.find_all(exp.AggFunc))):
        extra.append(exp.alias_(a.copy(), f"h{j}"))
        a.replace(exp.column(f"h{j}"))
    inner.set("expressions", exprs + extra)
    outer_cols = ", ".join(outs)
    return sqlglot.parse_one(f"SELECT {outer_cols} FROM ({inner.sql('sqlite')}) AS g WHERE {h2.sql('sqlite')}", read="sqlite")


REWRITES = [cte_wrap, derived, comma_join, count_one, in_to_exists, between_split, neq_not, alias_outputs,
            having_to_derived]


def rewrites(data):
    """(id, db_id, kind, gold, pred) for every rewrite that applies to a Spider dev gold query,
    each (gold, pred) once."""
    seen = set()
    for line in open(data / "spider" / "dev_gold.jsonl"):
        g = json.loads(line)
        try:
            tree = sqlglot.parse_one(g["query"], read="sqlite")
        except sqlglot.errors.SqlglotError:
            continue
        for rewrite in REWRITES:
            try:
                new = rewrite(tree)
            except sqlglot.errors.SqlglotError:
                continue
            if new is None:
                continue
            pred = new.sql("sqlite")
            if (g["query"], pred) in seen:
                continue
            seen.add((g["query"], pred))
            yield {"id": f"{g['idx']}-{rewrite.__name__}", "db_id": g["db_id"], "kind": rewrite.__name__,
                   "gold": g["query"], "pred": pred}


def tenth(xs):
    return sorted(xs)[len(xs) // 10]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=Path("../shared/data"))
    ap.add_argument("--out", type=Path, help="write every pair with its components as JSON lines")
    args = ap.parse_args()
    pairs = list(rewrites(args.data))
    con = connect_duckdb()
    con.execute("CREATE TABLE p(id VARCHAR, gold VARCHAR, pred VARCHAR, sch VARCHAR)")
    con.executemany("INSERT INTO p VALUES (?, ?, ?, ?)",
                    [(r["id"], r["gold"], r["pred"], pair_schema(r, args.data)) for r in pairs])
    scored = dict(con.execute("SELECT id, sql_similarity_components(gold, pred, sch) FROM p").fetchall())
    verdicts = defaultdict(Counter)
    equivalent = defaultdict(list)
    for r in pairs:
        comp = json.loads(scored[r["id"]]) if scored[r["id"]] else {}
        r["components"] = comp
        verdict = {1: "equivalent", 0: "different"}.get(comp.get("verdict"), "no verdict")
        verdicts[r["kind"]][verdict] += 1
        parts = comp.get("components") or {}
        if comp.get("verdict") == 1 and None not in (parts.get("gmn_similarity"), parts.get("hybrid_gmn_similarity")):
            equivalent[r["kind"]].append((parts["gmn_similarity"], parts["hybrid_gmn_similarity"]))
    print(f"{'kind':18} {'pairs':>5} {'equiv':>5} {'diff':>5} {'none':>5}   gmn mean / p10   hybrid mean / p10")
    for rewrite in REWRITES:
        kind = rewrite.__name__
        v = verdicts[kind]
        scores = equivalent[kind]
        if not scores:
            continue
        g = [s[0] for s in scores]
        h = [s[1] for s in scores]
        print(f"{kind:18} {sum(v.values()):5} {v['equivalent']:5} {v['different']:5} {v['no verdict']:5}"
              f"   {statistics.mean(g):.3f} / {tenth(g):.3f}    {statistics.mean(h):.3f} / {tenth(h):.3f}")
    if args.out:
        with open(args.out, "w") as f:
            for r in pairs:
                f.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    main()
