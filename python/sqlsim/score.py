"""`sqlsim score`: a file of (gold, pred) pairs in (JSONL, CSV or Parquet), the chosen metrics as
columns out (JSONL, CSV or Parquet), computed in DuckDB (default) or SQLite.

Everything about the input is checked before the output is opened: the columns, the schemas of
every row, each metric on a trial pair. Resumable: rows are scored in slices and each slice is
appended to the output (a Parquet output is collected in OUT.partial.jsonl and written at the end);
a rerun with the same output skips the rows already there, after checking that the output was made
by the same command (the same columns, and the same gold and pred in every row it holds). A line cut
short by an interrupted run is dropped before appending. An output this run created is removed
when the run fails."""

from __future__ import annotations

import csv
import json
import os
import sys
from pathlib import Path

from ._errors import UsageError
from ._host import Host, gmn_notice, score_slices, split_metrics
from ._inputs import read_rows
from ._pairs import parse_failures, parse_notes, prepare
from ._scripts import sql_string

WRITE_FORMATS = (".jsonl", ".csv", ".parquet")


def warn(message: str):
    print(f"sqlsim score: {message}", file=sys.stderr)


def _cell(v) -> str:
    return "" if v is None else str(v)


def _existing(path: Path) -> tuple[list, list, bytes]:
    """(columns, rows as dicts, the bytes to keep) of a JSONL or CSV output; a last line cut short
    by an interruption is not counted (and is dropped when appending)."""
    data = path.read_bytes()
    keep = data[: data.rfind(b"\n") + 1] if not data.endswith(b"\n") else data
    try:
        text = keep.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"-o {path}: exists and is not a sqlsim score output (not UTF-8 text); use another "
                         "output, or --no-resume to replace it") from None
    if path.suffix.lower() == ".csv":
        records = list(csv.reader(text.splitlines()))
        if not records:
            return [], [], keep
        header = records[0]
        return header, [dict(zip(header, r)) for r in records[1:] if r], keep
    rows, columns = [], []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            r = json.loads(line)
        except ValueError:
            raise UsageError(f"-o {path}: line {n} is not JSON, so the file is not a sqlsim score output; use "
                             "another output, or --no-resume to replace it") from None
        if not isinstance(r, dict):
            raise UsageError(f"-o {path}: line {n} is not a JSON object; not a sqlsim score output")
        if not columns:
            columns = list(r)
        rows.append(r)
    return columns, rows, keep


def _check_resume(path: Path, columns: list, found_columns: list, found: list, pairs, gold_col, pred_col,
                  source: str) -> set:
    """The rows of `found` (an existing output) after checking it was made by the same command."""
    if not found:
        return set()
    if found_columns != columns:
        raise UsageError(f"-o {path} holds the columns {', '.join(found_columns)}, but this run writes "
                         f"{', '.join(columns)} (other --metrics or --keep): use another output, or --no-resume to "
                         "score every row again into it")
    done = set()
    n = len(pairs.gold)
    for r in found:
        try:
            row = int(r["row"])
        except (KeyError, TypeError, ValueError):
            raise UsageError(f"-o {path}: a row without a valid 'row' value ({str(r)[:60]}); not a sqlsim score "
                             "output") from None
        if not 0 <= row < n or _cell(r.get(gold_col)) != _cell(pairs.gold[row]) or \
                _cell(r.get(pred_col)) != _cell(pairs.pred[row]):
            raise UsageError(f"-o {path}: its row {row} was scored from another input than {source} (whose row "
                             f"{row} {'does not exist' if not 0 <= row < n else 'has another gold or pred'}): use "
                             "another output, or --no-resume to score every row again into it")
        done.add(row)
    return done


def _parquet_complete(out: Path, columns: list, pairs, gold_col, pred_col, source: str) -> bool:
    import duckdb

    try:
        rel = duckdb.connect().sql(f"SELECT * FROM read_parquet({sql_string(str(out))}) ORDER BY row")
        found_columns, found = rel.columns, [dict(zip(rel.columns, r)) for r in rel.fetchall()]
    except duckdb.Error:
        raise UsageError(f"-o {out}: exists and is not a Parquet file written by sqlsim score; use another output, "
                         "or --no-resume to replace it") from None
    done = _check_resume(out, columns, found_columns, found, pairs, gold_col, pred_col, source)
    if len(done) != len(pairs.gold):
        raise UsageError(f"-o {out}: holds {len(done)} of the {len(pairs.gold)} rows of {source}: use another "
                         "output, or --no-resume to score every row again into it")
    return True


def _output_path(args) -> Path:
    out = Path(args.output)
    if out.suffix.lower() not in WRITE_FORMATS:
        raise UsageError(f"-o {out}: must end in {', '.join(WRITE_FORMATS)}")
    if out.is_dir():
        raise UsageError(f"-o {out}: is a folder, expected a file name")
    if not out.parent.is_dir():
        raise UsageError(f"-o {out}: the folder {out.parent} does not exist")
    if out.exists() and Path(args.input).exists() and out.resolve() == Path(args.input).resolve():
        raise UsageError(f"-o {out}: is the input file; write the scores to another file")
    return out


