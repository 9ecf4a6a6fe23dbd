//! Bounded Z3 solving: one fresh context per call, a memory cap shared by at most a few contexts at once, and a watchdog at the call's wall-clock safety cap (the deterministic resource limit per check is set by work_budget.rs).

use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

use z3::{Config, Context, Params, Solver};

use crate::error::panic_message;
use crate::parseval::SearchError;

/// Time past the deadline before the watchdog interrupts Z3.
const WATCHDOG_GRACE: Duration = Duration::from_millis(50);

/// Most memory (MiB) Z3 may hold in one process; set once, process-wide (Z3's own global cap).
pub const MAX_MEMORY_MB: u32 = 1024;

/// Most Z3 contexts alive at once in one process. A context holds about 16 MiB, 40 while it
/// solves, and all share [`MAX_MEMORY_MB`]: with 16 at once (16 DuckDB threads, 16 SQLite
/// connections) Z3 could not create the next one. Callers beyond it wait for a free slot; what
/// each computes does not change (budgets count work, not time).
pub const MAX_CONCURRENT_CONTEXTS: usize = 8;

/// The linked libz3's version string, e.g. `5.4.0.0`.
pub fn z3_version() -> String {
    z3::full_version().to_string()
}

fn set_memory_cap() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        z3::set_global_param("memory_max_size", &MAX_MEMORY_MB.to_string());
        z3::set_global_param("encoding", crate::parseval::symbolic::z3_text::Z3_ENCODING);
    });
}

thread_local! {
    /// Set while this thread runs a solving closure: a panic there is a Z3 failure the caller
    /// reports as its result, not a bug to print on the host's stderr.
    static SOLVING: Cell<bool> = const { Cell::new(false) };
}

/// Wraps this library's panic hook (each Rust library has its own) once: a panic inside a
/// solving closure prints nothing, any other panic prints as before.
fn quiet_solver_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !SOLVING.with(Cell::get) {
                previous(info);
            }
        }));
    });
}

/// Marks the current thread as solving until dropped (also while unwinding).
struct Solving {
    was: bool,
}

impl Solving {
    fn start() -> Solving {
        Solving {
            was: SOLVING.with(|s| s.replace(true)),
        }
    }
}

impl Drop for Solving {
    fn drop(&mut self) {
        SOLVING.with(|s| s.set(self.was));
    }
}

/// The slots of [`MAX_CONCURRENT_CONTEXTS`]: how many are taken, and a signal when one frees.
struct Slots {
    taken: Mutex<usize>,
    freed: Condvar,
}

fn slots() -> &'static Slots {
    static SLOTS: OnceLock<Slots> = OnceLock::new();
    SLOTS.get_or_init(|| Slots {
        taken: Mutex::new(0),
        freed: Condvar::new(),
    })
}

/// A taken slot, given back when dropped (also when the solver panics).
struct Slot;

impl Slot {
    fn take() -> Slot {
        let s = slots();
        let mut taken = s.taken.lock().unwrap_or_else(|p| p.into_inner());
        while *taken >= MAX_CONCURRENT_CONTEXTS {
            taken = s.freed.wait(taken).unwrap_or_else(|p| p.into_inner());
        }
        *taken += 1;
        Slot
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let s = slots();
        let mut taken = s.taken.lock().unwrap_or_else(|p| p.into_inner());
        *taken -= 1;
        s.freed.notify_one();
    }
}

/// Runs `f` with a fresh Z3 context, once one of [`MAX_CONCURRENT_CONTEXTS`] slots is free; a
/// watchdog thread interrupts every Z3 operation of that context once `deadline` (the call's
/// wall-clock safety cap) has passed: checks stop at their resource limit, but rewriting outside
/// a check has no other bound. Err when Z3 fails (a context it cannot create, memory beyond
/// [`MAX_MEMORY_MB`]: the z3 crate panics on a null result), so the caller reports no verdict
/// instead of failing the statement; such a panic prints nothing on the host's stderr.
pub fn with_bounded_z3<R: Send + Sync>(
    deadline: Instant,
    f: impl FnOnce() -> R + Send + Sync,
) -> Result<R, SearchError> {
    set_memory_cap();
    quiet_solver_panics();
    let _slot = Slot::take();
    let _solving = Solving::start();
    catch_unwind(AssertUnwindSafe(|| run_in_context(deadline, f)))
        .map_err(|payload| SearchError::Solver(panic_message(&*payload)))
}

