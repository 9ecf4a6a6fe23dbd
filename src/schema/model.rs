//! The schema model itself: tables, columns, keys, and the lookups every consumer uses.
//!
//! Indices: columns live in one flat list ([`Schema::columns`]); a table, a key or a foreign key
//! names its columns by index into that list. The per-table keys ([`Table::primary_key`],
//! [`Table::unique_keys`], [`Table::foreign_keys`]) keep composite keys together; the flat
//! [`Schema::primary_keys`] and [`Schema::foreign_keys`] are the column-pair view Spider's evaluator
//! reads (the order of the source for Spider entries, declaration order otherwise).

use super::affinity::{affinity, Affinity};

/// One column of a table.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Column {
    /// Index of the owning table in [`Schema::tables`].
    pub table: usize,
    /// The name as written in the source (Spider `column_names_original`, DDL without its quotes).
    pub name: String,
    /// Lower-cased name, used for case-insensitive lookups.
    pub norm: String,
    /// Declared type as written (`TEXT`, `varchar(20)`; Spider: `text`, `number`, ...); empty when
    /// there is none (DDL without a type, or a schema inferred from queries).
    pub ty: String,
    /// Position in the source's global column list: Spider's index into `column_names_original`
    /// (0 is `*`); for DDL and inferred schemas 1, 2, ... in declaration order across all tables.
    pub ordinal: usize,
    /// The column can never hold NULL: declared `NOT NULL`, or SQLite makes it so (the
    /// `INTEGER PRIMARY KEY` rowid alias, the primary key of a `WITHOUT ROWID` table). A plain
    /// PRIMARY KEY does not imply it: SQLite lets such columns hold NULL.
    pub not_null: bool,
    /// The column alone is a key: a single-column `UNIQUE` or a single-column primary key.
    pub unique: bool,
    /// Holds dates as a declared `DATE` column does, whatever its type: set by the verdict under
    /// option `plausible_dates` (parseval/verdict/plausible_dates.rs), never by a schema source.
    pub plausible_dates: bool,
}

impl Column {
    /// SQLite's type affinity of the declared type (see [`affinity`]).
    pub fn affinity(&self) -> Affinity {
        affinity(&self.ty)
    }

    /// Declared `DATE`: the column holds dates written `YYYY-MM-DD` (what SQLite's date
    /// functions print), not date-times or other text. `DATETIME`, `TIMESTAMP` and Spider's
    /// `time` type make no such promise (they hold dates, date-times and more).
    pub fn holds_dates(&self) -> bool {
        self.plausible_dates || self.ty.trim().eq_ignore_ascii_case("date")
    }
}

/// A foreign key of a table; composite keys keep their columns together, in matching order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForeignKey {
    /// Referencing columns (indices into [`Schema::columns`], all of the owning table).
    pub columns: Vec<usize>,
    /// Index of the referenced table in [`Schema::tables`].
    pub referenced_table: usize,
    /// Referenced columns, one per referencing column (indices into [`Schema::columns`]).
    pub referenced_columns: Vec<usize>,
}

/// One table: its columns and keys, all as indices into [`Schema::columns`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Table {
    /// The name as written in the source (Spider `table_names_original`, DDL without its quotes).
    pub name: String,
    /// Lower-cased name.
    pub norm: String,
    /// The table's columns, in declaration order.
    pub columns: Vec<usize>,
    /// The primary key (empty when there is none); a composite key is one list.
    pub primary_key: Vec<usize>,
    /// Every UNIQUE constraint, single- or multi-column, without the primary key; no duplicates.
    pub unique_keys: Vec<Vec<usize>>,
    /// Foreign keys whose referenced table exists in the schema.
    pub foreign_keys: Vec<ForeignKey>,
}

/// A database schema: tables, columns, keys.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Schema {
    /// Database name, when the source gives one (Spider `db_id`).
    pub db_id: Option<String>,
    pub tables: Vec<Table>,
    pub columns: Vec<Column>,
    /// Primary-key columns of all tables, flat (indices into `columns`).
    pub primary_keys: Vec<usize>,
    /// Foreign keys as (referencing column, referenced column) pairs, flat (indices into `columns`).
    pub foreign_keys: Vec<(usize, usize)>,
}

impl Schema {
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

