"""The dialect options (docs/dialects.md) in both hosts: every function that reads SQL takes them,
a query written for another engine is read with that engine's meaning, constructs without a faithful
translation give no verdict, and the Spider functions refuse other dialects."""
import sqlite3

import pytest

from conftest import HostError, opts


T = "CREATE TABLE t (a INTEGER, b INTEGER, c TEXT)"
SQL_PARAMS = {"sql", "query", "gold", "pred", "a", "b"}


def param_names(signature):
    head = signature.split("->")[0]
    inside = head[head.index("(") + 1: head.rindex(")")]
    return {p.strip(" []").split(" ")[0] for p in inside.split(",") if p.strip(" []")}


def test_every_function_that_reads_sql_takes_options(host):
    rows = host.rows("SELECT name, signature FROM sqlsim_functions()")
    readers = [(name, sig) for name, sig in rows if SQL_PARAMS & param_names(sig)]
    assert len(readers) >= 20, readers
    missing = [name for name, sig in readers if "options TEXT" not in sig]
    assert missing == [], missing


def test_a_query_is_parsed_by_its_dialect(host):
    assert host.value("SELECT sql_parse_error(?, ?)", ["SELECT x::INT FROM t", opts(dialect="postgres")]) is None
    message = host.value("SELECT sql_parse_error(?, ?)", ["SELEC x FROM t", opts(dialect="postgres")])
    assert "postgres" in message


def test_sql_translate_shows_the_sqlite_text_every_function_reads(host):
    translate = "SELECT sql_translate(?, ?)"
    assert host.value(translate, ["SELECT x::FLOAT / 2 FROM t", opts(dialect="postgres")]) == \
        "SELECT CAST(x AS REAL) / 2 FROM t"
    assert host.value("SELECT sql_translate(?)", ["SELECT a / b FROM t"]) == "SELECT a / b FROM t"
    untranslated = host.value(translate, ["SELECT SPLIT_PART(c, ',', 2) FROM t", opts(dialect="postgres")])
    assert "sqlsim_untranslated('SPLIT_PART in postgres'" in untranslated, untranslated
    assert host.value(translate, ["SELEC x FROM t", opts(dialect="mysql")]) is None
    with pytest.raises(HostError, match="sql_translate"):
        host.value(translate, ["SELECT 1", opts(gold_dialect="mysql")])


def test_the_same_query_spelled_for_two_engines_scores_one(host):
    sqlite = "SELECT CAST(a AS REAL) / b FROM t ORDER BY a NULLS LAST"
    postgres = "SELECT a::float / b FROM t ORDER BY a"
    pair = opts(gold_dialect="sqlite", pred_dialect="postgres")
    assert host.value("SELECT ast_ted(?, ?, ?)", [sqlite, postgres, pair]) == 1.0
    assert host.value("SELECT ast_ted(?, ?)", [sqlite, postgres]) < 1.0
    assert host.value("SELECT relpm(?, ?, ?, NULL, NULL, ?)", [sqlite, postgres, T, pair]) == 1.0


def test_division_means_what_the_dialect_says(host):
    gold = "SELECT CAST(a AS REAL) / b FROM t"
    mysql = "SELECT a / b FROM t"
    as_mysql = opts(pred_dialect="mysql")
    assert host.value("SELECT sql_equivalent(?, ?, ?, ?)", [gold, mysql, T, as_mysql]) == 1
    # read as SQLite, the same text divides integers as integers
    assert host.value("SELECT sql_equivalent(?, ?, ?)", [gold, mysql, T]) == 0


def test_null_order_follows_the_dialect(host):
    gold = "SELECT a FROM t ORDER BY a NULLS LAST"
    postgres = "SELECT a FROM t ORDER BY a"
    assert host.value("SELECT sql_equivalent(?, ?, ?, ?)", [gold, postgres, T, opts(pred_dialect="postgres")]) == 1


