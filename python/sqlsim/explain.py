"""`sqlsim explain GOLD PRED`: why sql_similarity scores a pair as it does, readable on a terminal: the
score and its band, ParSEval's verdict and reason (sql_equivalent_reason), each structural component
(sql_similarity_components), and the counterexample database (sql_counterexample) with both
queries' outputs on it."""

from __future__ import annotations

import json
from pathlib import Path

from ._schemas import Schemas
from ._scripts import sql_string
from .reports import UsageError
from .score import Host

MAX_ROWS = 20
MAX_CELL = 40


def _sql_arg(text: str) -> str:
    """A query given inline, or read from a file when the argument names one."""
    path = Path(text)
    if len(text) < 4096 and "\n" not in text and path.suffix.lower() == ".sql" and path.is_file():
        return path.read_text(encoding="utf-8").strip()
    return text


def _cell(v) -> str:
    text = "NULL" if v is None else json.dumps(v, ensure_ascii=False) if isinstance(v, str) else str(v)
    return text if len(text) <= MAX_CELL else text[: MAX_CELL - 1] + "…"


def table(header: list, rows: list, indent: str = "    ") -> list[str]:
    """A boxed text table; at most MAX_ROWS rows."""
    cells = [[_cell(v) for v in r] for r in rows[:MAX_ROWS]]
    head = [str(h) for h in header]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(head)]
    line = indent + "+" + "+".join("-" * (w + 2) for w in widths) + "+"
    out = [line, indent + "|" + "|".join(f" {h:<{w}} " for h, w in zip(head, widths)) + "|", line]
    out += [indent + "|" + "|".join(f" {c:<{w}} " for c, w in zip(r, widths)) + "|" for r in cells]
    out.append(line)
    if len(rows) > MAX_ROWS:
        out.append(f"{indent}... {len(rows) - MAX_ROWS} more rows")
    return out


def _output_lines(label: str, output) -> list[str]:
    if output is None:
        return [f"  {label}: (none)"]
    value = json.loads(output) if isinstance(output, str) else output
    if isinstance(value, dict) and "error" in value:
        return [f"  {label}: error: {value['error']}"]
    rows = value if isinstance(value, list) else [value]
    head = f"  {label}: {len(rows)} row{'s' if len(rows) != 1 else ''}"
    if not rows:
        return [head]
    width = max(len(r) if isinstance(r, list) else 1 for r in rows)
    norm = [r if isinstance(r, list) else [r] for r in rows]
    return [head] + table([f"c{i + 1}" for i in range(width)], [r + [None] * (width - len(r)) for r in norm])


def counterexample_lines(rows) -> list[str]:
    """rows: (table_name, row_number, row_json, gold_output, pred_output) from sql_counterexample."""
    if not rows:
        return ["counterexample: none (the verdict found no database that tells the queries apart)"]
    tables: dict = {}
    for name, _num, row_json, _g, _p in rows:
        if name is not None:
            tables.setdefault(name, []).append(json.loads(row_json) if isinstance(row_json, str) else row_json)
    out = []
    if not tables:
        out.append("counterexample database: the empty database (every table empty)")
    else:
        out.append(f"counterexample database ({len(tables)} table{'s' if len(tables) != 1 else ''} with rows; "
                   "tables not listed are empty):")
        for name, recs in tables.items():
            columns = []
            for r in recs:
                for k in (r if isinstance(r, dict) else {}):
                    if k not in columns:
                        columns.append(k)
            out.append(f"  {name} ({len(recs)} row{'s' if len(recs) != 1 else ''})")
            out += table(columns, [[r.get(c) for c in columns] for r in recs])
    out += _output_lines("gold output", rows[0][3])
    out += _output_lines("pred output", rows[0][4])
    return out


def _fmt(v) -> str:
    if isinstance(v, float):
        return f"{v:.4f}"
    if isinstance(v, (dict, list)):
        return json.dumps(v, ensure_ascii=False)
    return "NULL" if v is None else str(v)


ORDER = ("score", "verdict", "evidence", "band", "structural", "components", "work")


def components_lines(comp: dict) -> list[str]:
    """sql_similarity_components' fields, the verdict's first (its reason is printed above them)."""
    out = []
    keys = [k for k in ORDER if k in comp] + sorted(k for k in comp if k not in ORDER and k != "reason")
    width = max([10] + [len(k) for k in keys])
    for key in keys:
        value = comp[key]
        if isinstance(value, dict):
            out.append(f"  {key}:")
            inner = max([8] + [len(k) for k in value])
            out += [f"    {k:<{inner}}  {_fmt(v)}" for k, v in value.items()]
        else:
            out.append(f"  {key:<{width}}  {_fmt(value)}")
    return out


def explain(args) -> int:
    gold, pred = _sql_arg(args.gold), _sql_arg(args.pred)
    schema = Schemas(args.schema).get(args.db_id) if args.schema else None
    if args.options:
        try:
            json.loads(args.options)
        except ValueError as e:
            raise UsageError(f"--options must be a JSON object: {e}") from e
    host = Host(args.host)
    params = [sql_string(gold), sql_string(pred), "NULL" if schema is None else sql_string(schema)]
    if args.options:
        params.append(sql_string(args.options))
    call = ", ".join(params)
    score = host.query(f"SELECT sql_similarity({call})")[0][0]
    comp = json.loads(host.query(f"SELECT sql_similarity_components({call})")[0][0])
    reason = host.query(f"SELECT sql_equivalent_reason({call})")[0][0]
    if host.name == "duckdb":  # DuckDB's table function takes schema and options by name
        named = params[:2] + [f"schema := {params[2]}"] + ([f"options := {params[3]}"] if args.options else [])
        table_call = ", ".join(named if schema is not None or args.options else params[:2])
    else:
        table_call = call
    cex = host.query(f"SELECT table_name, row_number, row_json, gold_output, pred_output "
                     f"FROM sql_counterexample({table_call}) ORDER BY table_name NULLS FIRST, row_number")
    if args.json:
        print(json.dumps({"gold": gold, "pred": pred, "sql_similarity": score, "components": comp,
                          "reason": reason, "counterexample": [
                              {"table_name": t, "row_number": n, "row": json.loads(r) if r else None,
                               "gold_output": json.loads(g) if g else None, "pred_output": json.loads(p) if p else None}
                              for t, n, r, g, p in cex]}, indent=2, ensure_ascii=False))
        return 0
    where = f" ({args.db_id})" if args.db_id else ""
    lines = [f"gold: {gold}", f"pred: {pred}",
             f"schema: {'none (inferred from the queries)' if schema is None else 'given' + where}", "",
             f"sql_similarity  {_fmt(score)}", f"verdict reason  {reason}", "", "components (sql_similarity_components):"]
    lines += components_lines(comp)
    lines.append("")
    lines += counterexample_lines(cex)
    print("\n".join(lines))
    return 0
