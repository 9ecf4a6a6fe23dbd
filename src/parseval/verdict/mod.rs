//! The verdict on a pair of queries: both run on SQLite over the databases generated for each,
//! their value variants and random databases, and the strongest re-checked difference kept.
//!
//! `decide` runs a verdict (cached per pair); `agreement` measures how often two queries agree; `decision` is its result and reason; `checker`
//! runs both queries on each database (`examine` says what a database shows, `random_first` tries the
//! first random ones before the prediction's search); `gold_suite` caches the gold's databases per gold,
//! `prediction_suite` the prediction's own search per plan;
//! `value_variants` and `random_databases` make more databases; `evidence`,
//! `repeated_values` and `limit_ties` say how strong a difference is, `null_tests` whether a
//! NULL it needs is one the queries test for, `plausible_dates` whether it needs a date column
//! holding text that is no date (option `plausible_dates`); `same_query` whether the prediction is
//! the gold itself once both are read as SQLite; `sqlite_text` is the text
//! SQLite runs for a query written for another engine; `uninterpreted` gives the functions the
//! engine does not know a value table per database.

pub mod agreement;
mod checker;
pub mod decide;
pub mod decision;
pub mod evidence;
mod examine;
pub mod gold_suite;
pub mod limit_ties;
pub mod null_tests;
pub mod plausible_dates;
mod prediction_suite;
pub mod random_databases;
mod random_first;
pub mod repeated_values;
mod same_query;
pub mod sqlite_text;
pub mod uninterpreted;
pub mod value_variants;
