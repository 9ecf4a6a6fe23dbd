//! Declarations of SQL functions: parameters, result types, and the host-neutral values they exchange.

use crate::error::{Error, Result};
use crate::options::{Dialects, OptionsArg};
use crate::parse::dialect::{tag, Dialect};
use crate::parse::translate::read_leniently;
use std::borrow::Cow;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// SQL types of the surface, mapped by each adapter to the host's own types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SqlType {
    /// TEXT in SQLite, VARCHAR in DuckDB.
    Text,
    /// REAL in SQLite, DOUBLE in DuckDB.
    Real,
    /// INTEGER in SQLite, BIGINT in DuckDB.
    Integer,
}

impl SqlType {
    /// The name used in documentation and error messages.
    pub fn name(self) -> &'static str {
        match self {
            SqlType::Text => "TEXT",
            SqlType::Real => "REAL",
            SqlType::Integer => "INTEGER",
        }
    }
}

/// One declared parameter of a SQL function.
#[derive(Debug, Clone, Copy)]
pub struct Param {
    pub name: &'static str,
    pub ty: SqlType,
    /// Optional parameters come last; a NULL optional argument means "use the default".
    pub optional: bool,
}

/// One output column of a table function.
#[derive(Debug, Clone, Copy)]
pub struct Column {
    pub name: &'static str,
    pub ty: SqlType,
}

/// Which host called: reported by `sqlsim_debug()`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Host {
    Sqlite,
    DuckDb,
    /// Called from Rust directly (tests, benchmarks).
    Native,
}

impl Host {
    pub fn name(self) -> &'static str {
        match self {
            Host::Sqlite => "sqlite",
            Host::DuckDb => "duckdb",
            Host::Native => "native",
        }
    }
}

/// An argument value as the host handed it over, borrowed for the duration of the call.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value<'a> {
    Null,
    Text(&'a str),
    Integer(i64),
    Real(f64),
    /// A BLOB, or host text that is not valid UTF-8.
    Blob(&'a [u8]),
}

impl Value<'_> {
    fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "NULL",
            Value::Text(_) => "TEXT",
            Value::Integer(_) => "INTEGER",
            Value::Real(_) => "REAL",
            Value::Blob(_) => "BLOB",
        }
    }
}

/// A result value, owned, for the adapter to hand back to the host.
#[derive(Debug, Clone, PartialEq)]
pub enum Output {
    Null,
    Text(String),
    Integer(i64),
    Real(f64),
}

/// Arguments of one call, with typed accessors whose errors name the function and the argument.
pub struct Args<'a> {
    function: &'static str,
    params: &'static [Param],
    values: &'a [Value<'a>],
    host: Host,
}

impl<'a> Args<'a> {
    /// The host that made the call.
    pub fn host(&self) -> Host {
        self.host
    }

