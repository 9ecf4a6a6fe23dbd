//! Rule `concat`: string concatenation with each dialect's NULL rule, and MySQL's `||`.
//!
//! ```sql
//! -- before (mysql)
//! SELECT CONCAT(first, ' ', last) FROM t WHERE a = 1 || b = 2
//! -- after
//! SELECT first || ' ' || last FROM t WHERE a = 1 OR b = 2
//! -- before (snowflake)
//! SELECT CONCAT_WS(', ', a, b) FROM t
//! -- after
//! SELECT a || ', ' || b FROM t
//! ```
//!
//! `||` is NULL when either side is (every dialect and SQLite), except in MySQL, where it is the
//! logical OR (its default SQL mode); sqlparser groups it as a concatenation, so an `||` next to
//! an operator other than OR (`a = 1 || b`, which MySQL reads `(a = 1) OR b`) has no faithful
//! translation from that tree. `CONCAT` is NULL as soon as one argument is NULL in MySQL,
//! Snowflake and BigQuery, as a chain of `||` is (sqlglot's spelling); one argument is its text.
//! In PostgreSQL and DuckDB `CONCAT` skips NULLs, which is what the `concat` sqlsim registers on
//! every connection does (SQLite 3.44's), so the call stays. `CONCAT_WS(sep, ...)` skips NULLs
//! (the registered `concat_ws`) except in Snowflake, where any NULL argument makes it NULL: a
//! chain of `||` with `sep` between the arguments.

use std::ops::ControlFlow;

use sqlparser::ast::{BinaryOperator, CastKind, DataType, Expr, Statement, VisitMut, VisitorMut};

use super::calls::{binary, name, plain_args, take, tight_operands};
use super::Rule;
use crate::parse::dialect::Dialect;

/// See the module documentation.
pub struct Concat;

/// `a || b || ...` (at least two parts).
fn chain(parts: Vec<Expr>) -> Expr {
    let mut it = parts.into_iter();
    let first = it.next().unwrap_or_else(|| super::calls::text(""));
    it.fold(first, |acc, part| {
        let left = match acc {
            // a chain stays flat: `a || b || c`, not `(a || b) || c`
            chain @ Expr::BinaryOp {
                op: BinaryOperator::StringConcat,
                ..
            } => chain,
            other => super::calls::nested(other),
        };
        Expr::BinaryOp {
            left: Box::new(left),
            op: BinaryOperator::StringConcat,
            right: Box::new(super::calls::nested(part)),
        }
    })
}

/// Whether `CONCAT` is NULL when an argument is.
fn concat_is_strict(dialect: Dialect) -> bool {
    matches!(
        dialect,
        Dialect::Mysql | Dialect::Snowflake | Dialect::Bigquery
    )
}

fn translate(function: &str, mut args: Vec<Expr>, dialect: Dialect) -> Option<Expr> {
    match function {
        "concat" if concat_is_strict(dialect) && args.len() == 1 => Some(Expr::Cast {
            kind: CastKind::Cast,
            expr: Box::new(args.remove(0)),
            data_type: DataType::Text,
            format: None,
        }),
        "concat" if concat_is_strict(dialect) && args.len() > 1 => Some(chain(args)),
        "concat_ws" if dialect == Dialect::Snowflake && args.len() > 2 => {
            let separator = args.remove(0);
            let mut parts = Vec::with_capacity(args.len() * 2);
            for (i, a) in args.into_iter().enumerate() {
                if i > 0 {
                    parts.push(separator.clone());
                }
                parts.push(a);
            }
            Some(chain(parts))
        }
        "concat_ws" if dialect == Dialect::Snowflake && args.len() == 2 => {
            // one value: NULL when either is, else the value as text
            let value = args.remove(1);
            let separator = args.remove(0);
            Some(super::call(
                "IIF",
                vec![
                    Expr::IsNull(Box::new(super::calls::nested(separator))),
                    Expr::value(sqlparser::ast::Value::Null),
                    binary(value, BinaryOperator::StringConcat, super::calls::text("")),
                ],
            ))
        }
        _ => None,
    }
}

fn is_concat(e: &Expr) -> bool {
    matches!(
        e,
        Expr::BinaryOp {
            op: BinaryOperator::StringConcat,
            ..
        }
    )
}

/// MySQL's `||`: OR where the tree groups it as MySQL does, else no translation.
struct MysqlOr;

impl VisitorMut for MysqlOr {
    type Break = ();

    fn pre_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        for operand in tight_operands(e, &BinaryOperator::StringConcat) {
            if is_concat(operand) {
                let Expr::BinaryOp { left, right, .. } = take(operand) else {
                    continue;
                };
                *operand = super::untranslated(
                    "|| beside another operator",
                    Dialect::Mysql,
                    vec![*left, *right],
                );
            }
        }
        ControlFlow::Continue(())
    }

    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        if let Expr::BinaryOp { op, .. } = e {
            if *op == BinaryOperator::StringConcat {
                *op = BinaryOperator::Or;
            }
        }
        ControlFlow::Continue(())
    }
}

struct Rewrite(Dialect);

impl VisitorMut for Rewrite {
    type Break = ();

    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        if let Expr::Function(f) = e {
            if let Some(translated) =
                plain_args(f).and_then(|args| translate(&name(f), args, self.0))
            {
                take(e);
                *e = translated;
            }
        }
        ControlFlow::Continue(())
    }
}

impl Rule for Concat {
    fn name(&self) -> &'static str {
        "concat"
    }

    fn applies_to(&self, dialect: Dialect) -> bool {
        concat_is_strict(dialect)
    }

    fn apply(&self, statement: &mut Statement, dialect: Dialect) {
        if dialect == Dialect::Mysql {
            let _ = statement.visit(&mut MysqlOr);
        }
        let _ = statement.visit(&mut Rewrite(dialect));
    }
}
