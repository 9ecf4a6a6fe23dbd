//! The lenient SQLite reading: leniency for what sqlglot leaves of other engines in the
//! SQLite text it writes and SQLite cannot run: `EXTRACT(part FROM x)` (syntax SQLite cannot
//! parse) and `YEAR(x)`, `MONTH(x)`, `DAY(x)`, `LEFT(s, n)`, `RIGHT(s, n)` (functions no SQLite
//! has).
//!
//! ```sql
//! -- given (SQLite rejects it: near "FROM": syntax error, no such function: YEAR)
//! SELECT EXTRACT(MONTH FROM d), YEAR(d), LEFT(s, 3) FROM t WHERE YEAR(d) = '1980'
//! -- read as
//! SELECT CAST(strftime('%m', d) AS INTEGER), CAST(strftime('%Y', d) AS INTEGER),
//! SUBSTRING(s, 1, 3) FROM t WHERE CAST(strftime('%Y', d) AS INTEGER) = '1980'
//! ```
//!
//! Where: a text the registry tags (`super::read_leniently`): a gold query written as SQLite
//! where a verdict reads it (the sql_equivalent family, sql_counterexample, the verdict inside
//! sql_similarity), nowhere else. A prediction a verdict runs is read as written (SQLite fails
//! one that calls `YEAR`, and so does the verdict), and so is every query exec_match,
//! bird_soft_f1 and the Spider evaluator run, as the official evaluators do. The structural
//! metrics (ast_ted, astpm, relpm, the GMN graphs, sql_similarity's components) compare both
//! queries as written: a PostgreSQL query that calls `YEAR`, which PostgreSQL lacks, keeps it in
//! its SQLite translation, and the two stay one tree. An untagged text is never read leniently.
//!
//! What: the parts are integers, written as the dialect translation writes them (`date_parts`),
//! cast so that they compare as the engines that have them compare them: the cast gives the value
//! INTEGER affinity, so `YEAR(d) = '1980'` compares numbers, as in MySQL (a function registered on
//! the connection would give a value without affinity, which never equals the text '1980').
//! `LEFT` and `RIGHT` are the `SUBSTRING` every dialect's translation writes for a length that is
//! a literal of 0 or more (`substrings`); another length is untranslated, since PostgreSQL and
//! MySQL read a negative one differently. Only a text SQLite cannot run is rewritten: one that
//! calls one of these functions (SQLite has none of them and no way to define one in SQL), or
//! whose `EXTRACT` SQLite's own parser rejects; a text SQLite runs is never touched, byte for
//! byte. The rewrite runs on the translation's own stack and under its limits
//! ([`super::sqlite_text`]); a text it cannot read stays as it is and fails as it did.

use std::ops::ControlFlow;

use sqlparser::ast::{Expr, Statement, VisitMut, VisitorMut};

use super::date_parts::common_extract;
use super::substrings::common_left_right;
use super::temporal::{function_name, int_part, plain_args};
use crate::error::Result;

/// The words the leniency reads when a parenthesis follows them.
const WORDS: [&[u8]; 6] = [b"extract", b"year", b"month", b"day", b"left", b"right"];

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

/// Rewrites every `EXTRACT` and every call of the functions of [`WORDS`], and records which.
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

/// `x` of `DATE(x)`, the date of `x`, whose year, month and day are those of `x` (sqlglot writes
/// MySQL's `YEAR(x)` as `YEAR(DATE(x))`; both are NULL where `x` is no date); any other `x`
/// itself.
fn undated(x: &Expr) -> Expr {
    if let Expr::Function(f) = x {
        let arg = plain_args(f).and_then(|a| <[Expr; 1]>::try_from(a).ok());
        if let (true, Some([inner])) = (function_name(f) == "DATE", arg) {
            return inner;
        }
    }
    x.clone()
}

