"""`sqlsim roc FILE --label COLUMN --metrics ...`: each metric's ROC AUC against a 0/1 label column,
with the bootstrap interval, and the ROC plot. The label column must hold 0/1 values (or NULL, a row
left out), with both classes present; a metric that is a column of FILE must be numeric; a metric
that is not is computed from FILE's gold and pred columns (as `sqlsim score` does, with a progress
bar). The AUC and interval are sqlsim.roc's, the same code `make eval` uses."""

from __future__ import annotations

import math
import sys
from pathlib import Path

from . import LoadError
from ._errors import UsageError
from ._host import Host, gmn_notice, score_slices, split_metrics
from ._inputs import read_rows, require_columns
from ._pairs import parse_failures, parse_notes, prepare

NULL_SCORE = {"sql_equivalent": 0.5}


def warn(message: str):
    print(f"sqlsim roc: {message}", file=sys.stderr)


def _label(value, path, column, row):
    """0 or 1 from a label cell (booleans, integers, 0.0/1.0, "0"/"1"); anything else is an error."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)) and value in (0, 1):
        return int(value)
    if isinstance(value, str) and value.strip() in ("0", "1"):
        return int(value.strip())
    raise UsageError(f"{path}: row {row}, column {column!r} holds {value!r}; a label must be 0 or 1 (or null to "
                     "leave the row out)")


def _number(value, path, column, row):
    if value is None:
        return None
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        number = float(value)
    else:
        try:
            number = float(str(value))
        except ValueError:
            raise UsageError(f"{path}: row {row}, column {column!r} holds {str(value)[:40]!r}; a score must be a "
                             "number (or null)") from None
    if math.isnan(number):
        return None
    return number


def roc_command(args) -> int:
    try:
        from . import roc
    except ImportError as e:
        raise LoadError(f"sqlsim roc needs numpy and matplotlib: pip install 'sqlsim[roc]' ({e})") from e
    if args.resamples < 1:
        raise UsageError(f"--resamples {args.resamples}: expected 1 or more")
    if args.output is not None:
        out = Path(args.output)
        if out.is_dir() or not out.parent.is_dir():
            raise UsageError(f"-o {args.output}: " + ("is a folder, expected a file name" if out.is_dir() else
                                                      f"the folder {out.parent} does not exist"))
    metrics = split_metrics(args.metrics)
    all_rows = read_rows(args.file)
    if not all_rows:
        raise UsageError(f"{args.file}: no rows")
    require_columns(all_rows, args.file, {args.label: "--label"})
    kept = [(i, r) for i, r in enumerate(all_rows) if r.get(args.label) is not None]
    left_out = len(all_rows) - len(kept)
    labels = [_label(r[args.label], args.file, args.label, i) for i, r in kept]
    positives = sum(labels)
    if positives in (0, len(labels)):
        only = "1 (positive)" if positives else "0 (negative)"
        raise UsageError(f"{args.file}: every one of the {len(labels)} labelled rows has {args.label} = {only}; "
                         "an AUC needs rows of both classes"
                         + (f" ({left_out} rows with a null label left out)" if left_out else ""))
    rows = [r for _, r in kept]
    numbers = [i for i, _ in kept]
    columns = set().union(*(r.keys() for r in rows))
    values = {}
    for m in metrics:
        if m in columns:
            values[m] = [_number(r.get(m), args.file, m, n) for n, r in zip(numbers, rows)]
    missing = [m for m in metrics if m not in values]
    if missing:  # computed here from the gold and pred columns
        require_columns(rows, args.file, {args.gold_column: f"--gold-column, to compute {', '.join(missing)}",
                                          args.pred_column: f"--pred-column, to compute {', '.join(missing)}"})
        host = Host("duckdb")
        pairs = prepare(rows, args, host, args.file, numbers)
        exprs = host.check_metrics(missing)
        gmn_notice(host, "roc", missing, args.require_gmn, warn)
        gold_failures, pred_failures = parse_failures(host, pairs)
        parse_notes([(numbers[r], m) for r, m in gold_failures], pred_failures, [], warn)
        computed = {m: [None] * len(rows) for m in missing}

        def collect(records, _part):
            for rec in records:
                for m, v in zip(missing, rec[1:]):
                    computed[m][rec[0]] = None if v is None else float(v)

        score_slices(host, list(range(len(rows))), exprs, pairs.row, "roc: scoring", len(rows), 0, 256, collect)
        values.update(computed)
    elif args.require_gmn:
        gmn_notice(Host("duckdb"), "roc", metrics, True, warn)
    curves = []
    lines = [f"{'metric':<28} {'n':>6} {'pos':>5} {'AUC':>7}  95% bootstrap interval ({args.resamples} resamples)"]
    for m in metrics:
        null = args.null_score if args.null_score is not None else NULL_SCORE.get(m, 0.0)
        nulls = sum(v is None for v in values[m])
        if nulls:
            warn(f"{m}: {nulls} of {len(rows)} rows have no score (NULL); they count as {null} (--null-score)")
        scores = [v if v is not None else null for v in values[m]]
        c = roc.curve(m, scores, labels, resamples=args.resamples)
        curves.append(c)
        ci = f"[{c.interval[0]:.4f}, {c.interval[1]:.4f}]" if c.interval else "-"
        lines.append(f"{m:<28} {len(rows):>6} {positives:>5} {c.auc:>7.4f}  {ci}")
    if left_out:
        lines.append(f"({left_out} rows of {args.file} with a null {args.label} left out)")
    if args.output:
        roc.plot(curves, args.output, args.title or f"ROC: {args.file} ({len(rows)} pairs, {positives} positive)")
        lines.append(f"wrote {args.output}")
    print("\n".join(lines))
    return 0
