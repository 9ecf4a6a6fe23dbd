"""The `benchmark` presets and the leniency options in both hosts: sql_equivalent,
sql_equivalent_reason, sql_similarity and sql_similarity_components say which leniency decided a
pair, exec_match and exec_match_reason take the shape leniencies, calls without the options keep
their verdicts, and bad values are argument errors naming the function."""
import json
import os
import sqlite3

import pytest

from conftest import ROOT, HostError

with open(os.path.join(ROOT, "tests", "fixtures", "semantics_schema.sql"), encoding="utf-8") as f:
    DDL = f.read()

# a difference only a NULL country shows
NULLS = ("SELECT count(*) FROM singer", "SELECT count(country) FROM singer")
# the prediction returns a column more
WIDER = ("SELECT name FROM singer WHERE age > 3", "SELECT name, age FROM singer WHERE age > 3")


def reason(host, pair, options):
    return host.value("SELECT sql_equivalent_reason(?, ?, ?, ?)", [*pair, DDL, options])


def test_the_bird_preset_forgives_a_null_only_difference_and_says_so(host):
    assert host.value("SELECT sql_equivalent(?, ?, ?, '{\"semantics\": \"set\"}')", [*NULLS, DDL]) == 0
    assert host.value("SELECT sql_equivalent(?, ?, ?, '{\"benchmark\": \"bird\"}')", [*NULLS, DDL]) == 1
    why = reason(host, NULLS, '{"benchmark": "bird"}')
    assert why.startswith("equivalent: same results under set semantics") and why.endswith(
        "(with the leniency forgive_untested_nulls)"), why
    c = json.loads(host.value("SELECT sql_similarity_components(?, ?, ?, '{\"benchmark\": \"bird\"}')",
                              [*NULLS, DDL]))
    assert c["verdict"] == 1 and c["leniency"] == ["forgive_untested_nulls"] and c["score"] >= 0.5, c
    # the preset with that leniency off, and the defaults: no leniency, no "leniency" key
    off = '{"benchmark": "bird", "forgive_untested_nulls": false}'
    assert host.value("SELECT sql_equivalent(?, ?, ?, ?)", [*NULLS, DDL, off]) == 0
    c = json.loads(host.value("SELECT sql_similarity_components(?, ?, ?)", [*NULLS, DDL]))
    assert "leniency" not in c and c["score"] < 0.5, c


EVENTS = "CREATE TABLE event (event_id INTEGER PRIMARY KEY, event_name TEXT, event_date TEXT)"
# the year of a date by position and by strftime: they part only on text that is no date
YEARS = ("SELECT event_name FROM event WHERE SUBSTR(event_date, 1, 4) = '2020'",
         "SELECT event_name FROM event WHERE strftime('%Y', event_date) = '{}'")


@pytest.mark.parametrize("options", ['{"semantics": "set", "plausible_dates": true}', '{"benchmark": "bird"}'])
def test_plausible_dates_forgives_a_difference_only_text_that_is_no_date_shows(host, sqlite_host, options):
    right, wrong = YEARS[1].format("2020"), YEARS[1].format("2021")
    assert host.value("SELECT sql_equivalent(?, ?, ?, '{\"semantics\": \"set\"}')", [YEARS[0], right, EVENTS]) == 0
    assert host.value("SELECT sql_equivalent(?, ?, ?, ?)", [YEARS[0], right, EVENTS, options]) == 1
    why = host.value("SELECT sql_equivalent_reason(?, ?, ?, ?)", [YEARS[0], right, EVENTS, options])
    assert why.startswith("equivalent: ") and why.endswith("plausible_dates)"), why
    c = json.loads(host.value("SELECT sql_similarity_components(?, ?, ?, ?)", [YEARS[0], right, EVENTS, options]))
    assert c["verdict"] == 1 and "plausible_dates" in c["leniency"] and c["score"] >= 0.5, c
    # another year differs on dates, and the counterexample's dates are dates
    assert host.value("SELECT sql_equivalent(?, ?, ?, ?)", [YEARS[0], wrong, EVENTS, options]) == 0
    rows = sqlite_host.table_call("sql_counterexample", [YEARS[0], wrong, EVENTS, options])
    dates = [json.loads(r[2]).get("event_date") for r in rows if r[0] == "event"]
    assert dates and all(d is None or (len(d) >= 10 and d[4] == d[7] == "-") for d in dates), rows


