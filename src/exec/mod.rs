//! Execution-based evaluation on SQLite database files: the verdict rules of test-suite-sql-eval,
//! BIRD EX, BIRD mini-dev Soft-F1 and R-VES ([`verdict`], [`bird`]), run under bounds on files opened
//! read-only and defensively ([`open`]).
//!
//! Rules of the default (`test-suite`) semantics, as the official code: both queries get `> =`/`< =`/`! =`
//! glued, DISTINCT removed (unless `keep_distinct`), and `YEAR(CURDATE())` replaced by 2020; results are
//! compared as bags of rows (as lists when the gold text contains `order by`), up to a permutation of
//! columns; two empty results are equal whatever their columns.
//!
//! Known false positives (of the official rules, kept): a prediction that returns the right rows on one
//! database by accident (pass a folder to run a test suite); swapped columns of equal content count as
//! equal; DISTINCT is ignored; ORDER BY in the prediction is ignored when the gold has none; any two
//! empty results match; `1` equals `1.0`.
//!
//! The engine is rusqlite's bundled SQLite, compiled into the library ([`engine`]: 3.50.2, not the
//! host's): [`functions`] adds what predictions use that this build of it lacks (the math
//! functions) and sqlsim's own versions of `concat`, `concat_ws`, `string_agg`, ...
//!
//! No pair aborts a batch: a gold query that fails, times out or passes the row limit gives no verdict
//! (NULL), a prediction that does gives a mismatch, and the reason says which.

pub mod bird;
pub mod compare;
pub mod engine;
pub mod functions;
pub mod instance;
pub mod leniency;
mod math;
pub mod open;
pub mod options;
pub mod reuse;
mod rewrite;
pub mod same_result;
mod translated;
pub mod verdict;

use std::time::{Duration, Instant};

use rusqlite::types::ValueRef;
use rusqlite::Connection;

use compare::{Cell, Row};

pub use options::EvalOptions;
pub use verdict::{exec_match_with, Verdict};

/// Bounds and switches for [`exec_match_with`].
#[derive(Debug, Clone, Copy)]
pub struct ExecOptions {
    /// Wall-clock budget per query (for generated databases, a safety cap behind `max_steps`).
    pub timeout: Duration,
    /// Most SQLite virtual-machine steps per query, counted in units of [`STEP_UNIT`]: a bound
    /// that gives the same answer at any load (None: the timeout alone).
    pub max_steps: Option<u64>,
    /// Most rows read per query.
    pub max_rows: usize,
    /// Keep DISTINCT (the official `--keep_distinct`).
    pub keep_distinct: bool,
}

impl Default for ExecOptions {
    fn default() -> Self {
        ExecOptions {
            timeout: Duration::from_secs(30),
            max_steps: None,
            max_rows: 1_000_000,
            keep_distinct: false,
        }
    }
}

/// Why a query produced no result.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum RunError {
    /// SQLite rejected the query or failed running it.
    Sql(String),
    /// The wall-clock budget ran out.
    Timeout(String),
    /// The counted-step budget ran out.
    Steps(String),
    /// More rows than `max_rows`.
    RowLimit(String),
}

impl RunError {
    /// The message, prefixed with the kind of failure (`error:`, `timeout:`, `row-limit:`, `steps:`).
    pub(crate) fn describe(&self) -> String {
        match self {
            RunError::Sql(m) => format!("error: {m}"),
            RunError::Timeout(m) => format!("timeout: {m}"),
            RunError::Steps(m) => format!("steps: {m}"),
            RunError::RowLimit(m) => format!("row-limit: {m}"),
        }
    }
}

/// How TEXT values that are not valid UTF-8 are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TextMode {
    /// Invalid bytes dropped (test-suite's `text_factory = lambda b: b.decode(errors="ignore")`).
    DropInvalid,
    /// Invalid UTF-8 is an error (Python sqlite3's default text_factory, which BIRD uses).
    Strict,
}

/// SQLite virtual-machine steps between two calls of the progress handler.
pub const STEP_UNIT: u64 = 10_000;

/// Runs `sql` on `conn` under `opts` (TEXT read as [`TextMode::DropInvalid`]) through the
/// connection's prepared-statement cache, for statements run again on one connection (the gold
/// and the prediction on every generated database of a schema, [`reuse`]): a cached statement is
/// reused until SQLite expires it, and one that would write is refused as on a read-only file.
pub(crate) fn run_cached(
    conn: &Connection,
    sql: &str,
    opts: &ExecOptions,
) -> std::result::Result<Vec<Row>, RunError> {
    run_prepared(conn, sql, opts, TextMode::DropInvalid, Prepare::Cached)
}

