//! Host-independent schema model (tables, columns, types, keys) and the parsers that build it from schema arguments.
//!
//! A `schema` argument of a SQL function is text in one of three forms, told apart by its first
//! non-blank character ([`Schema::from_argument`]):
//!
//! - `{`: a Spider tables.json entry ([`spider_json`]);
//! - `[`: a JSON array of DDL strings, as BIRD's schema.json holds per database ([`bird`]);
//! - anything else: DDL text, one or more `CREATE TABLE` statements separated by `;` ([`ddl`]).
//!
//! A NULL argument means schema-less: callers then infer one ([`infer`], whose documentation states
//! the one policy: a plan from its own query, a generated database from all the queries run on it).
//!
//! Files: `model` (the types and lookups), [`affinity`] (SQLite's type affinity), one file per source,
//! `argument` (a `schema` argument parsed once per distinct text: [`schema_argument`]).

pub mod affinity;
mod argument;
pub mod bird;
pub mod ddl;
pub mod infer;
mod model;
mod spider_json;

pub use affinity::{affinity, Affinity};
pub use argument::{schema_argument, ParsedSchema};
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

/// The largest schema text accepted (the largest public schema, BIRD's works_cycles, is ~40 KB).
pub const MAX_SCHEMA_BYTES: usize = 16 << 20;

impl Schema {
    /// Builds a schema from the text of a `schema` argument: a Spider tables.json entry (leading
    /// `{`), a BIRD-style JSON array of DDL strings (leading `[`), or DDL text (anything else).
    ///
    /// Errors are [`Error::Argument`] with a message saying what is wrong (which statement or
    /// array element, which JSON key).
    ///
    /// ```
    /// use sqlsim::schema::Schema;
    /// let s = Schema::from_argument("CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT NOT NULL)").unwrap();
    /// assert_eq!(s.tables[0].primary_key, vec![0]);
    /// let b = Schema::from_argument(r#"["CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT NOT NULL)"]"#).unwrap();
    /// assert_eq!(s, b);
    /// assert!(Schema::from_argument("SELECT 1").is_err());
    /// ```
    pub fn from_argument(text: &str) -> Result<Schema> {
        if text.len() > MAX_SCHEMA_BYTES {
            return Err(bad(format!(
                "is {} bytes, over the {} MiB limit for schema text",
                text.len(),
                MAX_SCHEMA_BYTES >> 20
            )));
        }
        let t = text.trim_start();
        if t.starts_with('{') {
            spider_json::from_entry_text(text)
        } else if t.starts_with('[') {
            bird::from_json_text(text)
        } else {
            ddl::from_ddl(text)
        }
    }

    /// Builds a schema from DDL text (see [`ddl`]).
    pub fn from_ddl(text: &str) -> Result<Schema> {
        ddl::from_ddl(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dispatches_on_the_first_character() {
        let ddl = "CREATE TABLE singer (id INTEGER PRIMARY KEY, name TEXT)";
        let from_ddl = Schema::from_argument(ddl).unwrap();
        assert_eq!(from_ddl.tables[0].norm, "singer");
        let array = format!("  [{}]", serde_json::to_string(ddl).unwrap());
        assert_eq!(Schema::from_argument(&array).unwrap(), from_ddl);
        let entry = r#" {"db_id":"d","table_names_original":["singer"],
            "column_names_original":[[-1,"*"],[0,"id"],[0,"name"]],
            "column_types":["text","number","text"],"primary_keys":[1],"foreign_keys":[]}"#;
        let from_json = Schema::from_argument(entry).unwrap();
        assert_eq!(from_json.db_id.as_deref(), Some("d"));
        assert_eq!(
            from_json.tables[0].primary_key,
            from_ddl.tables[0].primary_key
        );
    }

    #[test]
    fn wide_and_huge_inputs_stay_bounded() {
        // One line, many columns, non-ASCII names: linear work (offsets and name lookups are O(1)).
        let cols: Vec<String> = (0..5_000)
            .map(|i| format!("\"é{i}\" TEXT NOT NULL"))
            .collect();
        let ddl = format!("CREATE TABLE t ({})", cols.join(", "));
        let s = Schema::from_argument(&ddl).unwrap();
        assert_eq!(s.columns.len(), 5_000);
        assert_eq!(s.columns[4_999].ty, "TEXT");
        let huge = " ".repeat(MAX_SCHEMA_BYTES + 1);
        assert!(Schema::from_argument(&huge)
            .unwrap_err()
            .to_string()
            .contains("limit"));
    }

    #[test]
    fn errors_name_the_argument_and_the_problem() {
        for (text, needle) in [
            ("", "no CREATE TABLE"),
            ("SELECT 1", "not DDL"),
            ("{\"a\": 1}", "table_names_original"),
            ("[1]", "element 1"),
            ("[\"SELECT 1\"]", "not DDL"),
            ("{not json", "not valid JSON"),
        ] {
            let e = Schema::from_argument(text).unwrap_err();
            assert!(
                matches!(
                    e,
                    Error::Argument {
                        argument: "schema",
                        ..
                    }
                ),
                "{text}: {e:?}"
            );
            assert!(e.to_string().contains(needle), "{text}: {e}");
        }
    }
}
