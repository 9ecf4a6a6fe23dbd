"""Query specs over one schema and their rendering to SQL under random surface styles.

A query is a small spec (dict) over one schema (`Builder.query`); `render` prints it under a random surface
style (aliases, operand order, BETWEEN vs >= AND <=, IN list vs OR chain, join order, IN
subquery vs EXISTS, DISTINCT vs GROUP BY, COUNT(*) vs COUNT(pk), keyword and identifier case,
double-quoted strings, LLM-style output names with ORDER BY by name, numbers written as strings,
and Calcite's printing: backticks and `EXPR$i` names). Specs may also hold OR groups, IS NULL
tests and LEFT JOINs (written by rewrites.py). generate.py builds the training pairs from these.
"""

import copy
import random
import re

KEYWORDS = {
    "order", "group", "select", "from", "where", "table", "by", "limit", "join", "on", "as",
    "and", "or", "not", "in", "is", "null", "like", "between", "case", "when", "then", "else",
    "end", "union", "intersect", "except", "distinct", "having", "values", "index", "key",
    "primary", "foreign", "references", "default", "check", "desc", "asc", "all", "exists",
    "left", "right", "inner", "outer", "cross", "natural", "using", "to", "into", "set", "with",
    "date", "time", "year", "month", "day", "count", "sum", "max", "min", "avg", "end", "match",
}
WORDS = ["USA", "France", "John", "Smith", "red", "New York", "Male", "F", "A", "Yes", "active",
         "London", "2010", "Engineering", "Math", "Boston", "Texas", "blue", "Mary", "Paris"]
AGGS = ["COUNT", "MAX", "MIN", "SUM", "AVG"]
FLIP = {">": "<", "<": ">", ">=": "<=", "<=": ">=", "=": "=", "!=": "!="}
NEG_OP = {">": ["<", ">=", "<="], "<": [">", "<=", ">="], ">=": [">", "<"], "<=": ["<", ">"],
          "=": ["!=", ">", "<"], "!=": ["="]}


def q(name):
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) and name.lower() not in KEYWORDS:
        return name
    return "`" + name.replace("`", "") + "`"


def lit(v, dq=False):
    if isinstance(v, str):
        if dq and '"' not in v:
            return '"' + v + '"'
        return "'" + v.replace("'", "''") + "'"
    return str(v)


# ---------------------------------------------------------------- spec building


