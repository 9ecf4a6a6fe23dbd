//! Replays every finding of the fuzzer (`examples/fuzz.rs`, `make fuzz`) kept in
//! tests/fixtures/fuzz_regressions.tsv: each row is one call (entry point, function, expectation,
//! arguments) that once panicked, overflowed a small stack or returned a value outside its
//! documented range. The calls run on a 1 MiB stack, like a host thread.

use super::{call_scalar, scalar, table, Host, Output, Value};
use crate::error::Error;

const FIXTURE: &str = include_str!("../../tests/fixtures/fuzz_regressions.tsv");

/// Functions whose REAL result is a score in [0, 1].
const SCORES: &[&str] = &[
    "ast_ted",
    "astpm",
    "relpm",
    "sql_similarity",
    "spider_partial",
];

/// One TSV field with the fuzzer's escapes (`\t`, `\n`, `\r`, `\0`, `\\`) undone and the
/// repetitions `\{N|SEP|PIECE}` (PIECE N times, joined by SEP) expanded, so that the huge
/// inputs of a finding stay one short line.
fn unescape(field: &str) -> String {
    let mut out = String::with_capacity(field.len());
    let mut chars = field.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('{') => {
                let spec: String = chars.by_ref().take_while(|&c| c != '}').collect();
                let mut parts = spec.splitn(3, '|');
                let (n, sep, piece) = (parts.next(), parts.next(), parts.next());
                let n: usize = n.and_then(|n| n.parse().ok()).unwrap_or(0);
                out.push_str(&vec![piece.unwrap_or_default(); n].join(sep.unwrap_or_default()));
            }
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('0') => out.push('\0'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

/// An argument field: `\N` is NULL, `r:X` a REAL, anything else text.
enum Arg {
    Null,
    Real(f64),
    Text(String),
}

fn argument(field: &str) -> Arg {
    if field == "\\N" {
        return Arg::Null;
    }
    if let Some(x) = field.strip_prefix("r:").and_then(|x| x.parse().ok()) {
        return Arg::Real(x);
    }
    Arg::Text(unescape(field))
}

fn value(arg: &Arg) -> Value<'_> {
    match arg {
        Arg::Null => Value::Null,
        Arg::Real(x) => Value::Real(*x),
        Arg::Text(s) => Value::Text(s),
    }
}

/// A direct core call (`core:prepare`, `core:plan`, `core:schema`, `core:spider_hardness`,
/// `core:graph`), uncached; the problem is a panic.
fn replay_core(function: &str, args: &[Arg]) -> Option<String> {
    let text = |i: usize| match args.get(i) {
        Some(Arg::Text(s)) => Some(s.as_str()),
        _ => None,
    };
    let sql = text(0).unwrap_or_default();
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match function {
        "core:prepare" => drop(crate::query_tree::QueryTree::build(sql)),
        "core:plan" => drop(crate::plan::cached::plan_with_inferred_schema(sql)),
        "core:schema" => drop(crate::schema::Schema::from_argument(sql)),
        "core:spider_hardness" => {
            let schema = text(1).and_then(|s| crate::schema::Schema::from_argument(s).ok());
            drop(crate::metrics::spider::hardness(sql, schema.as_ref()));
        }
        "core:graph" => {
            let parsed = text(1).and_then(|s| crate::schema::schema_argument(s).ok());
            for model in [crate::gmn::Model::FuncEval, crate::gmn::Model::Hybrid] {
                drop(crate::gmn::query_graph(sql, parsed.as_deref(), model));
            }
        }
        _ => {}
    }));
    outcome.err().map(|_| format!("{function} panicked"))
}

/// The problem with one replayed call, if any.
fn replay(function: &str, expect: &str, args: &[Arg]) -> Option<String> {
    if function.starts_with("core:") {
        return replay_core(function, args);
    }
    let values: Vec<Value<'_>> = args.iter().map(value).collect();
    let result = match (scalar(function), table(function)) {
        (Some(f), _) => f.invoke(&values, Host::Native).map(|o| vec![vec![o]]),
        (None, Some(f)) => f.invoke(&values, Host::Native),
        (None, None) => return Some(format!("no function {function}")),
    };
    let rows = match result {
        Err(Error::Internal(m)) => return Some(m),
        Err(_) => return None,
        Ok(rows) => rows,
    };
    for cell in rows.iter().flatten() {
        if let Output::Real(x) = cell {
            if x.is_nan() || (SCORES.contains(&function) && !(0.0..=1.0).contains(x)) {
                return Some(format!("returned {x}"));
            }
        }
    }
    if expect == "one" {
        let Some(&sql) = values.first() else {
            return Some("no arguments".into());
        };
        let (clean_fn, clean_args) = if function == "relpm" {
            let schema = values.get(2).copied().unwrap_or(Value::Null);
            ("sql_plan_error", vec![sql, schema])
        } else {
            ("sql_parse_error", vec![sql])
        };
        let clean = call_scalar(clean_fn, &clean_args) == Ok(Output::Null);
        if clean && rows.first().and_then(|r| r.first()) != Some(&Output::Real(1.0)) {
            return Some(format!("{function}(a, a) is not 1: {:?}", rows.first()));
        }
    }
    None
}

#[test]
fn fuzz_findings_stay_fixed() {
    let run = || {
        let mut failures = Vec::new();
        for (n, line) in FIXTURE.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let fields: Vec<&str> = line.split('\t').collect();
            let [entry, function, expect, args @ ..] = fields.as_slice() else {
                failures.push(format!("line {}: too few fields", n + 1));
                continue;
            };
            let args: Vec<Arg> = args.iter().map(|f| argument(f)).collect();
            if let Some(problem) = replay(function, expect, &args) {
                failures.push(format!("line {} ({entry}, {function}): {problem}", n + 1));
            }
        }
        failures
    };
    let worker = std::thread::Builder::new().stack_size(1 << 20).spawn(run);
    let failures = worker.map(|h| h.join());
    assert!(
        matches!(&failures, Ok(Ok(f)) if f.is_empty()),
        "{failures:?}"
    );
}
