//! Canonical ordering, so that queries differing only in operand or join order get the same
//! plan: operands of commutative operators (AND, OR, =, <>, +, *) sorted by their digest, other
//! comparisons oriented the same way (`5 < a` → `a > 5`; literals go last), inputs of UNION and
//! INTERSECT sorted, and trees of inner joins flattened and rebuilt left-deep with inputs sorted
//! by digest and each condition at the lowest join that sees its columns (a Project on top keeps
//! the original column order).

use super::{bottom_up, map_expr_bottom_up, Rule, RuleContext};
use crate::plan::columns::{ColumnId, Columns};
use crate::plan::expr::{Expr, Op};
use crate::plan::node::{Join, JoinKind, Plan, Project, SetKind};

pub struct CanonicalOrder;

impl Rule for CanonicalOrder {
    fn name(&self) -> &'static str {
        "canonical_order"
    }

    fn apply(&self, plan: Plan, cx: &mut RuleContext) -> Plan {
        let columns: &Columns = cx.columns;
        bottom_up(plan, &mut |mut node| {
            for e in node.exprs_mut() {
                let taken = std::mem::replace(e, Expr::TRUE);
                *e = map_expr_bottom_up(taken, &mut |x| order_operands(x, columns));
            }
            match node {
                Plan::Join(j) if j.kind == JoinKind::Inner => reorder_joins(Plan::Join(j), columns),
                Plan::SetOp(mut s) if s.kind != SetKind::Except => {
                    s.inputs.sort_by_cached_key(|i| i.digest(columns));
                    Plan::SetOp(s)
                }
                other => other,
            }
        })
    }
}

fn key(e: &Expr, columns: &Columns) -> (bool, String) {
    (matches!(e, Expr::Literal(_)), e.digest(columns))
}

fn order_operands(e: Expr, columns: &Columns) -> Expr {
    match e {
        Expr::Call(op, mut args) if matches!(op, Op::And | Op::Or) => {
            args.sort_by_cached_key(|a| key(a, columns));
            Expr::Call(op, args)
        }
        Expr::Call(op, mut args) if args.len() == 2 && op.flipped().is_some() => {
            if key(&args[0], columns) > key(&args[1], columns) {
                args.swap(0, 1);
                let flipped = op.flipped().unwrap_or(op);
                return Expr::Call(flipped, args);
            }
            Expr::Call(op, args)
        }
        Expr::Call(op, mut args) if op.is_commutative() && args.len() == 2 => {
            args.sort_by_cached_key(|a| key(a, columns));
            Expr::Call(op, args)
        }
        other => other,
    }
}

/// True for a Project that only passes columns through (a subset or reordering).
fn is_pass_through(p: &Project) -> bool {
    p.items.iter().all(|(id, e)| *e == Expr::Column(*id))
}

fn flatten(plan: Plan, inputs: &mut Vec<Plan>, conditions: &mut Vec<Expr>) {
    match plan {
        Plan::Join(j) if j.kind == JoinKind::Inner => {
            flatten(*j.left, inputs, conditions);
            flatten(*j.right, inputs, conditions);
            conditions.extend(j.condition.conjuncts());
        }
        Plan::Project(p)
            if is_pass_through(&p)
                && matches!(*p.input, Plan::Join(ref j) if j.kind == JoinKind::Inner) =>
        {
            flatten(*p.input, inputs, conditions)
        }
        other => inputs.push(other),
    }
}

fn reorder_joins(plan: Plan, columns: &Columns) -> Plan {
    let output = plan.output();
    let mut inputs = Vec::new();
    let mut conditions = Vec::new();
    flatten(plan, &mut inputs, &mut conditions);
    inputs.sort_by_cached_key(|i| i.digest(columns));
    let mut it = inputs.into_iter();
    let Some(mut acc) = it.next() else {
        return Plan::empty();
    };
    let mut pending = conditions;
    let rest: Vec<Plan> = it.collect();
    let last = rest.len();
    for (k, right) in rest.into_iter().enumerate() {
        let mut visible: Vec<ColumnId> = acc.output();
        visible.extend(right.output());
        let (here, later): (Vec<Expr>, Vec<Expr>) = if k + 1 == last {
            (std::mem::take(&mut pending), Vec::new())
        } else {
            pending.into_iter().partition(|c| c.only_reads(&visible))
        };
        pending = later;
        acc = Plan::Join(Join {
            kind: JoinKind::Inner,
            left: Box::new(acc),
            right: Box::new(right),
            condition: Expr::and(here),
        });
    }
    if acc.output() == output {
        acc
    } else {
        Plan::Project(Project {
            input: Box::new(acc),
            items: output.into_iter().map(|c| (c, Expr::Column(c))).collect(),
        })
    }
}