def test_a_quoted_name_that_names_nothing_is_read_as_a_string(host):
    # SQLite's fallback for "x", carried into every dialect (docs/dialects.md): Spider's gold
    # writes strings in double quotes, and sqlglot writes them as quoted names in other dialects
    gold = "SELECT a FROM t WHERE c = 'UAL'"
    for dialect, pred in [("postgres", 'SELECT a FROM t WHERE c = "UAL"'),
                          ("duckdb", 'SELECT a FROM t WHERE c = "UAL"'),
                          ("snowflake", 'SELECT a FROM t WHERE c IN ("UAL")'),
                          ("ansi", 'SELECT a FROM t WHERE c = "UAL"'),
                          ("mysql", "SELECT a FROM t WHERE c = `UAL`"),
                          ("bigquery", "SELECT a FROM t WHERE c = `UAL`")]:
        args = [gold, pred, T, opts(pred_dialect=dialect)]
        assert host.value("SELECT sql_equivalent(?, ?, ?, ?)", args) == 1, dialect
    # a quoted name that names a column is the column; an unquoted one that names nothing fails
    pg = opts(pred_dialect="postgres")
    assert host.value("SELECT sql_equivalent(?, ?, ?, ?)", [gold, 'SELECT "a" FROM t WHERE "c" = "UAL"', T, pg]) == 1
    assert host.value("SELECT sql_equivalent(?, ?, ?, ?)", ["SELECT a FROM t WHERE a = b", 'SELECT a FROM t WHERE a = "b"',
                                                           T, pg]) == 1
    assert host.value("SELECT sql_equivalent(?, ?, ?, ?)", [gold, "SELECT a FROM t WHERE c = UAL", T, pg]) == 0


def test_equals_inside_a_call_is_a_comparison(host):
    gold = "SELECT SUM(a = 2), IIF(a = 2 AND b > 1, 'x', 'y') FROM t"
    for dialect, pred in [("duckdb", "SELECT SUM(a = 2), IF(a = 2 AND b > 1, 'x', 'y') FROM t"),
                          ("mysql", "SELECT SUM(a = 2), IF(a = 2 AND b > 1, 'x', 'y') FROM t"),
                          ("bigquery", "SELECT SUM(CAST(a = 2 AS INT64)), IF(a = 2 AND b > 1, 'x', 'y') FROM t"),
                          ("snowflake", "SELECT SUM(IFF(a = 2, 1, 0)), IFF(a = 2 AND b > 1, 'x', 'y') FROM t")]:
        args = [gold, pred, T, opts(pred_dialect=dialect)]
        assert host.value("SELECT sql_equivalent(?, ?, ?, ?)", args) == 1, (dialect,
            host.value("SELECT sql_equivalent_reason(?, ?, ?, ?)", args))


def test_untranslated_constructs_give_no_verdict(host):
    args = ["SELECT a FROM t", "SELECT CAST(a AS JSON) FROM t", T, opts(pred_dialect="postgres")]
    assert host.value("SELECT sql_equivalent(?, ?, ?, ?)", args) is None
    reason = host.value("SELECT sql_equivalent_reason(?, ?, ?, ?)", args)
    assert reason.startswith("unknown:") and "CAST to JSON in postgres" in reason, reason


def test_spider_functions_refuse_other_dialects(host):
    with pytest.raises(HostError, match="spider_exact_match.*official Spider evaluator"):
        host.value("SELECT spider_exact_match('SELECT 1', 'SELECT 1', NULL, ?)", [opts(dialect="mysql")])
    assert host.value("SELECT spider_exact_match('SELECT a FROM t', 'SELECT a FROM t', NULL, ?)",
                      [opts(dialect="sqlite")]) == 1


def test_bad_dialect_options_are_errors_naming_the_function(host):
    with pytest.raises(HostError, match=r"ast_ted\(\).*'dialect' must be one of sqlite, postgres"):
        host.value("SELECT ast_ted('SELECT 1', 'SELECT 1', ?)", [opts(dialect="oracle")])
    with pytest.raises(HostError, match=r"sql_ast\(\).*use 'dialect'"):
        host.value("SELECT sql_ast('SELECT 1', ?)", [opts(gold_dialect="mysql")])
    with pytest.raises(HostError, match=r"unknown option 'work'"):
        host.value("SELECT ast_ted('SELECT 1', 'SELECT 1', ?)", [opts(work=5)])


def test_table_functions_take_the_dialect(host):
    rows = host.table_call("sql_ast_nodes", ["SELECT x::INT FROM t"], {"options": opts(dialect="postgres")})
    assert any("CAST" in str(r[3]).upper() for r in rows), rows


