//! AST expressions → plan expressions, resolving names in a scope (select-list aliases last).

use super::{deeper, BuildResult, Builder, PlanError, Scope};
use crate::plan::expr::{AggFunc, Expr, Literal, Op};
use sqlparser::ast::{
    self, BinaryOperator, CastKind, DuplicateTreatment, FunctionArg, FunctionArgExpr,
    FunctionArguments, UnaryOperator, Value,
};

/// A select-list alias visible to WHERE, GROUP BY, HAVING and ORDER BY (SQLite allows it).
pub type Alias<'q> = (String, &'q ast::Expr);

/// The last identifier of a column reference, lower case.
pub fn last_identifier(e: &ast::Expr) -> Option<String> {
    match e {
        ast::Expr::Identifier(i) => Some(i.value.to_lowercase()),
        ast::Expr::CompoundIdentifier(ids) => ids.last().map(|i| i.value.to_lowercase()),
        ast::Expr::Nested(inner) => last_identifier(inner),
        _ => None,
    }
}

/// A numeric literal: an integer when it fits, otherwise a real.
pub fn number(text: &str) -> BuildResult<Literal> {
    if let Ok(i) = text.parse::<i64>() {
        return Ok(Literal::Integer(i));
    }
    text.parse::<f64>()
        .map(Literal::Real)
        .map_err(|_| PlanError::Invalid(format!("bad number {text}")))
}

fn binary_op(op: &BinaryOperator) -> Option<Op> {
    Some(match op {
        BinaryOperator::Eq => Op::Eq,
        BinaryOperator::NotEq => Op::NotEq,
        BinaryOperator::Lt => Op::Lt,
        BinaryOperator::LtEq => Op::LtEq,
        BinaryOperator::Gt => Op::Gt,
        BinaryOperator::GtEq => Op::GtEq,
        BinaryOperator::And => Op::And,
        BinaryOperator::Or => Op::Or,
        BinaryOperator::Plus => Op::Plus,
        BinaryOperator::Minus => Op::Minus,
        BinaryOperator::Multiply => Op::Multiply,
        BinaryOperator::Divide => Op::Divide,
        BinaryOperator::Modulo => Op::Modulo,
        BinaryOperator::StringConcat => Op::Concat,
        _ => return None,
    })
}

/// `e` negated when `negated`.
pub(super) fn negate(negated: bool, e: Expr) -> Expr {
    if negated {
        Expr::negation(e)
    } else {
        e
    }
}

/// The error for an expression form the planner does not model (its first 40 characters).
pub(super) fn unsupported(e: &ast::Expr) -> PlanError {
    let text: String = e.to_string().chars().take(40).collect();
    PlanError::Unsupported(format!("unsupported expression: {text}"))
}

