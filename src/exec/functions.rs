//! Functions registered on every engine connection: the math functions ([`super::math`]), which the
//! engine (rusqlite's bundled SQLite 3.50.2, [`super::engine`]) is built without, and sqlsim's own
//! `concat`, `concat_ws`, `string_agg` (3.44), `octet_length` (3.43) and `unhex` (3.41), the same
//! meaning as the engine's built-in ones, which they replace on those connections (`string_agg` is
//! therefore an aggregate only, not a window function). Predictions use them, so a query calling
//! them must run here instead of counting as a failing prediction. Still missing: `median` and
//! `percentile` (3.51's percentile extension), listed in docs/execution.md.

use std::cell::RefCell;

use rusqlite::functions::{Context, FunctionFlags};
use rusqlite::types::ValueRef;
use rusqlite::{Connection, Error};

thread_local! {
    /// A private connection that turns a REAL into text exactly as SQLite does (`CAST(x AS TEXT)`).
    static REAL_TEXT: RefCell<Option<Connection>> = const { RefCell::new(None) };
}

/// Registers every added function on `conn`.
pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    register_concat(conn)?;
    register_bytes(conn)?;
    super::math::register(conn)?;
    conn.create_aggregate_function(
        "string_agg",
        2,
        FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC,
        StringAgg,
    )
}

/// `string_agg(X, SEP)`: `group_concat(X, SEP)` under its SQL-standard name (SQLite 3.44): the text
/// of the non-NULL values of X, SEP between them (a NULL SEP is ''); NULL when there are none.
struct StringAgg;

impl rusqlite::functions::Aggregate<Option<String>, Option<String>> for StringAgg {
    fn init(&self, _: &mut Context<'_>) -> rusqlite::Result<Option<String>> {
        Ok(None)
    }

    fn step(&self, ctx: &mut Context<'_>, acc: &mut Option<String>) -> rusqlite::Result<()> {
        let Some(value) = text_of(ctx.get_raw(0))? else {
            return Ok(());
        };
        match acc {
            None => *acc = Some(value),
            Some(s) => {
                s.push_str(&text_of(ctx.get_raw(1))?.unwrap_or_default());
                s.push_str(&value);
            }
        }
        Ok(())
    }

    fn finalize(
        &self,
        _: &mut Context<'_>,
        acc: Option<Option<String>>,
    ) -> rusqlite::Result<Option<String>> {
        Ok(acc.flatten())
    }
}

/// `octet_length(X)` (3.43): bytes of X's text (or blob); `unhex(X [, Y])` (3.41): the blob a hex
/// string spells, characters of Y allowed between byte pairs; NULL for anything else.
fn register_bytes(conn: &Connection) -> rusqlite::Result<()> {
    let flags = FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC;
    conn.create_scalar_function("octet_length", 1, flags, |ctx| {
        Ok(match ctx.get_raw(0) {
            ValueRef::Blob(b) => Some(b.len() as i64),
            v => text_of(v)?.map(|t| t.len() as i64),
        })
    })?;
    for n in [1, 2] {
        conn.create_scalar_function("unhex", n, flags, |ctx| {
            let x = text_of(ctx.get_raw(0))?;
            let ignore = if ctx.len() > 1 {
                match text_of(ctx.get_raw(1))? {
                    Some(y) => y,
                    None => return Ok(None),
                }
            } else {
                String::new()
            };
            Ok(x.and_then(|x| unhex(&x, &ignore)))
        })?;
    }
    Ok(())
}

fn unhex(x: &str, ignore: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(x.len() / 2);
    let mut chars = x.chars();
    while let Some(c) = chars.next() {
        if let Some(hi) = c.to_digit(16) {
            let lo = chars.next()?.to_digit(16)?;
            out.push((hi * 16 + lo) as u8);
        } else if !ignore.contains(c) {
            return None;
        }
    }
    Some(out)
}

