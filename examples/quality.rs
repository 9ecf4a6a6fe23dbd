//! Scores every labeled pair set in ../shared/data with a metric and prints ROC AUC, Spearman and
//! Kendall tau-b against the labels, next to the reference figures of the data README.
//!
//! ```text
//! cargo run --release --example quality [-- --metric ast_ted] [--set NAME] [--data DIR] [--dump FILE]
//! ```
//!
//! Rows whose label is null are skipped; a null prediction (no SQL extracted) is scored 0.0, as SQL
//! that does not parse, and counted in the `pred null` column.

use serde_json::Value;
use sqlsim::stats::{kendall_tau_b, roc_auc, spearman};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Reference AUC and Spearman of the sqlglot + zss AST-TE (data README).
type Reference = Option<(f64, f64)>;

/// Labeled sets with their reference figures.
const SETS: &[(&str, Reference)] = &[
    ("spiderdk_pair_dev.nooverlap", Some((0.8022, 0.4275))),
    ("wikisql_pair_dev", Some((0.9452, 0.7223))),
    ("spider_dev_llm_gpt4.nooverlap", Some((0.7137, 0.3699))),
    ("spider_dev_llm_gpt3.5.nooverlap", Some((0.7419, 0.4089))),
    (
        "spider_dev_llm_codellama_7b.nooverlap",
        Some((0.6765, 0.2104)),
    ),
    ("spider_dev_llm_deepseek_6.7b.nooverlap", None),
];

/// A pair metric: (gold, pred) → score.
type Metric = fn(&str, &str) -> f64;

/// The metrics this example can score with, by name.
const METRICS: &[(&str, Metric)] = &[("ast_ted", |a, b| {
    sqlsim::metrics::ast_ted::ast_ted(a, b).unwrap_or(0.0)
})];

struct Options {
    metric: String,
    set: Option<String>,
    data: PathBuf,
    /// Where to write one JSON line per scored row (set, id, label, score).
    dump: Option<PathBuf>,
}

fn parse_args() -> Result<Options, String> {
    let mut options = Options {
        metric: "ast_ted".into(),
        set: None,
        data: std::env::var_os("SQLSIM_DATA")
            .map(PathBuf::from)
            .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data")),
        dump: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--metric" => options.metric = value("--metric")?,
            "--set" => options.set = Some(value("--set")?),
            "--data" => options.data = PathBuf::from(value("--data")?),
            "--dump" => options.dump = Some(PathBuf::from(value("--dump")?)),
            "-h" | "--help" => {
                return Err(
                    "usage: quality [--metric ast_ted] [--set NAME] [--data DIR] [--dump FILE]"
                        .into(),
                )
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(options)
}

/// One set's scores and bookkeeping.
#[derive(Default)]
struct Scored {
    ids: Vec<Value>,
    scores: Vec<f64>,
    labels: Vec<bool>,
    unlabeled: usize,
    pred_null: usize,
    gold_fail: usize,
    pred_fail: usize,
    seconds: f64,
}

fn score_set(path: &Path, metric: Metric) -> Result<Scored, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut out = Scored::default();
    let start = Instant::now();
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let row: Value = serde_json::from_str(line)
            .map_err(|e| format!("{}:{}: {e}", path.display(), number + 1))?;
        let label = match row.get("label").and_then(Value::as_i64) {
            Some(l) => l == 1,
            None => {
                out.unlabeled += 1;
                continue;
            }
        };
        let gold = row.get("gold").and_then(Value::as_str).unwrap_or("");
        if !sqlsim::query_tree::cached(gold).is_ok() {
            out.gold_fail += 1;
        }
        let score = match row.get("pred").and_then(Value::as_str) {
            Some(pred) => {
                if !sqlsim::query_tree::cached(pred).is_ok() {
                    out.pred_fail += 1;
                }
                metric(gold, pred)
            }
            None => {
                out.pred_null += 1;
                0.0
            }
        };
        out.ids.push(row.get("id").cloned().unwrap_or(Value::Null));
        out.scores.push(score);
        out.labels.push(label);
    }
    out.seconds = start.elapsed().as_secs_f64();
    Ok(out)
}

