//! Agreement with the official Spider evaluator (test-suite-sql-eval, etype match) example for example:
//! hardness, exact match, the ten partial components and prediction parse failures.
//!
//! Needs ../shared/data (or $SQLSIM_DATA): ignored unless run with `--ignored` (see `data`).

use std::collections::HashMap;

use serde_json::Value;
use sqlsim::metrics::spider::{evaluate_with, Component, Options, SpiderContext};
use sqlsim::schema::{load_tables_file, Schema};

use crate::data;

#[test]
#[ignore = "needs ../shared/data (SQLSIM_DATA)"]
fn agrees_with_official_evaluator_on_spider_example() {
    let dir = data::require("spider_eval/official_exact_match.gold_pred_example.jsonl");
    let tables =
        load_tables_file(dir.join("spider/tables_testsuite.json").to_str().unwrap()).unwrap();
    let ctx: HashMap<String, SpiderContext> = tables
        .iter()
        .map(|(db, text)| {
            let s = Schema::from_argument(text).unwrap();
            (db.clone(), SpiderContext::new(Some(&s)))
        })
        .collect();
    let text = std::fs::read_to_string(
        dir.join("spider_eval/official_exact_match.gold_pred_example.jsonl"),
    )
    .unwrap();
    let opts = Options::default();
    let (mut n, mut bad_hard, mut bad_exact, mut bad_partial, mut bad_err) = (0, 0, 0, 0, 0);
    let mut shown = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let row: Value = serde_json::from_str(line).unwrap();
        let db = row["db_id"].as_str().unwrap();
        let gold = row["gold"].as_str().unwrap();
        let pred = row["pred"].as_str().unwrap();
        n += 1;
        let e = evaluate_with(&ctx[db], gold, pred, &opts)
            .unwrap_or_else(|e| panic!("idx {}: {e}", row["idx"]));
        let mut diffs = Vec::new();
        if e.hardness.as_str() != row["hardness"].as_str().unwrap() {
            bad_hard += 1;
            diffs.push(format!(
                "hardness {} vs {}",
                e.hardness.as_str(),
                row["hardness"]
            ));
        }
        if u64::from(e.exact) != row["exact"].as_u64().unwrap() {
            bad_exact += 1;
            diffs.push(format!("exact {} vs {}", e.exact, row["exact"]));
        }
        if e.pred_parse_error.is_some() != row["pred_parse_error"].as_bool().unwrap() {
            bad_err += 1;
            diffs.push(format!(
                "parse error {:?} vs {}",
                e.pred_parse_error, row["pred_parse_error"]
            ));
        }
        let mut partial_ok = true;
        for (c, s) in Component::ALL.iter().zip(e.partial.iter()) {
            let o = &row["partial"][c.name()];
            let same = o["acc"].as_f64() == Some(s.acc)
                && o["rec"].as_f64() == Some(s.rec)
                && o["f1"].as_f64() == Some(s.f1)
                && o["label_total"].as_u64() == Some(s.label_total as u64)
                && o["pred_total"].as_u64() == Some(s.pred_total as u64);
            if !same {
                partial_ok = false;
                diffs.push(format!("{}: ours {:?} official {}", c.name(), s, o));
            }
        }
        bad_partial += usize::from(!partial_ok);
        if !diffs.is_empty() && shown < 15 {
            shown += 1;
            println!(
                "idx {} [{db}]\n  gold: {gold}\n  pred: {pred}\n  {}",
                row["idx"],
                diffs.join("\n  ")
            );
        }
    }
    println!("{n} examples: hardness diffs {bad_hard}, exact diffs {bad_exact}, partial diffs {bad_partial}, parse-failure diffs {bad_err}");
    assert_eq!(n, 1034);
    assert_eq!((bad_hard, bad_exact, bad_partial, bad_err), (0, 0, 0, 0));
}
