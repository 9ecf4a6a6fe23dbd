//! Unit tests of ParSEval as a whole, on small schemas: the databases generated for a query
//! (`generation`), the verdicts on pairs (`verdicts`) and under the leniency options
//! (`leniency`), the generator's rows for random satisfiable queries (`nonempty`), pairs
//! calling functions the engine does not know (`uninterpreted`), aggregates compared with a
//! number by `=` (`aggregate_edges`) and the random databases tried before the prediction's
//! own search (`random_first`).

mod aggregate_edges;
mod generation;
mod leniency;
mod nonempty;
mod random_first;
mod uninterpreted;
mod verdicts;

use super::verdict::decide::{decide, schema_for};
use super::*;

pub(super) const DDL: &str = "CREATE TABLE singer(singer_id INTEGER PRIMARY KEY, name TEXT NOT NULL, \
    country TEXT, age INTEGER, net_worth REAL); \
    CREATE TABLE song(song_id INTEGER PRIMARY KEY, title TEXT, singer_id INTEGER REFERENCES singer(singer_id), \
    sales REAL)";

pub(super) fn verdict(gold: &str, pred: &str) -> Decision {
    verdict_with(gold, pred, &Options::default())
}

pub(super) fn verdict_with(gold: &str, pred: &str, o: &Options) -> Decision {
    let s = schema_for(Some(DDL), &[gold, pred]).unwrap();
    decide(gold, pred, s, o)
}

/// The default options under `test-suite` semantics.
pub(super) fn test_suite() -> Options {
    Options {
        semantics: options::Semantics::TestSuite,
        ..Options::default()
    }
}

pub(super) fn value(gold: &str, pred: &str) -> Option<i64> {
    let d = verdict(gold, pred);
    eprintln!("{gold} | {pred}: {} ({:?})", d.reason(), d.elapsed);
    d.value()
}

pub(super) const DOGS: &str = "CREATE TABLE dogs(dog_id INTEGER PRIMARY KEY, age INTEGER); \
    CREATE TABLE treatments(treatment_id INTEGER PRIMARY KEY, \
    dog_id INTEGER REFERENCES dogs(dog_id))";
pub(super) const OVER_JOIN: &str =
    "SELECT avg(d.age) FROM dogs d JOIN treatments t ON d.dog_id = t.dog_id";
