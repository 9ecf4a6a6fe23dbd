//! Rule `arithmetic`: the dialects' arithmetic functions (`MOD`, `DIV`, `SAFE_DIVIDE`, `DIV0`,
//! `LOG`, `POW`, `SQUARE`, `TRUNCATE`) as SQLite's operators and math functions.
//!
//! ```sql
//! -- before (mysql)
//! SELECT MOD(a, 3), LOG(b), POW(c, 2), TRUNCATE(d, 0) FROM t
//! -- after
//! SELECT a % 3, LN(b), POWER(c, 2), TRUNC(d) FROM t
//! -- before (bigquery)
//! SELECT SAFE_DIVIDE(a, b), DIV(a, b), LOG(a, 2) FROM t
//! -- after (before rule division)
//! SELECT IIF(b <> 0, CAST(a AS REAL) / b, NULL), CAST(a / b AS INTEGER), LOG(2, a) FROM t
//! ```
//!
//! `MOD(a, b)` is `a % b` (sqlglot's spelling), which is the same for integers; SQLite's `%`
//! truncates non-integer operands to integers first, the other engines do not (docs/dialects.md,
//! known limits). `DIV(a, b)` (PostgreSQL, BigQuery) is the quotient truncated toward zero.
//! `SAFE_DIVIDE(a, b)` (BigQuery) is NULL where `b` is 0; `DIV0(a, b)` (Snowflake) is 0 there
//! (NULL for a NULL `a`) and `DIV0NULL` also where `b` is NULL. `LOG(x)` is the natural
//! logarithm in MySQL and BigQuery and the base-10 one in PostgreSQL, DuckDB and SQLite (the
//! math functions sqlsim registers); the base comes first in `LOG(b, x)` except in BigQuery's
//! `LOG(x, b)`. `POW` is `POWER`, `SQUARE(x)` is `POWER(x, 2)`, and `TRUNCATE(x, 0)`/`TRUNC(x, 0)`
//! is `TRUNC(x)`; truncating to other places has no translation (SQLite's `trunc` takes none).

use std::ops::ControlFlow;

use sqlparser::ast::{BinaryOperator, CastKind, DataType, Expr, Statement, VisitMut, VisitorMut};

use super::calls::{
    binary, int, int_literal, logic, name, nested, not_null, plain_args, text_literal,
};
use super::{call, untranslated, NoTranslation, Rule};
use crate::parse::dialect::Dialect;

/// See the module documentation.
pub struct Arithmetic;

/// `CAST(a AS REAL) / b`.
fn real_quotient(a: Expr, b: Expr) -> Expr {
    let real = Expr::Cast {
        kind: CastKind::Cast,
        expr: Box::new(a),
        data_type: DataType::Real,
        format: None,
    };
    binary(real, BinaryOperator::Divide, b)
}

fn is_zero(e: Expr) -> Expr {
    binary(e, BinaryOperator::Eq, int(0))
}

/// The translation of `function(args)` in `dialect`: Some(Ok) translated, Some(Err) without a
/// translation, None to leave.
fn translate(
    function: &str,
    args: Vec<Expr>,
    dialect: Dialect,
) -> Option<Result<Expr, NoTranslation>> {
    use Dialect::*;
    let mut it = args.clone().into_iter();
    let (a, b) = (it.next(), it.next());
    let n = args.len();
    Some(Ok(match (function, dialect, a, b) {
        ("mod", _, Some(a), Some(b)) if n == 2 => binary(a, BinaryOperator::Modulo, b),
        ("div", Postgres | Bigquery, Some(a), Some(b)) if n == 2 => Expr::Cast {
            kind: CastKind::Cast,
            expr: Box::new(binary(a, BinaryOperator::Divide, b)),
            data_type: DataType::Integer(None),
            format: None,
        },
        ("safe_divide", Bigquery, Some(a), Some(b)) if n == 2 => {
            let nonzero = binary(b.clone(), BinaryOperator::NotEq, int(0));
            call(
                "IIF",
                vec![
                    nonzero,
                    real_quotient(a, b),
                    Expr::value(sqlparser::ast::Value::Null),
                ],
            )
        }
        ("div0", Snowflake, Some(a), Some(b)) if n == 2 => {
            let zero = logic(is_zero(b.clone()), BinaryOperator::And, not_null(a.clone()));
            call("IIF", vec![zero, int(0), real_quotient(a, b)])
        }
        ("div0null", Snowflake, Some(a), Some(b)) if n == 2 => {
            let missing = Expr::IsNull(Box::new(nested(b.clone())));
            let zero = logic(is_zero(b.clone()), BinaryOperator::Or, missing);
            call("IIF", vec![zero, int(0), real_quotient(a, b)])
        }
        ("log", Mysql | Bigquery, Some(x), None) => call("LN", vec![x]),
        ("log", Bigquery, Some(x), Some(base)) if n == 2 => call("LOG", vec![base, x]),
        ("pow", _, Some(a), Some(b)) if n == 2 => call("POWER", vec![a, b]),
        ("square", Snowflake | Duckdb | Bigquery, Some(x), None) => call("POWER", vec![x, int(2)]),
        ("truncate", Mysql, Some(x), Some(places)) | ("trunc", _, Some(x), Some(places))
            if n == 2 =>
        {
            if text_literal(&places).is_some() {
                // TRUNC(date, 'MONTH') truncates a date: not this rule's
                return None;
            }
            if int_literal(&places) == Some(0) {
                call("TRUNC", vec![x])
            } else {
                return Some(Err(NoTranslation(format!(
                    "{} to decimal places",
                    function.to_uppercase()
                ))));
            }
        }
        _ => return None,
    }))
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
        match translate(&name(f), args.clone(), self.0) {
            Some(Ok(x)) => *e = x,
            Some(Err(construct)) => *e = untranslated(&construct.0, self.0, args),
            None => {}
        }
        ControlFlow::Continue(())
    }
}

impl Rule for Arithmetic {
    fn name(&self) -> &'static str {
        "arithmetic"
    }

    fn applies_to(&self, dialect: Dialect) -> bool {
        dialect != Dialect::Sqlite
    }

    fn apply(&self, statement: &mut Statement, dialect: Dialect) {
        let _ = statement.visit(&mut Rewrite(dialect));
    }
}