    /// The index (into [`Schema::columns`]) of the column of table `table` named `name`,
    /// case-insensitively; the first one wins when a source repeats a name.
    pub fn column_index(&self, table: usize, name: &str) -> Option<usize> {
        let n = name.to_lowercase();
        self.tables
            .get(table)?
            .columns
            .iter()
            .copied()
            .find(|&c| self.columns.get(c).is_some_and(|col| col.norm == n))
    }

    /// Adds a table (no columns yet) and returns its index.
    pub(super) fn push_table(&mut self, name: &str) -> usize {
        self.tables.push(Table {
            name: name.to_string(),
            norm: name.to_lowercase(),
            ..Table::default()
        });
        self.tables.len() - 1
    }

    /// Adds a column to table `table` and returns its index; its ordinal is its position in
    /// [`Schema::columns`] plus one (1, 2, ... across all tables).
    pub(super) fn push_column(&mut self, table: usize, name: &str, ty: &str) -> usize {
        let index = self.columns.len();
        self.columns.push(Column {
            table,
            name: name.to_string(),
            norm: name.to_lowercase(),
            ty: ty.to_string(),
            ordinal: index + 1,
            not_null: false,
            unique: false,
            plausible_dates: false,
        });
        if let Some(t) = self.tables.get_mut(table) {
            t.columns.push(index);
        }
        index
    }

    /// Sets each column's `unique` flag from the per-table keys.
    pub(super) fn mark_unique_columns(&mut self) {
        for t in &self.tables {
            let singles = t.unique_keys.iter().chain(std::iter::once(&t.primary_key));
            for key in singles {
                if let [c] = key.as_slice() {
                    if let Some(col) = self.columns.get_mut(*c) {
                        col.unique = true;
                    }
                }
            }
        }
    }

    /// Fills the flat views from the per-table keys, in table order then declaration order.
    pub(super) fn flatten_keys(&mut self) {
        self.primary_keys = self
            .tables
            .iter()
            .flat_map(|t| t.primary_key.iter().copied())
            .collect();
        self.foreign_keys = self
            .tables
            .iter()
            .flat_map(|t| &t.foreign_keys)
            .flat_map(|fk| {
                fk.columns
                    .iter()
                    .copied()
                    .zip(fk.referenced_columns.iter().copied())
            })
            .collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_tables() -> Schema {
        let mut s = Schema::default();
        let a = s.push_table("Singer");
        let b = s.push_table("song");
        s.push_column(a, "Singer_ID", "INTEGER");
        s.push_column(a, "Name", "text");
        s.push_column(b, "Song_ID", "");
        s.push_column(b, "singer_id", "int");
        s.tables[a].primary_key = vec![0];
        s.tables[b].primary_key = vec![2, 3];
        s.tables[b].unique_keys = vec![vec![3]];
        s.tables[b].foreign_keys = vec![ForeignKey {
            columns: vec![3],
            referenced_table: a,
            referenced_columns: vec![0],
        }];
        s.mark_unique_columns();
        s.flatten_keys();
        s
    }

    #[test]
    fn lookups_are_case_insensitive() {
        let s = two_tables();
        assert_eq!(s.table_index("SINGER"), Some(0));
        assert_eq!(s.column_index(0, "name"), Some(1));
        assert_eq!(s.column_index(1, "SINGER_ID"), Some(3));
        assert_eq!(s.column_index(1, "name"), None);
        assert_eq!(s.column_index(7, "name"), None);
        let names: Vec<&str> = s.table_columns(1).map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["Song_ID", "singer_id"]);
    }

    #[test]
    fn derived_flags_and_flat_views() {
        let s = two_tables();
        let unique: Vec<bool> = s.columns.iter().map(|c| c.unique).collect();
        // Singer_ID: single-column PK; Song_ID: part of a composite PK only; singer_id: UNIQUE.
        assert_eq!(unique, [true, false, false, true]);
        assert_eq!(s.primary_keys, [0, 2, 3]);
        assert_eq!(s.foreign_keys, [(3, 0)]);
        let ordinals: Vec<usize> = s.columns.iter().map(|c| c.ordinal).collect();
        assert_eq!(ordinals, [1, 2, 3, 4]);
        assert_eq!(s.columns[2].affinity(), Affinity::Blob);
        assert_eq!(s.columns[3].affinity(), Affinity::Integer);
    }
}
