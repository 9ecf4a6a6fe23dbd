//! The checks of the dialect entries: the translation of a query into SQLite (`core:translate`:
//! deterministic, and a text without `sqlsim_untranslated` parses as SQLite in sqlsim's parser
//! and in SQLite itself, and scores 1.0 in `ast_ted` against the query it came from), malformed
//! options refused with an error naming the function and its `options` argument, and
//! `"dialect": "sqlite"` giving what no options give.

use crate::entries::{Arg, Call};
use rusqlite::Connection;
use sqlsim::parse::dialect::{tag, untag, Dialect};
use sqlsim::parse::translate::{print, sqlite_text, translate, UNTRANSLATED};
use sqlsim::parse::{parse_in, parse_sql};
use sqlsim::registry::{self, Output, Value};
use sqlsim::Error;
use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};

thread_local! {
    /// An empty SQLite database on this worker thread: translations are prepared on it.
    static SQLITE: RefCell<Option<Connection>> = const { RefCell::new(None) };
}

/// The words of SQLite's messages for text it cannot read (not for unknown names).
const SYNTAX: &[&str] = &["syntax error", "unrecognized token", "incomplete input"];

/// Messages of sqlsim's own limits, which a translation may cross by spelling a construct longer.
const LIMITS: &[&str] = &[
    "recursion limit",
    "sqlsim's limit",
    "limit reached",
    "too long",
];

fn shorten(s: &str) -> String {
    s.chars().take(200).collect()
}

/// `core:translate` (arguments: the query, the dialect's name); panics are caught here.
pub fn translation(call: &Call) -> Result<String, String> {
    let text = |i: usize| match call.args.get(i) {
        Some(Arg::Text(s)) => s.as_str(),
        _ => "",
    };
    let Some(dialect) = Dialect::from_name(text(1)) else {
        return Err(format!("core:translate: no dialect '{}'", text(1)));
    };
    catch_unwind(AssertUnwindSafe(|| check_translation(text(0), dialect)))
        .unwrap_or_else(|_| Err("panic in core:translate".into()))
}

fn check_translation(sql: &str, dialect: Dialect) -> Result<String, String> {
    let name = dialect.name();
    let tagged = tag(sql, dialect);
    let sqlite = match sqlite_text(&tagged) {
        Ok(t) => t.into_owned(),
        Err(e) => return Ok(format!("not {name}: {e}")),
    };
    let (_, body) = untag(&tagged);
    // uncached, on a stack as large as the one sqlite_text translates on (the host's threads
    // never run this recursion themselves)
    let again = std::thread::scope(|scope| {
        let builder = std::thread::Builder::new().stack_size(256 << 20);
        let worker = builder
            .spawn_scoped(scope, || {
                parse_in(dialect, body).map(|s| print(&translate(s, dialect)))
            })
            .map_err(|e| e.to_string())?;
        worker
            .join()
            .map_err(|_| "panic in core:translate".to_string())
    })?;
    if again.as_ref().ok() != Some(&sqlite) {
        return Err(format!(
            "the {name} translation differs between two runs: '{}' then '{}'",
            shorten(&sqlite),
            shorten(&again.unwrap_or_else(|e| e.to_string()))
        ));
    }
    if sqlite.contains(UNTRANSLATED) {
        return Ok(format!("untranslated: {}", shorten(&sqlite)));
    }
    if let Err(e) = parse_sql(&sqlite) {
        let message = e.to_string();
        if LIMITS.iter().any(|l| message.contains(l)) {
            return Ok(format!("translation over a limit: {message}"));
        }
        return Err(format!(
            "the {name} translation does not parse as SQLite: {message}"
        ));
    }
    if let Some(message) = sqlite_syntax_error(&sqlite) {
        return Err(format!(
            "SQLite cannot read the {name} translation: {message}"
        ));
    }
    round_trip(sql, &sqlite, name)?;
    Ok(sqlite)
}

