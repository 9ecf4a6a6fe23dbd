//! Reuse of a thread's in-memory SQLite connections for generated databases of one schema: the tables are created once per connection, and loading another database only empties the tables the last one filled.
//!
//! A verdict loads dozens of small databases of one schema (every generated database of the
//! gold's suite, for every prediction of that gold, their variants, each counterexample twice).
//! Creating the tables costs SQLite a parse of every `CREATE TABLE` of the schema, most of the
//! cost of a load (Spider schemas have 5 tables on average and up to 26, a database a few rows). A connection given
//! back here keeps its tables; the next load of the same schema on the thread deletes the rows
//! it had and inserts the new ones.
//!
//! What a query sees is the same as on a fresh connection: the same tables and rows inserted in
//! the same order (so the same rowids: no table is AUTOINCREMENT), `reverse_unordered_selects`
//! off, and nothing else changed, since a loaded connection is read-only until it is given back:
//! its authorizer refuses to prepare any statement but reads (a prediction that writes fails as
//! it would on a read-only file). Neither loading nor that switch expires the connection's
//! prepared statements (`PRAGMA query_only` would expire them all), so the loader's `INSERT`s and
//! the queries run on every database ([`super::run_cached`]) are prepared once per connection.
//! Connections stay on the thread that made them (a few per thread, the oldest dropped first).

use std::cell::RefCell;
use std::ops::Deref;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use rusqlite::config::DbConfig;
use rusqlite::hooks::{AuthAction, AuthContext, Authorization};
use rusqlite::Connection;

use crate::schema::Schema;

/// Idle connections kept per thread (of any schemas).
const IDLE_PER_THREAD: usize = 8;
/// Prepared `INSERT` and `DELETE` statements kept per connection.
const STATEMENTS_PER_CONNECTION: usize = 64;

struct Idle {
    /// The schema whose tables the connection has.
    schema: Schema,
    conn: Connection,
    /// Tables holding rows (quoted names).
    filled: Vec<String>,
    /// False while the connection is loaded: its authorizer then allows reads alone.
    writable: Arc<AtomicBool>,
}

thread_local! {
    static IDLE: RefCell<Vec<Idle>> = const { RefCell::new(Vec::new()) };
}

/// A connection holding one loaded database, given back to its thread's idle list when dropped.
pub struct Loaded {
    idle: Option<Idle>,
}

impl Deref for Loaded {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        // `idle` is taken only by Drop
        &self
            .idle
            .as_ref()
            .expect("a loaded connection until dropped")
            .conn
    }
}

impl Drop for Loaded {
    fn drop(&mut self) {
        if let Some(idle) = self.idle.take() {
            let _ = IDLE.try_with(|list| {
                let mut list = list.borrow_mut();
                if list.len() >= IDLE_PER_THREAD {
                    list.remove(0);
                }
                list.push(idle);
            });
        }
    }
}

/// Makes an idle connection writable and empty again: its filled tables emptied, the flag a
/// query set (`reverse_unordered_selects`) back to SQLite's default.
fn reset(idle: &mut Idle) -> rusqlite::Result<()> {
    idle.writable.store(true, Ordering::Relaxed);
    idle.conn
        .set_db_config(DbConfig::SQLITE_DBCONFIG_REVERSE_SCANORDER, false)?;
    for table in idle.filled.drain(..) {
        idle.conn
            .prepare_cached(&format!("DELETE FROM {table}"))?
            .execute([])?;
    }
    Ok(())
}

