"""The `sqlsim` command: spider, bird, score, explain and roc (see docs/python.md)."""

from __future__ import annotations

import argparse
import os
import sys

from . import LoadError, __version__
from ._errors import UsageError

REQUIRE_GMN = ("make it an error when the GMN scores that sql_similarity averages by default cannot run "
               "(ONNX Runtime or the models missing); without it that is a warning and the mean is ast_ted and relpm's")
MISSING_SCHEMA = ("what to do with rows whose database is not in --schema: error (default: stop before scoring, "
                  "naming them) or infer (score them with the schema inferred from their queries)")


def _sub(sub, name, **kwargs):
    return sub.add_parser(name, allow_abbrev=False, **kwargs)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="sqlsim", allow_abbrev=False,
                                description="SQL similarity and text-to-SQL evaluation "
                                            "(sqlsim's SQLite/DuckDB extension, run from the command line).")
    p.add_argument("--version", action="version", version=f"sqlsim {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    s = _sub(sub, "spider", help="the official Spider report (evaluation.py --gold --pred --table --db --etype)",
             description="Spider's evaluation.py report, same numbers and layout "
                         "(computed by sql/spider_eval.sql in DuckDB).")
    s.add_argument("--gold", required=True, help="gold file: SQL<TAB>db_id per line")
    s.add_argument("--pred", required=True, help="prediction file: one SQL per line")
    s.add_argument("--table", required=True, help="Spider tables.json")
    s.add_argument("--db", help="database folder DIR/<db_id>/*.sqlite (needed by --etype exec/all)")
    s.add_argument("--etype", choices=["match", "exec", "all"], default="match",
                   help="match (default): exact and partial matching; exec: execution accuracy; all: both")
    s.add_argument("--examples", help="also write one JSON record per example to this file")
    s.add_argument("--threads", type=int, help="DuckDB threads (default: all cores)")

    b = _sub(sub, "bird", help="BIRD's EX, Soft-F1 and R-VES per difficulty",
             description="BIRD's report (computed by sql/bird_eval.sql in DuckDB); arguments as "
                         "BIRD's evaluation scripts take them.")
    b.add_argument("--predicted_sql_path", required=True,
                   help="predict_dev.json, or the folder prefix BIRD appends predict_<data_mode>.json to")
    b.add_argument("--ground_truth_path", required=True,
                   help="dev_gold.sql (SQL<TAB>db_id lines) or its folder prefix, or dev.json itself")
    b.add_argument("--db_root_path", required=True, help="folder of <db_id>/<db_id>.sqlite")
    b.add_argument("--diff_json_path", help="dev.json: each question's difficulty, in the same order")
    b.add_argument("--data_mode", default="dev")
    b.add_argument("--num_cpus", type=int, default=0, help="DuckDB threads (default: all cores)")
    b.add_argument("--meta_time_out", type=float, default=30.0,
                   help="accepted for compatibility; sqlsim's execution budget counts work, not seconds")
    b.add_argument("--sql_dialect", default="SQLite")
    b.add_argument("--ves", action="store_true", help="also R-VES (times every matching pair 100 times each way)")
    b.add_argument("--examples", help="also write one JSON record per example to this file")

    c = _sub(sub, "score", help="score a JSONL/CSV/Parquet file of pairs (resumable)",
             description="Scores every (gold, pred) pair of a JSONL, CSV or Parquet file with the chosen "
                         "metrics and writes them as columns (JSONL, CSV or Parquet). Rerunning with the "
                         "same output resumes where it stopped, once it is checked to come from the same "
                         "command and input.")
    c.add_argument("input")
    c.add_argument("-o", "--output", required=True)
    c.add_argument("--metrics", default="sql_similarity",
                   help="comma-separated sqlsim functions or SQL expressions over gold, pred, schema "
                        "(default sql_similarity)")
    c.add_argument("--gold-column", default="gold")
    c.add_argument("--pred-column", default="pred")
    c.add_argument("--db-id-column", default="db_id")
    c.add_argument("--schema-column", help="a column holding each pair's schema text")
    c.add_argument("--schema", help="a Spider tables.json or BIRD schema.json (by the db_id column), "
                                    "a DDL file, or schema text, for every row")
    c.add_argument("--keep", help="comma-separated input columns to copy to the output (e.g. id,label)")
    c.add_argument("--host", choices=["duckdb", "sqlite"], default="duckdb")
    c.add_argument("--threads", type=int, help="DuckDB threads (default: all cores)")
    c.add_argument("--batch", type=int, default=256,
                   help="most pairs per slice written (default 256; slices start smaller and grow while fast)")
    c.add_argument("--no-resume", dest="resume", action="store_false",
                   help="start again instead of skipping rows already in the output")
    c.add_argument("--missing-schema", choices=["error", "infer"], default="error", help=MISSING_SCHEMA)
    c.add_argument("--require-gmn", action="store_true", help=REQUIRE_GMN)

    e = _sub(sub, "explain", help="why sql_similarity scores a pair as it does, with the counterexample",
             description="sql_similarity with its components, the verdict's reason and the "
                         "counterexample database with both outputs.")
    e.add_argument("gold", help="gold SQL (or a .sql file)")
    e.add_argument("pred", help="predicted SQL (or a .sql file)")
    e.add_argument("--schema", help="schema text, a DDL file, a tables.json/schema.json (with --db-id), "
                                    "or a tables.json entry")
    e.add_argument("--db-id", help="the database of a tables.json or schema.json")
    e.add_argument("--options", help="sqlsim options as JSON, e.g. '{\"semantics\": \"set\"}'")
    e.add_argument("--host", choices=["duckdb", "sqlite"], default="duckdb")
    e.add_argument("--json", action="store_true", help="print JSON instead of text")
    e.add_argument("--require-gmn", action="store_true", help=REQUIRE_GMN)

    r = _sub(sub, "roc", help="ROC AUC with a bootstrap 95%% interval and a ROC plot (PNG)",
             description="AUC of each metric against a 0/1 label column, with a stratified bootstrap "
                         "95% interval, and one ROC figure with every metric. Metrics that are not "
                         "columns of FILE are computed from its gold and pred columns.")
    r.add_argument("file", help="JSONL, CSV or Parquet (e.g. the output of `sqlsim score`)")
    r.add_argument("--label", required=True, help="the 0/1 label column (rows with a null label are left out)")
    r.add_argument("--metrics", required=True, help="comma-separated score columns or sqlsim functions")
    r.add_argument("-o", "--output", help="PNG file for the ROC plot")
    r.add_argument("--title")
    r.add_argument("--resamples", type=int, default=2000)
    r.add_argument("--null-score", type=float, help="score a NULL counts as (default 0; sql_equivalent 0.5)")
    r.add_argument("--gold-column", default="gold")
    r.add_argument("--pred-column", default="pred")
    r.add_argument("--db-id-column", default="db_id")
    r.add_argument("--schema-column", help="a column holding each pair's schema text")
    r.add_argument("--schema", help="as for score: a tables.json/schema.json (by the db_id column), DDL, or text")
    r.add_argument("--missing-schema", choices=["error", "infer"], default="error", help=MISSING_SCHEMA)
    r.add_argument("--require-gmn", action="store_true", help=REQUIRE_GMN)
    return p


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    try:
        if args.command == "spider":
            from .reports import spider as run
        elif args.command == "bird":
            from .reports import bird as run
        elif args.command == "score":
            from .score import score as run
        elif args.command == "explain":
            from .explain import explain as run
        else:
            from ._roc_command import roc_command as run
        return run(args)
    except BrokenPipeError:  # the reader stopped early (`| head`): nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (UsageError, LoadError, ValueError, OSError) as e:
        print(f"sqlsim {args.command}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"sqlsim {args.command}: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # a host's SQL error (duckdb.Error, apsw.Error, sqlite3.Error): no traceback
        if type(e).__module__.split(".")[0] in ("duckdb", "_duckdb", "apsw", "sqlite3"):
            print(f"sqlsim {args.command}: {e}", file=sys.stderr)
            return 1
        raise


if __name__ == "__main__":
    sys.exit(main())
