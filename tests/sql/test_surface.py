"""Every registered function has a SQL-level test and a row in the README's function table, and
both hosts expose exactly the same surface and return identical scores."""
import os
import re

from conftest import ROOT

HERE = os.path.dirname(os.path.abspath(__file__))


def registered(host):
    return sorted(r[0] for r in host.table_call("sqlsim_functions", []))


def test_both_hosts_expose_the_same_functions(sqlite_host, duck_host):
    assert registered(sqlite_host) == registered(duck_host)


def test_every_function_has_a_test(sqlite_host):
    sources = ""
    for name in os.listdir(HERE):
        if name.startswith("test_") and name.endswith(".py") and name != "test_surface.py":
            with open(os.path.join(HERE, name)) as f:
                sources += f.read()
    untested = [f for f in registered(sqlite_host)
                if not re.search(rf"\b{f}\(|[\"']{f}[\"']", sources)]
    assert untested == [], f"functions without a SQL-level test: {untested}"


def test_every_function_has_a_readme_row(sqlite_host):
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    missing = [f for f in registered(sqlite_host) if not re.search(rf"^\| `{f}\(", readme, re.M)]
    assert missing == [], f"functions without a README row: {missing}"


def load_pairs():
    pairs = []
    with open(os.path.join(ROOT, "tests", "fixtures", "pairs.tsv")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                gold, pred = line.rstrip("\n").split("\t")
                pairs.append((gold, pred))
    return pairs


def test_hosts_agree_on_fixture_pairs(sqlite_host, duck_host):
    for gold, pred in load_pairs():
        query = "SELECT ast_ted(?, ?), ast_ted_distance(?, ?), sql_ast(?)"
        args = [gold, pred, gold, pred, pred]
        assert sqlite_host.rows(query, args) == duck_host.rows(query, args), (gold, pred)
