"""sql/spider_eval.sql (DuckDB) and sql/spider_eval_sqlite.sql (SQLite) are what
scripts/build/sql_hosts.py writes from their one source, sql/source/spider_eval.sql; and the writer
does what its module text says."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts" / "build"))
import sql_hosts  # noqa: E402


def test_written_scripts_are_up_to_date():
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "build" / "sql_hosts.py"), "--check"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_render_picks_each_hosts_lines():
    source = "-- about the source\n-- @both\nSELECT 1;\n-- @duckdb\nSELECT 2;\n-- @sqlite\nSELECT 3;\n"
    duck = sql_hosts.render("src.sql", source, "duckdb")
    lite = sql_hosts.render("src.sql", source, "sqlite")
    assert "about the source" not in duck
    assert duck.splitlines()[1:] == ["SELECT 1;", "SELECT 2;"]
    assert lite.splitlines()[1:] == ["SELECT 1;", "SELECT 3;"]


def test_sqlite_gets_drop_and_create_for_create_or_replace():
    lite = sql_hosts.render("src.sql", "-- @both\n  CREATE OR REPLACE TEMP TABLE t AS SELECT 1;\n", "sqlite")
    assert lite.splitlines()[1:] == ["  DROP TABLE IF EXISTS temp.t;", "  CREATE TEMP TABLE t AS SELECT 1;"]
    duck = sql_hosts.render("src.sql", "-- @both\nCREATE OR REPLACE TEMP TABLE t AS SELECT 1;\n", "duckdb")
    assert "CREATE OR REPLACE TEMP TABLE t AS" in duck
