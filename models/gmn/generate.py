"""Synthetic Spider/BIRD-shaped SQL pairs for training the GMN metrics.

Positives print one query spec (queries.py) under two random surface styles (equivalence-preserving
rewrites) or print it next to a structural rewrite of it (rewrites.py); negatives print a mutated
spec (one realistic mistake), sometimes in another query shape. Everything is driven by one
`random.Random(seed)`, so a seed fixes the whole data set. Labels are then checked with
`sql_equivalent` (dataset.py).
"""

import copy
import random

from models.gmn.queries import AGGS, NEG_OP, Builder, random_style, render
from models.gmn.rewrites import structural

# shares of structural rewrites (rewrites.py) among positives and of mistakes printed in another shape
STRUCTURAL_POS = 0.4
STRUCTURAL_NEG = 0.25
# share of gold queries printed as Calcite SQL (the Spider-Pair gold is Calcite's RelToSql output)
CALCITE_GOLD = 0.35


# ---------------------------------------------------------------- mistakes (negatives)

# near-miss spellings an LLM writes for a literal of the question (validation error analysis)
NEAR = {"France": "French", "USA": "United States", "Male": "M", "F": "Female", "Yes": "Y", "London": "london",
        "New York": "NY", "Engineering": "Engineer", "Math": "Mathematics", "Texas": "TX", "A": "a",
        "active": "Active", "red": "Red", "blue": "Blue", "2010": "2010-01-01", "Paris": "Paris, France"}
SUFFIXES = [" City", " Inc", " Airways", " University", " Street", " Team"]


