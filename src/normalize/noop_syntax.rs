//! Pass `noop_syntax`: drops syntax that does not change a query's meaning.
//!
//! - `ASC` in ORDER BY (the default), `INNER`/`OUTER` join noise words (`JOIN` = `INNER JOIN`,
//!   `LEFT OUTER JOIN` = `LEFT JOIN`), the `AS` keyword of table aliases;
//! - redundant parentheses: around a name, literal, function call or subquery, around a whole
//!   clause (WHERE, HAVING, ON, a select item, a function argument), and around a comparison that
//!   is an operand of AND/OR.
//!
//! ```sql
//! -- before
//! SELECT (name) FROM singer INNER JOIN t ON (a = b) WHERE (age > 3) AND ((b)) ORDER BY age ASC
//! -- after
//! SELECT name FROM singer JOIN t ON a = b WHERE age > 3 AND b ORDER BY age
//! ```

use super::Pass;
use sqlparser::ast::{
    BinaryOperator, Expr, GroupByExpr, Join, JoinOperator, OrderByKind, OrderBySort, Query, Select,
    SelectItem, Statement, TableFactor, VisitMut, VisitorMut,
};
use std::ops::ControlFlow;

/// See the module documentation.
pub struct NoopSyntax;

/// Removes every layer of parentheses around `expr` (a loop, no recursion).
pub(super) fn strip_nested(expr: &mut Expr) {
    while let Expr::Nested(inner) = expr {
        let inner = std::mem::replace(inner.as_mut(), Expr::value(sqlparser::ast::Value::Null));
        *expr = inner;
    }
}

/// Expressions that never need parentheses, whatever surrounds them.
fn is_atomic(expr: &Expr) -> bool {
    matches!(
        expr,
        Expr::Identifier(_)
            | Expr::CompoundIdentifier(_)
            | Expr::Value(_)
            | Expr::Function(_)
            | Expr::Subquery(_)
            | Expr::Nested(_)
            | Expr::Case { .. }
            | Expr::Cast { .. }
            | Expr::Exists { .. }
    )
}

/// Expressions that bind tighter than AND and OR.
fn binds_tighter_than_and(expr: &Expr) -> bool {
    match expr {
        Expr::BinaryOp { op, .. } => !matches!(op, BinaryOperator::And | BinaryOperator::Or),
        Expr::IsNull(_)
        | Expr::IsNotNull(_)
        | Expr::InList { .. }
        | Expr::InSubquery { .. }
        | Expr::Between { .. }
        | Expr::Like { .. }
        | Expr::ILike { .. } => true,
        other => is_atomic(other),
    }
}

fn tidy_expr(expr: &mut Expr) {
    if let Expr::Nested(inner) = expr {
        if is_atomic(inner) {
            strip_nested(expr);
        }
    }
    if let Expr::BinaryOp {
        left,
        op: BinaryOperator::And | BinaryOperator::Or,
        right,
    } = expr
    {
        for side in [left.as_mut(), right.as_mut()] {
            if matches!(side, Expr::Nested(inner) if binds_tighter_than_and(inner)) {
                strip_nested(side);
            }
        }
    }
}

fn tidy_join(join: &mut Join) {
    use sqlparser::ast::JoinConstraint;
    let op = std::mem::replace(&mut join.join_operator, JoinOperator::CrossApply);
    join.join_operator = match op {
        JoinOperator::Inner(c) => JoinOperator::Join(c),
        JoinOperator::LeftOuter(c) => JoinOperator::Left(c),
        JoinOperator::RightOuter(c) => JoinOperator::Right(c),
        other => other,
    };
    if let JoinOperator::Join(JoinConstraint::On(e)) | JoinOperator::Left(JoinConstraint::On(e)) =
        &mut join.join_operator
    {
        strip_nested(e);
    }
}

fn tidy_select(select: &mut Select) {
    for item in &mut select.projection {
        if let SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } = item {
            strip_nested(e);
        }
    }
    for e in select.selection.iter_mut().chain(select.having.iter_mut()) {
        strip_nested(e);
    }
    if let GroupByExpr::Expressions(exprs, _) = &mut select.group_by {
        exprs.iter_mut().for_each(strip_nested);
    }
    for t in &mut select.from {
        for f in std::iter::once(&mut t.relation).chain(t.joins.iter_mut().map(|j| &mut j.relation))
        {
            if let TableFactor::Table { alias: Some(a), .. }
            | TableFactor::Derived { alias: Some(a), .. } = f
            {
                a.explicit = false;
            }
        }
        t.joins.iter_mut().for_each(tidy_join);
    }
}

struct Tidy;

impl VisitorMut for Tidy {
    type Break = ();
    fn pre_visit_select(&mut self, select: &mut Select) -> ControlFlow<()> {
        tidy_select(select);
        ControlFlow::Continue(())
    }
    fn pre_visit_query(&mut self, query: &mut Query) -> ControlFlow<()> {
        if let Some(OrderByKind::Expressions(items)) = query.order_by.as_mut().map(|o| &mut o.kind)
        {
            for item in items {
                strip_nested(&mut item.expr);
                if item.options.sort == Some(OrderBySort::Asc) {
                    item.options.sort = None;
                }
            }
        }
        ControlFlow::Continue(())
    }
    fn post_visit_expr(&mut self, expr: &mut Expr) -> ControlFlow<()> {
        tidy_expr(expr);
        ControlFlow::Continue(())
    }
}

impl Pass for NoopSyntax {
    fn name(&self) -> &'static str {
        "noop_syntax"
    }
    fn apply(&self, mut statement: Statement) -> Statement {
        let _ = statement.visit(&mut Tidy);
        statement
    }
}
