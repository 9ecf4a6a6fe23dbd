//! The options JSON of `exec_match`, `exec_match_reason` and `bird_ves`: comparison semantics, the leniencies and `benchmark` presets of `exec_match` (leniency/), and bounds.

use std::time::Duration;

use serde_json::Value as Json;

use super::leniency::{expand_benchmark, Family, Leniencies};
use super::ExecOptions;
use crate::error::Result;
use crate::options::OptionsArg;

/// Which official rule compares the two results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Semantics {
    /// test-suite-sql-eval's `eval_exec_match` (the default): rewrites, bags, column permutations,
    /// row order only when the gold text contains `order by`.
    TestSuite,
    /// BIRD EX: `set(pred rows) == set(gold rows)`, rows as tuples (column order matters), text unmodified.
    Bird,
    /// Multisets of rows, column order matters, text unmodified.
    Bag,
    /// Lists of rows (order and duplicates exact), column order matters, text unmodified.
    List,
}

impl Semantics {
    /// The option value that names it.
    pub fn name(self) -> &'static str {
        match self {
            Semantics::TestSuite => "test-suite",
            Semantics::Bird => "bird",
            Semantics::Bag => "bag",
            Semantics::List => "list",
        }
    }
}

/// Default wall-clock budget per query (the official BIRD `meta_time_out`).
pub const DEFAULT_TIMEOUT_MS: u64 = 30_000;
/// Largest accepted `timeout_ms` (one hour).
pub const MAX_TIMEOUT_MS: u64 = 3_600_000;
/// Default and largest `max_rows` per query.
pub const DEFAULT_MAX_ROWS: usize = 1_000_000;
pub const MAX_ROWS_LIMIT: usize = 100_000_000;
/// R-VES repetitions of the official mini-dev code (`iterate_num=100`) and the most accepted.
pub const DEFAULT_REPEATS: u32 = 100;
pub const MAX_REPEATS: u32 = 10_000;

/// Everything an execution verdict depends on.
#[derive(Debug, Clone, Copy)]
pub struct EvalOptions {
    pub semantics: Semantics,
    /// Bounds per query (`timeout_ms`, `max_rows`) and `keep_distinct` (test-suite only).
    pub exec: ExecOptions,
    /// R-VES: timed runs of each query.
    pub repeats: u32,
    /// Column order, extra columns, numeric tolerance (`exec_match` only; none by default).
    pub leniency: Leniencies,
}

impl Default for EvalOptions {
    fn default() -> Self {
        EvalOptions {
            semantics: Semantics::TestSuite,
            exec: ExecOptions {
                timeout: Duration::from_millis(DEFAULT_TIMEOUT_MS),
                max_steps: None,
                max_rows: DEFAULT_MAX_ROWS,
                keep_distinct: false,
            },
            repeats: DEFAULT_REPEATS,
            leniency: Leniencies::default(),
        }
    }
}

impl EvalOptions {
    /// Parses the options argument of `function` (None: the defaults). `ves` accepts `repeats`
    /// and rejects `semantics` (R-VES is defined on BIRD's rule only).
    pub fn parse(function: &'static str, text: Option<&str>, ves: bool) -> Result<EvalOptions> {
        let arg = OptionsArg { function };
        let bad = |message: String| arg.error(message);
        let mut o = EvalOptions::default();
        if ves {
            o.semantics = Semantics::Bird;
        }
        let Some(mut map) = arg.object(text)? else {
            return Ok(o);
        };
        if !ves {
            expand_benchmark(arg, &mut map, Family::Exec)?;
            o.leniency = Leniencies::take(arg, &mut map, Family::Exec)?;
        }
        let known = if ves {
            "timeout_ms, max_rows, repeats"
        } else {
            "semantics, timeout_ms, max_rows, keep_distinct, benchmark, any_column_order, \
             extra_columns, tolerance"
        };
        for (key, value) in &map {
            let uint = |lo: u64, hi: u64| arg.uint(key, value, lo, hi);
            match key.as_str() {
                "semantics" if !ves => o.semantics = parse_semantics(arg, value)?,
                "keep_distinct" if !ves => {
                    o.exec.keep_distinct = value.as_bool().ok_or_else(|| {
                        bad(format!(
                            "'keep_distinct' must be true or false, got {value}"
                        ))
                    })?
                }
                "timeout_ms" => o.exec.timeout = Duration::from_millis(uint(1, MAX_TIMEOUT_MS)?),
                "max_rows" => o.exec.max_rows = uint(1, MAX_ROWS_LIMIT as u64)? as usize,
                "repeats" if ves => o.repeats = uint(1, MAX_REPEATS as u64)? as u32,
                other => return Err(bad(format!("unknown option '{other}' (known: {known})"))),
            }
        }
        Ok(o)
    }
}

fn parse_semantics(arg: OptionsArg, value: &Json) -> Result<Semantics> {
    match value.as_str() {
        Some("test-suite") => Ok(Semantics::TestSuite),
        Some("bird") => Ok(Semantics::Bird),
        Some("bag") => Ok(Semantics::Bag),
        Some("list") => Ok(Semantics::List),
        Some("spider") => Err(arg.error("'semantics' 'spider' (the original Spider evaluation.py rule) is not \
             supported: it keys result columns by the Spider parse of each SELECT item, which needs \
             tables.json; Spider's own repository now points to test-suite-sql-eval, so use \
             'test-suite'"
            .into())),
        _ => Err(arg.error(format!(
            "'semantics' must be 'test-suite', 'bird', 'bag' or 'list', got {value}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    #[test]
    fn parses_and_rejects() {
        let o = EvalOptions::parse("exec_match", None, false).unwrap();
        assert_eq!(o.semantics, Semantics::TestSuite);
        assert_eq!(o.exec.timeout, Duration::from_secs(30));
        let o = EvalOptions::parse(
            "exec_match",
            Some(r#"{"semantics":"bird","timeout_ms":50,"max_rows":7,"keep_distinct":true}"#),
            false,
        )
        .unwrap();
        assert_eq!(
            (
                o.semantics,
                o.exec.timeout,
                o.exec.max_rows,
                o.exec.keep_distinct
            ),
            (Semantics::Bird, Duration::from_millis(50), 7, true)
        );
        let v = EvalOptions::parse("bird_ves", Some(r#"{"repeats":3}"#), true).unwrap();
        assert_eq!((v.semantics, v.repeats), (Semantics::Bird, 3));
        for (bad, ves) in [
            (r#"{"semantics":"x"}"#, false),
            (r#"{"semantics":"spider"}"#, false),
            (r#"{"repeats":3}"#, false),
            (r#"{"semantics":"bird"}"#, true),
            (r#"{"timeout_ms":0}"#, false),
            (r#"{"keep_distinct":1}"#, false),
            ("[1]", false),
            ("{", false),
        ] {
            match EvalOptions::parse("exec_match", Some(bad), ves) {
                Err(Error::Argument { argument, .. }) => assert_eq!(argument, "options"),
                other => panic!("{bad}: {other:?}"),
            }
        }
    }
}
