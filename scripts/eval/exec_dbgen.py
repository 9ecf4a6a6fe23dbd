"""Deterministic SQLite test databases for execution-based evaluation (issue 16).

    python scripts/eval/exec_dbgen.py OUT_DIR [--seed 16] [--per-db 3] [--data ../shared/data]

Writes OUT_DIR/<db_id>/<db_id>_<k>.sqlite (k = 0 .. per-db - 1), test-suite-sql-eval's
db_dir/db_id/*.sqlite layout, for every db_id used by the shared pair sets:
  - Spider: the 20 Spider dev db_ids, schemas from spider/tables.json (declared column types are
    tables.json's: number, text, time, boolean, others), plus the 3 Spider-DK-only db_ids
    (new_concert_singer, new_orchestra, new_pets_1) from the schema text in schemas/spiderdk_schemas.json;
  - BIRD: the 11 BIRD dev db_ids, their CREATE TABLE statements from bird/schema.json run as they are.
Rows: 5-30 per table; values drawn from a pool seeded with the literals the pair sets' queries (gold
and prediction) compare each column with, the db's other literals, and synthetic values; NULLs where
the column allows them; duplicate rows and values; primary keys unique, foreign keys drawn from the
referenced column's values (mostly). Everything is drawn from random.Random("<seed>:<db_id>:<k>"),
over inputs read in a fixed order, so the same seed gives the same rows (and the same file bytes).

The triples (set, pair id, db_id, gold, pred) come from `load_pairs` here too, so that the official
driver and scripts/eval/exec_agreement.py read the pair sets the same way.
"""

import argparse
import json
import random
import re
import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common import DATA  # noqa: E402

SEED = 16
PER_DB = 3

# (set name, file under DATA, kind); the deepseek file is a byte copy of codellama (see its README), wikisql has no db.
PAIR_SETS = [
    ("spider_gpt4", "spider_dev_llm_gpt4.nooverlap.jsonl", "spider"),
    ("spider_gpt3.5", "spider_dev_llm_gpt3.5.nooverlap.jsonl", "spider"),
    ("spider_codellama", "spider_dev_llm_codellama_7b.nooverlap.jsonl", "spider"),
    ("spiderdk", "spiderdk_pair_dev.nooverlap.jsonl", "spider"),
    ("spider_example", "spider/gold_example.txt", "spider"),
    ("bird_dail", "bird_dev_dail.jsonl", "bird"),
]


def load_pairs(data=DATA):
    """[{set, id, db_id, gold, pred, bench}] in file order; rows without a prediction are left out."""
    out = []
    for name, rel, bench in PAIR_SETS:
        path = Path(data) / rel
        if rel.endswith(".txt"):
            golds = path.read_text().splitlines()
            preds = (path.parent / "pred_example.txt").read_text().splitlines()
            for i, (g, p) in enumerate(zip(golds, preds)):
                gold, db_id = g.rsplit("\t", 1)
                out.append(dict(set=name, id=i, db_id=db_id, gold=gold, pred=p, bench=bench))
            continue
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                if r.get("pred") is None or r.get("gold") is None:
                    continue
                out.append(dict(set=name, id=r["id"], db_id=r["db_id"], gold=r["gold"], pred=r["pred"], bench=bench))
    return out


# ---------------------------------------------------------------- schemas


def _q(name):
    return '"' + name.replace('"', '""') + '"'


def spider_tables(entry):
    """tables.json entry -> [table], table = {name, cols: [{name, type, pk, notnull}], fks: [(col, rtab, rcol)]}."""
    tabs = [dict(name=t, cols=[], fks=[]) for t in entry["table_names_original"]]
    pks = set(entry["primary_keys"]) if all(isinstance(p, int) for p in entry["primary_keys"]) else set()
    for p in entry["primary_keys"]:
        if isinstance(p, list):
            pks.update(p)
    colref = {}
    for ci, ((ti, cname), ctype) in enumerate(zip(entry["column_names_original"], entry["column_types"])):
        if ti < 0:
            continue
        tabs[ti]["cols"].append(dict(name=cname, type=ctype, pk=ci in pks, notnull=False))
        colref[ci] = (ti, cname)
    for a, b in entry["foreign_keys"]:
        if a in colref and b in colref:
            ta, ca = colref[a]
            tb, cb = colref[b]
            tabs[ta]["fks"].append((ca, tabs[tb]["name"], cb))
    for t in tabs:  # a single-column primary key is declared; composite ones are only kept unique-ish
        if sum(c["pk"] for c in t["cols"]) > 1:
            for c in t["cols"]:
                c["pk"] = False
    return tabs


