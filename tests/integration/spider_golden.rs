//! Golden per-example fixtures for the Spider evaluator (always run; no external data needed).

use serde_json::Value;
use sqlsim::metrics::spider::{evaluate_with, hardness_with, Component, Options, SpiderContext};
use sqlsim::schema::{load_tables_file, Schema};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/spider");

fn context() -> SpiderContext {
    let rows = load_tables_file(&format!("{DIR}/tables.json")).unwrap();
    let schema = Schema::from_argument(&rows[0].1).unwrap();
    SpiderContext::new(Some(&schema))
}

fn cases() -> Vec<Value> {
    std::fs::read_to_string(format!("{DIR}/cases.jsonl"))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn official_results_per_example() {
    let ctx = context();
    let cases = cases();
    assert!(cases.len() >= 20);
    for (i, c) in cases.iter().enumerate() {
        let (gold, pred) = (c["gold"].as_str().unwrap(), c["pred"].as_str().unwrap());
        let e = evaluate_with(&ctx, gold, pred, &Options::default()).unwrap();
        let what = format!("case {i}: {pred}");
        assert_eq!(
            e.hardness.as_str(),
            c["hardness"].as_str().unwrap(),
            "{what}"
        );
        assert_eq!(u64::from(e.exact), c["exact"].as_u64().unwrap(), "{what}");
        assert_eq!(
            e.pred_parse_error.is_some(),
            c["pred_parse_error"].as_bool().unwrap(),
            "{what}"
        );
        for (comp, s) in Component::ALL.iter().zip(&e.partial) {
            let o = &c["partial"][comp.name()];
            assert_eq!(o["f1"].as_f64(), Some(s.f1), "{what}: {}", comp.name());
            assert_eq!(
                o["label_total"].as_u64(),
                Some(s.label_total as u64),
                "{what}: {}",
                comp.name()
            );
            assert_eq!(
                o["pred_total"].as_u64(),
                Some(s.pred_total as u64),
                "{what}: {}",
                comp.name()
            );
        }
        // the JSON rendering parses and carries all ten components
        let j: Value = serde_json::from_str(&e.partial_json()).unwrap();
        assert_eq!(j.as_object().unwrap().len(), 10);
        assert_eq!(
            hardness_with(&ctx, gold, &Options::default()).unwrap(),
            e.hardness
        );
    }
}

#[test]
fn lenient_scores_rejected_predictions_by_meaning() {
    let ctx = context();
    let opts = Options {
        lenient: true,
        ..Options::default()
    };
    for (i, c) in cases().iter().enumerate() {
        let Some(expected) = c.get("lenient_exact").and_then(Value::as_u64) else {
            continue;
        };
        let e = evaluate_with(
            &ctx,
            c["gold"].as_str().unwrap(),
            c["pred"].as_str().unwrap(),
            &opts,
        )
        .unwrap();
        assert_eq!(u64::from(e.exact), expected, "case {i}: {}", c["pred"]);
        assert!(
            e.pred_parse_error.is_none(),
            "case {i}: {:?}",
            e.pred_parse_error
        );
    }
}

#[test]
fn schema_less_mode_resolves_from_the_query() {
    let ctx = SpiderContext::new(None);
    let o = Options::default();
    let e = evaluate_with(
        &ctx,
        "SELECT name FROM singer WHERE age > 30",
        "select name from singer where age > 40",
        &o,
    )
    .unwrap();
    assert!(e.exact);
    let e = evaluate_with(
        &ctx,
        "SELECT T1.a FROM x AS T1 JOIN y AS T2 ON T1.id = T2.id",
        "SELECT T2.a FROM y AS T2 JOIN x AS T1 ON T1.id = T2.id",
        &o,
    )
    .unwrap();
    assert!(!e.exact, "different tables' columns");
    let e = evaluate_with(
        &ctx,
        "SELECT count(*) FROM t",
        "SELECT count(*) AS n FROM t",
        &o,
    )
    .unwrap();
    assert!(
        e.pred_parse_error.is_some(),
        "aliases are still rejected without lenient"
    );
    assert!(
        evaluate_with(&ctx, "SELECT 'x FROM t", "x", &o).is_err(),
        "gold that does not parse is an error"
    );
}

#[test]
fn deep_nesting_is_bounded() {
    let ctx = context();
    let mut q = String::from("SELECT name FROM singer");
    for _ in 0..200 {
        q = format!("SELECT name FROM singer WHERE age IN ({q})");
    }
    let e = evaluate_with(&ctx, "SELECT name FROM singer", &q, &Options::default()).unwrap();
    assert!(e.pred_parse_error.is_some());
}
