#!/usr/bin/env python3
"""Quality and cost of sqlsim's SQL metric functions on the labeled pair sets, computed inside both hosts.

Usage (with the project venv, after `make`):

    .venv/bin/python scripts/eval/eval.py [--metrics ast_ted,...] [--sets NAME,...] [--json OUT] [--readme docs/quality.md]

Each metric is a SQL function, called as `name(gold, pred, schema)` when its signature has a
`schema` parameter and `name(gold, pred)` otherwise, or, when the text contains a parenthesis, a
SQL expression over the columns `gold`, `pred`, `db_id` and `schema`, e.g.
`astpm(gold, pred, 0.3, 0.5)`. `schema` is the pair's schema as scripts/common.py builds it:
the Spider tables.json entry of its db_id, a CREATE TABLE from WikiSQL's markdown, or, for the three
Spider-DK-only databases, the tables.json-style entry built from the markdown schema their prompts
show (schemas/spiderdk_schemas.json; until 2026-11-26 NULL, the schema inferred from the queries).

For every labeled set in ../shared/data, each (metric, host) runs in a fresh worker process (sqlsim
caches parsed queries, plans and verdicts process-wide, so a shared process would time one metric
on another's cache): DuckDB (dist/sqlsim.duckdb_extension, its default threads) and SQLite
(dist/sqlsim.so via apsw, one thread). The two hosts must agree (the largest absolute difference is
reported; the exit status is 1 beyond 1e-9). Printed: ROC AUC (Mann-Whitney, ties one half),
Spearman (average ranks), Kendall tau-b, accuracy at the threshold 0.5, and the seconds the SELECT
took in each host; the AST-TE reference of the data README beside ast_ted. Each AUC comes with a
95% stratified bootstrap interval (`--resamples`, fixed seed; python/sqlsim/roc.py, the code
`sqlsim roc` uses), and `--roc-dir DIR` writes one ROC figure per set, DIR/<set>.png, with every
evaluated metric on it. `--readme FILE`
rewrites the rows of the evaluated (set, metric)s in the table between the markers
`<!-- eval:begin -->` and `<!-- eval:end -->`; rows of other metrics or sets stay as they were.

Rows with label null are skipped. A NULL score counts as 0.0 (the score of SQL that does not
parse; pred null where no SQL was extracted), except sql_equivalent's NULL (undecided), which
counts as 0.5, between its 0 and 1.
"""

import argparse
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import common  # noqa: E402
from common import DATA, DIST, ROOT, die, pair_schema, read_jsonl, require_dist  # noqa: E402
from rank_stats import accuracy, kendall_tau_b, self_test, spearman  # noqa: E402

sys.path.insert(0, str(ROOT / "python"))
from sqlsim import roc  # noqa: E402  (the wheel's AUC, bootstrap and ROC plot code)
from sqlsim.score import split_metrics  # noqa: E402  (`sqlsim score --metrics` reads the same list)

DUCKDB_EXT = DIST / common.DUCKDB_FILE
SQLITE_EXT = DIST / common.SQLITE_FILE
TOLERANCE = 1e-9
# The GMN scores come from float32 inference, batched in DuckDB (each side padded to the batch's
# largest graph) and one pair at a time in SQLite: the last bits may differ.
FLOAT32_TOLERANCE = 1e-5
FLOAT32_METRICS = {"gmn_similarity", "hybrid_gmn_similarity", "sql_similarity"}
DEFAULT_METRICS = "ast_ted,astpm,relpm,gmn_similarity,hybrid_gmn_similarity,sql_equivalent,sql_similarity"
# The score a NULL stands for, per metric (default 0.0).
NULL_SCORE = {"sql_equivalent": 0.5}
# sql_similarity must rank at least as well as each of these (the bar of its issue).
SIMILARITY_COMPONENTS = ("ast_ted", "relpm", "gmn_similarity", "hybrid_gmn_similarity", "sql_equivalent")
README_BEGIN, README_END = "<!-- eval:begin -->", "<!-- eval:end -->"

# Reference AST-TE (sqlglot + zss) from the data README: (AUC, Spearman).
SETS = {
    "spiderdk_pair_dev.nooverlap": (0.8022, 0.4275),
    "wikisql_pair_dev": (0.9452, 0.7223),
    "spider_dev_llm_gpt4.nooverlap": (0.7137, 0.3699),
    "spider_dev_llm_gpt3.5.nooverlap": (0.7419, 0.4089),
    "spider_dev_llm_codellama_7b.nooverlap": (0.6765, 0.2104),
    "spider_dev_llm_deepseek_6.7b.nooverlap": None,  # a copy of the CodeLlama outputs
}



