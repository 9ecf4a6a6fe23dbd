//! Per-stage speed of query preparation (parse, normalize, tree) and of the edit distance, uncached,
//! on every gold/pred query of the public pair sets: `cargo run --release --example prepare_speed`.

use sqlsim::tree::zhang_shasha::tree_edit_distance;
use std::path::PathBuf;
use std::time::Instant;

fn load(data: &std::path::Path) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    for set in [
        "spiderdk_pair_dev.nooverlap",
        "spider_dev_llm_gpt4.nooverlap",
        "bird_dev_dail",
    ] {
        let Ok(text) = std::fs::read_to_string(data.join(format!("{set}.jsonl"))) else {
            continue;
        };
        for line in text.lines() {
            let Ok(row) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            if let (Some(g), Some(p)) = (row["gold"].as_str(), row["pred"].as_str()) {
                pairs.push((g.to_string(), p.to_string()));
            }
        }
    }
    pairs
}

fn main() {
    let data = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "../shared/data".into()),
    );
    let pairs = load(&data);
    if pairs.is_empty() {
        eprintln!("prepare_speed: no pairs under {}", data.display());
        std::process::exit(2);
    }
    let queries: Vec<&str> = pairs
        .iter()
        .flat_map(|(g, p)| [g.as_str(), p.as_str()])
        .collect();
    let n = queries.len() as f64;

    let start = Instant::now();
    let parsed: Vec<_> = queries
        .iter()
        .map(|q| sqlsim::parse::parse_sql(q))
        .collect();
    let parse = start.elapsed().as_secs_f64();

    let start = Instant::now();
    let normalized: Vec<_> = parsed
        .into_iter()
        .map(|p| p.map(sqlsim::normalize::normalize).unwrap_or_default())
        .collect();
    let normalize = start.elapsed().as_secs_f64();

    let start = Instant::now();
    let trees: Vec<_> = normalized
        .iter()
        .map(|s| sqlsim::tree::from_ast::statements_tree(s))
        .collect();
    let tree = start.elapsed().as_secs_f64();

    let start = Instant::now();
    let mut total = 0u64;
    for pair in trees.chunks(2) {
        if let [a, b] = pair {
            total += u64::from(tree_edit_distance(a, b));
        }
    }
    let ted = start.elapsed().as_secs_f64();

    println!(
        "{} queries ({} pairs), one thread, no cache",
        queries.len(),
        pairs.len()
    );
    for (stage, secs) in [("parse", parse), ("normalize", normalize), ("tree", tree)] {
        println!(
            "{stage:<10} {:>9.0} queries/s  {:>6.1} µs/query",
            n / secs,
            secs * 1e6 / n
        );
    }
    let p = pairs.len() as f64;
    println!(
        "{:<10} {:>9.0} pairs/s    {:>6.1} µs/pair (checksum {total})",
        "ted",
        p / ted,
        ted * 1e6 / p
    );
    let all = parse + normalize + tree + ted;
    println!(
        "{:<10} {:>9.0} pairs/s    {:>6.1} µs/pair",
        "total",
        p / all,
        all * 1e6 / p
    );
}
