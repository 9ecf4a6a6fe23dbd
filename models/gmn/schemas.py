"""Training schemas for the GMN pair generator: Spider train DBs and BIRD train DBs.

The 20 Spider dev databases (every db_id in spider/dev.json) are never returned: the
learned metrics are validated on pairs over them, so no training query may touch them.
"""

import json
import re
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Table:
    name: str
    cols: list  # [(name, kind)] with kind in {"num", "text"}
    pk: list = field(default_factory=list)


@dataclass
class Schema:
    db_id: str
    source: str  # "spider" or "bird"
    tables: list
    fks: list  # [(table, col, ref_table, ref_col)]
    text: str  # schema argument for sqlsim functions (tables.json entry or DDL)

    def table(self, name):
        for t in self.tables:
            if t.name == name:
                return t
        raise KeyError(name)


def _kind(decl: str) -> str:
    d = decl.lower()
    if any(k in d for k in ("int", "real", "num", "float", "double", "dec", "bool")):
        return "num"
    return "text"


def spider_dev_db_ids(data: Path) -> set:
    dev = json.loads((data / "spider" / "dev.json").read_text())
    return {x["db_id"] for x in dev}


def load_spider(data: Path) -> list:
    """Spider tables.json entries minus every database used by Spider dev."""
    banned = spider_dev_db_ids(data)
    out = []
    for e in json.loads((data / "spider" / "tables.json").read_text()):
        if e["db_id"] in banned:
            continue
        tables = [Table(n, []) for n in e["table_names_original"]]
        for (ti, cname), ctype in zip(e["column_names_original"], e["column_types"]):
            if ti < 0:
                continue
            tables[ti].cols.append((cname, "num" if ctype in ("number", "boolean") else "text"))
        names = e["column_names_original"]
        for pk in e["primary_keys"]:
            pks = pk if isinstance(pk, list) else [pk]
            for c in pks:
                ti, cname = names[c]
                tables[ti].pk.append(cname)
        fks = []
        for a, b in e["foreign_keys"]:
            ta, ca = names[a]
            tb, cb = names[b]
            fks.append((tables[ta].name, ca, tables[tb].name, cb))
        tables = [t for t in tables if t.cols]
        if tables:
            out.append(Schema(e["db_id"], "spider", tables, fks, json.dumps(e)))
    return out


_IDENT = r'(?:`[^`]+`|"[^"]+"|\[[^\]]+\]|[A-Za-z_][A-Za-z0-9_]*)'


def _unq(s: str) -> str:
    s = s.strip()
    if s[:1] in "`\"[":
        return s[1:-1]
    return s


def parse_ddl(db_id: str, ddl: str, source: str = "bird") -> Schema:
    """Tables, columns, primary and foreign keys of BIRD-style CREATE TABLE text."""
    tables, fks = [], []
    for m in re.finditer(r"CREATE TABLE\s+(" + _IDENT + r")\s*\((.*?)\)\s*(?:;|$)", ddl, re.S | re.I):
        tname = _unq(m.group(1))
        body = m.group(2)
        parts, depth, cur = [], 0, ""
        for ch in body:
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
            if ch == "," and depth == 0:
                parts.append(cur)
                cur = ""
            else:
                cur += ch
        parts.append(cur)
        t = Table(tname, [])
        for p in parts:
            p = p.strip()
            if not p:
                continue
            up = p.upper()
            if up.startswith("PRIMARY KEY"):
                t.pk += [_unq(x) for x in re.findall(_IDENT, p[p.index("(") :])]
            elif up.startswith("FOREIGN KEY"):
                fm = re.match(r"FOREIGN KEY\s*\((.*?)\)\s*REFERENCES\s+(" + _IDENT + r")\s*\((.*?)\)", p, re.I | re.S)
                if fm:
                    for a, b in zip(fm.group(1).split(","), fm.group(3).split(",")):
                        fks.append((tname, _unq(a), _unq(fm.group(2)), _unq(b)))
            elif up.startswith(("CONSTRAINT", "UNIQUE", "CHECK")):
                continue
            else:
                cm = re.match(r"(" + _IDENT + r")\s*(.*)", p, re.S)
                if not cm:
                    continue
                cname, rest = _unq(cm.group(1)), cm.group(2)
                t.cols.append((cname, _kind(rest.split()[0] if rest.split() else "text")))
                if "PRIMARY KEY" in rest.upper():
                    t.pk.append(cname)
                rm = re.search(r"REFERENCES\s+(" + _IDENT + r")\s*\((" + _IDENT + r")\)", rest, re.I)
                if rm:
                    fks.append((tname, cname, _unq(rm.group(1)), _unq(rm.group(2))))
        if t.cols:
            tables.append(t)
    names = {t.name for t in tables}
    fks = [f for f in fks if f[2] in names and f[0] in names]
    return Schema(db_id, source, tables, fks, ddl)


def load_bird_train(data: Path) -> list:
    d = json.loads((data / "bird" / "train_schema.json").read_text())
    out = []
    for db_id, ddl in d.items():
        if isinstance(ddl, list):
            ddl = ";\n".join(ddl)
        s = parse_ddl(db_id, ddl)
        if s.tables:
            out.append(s)
    return out
