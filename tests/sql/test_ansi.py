"""Standard SQL that SQLite lacks, read with '{"dialect": "ansi"}' (docs/dialects.md, rules `limits`,
`statistics`, `count_distinct`, `aggregates`, `grouping_sets`, `set_operations_all`, `derived_columns`,
`row_values`, `date_values`, and `$` names): each construct is equivalent to a SQLite spelling of its
meaning, and a near miss (one value, bound or duplicate apart) is not equivalent."""
import json

import pytest

from conftest import sqlite_database

T = "CREATE TABLE t (a INTEGER, b INTEGER, c TEXT); CREATE TABLE s (x INTEGER, y INTEGER)"
ANSI = json.dumps({"dialect": "ansi"})
# exec_match of an ansi prediction, rows compared as bags (test-suite semantics would drop DISTINCT)
BAG = json.dumps({"pred_dialect": "ansi", "semantics": "bag"})

# (construct, gold, prediction): both read as standard SQL, and equivalent
EQUIVALENT = [
    ("DATE literal", "SELECT a FROM t WHERE c > date('2022-01-01')", "SELECT a FROM t WHERE c > DATE '2022-01-01'"),
    ("FETCH", "SELECT a FROM t ORDER BY a LIMIT 2 OFFSET 1",
     "SELECT a FROM t ORDER BY a OFFSET 1 ROWS FETCH NEXT 2 ROWS ONLY"),
    ("OFFSET ROWS", "SELECT a FROM t ORDER BY a LIMIT -1 OFFSET 1", "SELECT a FROM t ORDER BY a OFFSET 1 ROWS"),
    ("$ names", "SELECT a AS x FROM t WHERE b > 1",
     "SELECT $cor0.a AS $f0 FROM t AS $cor0 WHERE $cor0.b > 1"),
    ("VALUES AS t (x)", "SELECT a FROM t WHERE a IN (1, 3)",
     "SELECT t.a FROM t JOIN (VALUES (1), (3)) AS v (x) ON t.a = v.x"),
    ("STDDEV_POP", "SELECT SQRT(VAR_POP(a)) FROM t", "SELECT STDDEV_POP(a) FROM t"),
    ("VAR_SAMP", "SELECT VARIANCE(b) FROM t GROUP BY c", "SELECT VAR_SAMP(b) FROM t GROUP BY c"),
    ("COUNT(DISTINCT a, b)", "SELECT COUNT(*) FROM (SELECT DISTINCT a, b FROM t WHERE a IS NOT NULL AND b IS NOT NULL)",
     "SELECT COUNT(DISTINCT a, b) FROM t"),
    ("FILTER", "SELECT SUM(CASE WHEN a > 1 THEN b END) FROM t", "SELECT SUM(b) FILTER (WHERE a > 1) FROM t"),
    ("row =", "SELECT a FROM t WHERE a = 1 AND b = 2", "SELECT a FROM t WHERE (a, b) = (1, 2)"),
    ("row <", "SELECT a FROM t WHERE a < 1 OR (a = 1 AND b < 2)", "SELECT a FROM t WHERE (a, b) < (1, 2)"),
    ("row IN list", "SELECT a FROM t WHERE (a = 1 AND b = 2) OR (a = 3 AND b = 4)",
     "SELECT a FROM t WHERE (a, b) IN ((1, 2), (3, 4))"),
    ("row IN subquery", "SELECT a FROM t WHERE EXISTS (SELECT 1 FROM s WHERE s.x = t.a AND s.y = t.b)",
     "SELECT a FROM t WHERE (a, b) IN (SELECT x, y FROM s)"),
    ("row IN subquery, gold", "SELECT a FROM t WHERE (a, b) IN (SELECT x, y FROM s)",
     "SELECT a FROM t WHERE EXISTS (SELECT 1 FROM s WHERE s.x = t.a AND s.y = t.b)"),
    ("row NOT IN subquery", "SELECT a FROM t WHERE (a, b) NOT IN (SELECT x, y FROM s)",
     "SELECT a FROM t WHERE NOT EXISTS (SELECT 1 FROM s WHERE NOT COALESCE(s.x <> t.a OR s.y <> t.b, FALSE))"),
    ("row IN subquery as a value", "SELECT a, (a, b) IN (SELECT x, y FROM s) FROM t",
     "SELECT a, CASE WHEN EXISTS (SELECT 1 FROM s WHERE s.x = t.a AND s.y = t.b) THEN 1 "
     "WHEN EXISTS (SELECT 1 FROM s WHERE NOT COALESCE(s.x <> t.a OR s.y <> t.b, FALSE)) THEN NULL ELSE 0 END FROM t"),
    ("INTERSECT ALL", "SELECT x FROM s INTERSECT ALL SELECT a FROM t", "SELECT a FROM t INTERSECT ALL SELECT x FROM s"),
    ("EXCEPT ALL", "SELECT a FROM t EXCEPT ALL SELECT x FROM s WHERE x IN (SELECT a FROM t) OR x IS NULL",
     "SELECT a FROM t EXCEPT ALL SELECT x FROM s"),
    ("ROLLUP", "SELECT a, COUNT(*) FROM t GROUP BY a UNION ALL SELECT NULL, COUNT(*) FROM t",
     "SELECT a, COUNT(*) FROM t GROUP BY ROLLUP(a)"),
    ("CUBE", "SELECT a, SUM(b) FROM t GROUP BY GROUPING SETS ((a), ())", "SELECT a, SUM(b) FROM t GROUP BY CUBE(a)"),
]

