//! EXISTS, `IN (subquery)` (of one value or of a row value `(a, b) IN (SELECT x, y ..)`) and
//! scalar subqueries as plan expressions.

use super::expr::{negate, unsupported, Alias};
use super::{BuildResult, Builder, PlanError, Scope};
use crate::plan::expr::{Expr, Subquery, SubqueryKind};
use sqlparser::ast;

impl Builder<'_> {
    /// EXISTS, IN (subquery) and scalar subqueries, planned in `scope` (correlated names resolve).
    pub(super) fn subquery(
        &mut self,
        e: &ast::Expr,
        scope: &Scope,
        aliases: &[Alias<'_>],
    ) -> BuildResult<Expr> {
        Ok(match e {
            ast::Expr::Exists { subquery, negated } => {
                let plan = self.query(subquery, Some(scope))?;
                negate(
                    *negated,
                    Expr::Subquery(Box::new(Subquery {
                        kind: SubqueryKind::Exists,
                        operands: Vec::new(),
                        plan,
                    })),
                )
            }
            ast::Expr::InSubquery {
                expr,
                subquery,
                negated,
            } => {
                // `(a, b) IN (SELECT x, y ...)`: a row value's values, one per column.
                let operands = match row_values(expr) {
                    Some(values) => values
                        .iter()
                        .map(|v| self.expr(v, scope, aliases))
                        .collect::<BuildResult<Vec<_>>>()?,
                    None => vec![self.expr(expr, scope, aliases)?],
                };
                let plan = self.query(subquery, Some(scope))?;
                if plan.output().len() != operands.len() {
                    return Err(PlanError::Invalid(format!(
                        "IN subquery must return {} column{}",
                        operands.len(),
                        if operands.len() == 1 { "" } else { "s" }
                    )));
                }
                negate(
                    *negated,
                    Expr::Subquery(Box::new(Subquery {
                        kind: SubqueryKind::In,
                        operands,
                        plan,
                    })),
                )
            }
            ast::Expr::Subquery(q) => {
                let plan = self.query(q, Some(scope))?;
                if plan.output().len() != 1 {
                    return Err(PlanError::Invalid(
                        "scalar subquery must return one column".into(),
                    ));
                }
                Expr::Subquery(Box::new(Subquery {
                    kind: SubqueryKind::Scalar,
                    operands: Vec::new(),
                    plan,
                }))
            }
            other => return Err(unsupported(other)),
        })
    }
}

/// The values of a row value `(a, b, ..)` of at least two values (in any parentheses).
fn row_values(e: &ast::Expr) -> Option<&[ast::Expr]> {
    match e {
        ast::Expr::Tuple(values) if values.len() >= 2 => Some(values),
        ast::Expr::Nested(inner) => row_values(inner),
        _ => None,
    }
}