/// An empty connection with the tables of `schema`: an idle one of this thread, emptied, or a
/// new one made by `create` (which alone formats and runs the `CREATE TABLE` statements); an
/// idle one that cannot be emptied is dropped.
pub fn take<E>(
    schema: &Schema,
    create: impl FnOnce() -> Result<Connection, E>,
) -> Result<Empty, E> {
    let reused = IDLE
        .try_with(|list| {
            let mut list = list.borrow_mut();
            let at = list.iter().rposition(|i| i.schema == *schema)?;
            Some(list.remove(at))
        })
        .ok()
        .flatten();
    if let Some(mut idle) = reused {
        if reset(&mut idle).is_ok() {
            return Ok(Empty { idle });
        }
    }
    let conn = create()?;
    conn.set_prepared_statement_cache_capacity(STATEMENTS_PER_CONNECTION);
    let writable = Arc::new(AtomicBool::new(true));
    let flag = writable.clone();
    conn.authorizer(Some(move |ctx: AuthContext<'_>| {
        if flag.load(Ordering::Relaxed) || reads(&ctx.action) {
            Authorization::Allow
        } else {
            Authorization::Deny
        }
    }));
    Ok(Empty {
        idle: Idle {
            schema: schema.clone(),
            conn,
            filled: Vec::new(),
            writable,
        },
    })
}

/// What a loaded (read-only) connection may prepare: queries, the functions they call, and
/// pragmas that read a setting.
fn reads(action: &AuthAction<'_>) -> bool {
    matches!(
        action,
        AuthAction::Select
            | AuthAction::Read { .. }
            | AuthAction::Function { .. }
            | AuthAction::Recursive
            | AuthAction::Pragma {
                pragma_value: None,
                ..
            }
    )
}

/// A connection with the schema's tables and no rows, being loaded.
pub struct Empty {
    idle: Idle,
}

impl Empty {
    /// The connection, to insert rows with.
    pub fn conn(&self) -> &Connection {
        &self.idle.conn
    }

    /// Notes that `table` (quoted) got rows: the next load empties it.
    pub fn filled(&mut self, table: String) {
        self.idle.filled.push(table);
    }