impl Builder<'_> {
    /// The plan expression of `e` in `scope`.
    pub fn expr(
        &mut self,
        e: &ast::Expr,
        scope: &Scope,
        aliases: &[Alias<'_>],
    ) -> BuildResult<Expr> {
        self.expressions += 1;
        if self.expressions > super::MAX_PLAN_EXPRESSIONS {
            return Err(PlanError::Limit(format!(
                "at most {} expressions in one query",
                super::MAX_PLAN_EXPRESSIONS
            )));
        }
        let built = deeper!(self, self.expr_inner(e, scope, aliases))?;
        // Calcite's no-op casts go, and literals take the affinity of the column they are
        // compared with, before any label is derived from the expression
        let built = crate::plan::casts::without_redundant_cast(built, &self.columns);
        Ok(crate::plan::affinity::with_column_affinity(
            built,
            &self.columns,
        ))
    }

    fn exprs(
        &mut self,
        items: &[&ast::Expr],
        scope: &Scope,
        aliases: &[Alias<'_>],
    ) -> BuildResult<Vec<Expr>> {
        items.iter().map(|e| self.expr(e, scope, aliases)).collect()
    }

    fn expr_inner(
        &mut self,
        e: &ast::Expr,
        scope: &Scope,
        aliases: &[Alias<'_>],
    ) -> BuildResult<Expr> {
        use ast::Expr as E;
        match e {
            E::Nested(inner) => self.expr(inner, scope, aliases),
            E::Identifier(_) | E::CompoundIdentifier(_) | E::Value(_) => {
                self.name_or_literal(e, scope, aliases)
            }
            E::BinaryOp { .. } | E::UnaryOp { .. } => self.operator(e, scope, aliases),
            E::IsNull(_)
            | E::IsNotNull(_)
            | E::IsDistinctFrom(..)
            | E::IsNotDistinctFrom(..)
            | E::IsTrue(_)
            | E::IsNotFalse(_)
            | E::IsFalse(_)
            | E::IsNotTrue(_)
            | E::Between { .. }
            | E::InList { .. }
            | E::Like { any: false, .. }
            | E::ILike { any: false, .. } => self.predicate(e, scope, aliases),
            E::Case { .. } | E::Cast { .. } | E::Substring { .. } | E::Collate { .. } => {
                self.special_form(e, scope, aliases)
            }
            E::Function(f) => self.function(f, scope, aliases),
            E::Exists { .. } | E::InSubquery { .. } | E::Subquery(_) => {
                self.subquery(e, scope, aliases)
            }
            other => Err(unsupported(other)),
        }
    }

    /// A column reference (resolved in `scope`, then among the aliases) or a literal.
    fn name_or_literal(
        &mut self,
        e: &ast::Expr,
        scope: &Scope,
        aliases: &[Alias<'_>],
    ) -> BuildResult<Expr> {
        Ok(match e {
            ast::Expr::Identifier(id) => match scope.resolve(None, &id.value.to_lowercase()) {
                Some(c) => Expr::Column(c),
                None => self.unresolved(id, None, scope, aliases)?,
            },
            ast::Expr::CompoundIdentifier(ids) => {
                let n = ids.len();
                if n < 2 {
                    return Err(PlanError::Invalid("empty identifier".into()));
                }
                let q = ids[n - 2].value.to_lowercase();
                let c = ids[n - 1].value.to_lowercase();
                match scope.resolve(Some(&q), &c) {
                    Some(id) => Expr::Column(id),
                    None => self.unresolved(&ids[n - 1], Some(&q), scope, aliases)?,
                }
            }
            ast::Expr::Value(v) => Expr::Literal(match &v.value {
                Value::Number(n, _) => number(n)?,
                Value::SingleQuotedString(s) | Value::DoubleQuotedString(s) => {
                    Literal::Text(s.clone())
                }
                Value::Boolean(b) => Literal::Boolean(*b),
                Value::Null => Literal::Null,
                other => {
                    return Err(PlanError::Unsupported(format!(
                        "unsupported literal {other}"
                    )))
                }
            }),
            other => return Err(unsupported(other)),
        })
    }

    /// A binary or unary operator; AND/OR chains are flattened.
    fn operator(
        &mut self,
        e: &ast::Expr,
        scope: &Scope,
        aliases: &[Alias<'_>],
    ) -> BuildResult<Expr> {
        Ok(match e {
            ast::Expr::BinaryOp { left, op, right } => {
                let op = binary_op(op)
                    .ok_or_else(|| PlanError::Unsupported(format!("unsupported operator {op}")))?;
                let args = self.exprs(&[left, right], scope, aliases)?;
                match op {
                    Op::And => Expr::and(Expr::flattened(&Op::And, args)),
                    Op::Or => Expr::or(Expr::flattened(&Op::Or, args)),
                    op => Expr::call(op, args),
                }
            }
            ast::Expr::UnaryOp { op, expr } => {
                let x = self.expr(expr, scope, aliases)?;
                match op {
                    UnaryOperator::Not => Expr::negation(x),
                    UnaryOperator::Minus => match x {
                        Expr::Literal(Literal::Integer(i)) => {
                            Expr::Literal(Literal::Integer(i.wrapping_neg()))
                        }
                        Expr::Literal(Literal::Real(r)) => Expr::Literal(Literal::Real(-r)),
                        x => Expr::call(Op::Negate, vec![x]),
                    },
                    UnaryOperator::Plus => x,
                    other => {
                        return Err(PlanError::Unsupported(format!(
                            "unsupported operator {other}"
                        )))
                    }
                }
            }
            other => return Err(unsupported(other)),
        })
    }

    /// `IS ...`, `BETWEEN`, `IN (list)` and `LIKE`: predicates over scalar arguments.
    fn predicate(
        &mut self,
        e: &ast::Expr,
        scope: &Scope,
        aliases: &[Alias<'_>],
    ) -> BuildResult<Expr> {
        Ok(match e {
            ast::Expr::IsNull(x) => Expr::call(Op::IsNull, vec![self.expr(x, scope, aliases)?]),
            ast::Expr::IsNotNull(x) => {
                Expr::call(Op::IsNotNull, vec![self.expr(x, scope, aliases)?])
            }
            ast::Expr::IsDistinctFrom(a, b) => {
                Expr::call(Op::IsDistinctFrom, self.exprs(&[a, b], scope, aliases)?)
            }
            ast::Expr::IsNotDistinctFrom(a, b) => {
                Expr::call(Op::IsNotDistinctFrom, self.exprs(&[a, b], scope, aliases)?)
            }
            ast::Expr::IsTrue(x)
            | ast::Expr::IsNotFalse(x)
            | ast::Expr::IsFalse(x)
            | ast::Expr::IsNotTrue(x) => {
                // `x IS [NOT] TRUE/FALSE` is `[NOT] (x IS NOT DISTINCT FROM TRUE/FALSE)`.
                let (truth, negated) = match e {
                    ast::Expr::IsTrue(_) => (Expr::TRUE, false),
                    ast::Expr::IsNotFalse(_) => (Expr::FALSE, true),
                    ast::Expr::IsFalse(_) => (Expr::FALSE, false),
                    _ => (Expr::TRUE, true),
                };
                let x = self.expr(x, scope, aliases)?;
                negate(negated, Expr::call(Op::IsNotDistinctFrom, vec![x, truth]))
            }
            ast::Expr::Between {
                expr,
                negated,
                low,
                high,
            } => negate(
                *negated,
                Expr::call(Op::Between, self.exprs(&[expr, low, high], scope, aliases)?),
            ),
            ast::Expr::InList {
                expr,
                list,
                negated,
            } => {
                let mut args = vec![self.expr(expr, scope, aliases)?];
                for item in list {
                    args.push(self.expr(item, scope, aliases)?);
                }
                negate(*negated, Expr::call(Op::InList, args))
            }
            ast::Expr::Like {
                negated,
                expr,
                pattern,
                escape_char,
                any: false,
            }
            | ast::Expr::ILike {
                negated,
                expr,
                pattern,
                escape_char,
                any: false,
            } => {
                let mut args = self.exprs(&[expr, pattern], scope, aliases)?;
                if let Some(esc) = escape_char {
                    args.push(self.expr(esc, scope, aliases)?);
                }
                negate(*negated, Expr::call(Op::Like, args))
            }
            other => return Err(unsupported(other)),
        })
    }

    /// CASE, CAST, SUBSTRING and COLLATE: the functions with their own syntax.
    fn special_form(
        &mut self,
        e: &ast::Expr,
        scope: &Scope,
        aliases: &[Alias<'_>],
    ) -> BuildResult<Expr> {
        Ok(match e {
            ast::Expr::Case {
                operand,
                conditions,
                else_result,
                ..
            } => {
                let operand = match operand {
                    Some(o) => Some(self.expr(o, scope, aliases)?),
                    None => None,
                };
                let mut args = Vec::new();
                for w in conditions {
                    let cond = self.expr(&w.condition, scope, aliases)?;
                    args.push(match &operand {
                        Some(o) => Expr::call(Op::Eq, vec![o.clone(), cond]),
                        None => cond,
                    });
                    args.push(self.expr(&w.result, scope, aliases)?);
                }
                args.push(match else_result {
                    Some(x) => self.expr(x, scope, aliases)?,
                    None => Expr::Literal(Literal::Null),
                });
                Expr::call(Op::Case, args)
            }
            ast::Expr::Cast {
                kind,
                expr,
                data_type,
                ..
            } => {
                if !matches!(kind, CastKind::Cast | CastKind::DoubleColon) {
                    return Err(PlanError::Unsupported(format!("unsupported cast {kind:?}")));
                }
                let x = self.expr(expr, scope, aliases)?;
                Expr::call(Op::Cast(data_type.to_string().to_lowercase()), vec![x])
            }
            ast::Expr::Substring {
                expr,
                substring_from,
                substring_for,
                ..
            } => {
                let mut args = vec![self.expr(expr, scope, aliases)?];
                for x in [substring_from, substring_for].into_iter().flatten() {
                    args.push(self.expr(x, scope, aliases)?);
                }
                Expr::call(Op::Function("substr".into()), args)
            }
            ast::Expr::Collate { expr, collation } => {
                let x = self.expr(expr, scope, aliases)?;
                let name = collation.to_string().to_lowercase();
                Expr::call(Op::Function(format!("collate_{name}")), vec![x])
            }
            other => return Err(unsupported(other)),
        })
    }

    /// A name that no relation defines: a select-list alias, a double-quoted string literal
    /// (SQLite's fallback), or an error.
    fn unresolved(
        &mut self,
        id: &ast::Ident,
        qualifier: Option<&str>,
        scope: &Scope,
        aliases: &[Alias<'_>],
    ) -> BuildResult<Expr> {
        let name = id.value.to_lowercase();
        if qualifier.is_none() {
            if let Some(pos) = aliases.iter().position(|(a, _)| *a == name) {
                // The alias's own expression, without the aliases from it onwards (no cycles).
                let target = aliases[pos].1;
                return self.expr(target, scope, &aliases[..pos]);
            }
            if id.quote_style == Some('"') {
                return Ok(Expr::Literal(Literal::Text(id.value.clone())));
            }
        }
        Err(PlanError::Invalid(match qualifier {
            Some(q) => format!("no such column: {q}.{}", id.value),
            None => format!("no such column: {}", id.value),
        }))
    }

    fn function(
        &mut self,
        f: &ast::Function,
        scope: &Scope,
        aliases: &[Alias<'_>],
    ) -> BuildResult<Expr> {
        let name = super::from::object_name_last(&f.name);
        if name.eq_ignore_ascii_case(crate::parse::translate::UNTRANSLATED) {
            let construct = crate::parse::translate::untranslated_construct(&f.to_string());
            return Err(PlanError::Unsupported(format!(
                "{} has no faithful translation into SQLite",
                construct.unwrap_or_else(|| "a construct".into())
            )));
        }
        if f.filter.is_some() && f.within_group.is_empty() {
            // AGG(x) FILTER (WHERE c) plans as AGG(CASE WHEN c THEN x END)
            let mut moved = f.clone();
            return match crate::parse::translate::aggregates::move_filter(&mut moved) {
                Ok(()) => self.function(&moved, scope, aliases),
                Err(e) => Err(PlanError::Unsupported(format!("{} is not supported", e.0))),
            };
        }
        if !f.within_group.is_empty() {
            return Err(PlanError::Unsupported(format!(
                "{name}() with WITHIN GROUP is not supported"
            )));
        }
        let (distinct, raw_args, star) = match &f.args {
            FunctionArguments::None => (false, vec![], false),
            FunctionArguments::Subquery(_) => {
                return Err(PlanError::Unsupported(format!(
                    "{name}() over a subquery is not supported"
                )))
            }
            FunctionArguments::List(list) => {
                let distinct = list.duplicate_treatment == Some(DuplicateTreatment::Distinct);
                let mut args = Vec::new();
                let mut star = false;
                for a in &list.args {
                    let a = match a {
                        FunctionArg::Unnamed(a) => a,
                        FunctionArg::Named { arg, .. } | FunctionArg::ExprNamed { arg, .. } => arg,
                    };
                    match a {
                        FunctionArgExpr::Expr(e) => args.push(e),
                        _ => star = true,
                    }
                }
                (distinct, args, star)
            }
        };
        let pending_windows = self.pending_windows();
        let mut args = Vec::new();
        for a in &raw_args {
            args.push(self.expr(a, scope, aliases)?);
        }
        if let Some(over) = &f.over {
            let call = super::window::WindowArgs {
                name,
                distinct,
                star,
                args,
                pending_windows,
            };
            return self.window_call(call, over, scope, aliases);
        }
        // min/max with several arguments are SQLite's scalar functions.
        let aggregate = AggFunc::from_name(&name)
            .filter(|_| !(matches!(name.as_str(), "min" | "max") && args.len() > 1));
        match aggregate {
            Some(func) => {
                if star && func != AggFunc::Count {
                    return Err(PlanError::Invalid(format!("{name}(*) is not valid")));
                }
                if args.iter().any(Expr::has_aggregate) {
                    return Err(PlanError::Invalid(format!("aggregate inside {name}()")));
                }
                if func == AggFunc::Count && star {
                    args.clear();
                }
                if func == AggFunc::Count && self.counts_every_row(distinct, &args, scope) {
                    // a count of a column that is never NULL is COUNT(*) (build/count.rs)
                    return Ok(Expr::call(Op::Aggregate(func, false), vec![]));
                }
                Ok(Expr::call(Op::Aggregate(func, distinct), args))
            }
            None => {
                if star {
                    return Err(PlanError::Invalid(format!("{name}(*) is not valid")));
                }
                let op = match name.as_str() {
                    "substring" => Op::Function("substr".into()),
                    "ifnull" => Op::Function("coalesce".into()),
                    "iif" if args.len() == 3 => {
                        let mut it = args.into_iter();
                        let (c, t, e) = (it.next(), it.next(), it.next());
                        return Ok(Expr::call(
                            Op::Case,
                            vec![c, t, e].into_iter().flatten().collect(),
                        ));
                    }
                    _ => Op::Function(name),
                };
                Ok(Expr::call(op, args))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::plan::plan_sql;
    use crate::schema::Schema;

    fn in_list(items: usize) -> String {
        let list: Vec<String> = (0..items).map(|i| i.to_string()).collect();
        format!("SELECT a FROM t WHERE a IN ({})", list.join(", "))
    }

    #[test]
    fn a_query_of_more_expressions_than_the_limit_is_not_planned() {
        let schema = Schema::from_ddl("CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT);").unwrap();
        assert!(plan_sql(&in_list(1_000), &schema).is_ok());
        let err = plan_sql(&in_list(super::super::MAX_PLAN_EXPRESSIONS), &schema)
            .expect_err("over the limit");
        assert!(
            err.to_string()
                .contains("at most 5000 expressions in one query"),
            "{err}"
        );
    }

    #[test]
    fn an_aggregate_filter_plans_as_a_case_of_its_argument() {
        let schema = Schema::from_ddl("CREATE TABLE t (a INTEGER, b TEXT);").unwrap();
        let plan = |sql: &str| format!("{:?}", plan_sql(sql, &schema).unwrap());
        assert_eq!(
            plan("SELECT COUNT(*) FILTER (WHERE a > 1), SUM(a) FILTER (WHERE b = 'x') FROM t"),
            plan("SELECT COUNT(CASE WHEN a > 1 THEN 1 END), SUM(CASE WHEN b = 'x' THEN a END) FROM t")
        );
        let err = plan_sql("SELECT RANK() FILTER (WHERE a > 1) OVER () FROM t", &schema);
        assert!(err.is_err());
    }
}
