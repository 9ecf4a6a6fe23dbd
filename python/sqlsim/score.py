"""`sqlsim score`: a file of (gold, pred) pairs in (JSONL, CSV or Parquet, read by DuckDB), the chosen
metrics as columns out (JSONL, CSV or Parquet), computed in DuckDB (default) or SQLite.

Resumable: rows are scored in slices and each slice is appended to the output (a Parquet output is
collected in OUT.partial.jsonl and written at the end); a rerun with the same output skips the input
rows (by `row`, the 0-based input position) already there. A line cut short by an interrupted run is
dropped before appending."""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

from . import connect_duckdb, load
from ._progress import progress
from ._schemas import Schemas
from ._scripts import sql_string
from .reports import UsageError

READERS = {".jsonl": "read_json_auto({}, format='newline_delimited')", ".ndjson": "read_json_auto({}, "
           "format='newline_delimited')", ".json": "read_json_auto({})", ".csv": "read_csv_auto({}, header=true)",
           ".tsv": "read_csv_auto({}, header=true, delim='\t')", ".parquet": "read_parquet({})"}
WRITE_FORMATS = (".jsonl", ".csv", ".parquet")


def read_rows(path: str) -> list[dict]:
    suffix = Path(path).suffix.lower()
    if suffix not in READERS:
        raise UsageError(f"{path}: the input must end in {', '.join(READERS)}")
    if not Path(path).is_file():
        raise UsageError(f"{path}: no such file")
    import duckdb

    con = duckdb.connect()
    rel = con.sql("SELECT * FROM " + READERS[suffix].format(sql_string(path)))
    names = rel.columns
    return [dict(zip(names, r)) for r in rel.fetchall()]


def split_metrics(text: str) -> list[str]:
    """Comma-separated metrics; commas inside parentheses belong to an expression."""
    metrics, depth, current = [], 0, ""
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            metrics.append(current.strip())
            current = ""
        else:
            current += ch
    metrics.append(current.strip())
    return [m for m in metrics if m]


class Host:
    """A connection with sqlsim loaded and a `pairs(row, gold, pred, schema)` table per slice."""

    def __init__(self, name: str, threads: int | None = None):
        self.name = name
        if name == "duckdb":
            self.con = connect_duckdb(config={"threads": threads} if threads else None)
        else:
            try:
                import apsw

                self.con = load(apsw.Connection(":memory:"))
            except ImportError:
                import sqlite3

                self.con = load(sqlite3.connect(":memory:"))

    def query(self, sql: str, params=()):
        cur = self.con.execute(sql, params) if params else self.con.execute(sql)
        return list(cur.fetchall() if hasattr(cur, "fetchall") else cur)

    def functions(self) -> dict:
        return {name: sig for name, kind, sig in self.query("SELECT name, kind, signature FROM sqlsim_functions()")
                if kind == "scalar"}

    def put(self, rows):
        if self.name == "duckdb":
            self.con.execute("CREATE OR REPLACE TEMP TABLE pairs (row BIGINT, gold VARCHAR, pred VARCHAR, "
                             "schema VARCHAR)")
            self.con.execute("INSERT INTO pairs SELECT unnest($1::BIGINT[]), unnest($2::VARCHAR[]), "
                             "unnest($3::VARCHAR[]), unnest($4::VARCHAR[])",
                             [[r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows], [r[3] for r in rows]])
        else:
            self.con.execute("DROP TABLE IF EXISTS temp.pairs")
            self.con.execute("CREATE TEMP TABLE pairs (row INTEGER PRIMARY KEY, gold TEXT, pred TEXT, schema TEXT)")
            self.con.executemany("INSERT INTO pairs VALUES (?, ?, ?, ?)", rows)


def expression(metric: str, functions: dict) -> str:
    if "(" in metric:
        return metric
    if metric not in functions:
        raise UsageError(f"--metrics: {metric} is not a scalar function of sqlsim "
                         f"(try {', '.join(sorted(f for f in functions if '_' in f)[:8])}, ...)")
    return f"{metric}(gold, pred, schema)" if "schema" in functions[metric] else f"{metric}(gold, pred)"