class Builder:
    def __init__(self, schema, rng):
        self.s = schema
        self.r = rng

    def pick_col(self, tables, kind=None):
        opts = [(t.name, c, k) for t in tables for c, k in t.cols if kind is None or k == kind]
        return self.r.choice(opts) if opts else None

    def value(self, kind):
        if kind == "num":
            return self.r.choice([self.r.randint(0, 100), self.r.randint(1950, 2020), self.r.randint(1, 10)])
        return self.r.choice(WORDS)

    def cond(self, tables, allow_sub=True):
        r = self.r
        c = self.pick_col(tables)
        ref = (c[0], c[1])
        kinds = ["cmp", "cmp", "cmp", "like", "in", "between"]
        if allow_sub:
            kinds += ["insub", "scalar", "or"]
        k = r.choice(kinds)
        if k == "or":  # two simple conditions, on the same column or not
            return {"k": "or", "items": [[self.cond(tables, False)], [self.cond(tables, False)]]}
        if c[2] == "num":
            if k == "like":
                k = "cmp"
        elif k in ("between", "scalar"):
            k = "cmp"
        if k == "cmp":
            op = r.choice(["=", ">", "<", ">=", "<=", "!="]) if c[2] == "num" else r.choice(["=", "=", "!="])
            return {"k": "cmp", "c": ref, "op": op, "v": self.value(c[2])}
        if k == "like":
            w = self.value("text")
            return {"k": "like", "c": ref, "v": r.choice(["%" + w + "%", w + "%", "%" + w])}
        if k == "in":
            vals = []
            for _ in range(r.randint(2, 3)):
                v = self.value(c[2])
                if v not in vals:
                    vals.append(v)
            return {"k": "in", "c": ref, "vals": vals, "neg": r.random() < 0.2}
        if k == "between":
            a, b = sorted([self.value("num"), self.value("num")])
            return {"k": "between", "c": ref, "lo": a, "hi": b}
        if k == "insub":
            link = self._sub_link(c[0])
            if link is None:
                return {"k": "cmp", "c": ref, "op": "=", "v": self.value(c[2])}
            outer_col, sub_table, sub_col = link
            sub = {"from": [sub_table], "select": [(None, (sub_table, sub_col))],
                   "where": [self.cond([self.s.table(sub_table)], False)] if r.random() < 0.6 else []}
            return {"k": "insub", "c": (c[0], outer_col), "sub": sub, "neg": r.random() < 0.35}
        # scalar subquery: col op (SELECT AGG(col) FROM same table)
        sub = {"from": [c[0]], "select": [(r.choice(["AVG", "MAX", "MIN"]), ref)], "where": []}
        return {"k": "scalar", "c": ref, "op": r.choice([">", "<", "="]), "sub": sub}

    def _sub_link(self, tname):
        opts = []
        for a, ca, b, cb in self.s.fks:
            if a == tname:
                opts.append((ca, b, cb))
            if b == tname:
                opts.append((cb, a, ca))
        return self.r.choice(opts) if opts else None

    def query(self, depth=0):
        r = self.r
        s = self.s
        t0 = r.choice(s.tables)
        frm = [t0.name]
        tables = [t0]
        joins = [f for f in s.fks if t0.name in (f[0], f[2]) and f[0] != f[2]]
        if joins and r.random() < 0.45:
            a, ca, b, cb = r.choice(joins)
            if a == t0.name:
                frm = [a, b, (ca, cb)]
            else:
                frm = [b, a, (cb, ca)]
            tables = [s.table(frm[0]), s.table(frm[1])]
        spec = {"from": frm, "select": [], "where": [], "distinct": False, "group": [], "having": None,
                "order": [], "limit": None, "setop": None}
        shape = r.choice(["plain", "plain", "agg", "group", "group", "order", "setop", "case"])
        nsel = r.randint(1, 2)
        cols = [self.pick_col(tables) for _ in range(nsel)]
        if shape == "agg":
            a = r.choice(AGGS + ["COUNTD"])
            c = self.pick_col(tables, "num") if a not in ("COUNT", "COUNTD") else self.pick_col(tables)
            if a != "COUNT" and c is None:
                a = "COUNT"
            spec["select"] = [("COUNT", None)] if a == "COUNT" else [(a, (c[0], c[1]))]
        elif shape == "group":
            g = cols[0]
            spec["group"] = [(g[0], g[1])]
            a = r.choice(AGGS)
            c = self.pick_col(tables, "num")
            item = ("COUNT", None) if a == "COUNT" or c is None else (a, (c[0], c[1]))
            spec["select"] = [(None, (g[0], g[1])), item]
            if r.random() < 0.35:
                spec["having"] = ("COUNT", None, r.choice([">", ">=", "<"]), r.randint(1, 5))
            if r.random() < 0.3:
                spec["order"] = [(item, r.choice(["DESC", "ASC"]))]
                spec["limit"] = r.choice([1, 1, 3, 5])
        elif shape == "case":
            cd = self.cond(tables, False)
            spec["select"] = [("SUMCASE", cd)]
        else:
            spec["select"] = [(None, (c[0], c[1])) for c in cols]
            spec["distinct"] = r.random() < 0.25
        if shape != "case" or r.random() < 0.5:
            for _ in range(r.choice([0, 1, 1, 1, 2, 2, 3])):
                spec["where"].append(self.cond(tables, depth == 0))
        if shape == "order":
            oc = self.pick_col(tables, "num") or self.pick_col(tables)
            spec["order"] = [((None, (oc[0], oc[1])), r.choice(["DESC", "ASC"]))]
            spec["limit"] = r.choice([None, 1, 1, 3, 5, 10])
        if shape == "setop" and depth == 0:
            sel = [(None, (cols[0][0], cols[0][1]))]
            spec["select"] = sel
            other = copy.deepcopy(spec)
            other["where"] = [self.cond(tables, False)]
            spec["setop"] = (r.choice(["UNION", "INTERSECT", "EXCEPT"]), other)
        return spec


