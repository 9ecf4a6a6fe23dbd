//! The first random databases go before the prediction's own search: an ordinary difference
//! they show decides without solver work, and a call that tries no random database searches as
//! before.

use super::{aged_77_by_the_predictions_search, verdict, AGED_77};
use crate::parseval::*;

#[test]
fn a_difference_on_the_first_random_databases_needs_no_search_of_the_prediction() {
    let (gold, pred) = AGED_77;
    let d = verdict(gold, pred);
    assert_eq!(d.value(), Some(0), "{}", d.reason());
    assert!(d.random, "{}", d.reason());
    let Verdict::Different(c) = &d.verdict else {
        panic!("{}", d.reason())
    };
    assert_eq!(c.evidence, verdict::evidence::Evidence::Ordinary);
    // without random databases the prediction's own search finds the difference, for more work
    let searched = aged_77_by_the_predictions_search();
    assert!(d.work < searched.work, "{} vs {}", d.work, searched.work);
}

#[test]
fn an_equivalent_pair_is_decided_as_before() {
    let (gold, pred) = (
        "SELECT name FROM singer WHERE age > 30",
        "SELECT name FROM singer WHERE singer_id IN (SELECT singer_id FROM singer WHERE age > 30)",
    );
    let d = verdict(gold, pred);
    assert_eq!(d.value(), Some(1), "{}", d.reason());
    assert!(d.leniency.is_empty() && !d.random, "{}", d.reason());
}
