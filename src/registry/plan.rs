//! Glue between the registry and the plan module: `sql_plan`, `sql_plan_error` and `relpm`.

use super::partial::{alpha, beta};
use super::{Args, Output};
use crate::error::Result;
use crate::metrics::relpm::relpm as relpm_scores;
use crate::plan::prepared::{prepare_plan, PreparedPlan};
use std::sync::Arc;

/// The prepared plan of argument 0 against the schema in argument `schema_index`.
fn prepared(args: &Args<'_>, schema_index: usize) -> Result<Arc<PreparedPlan>> {
    let schema = args.opt_text(schema_index)?;
    prepare_plan(args.text(0)?, schema).map_err(|e| args.rename_error(schema_index, e))
}

/// `sql_plan(sql [, schema])`: the EXPLAIN text, NULL when the query cannot be planned.
pub fn sql_plan(args: &Args<'_>) -> Result<Output> {
    Ok(match &prepared(args, 1)?.plan {
        Ok(plan) => Output::Text(plan.explain()),
        Err(_) => Output::Null,
    })
}

/// `sql_plan_error(sql [, schema])`: NULL when the query plans, otherwise why not.
pub fn sql_plan_error(args: &Args<'_>) -> Result<Output> {
    Ok(match &prepared(args, 1)?.plan {
        Ok(_) => Output::Null,
        Err(e) => Output::Text(e.clone()),
    })
}

/// `relpm(gold, pred [, schema [, alpha [, beta]]])`.
pub fn relpm(args: &Args<'_>) -> Result<Output> {
    let (a, b) = (alpha(args, 3)?, beta(args, 4)?);
    let schema = args.opt_text(2)?;
    let scores = relpm_scores(args.text(0)?, args.text(1)?, schema, a, b)
        .map_err(|e| args.rename_error(2, e))?;
    Ok(scores.map_or(Output::Null, |s| Output::Real(s.f_beta)))
}