# (construct, gold, prediction): one apart, not equivalent
NEAR_MISSES = [
    ("DATE literal", "SELECT a FROM t WHERE c >= DATE '2022-01-01'", "SELECT a FROM t WHERE c > DATE '2022-01-01'"),
    ("FETCH", "SELECT a FROM t ORDER BY a LIMIT 2 OFFSET 1",
     "SELECT a FROM t ORDER BY a OFFSET 1 ROWS FETCH NEXT 3 ROWS ONLY"),
    ("OFFSET ROWS", "SELECT a FROM t ORDER BY a LIMIT -1 OFFSET 1", "SELECT a FROM t ORDER BY a OFFSET 2 ROWS"),
    ("$ names", "SELECT a AS x FROM t WHERE b > 1",
     "SELECT $cor0.b AS $f0 FROM t AS $cor0 WHERE $cor0.b > 1"),
    ("VALUES AS t (x)", "SELECT a FROM t WHERE a IN (1, 3)",
     "SELECT t.a FROM t JOIN (VALUES (1), (4)) AS v (x) ON t.a = v.x"),
    ("STDDEV_POP", "SELECT STDDEV_SAMP(a) FROM t", "SELECT STDDEV_POP(a) FROM t"),
    ("VAR_SAMP", "SELECT VAR_POP(b) FROM t GROUP BY c", "SELECT VAR_SAMP(b) FROM t GROUP BY c"),
    ("COUNT(DISTINCT a, b)", "SELECT COUNT(DISTINCT a) FROM t", "SELECT COUNT(DISTINCT a, b) FROM t"),
    ("FILTER", "SELECT SUM(CASE WHEN a > 1 THEN b END) FROM t", "SELECT SUM(b) FILTER (WHERE a >= 1) FROM t"),
    ("row =", "SELECT a FROM t WHERE a = 1 AND b = 2", "SELECT a FROM t WHERE (a, b) = (2, 1)"),
    ("row <", "SELECT a FROM t WHERE a < 1 OR (a = 1 AND b < 2)", "SELECT a FROM t WHERE (a, b) <= (1, 2)"),
    ("row IN list", "SELECT a FROM t WHERE (a = 1 AND b = 2) OR (a = 3 AND b = 4)",
     "SELECT a FROM t WHERE (a, b) IN ((1, 2), (4, 3))"),
    ("row IN subquery", "SELECT a FROM t WHERE a IN (SELECT x FROM s) AND b IN (SELECT y FROM s)",
     "SELECT a FROM t WHERE (a, b) IN (SELECT x, y FROM s)"),
    ("row IN vs EXISTS, gold", "SELECT a FROM t WHERE (a, b) IN (SELECT x, y FROM s)",
     "SELECT a FROM t WHERE EXISTS (SELECT 1 FROM s WHERE s.x = t.a)"),
    ("row NOT IN vs NOT EXISTS (a NULL)", "SELECT a FROM t WHERE (a, b) NOT IN (SELECT x, y FROM s)",
     "SELECT a FROM t WHERE NOT EXISTS (SELECT 1 FROM s WHERE s.x = t.a AND s.y = t.b)"),
    ("row IN, columns swapped", "SELECT a FROM t WHERE (a, b) IN (SELECT x, y FROM s)",
     "SELECT a FROM t WHERE (b, a) IN (SELECT x, y FROM s)"),
    ("INTERSECT ALL", "SELECT a FROM t INTERSECT SELECT x FROM s", "SELECT a FROM t INTERSECT ALL SELECT x FROM s"),
    ("EXCEPT ALL", "SELECT a FROM t EXCEPT ALL SELECT x FROM s WHERE x IN (SELECT a FROM t)",
     "SELECT a FROM t EXCEPT ALL SELECT x FROM s"),
    ("ROLLUP", "SELECT a, COUNT(*) FROM t GROUP BY a", "SELECT a, COUNT(*) FROM t GROUP BY ROLLUP(a)"),
    ("CUBE", "SELECT a, b, SUM(c) FROM t GROUP BY ROLLUP(a, b)", "SELECT a, b, SUM(c) FROM t GROUP BY CUBE(a, b)"),
]


