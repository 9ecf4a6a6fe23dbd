"""Partial matching (ASTPM) through both real hosts: scores, defaults, argument errors, NULLs."""
import os

import pytest

from conftest import ROOT, HostError

SIMPLE = "SELECT name FROM singer WHERE age > 20"


def test_astpm_identical_and_normalized(host):
    assert host.value("SELECT astpm(?, ?)", [SIMPLE, SIMPLE]) == 1.0
    same = "select NAME from SINGER where 20 < AGE;"
    assert host.value("SELECT astpm(?, ?)", [SIMPLE, same]) == 1.0
    assert host.value("SELECT astpm(?, ?, 0.1, 2)", [SIMPLE, same]) == 1.0


def test_astpm_hand_computed_scores(host):
    # Query(Select(Projection(Column:a), From(Table:t))) against Column:b, alpha 0.5:
    # Projection 0.5, From 1, Select 0.5 + 0.5 * 0.75, Query 0.5 + 0.5 * 0.875.
    assert host.value("SELECT astpm('SELECT a FROM t', 'SELECT b FROM t', 0.5, 1)") == 0.9375
    # A missing column costs recall only: R = 0.96875, P = 1.
    gold, pred = "SELECT a, b FROM t", "SELECT a FROM t"
    f1 = host.value("SELECT astpm(?, ?, 0.5, 1.0)", [gold, pred])
    assert f1 == pytest.approx(2 * 0.96875 / 1.96875, abs=1e-12)
    f2 = host.value("SELECT astpm(?, ?, 0.5, 2.0)", [gold, pred])
    assert f2 == pytest.approx(5 * 0.96875 / 4.96875, abs=1e-12)
    # Swapping gold and pred swaps precision and recall: F-beta changes unless beta = 1.
    assert host.value("SELECT astpm(?, ?, 0.5, 1.0)", [pred, gold]) == f1
    assert host.value("SELECT astpm(?, ?, 0.5, 0.5)", [pred, gold]) == f2
    # Default alpha 0.9, beta 0.5: P = R = 0.9 + 0.1 * (0.9 + 0.1 * (0.9 + 1) / 2).
    assert host.value("SELECT astpm('SELECT a FROM t', 'SELECT b FROM t')") == pytest.approx(0.9995, abs=1e-12)


def test_astpm_alpha_one_compares_roots_only(host):
    assert host.value("SELECT astpm(?, 'SELECT x FROM y', 1, 1)", [SIMPLE]) == 1.0
    assert host.value("SELECT astpm(?, 'SELECT x FROM y', 0, 1)", [SIMPLE]) < 1.0


def test_astpm_unparseable_scores_zero(host):
    assert host.value("SELECT astpm(?, 'SELEC name FRM')", [SIMPLE]) == 0.0
    assert host.value("SELECT astpm('garbage (', 'garbage (')") == 0.0


def test_astpm_nulls(host):
    assert host.value("SELECT astpm(NULL, ?)", [SIMPLE]) is None
    assert host.value("SELECT astpm(?, NULL)", [SIMPLE]) is None
    assert host.value("SELECT astpm(NULL, NULL, 0.5, 1)") is None
    pred = "SELECT name, age FROM singer"
    default = host.value("SELECT astpm(?, ?)", [SIMPLE, pred])
    assert host.value("SELECT astpm(?, ?, NULL)", [SIMPLE, pred]) == default
    assert host.value("SELECT astpm(?, ?, NULL, NULL)", [SIMPLE, pred]) == default
    assert host.value("SELECT astpm(?, ?, 0.9, NULL)", [SIMPLE, pred]) == default
    assert host.value("SELECT astpm(?, ?, NULL, 0.5)", [SIMPLE, pred]) == default


@pytest.mark.parametrize(
    "alpha, beta, argument",
    [("1.5", "1", "alpha"), ("-0.1", "1", "alpha"), ("0.5", "0", "beta"), ("0.5", "-2", "beta"),
     ("0.5", "{inf}", "beta"), ("{inf}", "1", "alpha")],
)
def test_astpm_argument_errors_name_function_and_argument(host, alpha, beta, argument):
    inf = "9e999" if host.name == "sqlite" else "'inf'::DOUBLE"  # SQLite reads 9e999 as +Inf
    sql = f"SELECT astpm(?, ?, {alpha}, {beta})".replace("{inf}", inf)
    with pytest.raises(HostError, match=rf"astpm\(\): argument '{argument}'"):
        host.value(sql, [SIMPLE, SIMPLE])


def test_astpm_argument_type_and_count_errors(host):
    with pytest.raises(HostError, match="astpm"):
        host.value("SELECT astpm('SELECT 1')")
    with pytest.raises(HostError, match="astpm"):
        host.value("SELECT astpm('SELECT 1', 'SELECT 1', 0.5, 1, 1)")


def test_astpm_text_alpha_is_rejected_in_sqlite(sqlite_host):
    with pytest.raises(HostError, match=r"astpm\(\): argument 'alpha' must be a number, got TEXT"):
        sqlite_host.value("SELECT astpm('SELECT 1', 'SELECT 1', 'high')")


def test_astpm_hosts_agree(sqlite_host, duck_host):
    pairs = []
    with open(os.path.join(ROOT, "tests", "fixtures", "pairs.tsv")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                pairs.append(tuple(line.rstrip("\n").split("\t")))
    assert len(pairs) >= 10
    for gold, pred in pairs:
        for alpha, beta in [(None, None), (0.1, 0.5), (0.5, 1.0), (0.9, 2.0)]:
            query = "SELECT astpm(?, ?, ?, ?)"
            lite = sqlite_host.value(query, [gold, pred, alpha, beta])
            duck = duck_host.value(query, [gold, pred, alpha, beta])
            assert lite == duck, (gold, pred, alpha, beta)
            assert 0.0 <= lite <= 1.0


def test_astpm_vectorized_rows_keep_their_order(host):
    """3,000 rows span DuckDB chunks scored in parallel; each row keeps its own alpha and score."""
    rows = host.rows(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) "
        "SELECT i, astpm('SELECT a FROM t', 'SELECT b FROM t', (i % 2) * 0.5, 1.0) FROM n ORDER BY i"
    )
    assert len(rows) == 3000
    # alpha 0: Projection 0, From 1, Select 0.5, Query 0.5; alpha 0.5: 0.9375 (above).
    assert {score for i, score in rows if i % 2} == {0.9375}
    assert {score for i, score in rows if not i % 2} == {0.5}
