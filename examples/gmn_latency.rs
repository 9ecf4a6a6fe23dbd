//! Single-threaded per-pair latency of the GMN metrics (graph building, then inference when ONNX
//! Runtime and the models are found) and graph size statistics on the public pair sets:
//! `cargo run --release --example gmn_latency [DATA_DIR]`. Each query is planned against the
//! schema inferred from its own text; the plan cache is cleared between stages by using each
//! pair once. Inference needs `ORT_DYLIB_PATH` (e.g. `.cache/ort/libonnxruntime.so.1.31.1`) and
//! `SQLSIM_MODEL_DIR` (a directory with funceval_gmn.onnx / hybrid_gmn.onnx), since an example
//! binary does not live beside them.

use sqlsim::gmn::{pair_graph, runtime, Model, PairGraph};
use std::path::PathBuf;
use std::time::Instant;

fn load(data: &std::path::Path, set: &str) -> Vec<(String, String)> {
    let Ok(text) = std::fs::read_to_string(data.join(format!("{set}.jsonl"))) else {
        return Vec::new();
    };
    text.lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter_map(|row| {
            Some((
                row["gold"].as_str()?.to_string(),
                row["pred"].as_str()?.to_string(),
            ))
        })
        .collect()
}

fn main() {
    let data = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "../shared/data".into()),
    );
    let sets = [
        "spiderdk_pair_dev.nooverlap",
        "spider_dev_llm_gpt4.nooverlap",
        "spider_dev_llm_gpt3.5.nooverlap",
        "spider_dev_llm_codellama_7b.nooverlap",
        "spider_dev_llm_deepseek_6.7b.nooverlap",
        "wikisql_pair_dev",
        "bird_dev_dail",
    ];
    for model in [Model::FuncEval, Model::Hybrid] {
        println!("== {} ==", model.name());
        println!(
            "{:<40} {:>6} {:>6} {:>9} {:>6} {:>11} {:>11}",
            "set", "pairs", "graphs", "mean n", "max n", "graph ms", "infer ms"
        );
        for set in sets {
            let pairs = load(&data, set);
            if pairs.is_empty() {
                continue;
            }
            let start = Instant::now();
            let graphs: Vec<PairGraph> = pairs
                .iter()
                .filter_map(|(g, p)| pair_graph(g, p, None, model))
                .collect();
            let graph_ms = start.elapsed().as_secs_f64() * 1e3 / pairs.len() as f64;
            let sizes: Vec<usize> = graphs
                .iter()
                .flat_map(|p| [p.gold.len(), p.pred.len()])
                .collect();
            let mean = sizes.iter().sum::<usize>() as f64 / sizes.len().max(1) as f64;
            let max = sizes.iter().copied().max().unwrap_or(0);
            let infer_ms = if runtime::check(model).is_ok() && !graphs.is_empty() {
                let start = Instant::now();
                let mut failed = 0;
                for p in &graphs {
                    if runtime::score_batch(model, &[p]).is_err() {
                        failed += 1;
                    }
                }
                if failed > 0 {
                    eprintln!("{set}: {failed} inference failures");
                }
                format!(
                    "{:.3}",
                    start.elapsed().as_secs_f64() * 1e3 / graphs.len() as f64
                )
            } else {
                "-".to_string()
            };
            println!(
                "{:<40} {:>6} {:>6} {:>9.1} {:>6} {:>11.3} {:>11}",
                set,
                pairs.len(),
                graphs.len(),
                mean,
                max,
                graph_ms,
                infer_ms
            );
        }
    }
    if let Err(e) = runtime::check(Model::FuncEval) {
        println!("(no inference timing: {e})");
    }
}
