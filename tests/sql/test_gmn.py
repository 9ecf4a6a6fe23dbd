"""GMN graphs (and, once the runtime and models are present, scores) through both real hosts."""
import json
import os

import pytest

from conftest import ROOT, HostError

with open(os.path.join(ROOT, "tests", "fixtures", "plan_schema.json")) as f:
    SCHEMA = json.dumps(json.load(f))
with open(os.path.join(ROOT, "models", "vocab.json")) as f:
    VOCAB = json.load(f)

GOLD = "SELECT name FROM singer WHERE age > 20 ORDER BY age DESC"
PRED = "SELECT s.name FROM singer AS s WHERE s.age >= 21"


def check_graph(g, relations, pe_steps):
    n = len(g["types"])
    assert 0 < n <= 512
    assert len(g["chars"]) == n and len(g["pe"]) == n
    for t, chars in zip(g["types"], g["chars"]):
        assert 0 < t < len(VOCAB)
        assert (t == 2) == bool(chars)
        assert len(chars) <= 64 and all(0 <= c < 128 for c in chars)
    for src, dst, rel in g["edges"]:
        assert 0 <= src < n and 0 <= dst < n and 0 <= rel < relations
    for row in g["pe"]:
        assert len(row) == pe_steps and all(0.0 <= v <= 1.0 for v in row)


def test_sql_graph_funceval(host):
    out = json.loads(host.value("SELECT sql_graph(?, ?, ?)", [GOLD, PRED, SCHEMA]))
    assert (out["model"], out["version"], out["relations"], out["pe_steps"]) == ("funceval", 1, 3, 16)
    gold, pred = out["graphs"]
    for g in (gold, pred):
        check_graph(g, 3, 16)
    names = {VOCAB[t] for t in gold["types"]}
    assert {"Project", "Filter", "TableScan", "Sort", "DESC", ">"} <= names
    texts = {bytes(c).decode() for c in gold["chars"] if c}
    assert "singer" in texts and "20" in texts
    assert {e[2] for e in gold["edges"]} == {0, 1, 2}
    # The same pair with an inferred schema also plans; identical queries give identical graphs.
    same = json.loads(host.value("SELECT sql_graph(?, ?)", [GOLD, GOLD]))
    assert same["graphs"][0] == same["graphs"][1]


def test_sql_graph_hybrid(host):
    out = json.loads(host.value("SELECT sql_graph(?, ?, ?, 'hybrid')", [GOLD, PRED, SCHEMA]))
    assert (out["model"], out["relations"]) == ("hybrid", 4)
    for g in out["graphs"]:
        check_graph(g, 4, 16)
        names = {VOCAB[t] for t in g["types"]}
        assert "ast:Select" in names and "TableScan" in names
        assert {e[2] for e in g["edges"]} >= {0, 1, 2}


def test_sql_graph_nulls_and_errors(host):
    assert host.value("SELECT sql_graph(?, 'SELEC x')", [GOLD]) is None
    assert host.value("SELECT sql_graph(NULL, ?)", [GOLD]) is None
    big = "SELECT a FROM t WHERE " + " OR ".join(f"c{i} = {i}" for i in range(300))
    assert host.value("SELECT sql_graph(?, ?)", [big, GOLD]) is None
    assert host.value("SELECT sql_graph(?, ?, NULL, NULL)", [GOLD, PRED]) is not None
    with pytest.raises(HostError, match=r"sql_graph\(\): argument 'model'"):
        host.value("SELECT sql_graph(?, ?, NULL, 'gnn')", [GOLD, PRED])
