//! Glue between the registry and the plan module: `sql_plan`, `sql_plan_error` and `relpm`.

use super::node_match::{alpha, beta};
use super::{Args, Output};
use crate::error::Result;
use crate::metrics::relpm::relpm as relpm_scores;
use crate::plan::cached::{cached_plan, CachedPlan};
use crate::schema::{schema_argument, ParsedSchema};
use std::sync::Arc;

/// The parsed schema in argument `index` (NULL → inferred), errors naming the argument.
pub(super) fn schema(args: &Args<'_>, index: usize) -> Result<Option<Arc<ParsedSchema>>> {
    args.opt_text(index)?
        .map(|text| schema_argument(text).map_err(|e| args.rename_error(index, e)))
        .transpose()
}

/// The cached plan of argument 0 against the schema in argument 1.
fn plan_of(args: &Args<'_>) -> Result<Arc<CachedPlan>> {
    args.only_dialect_options()?;
    let schema = schema(args, 1)?;
    Ok(cached_plan(&args.query(0)?, schema.as_deref()))
}

/// `sql_plan(sql [, schema [, options]])`: the EXPLAIN text, NULL when the query cannot be planned.
pub fn sql_plan(args: &Args<'_>) -> Result<Output> {
    Ok(match &plan_of(args)?.plan {
        Ok(plan) => Output::Text(plan.explain()),
        Err(_) => Output::Null,
    })
}

/// `sql_plan_error(sql [, schema [, options]])`: NULL when the query plans, otherwise why not.
pub fn sql_plan_error(args: &Args<'_>) -> Result<Output> {
    Ok(match &plan_of(args)?.plan {
        Ok(_) => Output::Null,
        Err(e) => Output::Text(e.to_string()),
    })
}

/// `relpm(gold, pred [, schema [, alpha [, beta [, options]]]])`: the schema argument is resolved once per
/// pair, each query's plan and match tree come from the plan cache.
pub fn relpm(args: &Args<'_>) -> Result<Output> {
    let (a, b) = (alpha(args, 3)?, beta(args, 4)?);
    args.only_dialect_options()?;
    let schema = schema(args, 2)?;
    let scores = relpm_scores(&args.query(0)?, &args.query(1)?, schema.as_deref(), a, b);
    Ok(scores.map_or(Output::Null, |s| Output::Real(s.f_beta)))
}
