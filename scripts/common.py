"""What the scripts under scripts/ share: the checkout's paths, the public data sets, the built
extension, and how a script stops on bad input.

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # scripts/, from scripts/<folder>/x.py
    from common import DATA, DIST, die, read_jsonl, pair_schema, connect_duckdb

- `die(message)`: prints "<script>: message" to stderr and exits 2 (bad input, missing files).
- `DATA`: the shared data folder, $SQLSIM_DATA or ../shared/data beside the checkout;
  `read_jsonl(name)` reads one of its pair sets (dies naming the file when it is missing).
- `pair_schema(row, DATA)`: the schema argument of a labeled pair (below).
- `DIST`: the folder `make` fills ($SQLSIM_DIST when set; this module sets it to the checkout's
  dist/ otherwise), `require_dist()` dies unless it is there. The extension is loaded by the
  package python/sqlsim (put on sys.path here), which takes the files of $SQLSIM_DIST:
  `connect_apsw()`, `connect_duckdb()`, `sqlite_shell_args()` and `duckdb_shell_args()` are
  `sqlsim.load` and `sqlsim.extension_path` for the scripts. Each takes the extension file as an
  optional argument; a missing file raises sqlsim.LoadError, which names the path and says to run
  `make`, before any host sees it. Host modules (apsw, duckdb) are imported when a connection is
  made, so that a process with only one of them can use this module.

Tests and models/gmn put scripts/ on sys.path to import it, as the scripts in the folders do.

The schema argument of a labeled pair of ../shared/data: the Spider tables.json entry of its db_id,
a CREATE TABLE built from WikiSQL's markdown schema, or None (inferred from the queries) for
databases no schema file describes (the Spider-DK-only databases new_concert_singer, new_orchestra,
new_pets_1; on request, a tables.json-style entry built from their markdown in
schemas/spiderdk_schemas.json).
"""

import json
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("SQLSIM_DATA", ROOT.parent / "shared" / "data"))
# sqlsim.extension_path() reads $SQLSIM_DIST, in this process and in the scripts it starts
os.environ["SQLSIM_DIST"] = os.environ.get("SQLSIM_DIST") or str(ROOT / "dist")
DIST = Path(os.environ["SQLSIM_DIST"])
if str(ROOT / "python") not in sys.path:
    sys.path.insert(0, str(ROOT / "python"))
import sqlsim  # noqa: E402  (python/sqlsim: the one loader)

SQLITE_FILE = sqlsim.HOSTS["sqlite"]
DUCKDB_FILE = sqlsim.HOSTS["duckdb"]


def die(message):
    """Stops the script: "<script>: message" on stderr, exit status 2."""
    print(f"{Path(sys.argv[0]).name}: {message}", file=sys.stderr)
    sys.exit(2)


def read_jsonl(name, data=None):
    """The rows of the pair set `name` (data/<name>.jsonl) as dicts, blank lines skipped."""
    path = Path(data or DATA) / f"{name}.jsonl"
    if not path.is_file():
        die(f"missing data file {path} (set SQLSIM_DATA or --data to the shared data folder)")
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


# ---------------------------------------------------------------- the built extension

def require_dist(*files):
    """Dies unless DIST holds `files` (default: both extensions), naming what is missing."""
    missing = [DIST / f for f in files or (SQLITE_FILE, DUCKDB_FILE) if not (DIST / f).is_file()]
    if missing:
        die("missing " + ", ".join(map(str, missing)) + "; build the extension first with `make` (it fills dist/)")


def sqlite_extension(extension=None):
    """The SQLite extension file (default DIST/sqlsim.so), checked to exist (sqlsim.extension_path)."""
    return sqlsim.extension_path("sqlite", extension)


def duckdb_extension(extension=None):
    """The DuckDB extension file (default DIST/sqlsim.duckdb_extension), checked to exist."""
    return sqlsim.extension_path("duckdb", extension)


def connect_apsw(extension=None, database=":memory:"):
    """An apsw connection to `database` with the extension loaded (sqlsim.connect_sqlite)."""
    return sqlsim.connect_sqlite(database, extension=extension)


def connect_duckdb(extension=None):
    """An in-memory Python duckdb connection, unsigned extensions allowed, with the extension loaded
    (sqlsim.connect_duckdb)."""
    return sqlsim.connect_duckdb(extension=extension)