def text_tables(text):
    """The schema text of schemas/spiderdk_schemas.json -> [table] (see spider_tables)."""
    tabs, cur = [], None
    for line in text.splitlines():
        line = line.strip()
        m = re.match(r"the structure of table (\S+) is as follows:", line)
        if m:
            cur = dict(name=m.group(1), cols=[], fks=[])
            tabs.append(cur)
            continue
        if cur is None:
            continue
        m = re.match(r"\|\s*([^|]+?)\s*\|\s*([^|]+?)\s*\|$", line)
        if m and m.group(1) not in ("column name",) and not m.group(1).startswith("---"):
            cur["cols"].append(dict(name=m.group(1), type=m.group(2), pk=False, notnull=False))
            continue
        m = re.match(r"(\S+) is the primary key\.", line)
        if m:
            for c in cur["cols"]:
                if c["name"] == m.group(1):
                    c["pk"] = True
            continue
        m = re.match(r"The (\S+) is the foreign key, reference to (\S+) in table (\S+)\.", line)
        if m:
            cur["fks"].append((m.group(1), m.group(3), m.group(2)))
    return tabs


def create_spider_like(con, tabs):
    for t in tabs:
        if t["name"].lower().startswith("sqlite_"):  # sqlite_sequence in tables.json: SQLite makes it itself
            continue
        parts = []
        for c in t["cols"]:
            parts.append(f"{_q(c['name'])} {c['type']}" + (" PRIMARY KEY" if c["pk"] else ""))
        for col, rt, rc in t["fks"]:
            parts.append(f"FOREIGN KEY ({_q(col)}) REFERENCES {_q(rt)}({_q(rc)})")
        con.execute(f"CREATE TABLE {_q(t['name'])} (\n  " + ",\n  ".join(parts) + "\n)")


def _affinity_type(decl):
    d = (decl or "").upper()
    if "DATE" in d or "TIME" in d:
        return "time"
    if "INT" in d or "REAL" in d or "FLOA" in d or "DOUB" in d or "NUM" in d or "DEC" in d:
        return "number"
    if "BOOL" in d:
        return "boolean"
    return "text"


def introspect(con):
    """[table] (see spider_tables) from a database whose DDL already ran (BIRD)."""
    tabs = []
    names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY rowid")]
    for name in names:
        info = con.execute(f"PRAGMA table_info({_q(name)})").fetchall()
        npk = sum(1 for r in info if r[5])
        cols = [dict(name=r[1], type=_affinity_type(r[2]), pk=bool(r[5]) and npk == 1, notnull=bool(r[3]), decl=r[2])
                for r in info]
        fks = [(r[3], r[2], r[4]) for r in con.execute(f"PRAGMA foreign_key_list({_q(name)})").fetchall()]
        tabs.append(dict(name=name, cols=cols, fks=[(a, b, c if c is not None else a) for a, b, c in fks]))
    return tabs


# ---------------------------------------------------------------- literals

_STR = r"'((?:[^']|'')*)'|\"([^\"]*)\""
_NUM = r"(?<![\w.])(-?\d+(?:\.\d+)?)(?![\w.])"
_COLCMP = re.compile(
    r"(?:`([^`]+)`|\[([^\]]+)\]|\"([^\"]+)\"|([A-Za-z_]\w*))\s*(?:=|==|!=|<>|>=|<=|>|<|\bNOT\s+LIKE\b|\bLIKE\b)\s*"
    r"(?:'((?:[^']|'')*)'|\"([^\"]*)\"|(-?\d+(?:\.\d+)?)(?![\w.]))",
    re.IGNORECASE,
)


def _num(s):
    return float(s) if "." in s else int(s)


def _unlike(s):
    """A LIKE pattern -> a string it matches (and the literal itself otherwise)."""
    return s.replace("%", "").replace("_", "") if ("%" in s or "_" in s) else s


