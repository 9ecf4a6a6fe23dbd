//! Registry glue for the GMN metrics: `sql_graph` (the graphs the models read, as JSON),
//! `gmn_similarity` and `hybrid_gmn_similarity` (their scores through ONNX Runtime), each with a
//! batched form, declared in its registry entry, that scores a host's chunk in few model runs.

use super::plan::schema;
use super::{Args, Host, Output, ScalarFunction, Value};
use crate::error::{Error, Result};
use crate::gmn::tensors::adjacency_size;
use crate::gmn::{pair_graph, runtime, Model, PairGraph};
use rayon::prelude::*;

/// The model named in argument `index`; NULL or absent gives FuncEvalGMN.
fn model(args: &Args<'_>, index: usize) -> Result<Model> {
    match args.opt_text(index)? {
        None => Ok(Model::FuncEval),
        Some(name) => Model::from_name(name).ok_or_else(|| {
            args.invalid(
                index,
                format!("must be 'funceval' or 'hybrid', got '{name}'"),
            )
        }),
    }
}

/// `sql_graph(gold, pred [, schema [, model]])`: the pair's graphs as JSON, NULL when either
/// query cannot be planned or exceeds the node bound.
pub fn sql_graph(args: &Args<'_>) -> Result<Output> {
    let model = model(args, 3)?;
    args.only_dialect_options()?;
    let schema = schema(args, 2)?;
    Ok(
        match pair_graph(&args.query(0)?, &args.query(1)?, schema.as_deref(), model) {
            Some(p) => Output::Text(p.to_json()),
            None => Output::Null,
        },
    )
}

/// `gmn_similarity` / `hybrid_gmn_similarity`: the model's score of the pair, NULL when either
/// query has no graph; an error naming the function when the runtime or the model is missing.
fn similarity(args: &Args<'_>, model: Model) -> Result<Output> {
    let Some(pair) = row_graph(args, model)? else {
        return Ok(Output::Null);
    };
    let scores = runtime::score_batch(model, &[&pair]).map_err(|e| args.unavailable(e))?;
    Ok(scores.first().map_or(Output::Null, |s| Output::Real(*s)))
}

/// `gmn_similarity(gold, pred [, schema])`: FuncEvalGMN's score, exp(-distance).
pub fn gmn_similarity(args: &Args<'_>) -> Result<Output> {
    similarity(args, Model::FuncEval)
}

/// `hybrid_gmn_similarity(gold, pred [, schema])`: Hybrid GMN's score, sigmoid(logit).
pub fn hybrid_gmn_similarity(args: &Args<'_>) -> Result<Output> {
    similarity(args, Model::Hybrid)
}

/// Most pairs scored by one model run.
const BATCH_PAIRS: usize = 32;
/// Most adjacency floats (per side) of one model run: a batch of large graphs is cut smaller.
const BATCH_ADJACENCY: usize = 1 << 23;

/// The graph of one row's pair, once the runtime and the model are known to be there (the
/// per-row half of a batched call); `None` when there is no graph (the row scores NULL).
fn row_graph(args: &Args<'_>, model: Model) -> Result<Option<PairGraph>> {
    runtime::check(model).map_err(|e| args.unavailable(e))?;
    args.only_dialect_options()?;
    let schema = schema(args, 2)?;
    Ok(pair_graph(
        &args.query(0)?,
        &args.query(1)?,
        schema.as_deref(),
        model,
    ))
}

