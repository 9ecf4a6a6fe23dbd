//! Verdicts under the leniency options: each `forgive_*` option turns its kind of weak
//! difference into an equivalent verdict that names it, an ordinary difference stays, the shape
//! leniencies let results match, and `benchmark` presets bundle them.

use super::{test_suite, verdict_with};
use crate::exec::leniency::Leniency;
use crate::parseval::*;

/// The default options under `set` semantics with these options on (a JSON object's keys).
fn lenient(json: &str) -> Options {
    let text = format!(r#"{{"semantics": "set", {json}}}"#);
    Options::parse("sql_equivalent", Some(&text)).unwrap()
}

fn evidence(d: &Decision) -> Option<Evidence> {
    match &d.verdict {
        Verdict::Different(c) => Some(c.evidence),
        _ => None,
    }
}

#[test]
fn each_forgive_option_forgives_its_own_kind_of_difference() {
    let strict = lenient(r#""seed": 0"#);
    // a NULL-only difference; a tie at the maximum (repeated values), which NULL ages also show
    for (gold, pred, kind, options, keys) in [
        (
            "SELECT count(*) FROM singer",
            "SELECT count(country) FROM singer",
            Evidence::NullDependent,
            r#""forgive_nulls": true"#,
            vec![Leniency::ForgiveNulls],
        ),
        (
            "SELECT name FROM singer ORDER BY age DESC LIMIT 1",
            "SELECT name FROM singer WHERE age = (SELECT max(age) FROM singer)",
            Evidence::RepeatedValues,
            r#""forgive_repeated_values": true, "forgive_nulls": true"#,
            vec![Leniency::ForgiveNulls, Leniency::ForgiveRepeatedValues],
        ),
    ] {
        let d = verdict_with(gold, pred, &strict);
        assert_eq!(evidence(&d), Some(kind), "{}", d.reason());
        assert!(d.leniency.is_empty());
        // another kind's option changes nothing
        let d = verdict_with(gold, pred, &lenient(r#""forgive_empty_input": true"#));
        assert_eq!(d.value(), Some(0), "{}", d.reason());
        let d = verdict_with(gold, pred, &lenient(options));
        assert_eq!(d.value(), Some(1), "{}", d.reason());
        assert_eq!(d.leniency, keys);
        let names: Vec<&str> = keys.iter().map(|l| l.key()).collect();
        let with = format!("(with the leniency {})", names.join(", "));
        assert!(
            d.reason().starts_with("equivalent: ") && d.reason().ends_with(&with),
            "{}",
            d.reason()
        );
    }
    // forgiving the repeated values alone leaves the weaker NULL-only difference
    let d = verdict_with(
        "SELECT name FROM singer ORDER BY age DESC LIMIT 1",
        "SELECT name FROM singer WHERE age = (SELECT max(age) FROM singer)",
        &lenient(r#""forgive_repeated_values": true"#),
    );
    assert_eq!(
        evidence(&d),
        Some(Evidence::NullDependent),
        "{}",
        d.reason()
    );
}

#[test]
fn an_ordinary_difference_is_never_forgiven() {
    let all = lenient(
        r#""forgive_nulls": true, "forgive_repeated_values": true, "forgive_repeats": true,
           "forgive_empty_input": true, "forgive_ties": true"#,
    );
    let d = verdict_with(
        "SELECT name FROM singer WHERE age > 30",
        "SELECT name FROM singer WHERE age >= 30",
        &all,
    );
    assert_eq!(evidence(&d), Some(Evidence::Ordinary), "{}", d.reason());
    assert!(d.leniency.is_empty());
}

#[test]
fn ties_are_forgiven_under_test_suite_only_when_asked() {
    let g = "SELECT country FROM singer GROUP BY country ORDER BY count(*) DESC LIMIT 1";
    let p = "SELECT country FROM singer GROUP BY country ORDER BY count(*) DESC, country LIMIT 1";
    let d = verdict_with(g, p, &test_suite());
    assert_eq!(evidence(&d), Some(Evidence::TieBreaking), "{}", d.reason());
    let forgive = Options {
        leniency: test_suite()
            .leniency
            .with_forgiving(Leniency::ForgiveTies, true),
        ..test_suite()
    };
    let d = verdict_with(g, p, &forgive);
    assert_eq!(d.value(), Some(1), "{}", d.reason());
    assert_eq!(d.leniency, [Leniency::ForgiveTies]);
}

#[test]
fn shape_leniencies_let_results_match_and_say_so() {
    let (gold, wider) = (
        "SELECT name FROM singer WHERE age > 30",
        "SELECT name, age FROM singer WHERE age > 30",
    );
    assert_eq!(
        verdict_with(gold, wider, &lenient(r#""seed": 0"#)).value(),
        Some(0)
    );
    let d = verdict_with(gold, wider, &lenient(r#""extra_columns": true"#));
    assert_eq!(d.value(), Some(1), "{}", d.reason());
    assert_eq!(d.leniency, [Leniency::ExtraColumns]);
    // the prediction may not drop a gold column
    let d = verdict_with(wider, gold, &lenient(r#""extra_columns": true"#));
    assert_eq!(d.value(), Some(0), "{}", d.reason());
    let swapped = "SELECT age, name FROM singer WHERE age > 30";
    let d = verdict_with(wider, swapped, &lenient(r#""any_column_order": true"#));
    assert_eq!(d.value(), Some(1), "{}", d.reason());
    assert_eq!(d.leniency, [Leniency::AnyColumnOrder]);
    // the same pair with nothing to forgive needs no leniency
    let d = verdict_with(gold, gold, &lenient(r#""extra_columns": true"#));
    assert!(
        d.value() == Some(1) && d.leniency.is_empty(),
        "{}",
        d.reason()
    );
}

#[test]
fn the_bird_preset_is_set_semantics_with_its_leniencies() {
    let o = Options::parse("sql_equivalent", Some(r#"{"benchmark": "bird"}"#)).unwrap();
    assert_eq!(o.semantics, options::Semantics::Bird);
    assert!(o.leniency.forgives(Leniency::ForgiveUntestedNulls));
    let d = verdict_with(
        "SELECT count(*) FROM singer",
        "SELECT count(country) FROM singer",
        &o,
    );
    assert_eq!(d.value(), Some(1), "{}", d.reason());
    assert!(d.reason().contains("under set semantics"), "{}", d.reason());
    assert_eq!(d.leniency, [Leniency::ForgiveUntestedNulls]);
    // an option given beside the preset wins
    let o = Options::parse(
        "sql_equivalent",
        Some(r#"{"benchmark": "bird", "forgive_untested_nulls": false}"#),
    )
    .unwrap();
    assert!(!o.leniency.forgives(Leniency::ForgiveUntestedNulls));
}

#[test]
fn untested_nulls_are_forgiven_tested_ones_are_not() {
    let untested = lenient(r#""forgive_untested_nulls": true"#);
    let all = lenient(r#""forgive_nulls": true"#);
    // nothing tests country for NULL: forgiven
    let (gold, pred) = (
        "SELECT count(*) FROM singer",
        "SELECT count(country) FROM singer",
    );
    let d = verdict_with(gold, pred, &untested);
    assert_eq!(d.value(), Some(1), "{}", d.reason());
    assert_eq!(d.leniency, [Leniency::ForgiveUntestedNulls]);
    // the gold tests country for NULL: a NULL there is data the question is about
    let (gold, pred) = (
        "SELECT name FROM singer WHERE country IS NOT NULL",
        "SELECT name FROM singer",
    );
    let d = verdict_with(gold, pred, &untested);
    assert_eq!(
        evidence(&d),
        Some(Evidence::NullDependent),
        "{}",
        d.reason()
    );
    let d = verdict_with(gold, pred, &all);
    assert_eq!(d.value(), Some(1), "{}", d.reason());
    assert_eq!(d.leniency, [Leniency::ForgiveNulls]);
}

#[test]
fn plausible_dates_forgives_a_difference_only_text_that_is_no_date_shows() {
    let events =
        "CREATE TABLE event(event_id INTEGER PRIMARY KEY, event_name TEXT, event_date TEXT)";
    let gold = "SELECT event_name FROM event WHERE SUBSTR(event_date, 1, 4) = '2020'";
    let pred = |year: &str| {
        format!("SELECT event_name FROM event WHERE strftime('%Y', event_date) = '{year}'")
    };
    let decided = |pred: &str, o: &Options| decide_cached(gold, pred, Some(events), o).unwrap();
    // a TEXT column may hold '2020' or '2020x', on which the two years part
    let d = decided(&pred("2020"), &lenient(r#""seed": 0"#));
    assert_eq!(d.value(), Some(0), "{}", d.reason());
    let dates = lenient(r#""plausible_dates": true"#);
    let d = decided(&pred("2020"), &dates);
    assert_eq!(d.value(), Some(1), "{}", d.reason());
    assert_eq!(d.leniency, [Leniency::PlausibleDates]);
    assert!(
        d.reason().ends_with("(with the leniency plausible_dates)"),
        "{}",
        d.reason()
    );
    // a wrong year still differs, on a database whose dates are dates
    let d = decided(&pred("2021"), &dates);
    let Verdict::Different(c) = &d.verdict else {
        panic!("{}", d.reason());
    };
    let texts: Vec<&str> = c.db.tables[0]
        .rows
        .iter()
        .filter_map(|row| match &row[2] {
            rusqlite::types::Value::Text(t) => Some(t.as_str()),
            _ => None,
        })
        .collect();
    assert!(
        !texts.is_empty()
            && texts
                .iter()
                .all(|t| verdict::plausible_dates::well_formed_date(t)),
        "{texts:?}"
    );
    // the bird preset holds it
    let bird = Options::parse("sql_equivalent", Some(r#"{"benchmark": "bird"}"#)).unwrap();
    assert!(bird.leniency.forgives(Leniency::PlausibleDates));
    assert_eq!(decided(&pred("2020"), &bird).value(), Some(1));
}
