//! SQL text → sqlparser AST, SQLite dialect first, with the quirks of real benchmark SQL handled.
//!
//! What the wrapper adds to sqlparser:
//! - a recursion limit ([`RECURSION_LIMIT`]) so that deeply nested input returns an error instead of
//!   overflowing the stack; every later stage (normalization visitors, the tree builder, `Display`,
//!   `Drop`) recurses over the AST, so this one limit bounds all of them;
//! - lexical repairs of quirks seen in Spider/BIRD/LLM output ([`preprocess`]): `! =` written with a
//!   space, identifiers that start with digits (`18_49_Rating_Share`);
//! - a fallback to sqlparser's MySQL dialect when the SQLite dialect fails (backslash-escaped quotes
//!   such as `'Women\'s Soccer'` in LLM predictions).
//!
//! Double-quoted identifiers that SQLite would read as strings are handled later, by the
//! `double_quoted_strings` normalization pass, because that needs the names used in the query.

pub mod preprocess;

use crate::error::{Error, Result};
use sqlparser::ast::Statement;
use sqlparser::dialect::{Dialect, MySqlDialect, SQLiteDialect};
use sqlparser::parser::Parser;

/// Maximum nesting depth the parser accepts (sqlparser counts one level per nested expression,
/// parenthesis or subquery). Chosen so that parsing, normalizing, building the tree, printing and
/// dropping the deepest accepted AST fits in a 2 MiB thread stack in a debug build (see the test
/// `deep_nesting_within_limit_fits_small_stack`); real benchmark queries stay below 15.
pub const RECURSION_LIMIT: usize = 48;

fn parse_with(dialect: &dyn Dialect, sql: &str) -> Result<Vec<Statement>> {
    Parser::new(dialect)
        .with_recursion_limit(RECURSION_LIMIT)
        .try_with_sql(sql)
        .and_then(|mut p| p.parse_statements())
        .map_err(|e| Error::Parse(e.to_string()))
}

/// Parses `sql` into statements: SQLite dialect first, MySQL dialect as a fallback.
///
/// Text with no statement at all (empty, only comments or semicolons) is an error: it is not a query.
///
/// ```
/// let stmts = sqlsim::parse::parse_sql("SELECT `EXPR$0` FROM t WHERE a ! = 1;").unwrap();
/// assert_eq!(stmts.len(), 1);
/// assert!(sqlsim::parse::parse_sql("SELEC x").is_err());
/// ```
pub fn parse_sql(sql: &str) -> Result<Vec<Statement>> {
    let text = preprocess::preprocess(sql);
    let statements = match parse_with(&SQLiteDialect {}, &text) {
        Ok(s) => s,
        Err(first) => match parse_with(&MySqlDialect {}, &text) {
            Ok(s) => s,
            // Report the SQLite dialect's message: it is the dialect sqlsim claims to follow.
            Err(_) => return Err(first),
        },
    };
    if statements.is_empty() {
        return Err(Error::Parse("no SQL statement in the text".into()));
    }
    Ok(statements)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_benchmark_quirks() {
        for sql in [
            "SELECT count(*) AS `EXPR$0` FROM singer",
            "SELECT \"name\" FROM singer WHERE country = \"France\";",
            "select T1.a from t as T1 where T1.b != 3 -- trailing comment\n;",
            "/* c */ SELECT a FROM t WHERE b ! =  'x'",
            "select max(Share),min(Share),18_49_Rating_Share from TV_series",
            "SELECT t.18_49_rating_share FROM tv_series t",
            "SELECT COUNT(*) FROM event WHERE event_name = 'Women\\'s Soccer'",
        ] {
            assert!(parse_sql(sql).is_ok(), "{sql}: {:?}", parse_sql(sql));
        }
    }

    #[test]
    fn rejects_garbage_and_empty() {
        assert!(parse_sql("").is_err());
        assert!(parse_sql(" ; -- nothing").is_err());
        assert!(parse_sql("SELECT FROM WHERE").is_err());
        assert!(parse_sql("\u{0}\u{1}garbage").is_err());
    }

    #[test]
    fn ten_thousand_parentheses_are_an_error() {
        let sql = format!("SELECT {}1{}", "(".repeat(10_000), ")".repeat(10_000));
        let handle = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || parse_sql(&sql).is_err());
        let joined = handle.map(|h| h.join());
        assert!(matches!(joined, Ok(Ok(true))));
        let subqueries = format!(
            "{}SELECT 1{}",
            "SELECT * FROM (".repeat(5_000),
            ")".repeat(5_000)
        );
        assert!(parse_sql(&subqueries).is_err());
    }

    /// The deepest input the parser accepts must survive the whole pipeline on a 2 MiB stack.
    #[test]
    fn deep_nesting_within_limit_fits_small_stack() {
        let run = || {
            let mut deepest_ok = 0;
            for depth in (1..200).step_by(3) {
                let exprs = [
                    format!("SELECT {}1{}", "(".repeat(depth), ")".repeat(depth)),
                    format!("SELECT {}1{}", "-(".repeat(depth), ")".repeat(depth)),
                    format!("SELECT a FROM t WHERE {}x = 1", "NOT ".repeat(depth)),
                    format!(
                        "{}SELECT 1{}",
                        "SELECT * FROM (".repeat(depth),
                        ")".repeat(depth)
                    ),
                    format!(
                        "SELECT a FROM t WHERE a IN {}SELECT 1{}",
                        "(SELECT a FROM t WHERE a IN ".repeat(depth),
                        ")".repeat(depth)
                    ),
                    format!(
                        "SELECT {}1{}",
                        "CASE WHEN a THEN ".repeat(depth),
                        " END".repeat(depth)
                    ),
                ];
                for sql in exprs {
                    if let Ok(stmts) = parse_sql(&sql) {
                        deepest_ok = depth;
                        let text: usize = stmts.iter().map(|s| s.to_string().len()).sum();
                        let normalized = crate::normalize::normalize(stmts);
                        let printed: usize = normalized.iter().map(|s| s.to_string().len()).sum();
                        let tree = crate::tree::from_ast::statements_tree(&normalized);
                        assert!(text > 0 && printed > 0 && !tree.is_empty());
                    }
                }
            }
            deepest_ok
        };
        let handle = std::thread::Builder::new().stack_size(2 << 20).spawn(run);
        let deepest = handle.map(|h| h.join());
        assert!(
            matches!(deepest, Ok(Ok(d)) if d > 10),
            "pipeline overflowed or rejected shallow input: {deepest:?}"
        );
    }
}
