//! Running one call through the registry (as a host would: `ScalarFunction::invoke` /
//! `TableFunction::invoke`, panics caught there) or a core function directly (panics caught
//! here), and judging the result: an internal error, a panic, a score outside [0, 1] or NaN, a
//! malformed JSON result, a broken identity (`f(a, a) = 1`), or a budget reason that names the
//! wall-clock safety cap is a problem.

use crate::dialect_checks;
use crate::entries::{Arg, Call, Expect};
use sqlsim::registry::{self, Host, Output, Value};
use sqlsim::Error;
use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};

thread_local! {
    /// Location of the last panic on this thread (the panic hook fills it), for finding messages.
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Replaces the default panic hook (which prints every caught panic) with one that records where
/// the panic happened on the panicking thread.
pub fn install_quiet_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let at = info
            .location()
            .map(|l| format!("{}:{}", l.file(), l.line()))
            .unwrap_or_default();
        LAST_PANIC.with(|p| *p.borrow_mut() = Some(at));
    }));
}

fn take_panic_location() -> String {
    LAST_PANIC
        .with(|p| p.borrow_mut().take())
        .map_or_else(String::new, |l| format!(" [at {l}]"))
}

pub fn value(arg: &Arg) -> Value<'_> {
    match arg {
        Arg::Null => Value::Null,
        Arg::Text(s) => Value::Text(s),
        Arg::Real(x) => Value::Real(*x),
    }
}

fn arg_text(call: &Call, i: usize) -> Option<&str> {
    match call.args.get(i) {
        Some(Arg::Text(s)) => Some(s),
        _ => None,
    }
}

/// Functions whose REAL result is a score in [0, 1].
const SCORES: &[&str] = &["ast_ted", "astpm", "relpm", "sql_similarity"];

/// A short rendering of a result, for replays.
fn render(rows: &[Vec<Output>]) -> String {
    let cells: Vec<String> = rows
        .iter()
        .take(3)
        .map(|r| {
            let row: Vec<String> = r.iter().map(|c| format!("{c:?}")).collect();
            row.join(", ")
        })
        .collect();
    let text = cells.join(" | ");
    let short: String = text.chars().take(300).collect();
    if rows.len() > 3 {
        format!("{short} ... ({} rows)", rows.len())
    } else {
        short
    }
}