impl Rewrite {
    /// The reading of a call of one of the functions of [`WORDS`], None for any other call.
    fn call(f: &sqlparser::ast::Function) -> Option<Expr> {
        if f.over.is_some() {
            return None;
        }
        let name = function_name(f);
        match (name.as_str(), plain_args(f)?.as_slice()) {
            ("LEFT" | "RIGHT", [x, n]) => {
                Some(common_left_right(name == "RIGHT", x.clone(), n.clone()))
            }
            (_, [x]) => Some(int_part(part_format(&name)?, undated(x))),
            _ => None,
        }
    }
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
                if let Some(read) = Self::call(f) {
                    *e = read;
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
    use crate::parse::translate::{read_leniently, sqlite_text};
    use std::borrow::Cow;

    /// The SQLite text every layer reads for `sql` taken as a gold query.
    fn read(sql: &str) -> String {
        sqlite_text(&read_leniently(sql)).unwrap().into_owned()
    }

    #[test]
    fn only_text_sqlite_rejects_is_read_leniently() {
        assert!(!may_apply("SELECT a FROM t"));
        assert!(!may_apply("SELECT json_extract(a, '$.b'), extract FROM t"));
        assert!(!may_apply(
            "SELECT a FROM t LEFT JOIN u ON a = b RIGHT OUTER JOIN (v)"
        ));
        assert!(may_apply("SELECT ExTrAcT (YEAR FROM d) FROM t"));
        assert!(may_apply("SELECT 1 FROM t WHERE 2 = extract(YEAR FROM d)"));
        assert!(may_apply("SELECT left (s, 2) FROM t"));
        assert_eq!(
            read("SELECT EXTRACT(YEAR FROM d), EXTRACT(month FROM d) FROM t WHERE a = \"x\""),
            "SELECT CAST(strftime('%Y', d) AS INTEGER), CAST(strftime('%m', d) AS INTEGER) \
             FROM t WHERE a = \"x\""
        );
        assert_eq!(
            read("SELECT YEAR(d), Day(DATE(d)) FROM t WHERE month (d) = '3'"),
            "SELECT CAST(strftime('%Y', d) AS INTEGER), CAST(strftime('%d', d) AS INTEGER) \
             FROM t WHERE CAST(strftime('%m', d) AS INTEGER) = '3'"
        );
        assert_eq!(
            read("SELECT LEFT(s, 3), right(s, 2), RIGHT(s, 0) FROM t LEFT JOIN u ON a = b"),
            "SELECT SUBSTRING(s, 1, 3), SUBSTRING(s, -2), SUBSTRING(s, 1, 0) FROM t \
             LEFT JOIN u ON a = b"
        );
        assert!(!may_apply("SELECT weekday(d), birthday (x) FROM t"));
        assert_eq!(
            read("SELECT EXTRACT(SECOND FROM d) FROM t"),
            "SELECT sqlsim_untranslated('EXTRACT(SECOND) in sqlite', d) FROM t"
        );
        // a length PostgreSQL and MySQL read differently has no common meaning
        for (sql, construct) in [
            ("SELECT LEFT(s, -1) FROM t", "LEFT"),
            ("SELECT RIGHT(s, INSTR(s, ' ')) FROM t", "RIGHT"),
        ] {
            let text = read(sql);
            assert_eq!(
                crate::parse::translate::untranslated_construct(&text),
                Some(format!(
                    "{construct} with a length that is not a literal of 0 or more in sqlite"
                )),
                "{text}"
            );
        }
        // text SQLite parses stays as it is, byte for byte, whatever it names
        for same in [
            "SELECT extract FROM t  WHERE x = 'EXTRACT(YEAR FROM d)'",
            "SELECT extract(a, b) FROM t",
            "select \"extract\"(1)",
            "SELECT EXTRACT(YEAR FROM d FROM t", // not SQL in any reading
            "SELECT year, \"year\", 'year(d)' FROM t",
            "SELECT year(a, b) FROM t", // no part function
            "SELECT left(s) FROM t",    // no LEFT of any engine
        ] {
            assert!(
                matches!(read_leniently(same), Cow::Borrowed(s) if s == same),
                "{same}"
            );
        }
    }

    /// Only a gold query taken through `read_leniently` is read leniently: an untagged text (a
    /// prediction, or a gold that exec_match runs) is SQLite's as written, and fails where SQLite
    /// fails it.
    #[test]
    fn untagged_text_is_never_read_leniently() {
        for sql in [
            "SELECT YEAR(d) FROM t",
            "SELECT EXTRACT(YEAR FROM d) FROM t",
            "SELECT LEFT(s, 2) FROM t",
        ] {
            assert!(
                matches!(sqlite_text(sql), Ok(Cow::Borrowed(s)) if s == sql),
                "{sql}"
            );
            assert_ne!(read_leniently(sql), sql);
        }
        use crate::parse::dialect::{tag, Dialect};
        let pg = tag("SELECT YEAR(d) FROM t", Dialect::Postgres);
        assert_eq!(read_leniently(&pg), pg);
    }

    #[test]
    fn the_reading_of_a_postgres_extract_is_its_translation() {
        use crate::parse::dialect::{tag, Dialect};
        for part in ["YEAR", "MONTH", "DAY", "QUARTER", "DOY", "HOUR", "MINUTE"] {
            let sql = format!("SELECT EXTRACT({part} FROM d) FROM t");
            let pg = sqlite_text(&tag(&sql, Dialect::Postgres))
                .unwrap()
                .into_owned();
            assert_eq!(read(&sql), pg, "{part}");
        }
        let age = "SELECT EXTRACT(YEAR FROM AGE(b)) FROM t";
        let pg = sqlite_text(&tag(age, Dialect::Postgres))
            .unwrap()
            .into_owned();
        assert_eq!(read(age), pg);
    }

    /// A part compared with text compares as a number, as the engines with these functions
    /// compare it (the cast's affinity), and as the dialect's translation does.
    #[test]
    fn a_part_compared_with_text_compares_as_a_number() {
        use crate::parse::dialect::{tag, Dialect};
        let sql = "SELECT d FROM t WHERE YEAR(d) BETWEEN '1936' AND '1956'";
        let mysql = sqlite_text(&tag(sql, Dialect::Mysql)).unwrap().into_owned();
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE t(d); INSERT INTO t VALUES ('1940-02-03'), ('1990-01-01');",
        )
        .unwrap();
        for text in [read(sql), mysql] {
            let n: i64 = conn
                .query_row(&format!("SELECT count(*) FROM ({text})"), [], |r| r.get(0))
                .unwrap();
            assert_eq!(n, 1, "{text}");
        }
    }

