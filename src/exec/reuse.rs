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
//! off, and nothing else changed, since a loaded connection is `query_only` until it is given
//! back (a prediction that writes fails as it would on a read-only file). Connections stay on
//! the thread that made them (a few per thread, the oldest dropped first).

use std::cell::RefCell;
use std::ops::Deref;

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

/// Makes an idle connection writable and empty again: its filled tables emptied, the pragmas a
/// load or a query set back to SQLite's defaults.
fn reset(idle: &mut Idle) -> rusqlite::Result<()> {
    idle.conn
        .execute_batch("PRAGMA query_only = 0; PRAGMA reverse_unordered_selects = 0")?;
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
    Ok(Empty {
        idle: Idle {
            schema: schema.clone(),
            conn,
            filled: Vec::new(),
        },
    })
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
        self.idle.conn.execute_batch("PRAGMA query_only = 1")?;
        Ok(Loaded {
            idle: Some(self.idle),
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::exec::instance::{open_database, Database, TableRows};
    use crate::schema::Schema;
    use rusqlite::types::Value;

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
            conn.execute_batch("PRAGMA reverse_unordered_selects = 1")
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
        ] {
            let e = a.execute_batch(write).unwrap_err().to_string();
            assert!(e.contains("readonly"), "{write}: {e}");
        }
        assert_eq!(rows(&a, "SELECT a FROM t"), ["Integer(1)"]);
        assert_eq!(rows(&b, "SELECT a FROM t"), ["Integer(2)", "Integer(3)"]);
        drop((a, b));
        let c = open_database(&s, &db(&[], &[(1, "x")])).unwrap();
        assert!(rows(&c, "SELECT a FROM t").is_empty());
        assert_eq!(rows(&c, "SELECT x FROM u"), ["Integer(1)"]);
    }
}
