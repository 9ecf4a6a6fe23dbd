//! Rewrite rules, one per file, and the driver that runs them to a fixed point. Every rule is an
//! exact equivalence under SQL's three-valued logic and bag semantics; the driver rejects any
//! application that changes the plan's output columns (ids, so names and order too).

mod canonical_order;
mod decorrelate;
mod expand_between_in;
mod merge_projects;
mod prune_columns;
mod push_filters;
mod simplify;

use super::columns::Columns;
use super::expr::{Expr, Subquery};
use super::node::Plan;
use super::QueryPlan;

/// What a rule may use and report while rewriting.
pub struct RuleContext<'a> {
    pub columns: &'a mut Columns,
}

/// One rewrite rule over a whole plan.
pub trait Rule: Sync {
    /// The rule's name (also its file name).
    fn name(&self) -> &'static str;
    /// The rewritten plan (the same plan when the rule does not apply).
    fn apply(&self, plan: Plan, cx: &mut RuleContext) -> Plan;
}

/// The rules, in the order each pass runs them.
pub static RULES: &[&dyn Rule] = &[
    &expand_between_in::ExpandBetweenIn,
    &simplify::Simplify,
    &decorrelate::Decorrelate,
    &push_filters::PushFilters,
    &merge_projects::MergeProjects,
    &prune_columns::PruneColumns,
    &canonical_order::CanonicalOrder,
];

/// Passes over all rules before the driver gives up on reaching a fixed point.
pub const MAX_PASSES: usize = 12;

/// The outcome of [`optimize`].
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Report {
    /// Passes run (the last one changed nothing unless `MAX_PASSES` was reached).
    pub passes: usize,
    /// Rules whose rewrite changed the output columns and was therefore undone (a bug).
    pub rejected: Vec<&'static str>,
}

/// Runs `rules` to a fixed point on `plan`.
pub fn optimize_with(plan: &mut QueryPlan, rules: &[&dyn Rule]) -> Report {
    let mut report = Report::default();
    let output = plan.root.output();
    for _ in 0..MAX_PASSES {
        report.passes += 1;
        let mut changed = false;
        for rule in rules {
            let before = plan.root.clone();
            let mut cx = RuleContext {
                columns: &mut plan.columns,
            };
            let after = rule.apply(std::mem::replace(&mut plan.root, Plan::empty()), &mut cx);
            if after.output() != output {
                report.rejected.push(rule.name());
                plan.root = before;
                continue;
            }
            changed |= after != before;
            plan.root = after;
        }
        if !changed {
            break;
        }
    }
    report
}

/// Runs every rule to a fixed point.
pub fn optimize(plan: &mut QueryPlan) -> Report {
    optimize_with(plan, RULES)
}

/// The rule named `name`.
pub fn rule(name: &str) -> Option<&'static dyn Rule> {
    RULES.iter().copied().find(|r| r.name() == name)
}

/// Applies `f` to every node bottom-up, including the plans of subqueries inside expressions
/// (which are rewritten before the node holding them).
pub fn bottom_up(plan: Plan, f: &mut dyn FnMut(Plan) -> Plan) -> Plan {
    let mut plan = plan.map_inputs(&mut |p| bottom_up(p, f));
    for e in plan.exprs_mut() {
        let taken = std::mem::replace(e, Expr::TRUE);
        *e = map_subquery_plans(taken, f);
    }
    f(plan)
}

fn map_subquery_plans(e: Expr, f: &mut dyn FnMut(Plan) -> Plan) -> Expr {
    match e {
        Expr::Subquery(s) => {
            let Subquery {
                kind,
                operands,
                plan,
            } = *s;
            Expr::Subquery(Box::new(Subquery {
                kind,
                operands: operands
                    .into_iter()
                    .map(|o| map_subquery_plans(o, f))
                    .collect(),
                plan: bottom_up(plan, f),
            }))
        }
        Expr::Call(op, args) => Expr::Call(
            op,
            args.into_iter().map(|a| map_subquery_plans(a, f)).collect(),
        ),
        other => other,
    }
}

/// Applies `f` to every expression of every node (bottom-up within each expression).
pub fn map_all_exprs(plan: Plan, f: &mut dyn FnMut(Expr) -> Expr) -> Plan {
    bottom_up(plan, &mut |mut node| {
        for e in node.exprs_mut() {
            let taken = std::mem::replace(e, Expr::TRUE);
            *e = map_expr_bottom_up(taken, f);
        }
        node
    })
}

/// Applies `f` to `e`'s sub-expressions, children first (subquery plans are left alone).
pub fn map_expr_bottom_up(e: Expr, f: &mut dyn FnMut(Expr) -> Expr) -> Expr {
    let e = match e {
        Expr::Call(op, args) => Expr::Call(
            op,
            args.into_iter().map(|a| map_expr_bottom_up(a, f)).collect(),
        ),
        Expr::Subquery(mut s) => {
            s.operands = s
                .operands
                .into_iter()
                .map(|o| map_expr_bottom_up(o, f))
                .collect();
            Expr::Subquery(s)
        }
        other => other,
    };
    f(e)
}