/// How [`run_prepared`] gets its statement.
#[derive(Clone, Copy, PartialEq)]
enum Prepare {
    /// Prepared for this run and finalized after it.
    Fresh,
    /// From the connection's statement cache, and given back to it ([`run_cached`]).
    Cached,
}

/// Runs `sql` on `conn` under `opts`, its statement prepared for this run alone, TEXT decoded as
/// `text`.
pub(crate) fn run_with(
    conn: &Connection,
    sql: &str,
    opts: &ExecOptions,
    text: TextMode,
) -> std::result::Result<Vec<Row>, RunError> {
    run_prepared(conn, sql, opts, text, Prepare::Fresh)
}

fn run_prepared(
    conn: &Connection,
    sql: &str,
    opts: &ExecOptions,
    text: TextMode,
    prepare: Prepare,
) -> std::result::Result<Vec<Row>, RunError> {
    let deadline = Instant::now() + opts.timeout;
    let steps = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let counted = steps.clone();
    let max_units = opts.max_steps.map(|s| s.div_ceil(STEP_UNIT));
    conn.progress_handler(
        STEP_UNIT as i32,
        Some(move || {
            let units = counted.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            max_units.is_some_and(|m| units > m) || Instant::now() > deadline
        }),
    );
    let over_steps =
        || max_units.is_some_and(|m| steps.load(std::sync::atomic::Ordering::Relaxed) > m);
    let out = (|| {
        let sql_error = |e: rusqlite::Error| RunError::Sql(engine::message(&e));
        let (mut fresh, mut cached);
        let stmt: &mut rusqlite::Statement<'_> = match prepare {
            Prepare::Fresh => {
                fresh = conn.prepare(sql).map_err(sql_error)?;
                &mut fresh
            }
            Prepare::Cached => {
                // a write is refused by a read-only connection's authorizer (reuse.rs) or, cached
                // from before the connection was loaded, here; either way as on a read-only file
                let read_only = || RunError::Sql("attempt to write a readonly database".into());
                cached = conn
                    .prepare_cached(sql)
                    .map_err(|e| match e.sqlite_error_code() {
                        Some(rusqlite::ErrorCode::AuthorizationForStatementDenied) => read_only(),
                        _ => sql_error(e),
                    })?;
                if !cached.readonly() {
                    return Err(read_only());
                }
                &mut cached
            }
        };
        let n = stmt.column_count();
        let mut rows = stmt
            .query([])
            .map_err(|e| RunError::Sql(engine::message(&e)))?;
        let mut res = Vec::new();
        loop {
            let row = match rows.next() {
                Ok(Some(r)) => r,
                Ok(None) => break,
                Err(e) => {
                    if over_steps() {
                        return Err(RunError::Steps(format!(
                            "query ran more than {} SQLite steps",
                            opts.max_steps.unwrap_or_default()
                        )));
                    }
                    if Instant::now() > deadline {
                        return Err(RunError::Timeout(format!(
                            "query ran longer than {:?}",
                            opts.timeout
                        )));
                    }
                    return Err(RunError::Sql(engine::message(&e)));
                }
            };
            if res.len() >= opts.max_rows {
                return Err(RunError::RowLimit(format!(
                    "query returned more than {} rows",
                    opts.max_rows
                )));
            }
            let mut cells = Vec::with_capacity(n);
            let mut real = Vec::with_capacity(n);
            for i in 0..n {
                let v = row
                    .get_ref(i)
                    .map_err(|e| RunError::Sql(engine::message(&e)))?;
                real.push(matches!(v, ValueRef::Real(_)));
                cells.push(match v {
                    ValueRef::Null => Cell::Null,
                    ValueRef::Integer(i) => Cell::Int(i),
                    ValueRef::Real(f) => Cell::real(f),
                    ValueRef::Text(t) => match (std::str::from_utf8(t), text) {
                        (Ok(s), _) => Cell::Text(s.to_string()),
                        (Err(e), TextMode::Strict) => {
                            return Err(RunError::Sql(format!(
                                "Could not decode to UTF-8 column {i}: {e}"
                            )))
                        }
                        // test-suite decodes text with errors="ignore": invalid bytes dropped
                        (Err(_), TextMode::DropInvalid) => Cell::Text(drop_invalid_utf8(t)),
                    },
                    ValueRef::Blob(b) => Cell::Blob(b.to_vec()),
                });
            }
            res.push(Row { cells, real });
        }
        Ok(res)
    })();
    conn.progress_handler(0, None::<fn() -> bool>);
    out
}

/// `bytes` decoded as UTF-8 with every invalid sequence dropped (Python's `errors="ignore"`).
fn drop_invalid_utf8(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
    }
    out
}