fn fmt(value: Option<f64>) -> String {
    value.map_or_else(|| "-".into(), |v| format!("{v:.4}"))
}

fn fmt_delta(ours: Option<f64>, reference: Option<f64>) -> String {
    match (ours, reference) {
        (Some(a), Some(b)) => format!("{:+.4}", a - b),
        _ => "-".into(),
    }
}

fn main() -> ExitCode {
    let options = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let Some(&(_, metric)) = METRICS.iter().find(|(name, _)| *name == options.metric) else {
        let known: Vec<&str> = METRICS.iter().map(|(n, _)| *n).collect();
        eprintln!(
            "unknown metric {:?}; known: {}",
            options.metric,
            known.join(", ")
        );
        return ExitCode::FAILURE;
    };
    let sets: Vec<_> = SETS
        .iter()
        .filter(|(name, _)| options.set.as_deref().is_none_or(|s| name.contains(s)))
        .collect();
    if sets.is_empty() {
        eprintln!("no set matches {:?}", options.set.unwrap_or_default());
        return ExitCode::FAILURE;
    }
    println!(
        "metric {} on labeled sets in {}",
        options.metric,
        options.data.display()
    );
    println!(
        "{:<40} {:>5} {:>4} {:>7} {:>7} {:>8} {:>8} {:>7} {:>8} {:>8} {:>5} {:>5} {:>5} {:>6}",
        "set",
        "n",
        "pos",
        "AUC",
        "ref",
        "dAUC",
        "Spearman",
        "ref",
        "dSpear",
        "Kendall",
        "gfail",
        "pfail",
        "pnull",
        "sec"
    );
    let mut failed = false;
    let mut dump = String::new();
    for (name, reference) in sets {
        let path = options.data.join(format!("{name}.jsonl"));
        let scored = match score_set(&path, metric) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{name}: {e}");
                failed = true;
                continue;
            }
        };
        let as_f64: Vec<f64> = scored
            .labels
            .iter()
            .map(|&l| f64::from(u8::from(l)))
            .collect();
        let auc = roc_auc(&scored.scores, &scored.labels);
        let rho = spearman(&scored.scores, &as_f64);
        let tau = kendall_tau_b(&scored.scores, &as_f64);
        let (ref_auc, ref_rho) = (reference.map(|r| r.0), reference.map(|r| r.1));
        println!(
            "{:<40} {:>5} {:>4} {:>7} {:>7} {:>8} {:>8} {:>7} {:>8} {:>8} {:>5} {:>5} {:>5} {:>6.2}",
            name,
            scored.scores.len(),
            scored.labels.iter().filter(|&&l| l).count(),
            fmt(auc),
            fmt(ref_auc),
            fmt_delta(auc, ref_auc),
            fmt(rho),
            fmt(ref_rho),
            fmt_delta(rho, ref_rho),
            fmt(tau),
            scored.gold_fail,
            scored.pred_fail,
            scored.pred_null,
            scored.seconds,
        );
        for ((id, score), label) in scored.ids.iter().zip(&scored.scores).zip(&scored.labels) {
            let line = serde_json::json!({"set": name, "id": id, "label": u8::from(*label), "score": score});
            dump.push_str(&line.to_string());
            dump.push('\n');
        }
        if scored.unlabeled > 0 {
            println!("    ({} rows with label null skipped)", scored.unlabeled);
        }
    }
    println!("gfail/pfail: gold/pred texts that do not parse (scored 0.0); pnull: pred null, scored 0.0 as unparseable.");
    println!("ref: sqlglot + zss AST-TE from the data README; deepseek_6.7b is a copy of the CodeLlama outputs.");
    if let Some(path) = &options.dump {
        if let Err(e) = std::fs::write(path, dump) {
            eprintln!("cannot write {}: {e}", path.display());
            failed = true;
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
