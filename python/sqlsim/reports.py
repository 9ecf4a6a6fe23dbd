"""`sqlsim spider` and `sqlsim bird`: the official reports from the official file formats, computed by
the packaged sql/spider_eval.sql and sql/bird_eval.sql in DuckDB (the same scripts as
`make spider-eval` and `make bird-eval`).

The files are checked first, so that a report is only printed for the input the user meant: the
formats (a Spider gold line is `SQL<TAB>db_id`, BIRD's predictions a JSON object), as many
predictions as gold queries for Spider, every database in tables.json, and every database file
under --db / --db_root_path. A problem is an error naming the file and line, and no report."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from . import connect_duckdb
from ._errors import UsageError
from ._inputs import input_file, read_text
from ._scripts import run_script, sql_string

__all__ = ["UsageError", "spider", "bird"]

#: What spider_eval.sql strips from each line (and skips a line it leaves empty).
WHITESPACE = " \t\n\v\f\r"
BIRD_SEPARATOR = "\t----- bird -----\t"


def _file(path: str, what: str) -> str:
    return str(input_file(path, what).resolve())


def _folder(path: str | None, what: str) -> Path:
    if path is None or not str(path).strip():
        raise UsageError(f"{what}: an empty path (expected a folder)")
    p = Path(path)
    if not p.is_dir():
        raise UsageError(f"{what} {path}: {'is a file, expected a folder' if p.exists() else 'no such folder'}")
    return p


def _output(path: str | None, what: str):
    if path is None:
        return
    p = Path(path)
    if p.is_dir():
        raise UsageError(f"{what} {path}: is a folder, expected a file name")
    if not p.parent.is_dir():
        raise UsageError(f"{what} {path}: the folder {p.parent} does not exist")


def _write_examples(con, table: str, out: str):
    con.execute(f"COPY (SELECT * FROM {table} ORDER BY line) TO {sql_string(out)} (FORMAT json)")


def _lines(path: str, what: str) -> list[tuple[int, str]]:
    """(line number, text) of the non-blank lines, stripped as spider_eval.sql strips them."""
    text = read_text(Path(path), what)
    return [(n, line.strip(WHITESPACE)) for n, line in enumerate(text.split("\n"), 1) if line.strip(WHITESPACE)]


def _listed(names, limit=5) -> str:
    names = sorted(set(map(str, names)))
    return ", ".join(names[:limit]) + (f" and {len(names) - limit} more" if len(names) > limit else "")


def _json_file(path: str, what: str, expected: str):
    try:
        return json.loads(read_text(Path(path), what))
    except ValueError as e:
        raise UsageError(f"{what} {path}: line {getattr(e, 'lineno', 1)}, column {getattr(e, 'colno', 1)}: not JSON "
                         f"({getattr(e, 'msg', e)}); expected {expected}") from None


def _spider_tables(path: str) -> set:
    data = _json_file(path, "--table", "Spider's tables.json (a JSON array of entries with db_id)")
    if not isinstance(data, list) or not all(isinstance(e, dict) and "db_id" in e for e in data):
        raise UsageError(f"--table {path}: expected Spider's tables.json, a JSON array of entries with db_id")
    return {e["db_id"] for e in data}


def _has_sqlite(folder: Path) -> bool:
    return folder.is_dir() and any(folder.glob("*.sqlite"))


def spider(args) -> int:
    """The report of Spider's evaluation.py (--etype match|exec|all)."""
    gold = _file(args.gold, "--gold")
    pred = _file(args.pred, "--pred")
    table = _file(args.table, "--table")
    etype = args.etype
    if etype in ("exec", "all") and args.db is None:
        raise UsageError(f"--etype {etype} needs --db DIR (DIR/<db_id>/*.sqlite, as evaluation.py's --db)")
    db = _folder(args.db, "--db") if args.db is not None else None
    _output(args.examples, "--examples")
    if args.threads is not None and args.threads < 1:
        raise UsageError(f"--threads {args.threads}: expected a positive number")
    gold_lines = _lines(gold, "--gold")
    if not gold_lines:
        raise UsageError(f"--gold {args.gold}: no queries (expected one `SQL<TAB>db_id` per line)")
    db_ids = []
    for n, line in gold_lines:
        fields = line.split("\t")
        if len(fields) < 2 or not fields[-1].strip() or not fields[0].strip():
            raise UsageError(f"--gold {args.gold}: line {n} is not `SQL<TAB>db_id`: {line[:80]!r}")
        db_ids.append(fields[1].strip())
    preds = _lines(pred, "--pred")
    if len(preds) != len(gold_lines):
        raise UsageError(f"--pred {args.pred} has {len(preds)} predictions (non-blank lines) for the "
                         f"{len(gold_lines)} gold queries of {args.gold}: give one prediction per gold query, in "
                         "the same order (an empty line does not count; write a placeholder such as `SELECT 1` "
                         "for a question without a prediction)")
    unknown = set(db_ids) - _spider_tables(table)
    if unknown:
        raise UsageError(f"--table {args.table} has no entry for {len(unknown)} databases of {args.gold}: "
                         f"{_listed(unknown)}")
    if db is not None and etype in ("exec", "all"):
        absent = {d for d in db_ids if not _has_sqlite(db / d)}
        if absent:
            raise UsageError(f"--db {args.db}: no {args.db}/<db_id>/*.sqlite for {len(absent)} databases of "
                             f"{args.gold}: {_listed(absent)}")
    con = connect_duckdb(config=_threads(args))
    lines = run_script(con, "spider_eval.sql",
                       {"gold": gold, "pred": pred, "tables": table, "etype": etype,
                        "db": str(db.resolve()) if db is not None else ""},
                       label="spider")
    if args.examples:
        _write_examples(con, "spider_eval_examples", args.examples)
    print("\n".join(lines))
    return 0


