#!/usr/bin/env python3
"""Quality of sqlsim's SQL metric functions on the labeled pair sets, computed inside both hosts.

Usage (with the project venv, after `make`):

    .venv/bin/python scripts/eval.py [--metrics ast_ted,...] [--sets NAME,...] [--json OUT]

Each metric is a SQL function called as `name(gold, pred)` (`name(gold, pred, schema)` with
--schema-arg), or, when the text contains a parenthesis, a SQL expression over the columns `gold`,
`pred`, `db_id` and `schema`, e.g. `1 - ast_ted_distance(gold, pred) / 100.0` or
`astpm(gold, pred, 0.3, 0.5)`. `schema` is the Spider tables.json entry (JSON) of the pair's db_id
from ../shared/data/spider/tables.json, NULL where the set's databases are not there (WikiSQL,
Spider-DK's own databases). For every labeled set in ../shared/data the metric is
computed through DuckDB (dist/sqlsim.duckdb_extension) and through SQLite (dist/sqlsim.so, via apsw);
the two must agree (the largest absolute difference is reported, and the exit status is 1 when it
exceeds 1e-9). ROC AUC (Mann-Whitney, ties one half), Spearman (average ranks) and Kendall tau-b
against the label are printed next to the reference AST-TE figures of the data README.

Rows with label null are skipped. A NULL score (pred null: no SQL was extracted) counts as 0.0, the
score of SQL that does not parse.
"""

import argparse
import json
import math
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("SQLSIM_DATA", ROOT.parent / "shared" / "data"))
DIST = Path(os.environ.get("SQLSIM_DIST", ROOT / "dist"))
DUCKDB_EXT = DIST / "sqlsim.duckdb_extension"
SQLITE_EXT = DIST / "sqlsim.so"
TOLERANCE = 1e-9

# Reference AST-TE (sqlglot + zss) from the data README: (AUC, Spearman).
SETS = {
    "spiderdk_pair_dev.nooverlap": (0.8022, 0.4275),
    "wikisql_pair_dev": (0.9452, 0.7223),
    "spider_dev_llm_gpt4.nooverlap": (0.7137, 0.3699),
    "spider_dev_llm_gpt3.5.nooverlap": (0.7419, 0.4089),
    "spider_dev_llm_codellama_7b.nooverlap": (0.6765, 0.2104),
    "spider_dev_llm_deepseek_6.7b.nooverlap": None,  # a copy of the CodeLlama outputs
}


def die(message):
    print(f"eval.py: {message}", file=sys.stderr)
    sys.exit(2)


# ---------------------------------------------------------------- statistics (no scipy in the venv)


def average_ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start + 1
        while end < len(order) and values[order[end]] == values[order[start]]:
            end += 1
        rank = (start + 1 + end) / 2.0
        for i in order[start:end]:
            ranks[i] = rank
        start = end
    return ranks


def roc_auc(scores, labels):
    """Mann-Whitney AUC; ties between a positive and a negative count one half."""
    positives = sum(1 for l in labels if l)
    negatives = len(labels) - positives
    if positives == 0 or negatives == 0:
        return None
    ranks = average_ranks(scores)
    rank_sum = sum(r for r, l in zip(ranks, labels) if l)
    return (rank_sum - positives * (positives + 1) / 2.0) / (positives * negatives)


def pearson(x, y):
    n = len(x)
    if n < 2:
        return None
    mx, my = sum(x) / n, sum(y) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    if sxx == 0 or syy == 0:
        return None
    return max(-1.0, min(1.0, sxy / math.sqrt(sxx * syy)))


def spearman(x, y):
    return pearson(average_ranks(x), average_ranks(y))


def kendall_tau_b(x, y):
    n = len(x)
    concordant = discordant = tied_x = tied_y = 0
    for i in range(n):
        xi, yi = x[i], y[i]
        for j in range(i + 1, n):
            dx = (x[j] > xi) - (x[j] < xi)
            dy = (y[j] > yi) - (y[j] < yi)
            if dx == 0:
                tied_x += 1
            if dy == 0:
                tied_y += 1
            s = dx * dy
            if s > 0:
                concordant += 1
            elif s < 0:
                discordant += 1
    pairs = n * (n - 1) // 2
    denominator = math.sqrt((pairs - tied_x) * (pairs - tied_y))
    return (concordant - discordant) / denominator if denominator else None


