"""Structural rewrites of a query spec: the same question asked with another query shape.

The surface styles of queries.py keep a query's shape (same joins, same subqueries). LLM
predictions often change the shape instead: a JOIN written as an IN subquery, INTERSECT as IN,
EXCEPT as NOT IN, UNION as OR, NOT IN as LEFT JOIN ... IS NULL or NOT EXISTS, COUNT(*) as
COUNT(key), MAX(x) as ORDER BY x LIMIT 1, the select columns in another order. Validation error analysis (models/README.md) showed that the shipped
models score these pairs as non-equivalent, because the generator never produced them.

`structural(schema, spec, rng)` returns (new_spec, kind) or None. Most kinds are equivalences
only under conditions (a JOIN is an IN subquery only when the join does not duplicate rows), so
their labels are left to `sql_equivalent` (dataset.py), which turns a duplicate-making rewrite
into a negative. The kinds in CONVENTION are equivalent under the labelling convention of the
public sets (test-suite execution: columns compared as a set, key columns without NULLs), while
`sql_equivalent` compares ordered columns and also tries NULLs; their positives are kept.
"""

import copy

SIMPLE = ("cmp", "like", "in", "between")
# equivalent under the public sets' convention, not under sql_equivalent's (see module doc)
CONVENTION = {"select_permute", "except_notin", "anti_join", "max_orderby"}


def _refs(x, out):
    """Every (table, column) reference in a spec fragment (subquery specs included)."""
    if isinstance(x, (list, tuple)):
        if len(x) == 2 and all(isinstance(y, str) for y in x):
            out.add(tuple(x))
        for y in x:
            _refs(y, out)
    elif isinstance(x, dict):
        for y in x.values():
            _refs(y, out)
    return out


def _outer_tables(spec):
    """Tables referenced by the select, group, order and having of spec."""
    return {t for t, _ in _refs([spec["select"], spec["group"], spec["order"], spec["having"]], set())}


def semi_join(spec):
    """a JOIN b ON a.x = b.y WHERE p(a) AND q(b)  ->  a WHERE p(a) AND a.x IN (SELECT b.y FROM b WHERE q(b))."""
    frm = spec["from"]
    if len(frm) != 3 or spec["setop"]:
        return None
    a, b, (ca, cb) = frm
    outer = _outer_tables(spec)
    if outer and not outer - {b}:  # everything read from the second table: keep that one outside
        a, b, ca, cb = b, a, cb, ca
    if outer - {a}:
        return None
    mine, theirs = [], []
    for c in spec["where"]:
        if "c" not in c:
            return None
        if c["c"][0] == a:
            mine.append(c)
        elif c["k"] in SIMPLE:
            theirs.append(c)
        else:
            return None
    s = copy.deepcopy(spec)
    s["from"] = [a]
    sub = {"from": [b], "select": [(None, (b, cb))], "where": copy.deepcopy(theirs)}
    s["where"] = copy.deepcopy(mine) + [{"k": "insub", "c": (a, ca), "sub": sub, "neg": False}]
    return s


def in_to_join(spec, rng):
    """a WHERE a.x IN (SELECT b.y FROM b WHERE q(b))  ->  a JOIN b ON a.x = b.y WHERE q(b): the reverse
    of semi_join, from either end of the foreign key, so that the JOIN repeats rows when b is the
    referencing table (sql_equivalent then finds the counterexample and the pair is a negative)."""
    if len(spec["from"]) != 1 or spec["setop"]:
        return None
    cands = [c for c in spec["where"] if c["k"] == "insub" and not c["neg"]
             and len(c["sub"]["from"]) == 1 and c["sub"]["from"][0] != spec["from"][0]
             and all(x["k"] in SIMPLE for x in c["sub"]["where"])]
    if not cands:
        return None
    c = rng.choice(cands)
    a, ca = c["c"]
    b, cb = c["sub"]["select"][0][1]
    s = copy.deepcopy(spec)
    i = spec["where"].index(c)
    s["where"] = s["where"][:i] + copy.deepcopy(c["sub"]["where"]) + s["where"][i + 1:]
    s["from"] = [a, b, (ca, cb)]
    return s


def count_key(spec):
    """COUNT(*) -> COUNT(join key) over an inner join: every joined row has both keys non-NULL."""
    if len(spec["from"]) != 3:
        return None
    a, _, (ca, _) = spec["from"]
    key = (a, ca)
    star = ("COUNT", None)
    if star not in spec["select"] and not (spec["having"] and spec["having"][1] is None):
        return None
    s = copy.deepcopy(spec)
    s["select"] = [(("COUNT", key) if it == star else it) for it in s["select"]]
    s["order"] = [((("COUNT", key) if it == star else it), d) for it, d in s["order"]]
    if s["having"] and s["having"][1] is None:
        s["having"] = (s["having"][0], key) + tuple(s["having"][2:])
    return s


