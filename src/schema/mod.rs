//! Host-independent schema model (tables, columns, types, keys) and the parsers that build it from schema arguments.
//!
//! A `schema` argument of a SQL function is text: a Spider tables.json entry (a JSON object) today;
//! DDL text and BIRD-style JSON arrays of DDL strings are recognised and reported as not yet supported.

mod spider_json;

pub use spider_json::{load_tables_file, load_tables_text};

use crate::error::{Error, Result};

/// One column of a table.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// Index of the owning table in [`Schema::tables`].
    pub table: usize,
    /// The name as written in the source (Spider `column_names_original`).
    pub name: String,
    /// Lower-cased name, used for case-insensitive lookups.
    pub norm: String,
    /// Declared type (`text`, `number`, ...), empty when unknown.
    pub ty: String,
    /// Position in the source's global column list (Spider: index into `column_names_original`, where 0 is `*`).
    pub ordinal: usize,
}

/// One table with the indices of its columns in [`Schema::columns`].
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// The name as written in the source (Spider `table_names_original`).
    pub name: String,
    /// Lower-cased name.
    pub norm: String,
    /// Indices into [`Schema::columns`], in declaration order.
    pub columns: Vec<usize>,
}

/// A database schema: tables, columns, primary keys and foreign keys.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Schema {
    /// Database name, when the source gives one (Spider `db_id`).
    pub db_id: Option<String>,
    pub tables: Vec<Table>,
    pub columns: Vec<Column>,
    /// Primary-key columns (indices into `columns`).
    pub primary_keys: Vec<usize>,
    /// Foreign keys as (referencing column, referenced column), indices into `columns`.
    pub foreign_keys: Vec<(usize, usize)>,
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
            "is a JSON array (BIRD-style DDL list), which is not supported yet; pass a Spider tables.json entry (JSON object)".to_string()
        } else if t.is_empty() {
            "is empty; pass a Spider tables.json entry (JSON object) or NULL".to_string()
        } else {
            "looks like DDL text, which is not supported yet; pass a Spider tables.json entry (JSON object)".to_string()
        };
        Err(Error::Argument {
            function: "schema",
            argument: "schema",
            message,
        })
    }

    /// The index of the table whose name matches `name` case-insensitively (the last one wins, as in Spider).
    pub fn table_index(&self, name: &str) -> Option<usize> {
        let n = name.to_lowercase();
        self.tables.iter().rposition(|t| t.norm == n)
    }

    /// Columns of table `t` as `Column` references.
    pub fn table_columns(&self, t: usize) -> impl Iterator<Item = &Column> {
        self.tables
            .get(t)
            .into_iter()
            .flat_map(move |tb| tb.columns.iter().filter_map(move |&c| self.columns.get(c)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_ddl_and_arrays_clearly() {
        let e = Schema::from_argument("CREATE TABLE t(a int)").unwrap_err();
        assert!(e.to_string().contains("DDL"));
        let e = Schema::from_argument("[\"CREATE TABLE t(a int)\"]").unwrap_err();
        assert!(e.to_string().contains("BIRD"));
    }
}
