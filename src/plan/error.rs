//! Why a query could not be planned, by kind: callers tell a query sqlsim does not handle from one
//! SQLite would reject, from a planning bound, from a bug. The text is what `sql_plan_error` shows.

use std::fmt;

/// Why a query could not be planned; `Display` is the message `sql_plan_error` returns.
#[derive(Debug, Clone, PartialEq)]
pub enum PlanError {
    /// The text does not parse, or is over the parser's input limit.
    Parse(String),
    /// Valid SQL that the planner does not handle (window functions, recursive CTEs, ...).
    Unsupported(String),
    /// A query SQLite would reject too: no such table or column, an ORDER BY term out of range, ...
    Invalid(String),
    /// A planning bound was reached (nesting depth, tables in a join, list terms, columns).
    Limit(String),
    /// A bug: a rewrite rule changed the plan's output columns.
    Internal(String),
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanError::Internal(m) => write!(f, "internal error: {m}"),
            PlanError::Parse(m)
            | PlanError::Unsupported(m)
            | PlanError::Invalid(m)
            | PlanError::Limit(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for PlanError {}

impl From<PlanError> for crate::error::Error {
    fn from(e: PlanError) -> Self {
        use crate::error::Error;
        match e {
            PlanError::Parse(m) => Error::Parse(m),
            PlanError::Unsupported(m) | PlanError::Invalid(m) => Error::Unsupported(m),
            PlanError::Limit(m) => Error::Limit(m),
            PlanError::Internal(m) => Error::Internal(m),
        }
    }
}
