"""Date and time translations of other dialects (docs/dialects.md, rules `date_format` to
`date_diff`) in both hosts: a PostgreSQL, MySQL or DuckDB query is equivalent to its SQLite
spelling, parts are numbers where the dialect gives numbers, and each dialect numbers the days of
the week its own way."""

import pytest

from conftest import opts, sqlite_database

T = "CREATE TABLE t (id INTEGER, d DATE, a DATETIME, b DATETIME)"


# (SQLite gold, prediction, its dialect): equivalent only once the prediction is read in its dialect
PAIRS = [
    ("SELECT CAST(strftime('%Y', d) AS INTEGER), CAST(strftime('%m', d) AS INTEGER) FROM t",
     "SELECT EXTRACT(YEAR FROM d), DATE_PART('month', d) FROM t", "postgres"),
    ("SELECT id FROM t WHERE CAST(strftime('%Y', d) AS INTEGER) = 2020",
     "SELECT id FROM t WHERE YEAR(d) = 2020", "mysql"),
    ("SELECT strftime('%Y-%m', d) FROM t", "SELECT DATE_FORMAT(d, '%Y-%m') FROM t", "mysql"),
    ("SELECT strftime('%Y-%m', d) FROM t", "SELECT TO_CHAR(d, 'YYYY-MM') FROM t", "postgres"),
    ("SELECT datetime(d, 'start of month') FROM t", "SELECT DATE_TRUNC('month', d) FROM t", "postgres"),
    ("SELECT datetime(a, '+1 days') FROM t", "SELECT a + INTERVAL '1 day' FROM t", "postgres"),
    ("SELECT date(d, '-7 days') FROM t", "SELECT DATE_SUB(CAST(d AS DATE), INTERVAL 7 DAY) FROM t", "mysql"),
    ("SELECT CAST(julianday(date(a)) - julianday(date(b)) AS INTEGER) FROM t",
     "SELECT DATEDIFF(a, b) FROM t", "mysql"),
    # DuckDB's EPOCH writes strftime('%s', ..), which DuckDB's STRFTIME must not read again
    ("SELECT CAST(strftime('%s', a) AS INTEGER) + CAST(strftime('%f', a) AS REAL)"
     " - CAST(strftime('%S', a) AS INTEGER) FROM t", "SELECT EPOCH(a) FROM t", "duckdb"),
]


@pytest.mark.parametrize("gold,pred,dialect", PAIRS)
def test_a_date_prediction_in_its_dialect_is_equivalent_to_its_sqlite_spelling(host, gold, pred, dialect):
    reason = host.value("SELECT sql_equivalent_reason(?, ?, ?, ?)", [gold, pred, T, opts(pred_dialect=dialect)])
    assert reason.startswith("equivalent:"), reason


def test_each_dialect_numbers_the_days_of_the_week(host, tmp_path):
    # 2024-01-07 is a Sunday: 0 in PostgreSQL, 1 in MySQL's DAYOFWEEK, 6 in MySQL's WEEKDAY
    db = sqlite_database(tmp_path, T, [(1, "2024-01-07", None, None)])
    gold = "SELECT CAST(strftime('%w', d) AS INTEGER) FROM t"
    postgres, mysql = "SELECT EXTRACT(DOW FROM d) FROM t", "SELECT DAYOFWEEK(d) FROM t"
    assert host.value("SELECT exec_match(?, ?, ?, ?)", [db, gold, postgres, opts(pred_dialect="postgres")]) == 1
    assert host.value("SELECT exec_match(?, ?, ?, ?)", [db, gold, mysql, opts(pred_dialect="mysql")]) == 0
    assert host.value("SELECT exec_match(?, ?, ?, ?)",
                      [db, "SELECT 6 FROM t", "SELECT WEEKDAY(d) FROM t", opts(pred_dialect="mysql")]) == 1


def test_a_part_is_a_number_and_a_format_is_text(host, tmp_path):
    db = sqlite_database(tmp_path, T, [(1, "2020-03-04", None, None)])
    number, text = "SELECT 2020 FROM t", "SELECT '2020' FROM t"
    extract, formatted = "SELECT EXTRACT(YEAR FROM d) FROM t", "SELECT TO_CHAR(d, 'YYYY') FROM t"
    assert host.value("SELECT exec_match(?, ?, ?, ?)", [db, number, extract, opts(pred_dialect="postgres")]) == 1
    assert host.value("SELECT exec_match(?, ?, ?, ?)", [db, text, formatted, opts(pred_dialect="postgres")]) == 1
    assert host.value("SELECT exec_match(?, ?, ?, ?)", [db, text, extract, opts(pred_dialect="postgres")]) == 0


def test_a_month_added_to_the_31st_ends_at_the_end_of_the_month(host, tmp_path):
    db = sqlite_database(tmp_path, T, [(1, "2020-01-31", None, None)])
    pred = "SELECT DATE_ADD(d, INTERVAL 1 MONTH) FROM t"
    assert host.value("SELECT exec_match(?, ?, ?, ?)",
                      [db, "SELECT '2020-02-29' FROM t", pred, opts(pred_dialect="mysql")]) == 1


def test_dates_without_a_sqlite_spelling_give_no_verdict(host):
    args = ["SELECT d FROM t", "SELECT DATE_TRUNC('decade', d) FROM t", T, opts(pred_dialect="postgres")]
    assert host.value("SELECT sql_equivalent(?, ?, ?, ?)", args) is None
    reason = host.value("SELECT sql_equivalent_reason(?, ?, ?, ?)", args)
    assert reason.startswith("unknown:") and "DATE_TRUNC" in reason, reason
