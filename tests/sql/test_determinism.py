"""Verdicts and scores do not depend on the machine's load, the thread count or the host: ParSEval's
budget counts Z3 resource units (option `work`), and only the wall-clock safety cap (`timeout_ms`)
can stop a call by time, which its reason then says."""
import json
import multiprocessing
import os
import subprocess
import sys

from conftest import DUCKDB_EXTENSION, SqliteHost
import common  # scripts/common.py; conftest put scripts/ on sys.path

DDL = (
    "CREATE TABLE singer (singer_id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT, age INT);"
    "CREATE TABLE song (song_id INTEGER PRIMARY KEY, title TEXT, singer_id INT REFERENCES singer(singer_id),"
    " sales REAL)"
)

PAIRS = [
    ("SELECT name FROM singer WHERE age > 30", "SELECT name FROM singer WHERE age >= 30"),
    ("SELECT country, count(*) FROM singer GROUP BY country HAVING count(*) > 2",
     "SELECT country, count(singer_id) FROM singer GROUP BY country HAVING count(*) >= 3"),
    ("SELECT s.name, sum(t.sales) FROM singer s JOIN song t ON s.singer_id = t.singer_id "
     "WHERE t.title LIKE '%love%' GROUP BY s.name ORDER BY sum(t.sales) DESC LIMIT 3",
     "SELECT name, total FROM (SELECT singer.name, sum(song.sales) AS total FROM song JOIN singer "
     "ON song.singer_id = singer.singer_id WHERE song.title LIKE '%love%' GROUP BY singer.name) "
     "ORDER BY total DESC LIMIT 3"),
    ("SELECT name FROM singer WHERE singer_id NOT IN (SELECT singer_id FROM song)",
     "SELECT name FROM singer s WHERE NOT EXISTS (SELECT 1 FROM song t WHERE t.singer_id = s.singer_id)"),
    ("SELECT title FROM song WHERE substr(title, 1, 3) = 'abc' AND sales BETWEEN 10 AND 20",
     "SELECT title FROM song WHERE title LIKE 'abc%' AND sales >= 10 AND sales <= 20"),
]
# A budget small enough that some searches stop on it: where they stop must not depend on time.
OPTIONS = [None, '{"work": 30000}', '{"work": 300000, "seed": 5}']
QUERY = "SELECT sql_similarity_components(?, ?, ?, ?)"


def verdict_facts(text):
    """What must be identical: verdict, reason, evidence, band and the work spent (the GMN
    components are float32 model outputs, compared with a tolerance)."""
    c = json.loads(text)
    return (c["verdict"], c["reason"], c["evidence"], tuple(c["band"]), c["work"]), c["score"]


def duckdb_facts(threads):
    con = common.connect_duckdb(DUCKDB_EXTENSION)
    con.execute(f"SET threads = {threads}")
    rows = [(g, p, DDL, o) for g, p in PAIRS for o in OPTIONS]
    con.execute("CREATE TABLE pairs (gold TEXT, pred TEXT, s TEXT, o TEXT)")
    con.executemany("INSERT INTO pairs VALUES (?, ?, ?, ?)", rows)
    out = con.execute("SELECT sql_similarity_components(gold, pred, s, o) FROM pairs").fetchall()
    return [verdict_facts(r[0]) for r in out]


def sqlite_facts():
    host = SqliteHost()
    return [verdict_facts(host.value(QUERY, [g, p, DDL, o])) for g, p in PAIRS for o in OPTIONS]


def facts_in_fresh_process(host, threads=1):
    """The facts computed in a new process (nothing cached), as `python test_determinism.py` prints them."""
    here = os.path.dirname(os.path.abspath(__file__))
    out = subprocess.run([sys.executable, __file__, host, str(threads)], cwd=here,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    return [(tuple(f), score) for f, score in json.loads(out.stdout)]


def burn(stop):
    while not stop.is_set():
        sum(i * i for i in range(10_000))


def assert_same(a, b):
    assert [f for f, _ in a] == [f for f, _ in b]
    for (_, x), (_, y) in zip(a, b):
        assert abs(x - y) < 1e-5


def test_verdicts_do_not_depend_on_load_threads_or_host():
    quiet = facts_in_fresh_process("sqlite")
    assert any(f[1].startswith("unknown: work budget") for f, _ in quiet), quiet
    assert_same(facts_in_fresh_process("duckdb", 1), quiet)
    stop = multiprocessing.Event()
    burners = [multiprocessing.Process(target=burn, args=(stop,)) for _ in range(3 * (os.cpu_count() or 2))]
    for b in burners:
        b.start()
    try:
        busy = facts_in_fresh_process("duckdb", 4)
        busy_sqlite = facts_in_fresh_process("sqlite")
    finally:
        stop.set()
        for b in burners:
            b.join()
    assert_same(busy, quiet)
    assert_same(busy_sqlite, quiet)


def test_wall_clock_cap_is_reported_apart(host):
    gold, pred = PAIRS[2]
    options = '{"timeout_ms": 1, "work": 2000000000, "seed": 11}'
    reason = host.value("SELECT sql_equivalent_reason(?, ?, ?, ?)", [gold, pred, DDL, options])
    assert "wall-clock safety cap of 1 ms" in reason, reason
    assert host.value("SELECT sql_equivalent(?, ?, ?, ?)", [gold, pred, DDL, options]) is None


if __name__ == "__main__":
    facts = sqlite_facts() if sys.argv[1] == "sqlite" else duckdb_facts(int(sys.argv[2]))
    print(json.dumps(facts))
