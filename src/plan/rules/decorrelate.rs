//! Subquery decorrelation. In a Filter's top-level conjuncts: `EXISTS` becomes a semi join and
//! `NOT EXISTS` an anti join on the subquery's correlation predicates; `x IN (SELECT y ...)` a
//! semi join on `x = y`; `x NOT IN (SELECT y ...)` an anti join on
//! `x = y OR x IS NULL OR y IS NULL` (the NULL terms dropped where a column cannot be NULL), which
//! is exactly NOT IN's three-valued meaning. An uncorrelated scalar subquery that always returns
//! one row (an aggregate without GROUP BY) becomes an inner join with that row, one that returns at
//! most one row (`LIMIT 1`) a left join on TRUE (no row gives NULL, as the subquery does), in
//! Filters and Projects;
//! a scalar aggregate correlated by equalities becomes a left join with the aggregate grouped by the
//! correlated columns (`correlated_aggregate.rs`).
//! Anything else (subqueries under OR, correlation below an aggregate or a LIMIT, scalar
//! subqueries that may return several rows, of which SQLite takes the first) is left as it is.

mod correlated_aggregate;

use super::{bottom_up, Rule, RuleContext};
use crate::plan::columns::{ColumnId, Columns};
use crate::plan::expr::{Expr, Op, Subquery, SubqueryKind};
use crate::plan::node::{Join, JoinKind, Plan, Project};
use crate::plan::rules::push_filters::filter;

pub struct Decorrelate;

impl Rule for Decorrelate {
    fn name(&self) -> &'static str {
        "decorrelate"
    }

    fn apply(&self, plan: Plan, cx: &mut RuleContext) -> Plan {
        let columns: &Columns = cx.columns;
        bottom_up(plan, &mut |node| match node {
            Plan::Filter(f) => decorrelate_filter(*f.input, f.condition, columns),
            Plan::Project(p) => decorrelate_project(p),
            other => other,
        })
    }
}

fn decorrelate_filter(input: Plan, condition: Expr, columns: &Columns) -> Plan {
    let output = input.output();
    let mut plan = input;
    let mut stay = Vec::new();
    for term in condition.conjuncts() {
        let (sub, negated) = match term {
            Expr::Subquery(s) if s.kind != SubqueryKind::Scalar => (s, false),
            Expr::Call(Op::Not, mut args)
                if args.len() == 1
                    && matches!(&args[0], Expr::Subquery(s) if s.kind != SubqueryKind::Scalar) =>
            {
                match args.remove(0) {
                    Expr::Subquery(s) => (s, true),
                    _ => continue,
                }
            }
            other => {
                let (p, t) = join_scalar_subqueries(plan, other);
                plan = p;
                stay.push(t);
                continue;
            }
        };
        match semi_join(&plan, &sub, negated, columns) {
            Some((kind, right, condition)) => {
                plan = Plan::Join(Join {
                    kind,
                    left: Box::new(plan),
                    right: Box::new(right),
                    condition,
                });
            }
            None => {
                let e = Expr::Subquery(sub);
                stay.push(if negated { Expr::negation(e) } else { e });
            }
        }
    }
    let plan = filter(plan, stay);
    restore(plan, output)
}

/// A Project keeping exactly `output` when `plan` produces more (joined subquery rows).
fn restore(plan: Plan, output: Vec<ColumnId>) -> Plan {
    if plan.output() == output {
        return plan;
    }
    Plan::Project(Project {
        input: Box::new(plan),
        items: output.into_iter().map(|c| (c, Expr::Column(c))).collect(),
    })
}

fn decorrelate_project(mut p: Project) -> Plan {
    let mut input = std::mem::replace(&mut *p.input, Plan::empty());
    let mut items = Vec::new();
    for (id, e) in std::mem::take(&mut p.items) {
        let (plan, e) = join_scalar_subqueries(input, e);
        input = plan;
        items.push((id, e));
    }
    p.items = items;
    *p.input = input;
    Plan::Project(p)
}

/// Replaces every uncorrelated, at-most-one-row scalar subquery in `e` by a column of a join
/// between `plan` and the subquery, and every equality-correlated scalar aggregate by a left join
/// with the grouped aggregate.
fn join_scalar_subqueries(plan: Plan, e: Expr) -> (Plan, Expr) {
    match e {
        Expr::Subquery(s) if s.kind == SubqueryKind::Scalar => {
            if !s.plan.outer_references().is_empty() {
                return match correlated_aggregate::left_join_aggregate(plan, &s.plan) {
                    (joined, Some(value)) => (joined, value),
                    (plan, None) => (plan, Expr::Subquery(s)),
                };
            }
            match single_row_join(&s.plan) {
                Some(kind) => {
                    let value = s.plan.output()[0];
                    let joined = Plan::Join(Join {
                        kind,
                        left: Box::new(plan),
                        right: Box::new(s.plan),
                        condition: Expr::TRUE,
                    });
                    (joined, Expr::Column(value))
                }
                None => (plan, Expr::Subquery(s)),
            }
        }
        Expr::Call(op, args) => {
            let mut plan = plan;
            let mut out = Vec::new();
            for a in args {
                let (p, a) = join_scalar_subqueries(plan, a);
                plan = p;
                out.push(a);
            }
            (plan, Expr::Call(op, out))
        }
        other => (plan, other),
    }
}

