//! Why the Spider parser (process_sql.py) rejected a query, by the Python exception the original
//! raises. `Display` is the message the port always gave, so reasons read as before.

use std::fmt;

/// A query the official Spider parser rejects.
#[derive(Debug, Clone, PartialEq)]
pub enum SpiderError {
    /// `tokenize`'s assert: an odd number of quotes.
    UnbalancedQuotes,
    /// `IndexError`: the tokens ended where the parser expected one more.
    IndexOutOfRange,
    /// `KeyError`: a table, column or alias that the schema does not know.
    KeyError(String),
    /// `ValueError` unpacking `t.c.x`: more than one dot in a column token.
    TooManyValues(String),
    /// `int(token)` after LIMIT (Spider's original rule) on a token that is not an integer.
    NotAnInt(String),
    /// Nesting deeper than [`super::parser::MAX_DEPTH`] (the original hits Python's recursion limit).
    TooDeep,
    /// Any other `assert` of the original, with the message the port gives it.
    Assertion(String),
}

impl fmt::Display for SpiderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpiderError::UnbalancedQuotes => f.write_str("Unexpected quote"),
            SpiderError::IndexOutOfRange => f.write_str("list index out of range"),
            SpiderError::KeyError(k) => write!(f, "KeyError: {k}"),
            SpiderError::TooManyValues(t) => {
                write!(f, "ValueError: too many values to unpack: {t}")
            }
            SpiderError::NotAnInt(t) => write!(f, "invalid literal for int(): {t}"),
            SpiderError::TooDeep => {
                write!(f, "query nesting deeper than {}", super::parser::MAX_DEPTH)
            }
            SpiderError::Assertion(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for SpiderError {}

impl From<SpiderError> for crate::error::Error {
    fn from(e: SpiderError) -> Self {
        use crate::error::Error;
        match e {
            SpiderError::TooDeep => Error::Limit(e.to_string()),
            _ => Error::Parse(e.to_string()),
        }
    }
}
