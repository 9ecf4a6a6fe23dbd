//! Glue between the registry and Spider evaluation: argument unpacking and result shapes only.

use super::{Args, Output};
use crate::error::{Error, Result};
use crate::metrics::spider::{self as sp, ExampleEval, Options, SpiderContext};
use std::sync::Arc;

/// The prepared schema context for argument `index` (NULL → schema-less), errors naming the argument.
fn context(args: &Args<'_>, index: usize) -> Result<Arc<SpiderContext>> {
    sp::context_for(args.opt_text(index)?).map_err(|e| args.rename_error(index, e))
}

/// The evaluation options in argument `index` (NULL → the official behaviour).
fn options(args: &Args<'_>, index: usize) -> Result<Options> {
    match args.opt_text(index)? {
        None => Ok(Options::default()),
        Some(text) => Options::parse(text).map_err(|e| args.rename_error(index, e)),
    }
}

/// Evaluates (gold, pred [, schema [, options]]); `None` when the gold query does not parse.
fn evaluate(args: &Args<'_>) -> Result<Option<ExampleEval>> {
    let (ctx, opts) = (context(args, 2)?, options(args, 3)?);
    match sp::evaluate_with(&ctx, args.text(0)?, args.text(1)?, &opts) {
        Ok(e) => Ok(Some(e)),
        Err(Error::Parse(_)) => Ok(None),
        Err(e) => Err(e),
    }
}

/// `spider_hardness(sql [, schema [, options]])`: NULL when the Spider parser rejects the query.
pub fn hardness(args: &Args<'_>) -> Result<Output> {
    let (ctx, opts) = (context(args, 1)?, options(args, 2)?);
    Ok(match sp::hardness_with(&ctx, args.text(0)?, &opts) {
        Ok(h) => Output::Text(h.as_str().into()),
        Err(Error::Parse(_)) => Output::Null,
        Err(e) => return Err(e),
    })
}

/// `spider_exact_match(gold, pred [, schema [, options]])`: 0 when the gold query does not parse.
pub fn exact_match(args: &Args<'_>) -> Result<Output> {
    Ok(Output::Integer(
        evaluate(args)?.is_some_and(|e| e.exact) as i64
    ))
}

/// `spider_partial_match(...)`: the ten components as JSON; NULL when the gold query does not parse.
pub fn partial_match(args: &Args<'_>) -> Result<Output> {
    Ok(evaluate(args)?.map_or(Output::Null, |e| Output::Text(e.partial_json())))
}

/// `spider_partial(...)`: one row per component; no rows when the gold query does not parse.
pub fn partial_rows(args: &Args<'_>) -> Result<Vec<Vec<Output>>> {
    let Some(e) = evaluate(args)? else {
        return Ok(Vec::new());
    };
    Ok(e.partial
        .iter()
        .map(|s| {
            vec![
                Output::Text(s.component.name().into()),
                Output::Real(s.acc),
                Output::Real(s.rec),
                Output::Real(s.f1),
                Output::Integer(s.label_total as i64),
                Output::Integer(s.pred_total as i64),
            ]
        })
        .collect())
}

/// `spider_schemas(path)`: (db_id, schema JSON) per entry of a Spider tables.json file.
pub fn schemas(args: &Args<'_>) -> Result<Vec<Vec<Output>>> {
    let entries =
        crate::schema::load_tables_file(args.text(0)?).map_err(|e| args.rename_error(0, e))?;
    Ok(entries
        .into_iter()
        .map(|(db_id, schema)| vec![Output::Text(db_id), Output::Text(schema)])
        .collect())
}

/// `exec_match(db_path, gold, pred)`: execution accuracy on a SQLite file, opened read-only.
pub fn exec_match(args: &Args<'_>) -> Result<Output> {
    let matched = crate::exec::exec_match(args.text(0)?, args.text(1)?, args.text(2)?)?;
    Ok(Output::Integer(matched as i64))
}