# ---------------------------------------------------------------- data and hosts


def load_rows(name):
    """Labeled rows of a set: (gold, pred, label, db_id, schema or None)."""
    return [(row["gold"], row.get("pred"), int(row["label"]), row.get("db_id"),
             pair_schema(row, DATA, spiderdk_markdown=True))
            for row in read_jsonl(name, DATA) if row.get("label") is not None]


class DuckHost:
    def __init__(self):
        self.con = common.connect_duckdb(DUCKDB_EXT)

    def load(self, rows):
        self.con.execute(
            "CREATE OR REPLACE TABLE pairs (i INTEGER, gold VARCHAR, pred VARCHAR, db_id VARCHAR, schema VARCHAR)"
        )
        self.con.execute(
            "INSERT INTO pairs SELECT unnest($1::INTEGER[]), unnest($2::VARCHAR[]), unnest($3::VARCHAR[]), "
            "unnest($4::VARCHAR[]), unnest($5::VARCHAR[])",
            [list(range(len(rows))), [r[0] for r in rows], [r[1] for r in rows], [r[3] for r in rows],
             [r[4] for r in rows]],
        )

    def query(self, sql):
        return self.con.execute(sql).fetchall()

    def scores(self, expr):
        return [r[0] for r in self.query(f"SELECT {expr} FROM pairs ORDER BY i")]


class SqliteHost:
    def __init__(self):
        self.con = common.connect_apsw(SQLITE_EXT)

    def load(self, rows):
        self.con.execute("DROP TABLE IF EXISTS pairs")
        self.con.execute("CREATE TABLE pairs (i INTEGER PRIMARY KEY, gold TEXT, pred TEXT, db_id TEXT, schema TEXT)")
        with self.con:
            self.con.executemany("INSERT INTO pairs VALUES (?, ?, ?, ?, ?)",
                                 [(i, r[0], r[1], r[3], r[4]) for i, r in enumerate(rows)])

    def query(self, sql):
        return list(self.con.execute(sql))

    def scores(self, expr):
        return [r[0] for r in self.query(f"SELECT {expr} FROM pairs ORDER BY i")]


HOSTS = {"duckdb": DuckHost, "sqlite": SqliteHost}


def signatures():
    """name -> signature of every scalar function in the build."""
    return {name: sig for name, kind, sig in DuckHost().query(
        "SELECT name, kind, signature FROM sqlsim_functions()") if kind == "scalar"}


def expression(metric, functions):
    if "(" in metric:
        return metric
    if metric not in functions:
        die(f"{metric} is not a scalar function of this build ({DIST})")
    return f"{metric}(gold, pred, schema)" if "schema" in functions[metric] else f"{metric}(gold, pred)"


def worker(host_name, expr, set_name):
    """Runs in a fresh process: prints {"scores": [...], "seconds": t} for one (host, metric, set)."""
    host = HOSTS[host_name]()
    host.load(load_rows(set_name))
    start = time.perf_counter()
    scores = host.scores(expr)
    print(json.dumps({"scores": scores, "seconds": time.perf_counter() - start}))