def near_miss(v, rng):
    """A realistic wrong spelling of string literal v: case, a word more or less, a variant."""
    opts = [v.lower(), v.upper(), v.title(), v + rng.choice(SUFFIXES), v + "s"]
    if len(v) > 3:
        opts.append(v[: len(v) // 2 + 1])
    if " " in v:
        opts.append(v.split(" ")[0])
    if v in NEAR:
        opts += [NEAR[v]] * 3
    opts = [o for o in opts if o != v]
    return rng.choice(opts)


def _text_literals(c):
    if c["k"] == "cmp" and isinstance(c["v"], str):
        return [c["v"]]
    if c["k"] == "in":
        return [v for v in c["vals"] if isinstance(v, str)]
    return []


def _fk_links(schema, t):
    """(column of t, other table, its column) for every FK edge at t."""
    out = []
    for a, ca, b, cb in schema.fks:
        if a == t and b != t:
            out.append((ca, b, cb))
        if b == t and a != t:
            out.append((cb, a, ca))
    return out


def _keyish(schema, t, c):
    """A key-like column: in a foreign key, a primary key, or named like an id or a code."""
    low = c.lower()
    return (any((t, c) in ((a, ca), (b, cb)) for a, ca, b, cb in schema.fks) or c in schema.table(t).pk
            or low.endswith(("id", "code", "_no", "number")))


def _tables(schema, spec):
    frm = spec["from"]
    return [schema.table(t) for t in (frm[:2] if len(frm) >= 3 else frm[:1])]


def mutate(schema, spec, rng):
    """A copy of spec with one realistic mistake, and the mistake's name (None if none applies)."""
    b = Builder(schema, rng)
    s = copy.deepcopy(spec)
    tables = _tables(schema, s)
    ops = []
    if s["where"]:
        ops += ["drop_cond", "flip_cmp", "wrong_col_where", "change_value", "in_notin"]
    if any(_text_literals(c) for c in s["where"]):
        ops += ["near_literal", "near_literal"]
    ops += ["extra_cond", "wrong_col_select", "add_select_col"]
    if len(s["select"]) > 1:
        ops += ["drop_select_col"]
    if any(it[0] in AGGS for it in s["select"]):
        ops += ["swap_agg", "swap_agg"]
    if any(it[0] == "COUNTD" for it in s["select"]):
        ops += ["count_distinct"]
    if len(s["from"]) == 1 and _fk_links(schema, s["from"][0]):
        ops += ["extra_join", "extra_join"]
    if len(s["from"]) == 3:
        ops += ["left_join"]
    if s["group"]:
        ops += ["drop_group", "drop_group"]
        if s["having"]:
            ops += ["having_op"]
    if s["distinct"]:
        ops += ["drop_distinct"]
    elif all(it[0] is None for it in s["select"]):
        ops += ["add_distinct"]
    if s["order"]:
        ops += ["order_dir", "order_dir"]
    if s["limit"] is not None:
        ops += ["limit_change", "drop_limit"]
    if len(s["from"]) >= 3:
        ops += ["wrong_join_key", "drop_join"]
    if s["setop"]:
        ops += ["setop_change", "setop_change"]
    if s["order"] and s["limit"] == 1 and s["order"][0][0][0] is None and not s["group"]:
        ops += ["orderby_to_max"]
    op = rng.choice(ops)
    w = s["where"]
    if op == "drop_cond":
        w.pop(rng.randrange(len(w)))
    elif op == "extra_cond":
        w.append(b.cond(tables, False))
    elif op == "flip_cmp":
        cands = [c for c in w if c["k"] in ("cmp", "scalar")]
        if not cands:
            return None, None
        c = rng.choice(cands)
        c["op"] = rng.choice(NEG_OP[c["op"]])
    elif op == "in_notin":
        cands = [c for c in w if c["k"] in ("in", "insub")]
        if not cands:
            return None, None
        c = rng.choice(cands)
        c["neg"] = not c["neg"]
    elif op == "change_value":
        cands = [c for c in w if c["k"] in ("cmp", "between", "like")]
        if not cands:
            return None, None
        c = rng.choice(cands)
        if c["k"] == "between":
            c["hi"] = c["hi"] + rng.randint(1, 10)
        elif c["k"] == "like":
            c["v"] = c["v"].strip("%")
        else:
            nv = b.value("num" if isinstance(c["v"], int) else "text")
            if nv == c["v"]:
                return None, None
            c["v"] = nv
    elif op == "near_literal":
        c = rng.choice([c for c in w if _text_literals(c)])
        if c["k"] == "in":
            j = rng.randrange(len(c["vals"]))
            c["vals"][j] = near_miss(c["vals"][j], rng)
        else:
            c["v"] = near_miss(c["v"], rng)
    elif op == "add_select_col":
        if s["group"] or s["setop"]:
            return None, None
        if all(it[0] is None for it in s["select"]):
            new = b.pick_col(tables)
            if (None, (new[0], new[1])) in s["select"]:
                return None, None
            s["select"].append((None, (new[0], new[1])))
        else:  # the LLM habit: the grouping key in front of an aggregate, with a GROUP BY it
            if any(it[0] == "SUMCASE" for it in s["select"]):
                return None, None
            new = b.pick_col(tables)
            s["select"].insert(0, (None, (new[0], new[1])))
            s["group"] = [(new[0], new[1])]
    elif op == "drop_select_col":
        s["select"].pop(rng.randrange(len(s["select"])))
        if s["setop"]:
            return None, None
    elif op == "count_distinct":
        i = next(i for i, it in enumerate(s["select"]) if it[0] == "COUNTD")
        s["select"][i] = rng.choice([("COUNT", None), ("COUNTD", b.pick_col(tables)[:2])])
    elif op == "extra_join":
        a = s["from"][0]
        ca, bb, cb = rng.choice(_fk_links(schema, a))
        s["from"] = [a, bb, (ca, cb)]
    elif op == "left_join":
        s["from"] = s["from"] + ["LEFT"]
    elif op in ("wrong_col_where", "wrong_col_select"):
        if op == "wrong_col_where":
            cands = [c for c in w if "c" in c and c["k"] != "null"]
            if not cands:
                return None, None
            c = rng.choice(cands)
            ref = c["c"]
        else:
            items = [it for it in s["select"] if it[0] is not None and it[0] != "SUMCASE" or it[0] is None]
            items = [it for it in items if it[1] is not None and it[0] != "SUMCASE"]
            if not items:
                return None, None
            it = rng.choice(items)
            ref = it[1]
        t = schema.table(ref[0])
        kind = dict(t.cols)[ref[1]]
        others = [(tt.name, cn) for tt in tables for cn, k in tt.cols if k == kind and (tt.name, cn) != tuple(ref)]
        if not others:
            return None, None
        new = rng.choice(others)
        if op == "wrong_col_where":
            c["c"] = new
        else:
            i = s["select"].index(it)
            s["select"][i] = (it[0], new)
            if s["group"] and it[0] is None:
                s["group"] = [new if tuple(g) == tuple(ref) else g for g in s["group"]]
    elif op == "swap_agg":
        i = next(i for i, it in enumerate(s["select"]) if it[0] in AGGS)
        a, ref = s["select"][i]
        if a == "COUNT":
            c = b.pick_col(tables, "num")
            if c is None:
                return None, None
            s["select"][i] = (rng.choice(["SUM", "MAX"]), (c[0], c[1]))
        else:
            s["select"][i] = (rng.choice([x for x in AGGS if x not in (a, "COUNT")]), ref)
        s["order"] = [((s["select"][i] if it == spec["select"][i] else it), d) for it, d in s["order"]]
    elif op == "drop_group":
        s["group"] = []
        s["having"] = None
    elif op == "having_op":
        a, c, o, v = s["having"]
        s["having"] = (a, c, rng.choice(NEG_OP[o]), v)
    elif op == "drop_distinct":
        s["distinct"] = False
    elif op == "add_distinct":
        s["distinct"] = True
    elif op == "order_dir":
        it, d = s["order"][0]
        s["order"][0] = (it, "ASC" if d == "DESC" else "DESC")
    elif op == "limit_change":
        s["limit"] = s["limit"] + rng.choice([1, 2, 4])
    elif op == "drop_limit":
        s["limit"] = None
    elif op == "wrong_join_key":
        a, bb, (ca, cb) = s["from"][:3]
        ta = schema.table(a)
        kind = dict(ta.cols).get(ca)
        others = [cn for cn, k in ta.cols if cn != ca and k == kind]
        keyish = [cn for cn in others if _keyish(schema, a, cn)]
        others = keyish or others or [cn for cn, _ in ta.cols if cn != ca]
        if not others:
            return None, None
        s["from"] = [a, bb, (rng.choice(others), cb)] + s["from"][3:]
    elif op == "drop_join":
        keep = s["from"][0]
        used = set()

        def refs(x):
            if isinstance(x, (list, tuple)):
                if len(x) == 2 and all(isinstance(y, str) for y in x):
                    used.add(x[0])
                for y in x:
                    refs(y)
            elif isinstance(x, dict):
                for y in x.values():
                    refs(y)

        refs([s["select"], s["where"], s["group"], s["order"]])
        if used - {keep}:
            return None, None
        s["from"] = [keep]
    elif op == "setop_change":
        o, other = s["setop"]
        s["setop"] = (rng.choice([x for x in ["UNION", "INTERSECT", "EXCEPT", "UNION ALL"] if x != o]), other)
    elif op == "orderby_to_max":
        (it, d) = s["order"][0]
        ref = it[1]
        s["select"] = [(None, x[1]) if x[0] is None else x for x in s["select"]]
        sub = {"from": [ref[0]], "select": [("MAX" if d == "DESC" else "MIN", ref)], "where": []}
        s["where"] = s["where"] + [{"k": "scalar", "c": ref, "op": "=", "sub": sub}]
        s["order"] = []
        s["limit"] = None
    if s == spec:
        return None, None
    return s, op


# ---------------------------------------------------------------- pairs


def gold_style(rng):
    """How gold queries are printed: Spider's own style (T1/T2 aliases, upper-case table names,
    double-quoted strings), or Calcite's SQL (backticks, EXPR$i aliases), as the Spider-Pair gold is."""
    gs = random_style(rng)
    gs.update(commute=False, shuffle=False, between_expand=False, in_or=False, join_swap=False,
              count_pk=False, exists=False, distinct_group=False, sel_alias=False, num_str=False,
              ident_case=rng.choice(["orig", "orig", "upper_tables"]), dq=rng.random() < 0.3)
    if rng.random() < CALCITE_GOLD:
        # Calcite's printer: table-qualified columns half the time; its LIMIT spelling is applied after
        # labelling (dataset.calcite_fetch), since SQLite, which the labels run on, has no FETCH
        gs.update(calcite=True, upper=True, alias=rng.choice(["none", "table"]), dq=False, ident_case="orig")
    return gs


def make_pair(schema, rng, positive):
    """One (gold, pred, label, kind) over schema, or None when no variant applies."""
    b = Builder(schema, rng)
    spec = b.query()
    gs = gold_style(rng)
    gold = render(schema, spec, gs)
    if positive:
        if rng.random() < STRUCTURAL_POS:
            alt = structural(schema, spec, rng)
            if alt is not None and alt[0] is not None:
                ps = random_style(rng)
                if rng.random() < 0.3 and alt[1] in ("semi_join", "intersect_in", "union_or"):
                    # the gold may be the subquery form and the prediction the JOIN / set operation
                    return render(schema, alt[0], gs), render(schema, spec, ps), 1, alt[1]
                return gold, render(schema, alt[0], ps), 1, alt[1]
        for _ in range(6):
            pred = render(schema, spec, random_style(rng))
            if pred != gold:
                return gold, pred, 1, "rewrite"
        return None
    m, op = mutate(schema, spec, rng)
    if m is None:
        return None
    if rng.random() < STRUCTURAL_NEG:
        # the mistake in another query shape, so that a changed shape alone does not mean "equivalent"
        alt = structural(schema, m, rng)
        if alt is not None and alt[0] is not None:
            return gold, render(schema, alt[0], random_style(rng)), 0, op
    style = random_style(rng) if rng.random() < 0.6 else dict(gs, calcite=False)
    return gold, render(schema, m, style), 0, op


def generate(schemas, n, seed, pos_frac=0.5):
    """n synthetic pairs (dicts) spread over schemas, deterministic in seed."""
    rng = random.Random(seed)
    out = []
    tries = 0
    while len(out) < n and tries < n * 20:
        tries += 1
        s = schemas[rng.randrange(len(schemas))]
        try:
            p = make_pair(s, rng, rng.random() < pos_frac)
        except (KeyError, IndexError, ValueError):
            p = None
        if p is None:
            continue
        gold, pred, label, kind = p
        out.append({"id": "syn%d" % len(out), "source": "synthetic_" + s.source, "db_id": s.db_id,
                    "gold": gold, "pred": pred, "label": label, "kind": kind})
    return out
