//! Predicate pushdown: Filters merge, move below Projects (through the projected expressions),
//! Sorts without a limit, set operations (into every input), Aggregates (conjuncts on group keys
//! only), and into joins; join conditions that read one side only move into that side. Each move
//! respects outer-join semantics: a conjunct never moves to the side whose rows a join preserves
//! unmatched, and never below a LIMIT. Conjuncts holding subqueries or volatile calls stay put.

use super::{bottom_up, Rule, RuleContext};
use crate::plan::columns::ColumnId;
use crate::plan::expr::Expr;
use crate::plan::node::{Filter, Join, JoinKind, Plan, SetOp};

pub struct PushFilters;

impl Rule for PushFilters {
    fn name(&self) -> &'static str {
        "push_filters"
    }

    fn apply(&self, plan: Plan, _cx: &mut RuleContext) -> Plan {
        bottom_up(plan, &mut push)
    }
}

/// `input` filtered by the conjunction of `terms` (the input itself when there are none).
pub fn filter(input: Plan, terms: Vec<Expr>) -> Plan {
    if terms.is_empty() {
        input
    } else {
        Plan::Filter(Filter {
            input: Box::new(input),
            condition: Expr::and(terms),
        })
    }
}

fn movable(e: &Expr) -> bool {
    !e.has_subquery() && !e.is_volatile() && !e.columns().is_empty()
}

fn push(node: Plan) -> Plan {
    match node {
        Plan::Filter(f) => push_filter(*f.input, f.condition),
        Plan::Join(j) => push_join_condition(j),
        other => other,
    }
}

fn push_filter(input: Plan, condition: Expr) -> Plan {
    let terms = condition.conjuncts();
    match input {
        Plan::Filter(inner) => {
            let mut all = inner.condition.conjuncts();
            all.extend(terms);
            push_filter(*inner.input, Expr::and(all))
        }
        Plan::Project(mut p)
            if !p
                .items
                .iter()
                .any(|(_, e)| e.has_subquery() || e.is_volatile()) =>
        {
            let (down, stay): (Vec<Expr>, Vec<Expr>) = terms.into_iter().partition(movable);
            if down.is_empty() {
                return filter(Plan::Project(p), stay);
            }
            let down: Vec<Expr> = down.iter().map(|t| p.inline(t)).collect();
            let inner = std::mem::replace(&mut *p.input, Plan::empty());
            *p.input = push_filter(inner, Expr::and(down));
            filter(Plan::Project(p), stay)
        }
        Plan::Sort(mut s) if s.fetch.is_none() && s.offset.is_none() => {
            let (down, stay): (Vec<Expr>, Vec<Expr>) = terms.into_iter().partition(movable);
            if down.is_empty() {
                return filter(Plan::Sort(s), stay);
            }
            let inner = std::mem::replace(&mut *s.input, Plan::empty());
            *s.input = push_filter(inner, Expr::and(down));
            filter(Plan::Sort(s), stay)
        }
        Plan::Aggregate(mut a) => {
            let keys = a.group.clone();
            let (down, stay): (Vec<Expr>, Vec<Expr>) = terms
                .into_iter()
                .partition(|t| movable(t) && t.only_reads(&keys));
            if down.is_empty() {
                return filter(Plan::Aggregate(a), stay);
            }
            let inner = std::mem::replace(&mut *a.input, Plan::empty());
            *a.input = push_filter(inner, Expr::and(down));
            filter(Plan::Aggregate(a), stay)
        }
        Plan::SetOp(s) => push_into_set_op(s, terms),
        Plan::Join(j) => push_into_join(j, terms),
        other => filter(other, terms),
    }
}

fn push_into_set_op(mut s: SetOp, terms: Vec<Expr>) -> Plan {
    let (down, stay): (Vec<Expr>, Vec<Expr>) = terms.into_iter().partition(movable);
    if down.is_empty() {
        return filter(Plan::SetOp(s), stay);
    }
    let outputs = s.columns.clone();
    let inputs = std::mem::take(&mut s.inputs);
    s.inputs = inputs
        .into_iter()
        .map(|input| {
            let cols = input.output();
            let map = |c: ColumnId| {
                outputs
                    .iter()
                    .position(|o| *o == c)
                    .and_then(|i| cols.get(i))
                    .map(|x| Expr::Column(*x))
            };
            let mapped: Vec<Expr> = down.iter().map(|t| t.substitute(&map)).collect();
            push_filter(input, Expr::and(mapped))
        })
        .collect();
    filter(Plan::SetOp(s), stay)
}

/// Which sides of a join may receive a conjunct: (left, right, into the condition).
fn targets(kind: JoinKind) -> (bool, bool, bool) {
    match kind {
        JoinKind::Inner => (true, true, true),
        JoinKind::Left => (true, false, false),
        JoinKind::Right => (false, true, false),
        JoinKind::Full => (false, false, false),
        JoinKind::Semi | JoinKind::Anti => (true, false, false),
    }
}

fn push_into_join(mut j: Join, terms: Vec<Expr>) -> Plan {
    let (to_left, to_right, to_condition) = targets(j.kind);
    let (lo, ro) = (j.left.output(), j.right.output());
    let (mut left, mut right, mut cond, mut stay) = (vec![], vec![], vec![], vec![]);
    for t in terms {
        if !movable(&t) {
            stay.push(t);
        } else if to_left && t.only_reads(&lo) {
            left.push(t);
        } else if to_right && t.only_reads(&ro) {
            right.push(t);
        } else if to_condition {
            cond.push(t);
        } else {
            stay.push(t);
        }
    }
    if !left.is_empty() {
        let l = std::mem::replace(&mut *j.left, Plan::empty());
        *j.left = push_filter(l, Expr::and(left));
    }
    if !right.is_empty() {
        let r = std::mem::replace(&mut *j.right, Plan::empty());
        *j.right = push_filter(r, Expr::and(right));
    }
    if !cond.is_empty() {
        let mut all = std::mem::replace(&mut j.condition, Expr::TRUE).conjuncts();
        all.extend(cond);
        j.condition = Expr::and(all);
    }
    filter(push_join_condition(j), stay)
}

/// Which sides a join condition's conjunct may move to: (left, right).
fn condition_targets(kind: JoinKind) -> (bool, bool) {
    match kind {
        JoinKind::Inner | JoinKind::Semi => (true, true),
        JoinKind::Left | JoinKind::Anti => (false, true),
        JoinKind::Right => (true, false),
        JoinKind::Full => (false, false),
    }
}

fn push_join_condition(mut j: Join) -> Plan {
    let (to_left, to_right) = condition_targets(j.kind);
    let (lo, ro) = (j.left.output(), j.right.output());
    let (mut left, mut right, mut keep) = (vec![], vec![], vec![]);
    for t in std::mem::replace(&mut j.condition, Expr::TRUE).conjuncts() {
        if movable(&t) && to_left && t.only_reads(&lo) {
            left.push(t);
        } else if movable(&t) && to_right && t.only_reads(&ro) {
            right.push(t);
        } else {
            keep.push(t);
        }
    }
    j.condition = Expr::and(keep);
    if !left.is_empty() {
        let l = std::mem::replace(&mut *j.left, Plan::empty());
        *j.left = push_filter(l, Expr::and(left));
    }
    if !right.is_empty() {
        let r = std::mem::replace(&mut *j.right, Plan::empty());
        *j.right = push_filter(r, Expr::and(right));
    }
    Plan::Join(j)
}
