//! String functions of current SQLite that the compiled-in engine (3.39) lacks: `concat` and
//! `concat_ws` (SQLite 3.44). Predictions use them, and the evaluators users compare with run a newer
//! SQLite, so a query calling them must run here too instead of counting as a failing prediction.

use std::cell::RefCell;

use rusqlite::functions::{Context, FunctionFlags};
use rusqlite::types::ValueRef;
use rusqlite::{Connection, Error};

thread_local! {
    /// A private connection that turns a REAL into text exactly as SQLite does (`CAST(x AS TEXT)`).
    static REAL_TEXT: RefCell<Option<Connection>> = const { RefCell::new(None) };
}

/// Registers `concat(X, ...)` and `concat_ws(SEP, X, ...)` on `conn`, with SQLite 3.44's meaning:
/// `concat` joins the text of its non-NULL arguments (all NULL gives ''); `concat_ws` puts SEP
/// between them and is NULL when SEP is NULL. Both need at least one argument (two for concat_ws).
pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    let flags = FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC;
    conn.create_scalar_function("concat", -1, flags, |ctx| {
        if ctx.is_empty() {
            return Err(user_error("wrong number of arguments to function concat()"));
        }
        Ok(Some(joined(ctx, 0, "")?))
    })?;
    conn.create_scalar_function("concat_ws", -1, flags, |ctx| {
        if ctx.len() < 2 {
            return Err(user_error(
                "wrong number of arguments to function concat_ws()",
            ));
        }
        match text_of(ctx.get_raw(0))? {
            None => Ok(None),
            Some(separator) => Ok(Some(joined(ctx, 1, &separator)?)),
        }
    })
}

fn user_error(message: &str) -> Error {
    Error::UserFunctionError(message.into())
}

/// The text of the non-NULL arguments from `first` on, separated by `separator`.
fn joined(ctx: &Context<'_>, first: usize, separator: &str) -> rusqlite::Result<String> {
    let mut parts = Vec::with_capacity(ctx.len());
    for i in first..ctx.len() {
        if let Some(text) = text_of(ctx.get_raw(i))? {
            parts.push(text);
        }
    }
    Ok(parts.join(separator))
}

/// A value as SQLite's `CAST(value AS TEXT)` writes it; None for NULL.
fn text_of(value: ValueRef<'_>) -> rusqlite::Result<Option<String>> {
    Ok(match value {
        ValueRef::Null => None,
        ValueRef::Integer(i) => Some(i.to_string()),
        ValueRef::Text(t) | ValueRef::Blob(t) => Some(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Real(r) => Some(real_text(r)?),
    })
}

fn real_text(r: f64) -> rusqlite::Result<String> {
    REAL_TEXT.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            *slot = Some(Connection::open_in_memory()?);
        }
        match slot.as_ref() {
            Some(conn) => conn.query_row("SELECT CAST(?1 AS TEXT)", [r], |row| row.get(0)),
            None => Err(user_error("no connection to format a REAL")),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(sql: &str) -> rusqlite::Result<Option<String>> {
        let conn = Connection::open_in_memory().unwrap();
        register(&conn).unwrap();
        conn.query_row(sql, [], |row| row.get(0))
    }

    #[test]
    fn concat_joins_text_of_non_null_arguments() {
        assert_eq!(
            eval("SELECT concat('a', NULL, 1, 2.5, 1.0, 'z')").unwrap(),
            Some("a12.51.0z".into())
        );
        assert_eq!(
            eval("SELECT concat(NULL, NULL)").unwrap(),
            Some(String::new())
        );
        assert_eq!(eval("SELECT concat(1e20)").unwrap(), Some("1.0e+20".into()));
        assert!(eval("SELECT concat()").is_err());
    }

    #[test]
    fn concat_ws_separates_and_skips_nulls() {
        assert_eq!(
            eval("SELECT concat_ws(', ', 'a', NULL, 'b', 3)").unwrap(),
            Some("a, b, 3".into())
        );
        assert_eq!(eval("SELECT concat_ws(NULL, 'a', 'b')").unwrap(), None);
        assert_eq!(
            eval("SELECT concat_ws('-', NULL)").unwrap(),
            Some(String::new())
        );
        assert!(eval("SELECT concat_ws('-')").is_err());
    }
}