def reason(host, gold, pred):
    return host.value("SELECT sql_equivalent_reason(?, ?, ?, ?)", [gold, pred, T, ANSI])


@pytest.mark.parametrize("construct,gold,pred", EQUIVALENT, ids=[c for c, _, _ in EQUIVALENT])
def test_standard_sql_is_equivalent_to_its_sqlite_meaning(host, construct, gold, pred):
    r = reason(host, gold, pred)
    assert r.startswith("equivalent:"), r


@pytest.mark.parametrize("construct,gold,pred", NEAR_MISSES, ids=[c for c, _, _ in NEAR_MISSES])
def test_a_near_miss_is_not_equivalent(host, construct, gold, pred):
    r = reason(host, gold, pred)
    assert r.startswith("not equivalent:"), r


def test_statistics_give_the_engines_values(sqlite_host, tmp_path):
    db = sqlite_database(tmp_path, T, [(1, 5, "x"), (2, 5, "x"), (3, None, "y"), (4, None, "y")])
    gold = "SELECT 1.25, 5.0 / 3, SQRT(1.25), NULL, NULL"
    # one value: no sample variance; no values: NULL
    pred = ("SELECT VAR_POP(a), VAR_SAMP(a), STDDEV_POP(a), VAR_SAMP(a) FILTER (WHERE a = 1), "
            "STDDEV_POP(b) FILTER (WHERE b > 5) FROM t")
    assert sqlite_host.value("SELECT exec_match(?, ?, ?, ?)", [db, gold, pred, BAG]) == 1


def test_count_distinct_of_tuples_skips_those_with_a_null(sqlite_host, tmp_path):
    db = sqlite_database(tmp_path, T, [(1, 5, "x"), (1, 5, "y"), (1, None, "z"), (2, 5, "x"), (None, None, "x")])
    pred = "SELECT COUNT(DISTINCT a, b), COUNT(DISTINCT c, a) FROM t"
    assert sqlite_host.value("SELECT exec_match(?, ?, ?, ?)",
                             [db, "SELECT 2, 4", pred, BAG]) == 1


def test_intersect_and_except_all_keep_duplicates(sqlite_host, tmp_path):
    db = sqlite_database(tmp_path, T, [(1, 1, "x"), (1, 2, "x"), (1, 3, "x"), (2, 1, "y"), (None, 1, "y"), (None, 2, "y")])
    opts = BAG
    intersect = "SELECT a FROM t INTERSECT ALL SELECT a FROM t WHERE b = 1"
    assert sqlite_host.value("SELECT exec_match(?, ?, ?, ?)",
                             [db, "SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT NULL", intersect, opts]) == 1
    except_all = "SELECT a FROM t EXCEPT ALL SELECT a FROM t WHERE b = 1"
    assert sqlite_host.value("SELECT exec_match(?, ?, ?, ?)",
                             [db, "SELECT 1 UNION ALL SELECT 1 UNION ALL SELECT NULL", except_all, opts]) == 1


def test_constructs_without_a_faithful_translation_give_no_verdict(sqlite_host):
    for pred, construct in [
        ("SELECT a + 1 FROM t INTERSECT ALL SELECT x FROM s", "INTERSECT ALL"),
        ("SELECT x FROM t AS u (x, y, z)", "column names of a table alias"),
        ("SELECT STDDEV_POP(DISTINCT a) FROM t", "STDDEV_POP with DISTINCT"),
    ]:
        r = reason(sqlite_host, "SELECT a FROM t", pred)
        assert r.startswith("unknown:") and construct in r, r
