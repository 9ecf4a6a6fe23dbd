"""`sqlsim explain GOLD PRED`: why sql_similarity scores a pair as it does, readable on a terminal: the
score and its band, the verdict's reason, each structural component (all from one
sql_similarity_components call), and the counterexample database (sql_counterexample, asked with
the same verdict options, so under the same semantics as the score) with both queries' outputs on
it. Lines are kept to the terminal's width: a table too wide for it is printed one record per
block."""

from __future__ import annotations

import json
import shutil
import sys
import textwrap

from ._errors import UsageError
from ._host import Host, gmn_notice, is_host_error
from ._inputs import input_file, is_file, read_text
from ._schemas import Schemas
from ._scripts import sql_string

MAX_ROWS = 20
MAX_CELL = 40
#: sql_similarity's semantics when the options name none (src/combined.rs DEFAULT_SEMANTICS).
SCORE_SEMANTICS = "test-suite"
#: Options of sql_similarity that the verdict functions do not take.
SCORE_ONLY_OPTIONS = ("components", "require_gmn")


def warn(message: str):
    print(f"sqlsim explain: {message}", file=sys.stderr)


def width() -> int:
    return max(60, min(160, shutil.get_terminal_size((100, 24)).columns))


def _sql_arg(text: str, what: str) -> str:
    """A query given inline, or read from a file when the argument names one. An argument ending in
    .sql, or one word that does not start a query, is a file name: one that does not exist is an
    error, never scored as SQL text."""
    if text is None or not text.strip():
        raise UsageError(f"{what}: empty (expected SQL text or a .sql file)")
    stripped = text.strip()
    one_word = not any(c.isspace() for c in stripped) and not stripped.lower().startswith(("select", "with", "("))
    looks_like_file = "\n" not in stripped and len(stripped) < 4096 and (one_word or stripped.lower().endswith(".sql"))
    if looks_like_file or ("\n" not in stripped and is_file(stripped)):
        sql = read_text(input_file(stripped, what), what).strip()
        if not sql:
            raise UsageError(f"{what} {stripped}: the file is empty (expected one SQL query)")
        return sql
    return text


def _cell(v) -> str:
    text = "NULL" if v is None else json.dumps(v, ensure_ascii=False) if isinstance(v, str) else str(v)
    return text if len(text) <= MAX_CELL else text[: MAX_CELL - 1] + "…"


def table(header: list, rows: list, indent: str = "    ") -> list[str]:
    """A boxed text table, at most MAX_ROWS rows; wider than the terminal, one block per row."""
    cells = [[_cell(v) for v in r] for r in rows[:MAX_ROWS]]
    head = [str(h) for h in header]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(head)]
    line = indent + "+" + "+".join("-" * (w + 2) for w in widths) + "+"
    if len(line) <= width():
        out = [line, indent + "|" + "|".join(f" {h:<{w}} " for h, w in zip(head, widths)) + "|", line]
        out += [indent + "|" + "|".join(f" {c:<{w}} " for c, w in zip(r, widths)) + "|" for r in cells]
        out.append(line)
    else:  # one block per row: its non-NULL columns, then the NULL ones named on wrapped lines
        out = []
        for n, (r, values) in enumerate(zip(cells, rows), 1):
            out.append(f"{indent}-- row {n} --")
            shown = [(h, c) for h, c, v in zip(head, r, values) if v is not None]
            name_width = min(max([len(h) for h, _ in shown] or [0]), 40)
            for h, c in shown:
                out += _wrapped(f"{indent}{h:<{name_width}}  ", c)
            nulls = [h for h, v in zip(head, values) if v is None]
            if nulls:  # a name is never split across lines
                joined = ", ".join(h.replace(" ", "\0") for h in nulls)
                out += [line.replace("\0", " ") for line in _wrapped(f"{indent}NULL: ", joined)]
    if len(rows) > MAX_ROWS:
        out.append(f"{indent}... {len(rows) - MAX_ROWS} more rows")
    return out


def _output_lines(label: str, output) -> list[str]:
    if output is None:
        return [f"  {label}: (none)"]
    value = json.loads(output) if isinstance(output, str) else output
    if isinstance(value, dict) and "error" in value:
        return _wrapped(f"  {label}: error: ", str(value["error"]))
    rows = value if isinstance(value, list) else [value]
    head = f"  {label}: {len(rows)} row{'s' if len(rows) != 1 else ''}"
    if not rows:
        return [head]
    cols = max(len(r) if isinstance(r, list) else 1 for r in rows)
    norm = [r if isinstance(r, list) else [r] for r in rows]
    return [head] + table([f"c{i + 1}" for i in range(cols)], [r + [None] * (cols - len(r)) for r in norm])


def counterexample_lines(rows, semantics: str = SCORE_SEMANTICS) -> list[str]:
    """rows: (table_name, row_number, row_json, gold_output, pred_output) from sql_counterexample,
    asked under `semantics` (the score's)."""
    if not rows:
        return [f"counterexample: none under {semantics} semantics (the verdict found no database that tells "
                "the queries apart)"]
    tables: dict = {}
    for name, _num, row_json, _g, _p in rows:
        if name is not None:
            tables.setdefault(name, []).append(json.loads(row_json) if isinstance(row_json, str) else row_json)
    out = []
    if not tables:
        out.append(f"counterexample database under {semantics} semantics: the empty database (every table empty)")
    else:
        out += _wrapped("", f"counterexample database under {semantics} semantics ({len(tables)} table"
                            f"{'s' if len(tables) != 1 else ''} with rows; tables not listed are empty):")
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