# ---------------------------------------------------------------- rendering


def random_style(rng):
    return {
        "alias": rng.choice(["none", "T", "short", "table"]),
        "ident_case": rng.choice(["orig", "orig", "lower", "lower", "upper_tables"]),
        "dq": rng.random() < 0.15,
        "sel_alias": rng.random() < 0.3,
        "order_alias": rng.random() < 0.7,
        "calcite": False,
        "num_str": rng.random() < 0.1,
        "upper": rng.random() < 0.8,
        "commute": rng.random() < 0.4,
        "shuffle": rng.random() < 0.4,
        "between_expand": rng.random() < 0.4,
        "in_or": rng.random() < 0.3,
        "join_swap": rng.random() < 0.3,
        "on_swap": rng.random() < 0.4,
        "count_pk": rng.random() < 0.2,
        "exists": rng.random() < 0.3,
        "distinct_group": rng.random() < 0.3,
        "asc": rng.random() < 0.3,
        "inner": rng.random() < 0.3,
        "seed": rng.randint(0, 1 << 30),
    }


class Renderer:
    def __init__(self, schema, style):
        self.s = schema
        self.st = style
        self.r = random.Random(style["seed"])

    def kw(self, w):
        return w if self.st["upper"] else w.lower()

    def render(self, spec, aliases=None):
        st = self.st
        frm = spec["from"]
        if aliases is None:
            aliases = {}
            if len(frm) >= 3 or st["alias"] != "none":
                for i, t in enumerate(frm[:2] if len(frm) >= 3 else frm[:1]):
                    if st["alias"] == "T":
                        aliases[t] = "T" + str(i + 1)
                    elif st["alias"] == "short":
                        aliases[t] = ("a", "b")[i]
                    else:
                        aliases[t] = self.qn(t)
        self.al = aliases
        self.qual = len(frm) >= 3 or st["alias"] != "none"
        names = self.out_names(spec["select"])
        sel = ", ".join(self.sel_item(it) + (" " + self.kw("AS ") + names[i] if names[i] else "")
                        for i, it in enumerate(spec["select"]))
        distinct = spec.get("distinct", False)
        group = list(spec.get("group", []))
        if distinct and st["distinct_group"] and not group and all(it[0] is None for it in spec["select"]) \
                and not spec.get("order"):
            distinct = False
            group = [it[1] for it in spec["select"]]
        out = self.kw("SELECT ") + (self.kw("DISTINCT ") if distinct else "") + sel
        out += " " + self.kw("FROM ") + self.from_clause(frm)
        conds = list(spec.get("where", []))
        if st["shuffle"] and len(conds) > 1:
            self.r.shuffle(conds)
        if conds:
            out += " " + self.kw("WHERE ") + (" " + self.kw("AND") + " ").join(self.cond(c) for c in conds)
        if group:
            out += " " + self.kw("GROUP BY ") + ", ".join(self.col(c) for c in group)
        if spec.get("having"):
            a, c, op, v = spec["having"]
            left = self.agg(a, c)
            out += " " + self.kw("HAVING ") + self.cmp(left, op, str(v))
        if spec.get("order"):
            keys = []
            for item, d in spec["order"]:
                e = self.sel_item(item)
                if st.get("order_alias") and item in spec["select"] and names[spec["select"].index(item)]:
                    e = names[spec["select"].index(item)]
                if d == "DESC":
                    keys.append(e + " " + self.kw("DESC"))
                else:
                    keys.append(e + (" " + self.kw("ASC") if st["asc"] else ""))
            out += " " + self.kw("ORDER BY ") + ", ".join(keys)
        if spec.get("limit") is not None:
            out += " " + self.kw("LIMIT ") + str(spec["limit"])
        if spec.get("setop"):
            op, other = spec["setop"]
            sub = Renderer(self.s, dict(st, seed=st["seed"] + 1)).render(other)
            out += " " + self.kw(op) + " " + sub
        return out

    def qn(self, name):
        """An identifier under the style's case and quoting (Calcite: always backticks)."""
        case = self.st.get("ident_case", "orig")
        if case == "lower":
            name = name.lower()
        if self.st.get("calcite"):
            return "`" + name.replace("`", "") + "`"
        return q(name)

    def tname(self, t):
        if self.st.get("ident_case") == "upper_tables":
            return q(t.upper()) if not self.st.get("calcite") else "`" + t.upper() + "`"
        return self.qn(t)

    def out_names(self, items):
        """Output aliases of the select items: Calcite's EXPR$i for computed items, or LLM-style names."""
        out = []
        taken = {c.lower() for t in self.s.tables for c, _ in t.cols}
        for i, (a, ref) in enumerate(items):
            name = None
            if a is not None and self.st.get("calcite"):
                name = "`EXPR$%d`" % i
            elif a is not None and self.st.get("sel_alias"):
                col = "rows" if ref is None or a == "SUMCASE" else re.sub(r"\W+", "_", ref[1]).strip("_").lower()
                base = {"COUNT": "num", "COUNTD": "num", "SUM": "total", "AVG": "avg", "MAX": "max", "MIN": "min",
                        "SUMCASE": "count"}.get(a, "value")
                name = base + "_" + (col or "value")
                while name.lower() in taken or name.lower() in KEYWORDS or name in out:
                    name += "_value"
            out.append(name)
        return out

    def from_clause(self, frm):
        def tref(t):
            a = self.al.get(t)
            if a and a != self.qn(t):
                return self.tname(t) + " " + self.kw("AS ") + a
            return self.tname(t)

        if len(frm) == 1:
            return tref(frm[0])
        a, b, (ca, cb) = frm[:3]
        left_join = len(frm) > 3 and frm[3] == "LEFT"
        left, right = (a, ca), (b, cb)
        if self.st["join_swap"] and not left_join:
            left, right = right, left
        l_on, r_on = self.col(left), self.col(right)
        if self.st["on_swap"]:
            l_on, r_on = r_on, l_on
        j = self.kw("INNER JOIN ") if self.st["inner"] or self.st.get("calcite") else self.kw("JOIN ")
        if left_join:
            j = self.kw("LEFT JOIN ")
        return tref(left[0]) + " " + j + tref(right[0]) + " " + self.kw("ON ") + l_on + " = " + r_on

    def col(self, ref):
        t, c = ref
        if self.qual and t in self.al:
            return self.al[t] + "." + self.qn(c)
        return self.qn(c)

    def agg(self, a, ref):
        if a == "COUNT" and ref is None:
            if self.st["count_pk"] and len(self.s_table_pk()) == 1:
                return self.kw("COUNT") + "(" + self.col((self.cur_table(), self.s_table_pk()[0])) + ")"
            return self.kw("COUNT") + "(*)"
        if a == "COUNTD":
            return self.kw("COUNT") + "(" + self.kw("DISTINCT ") + self.col(ref) + ")"
        return self.kw(a) + "(" + self.col(ref) + ")"

    def cur_table(self):
        return next(iter(self.al)) if self.al else self._first

    def s_table_pk(self):
        try:
            return self.s.table(self.cur_table()).pk
        except KeyError:
            return []

    def sel_item(self, it):
        a, ref = it
        if a is None:
            return self.col(ref)
        if a == "SUMCASE":
            return (self.kw("SUM") + "(" + self.kw("CASE WHEN ") + self.cond(ref) + self.kw(" THEN ") + "1"
                    + self.kw(" ELSE ") + "0" + self.kw(" END") + ")")
        return self.agg(a, ref)

    def cmp(self, left, op, right):
        if self.st["commute"] and self.r.random() < 0.7:
            return right + " " + FLIP[op] + " " + left
        return left + " " + op + " " + right

    def sub(self, spec):
        st = dict(self.st, alias="none", seed=self.r.randint(0, 1 << 30), count_pk=False, sel_alias=False)
        rr = Renderer(self.s, st)
        rr._first = spec["from"][0]
        return rr.render(spec)

    def kind(self, ref):
        try:
            return dict(self.s.table(ref[0]).cols).get(ref[1])
        except KeyError:
            return None

    def lit(self, v):
        return lit(v, self.st.get("dq", False) and not self.st.get("calcite"))

    def cond(self, c):
        k = c["k"]
        if k == "or":  # disjunction of conjunctions: [[cond, ...], [cond, ...]]
            parts = []
            for conj in c["items"]:
                txt = (" " + self.kw("AND") + " ").join(self.cond(x) for x in conj)
                parts.append("(" + txt + ")" if len(conj) > 1 else txt)
            return "(" + (" " + self.kw("OR") + " ").join(parts) + ")"
        col = self.col(c["c"])
        if k == "null":
            return col + " " + self.kw("IS NULL")
        if k == "cmp":
            v = c["v"]
            if self.st.get("num_str") and isinstance(v, int) and self.kind(c["c"]) == "num":
                v = str(v)  # '4' for 4: a numeric column's affinity makes them compare equal
            return self.cmp(col, c["op"], self.lit(v))
        if k == "like":
            return col + " " + self.kw("LIKE ") + self.lit(c["v"])
        if k == "in":
            if self.st["in_or"] and not c["neg"]:
                return "(" + (" " + self.kw("OR") + " ").join(col + " = " + self.lit(v) for v in c["vals"]) + ")"
            return col + (self.kw(" NOT") if c["neg"] else "") + " " + self.kw("IN ") + "(" + \
                ", ".join(self.lit(v) for v in c["vals"]) + ")"
        if k == "between":
            if self.st["between_expand"]:
                return col + " >= " + self.lit(c["lo"]) + " " + self.kw("AND ") + col + " <= " + self.lit(c["hi"])
            return col + " " + self.kw("BETWEEN ") + self.lit(c["lo"]) + " " + self.kw("AND ") + self.lit(c["hi"])
        if k == "insub":
            sub = c["sub"]
            form = c.get("form") or ("exists" if self.st["exists"] and not c["neg"] else "in")
            if len(sub["from"]) > 1 or c.get("noexists"):
                form = "in"
            if form == "exists":
                st = sub["from"][0]
                inner = dict(sub, select=[(None, sub["select"][0][1])])
                txt = self.sub(inner)
                # correlate: append the link condition to the subquery's WHERE
                # the outer column is always qualified: unqualified, it would bind to S itself
                outer = col if "." in col else self.tname(c["c"][0]) + "." + col
                link = "S." + self.qn(sub["select"][0][1][1]) + " = " + outer
                txt = txt.replace(self.kw("FROM ") + self.tname(st), self.kw("FROM ") + self.tname(st) + " " + self.kw("AS ") + "S", 1)
                txt = re.sub(r"^(SELECT|select) .*? (FROM|from) ", lambda m: m.group(1) + " 1 " + m.group(2) + " ",
                             txt, count=1)
                if " " + self.kw("WHERE ") in txt:
                    txt = txt.replace(" " + self.kw("WHERE "), " " + self.kw("WHERE ") + link + " " + self.kw("AND "), 1)
                else:
                    txt += " " + self.kw("WHERE ") + link
                return (self.kw("NOT ") if c["neg"] else "") + self.kw("EXISTS ") + "(" + txt + ")"
            return col + (self.kw(" NOT") if c["neg"] else "") + " " + self.kw("IN ") + "(" + self.sub(sub) + ")"
        if k == "scalar":
            return self.cmp(col, c["op"], "(" + self.sub(c["sub"]) + ")")
        raise ValueError(k)


def render(schema, spec, style):
    r = Renderer(schema, style)
    r._first = spec["from"][0]
    return r.render(spec)