/// The rows of a call of the registry function `function` (None: no such function).
pub fn invoke(function: &str, values: &[Value<'_>]) -> Option<Result<Vec<Vec<Output>>, Error>> {
    if let Some(f) = registry::scalar(function) {
        Some(f.invoke(values, Host::Native).map(|o| vec![vec![o]]))
    } else {
        registry::table(function).map(|f| f.invoke(values, Host::Native))
    }
}

/// Runs `call`; `Ok(result rendered)`, or `Err(problem)` when it misbehaved.
pub fn run_call(call: &Call) -> Result<String, String> {
    if call.function == "core:translate" {
        return dialect_checks::translation(call);
    }
    if call.function.starts_with("core:") {
        return run_core(call);
    }
    let values: Vec<Value<'_>> = call.args.iter().map(value).collect();
    let Some(result) = invoke(call.function, &values) else {
        return Err(format!("no function {}", call.function));
    };
    match call.expect {
        Expect::Error => return dialect_checks::expected_error(call, &result),
        Expect::SameWithoutOptions => dialect_checks::same_without_options(call, &result)?,
        _ => {}
    }
    let rows = match result {
        Ok(rows) => rows,
        Err(Error::Internal(m)) => {
            return Err(format!("internal error: {m}{}", take_panic_location()))
        }
        Err(Error::Argument { function, .. }) if function != call.function => {
            return Err(format!(
                "an argument error of {} names {function}()",
                call.function
            ))
        }
        Err(e) => return Ok(format!("error: {e}")),
    };
    for row in &rows {
        for cell in row {
            check_cell(call.function, cell)?;
        }
    }
    if call.expect == Expect::OneWhenClean {
        check_identity(call, &rows)?;
    }
    Ok(render(&rows))
}

fn check_cell(function: &str, cell: &Output) -> Result<(), String> {
    match cell {
        Output::Real(x) if x.is_nan() => Err(format!("{function} returned NaN")),
        Output::Real(x) if SCORES.contains(&function) && !(0.0..=1.0).contains(x) => {
            Err(format!("{function} returned {x}, outside [0, 1]"))
        }
        Output::Real(x) if function == "spider_partial" && !(0.0..=1.0).contains(x) => {
            Err(format!("{function} returned {x}, outside [0, 1]"))
        }
        Output::Integer(i) if function == "ast_ted_distance" && *i < 0 => {
            Err(format!("{function} returned {i} < 0"))
        }
        Output::Integer(i)
            if matches!(function, "spider_exact_match" | "sql_equivalent")
                && !matches!(i, 0 | 1) =>
        {
            Err(format!("{function} returned {i}, not 0 or 1"))
        }
        Output::Text(t) => check_text(function, t),
        _ => Ok(()),
    }
}

fn check_text(function: &str, t: &str) -> Result<(), String> {
    match function {
        "spider_hardness" if !matches!(t, "easy" | "medium" | "hard" | "extra") => {
            Err(format!("spider_hardness returned '{t}'"))
        }
        "sql_ast" | "spider_partial_match" | "sql_graph" => {
            let json: serde_json::Value = match serde_json::from_str(t) {
                Ok(json) => json,
                // serde_json's reader stops at 128 levels; the text itself can be valid JSON
                Err(e) if e.to_string().starts_with("recursion limit exceeded") => return Ok(()),
                Err(e) => return Err(format!("{function} returned invalid JSON: {e}")),
            };
            match function {
                "spider_partial_match" => check_partial_json(&json),
                "sql_graph" => check_graph_json(&json),
                _ => Ok(()),
            }
        }
        "sql_equivalent_reason" => {
            let lower = t.to_lowercase();
            if [
                "safety cap",
                "wall-clock",
                "wall clock",
                "time budget",
                "timed out",
                "timeout",
            ]
            .iter()
            .any(|w| lower.contains(w))
            {
                Err(format!(
                    "sql_equivalent_reason names the wall-clock cap: {}",
                    t.chars().take(120).collect::<String>()
                ))
            } else {
                Ok(())
            }
        }
        _ => Ok(()),
    }
}

/// Every acc/rec/f1 of spider_partial_match is a number in [0, 1].
fn check_partial_json(json: &serde_json::Value) -> Result<(), String> {
    for (component, scores) in json.as_object().into_iter().flatten() {
        for key in ["acc", "rec", "f1"] {
            let v = scores[key].as_f64();
            if !v.is_some_and(|v| (0.0..=1.0).contains(&v)) {
                return Err(format!(
                    "spider_partial_match {component}.{key} = {}",
                    scores[key]
                ));
            }
        }
    }
    Ok(())
}

/// Both graphs of sql_graph are consistent: one type, char list and finite PE row per node, edges
/// between existing nodes with a known relation.
fn check_graph_json(json: &serde_json::Value) -> Result<(), String> {
    let relations = json["relations"].as_u64().unwrap_or(0);
    for g in json["graphs"].as_array().into_iter().flatten() {
        let n = g["types"].as_array().map_or(0, Vec::len);
        let chars = g["chars"].as_array().map_or(0, Vec::len);
        let pe = g["pe"].as_array().map_or(&[][..], Vec::as_slice);
        if n == 0 || chars != n || pe.len() != n {
            return Err(format!(
                "sql_graph: {n} types, {chars} chars, {} pe rows",
                pe.len()
            ));
        }
        if pe
            .iter()
            .flat_map(|r| r.as_array().into_iter().flatten())
            .any(|x| !x.as_f64().is_some_and(f64::is_finite))
        {
            return Err("sql_graph: a positional encoding is not a finite number".into());
        }
        for e in g["edges"].as_array().into_iter().flatten() {
            let (s, d, r) = (e[0].as_u64(), e[1].as_u64(), e[2].as_u64());
            let ok = matches!((s, d, r), (Some(s), Some(d), Some(r)) if (s as usize) < n && (d as usize) < n && r < relations);
            if !ok {
                return Err(format!(
                    "sql_graph: edge {e} out of range ({n} nodes, {relations} relations)"
                ));
            }
        }
    }
    Ok(())
}

/// `f(a, a)` is 1.0 whenever `a` parses (and, for relpm, plans against the schema argument).
fn check_identity(call: &Call, rows: &[Vec<Output>]) -> Result<(), String> {
    let Some(Output::Real(x)) = rows.first().and_then(|r| r.first()) else {
        return Ok(());
    };
    let a = arg_text(call, 0).unwrap_or_default();
    let options = dialect_checks::first_query_options(call);
    let options = options.as_deref().map_or(Value::Null, Value::Text);
    let clean = if call.function == "relpm" {
        let schema = call.args.get(2).map_or(Value::Null, value);
        registry::call_scalar("sql_plan_error", &[Value::Text(a), schema, options])
            == Ok(Output::Null)
    } else {
        registry::call_scalar("sql_parse_error", &[Value::Text(a), options]) == Ok(Output::Null)
    };
    if clean && *x != 1.0 {
        return Err(format!("{}(a, a) = {x}, not 1", call.function));
    }
    Ok(())
}

/// Direct core calls, uncached, with panics caught here.
fn run_core(call: &Call) -> Result<String, String> {
    let a = arg_text(call, 0).unwrap_or_default();
    let schema_text = arg_text(call, 1);
    let outcome = catch_unwind(AssertUnwindSafe(|| match call.function {
        "core:prepare" => {
            sqlsim::query_tree::QueryTree::build(a);
        }
        "core:plan" => {
            let _ = sqlsim::plan::cached::plan_with_inferred_schema(a);
        }
        "core:schema" => {
            let _ = sqlsim::schema::Schema::from_argument(a);
        }
        "core:spider_hardness" => {
            let schema = schema_text.and_then(|s| sqlsim::schema::Schema::from_argument(s).ok());
            let _ = sqlsim::metrics::spider::hardness(a, schema.as_ref());
        }
        "core:graph" => {
            let parsed = schema_text.and_then(|s| sqlsim::schema::schema_argument(s).ok());
            for model in [sqlsim::gmn::Model::FuncEval, sqlsim::gmn::Model::Hybrid] {
                let _ = sqlsim::gmn::query_graph(a, parsed.as_deref(), model);
            }
        }
        _ => {}
    }));
    outcome.map(|()| "done".to_string()).map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        format!(
            "panic in {}: {message}{}",
            call.function,
            take_panic_location()
        )
    })
}

/// `s` with tabs, newlines and backslashes escaped, for one TSV field.
pub fn escape_field(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\0' => out.push_str("\\0"),
            c => out.push(c),
        }
    }
    out
}

/// The fixture row of a call: `entry, function, expect, args...` (`\N` for NULL, `r:` for REAL).
pub fn fixture_row(entry: &str, call: &Call) -> String {
    let mut fields = vec![
        entry.to_string(),
        call.function.to_string(),
        match call.expect {
            Expect::Any => "any".into(),
            Expect::OneWhenClean => "one".into(),
            Expect::Error => "error".into(),
            Expect::SameWithoutOptions => "same".into(),
        },
    ];
    for a in &call.args {
        fields.push(match a {
            Arg::Null => "\\N".into(),
            Arg::Text(s) => escape_field(s),
            Arg::Real(x) => format!("r:{x:?}"),
        });
    }
    fields.join("\t")
}
