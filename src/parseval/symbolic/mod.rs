//! The symbolic executor: a query's plan run over a symbolic database (a few candidate tuples per
//! table, each value a Z3 term and a NULL flag), every operator adding its coverage branches.
//!
//! `database` is the symbolic database and what a Z3 model makes of it; `values` the terms
//! (Int, Real, String, SQL's three-valued truth, rows and relations); `execute` walks the plan
//! (scan, filter, project, sort) and `join`, `aggregate`, `setops`, `window` the other
//! operators; `expr_values`, `sql_functions` and `conditions` turn scalar expressions into terms
//! and truth values; `membership`, `boundary` and `projection_branches` add the branches a plain
//! true/false split misses. Texts go through `z3_text` (escaping) and `speculative_text` (a text
//! chosen among constants, functions pushed through the choice); `dates` models SQLite's date
//! functions on date-shaped text.

pub mod aggregate;
mod boundary;
mod conditions;
pub mod database;
mod dates;
pub mod execute;
mod expr_values;
mod join;
mod membership;
mod projection_branches;
mod setops;
pub mod speculative_text;
mod sql_functions;
pub mod values;
mod window;
pub mod z3_text;
