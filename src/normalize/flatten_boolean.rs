//! Pass `flatten_boolean`: rewrites nested AND/OR chains into one left-deep chain per operator.
//!
//! ```sql
//! -- before
//! SELECT a FROM t WHERE x = 1 AND (y = 2 AND (z = 3 OR (w = 4 OR v = 5)))
//! -- after
//! SELECT a FROM t WHERE x = 1 AND y = 2 AND (z = 3 OR w = 4 OR v = 5)
//! ```
//!
//! AND and OR are associative, so the grouping of a chain carries no meaning; the tree builder turns
//! a left-deep chain into one n-ary node. Parentheses that change meaning (an OR inside an AND) stay.

use super::Pass;
use sqlparser::ast::{visit_expressions_mut, BinaryOperator, Expr, Statement};
use std::ops::ControlFlow;

/// See the module documentation.
pub struct FlattenBoolean;

/// The operands of the `op`-chain rooted at `expr`, left to right (explicit stack, no recursion).
pub(crate) fn chain_terms(expr: Expr, op: &BinaryOperator) -> Vec<Expr> {
    let mut terms = Vec::new();
    let mut stack = vec![expr];
    while let Some(e) = stack.pop() {
        match e {
            Expr::BinaryOp { left, op: o, right } if o == *op => {
                stack.push(*right);
                stack.push(*left);
            }
            Expr::Nested(inner) if matches!(&*inner, Expr::BinaryOp { op: o, .. } if o == op) => {
                stack.push(*inner);
            }
            other => terms.push(other),
        }
    }
    terms
}

/// Rebuilds a left-deep chain `((t1 op t2) op t3) ...` from `terms` (at least one).
pub(crate) fn build_chain(terms: Vec<Expr>, op: &BinaryOperator) -> Option<Expr> {
    let mut iter = terms.into_iter();
    let first = iter.next()?;
    Some(iter.fold(first, |left, right| Expr::BinaryOp {
        left: Box::new(left),
        op: op.clone(),
        right: Box::new(right),
    }))
}

impl Pass for FlattenBoolean {
    fn name(&self) -> &'static str {
        "flatten_boolean"
    }
    fn apply(&self, mut statement: Statement) -> Statement {
        let _ = visit_expressions_mut(&mut statement, |e| {
            if let Expr::BinaryOp {
                op: op @ (BinaryOperator::And | BinaryOperator::Or),
                ..
            } = e
            {
                let op = op.clone();
                let taken = std::mem::replace(e, Expr::value(sqlparser::ast::Value::Null));
                let terms = chain_terms(taken, &op);
                if let Some(chain) = build_chain(terms, &op) {
                    *e = chain;
                }
            }
            ControlFlow::<()>::Continue(())
        });
        statement
    }
}
