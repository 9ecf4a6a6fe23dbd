"""Whose generated databases decide a verdict (option `databases`: both, the default, or gold) and
the prediction's own search (option `prediction_mode`), through both real hosts."""
import json

import pytest

from conftest import HostError
from test_parseval import DDL, rebuilt

GOLD_ONLY = '{"databases": "gold"}'
# the gold has no branch on age = 77: only the prediction's own search makes a singer aged 77
GOLD, PRED = "SELECT name FROM singer", "SELECT name FROM singer WHERE age <> 77 OR age IS NULL"
# without random databases, the first of which would show the difference before that search
NO_RANDOM = '{"random": 0}'


def test_the_predictions_own_search_finds_what_the_golds_databases_miss(host):
    assert host.value("SELECT sql_equivalent(?, ?, ?, ?)", [GOLD, PRED, DDL, NO_RANDOM]) == 0
    reason = host.value("SELECT sql_equivalent_reason(?, ?, ?, ?)", [GOLD, PRED, DDL, NO_RANDOM])
    assert "on a generated database" in reason, reason
    rows = host.table_call("sql_counterexample", [GOLD, PRED], {"schema": DDL, "options": NO_RANDOM})
    assert any("77" in json.dumps(list(r)) for r in rows), rows
    assert host.value("SELECT sql_equivalent(?, ?, ?, ?)", [GOLD, PRED, DDL, GOLD_ONLY]) == 1
    reason = host.value("SELECT sql_equivalent_reason(?, ?, ?, ?)", [GOLD, PRED, DDL, GOLD_ONLY])
    assert reason.startswith("equivalent: ") and "(the gold query's only)" in reason, reason
    assert host.table_call("sql_counterexample", [GOLD, PRED], {"schema": DDL, "options": GOLD_ONLY}) == []
    both = json.loads(host.value("SELECT sql_similarity_components(?, ?, ?, ?)", [GOLD, PRED, DDL, NO_RANDOM]))
    fast = json.loads(host.value("SELECT sql_similarity_components(?, ?, ?, ?)", [GOLD, PRED, DDL, GOLD_ONLY]))
    assert both["verdict"] == 0 and both["score"] <= 0.25
    assert fast["verdict"] == 1 and fast["score"] >= 0.5 and fast["work"] < both["work"]
    assert fast["components"] == both["components"]


def test_the_first_random_databases_go_before_the_predictions_search(host):
    reason = host.value("SELECT sql_equivalent_reason(?, ?, ?)", [GOLD, PRED, DDL])
    assert reason.startswith("not equivalent: ") and "on a random database" in reason, reason
    rows = host.table_call("sql_counterexample", [GOLD, PRED], {"schema": DDL})
    assert any("77" in json.dumps(list(r)) for r in rows), rows
    searched = json.loads(host.value("SELECT sql_similarity_components(?, ?, ?, ?)", [GOLD, PRED, DDL, NO_RANDOM]))
    first = json.loads(host.value("SELECT sql_similarity_components(?, ?, ?)", [GOLD, PRED, DDL]))
    assert first["verdict"] == searched["verdict"] == 0 and first["evidence"] == "ordinary"
    assert first["score"] == searched["score"] and first["work"] < searched["work"]


def test_predictions_that_plan_alike_share_their_own_search(host):
    # two spellings of one prediction (case, a table alias): one plan, so one search, and the
    # second call is charged the units the first spent
    spellings = ["SELECT name FROM singer WHERE age <> 7741 OR age IS NULL",
                 "select s.name from SINGER as s where s.age <> 7741 or s.age is null"]

    def searches():
        return json.loads(host.value("SELECT sqlsim_debug()"))["caches"]["parseval_prediction_suites"]["entries"]

    before = searches()
    first = json.loads(host.value("SELECT sql_similarity_components(?, ?, ?, ?)", [GOLD, spellings[0], DDL, NO_RANDOM]))
    assert searches() == before + 1
    second = json.loads(host.value("SELECT sql_similarity_components(?, ?, ?, ?)", [GOLD, spellings[1], DDL, NO_RANDOM]))
    assert searches() == before + 1
    assert first["verdict"] == second["verdict"] == 0 and first["reason"] == second["reason"]
    assert first["work"] == second["work"] > 0
    assert "on a generated database" in second["reason"], second


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


