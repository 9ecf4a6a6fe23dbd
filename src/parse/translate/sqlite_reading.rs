//! The SQLite reading's leniency for what sqlglot leaves of other engines in the SQLite text it
//! writes and SQLite cannot run: `EXTRACT(part FROM x)` (syntax SQLite cannot parse) and `YEAR(x)`,
//! `MONTH(x)`, `DAY(x)` (functions no SQLite has).
//!
//! ```sql
//! -- given (untagged; SQLite rejects it: near "FROM": syntax error, no such function: YEAR)
//! SELECT EXTRACT(MONTH FROM d), YEAR(d) FROM t WHERE YEAR(d) = '1980'
//! -- read as
//! SELECT CAST(strftime('%m', d) AS INTEGER), CAST(strftime('%Y', d) AS INTEGER) FROM t
//! WHERE CAST(strftime('%Y', d) AS INTEGER) = '1980'
//! ```
//!
//! The parts are integers, written as the dialect translation writes them (`date_parts`), cast
//! so that they compare as the engines that have them compare them: the cast gives the value
//! INTEGER affinity, so `YEAR(d) = '1980'` compares numbers, as in MySQL (a registered function's
//! value has no affinity and would never equal the text '1980'). Only a text SQLite cannot run is
//! rewritten: one that calls `YEAR`, `MONTH` or `DAY` (SQLite has no such function and no way to
//! define one in SQL), or whose `EXTRACT` SQLite's own parser rejects; a text SQLite runs is never
//! touched, byte for byte. `LEFT` and `RIGHT`, whose values carry no affinity either way, are
//! registered on the connections instead (`exec::foreign_functions`). The rewrite runs on the
//! translation's own stack and under its limits ([`super::sqlite_text`]); a text it cannot read
//! stays as it is and fails as it did.

use std::ops::ControlFlow;

use sqlparser::ast::{Expr, Statement, VisitMut, VisitorMut};

use super::date_parts::common_extract;
use super::temporal::{function_name, int_part, plain_args};
use crate::error::Result;

/// The words the leniency reads when a parenthesis follows them.
const WORDS: [&[u8]; 4] = [b"extract", b"year", b"month", b"day"];

/// Whether `sql` may need the leniency: it holds one of [`WORDS`] (any case, not the end of a
/// longer name such as `json_extract` or `weekday`) before a parenthesis. A text without one is
/// the SQLite text as it is, with no further look.
pub(crate) fn may_apply(sql: &str) -> bool {
    let bytes = sql.as_bytes();
    let name = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80;
    WORDS.iter().any(|word| {
        let n = word.len();
        bytes.windows(n).enumerate().any(|(i, w)| {
            w.eq_ignore_ascii_case(word)
                && (i == 0 || !name(bytes[i - 1]))
                && bytes[i + n..]
                    .iter()
                    .find(|b| !b.is_ascii_whitespace())
                    .is_some_and(|&b| b == b'(')
        })
    })
}

/// Whether SQLite's own parser rejects the first statement of `sql` as a syntax error (on an
/// empty database, where a query that parses fails on its first table instead).
fn sqlite_rejects(sql: &str) -> bool {
    let Ok(conn) = rusqlite::Connection::open_in_memory() else {
        return false;
    };
    let syntax = |message: &str| message.ends_with("syntax error") || message == "incomplete input";
    let rejected = match conn.prepare(sql) {
        Err(rusqlite::Error::SqliteFailure(_, Some(message))) => syntax(&message),
        Err(rusqlite::Error::SqlInputError { msg, .. }) => syntax(&msg),
        _ => false,
    };
    rejected
}

/// `sql` as the SQLite reading takes it: itself when SQLite can run it or when the leniency
/// changes nothing, otherwise the text printed after the rewrite.
pub(crate) fn lenient_text(sql: &str) -> Result<String> {
    let Ok(mut statements) = crate::parse::parse_sqlite(sql) else {
        return Ok(sql.to_string());
    };
    let mut rewrite = Rewrite::default();
    for s in &mut statements {
        let _ = s.visit(&mut rewrite);
    }
    let cannot_run = rewrite.functions || (rewrite.extract && sqlite_rejects(sql));
    if !cannot_run {
        return Ok(sql.to_string());
    }
    Ok(statements
        .iter()
        .map(Statement::to_string)
        .collect::<Vec<_>>()
        .join("; "))
}

/// Rewrites every `EXTRACT` and every call of `YEAR`, `MONTH` and `DAY`, and records which.
#[derive(Default)]
struct Rewrite {
    extract: bool,
    functions: bool,
}

/// The `strftime` format of the part a function of [`WORDS`] gives.
fn part_format(name: &str) -> Option<&'static str> {
    Some(match name {
        "YEAR" => "%Y",
        "MONTH" => "%m",
        "DAY" => "%d",
        _ => return None,
    })
}