class Literals:
    """Literals per db: global strings and numbers, and per column name (lower case) the values it is compared with."""

    def __init__(self):
        self.strings, self.numbers, self.bycol = {}, {}, {}

    def add_query(self, q):
        for m in re.finditer(_STR, q):
            s = m.group(1) if m.group(1) is not None else m.group(2)
            s = s.replace("''", "'")
            if len(s) <= 60:
                self.strings.setdefault(_unlike(s), None)
        for m in re.finditer(_NUM, re.sub(_STR, "''", q)):
            self.numbers.setdefault(_num(m.group(1)), None)
        for m in _COLCMP.finditer(q):
            col = next(g for g in m.groups()[:4] if g is not None).lower()
            if m.group(5) is not None or m.group(6) is not None:
                s = m.group(5) if m.group(5) is not None else m.group(6)
                s = s.replace("''", "'")
                vals = [_unlike(s)]
                if "%" in s:
                    vals.append(s.replace("%", " x ").replace("_", "y").strip())
            else:
                n = _num(m.group(7))
                vals = [n, n + 1, n - 1]
            d = self.bycol.setdefault(col, {})
            for v in vals:
                d.setdefault(v, None)


def collect_literals(pairs):
    lits = {}
    for p in pairs:
        L = lits.setdefault(p["db_id"], Literals())
        L.add_query(p["gold"])
        L.add_query(p["pred"])
    return lits


# ---------------------------------------------------------------- rows


def _years(lits):
    ys = [n for n in lits.numbers if isinstance(n, int) and 1900 <= n <= 2100]
    return ys or [1995, 2005, 2012]


def _value(rng, col, lits, synth):
    """One value for column `col` (no NULL decision here)."""
    name = col["name"].lower()
    typ = col["type"]
    attached = list(lits.bycol.get(name, {})) if lits else []
    if attached and rng.random() < 0.7:
        v = rng.choice(attached)
        if typ == "number" and isinstance(v, str):
            try:
                v = _num(v)
            except ValueError:
                pass
        return v
    if typ == "time" or (typ == "text" and ("date" in name or name.endswith("time"))):
        y = rng.choice(_years(lits))
        s = f"{y:04d}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        return s if rng.random() < 0.7 else s + f" {rng.randint(0, 23):02d}:{rng.choice([0, 15, 30]):02d}:00"
    if typ == "boolean":
        return rng.choice([0, 1, "T", "F"]) if rng.random() < 0.2 else rng.choice([0, 1])
    if typ == "number":
        r = rng.random()
        if lits and lits.numbers and r < 0.2:
            return rng.choice(list(lits.numbers))
        v = rng.choice(synth.setdefault(("n", name), [rng.randint(0, 10), rng.randint(0, 10), rng.randint(0, 100),
                                                        rng.randint(0, 100), rng.randint(1000, 3000)]))
        return v + 0.5 if rng.random() < 0.15 else v
    if lits and lits.strings and rng.random() < 0.2:
        return rng.choice(list(lits.strings))
    pool = synth.setdefault(("s", name), [f"{col['name']}_{i}" for i in range(rng.randint(2, 6))])
    return rng.choice(pool)


def _order(tabs):
    """Referenced tables before the tables that reference them (cycles broken by input order)."""
    by = {t["name"].lower(): t for t in tabs}
    done, out = set(), []

    def visit(t, stack):
        key = t["name"].lower()
        if key in done or key in stack:
            return
        stack.add(key)
        for _, rt, _ in t["fks"]:
            if rt.lower() in by:
                visit(by[rt.lower()], stack)
        done.add(key)
        out.append(t)

    for t in tabs:
        visit(t, set())
    return out


