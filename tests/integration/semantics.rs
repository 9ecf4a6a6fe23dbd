//! ParSEval's result semantics (option `semantics`: bag, set, test-suite) on the golden pairs of
//! `tests/fixtures/semantics_pairs.tsv`: pairs that differ under bag but not under test-suite
//! (column order, DISTINCT), or not under set (duplicates, row order), and real differences that
//! no semantics hides.

use sqlsim::registry::{call_scalar, Output, Value};

/// `function(gold, pred, schema, options)` through the registry, as both hosts call it.
fn call(function: &str, gold: &str, pred: &str, schema: &str, options: &str) -> Output {
    let args = [
        Value::Text(gold),
        Value::Text(pred),
        Value::Text(schema),
        Value::Text(options),
    ];
    call_scalar(function, &args).unwrap_or_else(|e| panic!("{function}: {e}"))
}

fn verdict(gold: &str, pred: &str, schema: &str, options: &str) -> (Option<i64>, String) {
    let value = match call("sql_equivalent", gold, pred, schema, options) {
        Output::Integer(v) => Some(v),
        _ => None,
    };
    let Output::Text(reason) = call("sql_equivalent_reason", gold, pred, schema, options) else {
        panic!("sql_equivalent_reason gave no text");
    };
    (value, reason)
}

fn fixture(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn golden_pairs_under_each_semantics() {
    let schema = fixture("semantics_schema.sql");
    let pairs = fixture("semantics_pairs.tsv");
    let mut checked = 0;
    for line in pairs
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        let [options, expected, gold, pred] = f[..] else {
            panic!("bad fixture line: {line}");
        };
        let (value, reason) = verdict(gold, pred, &schema, options);
        let expected: i64 = expected.parse().unwrap();
        assert_eq!(value, Some(expected), "{options} {gold} | {pred}: {reason}");
        // the reason names the semantics that decided
        let name = opts_name(options);
        assert!(
            reason.contains(&format!("under {name} semantics")),
            "{reason}"
        );
        checked += 1;
    }
    assert!(checked >= 15, "{checked} pairs");
}

fn opts_name(options: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(options).unwrap();
    v["semantics"].as_str().unwrap().to_string()
}

#[test]
fn the_verdict_cache_keys_on_semantics() {
    let schema = fixture("semantics_schema.sql");
    let (gold, pred) = (
        "SELECT name, age FROM singer",
        "SELECT age, name FROM singer",
    );
    let (bag, ts) = ("{}", r#"{"semantics":"test-suite"}"#);
    // in both orders, on fresh pairs (a trailing space): whichever verdict is computed first
    // must not answer for the other
    for (first, second, pad) in [(bag, ts, " "), (ts, bag, "  ")] {
        let pred = format!("{pred}{pad}");
        let a = verdict(gold, &pred, &schema, first).0;
        let b = verdict(gold, &pred, &schema, second).0;
        assert_ne!(a, b, "{first} then {second}");
    }
}