impl VisitorMut for Rewrite {
    type Break = ();

    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        match e {
            Expr::Extract { field, expr, .. } => {
                *e = common_extract(field, (**expr).clone());
                self.extract = true;
            }
            Expr::Function(f) => {
                let format = part_format(&function_name(f)).filter(|_| f.over.is_none());
                let arg = plain_args(f).and_then(|a| <[Expr; 1]>::try_from(a).ok());
                if let (Some(format), Some([x])) = (format, arg) {
                    *e = int_part(format, x);
                    self.functions = true;
                }
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::translate::sqlite_text;

    #[test]
    fn only_text_sqlite_rejects_is_read_leniently() {
        assert!(!may_apply("SELECT a FROM t"));
        assert!(!may_apply("SELECT json_extract(a, '$.b'), extract FROM t"));
        assert!(may_apply("SELECT ExTrAcT (YEAR FROM d) FROM t"));
        assert!(may_apply("SELECT 1 FROM t WHERE 2 = extract(YEAR FROM d)"));
        let read = |sql: &str| sqlite_text(sql).unwrap().into_owned();
        assert_eq!(
            read("SELECT EXTRACT(YEAR FROM d), EXTRACT(month FROM d) FROM t WHERE a = \"x\""),
            "SELECT CAST(strftime('%Y', d) AS INTEGER), CAST(strftime('%m', d) AS INTEGER) \
             FROM t WHERE a = \"x\""
        );
        assert_eq!(
            read("SELECT YEAR(d), Day(DATE(d)) FROM t WHERE month (d) = '3'"),
            "SELECT CAST(strftime('%Y', d) AS INTEGER), CAST(strftime('%d', DATE(d)) AS INTEGER) \
             FROM t WHERE CAST(strftime('%m', d) AS INTEGER) = '3'"
        );
        assert!(!may_apply("SELECT weekday(d), birthday (x) FROM t"));
        assert_eq!(
            read("SELECT EXTRACT(SECOND FROM d) FROM t"),
            "SELECT sqlsim_untranslated('EXTRACT(SECOND) in sqlite', d) FROM t"
        );
        // text SQLite parses stays as it is, byte for byte, whatever it names
        for same in [
            "SELECT extract FROM t  WHERE x = 'EXTRACT(YEAR FROM d)'",
            "SELECT extract(a, b) FROM t",
            "select \"extract\"(1)",
            "SELECT EXTRACT(YEAR FROM d FROM t", // not SQL in any reading
            "SELECT year, \"year\", 'year(d)' FROM t",
            "SELECT year(a, b) FROM t", // no part function
        ] {
            assert!(
                matches!(sqlite_text(same), Ok(std::borrow::Cow::Borrowed(s)) if s == same),
                "{same}"
            );
        }
    }

    #[test]
    fn the_reading_of_a_postgres_extract_is_its_translation() {
        use crate::parse::dialect::{tag, Dialect};
        for part in ["YEAR", "MONTH", "DAY", "QUARTER", "DOY", "HOUR", "MINUTE"] {
            let sql = format!("SELECT EXTRACT({part} FROM d) FROM t");
            let pg = sqlite_text(&tag(&sql, Dialect::Postgres))
                .unwrap()
                .into_owned();
            assert_eq!(sqlite_text(&sql).unwrap(), pg, "{part}");
        }
        let age = "SELECT EXTRACT(YEAR FROM AGE(b)) FROM t";
        let pg = sqlite_text(&tag(age, Dialect::Postgres))
            .unwrap()
            .into_owned();
        assert_eq!(sqlite_text(age).unwrap(), pg);
    }

    /// A part compared with text compares as a number, as the engines with these functions
    /// compare it (the cast's affinity), and as the dialect's translation does.
    #[test]
    fn a_part_compared_with_text_compares_as_a_number() {
        use crate::parse::dialect::{tag, Dialect};
        let sql = "SELECT d FROM t WHERE YEAR(d) BETWEEN '1936' AND '1956'";
        let read = sqlite_text(sql).unwrap().into_owned();
        let mysql = sqlite_text(&tag(sql, Dialect::Mysql)).unwrap().into_owned();
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE t(d); INSERT INTO t VALUES ('1940-02-03'), ('1990-01-01');",
        )
        .unwrap();
        for text in [read, mysql] {
            let n: i64 = conn
                .query_row(&format!("SELECT count(*) FROM ({text})"), [], |r| r.get(0))
                .unwrap();
            assert_eq!(n, 1, "{text}");
        }
    }

    #[test]
    fn a_deep_extract_nest_is_read_on_its_own_stack() {
        let nest = format!(
            "SELECT {}d{} FROM t",
            "EXTRACT(YEAR FROM ".repeat(40),
            ")".repeat(40)
        );
        let small = std::thread::Builder::new().stack_size(256 << 10);
        let outcome = small
            .spawn(move || crate::parse::parse_sql(&nest).is_ok())
            .unwrap()
            .join();
        assert!(outcome.is_ok(), "the reading overflowed the caller's stack");
    }
}
