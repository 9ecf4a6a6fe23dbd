//! Glue between the registry and the recommended score: `sql_similarity` and `sql_similarity_components`.

use super::{Args, Output};
use crate::combined::{self, options, Similarity};
use crate::error::{Error, Result};

/// The similarity of (gold, pred [, schema [, options]]) for the function `name`.
fn compute(args: &Args<'_>, name: &'static str) -> Result<Similarity> {
    let opts = options(name, args.opt_text(3)?)?;
    combined::sql_similarity(
        &args.query_as_read(0)?,
        &args.query(1)?,
        args.opt_text(2)?,
        &opts,
    )
    .map_err(|e| match e {
        Error::Unavailable(m) => args.unavailable(m),
        e => args.rename_error(2, e),
    })
}

/// `sql_similarity(gold, pred [, schema [, options]])`: the score in [0, 1].
pub fn sql_similarity(args: &Args<'_>) -> Result<Output> {
    Ok(Output::Real(compute(args, "sql_similarity")?.score))
}

/// `sql_similarity_components(gold, pred [, schema [, options]])`: the score, the verdict and
/// the structural scores behind it, as JSON.
pub fn sql_similarity_components(args: &Args<'_>) -> Result<Output> {
    Ok(Output::Text(
        compute(args, "sql_similarity_components")?
            .to_json()
            .to_string(),
    ))
}
