//! The work budget of one ParSEval call: Z3 resource units counted over every solver check (deterministic: the same call spends the same units on a quiet or a busy machine), with a wall-clock safety cap beside it that is reported apart.
//!
//! Z3 counts its work in "resource units" (`rlimit count` in a solver's statistics: rewriting
//! steps, propagations, conflicts), per context and cumulatively. A search (generate.rs) opens one
//! context per instance size; [`Budget::check`] gives each check the units left (at most
//! [`MAX_UNITS_PER_CHECK`]) as its `rlimit` and, after it, adds what the context has counted to
//! the call's total. The wall-clock cap only guards against a machine so overloaded that even a
//! bounded call would hang its host; reaching it is reported as such, never as a verdict.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use z3::{Params, SatResult, Solver};

/// Most resource units one solver check may spend: a runaway check stops here and counts as
/// "unknown" for its branch; the coverage checks of Spider and BIRD queries stay far below it.
pub const MAX_UNITS_PER_CHECK: u64 = 1_000_000;

/// The units and the wall-clock cap of one call, shared by the searches of both queries.
#[derive(Debug)]
pub struct Work {
    limit: u64,
    /// Units counted in finished contexts and, during a search, up to its last check.
    spent: AtomicU64,
    cap: Instant,
    cap_ms: u64,
    capped: AtomicBool,
}

impl Work {
    /// A call with `units` of solver work, stopped in any case `cap_ms` of wall-clock time from now.
    pub fn new(units: u64, cap_ms: u64) -> Work {
        Work {
            limit: units,
            spent: AtomicU64::new(0),
            cap: Instant::now() + Duration::from_millis(cap_ms),
            cap_ms,
            capped: AtomicBool::new(false),
        }
    }

    /// Units counted so far.
    pub fn spent(&self) -> u64 {
        self.spent.load(Ordering::Relaxed)
    }

    /// The whole budget in units.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// The part of the budget usable until `spent` reaches `stop_at` (at most the limit).
    pub fn until(&self, stop_at: u64) -> Budget<'_> {
        Budget {
            work: self,
            stop_at: stop_at.min(self.limit),
        }
    }

    /// The whole budget.
    pub fn all(&self) -> Budget<'_> {
        self.until(self.limit)
    }

    /// A meter of its own for `units` of this call's work, under the call's wall-clock cap (and
    /// capped already where the call is): what it spends is charged to the call afterwards
    /// ([`Work::charge`]), so work kept and reused (verdict/prediction_suite.rs) costs the same
    /// units whether it was done now or before.
    pub fn part(&self, units: u64) -> Work {
        Work {
            limit: units,
            spent: AtomicU64::new(0),
            cap: self.cap,
            cap_ms: self.cap_ms,
            capped: AtomicBool::new(self.capped()),
        }
    }

    /// Counts `units` spent elsewhere on this call's behalf (a gold suite generated once and
    /// reused, see verdict/gold_suite.rs), and the cap if that work reached it.
    pub fn charge(&self, units: u64, capped: bool) {
        self.spent.fetch_add(units, Ordering::Relaxed);
        if capped {
            self.capped.store(true, Ordering::Relaxed);
        }
    }

    /// The wall-clock instant at which the safety cap stops the call.
    pub fn cap(&self) -> Instant {
        self.cap
    }

    /// True once the wall-clock cap has been seen passed (the result may then depend on load).
    pub fn capped(&self) -> bool {
        self.capped.load(Ordering::Relaxed)
    }

    /// Marks and says whether the wall-clock cap has passed.
    fn past_cap(&self) -> bool {
        if Instant::now() >= self.cap {
            self.capped.store(true, Ordering::Relaxed);
        }
        self.capped()
    }

    /// The reason text of a call stopped by the wall-clock cap.
    pub fn cap_reason(&self) -> String {
        format!(
            "wall-clock safety cap of {} ms reached (the machine is overloaded or the call too \
             large; this result depends on load: raise timeout_ms or lower work)",
            self.cap_ms
        )
    }
}

/// A view of a [`Work`] that stops at a given number of spent units (a query's share).
#[derive(Debug, Clone, Copy)]
pub struct Budget<'a> {
    work: &'a Work,
    stop_at: u64,
}

impl<'a> Budget<'a> {
    /// The call this budget belongs to.
    pub fn work(&self) -> &'a Work {
        self.work
    }

    /// Units left before this budget stops.
    pub fn left(&self) -> u64 {
        self.stop_at.saturating_sub(self.work.spent())
    }

    /// True when no unit is left or the wall-clock cap has passed.
    pub fn exhausted(&self) -> bool {
        self.left() == 0 || self.work.past_cap()
    }

    /// Starts counting a fresh Z3 context (its `rlimit count` starts at zero).
    pub fn context(&self) -> ContextMeter<'a> {
        ContextMeter {
            budget: *self,
            base: self.work.spent(),
        }
    }
}

/// Counts one context's units into the call's total.
#[derive(Debug)]
pub struct ContextMeter<'a> {
    budget: Budget<'a>,
    /// Units spent before this context opened.
    base: u64,
}

impl ContextMeter<'_> {
    /// Checks `solver` under `assumptions` with the units left as its resource limit; `Unknown`
    /// without calling Z3 when the budget is exhausted.
    pub fn check(&self, solver: &Solver, assumptions: &[z3::ast::Bool]) -> SatResult {
        if self.budget.exhausted() {
            return SatResult::Unknown;
        }
        let units = self.budget.left().min(MAX_UNITS_PER_CHECK);
        let mut p = Params::new();
        p.set_u32("rlimit", units.clamp(1, u32::MAX as u64) as u32);
        solver.set_params(&p);
        let _timer = crate::profile::time(crate::profile::Stage::Solving);
        let result = solver.check_assumptions(assumptions);
        self.record(solver);
        result
    }

    /// Adds what the context has counted so far (checks and the rewriting between them).
    fn record(&self, solver: &Solver) {
        let counted = match solver.get_statistics().value("rlimit count") {
            Some(z3::StatisticsValue::UInt(n)) => u64::from(n),
            Some(z3::StatisticsValue::Double(x)) => x.max(0.0) as u64,
            None => 0,
        };
        self.budget
            .work
            .spent
            .fetch_max(self.base + counted, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parseval::search::solver::{bounded_solver, with_bounded_z3};
    use z3::ast::{Bool, Int};

    fn spend(units: u64) -> (SatResult, u64) {
        let work = Work::new(units, 60_000);
        let r = with_bounded_z3(work.cap(), || {
            let meter = work.all().context();
            let s = bounded_solver(0);
            let x = Int::new_const("x");
            let y = Int::new_const("y");
            s.assert((&x * &x + &y * &y).eq(Int::from_i64(1_000_003 * 7)));
            s.assert(x.gt(Int::from_i64(10)));
            meter.check(&s, &[Bool::from_bool(true)])
        })
        .expect("solver");
        (r, work.spent())
    }

    #[test]
    fn counts_the_same_units_every_time() {
        let (r1, u1) = spend(300_000);
        let (r2, u2) = spend(300_000);
        assert_eq!((r1, u1), (r2, u2));
        assert!(u1 > 0);
    }

    #[test]
    fn stops_at_the_budget() {
        let (r, spent) = spend(1_000);
        assert_eq!(r, SatResult::Unknown);
        assert!(spent <= 1_000 + 1_000, "{spent}");
        let work = Work::new(0, 60_000);
        assert!(work.all().exhausted());
    }
}
