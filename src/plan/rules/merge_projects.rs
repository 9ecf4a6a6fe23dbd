//! Derived-table and view inlining: a Project over a Project becomes one Project (the inner
//! expressions substituted into the outer ones), and a Project that passes its input through
//! unchanged disappears. Skipped when an inner expression is volatile or holds a subquery and
//! is read more than once, or when a merged expression would exceed
//! [`MAX_MERGED_EXPR_NODES`] nodes.

use super::{bottom_up, Rule, RuleContext};
use crate::plan::columns::ColumnId;
use crate::plan::expr::Expr;
use crate::plan::node::{Plan, Project};

pub struct MergeProjects;

/// Largest expression a merge may create.
pub const MAX_MERGED_EXPR_NODES: usize = 256;

impl Rule for MergeProjects {
    fn name(&self) -> &'static str {
        "merge_projects"
    }

    fn apply(&self, plan: Plan, _cx: &mut RuleContext) -> Plan {
        bottom_up(plan, &mut merge)
    }
}

fn is_identity(p: &Project) -> bool {
    let out: Vec<ColumnId> = p.items.iter().map(|(id, _)| *id).collect();
    out == p.input.output() && p.items.iter().all(|(id, e)| *e == Expr::Column(*id))
}

fn merge(node: Plan) -> Plan {
    match node {
        Plan::Project(p) if is_identity(&p) => *p.input,
        Plan::Project(mut outer) => {
            let Plan::Project(inner) = &*outer.input else {
                return Plan::Project(outer);
            };
            let reads = |c: ColumnId| {
                outer
                    .items
                    .iter()
                    .map(|(_, e)| e.columns().iter().filter(|x| **x == c).count())
                    .sum::<usize>()
            };
            let unsafe_to_repeat = inner
                .items
                .iter()
                .any(|(id, e)| (e.is_volatile() || e.has_subquery()) && reads(*id) > 1);
            if unsafe_to_repeat {
                return Plan::Project(outer);
            }
            let merged: Vec<(ColumnId, Expr)> = outer
                .items
                .iter()
                .map(|(id, e)| (*id, inner.inline(e)))
                .collect();
            // Nested derived tables that each read a column twice would double the expressions
            // at every level; past a bound the Projects stay separate.
            if merged.iter().any(|(_, e)| e.size() > MAX_MERGED_EXPR_NODES) {
                return Plan::Project(outer);
            }
            outer.items = merged;
            let Plan::Project(inner) = std::mem::replace(&mut *outer.input, Plan::empty()) else {
                return Plan::Project(outer);
            };
            outer.input = inner.input;
            merge(Plan::Project(outer))
        }
        other => other,
    }
}
