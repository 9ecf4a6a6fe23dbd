//! Stage timings of the similarity calls, for the bench: off unless `SQLSIM_PROFILE=1` is set
//! when the library loads; `sqlsim_debug()` reports them under `stages`.
//!
//! Each stage adds the wall-clock time of its intervals, summed over every thread, into a
//! process-wide counter: the verdict's search for databases (`generation`, its Z3 checks
//! excluded), the Z3 checks (`solving`), loading generated databases into SQLite and running
//! both queries on them (`queries`), making value variants and random databases (`databases`),
//! the GMN scores (`gmn`), and whole `sql_similarity` calls (`calls`; what the others leave of it
//! is parsing, planning, the other scores and the glue). The timings are only ever written here
//! and read by `sqlsim_debug()`: no result depends on them (budgets count work, never time).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

/// A stage of a similarity call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// A search for databases, its solver checks included (reported without them).
    Generation,
    /// Z3 checks.
    Solving,
    /// Loading a database into SQLite and running queries on it.
    Queries,
    /// Making value variants and random databases.
    Databases,
    /// The GMN scores (graphs and ONNX Runtime).
    Gmn,
    /// A whole `sql_similarity` call.
    Calls,
}

const STAGES: [Stage; 6] = [
    Stage::Generation,
    Stage::Solving,
    Stage::Queries,
    Stage::Databases,
    Stage::Gmn,
    Stage::Calls,
];

impl Stage {
    fn index(self) -> usize {
        self as usize
    }

    /// The stage's key in the report.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Generation => "generation",
            Stage::Solving => "solving",
            Stage::Queries => "queries",
            Stage::Databases => "databases",
            Stage::Gmn => "gmn",
            Stage::Calls => "calls",
        }
    }
}

static NANOS: [AtomicU64; 6] = [const { AtomicU64::new(0) }; 6];
static COUNTS: [AtomicU64; 6] = [const { AtomicU64::new(0) }; 6];

/// True when `SQLSIM_PROFILE` was `1` at the first look (read once per process).
pub fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var("SQLSIM_PROFILE").is_ok_and(|v| v == "1"))
}

/// An interval of `stage`, added to its counter when dropped (nothing when profiling is off).
pub struct Timer {
    stage: Stage,
    start: Option<Instant>,
}

impl Drop for Timer {
    fn drop(&mut self) {
        if let Some(start) = self.start {
            let nanos = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
            NANOS[self.stage.index()].fetch_add(nanos, Ordering::Relaxed);
            COUNTS[self.stage.index()].fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// Starts an interval of `stage`; it ends when the returned timer is dropped.
pub fn time(stage: Stage) -> Timer {
    Timer {
        stage,
        start: enabled().then(Instant::now),
    }
}

/// One stage of [`report`]: seconds (summed over threads) and intervals.
#[derive(Debug, Clone, PartialEq)]
pub struct StageTime {
    pub name: &'static str,
    pub seconds: f64,
    pub count: u64,
}

/// The stages so far, `generation` without the solver checks inside it; empty when profiling
/// is off.
pub fn report() -> Vec<StageTime> {
    if !enabled() {
        return Vec::new();
    }
    let nanos = |s: Stage| NANOS[s.index()].load(Ordering::Relaxed);
    STAGES
        .iter()
        .map(|&s| {
            let n = match s {
                Stage::Generation => nanos(s).saturating_sub(nanos(Stage::Solving)),
                _ => nanos(s),
            };
            StageTime {
                name: s.name(),
                seconds: n as f64 / 1e9,
                count: COUNTS[s.index()].load(Ordering::Relaxed),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timer_counts_only_when_profiling_is_on() {
        let before = COUNTS[Stage::Gmn.index()].load(Ordering::Relaxed);
        drop(time(Stage::Gmn));
        let after = COUNTS[Stage::Gmn.index()].load(Ordering::Relaxed);
        assert_eq!(after - before, u64::from(enabled()));
        assert_eq!(report().len(), if enabled() { STAGES.len() } else { 0 });
    }
}