    /// The loaded database, read-only from now until it is given back.
    pub fn loaded(self) -> rusqlite::Result<Loaded> {
        self.idle.writable.store(false, Ordering::Relaxed);
        Ok(Loaded {
            idle: Some(self.idle),
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::exec::instance::{
        instance_bounds, open_database, run_query, Database, Outcome, TableRows,
    };
    use crate::schema::Schema;
    use rusqlite::config::DbConfig;
    use rusqlite::types::Value;
    use rusqlite::StatementStatus;

    fn schema() -> Schema {
        Schema::from_argument(
            "CREATE TABLE t(a INTEGER, b TEXT); CREATE TABLE u(x INTEGER PRIMARY KEY, y TEXT)",
        )
        .unwrap()
    }

    fn db(t: &[(i64, &str)], u: &[(i64, &str)]) -> Database {
        let rows = |r: &[(i64, &str)]| {
            r.iter()
                .map(|(i, s)| vec![Value::Integer(*i), Value::Text(s.to_string())])
                .collect::<Vec<_>>()
        };
        Database {
            tables: vec![
                TableRows {
                    table: 0,
                    rows: rows(t),
                },
                TableRows {
                    table: 1,
                    rows: rows(u),
                },
            ],
        }
    }

    fn rows(conn: &rusqlite::Connection, sql: &str) -> Vec<String> {
        let mut stmt = conn.prepare(sql).unwrap();
        let n = stmt.column_count();
        stmt.query_map([], |r| {
            Ok((0..n)
                .map(|i| format!("{:?}", r.get_ref(i).unwrap()))
                .collect::<Vec<_>>()
                .join(","))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect()
    }

    #[test]
    fn a_reused_connection_shows_what_a_fresh_one_shows() {
        let s = schema();
        let first = db(&[(1, "p"), (2, "q"), (3, "r")], &[(7, "z")]);
        let second = db(&[(5, "s"), (4, "t")], &[]);
        let queries = [
            "SELECT rowid, a, b FROM t",
            "SELECT * FROM u",
            "SELECT count(*) FROM t",
        ];
        let fresh: Vec<_> = {
            let conn = open_database(&s, &second).unwrap();
            queries.iter().map(|q| rows(&conn, q)).collect()
        };
        {
            let conn = open_database(&s, &first).unwrap();
            conn.set_db_config(DbConfig::SQLITE_DBCONFIG_REVERSE_SCANORDER, true)
                .unwrap();
            assert_eq!(rows(&conn, "SELECT a FROM t").len(), 3);
        }
        let conn = open_database(&s, &second).unwrap();
        let reused: Vec<_> = queries.iter().map(|q| rows(&conn, q)).collect();
        assert_eq!(reused, fresh);
        assert_eq!(
            fresh[0],
            [
                "Integer(1),Integer(5),Text([115])",
                "Integer(2),Integer(4),Text([116])"
            ]
        );
        assert!(fresh[1].is_empty());
        assert_eq!(
            rows(&conn, "PRAGMA reverse_unordered_selects"),
            ["Integer(0)"]
        );
    }

    #[test]
    fn a_loaded_database_is_read_only_and_two_can_be_open_at_once() {
        let s = schema();
        let a = open_database(&s, &db(&[(1, "p")], &[])).unwrap();
        let b = open_database(&s, &db(&[(2, "q"), (3, "r")], &[])).unwrap();
        for write in [
            "DELETE FROM t",
            "INSERT INTO u VALUES (1, 'x')",
            "CREATE TEMP TABLE z(a)",
            "PRAGMA reverse_unordered_selects = 1",
            "ATTACH ':memory:' AS other",
        ] {
            let e = a.execute_batch(write).unwrap_err().to_string();
            assert!(e.contains("not authorized"), "{write}: {e}");
        }
        // a query run on the loaded database that writes fails as on a read-only file, the
        // loader's own cached INSERT too
        let insert = "INSERT INTO \"t\" VALUES (?, ?)";
        assert!(a.prepare_cached(insert).is_ok_and(|s| !s.readonly()));
        for write in [insert, "DELETE FROM t"] {
            let refused = run_query(&a, write, &instance_bounds(), false);
            let message = "attempt to write a readonly database";
            assert!(
                matches!(&refused, Outcome::Error(e) if e == message),
                "{refused:?}"
            );
        }
        assert_eq!(rows(&a, "SELECT a FROM t"), ["Integer(1)"]);
        assert_eq!(rows(&b, "SELECT a FROM t"), ["Integer(2)", "Integer(3)"]);
        drop((a, b));
        let c = open_database(&s, &db(&[], &[(1, "x")])).unwrap();
        assert!(rows(&c, "SELECT a FROM t").is_empty());
        assert_eq!(rows(&c, "SELECT x FROM u"), ["Integer(1)"]);
    }

    #[test]
    fn loading_another_database_keeps_the_prepared_queries() {
        let s = schema();
        let query = "SELECT a FROM t";
        let reprepared = |conn: &rusqlite::Connection| {
            let mut stmt = conn.prepare_cached(query).unwrap();
            let n = stmt.query_map([], |_| Ok(())).unwrap().count();
            (n, stmt.get_status(StatementStatus::RePrepare))
        };
        {
            let conn = open_database(&s, &db(&[(1, "p")], &[])).unwrap();
            assert_eq!(reprepared(&conn), (1, 0));
        }
        // the same connection, emptied and loaded again: the cached query runs as prepared
        let conn = open_database(&s, &db(&[(2, "q"), (3, "r")], &[])).unwrap();
        assert_eq!(reprepared(&conn), (2, 0));
    }

    #[test]
    fn a_cached_query_follows_the_scan_order_flag() {
        let s = schema();
        let conn = open_database(&s, &db(&[(1, "p"), (2, "q"), (3, "r")], &[])).unwrap();
        let order = |reverse| match run_query(&conn, "SELECT a FROM t", &instance_bounds(), reverse)
        {
            Outcome::Rows(r) => r
                .iter()
                .map(|r| format!("{:?}", r.cells))
                .collect::<Vec<_>>(),
            other => panic!("{other:?}"),
        };
        let forward = order(false);
        let mut backward = order(true);
        assert_eq!(forward.len(), 3);
        backward.reverse();
        assert_eq!(forward, backward, "the flag expires the cached statement");
        assert_eq!(order(false), forward);
    }
}
