//! Host-independent schema model (tables, columns, types, keys) and the parsers that build it from schema arguments.
//!
//! A `schema` argument of a SQL function is text in one of three forms, told apart by its first
//! non-blank character ([`Schema::from_argument`]):
//!
//! - `{`: a Spider tables.json entry ([`spider_json`]);
//! - `[`: a JSON array of DDL strings, as BIRD's schema.json holds per database ([`bird`]);
//! - anything else: DDL text, one or more `CREATE TABLE` statements separated by `;` ([`ddl`]).
//!
//! A NULL argument means schema-less: callers then use [`Schema::infer`] over the queries ([`infer`]).
//!
//! Files: `model` (the types and lookups), [`affinity`] (SQLite's type affinity), one file per source.

pub mod affinity;
mod model;
mod spider_json;

pub use affinity::{affinity, Affinity};
pub use model::{Column, ForeignKey, Schema, Table};
pub use spider_json::{load_tables_file, load_tables_text};

use crate::error::{Error, Result};

/// The error for bad schema text: `schema(): argument 'schema' <message>` (callers rename the
/// function and argument to the SQL function's own).
pub(crate) fn bad(message: impl Into<String>) -> Error {
    Error::Argument {
        function: "schema",
        argument: "schema",
        message: message.into(),
    }
}

impl Schema {
    /// Builds a schema from the text of a `schema` argument.
    ///
    /// Accepts a Spider tables.json entry (JSON object). DDL text and JSON arrays of DDL strings
    /// (BIRD style) are recognised but not supported yet, and give an [`Error::Argument`].
    pub fn from_argument(text: &str) -> Result<Schema> {
        let t = text.trim_start();
        if t.starts_with('{') {
            return spider_json::from_entry_text(text);
        }
        let message = if t.starts_with('[') {
            "is a JSON array (BIRD-style DDL list), which is not supported yet; pass a Spider tables.json entry (JSON object)"
        } else if t.is_empty() {
            "is empty; pass a Spider tables.json entry (JSON object) or NULL"
        } else {
            "looks like DDL text, which is not supported yet; pass a Spider tables.json entry (JSON object)"
        };
        Err(bad(message))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_ddl_and_arrays_clearly() {
        let e = Schema::from_argument("CREATE TABLE t(a int)").unwrap_err();
        assert!(e.to_string().contains("DDL"));
        assert!(matches!(e, Error::Argument { .. }));
        let e = Schema::from_argument("[\"CREATE TABLE t(a int)\"]").unwrap_err();
        assert!(e.to_string().contains("BIRD"));
    }
}
