//! Pass `negated_predicates`: NOT in front of a predicate that has a negated form becomes that form.
//!
//! ```sql
//! -- before
//! SELECT name FROM singer WHERE NOT (age = 3) AND NOT country IN ('France') AND NOT (a IS NULL)
//! -- after
//! SELECT name FROM singer WHERE age <> 3 AND country NOT IN ('France') AND a IS NOT NULL
//! ```
//!
//! Comparisons flip (`NOT a < b` is `a >= b`; under SQL's three-valued logic both are NULL when an
//! operand is NULL), and IN, BETWEEN, LIKE, EXISTS and IS NULL take their NOT forms. Other
//! negations (`NOT (a AND b)`, `NOT flag`) stay.

use super::noop_syntax::strip_nested;
use super::Pass;
use sqlparser::ast::{BinaryOperator, Expr, Statement, UnaryOperator, VisitMut, VisitorMut};
use std::ops::ControlFlow;

/// See the module documentation.
pub struct NegatedPredicates;

/// The comparison that is true exactly where `op` is false (and NULL where it is NULL).
fn opposite(op: &BinaryOperator) -> Option<BinaryOperator> {
    Some(match op {
        BinaryOperator::Eq => BinaryOperator::NotEq,
        BinaryOperator::NotEq => BinaryOperator::Eq,
        BinaryOperator::Lt => BinaryOperator::GtEq,
        BinaryOperator::GtEq => BinaryOperator::Lt,
        BinaryOperator::Gt => BinaryOperator::LtEq,
        BinaryOperator::LtEq => BinaryOperator::Gt,
        _ => return None,
    })
}

/// Negates `e` in place when it has a negated form; false (and `e` untouched) otherwise.
fn negate(e: &mut Expr) -> bool {
    match e {
        Expr::Nested(inner) => negate(inner),
        Expr::BinaryOp { op, .. } => match opposite(op) {
            Some(flipped) => {
                *op = flipped;
                true
            }
            None => false,
        },
        Expr::InList { negated, .. }
        | Expr::InSubquery { negated, .. }
        | Expr::Between { negated, .. }
        | Expr::Like { negated, .. }
        | Expr::ILike { negated, .. }
        | Expr::Exists { negated, .. } => {
            *negated = !*negated;
            true
        }
        Expr::IsNull(x) => {
            *e = Expr::IsNotNull(std::mem::replace(x, placeholder()));
            true
        }
        Expr::IsNotNull(x) => {
            *e = Expr::IsNull(std::mem::replace(x, placeholder()));
            true
        }
        _ => false,
    }
}

/// The value left behind when an expression is moved out.
fn placeholder() -> Box<Expr> {
    Box::new(Expr::value(sqlparser::ast::Value::Null))
}

struct Rewrite;

impl VisitorMut for Rewrite {
    type Break = ();
    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        if let Expr::UnaryOp {
            op: UnaryOperator::Not,
            expr,
        } = e
        {
            if negate(expr) {
                // the parentheses `negate` looked through go; one pair keeps the meaning where
                // the NOT stood (`noop_syntax` drops it where it is a no-op)
                let mut inner = std::mem::replace(expr, placeholder());
                strip_nested(&mut inner);
                *e = Expr::Nested(inner);
            }
        }
        ControlFlow::Continue(())
    }
}

impl Pass for NegatedPredicates {
    fn name(&self) -> &'static str {
        "negated_predicates"
    }
    fn apply(&self, mut statement: Statement) -> Statement {
        let _ = statement.visit(&mut Rewrite);
        statement
    }
}