# option `rounds`: a verdict searches again with the next seed while nothing ordinary was found
COUNTRY = "CREATE TABLE country (code TEXT PRIMARY KEY, name TEXT, continent TEXT, population INTEGER)"
ABOVE_MIN = ("SELECT name FROM country WHERE continent = 'Asia' AND population > "
             "(SELECT min(population) FROM country WHERE continent = 'Africa')")
ONE_ROUND = '{"rounds": 1}'
# random databases find it too (two countries of one continent: a repeated value)
ONE_ROUND_NO_RANDOM = '{"rounds": 1, "random": 0}'


def test_a_second_round_finds_the_difference_the_first_missed(host):
    above_max = ABOVE_MIN.replace("min(", "max(")
    assert host.value("SELECT sql_equivalent(?, ?, ?, ?)", [ABOVE_MIN, above_max, COUNTRY, ONE_ROUND_NO_RANDOM]) == 1
    reason = host.value("SELECT sql_equivalent_reason(?, ?, ?, ?)", [ABOVE_MIN, above_max, COUNTRY, ONE_ROUND])
    assert reason.startswith("not equivalent: ") and "on a random database" in reason, reason
    assert host.value("SELECT sql_equivalent(?, ?, ?)", [ABOVE_MIN, above_max, COUNTRY]) == 0
    rows = host.table_call("sql_counterexample", [ABOVE_MIN, above_max], {"schema": COUNTRY})
    tables = {r[0] for r in rows}
    assert tables == {"country"}, rows
    # the counterexample holds in a fresh SQLite: the two queries differ on its rows
    con = rebuilt([(r[0], r[2]) for r in rows], COUNTRY)
    assert sorted(con.execute(ABOVE_MIN).fetchall()) != sorted(con.execute(above_max).fetchall())


def test_a_second_round_adds_databases_to_an_equivalence(host):
    limit_one = ("SELECT c.name FROM country c WHERE c.continent = 'Asia' AND c.population > "
                 "(SELECT population FROM country WHERE continent = 'Africa' AND population IS NOT NULL "
                 "ORDER BY population LIMIT 1)")
    one = host.value("SELECT sql_equivalent_reason(?, ?, ?, ?)", [ABOVE_MIN, limit_one, COUNTRY, ONE_ROUND])
    two = host.value("SELECT sql_equivalent_reason(?, ?, ?)", [ABOVE_MIN, limit_one, COUNTRY])
    count = lambda reason: int(reason.split(" on ")[1].split()[0])  # noqa: E731
    assert one.startswith("equivalent: ") and two.startswith("equivalent: "), (one, two)
    assert count(two) > count(one), (one, two)
    # the branches are the first round's, counted once
    assert one.split("covering ")[1] == two.split("covering ")[1]


def test_a_weak_difference_starts_no_second_round(host):
    """The first round finds a difference that needs NULLs: another round would only look for
    stronger evidence of it, so two rounds spend the work of one."""
    gold, pred = "SELECT count(*) FROM singer", "SELECT count(country) FROM singer"
    spent = {}
    for rounds in (1, 2):
        options = json.dumps({"rounds": rounds, "semantics": "test-suite"})
        c = json.loads(host.value("SELECT sql_similarity_components(?, ?, ?, ?)", [gold, pred, DDL, options]))
        assert c["evidence"] == "null-dependent" and c["verdict"] is None, c
        spent[rounds] = c["work"]
    assert spent[1] == spent[2] > 0, spent


@pytest.mark.parametrize("rounds", ["0", "5", '"two"'])
def test_rounds_out_of_range_name_the_option(host, rounds):
    with pytest.raises(HostError, match=r"sql_equivalent\(\): argument 'options'.*'rounds'"):
        host.value(f"SELECT sql_equivalent('SELECT 1', 'SELECT 1', NULL, '{{\"rounds\": {rounds}}}')")