def score(args) -> int:
    out = _output_path(args)
    if args.batch < 1:
        raise UsageError(f"--batch {args.batch}: expected a positive number")
    rows = read_rows(args.input)
    if not rows:
        raise UsageError(f"{args.input}: no rows to score")
    host = Host(args.host, args.threads)
    metrics = split_metrics(args.metrics)
    keep = [c for c in (args.keep.split(",") if args.keep else []) if c.strip()]
    keep = [c.strip() for c in keep]
    from ._inputs import require_columns

    require_columns(rows, args.input, {c: "--keep" for c in keep})
    columns = ["row"] + keep + [args.gold_column, args.pred_column] + metrics
    twice = sorted({c for c in columns if columns.count(c) > 1})
    if twice:
        raise UsageError(f"the output would hold the column {', '.join(twice)} twice (--keep, the gold/pred columns "
                         "and --metrics must differ)")
    pairs = prepare(rows, args, host, args.input)
    exprs = host.check_metrics(metrics)
    gmn_notice(host, "score", metrics, args.require_gmn, warn)
    if pairs.inferred:
        warn(f"warning: {sum(map(len, pairs.inferred.values()))} rows of databases missing from {args.schema} "
             f"({', '.join(map(repr, list(pairs.inferred)[:5]))}) are scored with the schema inferred from their "
             "queries (--missing-schema infer)")
    gold_failures, pred_failures = parse_failures(host, pairs)

    parquet = out.suffix.lower() == ".parquet"
    partial = out.with_name(out.name + ".partial.jsonl") if parquet else out
    if parquet and out.exists() and args.resume:
        _parquet_complete(out, columns, pairs, args.gold_column, args.pred_column, args.input)
        print(f"sqlsim score: {out} is complete ({len(rows)} rows of {args.input}, {', '.join(metrics)}); "
              "--no-resume scores them again")
        return 0
    done: set = set()
    keep_bytes = None
    if args.resume and partial.is_file() and partial.stat().st_size > 0:
        found_columns, found, keep_bytes = _existing(partial)
        done = _check_resume(partial, columns, found_columns, found, pairs, args.gold_column, args.pred_column,
                             args.input)
    created = not partial.exists() or not args.resume
    if keep_bytes is not None and keep_bytes != partial.read_bytes():
        partial.write_bytes(keep_bytes)  # the line an interruption cut short
    todo = [i for i in range(len(rows)) if i not in done]
    new_csv = partial.suffix.lower() == ".csv" and (created or not done)
    mode = "w" if created or not done else "a"
    try:
        with open(partial, mode, encoding="utf-8", newline="") as f:
            writer = csv.writer(f) if partial.suffix.lower() == ".csv" else None
            if writer and new_csv:
                writer.writerow(columns)

            def write(records, _part):
                for rec in records:
                    r = rows[rec[0]]
                    values = [rec[0]] + [_value(r.get(c)) for c in keep] + [pairs.gold[rec[0]], pairs.pred[rec[0]]] \
                        + list(rec[1:])
                    if writer:
                        writer.writerow(["" if v is None else v for v in values])
                    else:
                        f.write(json.dumps(dict(zip(columns, values)), ensure_ascii=False) + "\n")
                f.flush()
                os.fsync(f.fileno())

            score_slices(host, todo, exprs, pairs.row, "score", len(rows), len(done), args.batch, write)
        if parquet:
            import duckdb

            duckdb.connect().execute(
                f"COPY (SELECT * FROM read_json_auto({sql_string(str(partial))}, format='newline_delimited') "
                f"ORDER BY row) TO {sql_string(str(out))} (FORMAT parquet)")
            partial.unlink()
    except KeyboardInterrupt:
        raise  # the slices written so far stay, for a rerun to resume
    except BaseException:
        if created:
            partial.unlink(missing_ok=True)
            if parquet:
                out.unlink(missing_ok=True)
        raise
    nulls = [i for i in range(len(rows)) if pairs.gold[i] is None or pairs.pred[i] is None]
    notes = parse_notes(gold_failures, pred_failures, nulls, warn)
    if pairs.inferred:
        notes.append(f"{sum(map(len, pairs.inferred.values()))} rows with an inferred schema")
    skipped = f", {len(done)} already there" if done else ""
    extra = f"; {'; '.join(notes)}" if notes else ""
    print(f"sqlsim score: {len(todo)} pairs scored{skipped} -> {out} ({', '.join(metrics)}; {args.host}){extra}")
    return 0


def _value(v):
    return v if v is None or isinstance(v, (int, float, str, bool)) else str(v)