/// How an uncorrelated subquery plan (the caller checks) joins its outer query when it returns
/// at most one row:
/// `Inner` when it always returns exactly one (an Aggregate without group keys under Projects and
/// Sorts that keep it), `Left` when it returns at most one (a LIMIT 0/1, or a Filter or OFFSET over
/// one row), so that no row gives the scalar subquery's NULL; `None` otherwise.
fn single_row_join(plan: &Plan) -> Option<JoinKind> {
    let literal = |e: &Option<Expr>| match e {
        Some(Expr::Literal(crate::plan::expr::Literal::Integer(n))) => Some(*n),
        _ => None,
    };
    let mut exact = true;
    let mut p = plan;
    loop {
        match p {
            Plan::Project(x) => p = &x.input,
            Plan::Filter(f) => {
                exact = false;
                p = &f.input;
            }
            Plan::Sort(s) => {
                if s.offset.is_some() && literal(&s.offset) != Some(0) {
                    exact = false;
                }
                match (&s.fetch, literal(&s.fetch)) {
                    (None, _) => p = &s.input,
                    (Some(_), Some(n)) if n <= 1 => return Some(JoinKind::Left),
                    (Some(_), Some(_)) => p = &s.input,
                    (Some(_), None) => return None,
                }
            }
            Plan::Aggregate(a) if a.group.is_empty() => {
                return Some(if exact {
                    JoinKind::Inner
                } else {
                    JoinKind::Left
                })
            }
            Plan::Values(v) if v.rows.len() <= 1 => {
                return Some(if exact && v.rows.len() == 1 {
                    JoinKind::Inner
                } else {
                    JoinKind::Left
                })
            }
            _ => return None,
        }
    }
}

/// True when column `c` of `plan` can be NULL: not declared NOT NULL, or null-extended by an
/// outer join inside `plan`.
fn may_be_null(plan: &Plan, c: ColumnId, columns: &Columns) -> bool {
    if !columns.meta(c).not_null {
        return true;
    }
    let mut extended = false;
    plan.visit(&mut |n| {
        if let Plan::Join(j) = n {
            let nullable_sides: Vec<&Plan> = match j.kind {
                JoinKind::Left => vec![&j.right],
                JoinKind::Right => vec![&j.left],
                JoinKind::Full => vec![&j.left, &j.right],
                _ => vec![],
            };
            extended |= nullable_sides.iter().any(|s| s.output().contains(&c));
        }
    });
    extended
}

/// The semi/anti join equivalent to an EXISTS / IN subquery conjunct over `left`:
/// (kind, right input, join condition).
fn semi_join(
    left: &Plan,
    sub: &Subquery,
    negated: bool,
    columns: &Columns,
) -> Option<(JoinKind, Plan, Expr)> {
    if sub
        .operands
        .iter()
        .any(|o| o.has_subquery() || o.is_volatile())
    {
        return None;
    }
    let mut plan = sub.plan.clone();
    let mut values: Vec<Expr> = plan.output().iter().map(|c| Expr::Column(*c)).collect();
    // Peel what EXISTS and IN ignore: the select list, ORDER BY, DISTINCT.
    loop {
        match plan {
            Plan::Project(p)
                if !p
                    .items
                    .iter()
                    .any(|(_, e)| e.has_subquery() || e.is_volatile()) =>
            {
                values = values.iter().map(|v| p.inline(v)).collect();
                plan = *p.input;
            }
            Plan::Sort(s) if s.fetch.is_none() && s.offset.is_none() => plan = *s.input,
            Plan::Aggregate(a) if a.calls.is_empty() && !a.group.is_empty() => plan = *a.input,
            other => {
                plan = other;
                break;
            }
        }
    }
    let left_columns = left.output();
    let mut correlation = Vec::new();
    if let Plan::Filter(f) = plan {
        let inner = f.input.output();
        let (corr, local): (Vec<Expr>, Vec<Expr>) = f
            .condition
            .conjuncts()
            .into_iter()
            .partition(|t| !t.only_reads(&inner));
        correlation = corr;
        plan = filter(*f.input, local);
    }
    if !plan.outer_references().is_empty() {
        return None;
    }
    let right_columns = plan.output();
    let mut visible = left_columns.clone();
    visible.extend(right_columns.iter().copied());
    if correlation
        .iter()
        .any(|t| t.has_subquery() || !t.only_reads(&visible))
    {
        return None;
    }
    let mut condition = correlation;
    let kind = match (sub.kind, negated) {
        (SubqueryKind::Exists, false) => JoinKind::Semi,
        (SubqueryKind::Exists, true) => JoinKind::Anti,
        (SubqueryKind::In, _) => {
            // `(a, b) IN (SELECT x, y ..)` pairs the values: a = x AND b = y
            if sub.operands.is_empty() || sub.operands.len() != values.len() {
                return None;
            }
            for (operand, value) in sub.operands.iter().zip(&values) {
                if !operand.only_reads(&left_columns) || !value.only_reads(&right_columns) {
                    return None;
                }
            }
            for (operand, value) in sub.operands.iter().cloned().zip(values) {
                let eq = Expr::call(Op::Eq, vec![operand.clone(), value.clone()]);
                if negated {
                    // NOT IN keeps a row only when each subquery row has one pair that
                    // differs (neither value NULL): the anti join drops it on a row
                    // where every pair is equal or has a NULL
                    let mut either = vec![eq];
                    let nullable = |e: &Expr, side: &Plan| match e {
                        Expr::Column(c) => may_be_null(side, *c, columns),
                        _ => true,
                    };
                    if nullable(&operand, left) {
                        either.push(Expr::call(Op::IsNull, vec![operand]));
                    }
                    if nullable(&value, &plan) {
                        either.push(Expr::call(Op::IsNull, vec![value]));
                    }
                    condition.push(Expr::or(either));
                } else {
                    condition.push(eq);
                }
            }
            if negated {
                JoinKind::Anti
            } else {
                JoinKind::Semi
            }
        }
        (SubqueryKind::Scalar, _) => return None,
    };
    Some((kind, plan, Expr::and(condition)))
}
