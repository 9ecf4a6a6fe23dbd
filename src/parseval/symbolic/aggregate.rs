//! Aggregate functions over a symbolic group: COUNT, SUM, TOTAL, AVG, MIN, MAX as Z3 terms (SQL's NULL rules included; the rest unmodelled), and the coverage branches of their arguments.

use z3::ast::{Bool, Int, Real};

use super::execute::any;
use super::speculative_text::ite_branch_count;
use super::values::{as_real, ite_term, lt_counted, term_branches, SymVal, Term};
use crate::plan::AggFunc;

/// A live row of one group whose non-NULL argument another row of the group repeats, while a
/// third row of the group holds a different one: an average moves when a join repeats a row only
/// if the group holds another value (the AVG of 2 and 2 is the AVG of 2), so for AVG this branch
/// replaces [`repeated_argument`]. Quadratic in the rows: each row's "repeated" and "another
/// value" conditions are built once.
fn repeated_beside_another(
    rows: &[super::values::SymRow],
    p: usize,
    same_group: &dyn Fn(usize, usize) -> Bool,
) -> Bool {
    let value = |i: usize| Bool::and(&[rows[i].exists.clone(), rows[i].vals[p].null.not()]);
    let mut found = Vec::new();
    for i in 0..rows.len() {
        let (mut repeated, mut another) = (Vec::new(), Vec::new());
        for j in (0..rows.len()).filter(|&j| j != i) {
            let same = super::values::same_value(&rows[i].vals[p], &rows[j].vals[p]);
            let together = Bool::and(&[value(j), same_group(i, j)]);
            repeated.push(Bool::and(&[together.clone(), same.clone()]));
            another.push(Bool::and(&[together, same.not()]));
        }
        found.push(Bool::and(&[value(i), any(repeated), any(another)]));
    }
    any(found)
}

/// How many of the rows are live (their conditions true), as an integer term.
pub(super) fn count(live: &[Bool]) -> Int {
    let terms: Vec<Int> = live
        .iter()
        .map(|c| c.ite(&Int::from_i64(1), &Int::from_i64(0)))
        .collect();
    if terms.is_empty() {
        Int::from_i64(0)
    } else {
        Int::add(&terms)
    }
}

fn none(live: &[Bool]) -> Bool {
    if live.is_empty() {
        Bool::from_bool(true)
    } else {
        Bool::or(live).not()
    }
}

/// Two live rows of one group with the same non-NULL argument (the `p`th value of each of
/// `rows`): where `COUNT(a)` and `COUNT(DISTINCT a)` part, and where a join repeats a row.
fn repeated_argument(
    rows: &[super::values::SymRow],
    p: usize,
    same_group: &dyn Fn(usize, usize) -> Bool,
) -> Bool {
    let mut pairs = Vec::new();
    for i in 0..rows.len() {
        for j in 0..i {
            let (a, b) = (&rows[i], &rows[j]);
            pairs.push(Bool::and(&[
                a.exists.clone(),
                b.exists.clone(),
                same_group(i, j),
                a.vals[p].null.not(),
                super::values::same_value(&a.vals[p], &b.vals[p]),
            ]));
        }
    }
    any(pairs)
}

