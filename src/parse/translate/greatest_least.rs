//! Rule `greatest_least`: `GREATEST` and `LEAST` as SQLite's scalar `MAX` and `MIN`, with each
//! dialect's NULL rule.
//!
//! ```sql
//! -- before (postgres: NULLs are ignored)
//! SELECT GREATEST(a, b, c) FROM t
//! -- after
//! SELECT MAX(COALESCE(a, b, c), COALESCE(b, c, a), COALESCE(c, a, b)) FROM t
//! -- before (mysql: NULL if any argument is NULL)
//! SELECT LEAST(a, b) FROM t
//! -- after
//! SELECT MIN(a, b) FROM t
//! ```
//!
//! SQLite's scalar `MAX(a, b, ...)` and `MIN` are NULL as soon as one argument is NULL, which is
//! what MySQL, Snowflake and BigQuery do. PostgreSQL and DuckDB skip NULLs and are NULL only when
//! every argument is: each argument is replaced by the first non-NULL value of the arguments
//! starting with it (sqlglot's spelling), which changes nothing when it is not NULL and otherwise
//! is another argument's value, so the largest non-NULL value wins. A single argument is itself
//! (`MAX(x)` alone would be the aggregate). That form copies each argument once per argument:
//! past 4 KiB of copies (nested calls multiply them) it is left untranslated.

use std::ops::ControlFlow;

use sqlparser::ast::{Expr, Statement, VisitMut, VisitorMut};

use super::calls::{name, plain_args};
use super::{call, untranslated, Rule};
use crate::parse::dialect::Dialect;

/// See the module documentation.
pub struct GreatestLeast;

/// Whether GREATEST and LEAST skip NULL arguments in `dialect`.
fn skips_nulls(dialect: Dialect) -> bool {
    matches!(dialect, Dialect::Postgres | Dialect::Duckdb)
}

/// Most bytes of arguments the NULL-skipping form may copy (it writes each argument once per
/// argument, and nested calls multiply that).
const MAX_COPIED_BYTES: usize = 4_096;

fn function_name(function: &str) -> &'static str {
    if function == "MAX" {
        "GREATEST"
    } else {
        "LEAST"
    }
}

fn translate(function: &str, mut args: Vec<Expr>, dialect: Dialect) -> Expr {
    if args.len() == 1 {
        return args.remove(0);
    }
    if skips_nulls(dialect) {
        let n = args.len();
        let size: usize = args.iter().map(|a| a.to_string().len()).sum();
        if size * n > MAX_COPIED_BYTES {
            let construct = format!("{} of this size", function_name(function));
            return untranslated(&construct, dialect, args);
        }
        args = (0..n)
            .map(|i| {
                call(
                    "COALESCE",
                    (0..n).map(|k| args[(i + k) % n].clone()).collect(),
                )
            })
            .collect();
    }
    call(function, args)
}

struct Rewrite(Dialect);

impl VisitorMut for Rewrite {
    type Break = ();

    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        let Expr::Function(f) = e else {
            return ControlFlow::Continue(());
        };
        let function = match name(f).as_str() {
            "greatest" => "MAX",
            "least" => "MIN",
            _ => return ControlFlow::Continue(()),
        };
        if let Some(args) = plain_args(f).filter(|a| !a.is_empty()) {
            *e = translate(function, args, self.0);
        }
        ControlFlow::Continue(())
    }
}

impl Rule for GreatestLeast {
    fn name(&self) -> &'static str {
        "greatest_least"
    }

    fn applies_to(&self, dialect: Dialect) -> bool {
        matches!(
            dialect,
            Dialect::Postgres
                | Dialect::Mysql
                | Dialect::Duckdb
                | Dialect::Snowflake
                | Dialect::Bigquery
        )
    }

    fn apply(&self, statement: &mut Statement, dialect: Dialect) {
        let _ = statement.visit(&mut Rewrite(dialect));
    }
}
