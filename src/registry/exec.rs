//! Glue between the registry and execution-based evaluation: `exec_match`, `exec_match_reason`,
//! `bird_soft_f1`, `bird_ves`. No pair aborts a batch: a gold query that fails gives NULL (and a reason);
//! only wrong argument types and bad options raise errors.

use super::{Args, Output};
use crate::error::Result;
use crate::exec::bird;
use crate::exec::{exec_match_with, EvalOptions, Verdict};

/// The verdict on (db_path, gold, pred [, options]).
fn verdict(args: &Args<'_>) -> Result<Verdict> {
    let opts = EvalOptions::parse(args.function(), args.opt_text(3)?, false)?;
    exec_match_with(args.text(0)?, &args.query(1)?, &args.query(2)?, &opts)
        .map_err(|e| args.rename_error(0, e))
}

/// `exec_match(db_path, gold, pred [, options])`: 1, 0, or NULL when there is no verdict.
pub fn exec_match(args: &Args<'_>) -> Result<Output> {
    Ok(match verdict(args)?.value() {
        Some(m) => Output::Integer(m as i64),
        None => Output::Null,
    })
}

/// `exec_match_reason(...)`: why exec_match gives its value on the same arguments.
pub fn exec_match_reason(args: &Args<'_>) -> Result<Output> {
    Ok(Output::Text(verdict(args)?.reason()))
}

/// `bird_soft_f1(db_path, gold, pred [, options])`: BIRD mini-dev Soft-F1 in [0, 1]; NULL when
/// the gold fails.
pub fn bird_soft_f1(args: &Args<'_>) -> Result<Output> {
    args.only_dialect_options()?;
    let opts = EvalOptions::default();
    let score = bird::soft_f1(args.text(0)?, &args.query(1)?, &args.query(2)?, &opts);
    Ok(score.map_or(Output::Null, Output::Real))
}

/// `bird_ves(db_path, gold, pred [, options])`: the R-VES reward; NULL when the gold fails.
pub fn bird_ves(args: &Args<'_>) -> Result<Output> {
    let opts = EvalOptions::parse(args.function(), args.opt_text(3)?, true)?;
    let score = bird::ves_reward(args.text(0)?, &args.query(1)?, &args.query(2)?, &opts);
    Ok(score.map_or(Output::Null, Output::Real))
}
