"""The three forms of a `schema` argument through both hosts: a Spider tables.json entry, DDL text and a
BIRD-style JSON array of DDL strings describe the same database and give the same Spider scores; bad
schema text is a SQL error naming the function, the argument and what is wrong."""
import json
import os

import pytest

from conftest import ROOT, HostError

TABLES = os.path.join(ROOT, "tests", "golden", "spider", "tables.json")
CASES = os.path.join(ROOT, "tests", "golden", "spider", "cases.jsonl")
DDL = os.path.join(ROOT, "tests", "fixtures", "schema", "concert_singer.sql")


@pytest.fixture(scope="module")
def forms():
    """The concert_singer schema as a tables.json entry, as DDL text and as a BIRD-style array."""
    with open(TABLES) as f:
        entry = json.dumps(json.load(f)[0])
    with open(DDL) as f:
        ddl = f.read()
    statements = [s.strip() for s in ddl.split(";") if "CREATE TABLE" in s]
    assert len(statements) == 4
    return {"tables.json": entry, "ddl": ddl, "bird": json.dumps(statements)}


@pytest.fixture(scope="module")
def cases():
    with open(CASES) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    rows = [c for c in rows if c.get("db_id") == "concert_singer" and not c.get("options")]
    assert len(rows) >= 10
    return rows


def test_every_form_gives_the_official_scores(host, forms, cases):
    for name, schema in forms.items():
        for c in cases:
            args = [c["gold"], c["pred"], schema]
            assert host.value("SELECT spider_hardness(?, ?)", [c["gold"], schema]) == c["hardness"], (name, c)
            assert host.value("SELECT spider_exact_match(?, ?, ?)", args) == c["exact"], (name, c)
            partial = json.loads(host.value("SELECT spider_partial_match(?, ?, ?)", args))
            for component, expected in c["partial"].items():
                for key, value in expected.items():
                    assert partial[component][key] == pytest.approx(value), (name, c, component, key)


def test_foreign_keys_from_ddl_normalize_like_tables_json(host, forms):
    # concert.Stadium_ID references stadium.Stadium_ID: with the foreign key the two select columns
    # are the same column for the evaluator; without a schema they are not.
    gold = "SELECT T1.stadium_id FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id"
    pred = "SELECT T2.stadium_id FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id"
    scores = {name: host.value("SELECT spider_exact_match(?, ?, ?)", [gold, pred, schema])
              for name, schema in forms.items()}
    assert scores == {"tables.json": 1, "ddl": 1, "bird": 1}
    assert host.value("SELECT spider_exact_match(?, ?)", [gold, pred]) == 0


def test_table_function_accepts_every_form(host, forms):
    gold, pred = "SELECT name FROM singer WHERE age > 20", "SELECT name FROM singer WHERE age < 20"
    results = [sorted(host.table_call("spider_partial", [gold, pred], {"schema": schema}))
               for schema in forms.values()]
    assert len(results[0]) == 10
    assert results[1] == results[0] and results[2] == results[0]


def test_spider_schemas_rows_and_ddl_in_one_query(host, forms):
    rows = host.rows(
        "SELECT spider_exact_match(?, ?, s.schema), spider_exact_match(?, ?, ?) "
        "FROM spider_schemas(?) AS s",
        ["SELECT name FROM singer", "SELECT Name FROM singer",
         "SELECT name FROM singer", "SELECT Name FROM singer", forms["ddl"], TABLES])
    assert rows == [(1, 1)]


@pytest.mark.parametrize("schema, message", [
    ("SELECT name FROM singer", r"statement 1 \(SELECT name FROM singer\) is not DDL"),
    ("CREATE TABLE a (x); CREATE TABLE b (y,, z)", r"statement 2 \(CREATE TABLE b \(y,, z\)\) does not parse"),
    ("CREATE TABLE a (x, PRIMARY KEY (nope))",
     r"statement 1 \(CREATE TABLE a \(x, PRIMARY KEY \(nope\)\)\): PRIMARY KEY names column 'nope'"),
    ("-- nothing here", r"holds no CREATE TABLE statement"),
    ('["CREATE TABLE a (x)", 7]', r"element 2 of the JSON array is not a string"),
    ('["CREATE TABLE a (x)", "DROP TABLE a; UPDATE a SET x = 1"]',
     r"element 2 of the JSON array: statement 2 \(UPDATE a SET x = 1\) is not DDL"),
    ('{"db_id": "x"}', r"has no 'table_names_original' array"),
    ("{not json", r"is not valid JSON"),
])
def test_bad_schema_text_is_a_clear_error(host, schema, message):
    with pytest.raises(HostError, match=r"spider_exact_match\(\): argument 'schema' " + message):
        host.value("SELECT spider_exact_match('SELECT 1', 'SELECT 1', ?)", [schema])
    with pytest.raises(HostError, match=r"spider_hardness\(\): argument 'schema' " + message):
        host.value("SELECT spider_hardness('SELECT 1', ?)", [schema])
    with pytest.raises(HostError, match=r"spider_partial\(\): argument 'schema' " + message):
        host.table_call("spider_partial", ["SELECT 1", "SELECT 1"], {"schema": schema})
