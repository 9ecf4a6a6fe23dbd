"""The connection the CLI scores pairs in (DuckDB by default, or SQLite), with the checks it runs
before any output is written: each metric on a trial pair (a typo is an error suggesting the close
name), each distinct schema (a bad one is an error naming its database), and whether the GMN parts
that `sql_similarity` averages by default can run here."""

from __future__ import annotations

import difflib
import json
import time

from . import LoadError, connect_duckdb, load
from ._errors import UsageError
from ._progress import progress

#: The metrics whose value depends on the GMN models and ONNX Runtime when they are there.
GMN_DEPENDENT = ("sql_similarity", "gmn_similarity", "hybrid_gmn_similarity")


def _first_line(e: Exception) -> str:
    text = str(e).strip()
    for prefix in ("Invalid Input Error: ", "Binder Error: ", "Parser Error: ", "Catalog Error: ",
                   "Conversion Error: ", "SQLError: ", "Error: "):
        text = text.replace(prefix, "")
    return text.splitlines()[0] if text else type(e).__name__


def is_host_error(e: Exception) -> bool:
    return type(e).__module__.split(".")[0] in ("duckdb", "_duckdb", "apsw", "sqlite3")


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
    metrics = [m for m in metrics if m]
    if not metrics:
        raise UsageError("--metrics: empty (expected comma-separated sqlsim functions, e.g. sql_similarity)")
    twice = sorted({m for m in metrics if metrics.count(m) > 1})
    if twice:
        raise UsageError(f"--metrics: {', '.join(twice)} named twice")
    return metrics


class Host:
    """A connection with sqlsim loaded and a `pairs(row, gold, pred, schema)` table per slice."""

    def __init__(self, name: str, threads: int | None = None):
        self.name = name
        if threads is not None and threads < 1:
            raise UsageError(f"--threads {threads}: expected a positive number")
        if name == "duckdb":
            self.con = connect_duckdb(config={"threads": threads} if threads else None)
        else:
            try:
                import apsw

                self.con = load(apsw.Connection(":memory:"))
            except ImportError:
                import sqlite3

                self.con = load(sqlite3.connect(":memory:"))
        self._functions = None

    def query(self, sql: str, params=()):
        cur = self.con.execute(sql, params) if params else self.con.execute(sql)
        return list(cur.fetchall() if hasattr(cur, "fetchall") else cur)

    def functions(self) -> dict:
        if self._functions is None:
            self._functions = {name: sig for name, kind, sig in
                               self.query("SELECT name, kind, signature FROM sqlsim_functions()") if kind == "scalar"}
        return self._functions

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

    # --- checks before any output -------------------------------------------------------------

    def expression(self, metric: str) -> str:
        """The SQL expression of a metric: a function name called with (gold, pred[, schema]), or
        an expression as given; an unknown name is an error suggesting the close ones."""
        functions = self.functions()
        if "(" in metric:
            return metric
        if metric not in functions:
            close = difflib.get_close_matches(metric, list(functions), n=3, cutoff=0.6)
            hint = (f"did you mean {' or '.join(close)}?" if close else
                    f"e.g. {', '.join(sorted(f for f in functions if f.startswith(('sql_', 'ast', 'spider'))))}")
            raise UsageError(f"--metrics: {metric} is not a scalar function of sqlsim ({hint})")
        return f"{metric}(gold, pred, schema)" if "schema" in functions[metric] else f"{metric}(gold, pred)"

    def check_metrics(self, metrics: list[str]) -> list[str]:
        """The metrics' expressions, each run once on a trial pair so that a bad expression or a
        missing part fails here, before any output."""
        exprs = [self.expression(m) for m in metrics]
        self.put([(0, "SELECT 1", "SELECT 1", None)])
        for metric, expr in zip(metrics, exprs):
            try:
                self.query(f"SELECT {expr} FROM pairs")
            except Exception as e:  # noqa: BLE001 - the host's SQL error, reported as bad input
                if not is_host_error(e):
                    raise
                raise UsageError(f"--metrics {metric}: {_first_line(e)}") from None
        return exprs

    def schema_error(self, schema: str | None) -> str | None:
        """Why the extension rejects `schema` as a schema argument, or None when it reads it."""
        if schema is None:
            return None
        try:
            self.query("SELECT sql_plan_error('SELECT 1', ?)", (schema,))
        except Exception as e:  # noqa: BLE001
            if not is_host_error(e):
                raise
            return _first_line(e).replace("sql_plan_error(): argument 'schema' ", "")
        return None

    def gmn_missing(self) -> dict:
        """{component: why it cannot run} for the GMN scores that sql_similarity averages by
        default; empty when both run here."""
        text = self.query("SELECT sql_similarity_components('SELECT 1', 'SELECT 1')")[0][0]
        return json.loads(text).get("missing") or {}


def gmn_notice(host: Host, command: str, metrics: list[str], required: bool, warn) -> None:
    """Says on stderr (through `warn`) that a GMN-dependent metric runs without its GMN parts, or
    raises LoadError when the user required them (--require-gmn)."""
    uses = [m for m in metrics if any(name in m for name in GMN_DEPENDENT)]
    if not uses and not required:
        return
    missing = host.gmn_missing()
    if not missing:
        return
    why = "; ".join(f"{k}: {v}" for k, v in missing.items())
    if required:
        raise LoadError(f"--require-gmn: the GMN scores cannot run here ({why})")
    warn(f"warning: {', '.join(uses)} computed without {' and '.join(missing)}, which cannot run here ({why}); "
         "sql_similarity averages ast_ted and relpm instead, so its scores differ from a full installation "
         "(--require-gmn makes this an error)")


def score_slices(host: Host, todo: list, exprs: list[str], make_row, label: str, total: int, done: int,
                 cap: int, on_slice):
    """Scores the rows `todo` (input positions) slice by slice, calling on_slice(records) with
    (row, value, ...) in row order after each. A slice starts at a few rows and grows while one
    takes under a second (never past `cap`), so the progress bar moves at least every few seconds
    and fast metrics still run in large slices."""
    size, start = max(1, min(cap, 4)), 0
    select = "SELECT row, " + ", ".join(exprs) + " FROM pairs ORDER BY row"
    with progress(total=total, desc=label, unit="pair", initial=done) as bar:
        while start < len(todo):
            part = todo[start:start + size]
            began = time.perf_counter()
            host.put([make_row(i) for i in part])
            on_slice(host.query(select), part)
            took = time.perf_counter() - began
            bar.update(len(part))
            start += len(part)
            if took < 1.0:
                size = min(cap, size * 2)
            elif took > 4.0 and size > 1:
                size //= 2
