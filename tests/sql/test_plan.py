"""Logical plans and RelPM through both real hosts: sql_plan, sql_plan_error, relpm."""
import json
import os

import pytest

from conftest import ROOT, HostError

with open(os.path.join(ROOT, "tests", "fixtures", "plan_schema.json")) as f:
    SCHEMA = json.dumps(json.load(f))

DDL = (
    "CREATE TABLE singer (singer_id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT, age INT);"
    "CREATE TABLE singer_in_concert (concert_id INT, singer_id INT REFERENCES singer(singer_id),"
    " PRIMARY KEY (concert_id, singer_id))"
)


def test_sql_plan_shows_an_optimized_calcite_style_plan(host):
    plan = host.value(
        "SELECT sql_plan(?, ?)",
        ["SELECT name FROM singer WHERE age BETWEEN 20 AND 30 AND 1 = 1", SCHEMA],
    )
    assert plan == (
        "LogicalProject(name=[$1])\n"
        "  LogicalFilter(condition=[AND(<=($3, 30), >=($3, 20))])\n"
        "    LogicalTableScan(table=[[singer]])\n"
    )


def test_sql_plan_decorrelates_not_in_exactly(host):
    # Key columns on both sides (INTEGER PRIMARY KEY; a column of the composite key, which the
    # planner reads as never NULL, as the SQL standard has it): the anti join needs no NULL terms.
    sql = "SELECT name FROM singer WHERE singer_id NOT IN (SELECT singer_id FROM singer_in_concert)"
    plan = host.value("SELECT sql_plan(?, ?)", [sql, DDL])
    assert "joinType=[anti]" in plan
    assert "IS NULL" not in plan
    # A column that may be NULL keeps its term: with a NULL there, NOT IN is never true.
    sql = "SELECT name FROM singer WHERE singer_id NOT IN (SELECT age FROM singer WHERE country = 'x')"
    plan = host.value("SELECT sql_plan(?, ?)", [sql, DDL])
    assert "joinType=[anti]" in plan
    assert "IS NULL" in plan


def test_sql_plan_without_schema_infers_tables(host):
    plan = host.value("SELECT sql_plan('SELECT t.a FROM t JOIN u ON t.id = u.id')")
    assert "LogicalJoin" in plan and "table=[[t]]" in plan and "table=[[u]]" in plan
    assert host.value("SELECT sql_plan('SELECT * FROM t')") == "LogicalTableScan(table=[[t]])\n"


def test_sql_plan_error_explains_what_cannot_be_planned(host):
    assert host.value("SELECT sql_plan_error('SELECT name FROM singer', ?)", [SCHEMA]) is None
    assert host.value("SELECT sql_plan_error('SELECT nme FROM singer', ?)", [SCHEMA]) == "no such column: nme"
    assert host.value("SELECT sql_plan_error('SELECT 1 FROM nowhere', ?)", [SCHEMA]) == "no such table: nowhere"
    assert "named window" in host.value(
        "SELECT sql_plan_error('SELECT rank() OVER w FROM t WINDOW w AS (ORDER BY a)')")
    assert "misuse of window function in WHERE" in host.value(
        "SELECT sql_plan_error('SELECT a FROM t WHERE rank() OVER (ORDER BY a) = 1')")
    assert host.value("SELECT sql_plan('SELECT nme FROM singer', ?)", [SCHEMA]) is None
    assert host.value("SELECT sql_plan(NULL)") is None


