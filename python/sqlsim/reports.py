"""`sqlsim spider` and `sqlsim bird`: the official reports from the official file formats, computed by
the packaged sql/spider_eval.sql and sql/bird_eval.sql in DuckDB (the same scripts as
`make spider-eval` and `make bird-eval`)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from . import connect_duckdb
from ._scripts import run_script, sql_string


class UsageError(ValueError):
    """Bad command-line input: printed without a traceback, exit status 2."""


def _file(path: str, what: str) -> str:
    if not Path(path).is_file():
        raise UsageError(f"{what} {path}: no such file")
    return str(Path(path).resolve())


def _write_examples(con, table: str, out: str):
    con.execute(f"COPY (SELECT * FROM {table} ORDER BY line) TO {sql_string(out)} (FORMAT json)")


def spider(args) -> int:
    """The report of Spider's evaluation.py (--etype match|exec|all)."""
    gold = _file(args.gold, "--gold")
    pred = _file(args.pred, "--pred")
    table = _file(args.table, "--table")
    etype = args.etype
    if etype in ("exec", "all") and not args.db:
        raise UsageError(f"--etype {etype} needs --db DIR (DIR/<db_id>/*.sqlite, as evaluation.py's --db)")
    if args.db and not Path(args.db).is_dir():
        raise UsageError(f"--db {args.db}: no such folder")
    con = connect_duckdb(config=_threads(args))
    lines = run_script(con, "spider_eval.sql",
                       {"gold": gold, "pred": pred, "tables": table, "etype": etype,
                        "db": str(Path(args.db).resolve()) if args.db else ""},
                       label="spider")
    print("\n".join(lines))
    if args.examples:
        _write_examples(con, "spider_eval_examples", args.examples)
    return 0


def _threads(args) -> dict:
    n = getattr(args, "threads", None)
    return {"threads": int(n)} if n else {}


def _bird_path(path: str, data_mode: str, prefix: str, suffix: str, what: str) -> str:
    """BIRD's scripts concatenate a folder prefix with `predict_dev.json` / `dev_gold.sql`; a file is used as given."""
    if Path(path).is_file():
        return str(Path(path).resolve())
    for candidate in (path + f"{prefix}{data_mode}{suffix}", os.path.join(path, f"{prefix}{data_mode}{suffix}")):
        if Path(candidate).is_file():
            return str(Path(candidate).resolve())
    raise UsageError(f"{what} {path}: neither a file nor a folder holding {prefix}{data_mode}{suffix}")


def _gold_entries(gt_path: str, diff_path: str | None) -> list[dict]:
    """dev.json-shaped entries (db_id, SQL, difficulty) from BIRD's ground truth and --diff_json_path."""
    if gt_path.endswith(".json"):
        entries = json.loads(Path(gt_path).read_text(encoding="utf-8"))
        if not isinstance(entries, list):
            raise UsageError(f"--ground_truth_path {gt_path}: expected a JSON array like BIRD's dev.json")
    else:
        entries = []
        for line in Path(gt_path).read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            sql, _, db_id = line.strip().rpartition("\t")
            if not sql:
                raise UsageError(f"--ground_truth_path {gt_path}: a line without `SQL<TAB>db_id`: {line[:80]!r}")
            entries.append({"SQL": sql, "db_id": db_id})
    if diff_path:
        diff = json.loads(Path(diff_path).read_text(encoding="utf-8"))
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
    pred = _bird_path(args.predicted_sql_path, args.data_mode, "predict_", ".json", "--predicted_sql_path")
    gt = _bird_path(args.ground_truth_path, args.data_mode, "", "_gold.sql", "--ground_truth_path")
    diff = _file(args.diff_json_path, "--diff_json_path") if args.diff_json_path else None
    if not Path(args.db_root_path).is_dir():
        raise UsageError(f"--db_root_path {args.db_root_path}: no such folder")
    entries = _gold_entries(gt, diff)
    config = {"threads": args.num_cpus} if args.num_cpus else {}
    with tempfile.TemporaryDirectory(prefix="sqlsim-bird-") as tmp:
        dev = Path(tmp) / "dev.json"
        dev.write_text(json.dumps(entries), encoding="utf-8")
        con = connect_duckdb(config=config)
        lines = run_script(con, "bird_eval.sql",
                           {"pred": pred, "dev": str(dev), "db_root": str(Path(args.db_root_path).resolve()),
                            "ves": "1" if args.ves else ""},
                           label="bird")
        print("\n".join(lines))
        if args.examples:
            _write_examples(con, "bird_eval_examples", args.examples)
    return 0