def test_exec_match_runs_the_translation(host, tmp_path):
    path = tmp_path / "t.sqlite"
    con = sqlite3.connect(path)
    con.executescript(T + "; INSERT INTO t VALUES (1, 2, 'x'), (3, 4, 'y');")
    con.commit()
    con.close()
    gold = "SELECT CAST(a AS REAL) / b FROM t"
    assert host.value("SELECT exec_match(?, ?, ?, ?)", [str(path), gold, "SELECT a / b FROM t",
                                                        opts(pred_dialect="mysql")]) == 1
    assert host.value("SELECT exec_match(?, ?, ?)", [str(path), gold, "SELECT a / b FROM t"]) == 0
    reason = host.value("SELECT exec_match_reason(?, ?, ?, ?)",
                        [str(path), gold, "SELECT CAST(a AS JSON) FROM t", opts(pred_dialect="postgres")])
    assert reason == "null: unknown: CAST to JSON in postgres", reason


def test_what_sqlglot_leaves_in_a_gold_is_read_where_verdicts_read_it(host, tmp_path):
    # sqlglot's SQLite text of a MySQL query keeps YEAR and LEFT, which no SQLite has
    schema = "CREATE TABLE e (d TEXT, s TEXT)"
    gold = "SELECT s FROM e WHERE YEAR(d) = '1940' AND LEFT(s, 2) = 'ab'"
    runnable = "SELECT s FROM e WHERE CAST(strftime('%Y', d) AS INTEGER) = '1940' AND SUBSTRING(s, 1, 2) = 'ab'"
    equivalent = "SELECT sql_equivalent(?, ?, ?, ?)"
    assert host.value(equivalent, [gold, gold, schema, opts(pred_dialect="mysql")]) == 1
    assert host.value(equivalent, [gold, runnable, schema, None]) == 1
    # the structural metrics compare both queries as written: a PostgreSQL query calling YEAR
    # (PostgreSQL has none) and its SQLite translation, which keeps YEAR, are one tree
    assert host.value("SELECT ast_ted(?, ?)", [gold, gold]) == 1.0
    year = "SELECT s FROM e WHERE YEAR(d) = '1940'"
    assert host.value("SELECT ast_ted(?, ?, ?)", [year, year, opts(gold_dialect="postgres")]) == 1.0
    assert host.value("SELECT ast_ted(?, ?)", [gold, runnable]) < 1.0
    # a prediction is run as written: SQLite fails one that calls YEAR
    assert host.value(equivalent, [runnable, gold, schema, None]) == 0
    # the execution functions run the gold as written, as the official evaluators do
    path = tmp_path / "e.sqlite"
    con = sqlite3.connect(path)
    con.executescript(schema + "; INSERT INTO e VALUES ('1940-02-03', 'abc'), ('1990-01-01', 'abd');")
    con.commit()
    con.close()
    assert host.value("SELECT exec_match(?, ?, ?)", [str(path), gold, runnable]) is None
    assert host.value("SELECT bird_soft_f1(?, ?, ?)", [str(path), gold, runnable]) is None
    assert host.value("SELECT exec_match(?, ?, ?)", [str(path), runnable, gold]) == 0


def test_a_prediction_spelled_as_sqlglot_spells_it_is_the_gold_itself(host):
    # sqlglot's SQLite text of a PostgreSQL query writes AS before an alias and ASC NULLS LAST; a
    # gold that fails (the ambiguous id) leaves only the identity to decide
    schema = "CREATE TABLE s (id INTEGER, n TEXT); CREATE TABLE g (id INTEGER, s_id INTEGER)"
    gold = "SELECT id FROM s AS x JOIN g AS y ON x.id = y.s_id ORDER BY id ASC NULLS LAST"
    pg = opts(gold_dialect="sqlite", pred_dialect="postgres")
    reason = "SELECT sql_equivalent_reason(?, ?, ?, ?)"
    same = host.value(reason, [gold, "SELECT id FROM s x JOIN g y ON x.id = y.s_id ORDER BY id", schema, pg])
    assert same.startswith("equivalent: the prediction is the gold query itself"), same
    other = host.value(reason, [gold, "SELECT id FROM s x JOIN g y ON x.id = y.s_id ORDER BY id DESC", schema, pg])
    assert other.startswith("unknown:"), other
