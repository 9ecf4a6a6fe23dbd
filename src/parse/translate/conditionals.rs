//! Rule `conditionals`: the dialects' conditional functions as SQLite's `IIF`, `COALESCE`,
//! `NULLIF` and `CASE`, with each function's NULL rules.
//!
//! ```sql
//! -- before (mysql)
//! SELECT IF(a > 1, 'x', 'y'), IFNULL(b, 0) FROM t
//! -- after
//! SELECT IIF(a > 1, 'x', 'y'), COALESCE(b, 0) FROM t
//! -- before (snowflake)
//! SELECT IFF(a, 1, 2), NVL(b, 0), NVL2(b, 1, 2), DECODE(c, 1, 'one', NULL, 'none', 'other') FROM t
//! -- after
//! SELECT IIF(a, 1, 2), COALESCE(b, 0), CASE WHEN NOT b IS NULL THEN 1 ELSE 2 END,
//!        CASE WHEN c = 1 THEN 'one' WHEN c IS NULL THEN 'none' ELSE 'other' END FROM t
//! ```
//!
//! `IF(c, a, b)` (MySQL, BigQuery, DuckDB) and `IFF` (Snowflake) take `a` when `c` is true and
//! `b` when it is false or NULL, as `IIF` does. `IFNULL` (MySQL, BigQuery, Snowflake, DuckDB) and
//! `NVL` (Snowflake) are `COALESCE` of two arguments. `NVL2(x, a, b)` is `a` when `x` is not NULL.
//! Snowflake's `DECODE(x, s1, r1, ..., [default])` compares like `=` except that a NULL `x`
//! matches a NULL search value: a literal search value is compared with `=` (`IS NULL` for the
//! literal NULL), any other with sqlglot's `x = s OR (x IS NULL AND s IS NULL)`; without a default
//! the result is NULL. `ZEROIFNULL(x)` is `IIF(x IS NULL, 0, x)` and `NULLIFZERO(x)` is
//! `NULLIF(x, 0)` (Snowflake). Each function is translated only in the dialects that have it:
//! elsewhere the call stays as written and fails as it fails there. Spellings are sqlglot's.

use std::ops::ControlFlow;

use sqlparser::ast::{BinaryOperator, Expr, Statement, VisitMut, VisitorMut};

use super::calls::{binary, case, int, is_null, logic, name, nested, plain_args, take};
use super::{call, Rule};
use crate::parse::dialect::Dialect;

/// See the module documentation.
pub struct Conditionals;

/// The translation of a call `name(args)` of `dialect`, or None to leave it.
fn translate(name: &str, mut args: Vec<Expr>, dialect: Dialect) -> Option<Expr> {
    use Dialect::*;
    let n = args.len();
    Some(match (name, dialect) {
        ("if", Mysql | Bigquery | Duckdb) | ("iff", Snowflake) if n == 3 => call("IIF", args),
        ("ifnull", Mysql | Bigquery | Snowflake | Duckdb) | ("nvl", Snowflake) if n == 2 => {
            call("COALESCE", args)
        }
        ("nvl2", Snowflake) if n == 3 => {
            let otherwise = args.pop()?;
            let then = args.pop()?;
            let x = args.pop()?;
            case(vec![(super::calls::not_null(x), then)], Some(otherwise))
        }
        ("decode", Snowflake) if n >= 3 => decode(args),
        ("zeroifnull", Snowflake) if n == 1 => {
            let x = args.pop()?;
            call(
                "IIF",
                vec![Expr::IsNull(Box::new(nested(x.clone()))), int(0), x],
            )
        }
        ("nullifzero", Snowflake) if n == 1 => call("NULLIF", vec![args.pop()?, int(0)]),
        _ => return None,
    })
}

/// Snowflake's DECODE as a searched CASE (see the module documentation).
fn decode(mut args: Vec<Expr>) -> Expr {
    let x = args.remove(0);
    let otherwise = (args.len() % 2 == 1).then(|| args.pop()).flatten();
    let mut branches = Vec::new();
    let mut it = args.into_iter();
    while let (Some(search), Some(result)) = (it.next(), it.next()) {
        let test = if is_null(&search) {
            Expr::IsNull(Box::new(nested(x.clone())))
        } else if matches!(search, Expr::Value(_)) {
            binary(x.clone(), BinaryOperator::Eq, search)
        } else {
            let both_null = logic(
                Expr::IsNull(Box::new(nested(x.clone()))),
                BinaryOperator::And,
                Expr::IsNull(Box::new(nested(search.clone()))),
            );
            logic(
                binary(x.clone(), BinaryOperator::Eq, search),
                BinaryOperator::Or,
                Expr::Nested(Box::new(both_null)),
            )
        };
        branches.push((test, result));
    }
    case(branches, otherwise)
}

struct Rewrite(Dialect);

impl VisitorMut for Rewrite {
    type Break = ();

    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        let Expr::Function(f) = e else {
            return ControlFlow::Continue(());
        };
        let Some(args) = plain_args(f) else {
            return ControlFlow::Continue(());
        };
        if let Some(translated) = translate(&name(f), args, self.0) {
            take(e);
            *e = translated;
        }
        ControlFlow::Continue(())
    }
}

impl Rule for Conditionals {
    fn name(&self) -> &'static str {
        "conditionals"
    }

    fn applies_to(&self, dialect: Dialect) -> bool {
        matches!(
            dialect,
            Dialect::Mysql | Dialect::Bigquery | Dialect::Duckdb | Dialect::Snowflake
        )
    }

    fn apply(&self, statement: &mut Statement, dialect: Dialect) {
        let _ = statement.visit(&mut Rewrite(dialect));
    }
}