def fill(con, tabs, rng, lits):
    colvals = {}  # (table lower, col lower) -> generated non-null values, for foreign keys
    synth = {}
    for t in _order(tabs):
        if t["name"].lower().startswith("sqlite_"):
            continue
        n = rng.randint(5, 30)
        cols = t["cols"]
        fk = {c.lower(): (rt.lower(), rc.lower()) for c, rt, rc in t["fks"]}
        pkcols = [c for c in cols if c["pk"]]
        rows = []
        used_pk = set()
        for i in range(n):
            if rows and rng.random() < 0.15:  # a duplicate row (fresh key when there is one)
                row = list(rng.choice(rows))
                for j, c in enumerate(cols):
                    if c["pk"]:
                        row[j] = None
            else:
                row = [None] * len(cols)
                for j, c in enumerate(cols):
                    if c["pk"]:
                        continue
                    key = c["name"].lower()
                    if key in fk and colvals.get(fk[key]) and rng.random() < 0.9:
                        row[j] = rng.choice(colvals[fk[key]])
                    elif not c["notnull"] and rng.random() < 0.1:
                        row[j] = None
                    else:
                        row[j] = _value(rng, c, lits, synth)
            for j, c in enumerate(cols):
                if not c["pk"]:
                    continue
                key = c["name"].lower()
                for _ in range(20):
                    if key in fk and colvals.get(fk[key]) and rng.random() < 0.8:
                        v = rng.choice(colvals[fk[key]])
                    elif c["type"] == "number":
                        v = len(used_pk) + 1 if rng.random() < 0.8 else _value(rng, c, lits, synth)
                    else:
                        v = _value(rng, c, lits, synth)
                    if c["type"] == "number" and not isinstance(v, int):
                        continue  # INTEGER PRIMARY KEY takes integers only
                    if v is not None and v not in used_pk:
                        break
                else:
                    v = len(used_pk) + 1000 if c["type"] == "number" else f"{c['name']}_k{len(used_pk)}"
                used_pk.add(v)
                row[j] = v
            rows.append(row)
        qcols = ", ".join(_q(c["name"]) for c in cols)
        marks = ", ".join("?" for _ in cols)
        con.executemany(f"INSERT OR IGNORE INTO {_q(t['name'])} ({qcols}) VALUES ({marks})", rows)
        got = con.execute(f"SELECT {qcols} FROM {_q(t['name'])}").fetchall()
        for j, c in enumerate(cols):
            colvals[(t["name"].lower(), c["name"].lower())] = [r[j] for r in got if r[j] is not None]


# ---------------------------------------------------------------- driver


def schemas(data=DATA, db_ids=None):
    """{db_id: ("spider", tables) | ("bird", [ddl])} for the db_ids asked for (default: those of the pair sets)."""
    data = Path(data)
    tj = {e["db_id"]: e for e in json.loads((data / "spider/tables.json").read_text())}
    dk = json.loads((data / "schemas/spiderdk_schemas.json").read_text())
    bird = json.loads((data / "bird/schema.json").read_text())
    out = {}
    for db_id in db_ids:
        if db_id in bird:
            out[db_id] = ("bird", bird[db_id])
        elif db_id in tj:
            out[db_id] = ("spider", spider_tables(tj[db_id]))
        elif db_id in dk:
            out[db_id] = ("spider", text_tables(dk[db_id]))
        else:
            raise SystemExit(f"exec_dbgen: no schema for db_id {db_id}")
    return out


def generate(out_dir, seed=SEED, per_db=PER_DB, data=DATA, pairs=None, quiet=True):
    """Write the databases; returns {db_id: [paths]}."""
    pairs = load_pairs(data) if pairs is None else pairs
    db_ids = list(dict.fromkeys(p["db_id"] for p in pairs))
    lits = collect_literals(pairs)
    out = {}
    for db_id, (kind, schema) in schemas(data, db_ids).items():
        d = Path(out_dir) / db_id
        d.mkdir(parents=True, exist_ok=True)
        for k in range(per_db):
            path = d / f"{db_id}_{k}.sqlite"
            if path.exists():
                path.unlink()
            con = sqlite3.connect(path)
            con.execute("PRAGMA journal_mode=OFF")
            con.execute("PRAGMA synchronous=OFF")
            if kind == "bird":
                for ddl in schema:
                    con.execute(ddl)
                tabs = introspect(con)
            else:
                tabs = schema
                create_spider_like(con, tabs)
            fill(con, tabs, random.Random(f"{seed}:{db_id}:{k}"), lits.get(db_id))
            con.commit()
            con.close()
            out.setdefault(db_id, []).append(path)
        if not quiet:
            print(f"{db_id}: {per_db} databases", file=sys.stderr)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--per-db", type=int, default=PER_DB)
    ap.add_argument("--data", default=str(DATA))
    a = ap.parse_args()
    dbs = generate(a.out, a.seed, a.per_db, a.data, quiet=False)
    print(f"{sum(len(v) for v in dbs.values())} databases for {len(dbs)} db_ids in {a.out}")


if __name__ == "__main__":
    main()
