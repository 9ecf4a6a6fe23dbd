//! Glue between the registry and Spider evaluation: argument unpacking, result shapes, and the
//! per-example evaluation cache that lets the exact and partial calls of one row share one evaluation.

use super::{Args, Output};
use crate::cache::NamedCache;
use crate::error::{Error, Result};
use crate::metrics::spider::{self as sp, ExampleEval, Hardness, Options, SpiderContext};
use std::sync::Arc;

/// The prepared schema context for argument `index` (NULL → schema-less), errors naming the argument.
fn context(args: &Args<'_>, index: usize) -> Result<Arc<SpiderContext>> {
    sp::context_for(args.opt_text(index)?).map_err(|e| args.rename_error(index, e))
}

/// The evaluation options in argument `index` (NULL → the official behaviour).
/// Spider's evaluator reads SQLite SQL: a JSON options argument naming another dialect is an
/// error.
fn options(args: &Args<'_>, index: usize) -> Result<Options> {
    match args.opt_text(index)? {
        None => Ok(Options::default()),
        Some(text) => {
            if text.trim_start().starts_with('{') {
                args.require_sqlite()?;
            }
            Options::parse(text).map_err(|e| args.rename_error(index, e))
        }
    }
}

/// Evaluations kept per process: more than the rows of the DuckDB chunks in flight at once, so the
/// `spider_exact_match` and `spider_partial_match` calls of one row (one chunk apart at most in
/// DuckDB, adjacent in SQLite) share one evaluation.
const EVAL_CACHE_ENTRIES: usize = 16_384;

/// Cache key of one example: schema context id, options, and the two texts (length-prefixed, so no
/// two different (gold, pred) pairs give the same key).
fn example_key(ctx: &SpiderContext, opts: &Options, gold: &str, pred: &str) -> String {
    let mut key = String::with_capacity(gold.len() + pred.len() + 32);
    key.push_str(&format!("{}/{}/{}/", ctx.id(), opts.key(), gold.len()));
    key.push_str(gold);
    key.push_str(pred);
    key
}

/// Cache key of a query's hardness (context id, options, text).
fn hardness_key(ctx: &SpiderContext, opts: &Options, sql: &str) -> String {
    format!("{}/{}/{}", ctx.id(), opts.key(), sql)
}

type Evaluated = Result<Option<ExampleEval>>;

static EVALUATIONS: NamedCache<Evaluated> =
    NamedCache::new("spider_evaluations", EVAL_CACHE_ENTRIES);
static HARDNESS: NamedCache<Result<Option<Hardness>>> =
    NamedCache::new("spider_hardness", EVAL_CACHE_ENTRIES);

/// Evaluates (gold, pred [, schema [, options]]) once per distinct example (cached, see
/// [`EVAL_CACHE_ENTRIES`]); `Ok(None)` when the gold query does not parse.
fn evaluate(args: &Args<'_>) -> Result<Arc<Evaluated>> {
    let (ctx, opts) = (context(args, 2)?, options(args, 3)?);
    let (gold, pred) = (args.text(0)?, args.text(1)?);
    let key = example_key(&ctx, &opts, gold, pred);
    Ok(EVALUATIONS.get().get_or_insert_with(&key, || {
        let result = match sp::evaluate_with(&ctx, gold, pred, &opts) {
            Ok(e) => Ok(Some(e)),
            Err(Error::Parse(_)) => Ok(None),
            Err(e) => Err(e),
        };
        // The gold query's hardness comes with the evaluation: spider_hardness on the same row
        // need not parse it again.
        if let Ok(e) = &result {
            let hardness = e.as_ref().map(|e| e.hardness);
            HARDNESS
                .get()
                .get_or_insert_with(&hardness_key(&ctx, &opts, gold), || Ok(hardness));
        }
        result
    }))
}

/// The cached evaluation of this row, errors cloned out of the cache.
fn evaluated(args: &Args<'_>) -> Result<Option<Arc<Evaluated>>> {
    let e = evaluate(args)?;
    match e.as_ref() {
        Ok(Some(_)) => Ok(Some(e)),
        Ok(None) => Ok(None),
        Err(err) => Err(err.clone()),
    }
}

/// The example inside an entry [`evaluated`] returned (always `Ok(Some)` there).
fn example(e: &Evaluated) -> Option<&ExampleEval> {
    e.as_ref().ok().and_then(Option::as_ref)
}

/// `spider_hardness(sql [, schema [, options]])`: NULL when the Spider parser rejects the query.
pub fn hardness(args: &Args<'_>) -> Result<Output> {
    let (ctx, opts) = (context(args, 1)?, options(args, 2)?);
    let sql = args.text(0)?;
    let entry = HARDNESS
        .get()
        .get_or_insert_with(&hardness_key(&ctx, &opts, sql), || match sp::hardness_with(
            &ctx, sql, &opts,
        ) {
            Ok(h) => Ok(Some(h)),
            Err(Error::Parse(_)) => Ok(None),
            Err(e) => Err(e),
        });
    Ok(match entry.as_ref().clone()? {
        Some(h) => Output::Text(h.as_str().into()),
        None => Output::Null,
    })
}

/// `spider_exact_match(gold, pred [, schema [, options]])`: 0 when the gold query does not parse.
pub fn exact_match(args: &Args<'_>) -> Result<Output> {
    let e = evaluated(args)?;
    let exact = e.as_deref().and_then(example).is_some_and(|e| e.exact);
    Ok(Output::Integer(exact as i64))
}

/// `spider_partial_match(...)`: the ten components as JSON; NULL when the gold query does not parse.
pub fn partial_match(args: &Args<'_>) -> Result<Output> {
    let e = evaluated(args)?;
    Ok(match e.as_deref().and_then(example) {
        Some(e) => Output::Text(e.partial_json()),
        None => Output::Null,
    })
}

/// `spider_partial(...)`: one row per component; no rows when the gold query does not parse.
pub fn partial_rows(args: &Args<'_>) -> Result<Vec<Vec<Output>>> {
    let e = evaluated(args)?;
    let Some(e) = e.as_deref().and_then(example) else {
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