    /// The name of the called function.
    pub fn function(&self) -> &'static str {
        self.function
    }

    fn argument_error(&self, index: usize, message: String) -> Error {
        Error::Argument {
            function: self.function,
            argument: self.params.get(index).map_or("?", |p| p.name),
            message,
        }
    }

    fn value(&self, index: usize) -> Value<'a> {
        self.values.get(index).copied().unwrap_or(Value::Null)
    }

    /// A text argument; NULL gives `None`.
    pub fn opt_text(&self, index: usize) -> Result<Option<&'a str>> {
        match self.value(index) {
            Value::Null => Ok(None),
            Value::Text(s) => Ok(Some(s)),
            Value::Blob(bytes) => std::str::from_utf8(bytes)
                .map(Some)
                .map_err(|_| self.argument_error(index, "is not valid UTF-8 text".into())),
            other => {
                Err(self.argument_error(index, format!("must be TEXT, got {}", other.type_name())))
            }
        }
    }

    /// A required text argument (the NULL rule has already turned NULL into a NULL result).
    pub fn text(&self, index: usize) -> Result<&'a str> {
        self.opt_text(index)?
            .ok_or_else(|| self.argument_error(index, "must not be NULL".into()))
    }

    /// A numeric argument (INTEGER or REAL); NULL gives `None`.
    pub fn opt_real(&self, index: usize) -> Result<Option<f64>> {
        match self.value(index) {
            Value::Null => Ok(None),
            Value::Real(x) => Ok(Some(x)),
            Value::Integer(i) => Ok(Some(i as f64)),
            other => Err(self.argument_error(
                index,
                format!("must be a number, got {}", other.type_name()),
            )),
        }
    }

    /// The dialects of this call's queries, from its `options` argument (SQLite when the
    /// function has none, or it is NULL).
    pub fn dialects(&self) -> Result<Dialects> {
        let Some(index) = self.params.iter().position(|p| p.name == "options") else {
            return Ok(Dialects::default());
        };
        OptionsArg {
            function: self.function,
        }
        .dialects(self.opt_text(index)?)
    }

    /// The query text of argument `index`, tagged with its dialect (`parse::dialect`): a
    /// `gold`/`a` argument takes `gold_dialect`, a `pred`/`b` argument `pred_dialect`, either
    /// `dialect` when its own is not given; a function of one query takes `dialect` alone.
    pub fn query(&self, index: usize) -> Result<Cow<'a, str>> {
        let text = self.text(index)?;
        let d = self.dialects()?;
        let dialect = match self.params.get(index).map(|p| p.name) {
            Some("gold" | "a") => d.gold(),
            Some("pred" | "b") => d.pred(),
            _ => {
                if d.gold.is_some() || d.pred.is_some() {
                    return Err(self.argument_error(
                        self.params.len() - 1,
                        "has 'gold_dialect'/'pred_dialect', which name the dialects of a pair: \
                         this function reads one query, use 'dialect'"
                            .into(),
                    ));
                }
                d.both.unwrap_or_default()
            }
        };
        Ok(tag(text, dialect))
    }

    /// The query of argument `index` as a verdict reads it: [`Args::query`], and, for a
    /// `gold`/`a` argument written as SQLite, its lenient reading
    /// (`parse::translate::read_leniently`: what sqlglot leaves of other engines in SQLite text,
    /// such as `YEAR(d)`, read with its common meaning where SQLite cannot run it). Only the
    /// verdicts take it (the sql_equivalent family, sql_counterexample, the verdict inside
    /// sql_similarity). A prediction is read as written: the verdict runs it, and SQLite fails
    /// one that calls `YEAR`. Every other function takes [`Args::query`]: the structural metrics
    /// compare both queries as written (a dialect query and its SQLite translation, which keeps
    /// the `YEAR` PostgreSQL lacks, are one tree), and exec_match, bird_soft_f1 and the Spider
    /// evaluator run the gold as written, as the official evaluators do.
    pub fn query_as_read(&self, index: usize) -> Result<Cow<'a, str>> {
        let query = self.query(index)?;
        let gold = matches!(self.params.get(index).map(|p| p.name), Some("gold" | "a"));
        Ok(match query {
            Cow::Borrowed(text) if gold => read_leniently(text),
            query => query,
        })
    }

    /// An error when the `options` argument holds a key other than the dialect keys: for the
    /// functions whose only options are the dialects.
    pub fn only_dialect_options(&self) -> Result<()> {
        let Some(index) = self.params.iter().position(|p| p.name == "options") else {
            return Ok(());
        };
        let arg = OptionsArg {
            function: self.function,
        };
        match arg
            .object(self.opt_text(index)?)?
            .and_then(|m| m.keys().next().cloned())
        {
            None => Ok(()),
            Some(key) => Err(arg.error(format!(
                "unknown option '{key}' (known: dialect, gold_dialect, pred_dialect)"
            ))),
        }
    }

    /// An error unless every query of the call is SQLite: for functions bound to a benchmark's
    /// own rules (Spider's evaluator reads SQLite SQL only).
    pub fn require_sqlite(&self) -> Result<()> {
        let d = self.dialects()?;
        match [d.gold(), d.pred()]
            .into_iter()
            .find(|x| *x != Dialect::Sqlite)
        {
            None => Ok(()),
            Some(other) => Err(self.argument_error(
                self.params.len() - 1,
                format!(
                    "names dialect '{}': {}() follows the official Spider evaluator, which reads \
                     SQLite SQL only",
                    other.name(),
                    self.function
                ),
            )),
        }
    }

    /// Re-labels an argument error raised deeper in the core so it names this function and argument.
    pub fn rename_error(&self, index: usize, error: Error) -> Error {
        match error {
            Error::Argument { message, .. } => self.argument_error(index, message),
            other => other,
        }
    }

    /// An `Error::Unavailable` naming this function: what it needs is not installed or failed.
    pub fn unavailable(&self, message: impl std::fmt::Display) -> Error {
        Error::Unavailable(format!("{}(): {message}", self.function()))
    }

    /// An error about argument `index` with a free-form message ("has unknown option 'x'").
    pub fn invalid(&self, index: usize, message: impl Into<String>) -> Error {
        self.argument_error(index, message.into())
    }
}