    /// `YEAR(DATE(x))` reads as `YEAR(x)`: the parts of `DATE(x)` are those of `x`, awkward
    /// values included.
    #[test]
    fn the_parts_of_a_date_are_the_parts_of_its_value() {
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        for v in [
            "'2011-02-30'",
            "'2011-12-31T23:00:00-05:00'",
            "'2011-13-01'",
            "'2011-06-01 25:00'",
            "' 2011-06-01'",
            "'0000-01-01'",
            "'9999-12-31 23:59:59.999'",
            "'now'",
            "2455000.5",
            "1e10",
            "'abc'",
            "NULL",
        ] {
            for f in ["%Y", "%m", "%d"] {
                let sql = format!("SELECT strftime('{f}', DATE({v})) IS strftime('{f}', {v})");
                let same: bool = conn.query_row(&sql, [], |r| r.get(0)).unwrap();
                assert!(same, "{sql}");
            }
        }
        assert_eq!(
            read("SELECT a FROM t WHERE YEAR(DATE(d)) = 2011 AND MONTH(DATE(d, '+1 day')) = 2"),
            "SELECT a FROM t WHERE CAST(strftime('%Y', d) AS INTEGER) = 2011 AND \
             CAST(strftime('%m', DATE(d, '+1 day')) AS INTEGER) = 2"
        );
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
            .spawn(move || crate::parse::parse_sql(&read_leniently(&nest)).is_ok())
            .unwrap()
            .join();
        assert!(outcome.is_ok(), "the reading overflowed the caller's stack");
    }
}