/// The value of `func` over the rows whose `live` flag holds (member of the group, argument not
/// NULL, first occurrence under DISTINCT); `rep` is the group's representative row's argument.
pub fn call(func: &AggFunc, live: &[Bool], vals: &[&SymVal], rep: Option<&SymVal>) -> SymVal {
    match func {
        AggFunc::Count => SymVal::of(Term::Int(count(live))),
        AggFunc::Sum | AggFunc::Total | AggFunc::Avg => {
            let all_int = vals.iter().all(|v| matches!(v.term, Some(Term::Int(_))));
            let modelled = vals
                .iter()
                .all(|v| matches!(v.term, Some(Term::Int(_) | Term::Real(_))));
            if !modelled {
                return SymVal::unknown();
            }
            let sum = if all_int && matches!(func, AggFunc::Sum) {
                let terms: Vec<Int> = live
                    .iter()
                    .zip(vals)
                    .filter_map(|(l, v)| match &v.term {
                        Some(Term::Int(x)) => Some(l.ite(x, &Int::from_i64(0))),
                        _ => None,
                    })
                    .collect();
                Term::Int(if terms.is_empty() {
                    Int::from_i64(0)
                } else {
                    Int::add(&terms)
                })
            } else {
                let terms: Vec<Real> = live
                    .iter()
                    .zip(vals)
                    .filter_map(|(l, v)| {
                        Some(l.ite(&as_real(v.term.as_ref()?)?, &Real::from_rational(0, 1)))
                    })
                    .collect();
                Term::Real(if terms.is_empty() {
                    Real::from_rational(0, 1)
                } else {
                    Real::add(&terms)
                })
            };
            match func {
                AggFunc::Total => SymVal::of(sum),
                AggFunc::Sum => SymVal {
                    term: Some(sum),
                    null: none(live),
                },
                _ => {
                    let n = count(live).to_real();
                    let avg = as_real(&sum).map(|s| {
                        let zero = n.eq(Real::from_rational(0, 1));
                        Term::Real(zero.ite(&Real::from_rational(0, 1), &s.div(&n)))
                    });
                    SymVal {
                        term: avg,
                        null: none(live),
                    }
                }
            }
        }
        AggFunc::Min | AggFunc::Max => {
            // (value, its branch count when a text, seen): the running value is an if-then-else
            // over the rows' values, whose branch count grows by each row's
            let mut best: Option<(Term, Option<usize>, Bool)> = None;
            for (l, v) in live.iter().zip(vals) {
                let Some(t) = &v.term else {
                    return SymVal::unknown();
                };
                let t_branches = term_branches(t);
                best = Some(match best {
                    None => (t.clone(), t_branches, l.clone()),
                    Some((cur, cur_branches, seen)) => {
                        let better = if matches!(func, AggFunc::Min) {
                            lt_counted((t, t_branches), (&cur, cur_branches))
                        } else {
                            lt_counted((&cur, cur_branches), (t, t_branches))
                        };
                        let Some(better) = better else {
                            return SymVal::unknown();
                        };
                        let take = Bool::and(&[l.clone(), Bool::or(&[seen.not(), better])]);
                        let Some(next) = ite_term(&take, t, &cur) else {
                            return SymVal::unknown();
                        };
                        let next_branches = ite_branch_count(t_branches, cur_branches);
                        (next, next_branches, Bool::or(&[seen, l.clone()]))
                    }
                });
            }
            match best {
                Some((t, _, seen)) => SymVal {
                    term: Some(t),
                    null: seen.not(),
                },
                None => SymVal::null(),
            }
        }
        AggFunc::AnyValue => rep.cloned().unwrap_or_else(SymVal::null),
        AggFunc::GroupConcat => SymVal {
            term: None,
            null: none(live),
        },
    }
}

impl super::execute::Executor<'_> {
    /// The branches of each aggregate call's argument column: a NULL next to a value (`COUNT(col)`
    /// against `COUNT(*)`, `AVG` against `SUM / COUNT(*)`), a NULL, and a repeated value.
    pub(super) fn argument_branches(
        &mut self,
        op: usize,
        calls: &[crate::plan::AggCall],
        input: &super::values::SymRel,
        same_group: &dyn Fn(usize, usize) -> Bool,
    ) {
        for call in calls {
            if let Some(p) = call.args.first().and_then(|c| input.position(*c)) {
                let nulls: Vec<Bool> = input
                    .rows
                    .iter()
                    .map(|r| Bool::and(&[r.exists.clone(), r.vals[p].null.clone()]))
                    .collect();
                let values: Vec<Bool> = input
                    .rows
                    .iter()
                    .map(|r| Bool::and(&[r.exists.clone(), r.vals[p].null.not()]))
                    .collect();
                let name = call.func.name();
                // NULL next to a value: COUNT(col) against COUNT(*), AVG against SUM / COUNT(*)
                let mixed = Bool::and(&[any(nulls.clone()), any(values)]);
                self.branch(
                    format!("Aggregate#{op} NULL and non-NULL arguments of {name}"),
                    false,
                    mixed,
                );
                self.branch(
                    format!("Aggregate#{op} NULL argument of {name}"),
                    false,
                    any(nulls),
                );
                if matches!(call.func, AggFunc::Avg) {
                    self.branch(
                        format!("Aggregate#{op} a repeated argument of {name} beside another"),
                        false,
                        repeated_beside_another(&input.rows, p, same_group),
                    );
                } else {
                    self.branch(
                        format!("Aggregate#{op} a repeated argument of {name}"),
                        false,
                        repeated_argument(&input.rows, p, same_group),
                    );
                }
            }
        }
    }
}
