//! The crate's one error type: every failure is a value that names what went wrong and where.
//! Modules that tell their failures apart by kind have their own enum beside the code that raises
//! it (`plan::PlanError`, `parseval::SearchError`, `metrics::spider::SpiderError`,
//! `gmn::runtime::RuntimeError`, ...), whose `Display` is the message users see and which converts
//! into [`Error`] (with `From`, or by the registry, which adds the function's name).

use std::fmt;

/// Everything that can go wrong inside sqlsim.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// The SQL text did not parse (or exceeded an input limit); metrics turn this into their lowest score.
    Parse(String),
    /// A SQL function received a bad argument: wrong type, bad option, bad schema text.
    Argument {
        function: &'static str,
        argument: &'static str,
        message: String,
    },
    /// A SQL function received the wrong number of arguments.
    Arity {
        function: &'static str,
        signature: String,
        got: usize,
    },
    /// Valid input that sqlsim does not handle, or a query it cannot plan (the message says which).
    Unsupported(String),
    /// A resource bound (size, depth, time) was reached.
    Limit(String),
    /// Something a function needs at run time is missing (ONNX Runtime, a model file); the message
    /// names the function and where it looked.
    Unavailable(String),
    /// A bug: something the code did not expect (a caught panic, for example).
    Internal(String),
}

/// Result alias used across the crate.
pub type Result<T> = std::result::Result<T, Error>;

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Parse(m) => write!(f, "{m}"),
            Error::Argument {
                function,
                argument,
                message,
            } => write!(f, "{function}(): argument '{argument}' {message}"),
            Error::Arity {
                function,
                signature,
                got,
            } => write!(
                f,
                "{function}(): wrong number of arguments: got {got}, expected {signature}"
            ),
            Error::Unsupported(m) => write!(f, "{m}"),
            Error::Limit(m) => write!(f, "limit reached: {m}"),
            Error::Unavailable(m) => write!(f, "{m}"),
            Error::Internal(m) => write!(f, "internal error: {m}"),
        }
    }
}

impl std::error::Error for Error {}

/// The message of a caught panic (`&str` or `String` payloads; anything else is "unknown panic").
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}
