//! Covering branches with databases at one instance size: each pending branch and each
//! preference is an indicator literal asserted to imply it; greedy subsets of branches are
//! checked as assumptions (never pushed) and each model becomes one database.

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

/// A branch still to cover, by its indicator literal (asserted to imply the branch).
pub(super) struct Pending {
    label: String,
    positive: bool,
    indicator: Bool,
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
) -> Vec<Bool> {
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
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let indicator = Bool::new_const(format!("prefer_{k}"));
            solver.assert(indicator.implies(p));
            indicator
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
    preferences: &[Bool],
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
        let (chosen, mut assumed, ran_out) =
            choose(solver, meter, &pending, positives_only, mode, budget);
        exhausted |= ran_out;
        let mut model = None;
        if !chosen.is_empty() && !budget.exhausted() {
            model = preferred_model(solver, meter, &mut assumed, preferences);
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

/// The pending branches (their positions) that are satisfiable together, added greedily in
/// order, with the assumptions that hold them; at most one negative in [`Mode::OneNegative`],
/// none when `positives_only`. `true` when the budget ran out on the way.
fn choose(
    solver: &Solver,
    meter: &ContextMeter<'_>,
    pending: &[Pending],
    positives_only: bool,
    mode: Mode,
    budget: Budget<'_>,
) -> (Vec<usize>, Vec<Bool>, bool) {
    // branches are tried as assumptions (indicator literals), never pushed: a push
    // propagates outside the checks' time and resource limits
    let mut chosen: Vec<usize> = Vec::new();
    let mut assumed: Vec<Bool> = Vec::new();
    let mut negatives = 0;
    for (k, b) in pending.iter().enumerate() {
        if budget.exhausted() {
            return (chosen, assumed, true);
        }
        if !b.positive && (positives_only || (mode == Mode::OneNegative && negatives == 1)) {
            continue;
        }
        assumed.push(b.indicator.clone());
        if meter.check(solver, &assumed) == SatResult::Sat {
            chosen.push(k);
            negatives += usize::from(!b.positive);
        } else {
            assumed.pop();
        }
    }
    (chosen, assumed, false)
}

/// A model of `assumed` under the first preference that allows one, else under none.
fn preferred_model(
    solver: &Solver,
    meter: &ContextMeter<'_>,
    assumed: &mut Vec<Bool>,
    preferences: &[Bool],
) -> Option<Model> {
    for preference in preferences {
        assumed.push(preference.clone());
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
    if meter.check(solver, assumed) == SatResult::Sat {
        return solver.get_model();
    }
    None
}