def test_extra_columns_is_its_own_option(host):
    assert host.value("SELECT sql_equivalent(?, ?, ?)", [*WIDER, DDL]) == 0
    options = '{"extra_columns": true}'
    assert host.value("SELECT sql_equivalent(?, ?, ?, ?)", [*WIDER, DDL, options]) == 1
    assert reason(host, WIDER, options).endswith("(with the leniency extra_columns)")
    # the gold's columns must all be there
    assert host.value("SELECT sql_equivalent(?, ?, ?, ?)", [WIDER[1], WIDER[0], DDL, options]) == 0


def test_exec_match_takes_the_presets_and_the_shape_leniencies(host, tmp_path):
    path = str(tmp_path / "s.sqlite")
    con = sqlite3.connect(path)
    con.executescript("CREATE TABLE t(a INTEGER, b TEXT); INSERT INTO t VALUES (1, 'x'), (2, 'y'), (2, 'y');")
    con.commit()
    con.close()
    q = "SELECT exec_match_reason(?, ?, ?, ?)"
    assert host.value(q, [path, "SELECT DISTINCT a FROM t", "SELECT a FROM t", '{"benchmark": "bird"}']) \
        == "match: same results under bird"
    assert host.value(q, [path, "SELECT b FROM t", "SELECT b, a FROM t", '{"semantics": "bird"}']).startswith(
        "mismatch: ")
    assert host.value(q, [path, "SELECT b FROM t", "SELECT b, a FROM t",
                          '{"semantics": "bird", "extra_columns": true}']) \
        == "match: same results under bird (with the leniency extra_columns)"
    assert host.value("SELECT exec_match(?, ?, ?, ?)", [path, "SELECT a / 3.0 FROM t",
                                                        "SELECT round(a / 3.0, 2) FROM t",
                                                        '{"benchmark": "spider2"}']) == 1


@pytest.mark.parametrize("function", ["sql_equivalent", "sql_equivalent_reason", "sql_similarity",
                                      "sql_similarity_components"])
def test_bad_values_name_the_function(host, function):
    with pytest.raises(HostError, match=rf"{function}\(\): argument 'options'.*'benchmark' must be 'bird', "
                                        r"'spider' or 'spider2'"):
        host.value(f"SELECT {function}('SELECT 1', 'SELECT 1', NULL, '{{\"benchmark\": \"cosql\"}}')")
    with pytest.raises(HostError, match=rf"{function}\(\): argument 'options'.*'forgive_nulls' must be true or false"):
        host.value(f"SELECT {function}('SELECT 1', 'SELECT 1', NULL, '{{\"forgive_nulls\": 1}}')")


def test_exec_match_rejects_the_forgiving_options(host):
    with pytest.raises(HostError, match=r"exec_match\(\): argument 'options'.*'forgive_nulls' is an option of the "
                                        r"ParSEval verdict functions only"):
        host.value("SELECT exec_match('x.sqlite', 'SELECT 1', 'SELECT 1', '{\"forgive_nulls\": true}')")


def test_agreement_places_a_difference_by_how_often_the_queries_agree(host):
    gold = "SELECT name FROM singer WHERE age > 30"

    def components(pred, options):
        return json.loads(host.value("SELECT sql_similarity_components(?, ?, ?, ?)", [gold, pred, DDL, options]))

    for pred in ("SELECT name FROM singer WHERE age >= 30", "SELECT name FROM singer WHERE age <= 30"):
        plain = components(pred, '{"semantics": "set"}')
        placed = components(pred, '{"benchmark": "bird"}')
        assert plain["verdict"] == placed["verdict"] == 0 and "agreement" not in plain, plain
        share = placed["agreement"]
        assert 0 <= share < 1, placed
        low, high = placed["band"]
        assert placed["score"] == pytest.approx(low + (high - low) * (placed["structural"] + share) / 2)
        assert placed["score"] < 0.5
        off = components(pred, '{"benchmark": "bird", "agreement": false}')
        assert "agreement" not in off and off["score"] == pytest.approx(plain["score"]), off
    # an equivalent pair keeps its score: the share only places pairs found different
    same = "SELECT name FROM singer WHERE 30 < age"
    assert "agreement" not in components(same, '{"benchmark": "bird"}')


def test_agreement_is_an_option_of_sql_similarity_only(host):
    with pytest.raises(HostError, match=r"sql_similarity\(\): argument 'options'.*'agreement' must be true or false"):
        host.value("SELECT sql_similarity('SELECT 1', 'SELECT 1', NULL, '{\"agreement\": 1}')")
    with pytest.raises(HostError, match=r"sql_equivalent\(\): argument 'options'.*unknown option 'agreement'"):
        host.value("SELECT sql_equivalent('SELECT 1', 'SELECT 1', NULL, '{\"agreement\": true}')")
