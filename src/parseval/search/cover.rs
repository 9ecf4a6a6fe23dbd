//! Covering branches with databases at one instance size: each pending branch and each
//! preference is an indicator literal asserted to imply it; greedy subsets of branches are
//! checked as assumptions (never pushed) and each model becomes one database.
//!
//! The greedy cover asks the solver only where the last model found does not already answer:
//! a branch (or a preference) whose condition holds in a model of the branches chosen so far is
//! satisfiable with them, so it is taken without a check. The branches chosen are those a check
//! of each would choose (wherever the checks are decided); the solver runs far fewer checks.

use std::collections::HashSet;

use z3::ast::Bool;
use z3::{Model, SatResult, Solver};

use super::generate::Instance;
use super::work_budget::{Budget, ContextMeter};
use crate::parseval::options::Mode;
use crate::parseval::symbolic::database::SymDb;
use crate::parseval::symbolic::execute::Branch;

/// Most databases generated at one instance size.
const MAX_INSTANCES_PER_SIZE: usize = 6;

/// A branch still to cover, by its indicator literal (asserted to imply the branch) and its
/// condition (evaluated in the models found).
pub(super) struct Pending {
    label: String,
    positive: bool,
    indicator: Bool,
    cond: Bool,
}

/// A preference for a model: its indicator literal (asserted to imply it) and its condition.
pub(super) struct Preference {
    indicator: Bool,
    cond: Bool,
}

/// True when `cond` is true in `model` (completed: a symbol the model leaves open is free in
/// every assertion, so any value keeps the model a model); false when false or not decided.
fn holds(model: &Model, cond: &Bool) -> bool {
    model
        .eval(cond, true)
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
}

/// The branches not yet `done`, each asserted as implied by a fresh indicator literal (tried
/// later as an assumption).
pub(super) fn assert_pending(
    solver: &Solver,
    branches: Vec<Branch>,
    done: &HashSet<String>,
) -> Vec<Pending> {
    branches
        .into_iter()
        .filter(|b| !done.contains(&b.label))
        .enumerate()
        .map(|(k, b)| {
            let indicator = Bool::new_const(format!("branch_{k}"));
            solver.assert(indicator.implies(&b.cond));
            Pending {
                label: b.label,
                positive: b.positive,
                indicator,
                cond: b.cond,
            }
        })
        .collect()
}

/// Preferences for a model, strongest first, as indicator literals: tie-free (an ordered
/// LIMIT's result is then determined) and diverse, then diverse only.
pub(super) fn assert_preferences(
    solver: &Solver,
    avoid: &[Bool],
    diversity: [Bool; 2],
) -> Vec<Preference> {
    let no_ties: Vec<Bool> = avoid.iter().map(|a| a.not()).collect();
    let mut wanted: Vec<Bool> = Vec::new();
    if !no_ties.is_empty() {
        for d in &diversity {
            let mut all = no_ties.clone();
            all.push(d.clone());
            wanted.push(Bool::and(&all));
        }
    }
    wanted.extend(diversity);
    wanted
        .into_iter()
        .enumerate()
        .map(|(k, cond)| {
            let indicator = Bool::new_const(format!("prefer_{k}"));
            solver.assert(indicator.implies(&cond));
            Preference { indicator, cond }
        })
        .collect()
}

/// Up to [`MAX_INSTANCES_PER_SIZE`] databases, each from a model of a greedy subset of the
/// `pending` branches, until they are all covered, no model is found or the budget runs out
/// (then `true`).
pub(super) fn cover(
    solver: &Solver,
    meter: &ContextMeter<'_>,
    db: &SymDb,
    mut pending: Vec<Pending>,
    preferences: &[Preference],
    mode: Mode,
    budget: Budget<'_>,
) -> (Vec<Instance>, bool) {
    let mut made: Vec<Instance> = Vec::new();
    let mut exhausted = false;
    for round in 0..MAX_INSTANCES_PER_SIZE {
        if pending.is_empty() {
            break;
        }
        // the first database of a size covers positive branches only (Algorithm 1)
        let positives_only = round == 0 && pending.iter().any(|b| b.positive);
        let (chosen, mut assumed, witness, ran_out) =
            choose(solver, meter, &pending, positives_only, mode, budget);
        exhausted |= ran_out;
        let mut model = None;
        if !chosen.is_empty() && !budget.exhausted() {
            model = preferred_model(solver, meter, &mut assumed, witness, preferences);
        }
        let Some(model) = model else {
            break;
        };
        let covered: Vec<String> = chosen.iter().map(|&k| pending[k].label.clone()).collect();
        made.push(Instance {
            db: db.concretize(&model),
            covered,
        });
        let chosen: HashSet<usize> = chosen.into_iter().collect();
        pending = pending
            .into_iter()
            .enumerate()
            .filter(|(k, _)| !chosen.contains(k))
            .map(|(_, b)| b)
            .collect();
        if exhausted {
            break;
        }
    }
    (made, exhausted)
}

