"""sqlsim.reward: SQL extraction from model answers, and compute_score on malformed answers (never raises,
always a float in [0, 1], deterministic). Loads dist/sqlsim.duckdb_extension (run `make` first)."""

import json
import math
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
os.environ.setdefault("SQLSIM_DIST", os.path.join(ROOT, "dist"))  # the package takes the build's files from there

from sqlsim.reward import (MAX_ANSWER_CHARS, check_options, compute_score, extract_sql,  # noqa: E402
                           reward_from, score_batch)

DDL = "CREATE TABLE singer (id INTEGER PRIMARY KEY, name TEXT, age INTEGER NOT NULL, country TEXT)"
GOLD = "SELECT name FROM singer WHERE age > 30"
TRUTH = {"sql": GOLD, "schema": DDL}


@pytest.mark.parametrize("answer, sql", [
    ("```sql\nSELECT a FROM t\n```", "SELECT a FROM t"),
    ("think...\n```sql\nSELECT 1\n```\nbetter:\n```sql\nSELECT a FROM t WHERE b = 1;\n```", "SELECT a FROM t WHERE b = 1"),
    ("<think>SELECT wrong FROM x</think><answer>SELECT a FROM t</answer>", "SELECT a FROM t"),
    ("<answer>```sql\nWITH x AS (SELECT 1) SELECT * FROM x\n```</answer>", "WITH x AS (SELECT 1) SELECT * FROM x"),
    ("The query is: SELECT name FROM singer WHERE age > 30; hope that helps", "SELECT name FROM singer WHERE age > 30"),
    ("```\nselect count(*) from t\n```", "select count(*) from t"),
    ("```sql\nDROP TABLE t; SELECT a FROM t; UPDATE t SET a = 1\n```", "SELECT a FROM t"),
    ("```sql\nSELECT 'a;b' FROM t -- x;y\n```", "SELECT 'a;b' FROM t -- x;y"),
    ("```sql\n-- the answer\nSELECT a FROM t\n```", "SELECT a FROM t"),
    ("<answer>SELECT a FROM t", "SELECT a FROM t"),  # truncated generation: no closing tag
    ("```sql\nSELECT a FROM t", "SELECT a FROM t"),  # nor closing fence
    ("(SELECT a FROM t) UNION (SELECT b FROM u)", "(SELECT a FROM t) UNION (SELECT b FROM u)"),
    # an explanation after the query without a semicolon is not part of it
    ("SELECT name FROM singer WHERE age > 30\nThis query returns the singers older than 30.",
     "SELECT name FROM singer WHERE age > 30"),
    ("```sql\nSELECT name\nFROM singer\nORDER BY age\nExplanation:\nIt sorts.\n```",
     "SELECT name\nFROM singer\nORDER BY age"),
    ("SELECT count(*) FROM singer. This counts every singer.", "SELECT count(*) FROM singer"),
    # the query of the last sentence that holds one, not the first SELECT of the answer
    ("First I tried SELECT * FROM singer. The final answer is SELECT name FROM singer WHERE age > 30",
     "SELECT name FROM singer WHERE age > 30"),
    ("The answer is SELECT name FROM singer WHERE age > (SELECT avg(age) FROM singer).",
     "SELECT name FROM singer WHERE age > (SELECT avg(age) FROM singer)"),
    # SQL lines that start with a column name, and a period inside quotes, stay
    ("SELECT\n  name,\n  age AS years\nFROM singer\nWHERE title = 'Mr. Smith Jones Brown'",
     "SELECT\n  name,\n  age AS years\nFROM singer\nWHERE title = 'Mr. Smith Jones Brown'"),
    ("SELECT T1.name FROM singer AS T1\nJOIN concert AS T2 ON T1.id = T2.sid\nNote that the join is needed",
     "SELECT T1.name FROM singer AS T1\nJOIN concert AS T2 ON T1.id = T2.sid"),
])
def test_extracts_the_answer_query(answer, sql):
    assert extract_sql(answer) == sql


@pytest.mark.parametrize("answer", [
    None, "", "   ", "I don't know.", "```python\nprint(1)\n```", "DELETE FROM t", "<answer></answer>",
    b"\xff\xfe\x00garbage", "\ud800 lone surrogate", 12345, ["SELECT 1"] and object(),
    "selected items are shown", "x" * (MAX_ANSWER_CHARS * 4),
])
def test_no_query_is_none(answer):
    assert extract_sql(answer) is None


def test_huge_answers_keep_their_end():
    answer = "blah " * 100_000 + "```sql\nSELECT a FROM t\n```"
    assert extract_sql(answer) == "SELECT a FROM t"


