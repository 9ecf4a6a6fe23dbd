//! Functions of other engines that no SQLite has and that sqlglot leaves in the SQLite text it
//! writes (`LEFT(s, n)` of PostgreSQL and MySQL): `left` and `right`, registered on every
//! connection sqlsim runs queries on ([`super::functions::register`]) with the meaning the engines
//! that have them share. This is a leniency of the SQLite reading (docs/dialects.md): a query
//! calling one fails in SQLite, so no query SQLite runs changes meaning (SQLite has no way to
//! define a function in SQL). `YEAR`, `MONTH` and `DAY` are read where the text is parsed instead
//! (`parse::translate::sqlite_reading`): their integer must carry the affinity of a cast to compare
//! with text as a number, which a registered function's value cannot.
//!
//! Each one gives exactly what the dialect translation writes for it (`parse::translate`'s
//! `substrings`), computed by that SQLite expression on a private connection:
//!
//! ```sql
//! LEFT(s, n)   -- substr(s, 1, n)
//! RIGHT(s, n)  -- substr(s, max(length(s) - n + 1, 1)): the last n characters
//! ```
//!
//! A negative length is an error: PostgreSQL keeps all but the last (first) `-n` characters
//! there, MySQL none, so there is no common meaning.

use std::cell::RefCell;

use rusqlite::functions::{Context, FunctionFlags};
use rusqlite::types::Value;
use rusqlite::{Connection, Error};

thread_local! {
    /// A private connection (with SQLite's functions only) that computes the definitions.
    static PRIVATE: RefCell<Option<Connection>> = const { RefCell::new(None) };
}

/// Each function: name, number of arguments, the SQL that defines it (its first column; the
/// second, true where the arguments have no common meaning).
const DEFINITIONS: &[(&str, usize, &str)] = &[
    (
        "left",
        2,
        "SELECT substr(?1, 1, ?2), CAST(?2 AS INTEGER) < 0",
    ),
    (
        "right",
        2,
        "SELECT substr(?1, max(length(?1) - CAST(?2 AS INTEGER) + 1, 1)), \
         CAST(?2 AS INTEGER) < 0",
    ),
];

/// Registers every function of [`DEFINITIONS`] on `conn`.
pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    for &(name, arity, sql) in DEFINITIONS {
        let flags = FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC;
        conn.create_scalar_function(name, arity as i32, flags, move |ctx| {
            evaluate(name, sql, ctx)
        })?;
    }
    Ok(())
}

/// The value of `sql` on the call's arguments, computed on the private connection.
fn evaluate(name: &str, sql: &str, ctx: &Context<'_>) -> rusqlite::Result<Value> {
    let args: Vec<Value> = (0..ctx.len()).map(|i| ctx.get_raw(i).into()).collect();
    let (value, refused) = PRIVATE.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            *slot = Some(Connection::open_in_memory()?);
        }
        let Some(conn) = slot.as_ref() else {
            return Err(user_error(format!("{name}(): no connection to compute it")));
        };
        let mut stmt = conn.prepare_cached(sql)?;
        let columns = stmt.column_count();
        stmt.query_row(rusqlite::params_from_iter(args.iter()), |row| {
            let refused = columns > 1 && row.get::<_, Option<bool>>(1)?.unwrap_or(false);
            Ok((row.get::<_, Value>(0)?, refused))
        })
    })?;
    if refused {
        return Err(user_error(format!(
            "{name}() with a negative length: PostgreSQL and MySQL read it differently"
        )));
    }
    Ok(value)
}

fn user_error(message: String) -> Error {
    Error::UserFunctionError(message.into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::dialect::{tag, Dialect};
    use crate::parse::translate::sqlite_text;

    /// A connection with the functions and a table of awkward values.
    fn connection() -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        register(&conn).unwrap();
        conn.execute_batch(
            "CREATE TABLE t(x); INSERT INTO t VALUES ('2012-03-04'), ('2012-03-04 10:11:12'),
             ('2012-03-04T23:59:59.5'), ('2012-3-4'), (' 2012-03-04'), (2456789.5), (20120304),
             (0), (-5), (1.5), ('abc'), (''), (NULL), (x'414243'), ('héllo wörld'), (12345),
             ('2000-02-29 00:00'), ('10:11:12');",
        )
        .unwrap();
        conn
    }

    fn column(conn: &Connection, sql: &str) -> Vec<Value> {
        let mut stmt = conn.prepare(sql).unwrap();
        let rows = stmt.query_map([], |r| r.get::<_, Value>(0)).unwrap();
        rows.map(Result::unwrap).collect()
    }

    /// Each function gives, on every value, what the translation of the dialect that has it
    /// writes for it.
    #[test]
    fn each_function_gives_what_its_translation_gives() {
        let conn = connection();
        let cases = [
            ("LEFT(x, 0)", Dialect::Postgres),
            ("LEFT(x, 3)", Dialect::Postgres),
            ("LEFT(x, 3)", Dialect::Mysql),
            ("LEFT(x, 40)", Dialect::Mysql),
            ("RIGHT(x, 0)", Dialect::Postgres),
            ("RIGHT(x, 2)", Dialect::Postgres),
            ("RIGHT(x, 2)", Dialect::Mysql),
            ("RIGHT(x, 40)", Dialect::Postgres),
            ("RIGHT(x, LENGTH(x) / 2)", Dialect::Postgres),
            ("LEFT(x, NULL)", Dialect::Mysql),
        ];
        for (call, dialect) in cases {
            let query = format!("SELECT {call} FROM t ORDER BY rowid");
            let translated = sqlite_text(&tag(&query, dialect)).unwrap().into_owned();
            assert_ne!(translated, query, "{call} is translated in {dialect:?}");
            assert_eq!(
                column(&conn, &query),
                column(&conn, &translated),
                "{call} against {translated}"
            );
        }
    }

    #[test]
    fn lengths_count_characters() {
        let conn = connection();
        let one = |sql: &str| conn.query_row(sql, [], |r| r.get::<_, Value>(0)).unwrap();
        assert_eq!(one("SELECT LEFT('héllo', 2)"), Value::Text("hé".into()));
        assert_eq!(one("SELECT RIGHT('héllo', 3)"), Value::Text("llo".into()));
        assert_eq!(one("SELECT RIGHT('ab', 5)"), Value::Text("ab".into()));
        assert_eq!(one("SELECT LEFT(NULL, 2)"), Value::Null);
    }

    #[test]
    fn a_negative_length_is_an_error() {
        let conn = connection();
        for sql in ["SELECT LEFT('abc', -1)", "SELECT RIGHT('abc', -2)"] {
            let err = conn
                .query_row(sql, [], |r| r.get::<_, Value>(0))
                .unwrap_err()
                .to_string();
            assert!(err.contains("negative length"), "{sql}: {err}");
        }
    }
}