/// What [`choose`] gives: the positions of the chosen branches, the assumptions that hold them,
/// a model of them all (when one was found), and whether the budget ran out on the way.
type Chosen = (Vec<usize>, Vec<Bool>, Option<Model>, bool);

/// The pending branches (their positions) that are satisfiable together, added greedily in
/// order, with the assumptions that hold them and a model of them; at most one negative in
/// [`Mode::OneNegative`], none when `positives_only`. A branch that holds in the model of those
/// chosen before it is chosen without a check. `true` when the budget ran out on the way.
fn choose(
    solver: &Solver,
    meter: &ContextMeter<'_>,
    pending: &[Pending],
    positives_only: bool,
    mode: Mode,
    budget: Budget<'_>,
) -> Chosen {
    // branches are tried as assumptions (indicator literals), never pushed: a push
    // propagates outside the checks' time and resource limits
    let mut chosen: Vec<usize> = Vec::new();
    let mut assumed: Vec<Bool> = Vec::new();
    let mut witness: Option<Model> = None;
    let mut negatives = 0;
    for (k, b) in pending.iter().enumerate() {
        if budget.exhausted() {
            return (chosen, assumed, witness, true);
        }
        if !b.positive && (positives_only || (mode == Mode::OneNegative && negatives == 1)) {
            continue;
        }
        assumed.push(b.indicator.clone());
        let taken = witness.as_ref().is_some_and(|m| holds(m, &b.cond));
        if taken || meter.check(solver, &assumed) == SatResult::Sat {
            if !taken {
                witness = solver.get_model();
            }
            chosen.push(k);
            negatives += usize::from(!b.positive);
        } else {
            assumed.pop();
        }
    }
    (chosen, assumed, witness, false)
}

/// A model of `assumed` under the first preference that allows one, else under none; `witness`
/// (a model of `assumed`) when the preference holds in it.
fn preferred_model(
    solver: &Solver,
    meter: &ContextMeter<'_>,
    assumed: &mut Vec<Bool>,
    witness: Option<Model>,
    preferences: &[Preference],
) -> Option<Model> {
    for preference in preferences {
        if witness.as_ref().is_some_and(|m| holds(m, &preference.cond)) {
            return witness;
        }
        assumed.push(preference.indicator.clone());
        let model = if meter.check(solver, assumed) == SatResult::Sat {
            solver.get_model()
        } else {
            None
        };
        assumed.pop();
        if model.is_some() {
            return model;
        }
    }
    if witness.is_some() {
        return witness;
    }
    if meter.check(solver, assumed) == SatResult::Sat {
        return solver.get_model();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parseval::search::solver::{bounded_solver, with_bounded_z3};
    use crate::parseval::search::work_budget::Work;
    use z3::ast::Int;

    #[test]
    fn a_branch_the_last_model_satisfies_costs_no_check() {
        let work = Work::new(1_000_000, 60_000);
        let (chosen, checks, all_hold) = with_bounded_z3(work.cap(), || {
            let meter = work.all().context();
            let solver = bounded_solver(0);
            let x = Int::new_const("x");
            let branch = |label: &str, cond: Bool| Branch {
                label: label.into(),
                positive: true,
                cond,
            };
            let branches = vec![
                branch("x > 0", x.gt(Int::from_i64(0))),
                // holds in every model of the first: chosen without a check
                branch("x > -5", x.gt(Int::from_i64(-5))),
                branch("x < 0", x.lt(Int::from_i64(0))),
                branch("x > 3", x.gt(Int::from_i64(3))),
            ];
            let conds: Vec<Bool> = branches.iter().map(|b| b.cond.clone()).collect();
            let pending = assert_pending(&solver, branches, &HashSet::new());
            let (chosen, _, witness, ran_out) =
                choose(&solver, &meter, &pending, false, Mode::All, work.all());
            assert!(!ran_out);
            let model = witness.expect("a model of the chosen branches");
            let all_hold = chosen.iter().all(|&k| holds(&model, &conds[k]));
            (chosen, meter.checks(), all_hold)
        })
        .expect("solver");
        // the branches a check of each would choose, in fewer checks than branches
        assert_eq!(chosen, [0, 1, 3]);
        assert!(checks < 4, "{checks} checks");
        assert!(all_hold);
    }
}