/// Registers `concat(X, ...)` and `concat_ws(SEP, X, ...)` on `conn`, with SQLite 3.44's meaning:
/// `concat` joins the text of its non-NULL arguments (all NULL gives ''); `concat_ws` puts SEP
/// between them and is NULL when SEP is NULL. Both need at least one argument (two for concat_ws).
fn register_concat(conn: &Connection) -> rusqlite::Result<()> {
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

    #[test]
    fn string_agg_octet_length_unhex() {
        let conn = Connection::open_in_memory().unwrap();
        register(&conn).unwrap();
        let q = |sql: &str| -> Option<String> { conn.query_row(sql, [], |r| r.get(0)).unwrap() };
        conn.execute_batch("CREATE TABLE t(a); INSERT INTO t VALUES (1), (NULL), (2.5), ('x');")
            .unwrap();
        assert_eq!(
            q("SELECT string_agg(a, ', ') FROM t"),
            Some("1, 2.5, x".into())
        );
        assert_eq!(q("SELECT string_agg(a, NULL) FROM t"), Some("12.5x".into()));
        assert_eq!(q("SELECT string_agg(a, ',') FROM t WHERE 0"), None);
        let n = |sql: &str| -> Option<i64> { conn.query_row(sql, [], |r| r.get(0)).unwrap() };
        assert_eq!(n("SELECT octet_length('héllo')"), Some(6));
        assert_eq!(n("SELECT octet_length(123)"), Some(3));
        assert_eq!(n("SELECT octet_length(NULL)"), None);
        let b = |sql: &str| -> Option<Vec<u8>> { conn.query_row(sql, [], |r| r.get(0)).unwrap() };
        assert_eq!(b("SELECT unhex('4142')"), Some(b"AB".to_vec()));
        assert_eq!(b("SELECT unhex('41-42', '-')"), Some(b"AB".to_vec()));
        assert_eq!(b("SELECT unhex('4G')"), None);
    }

    /// sqlsim's versions give what the engine's built-in ones (3.41 to 3.44) give, which they replace.
    #[test]
    fn replacements_agree_with_the_engines_builtins() {
        use rusqlite::types::Value;
        let ours = Connection::open_in_memory().unwrap();
        register(&ours).unwrap();
        let builtin = Connection::open_in_memory().unwrap();
        let setup = "CREATE TABLE t(a); INSERT INTO t VALUES (1), (NULL), (2.5), ('x'), (x'41');";
        ours.execute_batch(setup).unwrap();
        builtin.execute_batch(setup).unwrap();
        for sql in [
            "SELECT concat('a', NULL, 1, 2.5, 1.0, 'z', 1e20, -0.0, x'41')",
            "SELECT concat(NULL, NULL)",
            "SELECT concat_ws(', ', 'a', NULL, 'b', 3, 0.1)",
            "SELECT concat_ws(NULL, 'a', 'b')",
            "SELECT concat_ws('-', NULL)",
            "SELECT concat_ws(1, 2, 3)",
            "SELECT string_agg(a, ', ') FROM t",
            "SELECT string_agg(a, NULL) FROM t",
            "SELECT string_agg(a, ',') FROM t WHERE 0",
            "SELECT octet_length('h\u{e9}llo')",
            "SELECT octet_length(123)",
            "SELECT octet_length(2.5)",
            "SELECT octet_length(x'0102')",
            "SELECT octet_length(NULL)",
            "SELECT unhex('4142')",
            "SELECT unhex('41-42', '-')",
            "SELECT unhex('41 42', '')",
            "SELECT unhex('4G')",
            "SELECT unhex('414')",
            "SELECT unhex(NULL)",
            "SELECT unhex('4142', NULL)",
        ] {
            let get = |c: &Connection| c.query_row(sql, [], |r| r.get::<_, Value>(0)).unwrap();
            assert_eq!(get(&ours), get(&builtin), "{sql}");
        }
    }
}