fn run_in_context<R: Send + Sync>(deadline: Instant, f: impl FnOnce() -> R + Send + Sync) -> R {
    let mut cfg = Config::new();
    cfg.set_model_generation(true);
    z3::with_z3_config(&cfg, || {
        let ctx = Context::thread_local();
        let handle = ctx.handle();
        let (done, wait) = mpsc::channel::<()>();
        std::thread::scope(|scope| {
            // owned by this closure, so a panic in `f` drops it while unwinding: the watchdog
            // sees the channel close and ends at once, instead of the scope waiting out the
            // deadline for it
            let done = done;
            scope.spawn(move || {
                let left = deadline.saturating_duration_since(Instant::now()) + WATCHDOG_GRACE;
                if let Err(RecvTimeoutError::Timeout) = wait.recv_timeout(left) {
                    handle.interrupt();
                }
            });
            let out = f();
            let _ = done.send(());
            out
        })
    })
}

/// A solver with the random seed applied; use inside [`with_bounded_z3`] and check it through
/// a [`super::work_budget::ContextMeter`], which sets each check's resource limit.
pub fn bounded_solver(seed: u32) -> Solver {
    let s = Solver::new();
    let mut p = Params::new();
    p.set_u32("random_seed", seed);
    s.set_params(&p);
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::ast::{Int, String as ZString};
    use z3::SatResult;

    #[test]
    fn a_failing_solver_returns_without_waiting_for_its_watchdog() {
        // a Z3 failure panics inside the context; the watchdog must not hold the call until
        // the deadline (it did: fuzz mysql seed 1 #850963 took the whole 300-second cap)
        let start = Instant::now();
        let r = with_bounded_z3(start + Duration::from_secs(120), || -> u32 {
            panic!("a null result from Z3")
        });
        assert!(
            matches!(&r, Err(SearchError::Solver(m)) if m.contains("null result")),
            "{r:?}"
        );
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{:?}",
            start.elapsed()
        );
    }

    #[test]
    fn only_a_solving_closure_panics_quietly() {
        assert!(!SOLVING.with(Cell::get));
        let inside = with_bounded_z3(Instant::now() + Duration::from_secs(60), || {
            SOLVING.with(Cell::get)
        });
        assert_eq!(inside.ok(), Some(true));
        let failed = with_bounded_z3(Instant::now() + Duration::from_secs(60), || -> u32 {
            panic!("a null result from Z3")
        });
        assert!(failed.is_err());
        // unwinding out of the closure gives the thread back to the ordinary hook
        assert!(!SOLVING.with(Cell::get));
    }

    #[test]
    fn solves_ints_and_strings_with_the_wheel_libz3() {
        assert!(z3_version().starts_with("5."), "{}", z3_version());
        let r = with_bounded_z3(Instant::now() + Duration::from_millis(1000), || {
            let s = bounded_solver(0);
            let x = Int::new_const("x");
            let t = ZString::new_const("t");
            s.assert(x.gt(Int::from_i64(3)));
            s.assert(t.length().eq(Int::from_i64(2)));
            match s.check() {
                SatResult::Sat => {
                    let m = s.get_model();
                    let xv = m
                        .as_ref()
                        .and_then(|m| m.eval(&x, true))
                        .and_then(|v| v.as_i64());
                    let tv = m
                        .as_ref()
                        .and_then(|m| m.eval(&t, true))
                        .and_then(|v| v.as_string());
                    (xv, tv)
                }
                _ => (None, None),
            }
        });
        let r = r.expect("solver");
        assert!(r.0.is_some_and(|x| x > 3), "{r:?}");
        assert_eq!(r.1.map(|t| t.chars().count()), Some(2));
    }
}
