//! ParSEval: plan-aware test database generation and equivalence verdicts (Z3-backed).
//!
//! A query's optimized plan is executed symbolically over a few candidate tuples per table
//! (`database`, `execute`, `encode`, `aggregate`); every operator contributes coverage branches
//! (a row passes or fails each predicate term, is NULL there, a pair joins or a tuple joins with
//! nothing, a group has several rows, the input is empty, ...). `search` solves the integrity
//! constraints plus greedy subsets of branches with Z3, one model per database, growing the
//! instance size (paper Algorithm 1). Text values are first drawn from a few constants
//! (`speculation`: the queries' literals, dates around them, fillers), which Z3 decides in
//! milliseconds where its string theory gives up; branches that leaves uncovered are searched
//! again over all strings. What the solver cannot model (string and date functions,
//! casts between text and numbers, correlated values it cannot reach) is left unconstrained: a
//! speculative value, and running the queries decides. `verdict` runs both queries on the
//! databases generated for both, and on value variants of each (`variants`: NULLs replaced, case
//! swapped, numbers moved, values repeated, every declared key kept), and re-checks any
//! difference before reporting it. The gold's databases are generated from the gold alone and
//! cached per (schema, gold, options) (`gold_suite`): every prediction of a gold reuses them.
//!
//! Budgets count work, never time (`work`): Z3 resource units over every solver check, SQLite
//! steps per query on a generated database; the same call gives the same verdict on a quiet or a
//! busy machine, in either host, at any thread count. The wall-clock cap (option `timeout_ms`) is
//! only a safety net; a call that reaches it says so in its reason instead of giving a verdict.

pub mod aggregate;
pub mod boundary;
pub mod database;
pub mod dates;
pub mod encode;
mod error;
pub mod evidence;
pub mod execute;
pub mod gold_suite;
mod join;
pub mod membership;
pub mod options;
pub mod output;
pub mod random_fill;
pub mod repeated_values;
pub mod runnable;
pub mod search;
pub mod setops;
pub mod solver;
pub mod speculation;
pub mod symbolic;
pub mod ties;
pub mod variants;
pub mod verdict;
mod window;
pub mod work;
pub mod z3_text;

pub use error::SearchError;
pub use evidence::Evidence;
pub use options::Options;
pub use search::{generate, Generated};
pub use verdict::{decide_cached, Decision, Verdict};

use crate::error::Result;

/// Databases generated for `query` against `schema` (text as every schema argument accepts;
/// None: inferred from the query). Err for a bad schema; a query that cannot be planned gives
/// Ok with no instances and the reason in `stopped`.
pub fn generate_for(
    query: &str,
    schema: Option<&str>,
    opts: &Options,
) -> Result<(Generated, std::sync::Arc<crate::schema::Schema>)> {
    let s = verdict::schema_for(schema, &[query])?;
    let work = work::Work::new(opts.work, opts.timeout_ms);
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
