//! COUNT of a value that is never NULL plans as COUNT(*): `COUNT(1)` (any literal but NULL),
//! `COUNT(pk)`, `COUNT(name)` on a NOT NULL column, and `COUNT(DISTINCT pk)` of a one-column
//! primary key over that table alone.
//!
//! A primary-key column is read as never NULL (its scan column is `not_null`, plan/build/from.rs),
//! as the SQL standard has it and as ParSEval's generated databases hold it (SQLite alone lets a
//! non-INTEGER key column hold NULL; real data, Spider's and BIRD's included, does not). A column of a table on the NULL side of an
//! outer join is not never NULL there (`COUNT(o.id)` after `LEFT JOIN o` counts the matches),
//! and DISTINCT only drops out where each row is one row of the key's table: one table in FROM,
//! not a derived table. Both spellings then have one plan, labels included.

use super::scope::Scope;
use super::Builder;
use crate::plan::columns::ColumnId;
use crate::plan::expr::{Expr, Literal};

impl Builder<'_> {
    /// True when `COUNT([DISTINCT] args)` counts the same rows as `COUNT(*)` in `scope`.
    pub(super) fn counts_every_row(&self, distinct: bool, args: &[Expr], scope: &Scope) -> bool {
        let c = match args {
            [Expr::Literal(value)] => return !distinct && !matches!(value, Literal::Null),
            [Expr::Column(c)] => c,
            _ => return false,
        };
        let Some(rel) = scope
            .relations
            .iter()
            .find(|r| r.columns.iter().any(|(_, id)| id == c))
        else {
            return false;
        };
        if rel.null_extended {
            return false;
        }
        if !distinct {
            // a key column is not_null too (plan/build/from.rs)
            return self.columns.meta(*c).not_null;
        }
        let one_table = scope.relations.len() == 1;
        self.key_facts(*c)
            .is_some_and(|k| one_table && k.whole_key && rel.table.as_deref() == Some(k.table))
    }

    /// What the schema says of base column `c`: its table, and whether it is the whole
    /// (one-column) primary key. None for a column not read from a table.
    fn key_facts(&self, c: ColumnId) -> Option<KeyFacts<'_>> {
        let (table, column) = self.columns.meta(c).origin.as_ref()?;
        let index = self.schema.table_index(table)?;
        let column = self.schema.column_index(index, column)?;
        let t = &self.schema.tables[index];
        let in_key = t.primary_key.contains(&column);
        Some(KeyFacts {
            table: t.name.as_str(),
            whole_key: in_key && t.primary_key.len() == 1,
        })
    }
}

/// A base column's place in its table's primary key.
struct KeyFacts<'a> {
    table: &'a str,
    whole_key: bool,
}
