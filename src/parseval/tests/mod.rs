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

/// A difference only the prediction's own branches show: the gold has no branch on age = 77,
/// and the prediction leaves singers aged 77 out.
pub(super) const AGED_77: (&str, &str) = (
    "SELECT name FROM singer",
    "SELECT name FROM singer WHERE age <> 77 OR age IS NULL",
);

/// The verdict on [`AGED_77`] without random databases (the first of them would show the
/// difference before the prediction's search): found by that search, on a generated database.
pub(super) fn aged_77_by_the_predictions_search() -> Decision {
    let (gold, pred) = AGED_77;
    let without_random = Options {
        random: Some(0),
        ..Options::default()
    };
    let d = verdict_with(gold, pred, &without_random);
    assert_eq!(d.value(), Some(0), "{}", d.reason());
    assert!(!d.random, "{}", d.reason());
    d
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
