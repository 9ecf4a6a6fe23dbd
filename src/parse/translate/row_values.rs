//! Rule `row_values`: comparisons of row values, and row values in a list, as comparisons of
//! their values.
//!
//! ```sql
//! -- before (ansi)
//! SELECT a FROM t WHERE (a, b) = (1, 2) OR (a, b) < (c, d) OR (a, b) IN ((1, 2), (3, 4))
//! -- after
//! SELECT a FROM t WHERE (a = 1 AND b = 2) OR (a < c OR (a = c AND b < d))
//!     OR ((a = 1 AND b = 2) OR (a = 3 AND b = 4))
//! ```
//!
//! SQLite runs row values itself, but sqlsim's planner and ParSEval read single values: the
//! expansion is the standard's definition, with its three-valued logic (`(a, b) = (x, y)` is
//! false when one pair differs, NULL when none differs and one is NULL; an ordering compares
//! the first pair that is not equal; `IN` a list is the OR of the rows' equalities). A row
//! value `IN (SELECT ...)` is left to SQLite, which runs it; the planner reads it as an IN of
//! the row's values (plan/build/subquery.rs).

use std::ops::ControlFlow;

use sqlparser::ast::{BinaryOperator, Expr, Statement, UnaryOperator, VisitMut, VisitorMut};

use super::calls::binary;
use super::Rule;
use crate::parse::dialect::Dialect;

/// See the module documentation.
pub struct RowValues;

/// `e` in parentheses.
fn paren(e: Expr) -> Expr {
    Expr::Nested(Box::new(e))
}

/// `a op b` for AND or OR, an operand of the other of the two in parentheses.
fn and_or(a: Expr, op: BinaryOperator, b: Expr) -> Expr {
    let outer = op.clone();
    let wrap = |e: Expr| match &e {
        Expr::BinaryOp {
            op: inner @ (BinaryOperator::And | BinaryOperator::Or),
            ..
        } if *inner != outer => paren(e),
        _ => e,
    };
    Expr::BinaryOp {
        left: Box::new(wrap(a)),
        op,
        right: Box::new(wrap(b)),
    }
}

/// `left op right` for two rows of the same width (at least one value), by the values.
fn compare(left: &[Expr], op: &BinaryOperator, right: &[Expr]) -> Option<Expr> {
    use BinaryOperator::*;
    let pairs = left.iter().cloned().zip(right.iter().cloned());
    match op {
        Eq => pairs
            .map(|(a, b)| binary(a, Eq, b))
            .reduce(|a, b| and_or(a, And, b)),
        NotEq => pairs
            .map(|(a, b)| binary(a, NotEq, b))
            .reduce(|a, b| and_or(a, Or, b)),
        Lt | LtEq | Gt | GtEq => {
            let strict = if matches!(op, Lt | LtEq) { Lt } else { Gt };
            let (a, b) = (left.first()?.clone(), right.first()?.clone());
            if left.len() == 1 {
                return Some(binary(a, op.clone(), b));
            }
            let rest = compare(&left[1..], op, &right[1..])?;
            Some(and_or(
                binary(a.clone(), strict, b.clone()),
                Or,
                and_or(binary(a, Eq, b), And, rest),
            ))
        }
        _ => None,
    }
}

/// The values of a row value `(a, b, ...)` of at least two values.
fn row(e: &Expr) -> Option<&[Expr]> {
    match e {
        Expr::Tuple(values) if values.len() >= 2 => Some(values),
        Expr::Nested(inner) => row(inner),
        _ => None,
    }
}

struct Rewrite;

impl VisitorMut for Rewrite {
    type Break = ();

    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        let expanded = match e {
            Expr::BinaryOp { left, op, right } => match (row(left), row(right)) {
                (Some(l), Some(r)) if l.len() == r.len() => compare(l, op, r),
                _ => None,
            },
            Expr::InList {
                expr,
                list,
                negated,
            } => row(expr).and_then(|l| {
                let rows: Option<Vec<Expr>> = list
                    .iter()
                    .map(|item| {
                        row(item)
                            .filter(|r| r.len() == l.len())
                            .and_then(|r| compare(l, &BinaryOperator::Eq, r))
                    })
                    .collect();
                let any = rows?
                    .into_iter()
                    .map(paren)
                    .reduce(|a, b| and_or(a, BinaryOperator::Or, b))?;
                Some(if *negated {
                    Expr::UnaryOp {
                        op: UnaryOperator::Not,
                        expr: Box::new(paren(any)),
                    }
                } else {
                    any
                })
            }),
            _ => None,
        };
        if let Some(new) = expanded {
            *e = paren(new);
        }
        ControlFlow::Continue(())
    }
}

impl Rule for RowValues {
    fn name(&self) -> &'static str {
        "row_values"
    }

    fn applies_to(&self, dialect: Dialect) -> bool {
        dialect != Dialect::Sqlite
    }

    fn apply(&self, statement: &mut Statement, _dialect: Dialect) {
        let _ = statement.visit(&mut Rewrite);
    }
}