/// SQLite's message when it cannot read `sql` (a syntax error, not an unknown name).
fn sqlite_syntax_error(sql: &str) -> Option<String> {
    SQLITE.with(|slot| {
        let mut slot = slot.borrow_mut();
        if slot.is_none() {
            *slot = Connection::open_in_memory().ok();
        }
        let message = match slot.as_ref()?.prepare(sql) {
            Ok(_) => return None,
            Err(rusqlite::Error::SqliteFailure(_, Some(m))) => m,
            Err(_) => return None,
        };
        SYNTAX
            .iter()
            .any(|w| message.contains(w))
            .then_some(message)
    })
}

/// A query and its own SQLite translation are one query: `ast_ted` 1.0 when it parses.
fn round_trip(sql: &str, sqlite: &str, name: &str) -> Result<(), String> {
    let clean = registry::call_scalar("sql_parse_error", &[Value::Text(sqlite)]);
    if clean != Ok(Output::Null) {
        return Ok(());
    }
    let options = format!(r#"{{"gold_dialect": "{name}", "pred_dialect": "sqlite"}}"#);
    let args = [Value::Text(sql), Value::Text(sqlite), Value::Text(&options)];
    match registry::call_scalar("ast_ted", &args) {
        Ok(Output::Real(x)) if x != 1.0 => Err(format!(
            "ast_ted of a {name} query and its SQLite translation is {x}, not 1"
        )),
        _ => Ok(()),
    }
}

/// The options argument of a call, when its function has one.
fn options_index(function: &str) -> Option<usize> {
    let params = registry::scalar(function)
        .map(|f| f.params)
        .or_else(|| registry::table(function).map(|f| f.params))?;
    params.iter().position(|p| p.name == "options")
}

/// The options of one query of a call's first query (`{"dialect": gold's}`), for the
/// functions that say whether it parses or plans; NULL when the call names no dialect.
pub fn first_query_options(call: &Call) -> Option<String> {
    let index = options_index(call.function)?;
    let Some(Arg::Text(options)) = call.args.get(index) else {
        return None;
    };
    let json: serde_json::Value = serde_json::from_str(options).ok()?;
    let dialect = json
        .get("gold_dialect")
        .filter(|v| !v.is_null())
        .or_else(|| json.get("dialect"))?;
    Some(format!(r#"{{"dialect": {dialect}}}"#))
}

/// An `Expect::Error` call: an error that names the function and its `options` argument (or
/// another argument that is malformed too).
pub fn expected_error(
    call: &Call,
    result: &Result<Vec<Vec<Output>>, Error>,
) -> Result<String, String> {
    match result {
        Ok(rows) => Err(format!(
            "{} accepted options it must refuse: {:?}",
            call.function,
            rows.first().and_then(|r| r.first())
        )),
        Err(Error::Internal(m)) => Err(format!("internal error: {m}")),
        Err(e) => {
            let message = e.to_string();
            // the options, or another argument the call gets wrong too (a malformed schema)
            let named = format!("{}(): argument '", call.function);
            match message.starts_with(&named) {
                true => Ok(format!("error: {message}")),
                false => Err(format!(
                    "{}: the error does not name the function and its options: {}",
                    call.function,
                    shorten(&message)
                )),
            }
        }
    }
}

/// An `Expect::SameWithoutOptions` call: the result with NULL options is the same.
pub fn same_without_options(
    call: &Call,
    result: &Result<Vec<Vec<Output>>, Error>,
) -> Result<(), String> {
    let Some(index) = options_index(call.function) else {
        return Ok(());
    };
    let mut args = call.args.clone();
    if let Some(a) = args.get_mut(index) {
        *a = Arg::Null;
    }
    let values: Vec<Value<'_>> = args.iter().map(crate::checks::value).collect();
    let without = crate::checks::invoke(call.function, &values);
    let same = match (result, &without) {
        (Ok(a), Some(Ok(b))) => a == b,
        (Err(a), Some(Err(b))) => a.to_string() == b.to_string(),
        _ => false,
    };
    match same {
        true => Ok(()),
        false => Err(format!(
            "{} with {{\"dialect\": \"sqlite\"}} differs from no options",
            call.function
        )),
    }
}