def setop_to_filter(spec):
    """INTERSECT -> DISTINCT + IN, EXCEPT -> DISTINCT + NOT IN, UNION -> DISTINCT + OR (same FROM)."""
    if not spec["setop"] or spec["order"] or spec["limit"] is not None or len(spec["select"]) != 1:
        return None
    op, other = spec["setop"]
    if op not in ("UNION", "INTERSECT", "EXCEPT") or other["from"] != spec["from"]:
        return None
    col = spec["select"][0][1]
    s = copy.deepcopy(spec)
    s["setop"] = None
    s["distinct"] = True
    if op == "UNION":
        if not s["where"] or not other["where"]:
            return None
        s["where"] = [{"k": "or", "items": [s["where"], copy.deepcopy(other["where"])]}]
        return s, "union_or"
    sub = {"from": list(other["from"]), "select": [(None, col)], "where": copy.deepcopy(other["where"])}
    s["where"] = s["where"] + [{"k": "insub", "c": col, "sub": sub, "neg": op == "EXCEPT", "noexists": True}]
    return s, ("intersect_in" if op == "INTERSECT" else "except_notin")


def anti_join(spec, rng):
    """x NOT IN (SELECT y FROM b)  ->  LEFT JOIN b ON x = b.y WHERE b.y IS NULL, or NOT EXISTS."""
    if len(spec["from"]) != 1 or spec["setop"]:
        return None
    cands = [c for c in spec["where"] if c["k"] == "insub" and c["neg"]]
    if not cands:
        return None
    c = rng.choice(cands)
    s = copy.deepcopy(spec)
    i = spec["where"].index(c)
    b, cb = c["sub"]["select"][0][1]
    a, ca = c["c"]
    if rng.random() < 0.35 or b == a or c["sub"]["where"]:
        s["where"][i]["form"] = "exists"
        return s
    s["from"] = [a, b, (ca, cb), "LEFT"]
    s["where"][i] = {"k": "null", "c": (b, cb)}
    return s


def max_orderby(spec):
    """SELECT MAX(x) ... -> SELECT x ... ORDER BY x DESC LIMIT 1 (the same value; no row instead of a
    NULL row when nothing matches, which sql_equivalent counts and test-suite databases rarely show)."""
    if len(spec["select"]) != 1 or spec["select"][0][0] not in ("MAX", "MIN") or spec["group"] or spec["setop"] \
            or spec["order"] or spec["limit"] is not None:
        return None
    a, ref = spec["select"][0]
    s = copy.deepcopy(spec)
    s["select"] = [(None, ref)]
    s["order"] = [((None, ref), "DESC" if a == "MAX" else "ASC")]
    s["limit"] = 1
    return s


def select_permute(spec):
    if len(spec["select"]) < 2 or spec["setop"]:
        return None
    s = copy.deepcopy(spec)
    s["select"] = s["select"][::-1]
    return s


def structural(schema, spec, rng):
    """(new_spec, kind) for one applicable structural rewrite of spec, or None."""
    opts = []
    if semi_join(spec) is not None:
        opts += ["semi_join"] * 3
    if any(c["k"] == "insub" and not c["neg"] for c in spec["where"]) and len(spec["from"]) == 1:
        opts += ["in_join"] * 3
    if count_key(spec) is not None:
        opts += ["count_key"]
    if setop_to_filter(spec) is not None:
        opts += ["setop"] * 3
    if any(c["k"] == "insub" and c["neg"] for c in spec["where"]) and len(spec["from"]) == 1 and not spec["setop"]:
        opts += ["anti_join"] * 2
    if max_orderby(spec) is not None:
        opts += ["max_orderby"] * 2
    if select_permute(spec) is not None and (opts or rng.random() < 0.2):
        opts += ["select_permute"]
    if not opts:
        return None
    k = rng.choice(opts)
    if k == "semi_join":
        return semi_join(spec), "semi_join"
    if k == "setop":
        return setop_to_filter(spec)
    if k == "anti_join":
        s = anti_join(spec, rng)
        return (s, "anti_join") if s is not None else None
    if k == "in_join":
        s = in_to_join(spec, rng)
        return (s, "in_join") if s is not None else None
    if k == "count_key":
        return count_key(spec), "count_key"
    if k == "max_orderby":
        return max_orderby(spec), "max_orderby"
    return select_permute(spec), "select_permute"
