"""ParSEval's result semantics (option `semantics`: bag, set, test-suite) through both real hosts:
the golden pairs of tests/fixtures/semantics_pairs.tsv under sql_equivalent, sql_equivalent_reason,
sql_counterexample and sql_similarity, the verdict cache keyed on the semantics, and the errors."""
import json
import os

import pytest

from conftest import ROOT, HostError

FIXTURES = os.path.join(ROOT, "tests", "fixtures")
with open(os.path.join(FIXTURES, "semantics_schema.sql"), encoding="utf-8") as f:
    DDL = f.read()
with open(os.path.join(FIXTURES, "semantics_pairs.tsv"), encoding="utf-8") as f:
    PAIRS = [line.rstrip("\n").split("\t") for line in f if line.strip() and not line.startswith("#")]


@pytest.mark.parametrize("options,expected,gold,pred", PAIRS)
def test_golden_pairs(host, options, expected, gold, pred):
    semantics = json.loads(options)["semantics"]
    assert host.value("SELECT sql_equivalent(?, ?, ?, ?)", [gold, pred, DDL, options]) == int(expected)
    reason = host.value("SELECT sql_equivalent_reason(?, ?, ?, ?)", [gold, pred, DDL, options])
    assert f"under {semantics} semantics" in reason
    found = host.table_call("sql_counterexample", [gold, pred], {"schema": DDL, "options": options})
    assert bool(found) == (expected == "0")
    s = json.loads(host.value("SELECT sql_similarity_components(?, ?, ?, ?)", [gold, pred, DDL, options]))
    assert s["verdict"] == int(expected) and f"under {semantics} semantics" in s["reason"]


def test_column_order_differs_under_bag_only(host):
    gold, pred = "SELECT name, country FROM singer WHERE age > 3", "SELECT country, name FROM singer WHERE age > 3"
    bag = host.value("SELECT sql_equivalent_reason(?, ?, ?, '{\"semantics\": \"bag\"}')", [gold, pred, DDL])
    assert bag.startswith("not equivalent: the results differ under bag semantics")
    ts = host.value("SELECT sql_equivalent_reason(?, ?, ?, '{\"semantics\": \"test-suite\"}')", [gold, pred, DDL])
    assert ts.startswith("equivalent: same results under test-suite semantics")
    # the default of sql_equivalent is bag; the cache keeps the two verdicts apart
    assert host.value("SELECT sql_equivalent(?, ?, ?)", [gold, pred, DDL]) == 0
    low = host.value("SELECT sql_similarity(?, ?, ?, '{\"semantics\": \"bag\"}')", [gold, pred, DDL])
    high = host.value("SELECT sql_similarity(?, ?, ?, '{\"semantics\": \"test-suite\"}')", [gold, pred, DDL])
    assert low <= 0.25 < 0.5 <= high


@pytest.mark.parametrize("function", ["sql_equivalent", "sql_equivalent_reason", "sql_similarity",
                                      "sql_similarity_components"])
def test_bad_semantics_names_the_function_and_argument(host, function):
    with pytest.raises(HostError, match=rf"{function}\(\): argument 'options'.*'semantics' must be 'bag', 'set' or "
                                        r"'test-suite', got \"list\""):
        host.value(f"SELECT {function}('SELECT 1', 'SELECT 1', NULL, '{{\"semantics\": \"list\"}}')")
    with pytest.raises(HostError, match=rf"{function}\(\): argument 'options'.*'keep_distinct' must be true or false"):
        host.value(f"SELECT {function}('SELECT 1', 'SELECT 1', NULL, '{{\"keep_distinct\": 1}}')")


def test_bad_semantics_in_the_counterexample_table_function(host):
    with pytest.raises(HostError, match=r"sql_counterexample.*'semantics' must be"):
        host.table_call("sql_counterexample", ["SELECT 1", "SELECT 1"], {"schema": None, "options": '{"semantics": "bird"}'})


def test_defaults_bag_for_sql_equivalent_and_test_suite_for_sql_similarity(host):
    gold, pred = "SELECT name, age FROM singer WHERE age > 7", "SELECT age, name FROM singer WHERE age > 7"
    assert "under bag semantics" in host.value("SELECT sql_equivalent_reason(?, ?, ?)", [gold, pred, DDL])
    s = json.loads(host.value("SELECT sql_similarity_components(?, ?, ?)", [gold, pred, DDL]))
    assert s["verdict"] == 1 and "under test-suite semantics" in s["reason"]
    # the same verdict as sql_equivalent asked for test-suite
    assert host.value("SELECT sql_equivalent(?, ?, ?, '{\"semantics\": \"test-suite\"}')", [gold, pred, DDL]) == 1


def test_a_null_only_difference_is_no_verdict_under_test_suite(host):
    # count(*) and count(country) differ only when some country is NULL
    gold, pred = "SELECT count(*) FROM singer", "SELECT count(country) FROM singer"
    for semantics in ("bag", "set"):
        opts = json.dumps({"semantics": semantics})
        assert host.value("SELECT sql_equivalent(?, ?, ?, ?)", [gold, pred, DDL, opts]) == 0
    opts = '{"semantics": "test-suite"}'
    assert host.value("SELECT sql_equivalent(?, ?, ?, ?)", [gold, pred, DDL, opts]) is None
    reason = host.value("SELECT sql_equivalent_reason(?, ?, ?, ?)", [gold, pred, DDL, opts])
    assert reason.startswith("unknown: the results differ under test-suite semantics only on databases with "
                             "NULL values"), reason
    # the database that shows it is still there to inspect
    rows = host.table_call("sql_counterexample", [gold, pred], {"schema": DDL, "options": opts})
    assert rows and rows[0][3] != rows[0][4], rows
    assert any(json.loads(r[2]).get("country", "") is None for r in rows if r[0] == "singer"), rows
