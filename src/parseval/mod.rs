//! ParSEval: plan-aware test database generation and equivalence verdicts (Z3-backed), in three
//! rooms.
//!
//! - `symbolic/`: a query's optimized plan is executed symbolically over a few candidate tuples
//!   per table; every operator contributes coverage branches (a row passes or fails each
//!   predicate term, is NULL there, a pair joins or a tuple joins with nothing, a group has
//!   several rows, the input is empty, ...). What the solver cannot model (string and date
//!   functions, casts between text and numbers, correlated values it cannot reach) is left
//!   unconstrained: a speculative value, and running the queries decides.
//! - `search/`: the integrity constraints plus greedy subsets of branches solved with Z3, one
//!   model per database, growing the instance size (paper Algorithm 1). Text values are first
//!   drawn from a few constants (`search::text_domains`: the queries' literals, dates
//!   around them, fillers), which Z3 decides in milliseconds where its string theory gives up;
//!   branches that leaves uncovered are searched again over all strings.
//! - `verdict/`: both queries run on the databases generated for both, and on value variants of
//!   each (`value_variants`: NULLs replaced, case swapped, numbers moved, values repeated, every
//!   declared key kept), and any difference is re-checked before it is reported. The gold's
//!   databases are generated from the gold alone and cached per (schema, gold, options)
//!   (`gold_suite`): every prediction of a gold reuses them.
//!
//! Budgets count work, never time (`search::work_budget`): Z3 resource units over every solver
//! check, SQLite steps per query on a generated database; the same call gives the same verdict on
//! a quiet or a busy machine, in either host, at any thread count. The wall-clock cap (option
//! `timeout_ms`) is only a safety net; a call that reaches it says so in its reason instead of
//! giving a verdict.

mod error;
pub mod options;
pub mod search;
pub mod symbolic;
pub mod verdict;

pub use error::SearchError;
pub use options::Options;
pub use search::generate::{generate, Generated};
pub use verdict::agreement::agreement_share;
pub use verdict::decide::decide_cached;
pub use verdict::decision::{Decision, Verdict};
pub use verdict::evidence::Evidence;

use crate::error::Result;

/// Databases generated for `query` against `schema` (text as every schema argument accepts;
/// None: inferred from the query). Err for a bad schema; a query that cannot be planned gives
/// Ok with no instances and the reason in `stopped`.
pub fn generate_for(
    query: &str,
    schema: Option<&str>,
    opts: &Options,
) -> Result<(Generated, std::sync::Arc<crate::schema::Schema>)> {
    let s = verdict::decide::schema_for(schema, &[query])?;
    let work = search::work_budget::Work::new(opts.work, opts.timeout_ms);
    let g = match crate::plan::plan_sql(query, &s) {
        Ok(plan) => generate(&plan, &s, opts, work.all(), &[]),
        Err(e) => Generated {
            stopped: Some(format!("the query cannot be planned: {e}")),
            ..Generated::default()
        },
    };
    Ok((g, s))
}

#[cfg(test)]
mod tests;