def _threads(args) -> dict:
    n = getattr(args, "threads", None)
    return {"threads": int(n)} if n else {}


def _bird_path(path: str, data_mode: str, prefix: str, suffix: str, what: str) -> str:
    """BIRD's scripts concatenate a folder prefix with `predict_dev.json` / `dev_gold.sql`; a file is used as given."""
    if path is None or not str(path).strip():
        raise UsageError(f"{what}: an empty path")
    if Path(path).is_file():
        return _file(path, what)
    for candidate in (path + f"{prefix}{data_mode}{suffix}", os.path.join(path, f"{prefix}{data_mode}{suffix}")):
        if Path(candidate).is_file():
            return _file(candidate, what)
    raise UsageError(f"{what} {path}: neither a file nor a folder holding {prefix}{data_mode}{suffix}")


def _bird_predictions(path: str) -> dict:
    expected = ('BIRD\'s prediction JSON, one object {"0": "SQL\\t----- bird -----\\tdb_id", ...} (one SQL per '
                "line is Spider's format, not BIRD's)")
    text = read_text(Path(path), "--predicted_sql_path")
    if not text.strip():
        raise UsageError(f"--predicted_sql_path {path}: empty; expected {expected}")
    try:
        data = json.loads(text)
    except ValueError as e:
        raise UsageError(f"--predicted_sql_path {path}: line {getattr(e, 'lineno', 1)}, column "
                         f"{getattr(e, 'colno', 1)}: not JSON ({getattr(e, 'msg', e)}); expected {expected}") from None
    if not isinstance(data, dict):
        raise UsageError(f"--predicted_sql_path {path}: a JSON {type(data).__name__}; expected {expected}")
    return data