def self_test():
    assert average_ranks([3, 1, 3, 2, 3]) == [4.0, 1.0, 4.0, 2.0, 4.0]
    assert roc_auc([0.5, 0.5, 0.1, 0.9, 0.7], [1, 0, 0, 1, 0]) == 0.75
    assert abs(spearman([1, 2, 3, 4], [1, 2, 2, 3]) - 4.5 / math.sqrt(5 * 4.5)) < 1e-12
    assert abs(kendall_tau_b([1, 2, 2, 3], [1, 3, 2, 3]) - 0.8) < 1e-12
    assert split_metrics("ast_ted, astpm(gold, pred, 0.3, 0.5),x") == ["ast_ted", "astpm(gold, pred, 0.3, 0.5)", "x"]


# ---------------------------------------------------------------- hosts


def check_dist():
    missing = [p for p in (DUCKDB_EXT, SQLITE_EXT) if not p.is_file()]
    if missing:
        die(
            "missing "
            + ", ".join(str(p) for p in missing)
            + "; build the extension first with `make` (it fills dist/)"
        )


_SPIDER_SCHEMAS = None


def spider_schemas():
    """db_id -> the Spider tables.json entry as JSON text (empty when the file is missing)."""
    global _SPIDER_SCHEMAS
    if _SPIDER_SCHEMAS is None:
        path = DATA / "spider" / "tables.json"
        entries = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else []
        _SPIDER_SCHEMAS = {e["db_id"]: json.dumps(e) for e in entries}
    return _SPIDER_SCHEMAS


def load_rows(name):
    """Labeled rows of a set: (gold, pred, label, db_id, schema or None)."""
    path = DATA / f"{name}.jsonl"
    if not path.is_file():
        die(f"missing data file {path} (set SQLSIM_DATA to the shared data folder)")
    schemas = spider_schemas()
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                if row.get("label") is not None:
                    db_id = row.get("db_id")
                    rows.append((row["gold"], row.get("pred"), int(row["label"]), db_id, schemas.get(db_id)))
    return rows


def expression(metric, schema_arg=False):
    if "(" in metric:
        return metric
    return f"{metric}(gold, pred, schema)" if schema_arg else f"{metric}(gold, pred)"


class DuckHost:
    def __init__(self):
        import duckdb

        self.con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
        self.con.execute(f"LOAD '{DUCKDB_EXT}'")

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

    def scores(self, metric, schema_arg=False):
        sql = f"SELECT {expression(metric, schema_arg)} FROM pairs ORDER BY i"
        return [r[0] for r in self.con.execute(sql).fetchall()]


class SqliteHost:
    def __init__(self):
        import apsw

        self.con = apsw.Connection(":memory:")
        self.con.enable_load_extension(True)
        self.con.load_extension(str(SQLITE_EXT))

    def load(self, rows):
        self.con.execute("DROP TABLE IF EXISTS pairs")
        self.con.execute(
            "CREATE TABLE pairs (i INTEGER PRIMARY KEY, gold TEXT, pred TEXT, db_id TEXT, schema TEXT)"
        )
        with self.con:
            self.con.executemany(
                "INSERT INTO pairs VALUES (?, ?, ?, ?, ?)",
                [(i, r[0], r[1], r[3], r[4]) for i, r in enumerate(rows)],
            )

    def scores(self, metric, schema_arg=False):
        sql = f"SELECT {expression(metric, schema_arg)} FROM pairs ORDER BY i"
        return [r[0] for r in self.con.execute(sql).fetchall()]


def split_metrics(text):
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


def fmt(value, width=7):
    return f"{value:>{width}.4f}" if value is not None else f"{'-':>{width}}"


def fmt_delta(ours, ref, width=7):
    return f"{ours - ref:>+{width}.4f}" if ours is not None and ref is not None else f"{'-':>{width}}"


