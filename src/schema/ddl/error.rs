//! Why one DDL statement could not be read. The message is what follows the statement's name in
//! the schema argument's error (`statement 2 (CREATE TABLE t ...) does not parse: <message>`).

use std::fmt;

/// Why a DDL statement (or the text holding it) could not be read; `Display` is the message.
#[derive(Debug, Clone, PartialEq)]
pub enum DdlError {
    /// The text does not tokenize or the statement does not parse (sqlparser's message, or
    /// sqlsim's operator-chain limit).
    Syntax(String),
    /// Valid SQL that does not declare a table sqlsim can read (not a CREATE TABLE, AS SELECT,
    /// a key over an expression, a table name that is not an identifier).
    Unsupported(String),
    /// A declaration SQLite rejects too: a table or column declared twice, two primary keys, a
    /// key naming a column the table lacks.
    Invalid(String),
}

impl fmt::Display for DdlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DdlError::Syntax(m) | DdlError::Unsupported(m) | DdlError::Invalid(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for DdlError {}

/// Bad schema text is an argument error (`schema(): argument 'schema' <message>`; callers rename
/// the function and argument, and prefix the statement).
impl From<DdlError> for crate::error::Error {
    fn from(e: DdlError) -> Self {
        super::super::bad(e.to_string())
    }
}