def run_worker(host_name, expr, set_name):
    cmd = [sys.executable, __file__, "--data", str(DATA), "--worker", host_name, "--expr", expr, "--sets", set_name]
    done = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "SQLSIM_DIST": str(DIST)})
    if done.returncode != 0:
        die(f"{expr} on {set_name} in {host_name} failed:\n{done.stderr.strip()}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    return out["scores"], out["seconds"]


# ---------------------------------------------------------------- report


def fmt(value, width=7):
    return f"{value:>{width}.4f}" if value is not None else f"{'-':>{width}}"


TABLE_HEADER = ["| set | metric | AUC | AUC 95% CI | Spearman | Kendall τ-b | acc@0.5 | DuckDB s | SQLite s |",
                "|---|---|---|---|---|---|---|---|---|"]


def interval_text(r):
    return f"{r['auc_low']:.3f}–{r['auc_high']:.3f}" if r.get("auc_low") is not None else "-"


def table_cells(r):
    """A result's cells after the AUC: (set label, metric, AUC, the rest as text)."""
    label = r["set"].replace(".nooverlap", "") + f" ({r['n']})"
    cells = [interval_text(r)]
    cells += [f"{r[k]:.4f}" if r[k] is not None else "-" for k in ("spearman", "kendall_tau_b", "accuracy")]
    cells += [f"{r['seconds_duckdb']:.2f}", f"{r['seconds_sqlite']:.2f}"]
    return label, r["metric"], r["auc"], cells


def table_rows_of(text):
    """The rows of an existing table, as table_cells gives them (bold marks dropped); a row written
    before the interval column gets "-" there."""
    rows = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 8 and cells[1].startswith("`"):
            cells.insert(3, "-")
        if len(cells) != 9 or not cells[1].startswith("`"):
            continue
        auc = cells[2].strip("*")
        rows.append((cells[0], cells[1].strip("`"), None if auc == "-" else float(auc), cells[3:]))
    return rows


def readme_table(rows):
    """The Markdown table `--readme` writes: one row per (set, metric), the best AUC per set in bold."""
    lines = list(TABLE_HEADER)
    by_set = {}
    for row in rows:
        by_set.setdefault(row[0], []).append(row)
    order = DEFAULT_METRICS.split(",")
    for label, group in by_set.items():
        group.sort(key=lambda row: order.index(row[1]) if row[1] in order else len(order))
        best = max((row[2] for row in group if row[2] is not None), default=None)
        for _, metric, auc, rest in group:
            text = f"{auc:.4f}" if auc is not None else "-"
            if auc is not None and auc == best:
                text = f"**{text}**"
            lines.append("| " + " | ".join([label, f"`{metric}`", text] + rest) + " |")
    return "\n".join(lines)


def write_readme(path, results):
    text = Path(path).read_text(encoding="utf-8")
    if README_BEGIN not in text or README_END not in text:
        die(f"{path} has no {README_BEGIN} ... {README_END} markers")
    head, rest = text.split(README_BEGIN, 1)
    old, tail = rest.split(README_END, 1)
    rows = table_rows_of(old)
    for new in map(table_cells, results):
        at = next((i for i, row in enumerate(rows) if row[:2] == new[:2]), None)
        if at is None:
            rows.append(new)
        else:
            rows[at] = new
    body = ("\n<!-- written by `make eval` (scripts/eval/eval.py --readme); do not edit by hand -->\n"
            + readme_table(rows) + "\n")
    Path(path).write_text(head + README_BEGIN + body + README_END + tail, encoding="utf-8")


def floor_failures(results):
    """ast_ted at least its reference AUC; sql_similarity at least each evaluated component."""
    failures = []
    for r in results:
        if r["reference_auc"] is not None and r["auc"] is not None and r["auc"] < r["reference_auc"]:
            failures.append(f"ast_ted on {r['set']}: AUC {r['auc']:.4f} < reference {r['reference_auc']:.4f}")
    for sim in (r for r in results if r["metric"] == "sql_similarity" and r["auc"] is not None):
        for c in results:
            if c["set"] == sim["set"] and c["metric"] in SIMILARITY_COMPONENTS and c["auc"] is not None \
                    and c["auc"] > sim["auc"]:
                failures.append(f"sql_similarity on {sim['set']}: AUC {sim['auc']:.4f} < {c['metric']} {c['auc']:.4f}")
    return failures


def main():
    global DATA
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--metrics", default=DEFAULT_METRICS,
                        help=f"comma-separated SQL functions or expressions (default {DEFAULT_METRICS})")
    parser.add_argument("--sets", help="comma-separated substrings of set names (default: all labeled sets)")
    parser.add_argument("--no-kendall", action="store_true", help="skip Kendall tau-b (quadratic in pure Python)")
    parser.add_argument("--json", help="also write the results as JSON to this file")
    parser.add_argument("--readme", help="rewrite the table between the eval markers of this file")
    parser.add_argument("--data", help=f"shared data folder (default $SQLSIM_DATA or {DATA})")
    parser.add_argument("--floors", action="store_true",
                        help="exit 1 when ast_ted's AUC falls below its reference, or sql_similarity's below a "
                             "component's, on any set (CI quality floor)")
    parser.add_argument("--roc-dir", help="write one ROC figure per set as DIR/<set>.png (every metric on it)")
    parser.add_argument("--resamples", type=int, default=roc.RESAMPLES,
                        help=f"bootstrap resamples of each AUC's 95%% interval (default {roc.RESAMPLES})")
    parser.add_argument("--worker", choices=sorted(HOSTS), help=argparse.SUPPRESS)
    parser.add_argument("--expr", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.data:
        DATA = Path(args.data).resolve()
    if args.worker:
        return worker(args.worker, args.expr, args.sets)

    self_test()
    roc.self_test()
    require_dist()
    functions = signatures()
    metrics = split_metrics(args.metrics)
    exprs = {m: expression(m, functions) for m in metrics}
    sets = [s for s in SETS if SETS[s] is not None]
    if args.sets:
        wanted = [s.strip() for s in args.sets.split(",") if s.strip()]
        sets = [s for s in SETS if any(w in s for w in wanted)]
        if not sets:
            die(f"no set matches {args.sets!r}")

    width = max([12] + [len(m) for m in metrics])
    header = (f"{'metric':<{width}} {'set':<38} {'n':>5} {'pos':>4} {'AUC':>7} {'95% CI':>13} {'ref':>7} {'Spearman':>8} "
              f"{'Kendall':>7} {'acc@.5':>7} {'NULL':>5} {'duck s':>7} {'sqlite s':>8} {'max|diff|':>9}")
    print(header)
    print("-" * len(header))
    results, worst = [], 0.0
    if args.roc_dir:
        Path(args.roc_dir).mkdir(parents=True, exist_ok=True)
    for name in sets:
        labels = [r[2] for r in load_rows(name)]
        reference = SETS[name]
        curves = []
        for metric in metrics:
            a, t_duck = run_worker("duckdb", exprs[metric], name)
            b, t_lite = run_worker("sqlite", exprs[metric], name)
            diff, differ = 0.0, 0
            tolerance = FLOAT32_TOLERANCE if metric in FLOAT32_METRICS else TOLERANCE
            for x, y in zip(a, b):
                if (x is None) != (y is None):
                    diff, differ = math.inf, differ + 1
                elif x is not None:
                    gap = abs(float(x) - float(y))
                    diff = max(diff, gap) if gap > tolerance else diff
                    differ += gap > tolerance
            # every metric is deterministic, verdicts included (their budget counts solver work)
            worst = max(worst, diff)
            null = NULL_SCORE.get(metric, 0.0)
            scores = [float(v) if v is not None else null for v in a]
            auc, rho = roc.roc_auc(scores, labels), spearman(scores, labels)
            curve = roc.curve(metric, scores, labels, resamples=args.resamples)
            curves.append(curve)
            low, high = curve.interval if curve.interval else (None, None)
            ci = f"{low:.3f}-{high:.3f}" if low is not None else "-"
            tau = None if args.no_kendall else kendall_tau_b(scores, labels)
            acc = accuracy(scores, labels)
            ref_auc = reference[0] if reference and metric == "ast_ted" else None
            nulls = sum(1 for v in a if v is None)
            print(f"{metric:<{width}} {name:<38} {len(labels):>5} {sum(labels):>4} {fmt(auc)} {ci:>13} {fmt(ref_auc)} "
                  f"{fmt(rho, 8)} {fmt(tau)} {fmt(acc)} {nulls:>5} {t_duck:>7.2f} {t_lite:>8.2f} {diff:>9.3g}",
                  flush=True)
            results.append({"metric": metric, "set": name, "n": len(labels), "positives": sum(labels), "auc": auc,
                            "auc_low": low, "auc_high": high,
                            "spearman": rho, "kendall_tau_b": tau, "accuracy": acc, "reference_auc": ref_auc,
                            "null_scores": nulls, "seconds_duckdb": t_duck, "seconds_sqlite": t_lite,
                            "max_abs_diff_duckdb_sqlite": diff, "pairs_differing": differ})
        if args.roc_dir and curves:
            png = Path(args.roc_dir) / f"{name.replace('.nooverlap', '')}.png"
            roc.plot(curves, png, f"{name} ({len(labels)} pairs, {sum(labels)} positive); AUC [95% bootstrap CI]")
            print(f"wrote {png}", flush=True)
    print("-" * len(header))
    print("ref: AST-TE with sqlglot + zss (data README). NULL: rows scored NULL, counted as 0.0 "
          "(sql_equivalent: 0.5). Seconds: the SELECT alone, in a fresh process per metric and host. "
          f"95% CI: stratified bootstrap, {args.resamples} resamples.")
    print(f"DuckDB and SQLite: largest difference beyond tolerance {worst:.3g} (tolerance {TOLERANCE:g}, "
          f"{FLOAT32_TOLERANCE:g} for float32 model scores) over every metric.")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    if args.readme:
        write_readme(args.readme, results)
        print(f"wrote the table into {args.readme}")
    if worst > 0:
        print("eval.py: DuckDB and SQLite scores differ", file=sys.stderr)
        sys.exit(1)
    if args.floors:
        failures = floor_failures(results)
        for line in failures:
            print(f"eval.py: below the quality floor: {line}", file=sys.stderr)
        print(f"quality floors: {'failed' if failures else 'passed'} ({len(failures)} failures)")
        if failures:
            sys.exit(1)


if __name__ == "__main__":
    main()
