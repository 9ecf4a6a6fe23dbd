//! Rule `operators`: MySQL's `<=>` and `XOR`, and set operations spelled with `DISTINCT`, in
//! SQLite's operators; boolean literals need nothing.
//!
//! ```sql
//! -- before (mysql)
//! SELECT a <=> b, (a > 1) XOR (b > 1) FROM t
//! -- after
//! SELECT a IS NOT DISTINCT FROM b, (NOT (a > 1)) <> (NOT (b > 1)) FROM t
//! -- before (bigquery)
//! SELECT a FROM t EXCEPT DISTINCT SELECT a FROM u
//! -- after
//! SELECT a FROM t EXCEPT SELECT a FROM u
//! ```
//!
//! sqlparser reads MySQL's `XOR` above comparisons, MySQL below AND: an `XOR` next to an
//! operator other than OR or XOR has no faithful tree (`a > 1 XOR b` is `a > (1 XOR b)` there),
//! as for `||` (rule `concat`); parenthesize the sides. `a <=> b` is true when both sides are
//! equal or both NULL, never NULL: SQLite's
//! `IS NOT DISTINCT FROM` (sqlglot's `a IS b` is the same in SQLite, but sqlsim's parser reads
//! only the standard spelling). `a XOR b` is NULL when either side is, else true when exactly one
//! side is true; `NOT` turns each side into SQLite's 0/1 truth value (a number, or text read as
//! one, is true when it is not 0, as in MySQL) and `<>` compares them. `UNION`, `EXCEPT` and
//! `INTERSECT` remove duplicates without a quantifier, as with `DISTINCT` (BigQuery requires
//! one). `TRUE` and `FALSE` are SQLite's 1 and 0 already.

use std::ops::ControlFlow;

use sqlparser::ast::{
    BinaryOperator, Expr, Query, SetExpr, SetQuantifier, Statement, UnaryOperator, VisitMut,
    VisitorMut,
};

use super::calls::{nested, take, tight_operands};
use super::{untranslated, Rule};
use crate::parse::dialect::Dialect;

/// See the module documentation.
pub struct Operators;

/// `(NOT e)`: the truth value of `e` as 0 or 1 (NULL for NULL).
fn negated(e: Expr) -> Expr {
    Expr::Nested(Box::new(Expr::UnaryOp {
        op: UnaryOperator::Not,
        expr: Box::new(nested(e)),
    }))
}

/// DISTINCT set operations of `body` and of the operations under it, unquantified.
fn unquantify(body: &mut SetExpr) {
    if let SetExpr::SetOperation {
        left,
        set_quantifier,
        right,
        ..
    } = body
    {
        if *set_quantifier == SetQuantifier::Distinct {
            *set_quantifier = SetQuantifier::None;
        }
        unquantify(left);
        unquantify(right);
    }
}

struct Rewrite(Dialect);

impl VisitorMut for Rewrite {
    type Break = ();

    fn pre_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        if self.0 != Dialect::Mysql {
            return ControlFlow::Continue(());
        }
        for operand in tight_operands(e, &BinaryOperator::Xor) {
            if let Expr::BinaryOp {
                op: BinaryOperator::Xor,
                ..
            } = operand
            {
                let Expr::BinaryOp { left, right, .. } = take(operand) else {
                    continue;
                };
                *operand = untranslated(
                    "XOR beside another operator",
                    Dialect::Mysql,
                    vec![*left, *right],
                );
            }
        }
        ControlFlow::Continue(())
    }

    fn pre_visit_query(&mut self, q: &mut Query) -> ControlFlow<()> {
        unquantify(&mut q.body);
        ControlFlow::Continue(())
    }

    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        let Expr::BinaryOp { left, op, right } = e else {
            return ControlFlow::Continue(());
        };
        match op {
            BinaryOperator::Spaceship => {
                let (l, r) = (take(left), take(right));
                *e = Expr::IsNotDistinctFrom(Box::new(nested(l)), Box::new(nested(r)));
            }
            BinaryOperator::Xor => {
                let (l, r) = (take(left), take(right));
                *e = Expr::BinaryOp {
                    left: Box::new(negated(l)),
                    op: BinaryOperator::NotEq,
                    right: Box::new(negated(r)),
                };
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }
}

impl Rule for Operators {
    fn name(&self) -> &'static str {
        "operators"
    }

    fn applies_to(&self, dialect: Dialect) -> bool {
        dialect != Dialect::Sqlite
    }

    fn apply(&self, statement: &mut Statement, dialect: Dialect) {
        let _ = statement.visit(&mut Rewrite(dialect));
    }
}