/// `gmn_similarity`'s batched form (its registry entry's `batch`).
pub fn gmn_similarity_batch(
    function: &'static ScalarFunction,
    rows: &[Vec<Value<'_>>],
    host: Host,
) -> Vec<Result<Output>> {
    score_rows(function, rows, host, Model::FuncEval)
}

/// `hybrid_gmn_similarity`'s batched form (its registry entry's `batch`).
pub fn hybrid_gmn_similarity_batch(
    function: &'static ScalarFunction,
    rows: &[Vec<Value<'_>>],
    host: Host,
) -> Vec<Result<Output>> {
    score_rows(function, rows, host, Model::Hybrid)
}

/// Scores a whole chunk of rows of `function` (a GMN similarity of `model`): graphs are built in
/// parallel, grouped by size, then scored in batches of up to [`BATCH_PAIRS`] pairs, batches in
/// parallel. Results are in row order, as `function` would give them row by row.
fn score_rows(
    function: &'static ScalarFunction,
    rows: &[Vec<Value<'_>>],
    host: Host,
    model: Model,
) -> Vec<Result<Output>> {
    let graphs: Vec<Result<Option<PairGraph>>> = rows
        .par_iter()
        .map(|values| function.invoke_with(values, host, None, |args| row_graph(args, model)))
        .collect();
    let mut results: Vec<Result<Output>> = Vec::with_capacity(rows.len());
    let mut pending: Vec<(usize, PairGraph)> = Vec::new();
    for (i, graph) in graphs.into_iter().enumerate() {
        match graph {
            Ok(Some(g)) => {
                pending.push((i, g));
                results.push(Ok(Output::Null));
            }
            Ok(None) => results.push(Ok(Output::Null)),
            Err(e) => results.push(Err(e)),
        }
    }
    // Similar-size graphs share a model run: a batch is padded to its widest graph, and the dense
    // adjacency grows with the square of that width.
    pending.sort_by_key(|(row, g)| (width(g), *row));
    let batches = batches(&pending, model.relations());
    let scored: Vec<(usize, std::result::Result<Vec<f64>, runtime::RuntimeError>)> = batches
        .par_iter()
        .map(|range| {
            let pairs: Vec<&PairGraph> = pending[range.clone()].iter().map(|(_, g)| g).collect();
            (range.start, runtime::score_batch(model, &pairs))
        })
        .collect();
    for (start, outcome) in scored {
        match outcome {
            Ok(scores) => {
                for (k, s) in scores.into_iter().enumerate() {
                    if let Some((row, _)) = pending.get(start + k) {
                        results[*row] = Ok(Output::Real(s));
                    }
                }
            }
            Err(e) => {
                let e = Error::Unavailable(format!("{}(): {e}", function.name));
                if let Some((row, _)) = pending.get(start) {
                    results[*row] = Err(e);
                }
            }
        }
    }
    results
}

/// Nodes of the larger side of a pair: the width the pair pads its batch to.
fn width(pair: &PairGraph) -> usize {
    pair.gold.len().max(pair.pred.len())
}

/// Padded node slots of the model runs `ranges` over `pending` (both sides): what size grouping
/// saves.
#[cfg(test)]
fn padded_slots(pending: &[(usize, PairGraph)], ranges: &[std::ops::Range<usize>]) -> usize {
    ranges
        .iter()
        .map(|r| {
            2 * r.len()
                * pending[r.clone()]
                    .iter()
                    .map(|(_, g)| width(g))
                    .max()
                    .unwrap_or(0)
        })
        .sum()
}

/// Consecutive ranges of `pending` forming model runs: at most [`BATCH_PAIRS`] pairs and
/// [`BATCH_ADJACENCY`] adjacency floats per side.
fn batches(pending: &[(usize, PairGraph)], relations: usize) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut widest = 0;
    for (i, (_, g)) in pending.iter().enumerate() {
        let n = width(g).max(widest);
        let count = i + 1 - start;
        if i > start
            && (count > BATCH_PAIRS || adjacency_size(count, relations, n) > BATCH_ADJACENCY)
        {
            out.push(start..i);
            start = i;
            widest = width(g);
        } else {
            widest = n;
        }
    }
    if start < pending.len() {
        out.push(start..pending.len());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_cover_rows_in_order_within_bounds() {
        let pair = pair_graph(
            "SELECT a FROM t WHERE b = 1",
            "SELECT a FROM t",
            None,
            Model::FuncEval,
        )
        .unwrap();
        let pending: Vec<(usize, PairGraph)> = (0..70).map(|i| (i, pair.clone())).collect();
        let ranges = batches(&pending, 3);
        assert_eq!(ranges.first().map(|r| r.start), Some(0));
        assert_eq!(ranges.last().map(|r| r.end), Some(70));
        for w in ranges.windows(2) {
            assert_eq!(w[0].end, w[1].start);
        }
        assert!(ranges
            .iter()
            .all(|r| !r.is_empty() && r.len() <= BATCH_PAIRS));
        assert!(batches(&[], 3).is_empty());
    }

    #[test]
    fn grouping_by_size_pads_less_than_row_order() {
        let small =
            pair_graph("SELECT a FROM t", "SELECT b FROM t", None, Model::FuncEval).unwrap();
        let large = pair_graph(
            "SELECT t.a, count(*) FROM t JOIN u ON t.id = u.tid WHERE t.b > 3 AND u.c LIKE 'x%' \
             GROUP BY t.a HAVING count(*) > 2 ORDER BY t.a LIMIT 5",
            "SELECT t.a, count(u.c) FROM t JOIN u ON t.id = u.tid WHERE t.b >= 3 GROUP BY t.a",
            None,
            Model::FuncEval,
        )
        .unwrap();
        assert!(width(&large) > width(&small));
        let mut pending: Vec<(usize, PairGraph)> = (0..2 * BATCH_PAIRS)
            .map(|i| {
                (
                    i,
                    if i % 2 == 0 {
                        small.clone()
                    } else {
                        large.clone()
                    },
                )
            })
            .collect();
        let in_row_order = padded_slots(&pending, &batches(&pending, 3));
        pending.sort_by_key(|(row, g)| (width(g), *row));
        let grouped = padded_slots(&pending, &batches(&pending, 3));
        assert_eq!(in_row_order, 4 * BATCH_PAIRS * width(&large));
        assert_eq!(grouped, 2 * BATCH_PAIRS * (width(&small) + width(&large)));
    }

    #[test]
    fn only_gmn_scores_are_batched() {
        let batched: Vec<&str> = crate::registry::SCALAR_FUNCTIONS
            .iter()
            .filter(|f| f.batch.is_some())
            .map(|f| f.name)
            .collect();
        assert_eq!(batched, ["gmn_similarity", "hybrid_gmn_similarity"]);
    }

    #[test]
    fn batch_rows_follow_the_signature_and_null_rule() {
        let f = crate::registry::scalar("gmn_similarity").unwrap();
        let batch = f.batch.unwrap();
        let rows = vec![
            vec![Value::Null, Value::Text("SELECT 1")],
            vec![Value::Text("SELECT 1")],
        ];
        let results = batch(f, &rows, Host::Native);
        assert_eq!(results.len(), 2);
        assert_eq!(results[0], Ok(Output::Null));
        assert!(matches!(results[1], Err(Error::Arity { .. })));
        assert!(batch(f, &[], Host::Native).is_empty());
    }
}