@pytest.mark.parametrize("answer", [
    None, "", "garbage ``` <answer>", b"\x80\x81\xfe", "\ud800\udfff?", "SELECT", "SELECT FROM WHERE ;;;",
    "SELECT " + "(" * 5000 + "1" + ")" * 5000, "SELECT a FROM " + "t, " * 3000 + "t",
    "```sql\nSELECT nope FROM nowhere\n```", "SELECT 1; SELECT 2; SELECT 3", "x" * 1_000_000,
    "SELECT '" + "é" * 20000 + "'", "\x00SELECT name FROM singer\x00",
])
def test_malformed_answers_give_a_float_and_never_raise(answer):
    r = compute_score("spider", answer, TRUTH)
    assert isinstance(r, float) and math.isfinite(r) and 0.0 <= r <= 1.0
    assert compute_score("spider", answer, TRUTH) == r


def test_bad_ground_truth_never_raises():
    for truth in [None, "", {}, {"schema": DDL}, {"sql": GOLD, "schema": "not a schema (("}, 42, "{not json"]:
        r = compute_score("spider", "SELECT name FROM singer", truth)
        assert isinstance(r, float) and 0.0 <= r <= 1.0


def test_common_answer_shapes_score_as_their_query():
    explained = "SELECT name FROM singer WHERE 30 < age\nThis returns every singer older than 30."
    assert compute_score("spider", explained, TRUTH) >= 0.5
    tried = "First I tried SELECT * FROM singer. The final answer is SELECT name FROM singer WHERE 30 < age"
    assert compute_score("spider", tried, TRUTH) >= 0.5


def test_rewards_follow_the_verdict():
    right = compute_score("spider", "```sql\nSELECT name FROM singer WHERE 30 < age\n```", TRUTH)
    wrong = compute_score("spider", "```sql\nSELECT name FROM singer WHERE age < 30\n```", TRUTH)
    none = compute_score("spider", "no idea", TRUTH)
    assert right >= 0.5 and wrong <= 0.25 and none == 0.0
    assert compute_score("spider", GOLD, TRUTH) == pytest.approx(1.0)
    assert compute_score("spider", GOLD, TRUTH, mode="binary") == 1.0
    assert compute_score("spider", "SELECT name FROM singer WHERE age < 30", TRUTH, mode="binary") == 0.0
    # ground truth as a string (schema inferred), as JSON text, and the schema in extra_info
    assert compute_score("spider", GOLD, GOLD) == pytest.approx(1.0)
    assert compute_score("spider", GOLD, json.dumps(TRUTH)) == pytest.approx(1.0)
    assert compute_score("spider", GOLD, GOLD, {"schema": DDL}) == pytest.approx(1.0)


def test_reward_mapping():
    assert reward_from(None, None) == 0.0
    assert reward_from(float("nan"), 1) == 0.0
    assert reward_from(0.7, 1, "binary") == 1.0 and reward_from(0.7, None, "binary") == 0.0
    assert reward_from(0.3, None, "verdict") == 0.3 and reward_from(0.2, 0, "verdict") == 0.0
    assert reward_from(1.5, 1) == 1.0


def test_batch_equals_one_by_one():
    answers = ["SELECT name FROM singer WHERE 30 < age", "nothing", "SELECT name FROM singer",
               "```sql\nSELECT country FROM singer\n```", b"\xff", "SELECT name FROM singer WHERE age >= 31"]
    truths = [TRUTH] * len(answers)
    batch = score_batch(["spider"] * len(answers), answers, truths)
    assert batch == [compute_score("spider", a, t) for a, t in zip(answers, truths)]


def test_the_scale_setting_passes_through_and_bad_options_are_caught():
    # the gold has no branch on age = 77: only the prediction's own search tells these apart
    near = "SELECT name FROM singer WHERE age > 30 AND age <> 77"
    fast = {"databases": "gold"}
    assert compute_score("spider", near, TRUTH) <= 0.25
    assert compute_score("spider", near, TRUTH, options=fast) >= 0.5
    assert compute_score("spider", near, TRUTH, options=json.dumps(fast)) == compute_score(
        "spider", near, TRUTH, options=fast)
    answers = [near, GOLD, "nothing", "SELECT name FROM singer WHERE age < 30"]
    batch = score_batch(["spider"] * len(answers), answers, [TRUTH] * len(answers), options=fast)
    assert batch == [compute_score("spider", a, TRUTH, options=fast) for a in answers]
    check_options(fast)
    with pytest.raises(ValueError, match="'databases' must be 'both' or 'gold'"):
        check_options({"databases": "all"})
    assert compute_score("spider", GOLD, TRUTH, options={"nope": 1}) == 0.0