def _gold_entries(gt_path: str, diff_path: str | None) -> list[dict]:
    """dev.json-shaped entries (db_id, SQL, difficulty) from BIRD's ground truth and --diff_json_path."""
    if gt_path.endswith(".json"):
        entries = _json_file(gt_path, "--ground_truth_path", "BIRD's dev.json (a JSON array of {db_id, SQL, ...})")
        if not isinstance(entries, list) or not entries:
            raise UsageError(f"--ground_truth_path {gt_path}: expected a non-empty JSON array like BIRD's dev.json")
        for i, e in enumerate(entries):
            if not isinstance(e, dict) or not isinstance(e.get("SQL"), str) or not isinstance(e.get("db_id"), str):
                raise UsageError(f"--ground_truth_path {gt_path}: entry {i} has no SQL and db_id text "
                                 "(expected BIRD's dev.json entries)")
    else:
        entries = []
        for n, line in enumerate(read_text(Path(gt_path), "--ground_truth_path").splitlines(), 1):
            if not line.strip():
                continue
            sql, _, db_id = line.strip().rpartition("\t")
            if not sql.strip() or not db_id.strip():
                raise UsageError(f"--ground_truth_path {gt_path}: line {n} is not `SQL<TAB>db_id`: {line[:80]!r}")
            entries.append({"SQL": sql, "db_id": db_id})
        if not entries:
            raise UsageError(f"--ground_truth_path {gt_path}: no queries (expected one `SQL<TAB>db_id` per line)")
    if diff_path:
        diff = _json_file(diff_path, "--diff_json_path", "BIRD's dev.json (a JSON array with each difficulty)")
        if not isinstance(diff, list) or not all(isinstance(d, dict) for d in diff):
            raise UsageError(f"--diff_json_path {diff_path}: expected BIRD's dev.json, a JSON array of objects")
        if len(diff) < len(entries):
            raise UsageError(f"--diff_json_path {diff_path} has {len(diff)} entries for {len(entries)} gold queries")
        for e, d in zip(entries, diff):
            e["difficulty"] = d.get("difficulty", "simple")
    elif any("difficulty" not in e for e in entries):
        raise UsageError("--diff_json_path (BIRD's dev.json, which gives each question's difficulty) is needed "
                         "unless --ground_truth_path is the dev.json itself")
    return [{"question_id": e.get("question_id", i), "db_id": e["db_id"], "SQL": e["SQL"],
             "difficulty": e["difficulty"]} for i, e in enumerate(entries)]


def bird(args) -> int:
    """BIRD's EX, Soft-F1 and (with --ves) R-VES per difficulty."""
    if args.sql_dialect.lower() != "sqlite":
        raise UsageError(f"--sql_dialect {args.sql_dialect}: only SQLite databases are supported")
    if args.num_cpus < 0:
        raise UsageError(f"--num_cpus {args.num_cpus}: expected 0 (all cores) or more")
    pred = _bird_path(args.predicted_sql_path, args.data_mode, "predict_", ".json", "--predicted_sql_path")
    gt = _bird_path(args.ground_truth_path, args.data_mode, "", "_gold.sql", "--ground_truth_path")
    diff = _file(args.diff_json_path, "--diff_json_path") if args.diff_json_path else None
    root = _folder(args.db_root_path, "--db_root_path")
    _output(args.examples, "--examples")
    predictions = _bird_predictions(pred)
    entries = _gold_entries(gt, diff)
    db_ids = {e["db_id"] for e in entries}
    db_ids |= {v.split(BIRD_SEPARATOR, 1)[1] for v in predictions.values()
               if isinstance(v, str) and BIRD_SEPARATOR in v}
    absent = {d for d in db_ids if not (root / d / f"{d}.sqlite").is_file()}
    if absent:
        raise UsageError(f"--db_root_path {args.db_root_path}: no <db_id>/<db_id>.sqlite for {len(absent)} databases "
                         f"of the gold and predicted queries: {_listed(absent)}")
    config = {"threads": args.num_cpus} if args.num_cpus else {}
    with tempfile.TemporaryDirectory(prefix="sqlsim-bird-") as tmp:
        dev = Path(tmp) / "dev.json"
        dev.write_text(json.dumps(entries), encoding="utf-8")
        con = connect_duckdb(config=config)
        lines = run_script(con, "bird_eval.sql",
                           {"pred": pred, "dev": str(dev), "db_root": str(root.resolve()),
                            "ves": "1" if args.ves else ""},
                           label="bird")
        if args.examples:
            _write_examples(con, "bird_eval_examples", args.examples)
        print("\n".join(lines))
    return 0
