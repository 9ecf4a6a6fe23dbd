//! Projection pruning: Project items and aggregate calls that nothing above reads are dropped
//! (the plan's own output is always kept; set-operation inputs keep every column, since they
//! match by position). Base-table scans keep their columns, as in Calcite's logical plans.

use super::{Rule, RuleContext};
use crate::plan::columns::ColumnId;
use crate::plan::node::Plan;

pub struct PruneColumns;

impl Rule for PruneColumns {
    fn name(&self) -> &'static str {
        "prune_columns"
    }

    fn apply(&self, plan: Plan, _cx: &mut RuleContext) -> Plan {
        let required = plan.output();
        prune(plan, &required)
    }
}

fn prune(mut plan: Plan, required: &[ColumnId]) -> Plan {
    match &mut plan {
        Plan::Project(p) => {
            let keep: Vec<_> = p
                .items
                .iter()
                .filter(|(id, _)| required.contains(id))
                .cloned()
                .collect();
            if !keep.is_empty() && keep.len() < p.items.len() {
                p.items = keep;
            }
        }
        Plan::Aggregate(a) => {
            a.calls.retain(|c| required.contains(&c.id));
        }
        _ => {}
    }
    // Subquery plans inside this node's expressions need their own outputs only.
    for e in plan.exprs_mut() {
        prune_subqueries(e);
    }
    let mut needed: Vec<ColumnId> = required.to_vec();
    needed.extend(plan.own_column_reads());
    if let Plan::SetOp(_) = plan {
        return plan.map_inputs(&mut |input| {
            let all = input.output();
            prune(input, &all)
        });
    }
    plan.map_inputs(&mut |input| prune(input, &needed))
}

fn prune_subqueries(e: &mut crate::plan::expr::Expr) {
    use crate::plan::expr::Expr;
    match e {
        Expr::Subquery(s) => {
            let plan = std::mem::replace(&mut s.plan, Plan::empty());
            let out = plan.output();
            s.plan = prune(plan, &out);
        }
        Expr::Call(_, args) => args.iter_mut().for_each(prune_subqueries),
        _ => {}
    }
}
