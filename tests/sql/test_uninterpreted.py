"""Functions the engine does not know, read by the verdict as uninterpreted (docs/semantics.md,
"Functions the engine does not know"): equivalent rewrites around them are equivalent, near
misses are disproved with a counterexample showing the table of values it assumed; and text
compared with a column declared INT is generated where SQLite stores it ("Text in a column
declared INT")."""
import json

import pytest

T = "CREATE TABLE t (x INTEGER, y INTEGER, c TEXT)"

EQUIVALENT = [
    ("filter order", "SELECT x FROM t WHERE B1(x) AND y > 1", "SELECT x FROM t WHERE y > 1 AND B1(x)"),
    ("rewrite", "SELECT F(x) FROM t WHERE x IN (1, 2)", "SELECT F(x) FROM t WHERE x = 1 OR x = 2"),
    ("two arguments", "SELECT F(x, y) FROM t", "SELECT f(t.x, t.y) AS v FROM t"),
]

NEAR_MISSES = [
    ("argument", "SELECT x FROM t WHERE B1(x)", "SELECT x FROM t WHERE B1(y)", "B1"),
    ("argument order", "SELECT F(x, y) FROM t", "SELECT F(y, x) FROM t", "F"),
]


def reason(host, gold, pred, schema=T):
    return host.value("SELECT sql_equivalent_reason(?, ?, ?)", [gold, pred, schema])


@pytest.mark.parametrize("case,gold,pred", EQUIVALENT, ids=[c for c, _, _ in EQUIVALENT])
def test_equivalent_rewrites_are_equivalent(host, case, gold, pred):
    r = reason(host, gold, pred)
    assert r.startswith("equivalent:") and "as uninterpreted" in r, r


@pytest.mark.parametrize("case,gold,pred,name", NEAR_MISSES, ids=[c for c, _, _, _ in NEAR_MISSES])
def test_near_misses_show_the_table_of_values(host, case, gold, pred, name):
    r = reason(host, gold, pred)
    assert r.startswith("not equivalent:") and f"{name}(" in r and "read as uninterpreted" in r, r
    rows = host.table_call("sql_counterexample", [gold, pred], named={"schema": T})
    values = [json.loads(row[2]) for row in rows if row[0] == f"{name}()"]
    assert values and all(set(v) == {"arguments", "value"} for v in values), rows
    # the table is a function: equal arguments, one value
    seen = {}
    for v in values:
        assert seen.setdefault(json.dumps(v["arguments"]), v["value"]) == v["value"], values


def test_unknown_aggregates_and_window_calls_stay_unknown(host):
    for pred in ["SELECT MEDIAN(x) FROM t", "SELECT F(x) OVER () FROM t"]:
        r = reason(host, pred, pred)
        assert r.startswith("unknown:"), r


def test_text_compared_with_an_int_column_is_generated(host):
    schema = "CREATE TABLE dept (did INTEGER PRIMARY KEY, dname INT, loc TEXT)"
    gold = "SELECT did FROM dept WHERE dname = 'SECURITY'"
    r = reason(host, gold, "SELECT did FROM dept WHERE dname = 'SECURITY' AND loc IS NOT NULL", schema)
    assert r.startswith("not equivalent:"), r
    r = reason(host, gold, "SELECT did FROM dept WHERE 'SECURITY' = dname", schema)
    assert r.startswith("equivalent:"), r


def test_a_having_of_four_distinct_values_is_reached(host):
    schema = "CREATE TABLE e (id INTEGER PRIMARY KEY, d INT, salary INT)"
    gold = "SELECT d FROM e GROUP BY d HAVING COUNT(DISTINCT salary) = 4"
    r = reason(host, gold, "SELECT d FROM e GROUP BY d HAVING 4 = COUNT(DISTINCT salary)", schema)
    assert r.startswith("equivalent:"), r
