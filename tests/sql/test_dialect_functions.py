"""Function and operator translations of other dialects (docs/dialects.md, rules `conditionals` to
`limits`) in both hosts: a PostgreSQL or MySQL query is equivalent to its SQLite spelling, and where
the engines disagree (LIKE's letter case, MySQL's CONCAT of NULL) the verdict follows the
dialect."""

import pytest

from conftest import opts, sqlite_database

T = "CREATE TABLE t (a INTEGER, b INTEGER, c TEXT)"


# (SQLite gold, prediction, its dialect): equivalent only once the prediction is read in its dialect
PAIRS = [
    ("SELECT IIF(a > 1, 'x', 'y'), COALESCE(b, 0) FROM t", "SELECT IF(a > 1, 'x', 'y'), IFNULL(b, 0) FROM t", "mysql"),
    ("SELECT MAX(COALESCE(a, b), COALESCE(b, a)) FROM t", "SELECT GREATEST(a, b) FROM t", "postgres"),
    ("SELECT MIN(a, b) FROM t", "SELECT LEAST(a, b) FROM t", "mysql"),
    ("SELECT a || ' ' || c FROM t", "SELECT CONCAT(a, ' ', c) FROM t", "mysql"),
    ("SELECT INSTR(c, 'a'), SUBSTR(c, 2, 3) FROM t", "SELECT POSITION('a' IN c), SUBSTRING(c FROM 2 FOR 3) FROM t",
     "postgres"),
    ("SELECT SUBSTR(c, 1, 2), SUBSTR(c, -2) FROM t", "SELECT LEFT(c, 2), RIGHT(c, 2) FROM t", "postgres"),
    ("SELECT COUNT(CASE WHEN a > 1 THEN 1 END), SUM(CASE WHEN c = 'x' THEN b END) FROM t",
     "SELECT COUNT(*) FILTER (WHERE a > 1), SUM(b) FILTER (WHERE c = 'x') FROM t", "postgres"),
    ("SELECT GROUP_CONCAT(c, '; ') FROM t", "SELECT GROUP_CONCAT(c SEPARATOR '; ') FROM t", "mysql"),
    ("SELECT a FROM t ORDER BY a LIMIT 2 OFFSET 1", "SELECT a FROM t ORDER BY a LIMIT 1, 2", "mysql"),
    ("SELECT a FROM t WHERE a IS NOT DISTINCT FROM b", "SELECT a FROM t WHERE a <=> b", "mysql"),
]


@pytest.mark.parametrize("gold,pred,dialect", PAIRS)
def test_a_prediction_in_its_dialect_is_equivalent_to_its_sqlite_spelling(host, gold, pred, dialect):
    reason = host.value("SELECT sql_equivalent_reason(?, ?, ?, ?)", [gold, pred, T, opts(pred_dialect=dialect)])
    assert reason.startswith("equivalent:"), reason


def test_postgres_like_tells_case_apart(host, tmp_path):
    db = sqlite_database(tmp_path, T, [(1, 1, "abc"), (2, 2, "Abd")])
    pred = "SELECT a FROM t WHERE c LIKE 'Ab%'"
    case_sensitive, like = "SELECT a FROM t WHERE c GLOB 'Ab*'", "SELECT a FROM t WHERE c LIKE 'Ab%'"
    assert host.value("SELECT exec_match(?, ?, ?, ?)", [db, case_sensitive, pred, opts(pred_dialect="postgres")]) == 1
    assert host.value("SELECT exec_match(?, ?, ?, ?)", [db, like, pred, opts(pred_dialect="postgres")]) == 0
    ilike = "SELECT a FROM t WHERE c ILIKE 'ab%'"
    assert host.value("SELECT exec_match(?, ?, ?, ?)", [db, like, ilike, opts(pred_dialect="postgres")]) == 1


def test_mysql_compares_text_with_case_as_sqlite_does(host, tmp_path):
    # MySQL's LIKE ignores case as SQLite's does; its `=` and LOCATE keep SQLite's case rules
    # (docs/dialects.md, known limits)
    db = sqlite_database(tmp_path, T, [(1, 1, "Anna"), (2, 2, "Bob")])
    gold = "SELECT a FROM t WHERE c = 'Anna'"
    assert host.value("SELECT exec_match(?, ?, ?, ?)", [db, gold, "SELECT a FROM t WHERE c LIKE 'anna'",
                                                         opts(pred_dialect="mysql")]) == 1
    assert host.value("SELECT exec_match(?, ?, ?, ?)", [db, gold, "SELECT a FROM t WHERE c = 'anna'",
                                                         opts(pred_dialect="mysql")]) == 0
    located = "SELECT a FROM t WHERE LOCATE('Ann', c) > 0"
    assert host.value("SELECT exec_match(?, ?, ?, ?)", [db, gold, located, opts(pred_dialect="mysql")]) == 1


def test_mysql_concat_is_null_with_a_null_argument(host, tmp_path):
    db = sqlite_database(tmp_path, T, [(1, None, "x"), (2, 2, None)])
    gold = "SELECT a || c FROM t"
    pred = "SELECT CONCAT(a, c) FROM t"
    assert host.value("SELECT exec_match(?, ?, ?, ?)", [db, gold, pred, opts(pred_dialect="mysql")]) == 1
    # PostgreSQL's CONCAT skips the NULL
    assert host.value("SELECT exec_match(?, ?, ?, ?)", [db, gold, pred, opts(pred_dialect="postgres")]) == 0


def test_functions_without_a_sqlite_spelling_give_no_verdict(host):
    args = ["SELECT c FROM t", "SELECT SPLIT_PART(c, ',', 2) FROM t", T, opts(pred_dialect="postgres")]
    assert host.value("SELECT sql_equivalent(?, ?, ?, ?)", args) is None
    reason = host.value("SELECT sql_equivalent_reason(?, ?, ?, ?)", args)
    assert reason.startswith("unknown:") and "SPLIT_PART in postgres" in reason, reason
