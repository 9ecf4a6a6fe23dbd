//! Registry glue for the GMN metrics: `sql_graph` (the graphs the models read, as JSON),
//! `gmn_similarity` and `hybrid_gmn_similarity` (their scores through ONNX Runtime).

use super::plan::schema;
use super::{Args, Output};
use crate::error::{Error, Result};
use crate::gmn::{pair_graph, runtime, Model};

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
    let schema = schema(args, 2)?;
    Ok(
        match pair_graph(args.text(0)?, args.text(1)?, schema.as_deref(), model) {
            Some(p) => Output::Text(p.to_json()),
            None => Output::Null,
        },
    )
}

/// `gmn_similarity` / `hybrid_gmn_similarity`: the model's score of the pair, NULL when either
/// query has no graph; an error naming the function when the runtime or the model is missing.
fn similarity(args: &Args<'_>, model: Model) -> Result<Output> {
    let unavailable = |e: String| Error::Unavailable(format!("{}(): {e}", args.function()));
    runtime::check(model).map_err(unavailable)?;
    let schema = schema(args, 2)?;
    let Some(pair) = pair_graph(args.text(0)?, args.text(1)?, schema.as_deref(), model) else {
        return Ok(Output::Null);
    };
    let scores = runtime::score_batch(model, &[&pair]).map_err(unavailable)?;
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