def main():
    global DATA
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--metrics", default="ast_ted",
                        help="comma-separated SQL functions or expressions (default ast_ted; e.g. ast_ted,astpm)")
    parser.add_argument("--schema-arg", action="store_true",
                        help="call bare function names as name(gold, pred, schema) (Spider tables.json entry or NULL)")
    parser.add_argument("--sets", help="comma-separated substrings of set names (default: all labeled sets)")
    parser.add_argument("--no-kendall", action="store_true", help="skip Kendall tau-b (quadratic in pure Python)")
    parser.add_argument("--json", help="also write the results as JSON to this file")
    parser.add_argument("--data", help=f"shared data folder (default $SQLSIM_DATA or {DATA})")
    parser.add_argument("--floors", action="store_true",
                        help="exit 1 when ast_ted's AUC falls below the reference on any set (CI quality floor)")
    args = parser.parse_args()
    if args.data:
        DATA = Path(args.data).resolve()

    self_test()
    check_dist()
    metrics = split_metrics(args.metrics)
    sets = list(SETS)
    if args.sets:
        wanted = [s.strip() for s in args.sets.split(",") if s.strip()]
        sets = [s for s in sets if any(w in s for w in wanted)]
        if not sets:
            die(f"no set matches {args.sets!r}")

    duck, lite = DuckHost(), SqliteHost()
    width = max([12] + [len(m) for m in metrics])
    results = []
    below = []
    worst = 0.0
    header = (
        f"{'metric':<{width}} {'set':<40} {'n':>5} {'pos':>4} {'AUC':>7} {'ref':>7} {'dAUC':>7} "
        f"{'Spearman':>8} {'ref':>7} {'dSpear':>7} {'Kendall':>7} {'NULL':>5} {'max|duck-sqlite|':>16}"
    )
    print(header)
    print("-" * len(header))
    for name in sets:
        rows = load_rows(name)
        labels = [r[2] for r in rows]
        duck.load(rows)
        lite.load(rows)
        reference = SETS[name]
        for metric in metrics:
            try:
                a = duck.scores(metric, args.schema_arg)
                b = lite.scores(metric, args.schema_arg)
            except Exception as e:  # noqa: BLE001 - report which host and metric failed
                die(f"{metric} on {name}: {type(e).__name__}: {e}")
            nulls = sum(1 for v in a if v is None)
            diff = 0.0
            for x, y in zip(a, b):
                if (x is None) != (y is None):
                    diff = math.inf
                elif x is not None:
                    diff = max(diff, abs(float(x) - float(y)))
            worst = max(worst, diff)
            scores = [float(v) if v is not None else 0.0 for v in a]
            auc = roc_auc(scores, labels)
            rho = spearman(scores, labels)
            tau = None if args.no_kendall else kendall_tau_b(scores, labels)
            ref_auc, ref_rho = reference if reference and metric == "ast_ted" else (None, None)
            if ref_auc is not None and auc is not None and auc < ref_auc:
                below.append(f"{metric} on {name}: AUC {auc:.4f} < floor {ref_auc:.4f}")
            print(
                f"{metric:<{width}} {name:<40} {len(rows):>5} {sum(labels):>4} {fmt(auc)} {fmt(ref_auc)} "
                f"{fmt_delta(auc, ref_auc)} {fmt(rho, 8)} {fmt(ref_rho)} {fmt_delta(rho, ref_rho)} "
                f"{fmt(tau)} {nulls:>5} {diff:>16.3g}",
                flush=True,
            )
            results.append(
                {
                    "metric": metric,
                    "set": name,
                    "n": len(rows),
                    "positives": sum(labels),
                    "auc": auc,
                    "spearman": rho,
                    "kendall_tau_b": tau,
                    "reference_auc": ref_auc,
                    "reference_spearman": ref_rho,
                    "null_scores": nulls,
                    "max_abs_diff_duckdb_sqlite": diff,
                }
            )
    print("-" * len(header))
    print("ref: AST-TE with sqlglot + zss (data README). NULL: rows scored NULL (pred null), counted as 0.0.")
    print(f"DuckDB and SQLite agree within {worst:.3g} (tolerance {TOLERANCE:g}).")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    if worst > TOLERANCE:
        print("eval.py: DuckDB and SQLite scores differ", file=sys.stderr)
        sys.exit(1)
    if args.floors:
        for line in below:
            print(f"eval.py: below the quality floor: {line}", file=sys.stderr)
        checked = sum(1 for r in results if r["reference_auc"] is not None)
        print(f"quality floors: {checked - len(below)} passed, {len(below)} failed")
        if below:
            sys.exit(1)


if __name__ == "__main__":
    main()