def test_window_functions_plan_and_score(host):
    top = "SELECT name FROM (SELECT name, rank() OVER (ORDER BY age DESC) AS r FROM singer) WHERE r = 1"
    plan = host.value("SELECT sql_plan(?, ?)", [top, SCHEMA])
    assert "LogicalWindow(rank=[RANK() OVER (ORDER BY $3 DESC)])" in plan, plan
    assert plan.index("LogicalFilter") < plan.index("LogicalWindow"), plan
    spelled = "SELECT t.name FROM (SELECT s.name, RANK() OVER (ORDER BY s.age DESC) AS k FROM singer AS s) AS t WHERE t.k = 1"
    assert host.value("SELECT relpm(?, ?, ?)", [top, spelled, SCHEMA]) == 1.0
    dense = top.replace("rank()", "dense_rank()")
    assert host.value("SELECT relpm(?, ?, ?)", [top, dense, SCHEMA]) < 1.0
    # both models read the plan (the Hybrid GMN the written AST too, which the aliases change)
    assert host.value("SELECT gmn_similarity(?, ?, ?)", [top, spelled, SCHEMA]) > 0.999
    assert host.value("SELECT hybrid_gmn_similarity(?, ?, ?)", [top, spelled, SCHEMA]) > 0.1


def test_bad_schema_text_names_the_function(host):
    with pytest.raises(HostError, match=r"sql_plan\(\): argument 'schema'"):
        host.value("SELECT sql_plan('SELECT 1', '{not json')")
    with pytest.raises(HostError, match=r"relpm\(\): argument 'schema'"):
        host.value("SELECT relpm('SELECT 1', 'SELECT 1', 'SELECT 1')")


def test_relpm_scores(host):
    a = "SELECT name FROM singer WHERE age BETWEEN 20 AND 30"
    b = "SELECT s.name FROM singer AS s WHERE 30 >= s.age AND s.age >= 20"
    assert host.value("SELECT relpm(?, ?, ?)", [a, b, SCHEMA]) == 1.0
    c = "SELECT name FROM singer WHERE age > 30"
    partial = host.value("SELECT relpm(?, ?, ?)", [a, c, SCHEMA])
    assert 0.0 < partial < 1.0
    assert host.value("SELECT relpm(?, ?, ?, 0.5, 1)", [a, c, SCHEMA]) < partial
    assert host.value("SELECT relpm(?, 'SELECT nme FROM singer', ?)", [a, SCHEMA]) == 0.0
    assert host.value("SELECT relpm(?, ?)", [a, b]) == 1.0
    assert host.value("SELECT relpm(NULL, ?)", [a]) is None
    assert host.value("SELECT relpm(?, ?, NULL, NULL, NULL)", [a, b]) == 1.0


def test_relpm_argument_errors(host):
    with pytest.raises(HostError, match=r"relpm\(\): argument 'alpha'"):
        host.value("SELECT relpm('SELECT 1', 'SELECT 1', NULL, 2)")
    with pytest.raises(HostError, match=r"relpm\(\): argument 'beta'"):
        host.value("SELECT relpm('SELECT 1', 'SELECT 1', NULL, 0.5, 0)")
    with pytest.raises(HostError, match="relpm"):
        host.value("SELECT relpm('SELECT 1')")


def test_relpm_vectorized_rows_keep_their_order(host):
    rows = host.rows(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) "
        "SELECT i, relpm('SELECT a FROM t WHERE b > ' || (i % 3), 'SELECT a FROM t WHERE b > 1') FROM n ORDER BY i"
    )
    assert len(rows) == 3000
    assert {s for i, s in rows if i % 3 == 1} == {1.0}
    assert all(s < 1.0 for i, s in rows if i % 3 != 1)


def test_pathological_queries_are_bounded(host):
    deep = "SELECT " + " + ".join(["a"] * 3000) + " FROM t"
    assert host.value("SELECT sql_plan(?)", [deep]) is None
    # a 3,000-term chain is refused before it nests 3,000 deep (parse::MAX_OPERATOR_CHAIN)
    assert "chains over 400 operators" in host.value("SELECT sql_plan_error(?)", [deep])
    nested = "SELECT a + a AS a FROM t"
    for _ in range(12):
        nested = f"SELECT a + a AS a FROM ({nested}) AS s"
    plan = host.value("SELECT sql_plan(?)", [nested])
    assert plan is not None and len(plan) < 200_000
    assert host.value("SELECT relpm(?, ?)", [nested, nested]) == 1.0
