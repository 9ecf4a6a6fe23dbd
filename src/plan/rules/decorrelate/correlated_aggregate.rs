//! A correlated scalar subquery over an aggregate without GROUP BY, correlated only by equalities
//! (`(SELECT avg(y) FROM t WHERE t.k = o.k AND ...)`), becomes a left join with the aggregate grouped
//! by the correlated columns. Exact: a left row whose key finds no group gets NULL for every
//! aggregate, which is what the aggregate of no rows gives, except COUNT and TOTAL, read through
//! `coalesce(x, 0)`; a NULL key matches no group, as `t.k = NULL` matches no row.

use crate::plan::columns::ColumnId;
use crate::plan::expr::{AggFunc, Expr, Literal, Op};
use crate::plan::node::{Aggregate, Join, JoinKind, Plan};
use crate::plan::rules::push_filters::filter;

/// The left join replacing the scalar subquery `sub` over `left`, and the expression that now
/// gives the subquery's value; `left` and `None` when the subquery does not have the supported
/// shape.
pub fn left_join_aggregate(left: Plan, sub: &Plan) -> (Plan, Option<Expr>) {
    let Some(parts) = split(&left, sub) else {
        return (left, None);
    };
    let Parts {
        value,
        aggregate,
        input,
        keys,
        local,
    } = parts;
    let mut right_group = Vec::new();
    let mut condition = Vec::new();
    for (inner, outer) in keys {
        if !right_group.contains(&inner) {
            right_group.push(inner);
        }
        condition.push(Expr::call(
            Op::Eq,
            vec![Expr::Column(outer), Expr::Column(inner)],
        ));
    }
    let empty_value = |c: ColumnId| {
        aggregate
            .calls
            .iter()
            .find(|x| x.id == c)
            .and_then(|x| match x.func {
                AggFunc::Count => Some(Expr::Literal(Literal::Integer(0))),
                AggFunc::Total => Some(Expr::Literal(Literal::Real(0.0))),
                _ => None,
            })
    };
    let value = value.substitute(&|c| {
        empty_value(c)
            .map(|zero| Expr::call(Op::Function("coalesce".into()), vec![Expr::Column(c), zero]))
    });
    let right = Plan::Aggregate(Aggregate {
        input: Box::new(filter(input, local)),
        group: right_group,
        calls: aggregate.calls,
    });
    let joined = Plan::Join(Join {
        kind: JoinKind::Left,
        left: Box::new(left),
        right: Box::new(right),
        condition: Expr::and(condition),
    });
    (joined, Some(value))
}

struct Parts {
    /// The subquery's value over the aggregate's outputs.
    value: Expr,
    aggregate: Aggregate,
    /// The aggregate's input below the correlated Filter.
    input: Plan,
    /// (inner column, outer column) equalities.
    keys: Vec<(ColumnId, ColumnId)>,
    /// The Filter's uncorrelated conjuncts.
    local: Vec<Expr>,
}

fn split(left: &Plan, sub: &Plan) -> Option<Parts> {
    let mut value = Expr::Column(*sub.output().first()?);
    let mut plan = sub;
    loop {
        match plan {
            Plan::Project(p) => {
                if p.items
                    .iter()
                    .any(|(_, e)| e.has_subquery() || e.is_volatile())
                {
                    return None;
                }
                value = p.inline(&value);
                plan = &p.input;
            }
            Plan::Aggregate(a) if a.group.is_empty() => {
                let Plan::Filter(f) = &*a.input else {
                    return None;
                };
                let inner = f.input.output();
                if !f.input.outer_references().is_empty() {
                    return None;
                }
                let outer = left.output();
                let mut keys = Vec::new();
                let mut local = Vec::new();
                for term in f.condition.clone().conjuncts() {
                    if term.only_reads(&inner) {
                        local.push(term);
                        continue;
                    }
                    match &term {
                        Expr::Call(Op::Eq, args) => match args.as_slice() {
                            [Expr::Column(a), Expr::Column(b)]
                                if inner.contains(a) && outer.contains(b) =>
                            {
                                keys.push((*a, *b))
                            }
                            [Expr::Column(a), Expr::Column(b)]
                                if inner.contains(b) && outer.contains(a) =>
                            {
                                keys.push((*b, *a))
                            }
                            _ => return None,
                        },
                        _ => return None,
                    }
                }
                if keys.is_empty() {
                    return None;
                }
                let calls_only =
                    value.only_reads(&a.calls.iter().map(|c| c.id).collect::<Vec<_>>());
                if !calls_only {
                    return None;
                }
                return Some(Parts {
                    value,
                    aggregate: Aggregate {
                        input: Box::new(Plan::empty()),
                        group: vec![],
                        calls: a.calls.clone(),
                    },
                    input: (*f.input).clone(),
                    keys,
                    local,
                });
            }
            _ => return None,
        }
    }
}
