//! Registry glue for the GMN metrics: `sql_graph` (the graphs the models read, as JSON).

use super::plan::schema;
use super::{Args, Output};
use crate::error::Result;
use crate::gmn::{pair_graph, Model};

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