def sqlite_shell_args(extension=None):
    """sqlite3 shell options that load the extension before the first statement."""
    return ["-cmd", f".load {sqlite_extension(extension)}"]


def duckdb_shell_args(extension=None):
    """duckdb shell options that allow unsigned extensions and load this one before the first statement."""
    return ["-unsigned", "-cmd", f"LOAD '{duckdb_extension(extension)}'"]


# ---------------------------------------------------------------- a pair's schema

_SPIDER = {}
_SPIDERDK = {}


def _spider_entries(data: Path):
    if not _SPIDER:
        path = data / "spider" / "tables.json"
        if path.exists():
            for entry in json.loads(path.read_text()):
                _SPIDER[entry["db_id"]] = json.dumps(entry)
    return _SPIDER


def quote(name):
    """`name` as a double-quoted SQL identifier."""
    return '"' + name.replace('"', '""') + '"'


def wikisql_ddl(meta):
    """CREATE TABLE text from WikiSQL's 'the structure of table T is as follows' markdown."""
    text = meta.get("schema") or ""
    table = meta.get("table")
    if not table:
        return None
    columns = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 2 or cells[0] in ("column name", "") or set(cells[0]) <= set("- "):
            continue
        kind = "TEXT" if cells[1].upper() == "STRING" else "REAL"
        columns.append(f"{quote(cells[0])} {kind}")
    if not columns:
        return None
    return f"CREATE TABLE {quote(table)} ({', '.join(columns)})"


_DK_TABLE = re.compile(r"the structure of table (\S+) is as follows", re.I)
_DK_PK = re.compile(r"^(\S+) is the primary key\.?$", re.I)
_DK_FK = re.compile(r"^The (\S+) is the foreign key, reference to (\S+) in table (\S+?)\.?$", re.I)


def spiderdk_entry(db_id, text):
    """A tables.json-style entry from the markdown schema text of schemas/spiderdk_schemas.json:
    columns and types from the tables, primary keys ('x is the primary key.', several in one table
    form one key, as in tables.json) and foreign keys ('The x is the foreign key, reference to y in
    table t.'). The text declares only what it says: no NOT NULL, and some foreign keys of the
    Spider originals are missing from it (new_pets_1's has_pet)."""
    tables, columns, types, pks, fks = [], [[-1, "*"]], ["text"], [], []

    def col(t, name):
        return next(i for i, (ti, n) in enumerate(columns) if ti == t and n.lower() == name.lower())

    for line in text.splitlines():
        line = line.strip()
        m = _DK_TABLE.search(line)
        if m:
            tables.append(m.group(1))
            continue
        if not tables:
            continue
        cur = len(tables) - 1
        cells = [c.strip() for c in line.strip("|").split("|")] if line.startswith("|") else []
        if len(cells) == 2 and cells[0] not in ("column name", "") and not set(cells[0]) <= set("- "):
            columns.append([cur, cells[0]])
            types.append(cells[1])
        elif _DK_PK.match(line):
            pks.append(col(cur, _DK_PK.match(line).group(1)))
        elif _DK_FK.match(line):
            a, b, t = _DK_FK.match(line).groups()
            fks.append([col(cur, a), col(tables.index(t), b)])
    return {"db_id": db_id, "table_names_original": tables, "table_names": tables,
            "column_names_original": columns, "column_names": columns, "column_types": types,
            "primary_keys": pks, "foreign_keys": fks}


def _spiderdk_entries(data: Path):
    if not _SPIDERDK:
        path = data / "schemas" / "spiderdk_schemas.json"
        if path.exists():
            for db_id, text in json.loads(path.read_text()).items():
                _SPIDERDK[db_id] = json.dumps(spiderdk_entry(db_id, text))
    return _SPIDERDK


def pair_schema(row, data: Path, spiderdk_markdown=False):
    """The schema text for `row` (a pair-set JSON object), or None. With `spiderdk_markdown`, the
    Spider-DK-only databases get the entry built from their markdown instead of None."""
    if row.get("source", "").startswith("wikisql"):
        return wikisql_ddl(row.get("meta") or {})
    db_id = row.get("db_id")
    entry = _spider_entries(data).get(db_id)
    if entry is None and spiderdk_markdown:
        entry = _spiderdk_entries(data).get(db_id)
    return entry