def _wrapped(first: str, text: str) -> list[str]:
    """`first` + `text` wrapped at the terminal's width, later lines indented under the text."""
    return textwrap.wrap(text, width=width(), initial_indent=first, subsequent_indent=" " * len(first),
                         break_long_words=True, break_on_hyphens=False) or [first.rstrip()]


ORDER = ("score", "verdict", "evidence", "band", "structural", "components", "missing", "work")


def components_lines(comp: dict) -> list[str]:
    """sql_similarity_components' fields, the verdict's first (its reason is printed above them)."""
    out = []
    keys = [k for k in ORDER if k in comp] + sorted(k for k in comp if k not in ORDER and k != "reason")
    key_width = max([10] + [len(k) for k in keys])
    for key in keys:
        value = comp[key]
        if isinstance(value, dict):
            out.append(f"  {key}:")
            inner = max([8] + [len(k) for k in value])
            for k, v in value.items():
                out += _wrapped(f"    {k:<{inner}}  ", _fmt(v))
        else:
            out += _wrapped(f"  {key:<{key_width}}  ", _fmt(value))
    return out


def _options(text: str | None) -> dict:
    if text is None:
        return {}
    try:
        options = json.loads(text)
    except ValueError as e:
        raise UsageError(f"--options {text}: not JSON ({e}); expected a JSON object such as "
                         "'{\"semantics\": \"set\"}'") from None
    if not isinstance(options, dict):
        raise UsageError(f"--options {text}: a JSON {type(options).__name__}, expected a JSON object")
    return options


def _one(host: Host, sql: str, what: str):
    try:
        return host.query(sql)
    except Exception as e:  # noqa: BLE001 - an options or schema argument the extension rejects
        if not is_host_error(e):
            raise
        from ._host import _first_line

        raise UsageError(f"{what}: {_first_line(e)}") from None


def explain(args) -> int:
    gold, pred = _sql_arg(args.gold, "GOLD"), _sql_arg(args.pred, "PRED")
    schemas = Schemas(args.schema, db_hint="--db-id") if args.schema is not None else None
    if args.db_id is not None and not (schemas and schemas.per_db):
        raise UsageError(f"--db-id {args.db_id}: names a database of a --schema file that holds several "
                         "(a tables.json or schema.json); " + ("none given" if schemas is None else
                                                                f"{args.schema} holds one schema"))
    schema = schemas.get(args.db_id) if schemas else None
    options = _options(args.options)
    if args.require_gmn:
        options["require_gmn"] = True
    verdict_options = {k: v for k, v in options.items() if k not in SCORE_ONLY_OPTIONS}
    verdict_options.setdefault("semantics", SCORE_SEMANTICS)
    host = Host(args.host)
    error = host.schema_error(schema)
    if error:
        where = f"database {args.db_id!r} of {args.schema}" if args.db_id else f"--schema {args.schema}"
        raise UsageError(f"{where}: the schema cannot be read: {error}")
    gold_error, pred_error = host.query(f"SELECT sql_parse_error({sql_string(gold)}), "
                                        f"sql_parse_error({sql_string(pred)})")[0]
    if gold_error:
        raise UsageError(f"GOLD does not parse ({gold_error}); sqlsim cannot score a pair against it "
                         "(sql_similarity gives 0.05, the floor of the undecided band, whatever the prediction)")
    gmn_notice(host, "explain", ["sql_similarity"], args.require_gmn, warn)
    params = [sql_string(gold), sql_string(pred), "NULL" if schema is None else sql_string(schema)]
    call = ", ".join(params + ([sql_string(json.dumps(options))] if options else []))
    comp = json.loads(_one(host, f"SELECT sql_similarity_components({call})", "--options")[0][0])
    score, reason = comp["score"], comp["reason"]
    cex_options = sql_string(json.dumps(verdict_options))
    if host.name == "duckdb":  # DuckDB's table function takes schema and options by name
        named = params[:2] + ([f"schema := {params[2]}"] if schema is not None else []) + [f"options := {cex_options}"]
        table_call = ", ".join(named)
    else:
        table_call = ", ".join(params + [cex_options])
    cex = _one(host, f"SELECT table_name, row_number, row_json, gold_output, pred_output "
                     f"FROM sql_counterexample({table_call}) ORDER BY table_name NULLS FIRST, row_number", "--options")
    semantics = verdict_options["semantics"]
    if args.json:
        print(json.dumps({"gold": gold, "pred": pred, "sql_similarity": score, "semantics": semantics,
                          "pred_parse_error": pred_error, "components": comp, "reason": reason, "counterexample": [
                              {"table_name": t, "row_number": n, "row": json.loads(r) if r else None,
                               "gold_output": json.loads(g) if g else None, "pred_output": json.loads(p) if p else None}
                              for t, n, r, g, p in cex]}, indent=2, ensure_ascii=False))
        return 0
    where = f" ({args.db_id})" if args.db_id else ""
    lines = _wrapped("gold: ", gold) + _wrapped("pred: ", pred)
    lines.append(f"schema: {'none (inferred from the queries)' if schema is None else 'given' + where}")
    if pred_error:
        lines += _wrapped("pred does not parse: ", pred_error)
    lines += ["", f"sql_similarity  {_fmt(score)}"]
    lines += _wrapped("verdict reason  ", reason)
    lines += ["", "components (sql_similarity_components):"]
    lines += components_lines(comp)
    lines.append("")
    lines += counterexample_lines(cex, semantics)
    print("\n".join(lines))
    return 0
