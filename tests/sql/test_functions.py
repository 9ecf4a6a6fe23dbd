"""Every SQL function, called through both real hosts (apsw SQLite and Python DuckDB)."""
import json

import pytest

from conftest import HostError

SIMPLE = "SELECT name FROM singer WHERE age > 20"


def test_ast_ted_identical_and_case_insensitive(host):
    assert host.value("SELECT ast_ted(?, ?)", [SIMPLE, SIMPLE]) == 1.0
    assert host.value("SELECT ast_ted(?, ?)", [SIMPLE, "select NAME from SINGER where AGE > 20;"]) == 1.0


def test_ast_ted_range_symmetry_and_unparseable(host):
    a, b = SIMPLE, "SELECT name, age FROM singer ORDER BY age"
    ab = host.value("SELECT ast_ted(?, ?)", [a, b])
    ba = host.value("SELECT ast_ted(?, ?)", [b, a])
    assert 0.0 < ab < 1.0 and ab == ba
    assert host.value("SELECT ast_ted(?, ?)", [a, "SELEC name FRM"]) == 0.0
    assert host.value("SELECT ast_ted(?, ?)", ["garbage (", "garbage ("]) == 0.0


def test_ast_ted_reads_a_filter_over_a_grouped_derived_table_as_having(host):
    gold = "SELECT country, count(*) FROM singer GROUP BY country HAVING count(*) > 2"
    rewrite = ("SELECT c0, c1 FROM (SELECT T1.country AS c0, count(*) AS c1, count(*) AS h0 FROM singer AS T1 "
               "GROUP BY T1.country) AS g WHERE g.h0 > 2")
    assert host.value("SELECT ast_ted(?, ?)", [gold, rewrite]) == 1.0
    assert host.value("SELECT sql_ast(?) = sql_ast(?)", [gold, rewrite]) in (1, True)
    # an outer DISTINCT is another query shape: the pass leaves it alone
    assert host.value("SELECT ast_ted(?, ?)", [gold, rewrite.replace("SELECT c0", "SELECT DISTINCT c0")]) < 1.0


def test_ast_ted_null(host):
    assert host.value("SELECT ast_ted(NULL, ?)", [SIMPLE]) is None
    assert host.value("SELECT ast_ted(?, NULL)", [SIMPLE]) is None


def test_ast_ted_distance(host):
    assert host.value("SELECT ast_ted_distance(?, ?)", [SIMPLE, SIMPLE]) == 0
    # One leaf relabelled (column name) costs 2.
    assert host.value("SELECT ast_ted_distance('SELECT a FROM t', 'SELECT b FROM t')") == 2
    assert host.value("SELECT ast_ted_distance('SELECT a FROM t', 'SELECT FROM WHERE')") is None
    assert host.value("SELECT ast_ted_distance(NULL, 'SELECT 1')") is None


def test_sql_ast_json_matches_node_rows(host):
    tree = json.loads(host.value("SELECT sql_ast(?)", [SIMPLE]))
    count, stack = 0, [tree]
    while stack:
        node = stack.pop()
        count += 1
        assert isinstance(node["label"], str) and node["label"]
        stack.extend(node.get("children", []))
    rows = host.table_call("sql_ast_nodes", [SIMPLE])
    assert len(rows) == count
    assert rows[0][1] is None and rows[0][2] == 0 and rows[0][3] == tree["label"]
    assert all(r[1] is not None for r in rows[1:])
    assert host.value("SELECT sql_ast('not sql at all')") is None
    assert host.table_call("sql_ast_nodes", ["not sql at all"]) == []


def test_sql_parse_error(host):
    assert host.value("SELECT sql_parse_error(?)", [SIMPLE]) is None
    message = host.value("SELECT sql_parse_error('SELECT FROM WHERE (')")
    assert isinstance(message, str) and len(message) > 5
    assert host.value("SELECT sql_parse_error(NULL)") is None


def test_sqlsim_version_and_debug(host):
    version = host.value("SELECT sqlsim_version()")
    assert version.startswith("sqlsim ") and "(" in version
    debug = json.loads(host.value("SELECT sqlsim_debug()"))
    assert debug["host"] == host.name
    assert debug["version"] in version
    assert debug["limits"]["max_sql_bytes"] >= 1 << 20


def test_sqlsim_functions_lists_the_surface(host):
    rows = host.table_call("sqlsim_functions", [])
    names = {r[0] for r in rows}
    assert {"ast_ted", "ast_ted_distance", "sql_ast", "sql_parse_error", "sqlsim_version",
            "sqlsim_debug", "sqlsim_functions", "sql_ast_nodes"} <= names
    assert {r[1] for r in rows} == {"scalar", "table"}
    assert all(r[2].startswith(r[0] + "(") and r[3] for r in rows)


def test_wrong_argument_count_names_the_function(host):
    with pytest.raises(HostError, match="ast_ted"):
        host.value("SELECT ast_ted('SELECT 1')")
    with pytest.raises(HostError, match="ast_ted"):
        host.value("SELECT ast_ted('SELECT 1', 'SELECT 1', 'SELECT 1')")


def test_scores_over_more_rows_than_a_chunk(host):
    """3,000 rows span two DuckDB chunks; each row must get its own score, in order."""
    host.rows("CREATE TEMP TABLE IF NOT EXISTS runs(i INTEGER, gold TEXT, pred TEXT)")
    host.rows("DELETE FROM runs")
    host.rows(
        "INSERT INTO runs SELECT i, 'SELECT name FROM singer WHERE age > 20', "
        "CASE WHEN i % 2 = 0 THEN 'SELECT name FROM singer WHERE age > 20' "
        "ELSE 'SELECT name FROM singer WHERE age > ' || i END "
        "FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) SELECT i FROM n)"
    )
    rows = host.rows("SELECT i, ast_ted(gold, pred) FROM runs ORDER BY i")
    assert len(rows) == 3000
    assert all((score == 1.0) == (i % 2 == 0) for i, score in rows)
    assert all(0.0 < score <= 1.0 for _, score in rows)
