//! Why ParSEval's search for databases stopped before a verdict: a plan symbolic execution does
//! not handle, an instance past the size bound, or a failure of Z3 itself. The text is the reason
//! `sql_equivalent` and `parseval_generate` report, unchanged.

use std::fmt;

/// Why the symbolic search stopped; `Display` is the reason users see.
#[derive(Debug, Clone, PartialEq)]
pub enum SearchError {
    /// The plan uses something symbolic execution cannot model ("unsupported: ...").
    Unsupported(String),
    /// An intermediate relation past the candidate-row bound ("instance too large: ...").
    TooLarge(String),
    /// Z3 failed (a context it could not create, memory past the cap): the caught panic's message.
    Solver(String),
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::Unsupported(m) => write!(f, "unsupported: {m}"),
            SearchError::TooLarge(m) => write!(f, "instance too large: {m}"),
            SearchError::Solver(m) => write!(f, "the solver failed ({m})"),
        }
    }
}

impl std::error::Error for SearchError {}

impl From<SearchError> for crate::error::Error {
    fn from(e: SearchError) -> Self {
        use crate::error::Error;
        match e {
            SearchError::Unsupported(_) => Error::Unsupported(e.to_string()),
            SearchError::TooLarge(_) => Error::Limit(e.to_string()),
            SearchError::Solver(_) => Error::Internal(e.to_string()),
        }
    }
}
