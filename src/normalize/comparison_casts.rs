//! Pass `comparison_casts`: a floating-point cast compared with a number, as Calcite prints it when a column meets a decimal literal, is dropped.
//!
//! ```sql
//! -- before
//! SELECT name FROM singer WHERE CAST(age AS DOUBLE) > 20.5
//! -- after
//! SELECT name FROM singer WHERE age > 20.5
//! ```
//!
//! The normalized AST feeds the structural scores (AST-TE, ASTPM and the AST half of the Hybrid
//! GMN), which have no schema: a cast Calcite adds for type coercion is printing, not structure.
//! For a numeric column the two spellings mean the same; for a TEXT column holding numbers they do
//! not, which the verdict, planned with the column types, still tells apart (`plan/casts.rs` drops
//! the cast there only for numeric operands). Comparisons `=`, `<>`, `<`, `<=`, `>`, `>=` and
//! `BETWEEN` with number literals (signed or not) on the other side; casts to DOUBLE, DOUBLE
//! PRECISION, REAL and FLOAT, as in `avg_casts`. Any other cast stays.

use super::avg_casts::float_cast_operand;
use super::Pass;
use sqlparser::ast::{BinaryOperator, Expr, Statement, UnaryOperator, Value, VisitMut, VisitorMut};
use std::ops::ControlFlow;

/// See the module documentation.
pub struct ComparisonCasts;

struct Rewrite;

/// True for a number literal, with or without a sign.
fn is_number(e: &Expr) -> bool {
    match e {
        Expr::Value(v) => matches!(v.value, Value::Number(..)),
        Expr::UnaryOp {
            op: UnaryOperator::Minus | UnaryOperator::Plus,
            expr,
        } => is_number(expr),
        Expr::Nested(inner) => is_number(inner),
        _ => false,
    }
}

/// Replaces `e` by its operand when it is a floating-point cast.
fn strip(e: &mut Expr) {
    if let Some(operand) = float_cast_operand(e) {
        *e = operand;
    }
}

impl VisitorMut for Rewrite {
    type Break = ();
    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        match e {
            Expr::BinaryOp {
                left,
                op:
                    BinaryOperator::Eq
                    | BinaryOperator::NotEq
                    | BinaryOperator::Lt
                    | BinaryOperator::LtEq
                    | BinaryOperator::Gt
                    | BinaryOperator::GtEq,
                right,
            } => {
                if is_number(right) {
                    strip(left);
                } else if is_number(left) {
                    strip(right);
                }
            }
            Expr::Between {
                expr, low, high, ..
            } if is_number(low) && is_number(high) => strip(expr),
            _ => {}
        }
        ControlFlow::Continue(())
    }
}

impl Pass for ComparisonCasts {
    fn name(&self) -> &'static str {
        "comparison_casts"
    }
    fn apply(&self, mut statement: Statement) -> Statement {
        let _ = statement.visit(&mut Rewrite);
        statement
    }
}
