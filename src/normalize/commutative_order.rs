//! Pass `commutative_order`: puts the operands of commutative operators in one canonical order.
//!
//! - AND/OR chains: terms sorted;
//! - `=`, `<>`, `+`, `*`: the two sides sorted; `<`, `<=`, `>`, `>=`: sides sorted and the operator
//!   mirrored (`20 < age` → `age > 20`), which also orders join equalities (`b.id = a.id` → `a.id = b.id`);
//! - IN lists: items sorted.
//!
//! The sort key is (kind rank, printed SQL): columns first, then functions, other expressions,
//! subqueries, and literals last, so a comparison reads `column op value`.
//!
//! ```sql
//! -- before
//! SELECT a FROM t WHERE 20 < age AND t.b = s.a AND c IN (3, 1, 2)
//! -- after
//! SELECT a FROM t WHERE age > 20 AND c IN (1, 2, 3) AND s.a = t.b
//! ```

use super::flatten_boolean::{build_chain, chain_terms};
use super::Pass;
use sqlparser::ast::{visit_expressions_mut, BinaryOperator, Expr, Statement};
use std::cmp::Ordering;
use std::ops::ControlFlow;

/// See the module documentation.
pub struct CommutativeOrder;

fn rank(expr: &Expr) -> u8 {
    match expr {
        Expr::Identifier(_) | Expr::CompoundIdentifier(_) => 0,
        Expr::Function(_) => 1,
        Expr::Subquery(_) => 3,
        Expr::Value(_) | Expr::TypedString(_) => 4,
        Expr::UnaryOp { expr, .. } if matches!(**expr, Expr::Value(_)) => 4,
        _ => 2,
    }
}

fn sort_key(expr: &Expr) -> (u8, String) {
    (rank(expr), expr.to_string())
}

fn mirrored(op: &BinaryOperator) -> Option<BinaryOperator> {
    use BinaryOperator::*;
    Some(match op {
        Eq => Eq,
        NotEq => NotEq,
        Plus => Plus,
        Multiply => Multiply,
        Lt => Gt,
        Gt => Lt,
        LtEq => GtEq,
        GtEq => LtEq,
        _ => return None,
    })
}

fn reorder(expr: &mut Expr) {
    match expr {
        Expr::BinaryOp {
            op: op @ (BinaryOperator::And | BinaryOperator::Or),
            ..
        } => {
            let op = op.clone();
            let taken = std::mem::replace(expr, Expr::value(sqlparser::ast::Value::Null));
            let mut keyed: Vec<((u8, String), Expr)> = chain_terms(taken, &op)
                .into_iter()
                .map(|t| (sort_key(&t), t))
                .collect();
            keyed.sort_by(|a, b| a.0.cmp(&b.0));
            if let Some(chain) = build_chain(keyed.into_iter().map(|(_, t)| t).collect(), &op) {
                *expr = chain;
            }
        }
        Expr::BinaryOp { left, op, right } => {
            if let Some(m) = mirrored(op) {
                if sort_key(left).cmp(&sort_key(right)) == Ordering::Greater {
                    std::mem::swap(left, right);
                    *op = m;
                }
            }
        }
        Expr::InList { list, .. } => {
            let mut keyed: Vec<((u8, String), Expr)> =
                list.drain(..).map(|t| (sort_key(&t), t)).collect();
            keyed.sort_by(|a, b| a.0.cmp(&b.0));
            *list = keyed.into_iter().map(|(_, t)| t).collect();
        }
        _ => {}
    }
}

impl Pass for CommutativeOrder {
    fn name(&self) -> &'static str {
        "commutative_order"
    }
    fn apply(&self, mut statement: Statement) -> Statement {
        let _ = visit_expressions_mut(&mut statement, |e| {
            reorder(e);
            ControlFlow::<()>::Continue(())
        });
        statement
    }
}
