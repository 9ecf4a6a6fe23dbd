//! Pass `calcite_casts`: the floating-point casts Calcite prints for type coercion are dropped, inside AVG and on a column compared with a number.
//!
//! ```sql
//! -- before
//! SELECT AVG(CAST(age AS DOUBLE)) FROM singer WHERE CAST(age AS DOUBLE) > 20.5
//! -- after
//! SELECT AVG(age) FROM singer WHERE age > 20.5
//! ```
//!
//! Casts to DOUBLE, DOUBLE PRECISION, REAL and FLOAT, written `CAST(x AS T)` or `x::T`, go in two
//! places; any other cast stays (SUM of a REAL cast returns a REAL, SUM of integers an INTEGER; a
//! cast inside arithmetic or to INTEGER changes values):
//! - **inside AVG**, with or without DISTINCT: SQLite's AVG converts every value to a
//!   floating-point number before it sums (a text the way CAST does, its numeric prefix), so
//!   `AVG(CAST(x AS DOUBLE))` and `AVG(x)` agree, up to integer sums beyond 2^53, which AVG of
//!   integers keeps exact.
//! - **compared with a number literal** (signed or not) by `=`, `<>`, `<`, `<=`, `>`, `>=` or
//!   `BETWEEN`. The normalized AST feeds the structural scores (AST-TE, ASTPM and the AST half of
//!   the Hybrid GMN), which have no schema: a cast Calcite adds for type coercion is printing, not
//!   structure. For a numeric column the two spellings mean the same; for a TEXT column holding
//!   numbers they do not, which the verdict, planned with the column types, still tells apart
//!   (`plan/casts.rs` drops the cast there only for numeric operands).

use super::Pass;
use sqlparser::ast::{
    BinaryOperator, CastKind, Expr, FunctionArg, FunctionArgExpr, FunctionArguments, Statement,
    UnaryOperator, Value, VisitMut, VisitorMut,
};
use std::ops::ControlFlow;

/// See the module documentation.
pub struct CalciteCasts;

struct Rewrite;

/// True for the name of a floating-point type, however the dialect spells it.
fn is_float_type(name: &str) -> bool {
    let n = name.to_ascii_uppercase();
    n.starts_with("DOUBLE") || n.starts_with("REAL") || n.starts_with("FLOAT")
}

/// Replaces `e` by its operand when it is a floating-point cast.
fn strip(e: &mut Expr) {
    if let Expr::Cast {
        kind: CastKind::Cast | CastKind::DoubleColon,
        expr,
        data_type,
        format: None,
        ..
    } = e
    {
        if is_float_type(&data_type.to_string()) {
            *e = (**expr).clone();
        }
    }
}

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

/// The only argument of `f` when it is a plain (unfiltered) call of AVG.
fn avg_argument(f: &mut sqlparser::ast::Function) -> Option<&mut Expr> {
    if !f.name.to_string().eq_ignore_ascii_case("avg") || f.filter.is_some() {
        return None;
    }
    let FunctionArguments::List(list) = &mut f.args else {
        return None;
    };
    match list.args.as_mut_slice() {
        [FunctionArg::Unnamed(FunctionArgExpr::Expr(arg))] => Some(arg),
        _ => None,
    }
}

impl VisitorMut for Rewrite {
    type Break = ();
    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        match e {
            Expr::Function(f) => {
                if let Some(arg) = avg_argument(f) {
                    strip(arg);
                }
            }
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

impl Pass for CalciteCasts {
    fn name(&self) -> &'static str {
        "calcite_casts"
    }
    fn apply(&self, mut statement: Statement) -> Statement {
        let _ = statement.visit(&mut Rewrite);
        statement
    }
}