def _done_rows(out: Path) -> set:
    """Rows already in a JSONL or CSV output; a last line cut short is removed from the file."""
    if not out.is_file() or out.stat().st_size == 0:
        return set()
    data = out.read_bytes()
    if not data.endswith(b"\n"):
        data = data[: data.rfind(b"\n") + 1]
        out.write_bytes(data)
    text = data.decode("utf-8")
    if out.suffix.lower() == ".csv":
        return {int(r["row"]) for r in csv.DictReader(text.splitlines())}
    return {json.loads(line)["row"] for line in text.splitlines() if line.strip()}


def _value(v):
    return v if v is None or isinstance(v, (int, float, str, bool)) else str(v)


def score(args) -> int:
    out = Path(args.output)
    if out.suffix.lower() not in WRITE_FORMATS:
        raise UsageError(f"--output {out}: must end in {', '.join(WRITE_FORMATS)}")
    rows = read_rows(args.input)
    if rows and (args.gold_column not in rows[0] or args.pred_column not in rows[0]):
        raise UsageError(f"{args.input}: needs columns {args.gold_column!r} and {args.pred_column!r} "
                         f"(has {', '.join(rows[0])}; see --gold-column/--pred-column)")
    schemas = Schemas(args.schema)
    if args.schema_column and rows and args.schema_column not in rows[0]:
        raise UsageError(f"{args.input}: no schema column {args.schema_column!r}")
    keep = [c for c in (args.keep.split(",") if args.keep else []) if c]
    for c in keep:
        if rows and c not in rows[0]:
            raise UsageError(f"--keep: {args.input} has no column {c!r}")

    def schema_of(r):
        if args.schema_column:
            s = r.get(args.schema_column)
            return s if s is None or isinstance(s, str) else json.dumps(s)
        return schemas.get(r.get(args.db_id_column) if schemas.per_db else None)

    host = Host(args.host, args.threads)
    metrics = split_metrics(args.metrics)
    exprs = [expression(m, host.functions()) for m in metrics]
    partial = out.with_name(out.name + ".partial.jsonl") if out.suffix.lower() == ".parquet" else out
    if out.suffix.lower() == ".parquet" and out.exists() and not partial.exists():
        print(f"sqlsim score: {out} is complete ({len(rows)} input rows); delete it to score again")
        return 0
    done = _done_rows(partial) if args.resume else set()
    if not args.resume and partial.exists():
        partial.unlink()
    todo = [i for i in range(len(rows)) if i not in done]
    columns = ["row"] + keep + [args.gold_column, args.pred_column] + metrics
    new_csv = partial.suffix.lower() == ".csv" and (not partial.exists() or partial.stat().st_size == 0)
    size = max(1, args.batch)
    with open(partial, "a", encoding="utf-8", newline="") as f, \
            progress(total=len(rows), desc="score", unit="pair", initial=len(done)) as bar:
        writer = csv.writer(f) if partial.suffix.lower() == ".csv" else None
        if writer and new_csv:
            writer.writerow(columns)
        for start in range(0, len(todo), size):
            part = todo[start:start + size]
            host.put([(i, rows[i][args.gold_column], rows[i][args.pred_column], schema_of(rows[i])) for i in part])
            scored = host.query("SELECT row, " + ", ".join(exprs) + " FROM pairs ORDER BY row")
            for rec in scored:
                r = rows[rec[0]]
                values = [rec[0]] + [_value(r.get(c)) for c in keep] + [r[args.gold_column], r[args.pred_column]] \
                    + list(rec[1:])
                if writer:
                    writer.writerow(["" if v is None else v for v in values])
                else:
                    f.write(json.dumps(dict(zip(columns, values)), ensure_ascii=False) + "\n")
            f.flush()
            os.fsync(f.fileno())
            bar.update(len(part))
    if out.suffix.lower() == ".parquet":
        import duckdb

        duckdb.connect().execute(
            f"COPY (SELECT * FROM read_json_auto({sql_string(str(partial))}, format='newline_delimited') ORDER BY row)"
            f" TO {sql_string(str(out))} (FORMAT parquet)")
        partial.unlink()
    skipped = f", {len(done)} already there" if done else ""
    print(f"sqlsim score: {len(todo)} pairs scored{skipped} -> {out} ({', '.join(metrics)}; {args.host})")
    return 0
