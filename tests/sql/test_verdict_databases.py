"""Whose generated databases decide a verdict (option `databases`: both, the default, or gold) and
the prediction's own search (option `prediction_mode`), through both real hosts."""
import json

import pytest

from conftest import HostError
from test_parseval import DDL

GOLD_ONLY = '{"databases": "gold"}'
# the gold has no branch on age = 77: only the prediction's own search makes a singer aged 77
GOLD, PRED = "SELECT name FROM singer", "SELECT name FROM singer WHERE age <> 77 OR age IS NULL"


def test_the_predictions_own_search_finds_what_the_golds_databases_miss(host):
    assert host.value("SELECT sql_equivalent(?, ?, ?)", [GOLD, PRED, DDL]) == 0
    rows = host.table_call("sql_counterexample", [GOLD, PRED], {"schema": DDL})
    assert any("77" in json.dumps(list(r)) for r in rows), rows
    assert host.value("SELECT sql_equivalent(?, ?, ?, ?)", [GOLD, PRED, DDL, GOLD_ONLY]) == 1
    reason = host.value("SELECT sql_equivalent_reason(?, ?, ?, ?)", [GOLD, PRED, DDL, GOLD_ONLY])
    assert reason.startswith("equivalent: ") and "(the gold query's only)" in reason, reason
    assert host.table_call("sql_counterexample", [GOLD, PRED], {"schema": DDL, "options": GOLD_ONLY}) == []
    both = json.loads(host.value("SELECT sql_similarity_components(?, ?, ?)", [GOLD, PRED, DDL]))
    fast = json.loads(host.value("SELECT sql_similarity_components(?, ?, ?, ?)", [GOLD, PRED, DDL, GOLD_ONLY]))
    assert both["verdict"] == 0 and both["score"] <= 0.25
    assert fast["verdict"] == 1 and fast["score"] >= 0.5 and fast["work"] < both["work"]
    assert fast["components"] == both["components"]


def test_gold_databases_decide_ordinary_differences(host):
    pred = "SELECT name FROM singer WHERE age > 30"
    assert host.value("SELECT sql_equivalent(?, ?, ?, ?)", [GOLD, pred, DDL, GOLD_ONLY]) == 0


def test_prediction_mode_is_an_option_of_its_own(host):
    for mode in ("positive", "one-negative", "all", "complete"):
        opts = json.dumps({"prediction_mode": mode})
        assert host.value("SELECT sql_equivalent(?, ?, ?, ?)", [GOLD, GOLD, DDL, opts]) == 1


@pytest.mark.parametrize("function", ["sql_equivalent", "sql_equivalent_reason", "sql_similarity",
                                      "sql_similarity_components"])
def test_bad_values_name_the_function_and_argument(host, function):
    with pytest.raises(HostError, match=rf"{function}\(\): argument 'options'.*'databases' must be 'both' or "
                                        r"'gold', got \"pred\""):
        host.value(f"SELECT {function}('SELECT 1', 'SELECT 1', NULL, '{{\"databases\": \"pred\"}}')")
    with pytest.raises(HostError, match=rf"{function}\(\): argument 'options'.*'prediction_mode' must be "
                                        r"'positive', 'one-negative', 'all' or 'complete'"):
        host.value(f"SELECT {function}('SELECT 1', 'SELECT 1', NULL, '{{\"prediction_mode\": 2}}')")
