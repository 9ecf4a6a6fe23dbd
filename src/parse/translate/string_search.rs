//! Rule `string_search`: the position of one string in another (`POSITION`, `STRPOS`, `LOCATE`,
//! `CHARINDEX`, `INSTR`) as SQLite's `INSTR(haystack, needle)`.
//!
//! ```sql
//! -- before (postgres)
//! SELECT POSITION('a' IN x), STRPOS(x, 'b') FROM t
//! -- after
//! SELECT INSTR(x, 'a'), INSTR(x, 'b') FROM t
//! -- before (mysql)
//! SELECT LOCATE('a', x, 3) FROM t
//! -- after
//! SELECT IIF(INSTR(SUBSTRING(x, 3), 'a') = 0, 0, INSTR(SUBSTRING(x, 3), 'a') + 3 - 1) FROM t
//! ```
//!
//! Every engine counts characters from 1 and answers 0 when the needle is missing, 1 for an empty
//! needle and NULL for a NULL argument, as `INSTR` does. The argument order differs:
//! `POSITION(needle IN haystack)` (every dialect), Snowflake's `POSITION(needle, haystack)`,
//! `LOCATE(needle, haystack)` (MySQL) and `CHARINDEX(needle, haystack)` (Snowflake) put the
//! needle first; `STRPOS` (PostgreSQL, DuckDB, BigQuery) and `INSTR` (MySQL, DuckDB, BigQuery)
//! the haystack. A third argument of LOCATE, CHARINDEX or Snowflake's POSITION starts the search
//! at that position (sqlglot's spelling above; a literal start below 1 has no translation, one
//! computed from the data is taken as it is); BigQuery's INSTR with a position or an occurrence
//! has no translation. MySQL compares without case: rule `string_case` lowers both sides.

use std::ops::ControlFlow;

use sqlparser::ast::{BinaryOperator, Expr, Statement, VisitMut, VisitorMut};

use super::calls::{additive, binary, int, int_literal, name, plain_args, take};
use super::copies::copy;
use super::{call, untranslated, Rule};
use crate::parse::dialect::Dialect;

/// See the module documentation.
pub struct StringSearch;

fn instr(haystack: Expr, needle: Expr) -> Expr {
    call("INSTR", vec![haystack, needle])
}

/// The position of `needle` in `haystack` from position `start` on (sqlglot's spelling).
fn instr_from(haystack: Expr, needle: Expr, start: Expr) -> Option<Expr> {
    if int_literal(&start).is_some_and(|s| s < 1) {
        return None;
    }
    let rest = Expr::Substring {
        expr: Box::new(haystack),
        substring_from: Some(Box::new(copy(&start))),
        substring_for: None,
        special: true,
        shorthand: false,
    };
    let found = instr(rest, needle);
    let missing = binary(copy(&found), BinaryOperator::Eq, int(0));
    let shifted = additive(
        additive(found, BinaryOperator::Plus, start),
        BinaryOperator::Minus,
        int(1),
    );
    Some(call("IIF", vec![missing, int(0), shifted]))
}

/// Where a needle-first call of `function` exists in `dialect`.
fn needle_first(function: &str, dialect: Dialect) -> bool {
    matches!(
        (function, dialect),
        ("locate", Dialect::Mysql)
            | ("charindex", Dialect::Snowflake)
            | ("position", Dialect::Snowflake)
    )
}

/// Where a haystack-first call of `function` exists in `dialect` (two arguments).
fn haystack_first(function: &str, dialect: Dialect) -> bool {
    matches!(
        (function, dialect),
        (
            "strpos",
            Dialect::Postgres | Dialect::Duckdb | Dialect::Bigquery
        ) | (
            "instr",
            Dialect::Mysql | Dialect::Duckdb | Dialect::Bigquery
        )
    )
}

struct Rewrite(Dialect);

impl VisitorMut for Rewrite {
    type Break = ();

    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        match e {
            Expr::Position { expr, r#in } => {
                let needle = take(expr);
                let haystack = take(r#in);
                *e = instr(haystack, needle);
            }
            Expr::Function(f) => {
                let function = name(f);
                let Some(mut args) = plain_args(f) else {
                    return ControlFlow::Continue(());
                };
                let translated = match args.len() {
                    2 if needle_first(&function, self.0) => {
                        let haystack = args.pop();
                        haystack.zip(args.pop()).map(|(h, n)| Ok(instr(h, n)))
                    }
                    3 if needle_first(&function, self.0) => {
                        let start = args.remove(2);
                        let haystack = args.remove(1);
                        let needle = args.remove(0);
                        Some(
                            instr_from(haystack.clone(), needle.clone(), start.clone())
                                .ok_or(vec![needle, haystack, start]),
                        )
                    }
                    2 if haystack_first(&function, self.0) => {
                        let needle = args.pop();
                        args.pop().zip(needle).map(|(h, n)| Ok(instr(h, n)))
                    }
                    3 | 4 if function == "instr" && self.0 == Dialect::Bigquery => Some(Err(args)),
                    _ => None,
                };
                match translated {
                    Some(Ok(x)) => *e = x,
                    Some(Err(args)) => {
                        let construct =
                            format!("{} with a start position", function.to_uppercase());
                        *e = untranslated(&construct, self.0, args);
                    }
                    None => {}
                }
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }
}

impl Rule for StringSearch {
    fn name(&self) -> &'static str {
        "string_search"
    }

    fn applies_to(&self, dialect: Dialect) -> bool {
        dialect != Dialect::Sqlite
    }

    fn apply(&self, statement: &mut Statement, dialect: Dialect) {
        let _ = statement.visit(&mut Rewrite(dialect));
    }
}