/// Checks arity and the NULL rule, then runs `call` with panics caught; shared by scalar and table functions.
fn invoke_checked<T>(
    function: &'static str,
    params: &'static [Param],
    values: &[Value<'_>],
    host: Host,
    null_result: T,
    call: impl FnOnce(&Args<'_>) -> Result<T>,
) -> Result<T> {
    let required = params.iter().filter(|p| !p.optional).count();
    if values.len() < required || values.len() > params.len() {
        return Err(Error::Arity {
            function,
            signature: describe_params(params),
            got: values.len(),
        });
    }
    let required_null = params
        .iter()
        .zip(values)
        .any(|(p, v)| !p.optional && matches!(v, Value::Null));
    if required_null {
        return Ok(null_result);
    }
    let args = Args {
        function,
        params,
        values,
        host,
    };
    match catch_unwind(AssertUnwindSafe(|| call(&args))) {
        Ok(result) => result,
        Err(payload) => Err(Error::Internal(format!(
            "{function}(): {}",
            crate::error::panic_message(&*payload)
        ))),
    }
}

/// `(a TEXT, b TEXT [, schema TEXT])`: the parameter list as users read it.
pub fn describe_params(params: &[Param]) -> String {
    let mut out = String::from("(");
    let mut opened = 0;
    for (i, p) in params.iter().enumerate() {
        if p.optional {
            out.push_str(if i == 0 { "[" } else { " [, " });
            opened += 1;
        } else if i > 0 {
            out.push_str(", ");
        }
        out.push_str(p.name);
        out.push(' ');
        out.push_str(p.ty.name());
    }
    out.push_str(&"]".repeat(opened));
    out.push(')');
    out
}

/// Scores a whole chunk of rows of the function at once, results in row order (each row's
/// arguments checked as [`ScalarFunction::invoke`] checks them): for functions whose rows share
/// work, such as one model run over many pairs. Hosts that hand over chunks (DuckDB) call it.
pub type BatchCall = fn(&'static ScalarFunction, &[Vec<Value<'_>>], Host) -> Vec<Result<Output>>;

/// A scalar SQL function: one value per row.
pub struct ScalarFunction {
    pub name: &'static str,
    pub params: &'static [Param],
    pub returns: SqlType,
    /// One sentence for the README's function table and `sqlsim_functions()`.
    pub doc: &'static str,
    /// Same arguments, same result: lets hosts fold constants and cache (false for `sqlsim_debug`).
    pub deterministic: bool,
    pub call: fn(&Args<'_>) -> Result<Output>,
    /// The chunk-at-a-time form, when the function has one; it gives the same results as `call`
    /// row by row.
    pub batch: Option<BatchCall>,
}

impl ScalarFunction {
    /// Runs the function: arity check, NULL rule (NULL in a required argument gives NULL), caught panics.
    pub fn invoke(&self, values: &[Value<'_>], host: Host) -> Result<Output> {
        invoke_checked(
            self.name,
            self.params,
            values,
            host,
            Output::Null,
            self.call,
        )
    }

    /// Runs `call` in place of the declared implementation, with the same arity check, NULL rule
    /// (`null_result` for NULL in a required argument) and caught panics: the per-row step of a
    /// [`BatchCall`], which returns what the batch needs rather than an [`Output`].
    pub fn invoke_with<T>(
        &self,
        values: &[Value<'_>],
        host: Host,
        null_result: T,
        call: impl FnOnce(&Args<'_>) -> Result<T>,
    ) -> Result<T> {
        invoke_checked(self.name, self.params, values, host, null_result, call)
    }

    /// Number of required parameters.
    pub fn min_args(&self) -> usize {
        self.params.iter().filter(|p| !p.optional).count()
    }

    /// `name(a TEXT, b TEXT) -> REAL`.
    pub fn signature(&self) -> String {
        format!(
            "{}{} -> {}",
            self.name,
            describe_params(self.params),
            self.returns.name()
        )
    }
}

/// A table function: rows computed from its arguments.
pub struct TableFunction {
    pub name: &'static str,
    pub params: &'static [Param],
    pub columns: &'static [Column],
    pub doc: &'static str,
    pub call: fn(&Args<'_>) -> Result<Vec<Vec<Output>>>,
}

impl TableFunction {
    /// Runs the function: arity check, NULL rule (NULL in a required argument gives no rows), caught panics.
    pub fn invoke(&self, values: &[Value<'_>], host: Host) -> Result<Vec<Vec<Output>>> {
        invoke_checked(self.name, self.params, values, host, Vec::new(), self.call)
    }

    /// `name(sql TEXT) -> TABLE(id INTEGER, ...)`.
    pub fn signature(&self) -> String {
        let cols: Vec<String> = self
            .columns
            .iter()
            .map(|c| format!("{} {}", c.name, c.ty.name()))
            .collect();
        format!(
            "{}{} -> TABLE({})",
            self.name,
            describe_params(self.params),
            cols.join(", ")
        )
    }
}
