//! How strong a counterexample is: whether the two queries differ on ordinary data, only where a plain column repeats a value, only in how often rows repeat, only through NULL values, only on empty input, or (under `test-suite` semantics) only by tie-breaking at a LIMIT cut-off.

use crate::exec::compare::Cell;
use crate::exec::instance::{storage_class, Database, Outcome};
use crate::exec::leniency::Leniency;
use crate::exec::options::Semantics;
use crate::exec::same_result::{distinct, same_result, RowOrder};
use crate::parseval::symbolic::database::nth_date;
use crate::schema::{Affinity, Schema};
use rusqlite::types::Value;

/// The kind of database on which two results differ, strongest first (the derived order ranks
/// stronger evidence lower, so `min` picks the strongest).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Evidence {
    /// The results differ on a database without NULL values, and both are real results (or the
    /// prediction fails where the gold query runs).
    Ordinary,
    /// The results differ, but not once every value that a plain column (no key, no foreign key)
    /// repeats is replaced by a fresh one ([`super::repeated_values`]): only two rows that share
    /// such a value tell the queries apart (two airlines of one name against an `INTERSECT` of
    /// names, a tie at the maximum against `ORDER BY ... LIMIT 1`). Test-suite evaluation's labels
    /// call most such pairs equivalent (docs/similarity.md).
    RepeatedValues,
    /// The results hold the same rows, only repeated a different number of times (a DISTINCT
    /// more or less, a join that repeats rows): under `bag` and `test-suite` semantics a
    /// difference, but BIRD's execution accuracy and test-suite-sql-eval's default (which
    /// removes every DISTINCT) do not count it.
    Repeats,
    /// The only databases found that tell the queries apart hold NULL values
    /// (e.g. `COUNT(col)` against `COUNT(*)`).
    NullDependent,
    /// They differ only when the input is empty or nothing qualifies: one side returns no rows
    /// and the other a single row of NULLs or zeros-from-nothing (e.g. `MAX(x)` against
    /// `ORDER BY x DESC LIMIT 1`).
    EmptyInput,
    /// Under `test-suite` semantics only: they differ only in which of several tied rows a
    /// LIMIT keeps (`ORDER BY count(*) DESC LIMIT 1` against the same with another tie-breaker).
    /// Test-suite evaluation compares the rows SQLite returns, so such a database tells them
    /// apart there; under `bag` and `set` it is set aside (the kept row is no query's meaning).
    TieBreaking,
}

impl Evidence {
    /// The name used in reasons and in `sql_similarity_components`.
    pub fn name(self) -> &'static str {
        match self {
            Evidence::Ordinary => "ordinary",
            Evidence::RepeatedValues => "repeated-values",
            Evidence::Repeats => "repeats",
            Evidence::NullDependent => "null-dependent",
            Evidence::EmptyInput => "empty-input",
            Evidence::TieBreaking => "tie-breaking",
        }
    }

    /// Whether a difference of this kind decides a verdict as soon as it is found: an ordinary
    /// one, which no leniency forgives ([`Evidence::leniency`]); the others are kept while the
    /// search goes on for a stronger one.
    pub fn decides(self) -> bool {
        self == Evidence::Ordinary
    }

    /// The `forgive_*` leniency that forgives every difference of this kind (None: an ordinary
    /// difference is never forgiven); `forgive_untested_nulls` forgives some `null-dependent`
    /// ones too (null_tests.rs).
    pub fn leniency(self) -> Option<Leniency> {
        match self {
            Evidence::Ordinary => None,
            Evidence::RepeatedValues => Some(Leniency::ForgiveRepeatedValues),
            Evidence::Repeats => Some(Leniency::ForgiveRepeats),
            Evidence::NullDependent => Some(Leniency::ForgiveNulls),
            Evidence::EmptyInput => Some(Leniency::ForgiveEmptyInput),
            Evidence::TieBreaking => Some(Leniency::ForgiveTies),
        }
    }

    /// Classifies the database `db` on which `gold` and `pred` differ when their rows are
    /// compared under `order` and `semantics`.
    pub fn of(
        db: &Database,
        (gold, pred): (&Outcome, &Outcome),
        order: &RowOrder,
        semantics: Semantics,
    ) -> Evidence {
        if matches!(pred, Outcome::Error(_)) {
            return Evidence::Ordinary;
        }
        let has_null = db
            .tables
            .iter()
            .flat_map(|t| t.rows.iter().flatten())
            .any(|v| matches!(v, Value::Null));
        if has_null {
            // a row of NULLs may be data here, not an aggregate over nothing
            Evidence::NullDependent
        } else if db.tables.iter().all(|t| t.rows.is_empty()) || empty_against_nothing(gold, pred) {
            Evidence::EmptyInput
        } else if only_repeats(gold, pred, order, semantics) {
            Evidence::Repeats
        } else {
            Evidence::Ordinary
        }
    }
}

/// Both queries return rows, and without their repeated rows the results are the same.
fn only_repeats(gold: &Outcome, pred: &Outcome, order: &RowOrder, semantics: Semantics) -> bool {
    match (gold, pred) {
        (Outcome::Rows(g), Outcome::Rows(p)) => {
            same_result(&distinct(g), &distinct(p), order, semantics)
        }
        _ => false,
    }
}

/// `db` with every NULL replaced by a fresh non-NULL value of its column's type (a foreign-key
/// column takes the referenced column's value in the referenced table's first row), so a
/// counterexample that holds NULLs can be re-checked on ordinary data. A foreign-key column whose
/// referenced table is empty stays NULL. `None` when no NULL could be replaced.
pub fn without_nulls(schema: &Schema, db: &Database) -> Option<Database> {
    let mut out = db.clone();
    let mut replaced = 0usize;
    for t in out.tables.iter_mut() {
        let table = schema.tables.get(t.table)?;
        for row in t.rows.iter_mut() {
            for (slot, &column) in row.iter_mut().zip(&table.columns) {
                if !matches!(slot, Value::Null) {
                    continue;
                }
                let value = match table
                    .foreign_keys
                    .iter()
                    .find(|fk| fk.columns.contains(&column))
                {
                    // a reference into an empty table stays NULL (the only valid value)
                    Some(fk) => match referenced_value(schema, db, fk, column) {
                        Some(v) => v,
                        None => continue,
                    },
                    None => fresh_value(schema, column, replaced + 1),
                };
                replaced += 1;
                *slot = value;
            }
        }
    }
    (replaced > 0).then_some(out)
}

/// A fresh value of `column` per replacement, distinct from each other (a clash with a generated
/// value can at worst break a key, and then the NULL counterexample stands); a date for a `DATE`
/// column.
pub(super) fn fresh_value(schema: &Schema, column: usize, n: usize) -> Value {
    if schema.columns.get(column).is_some_and(|c| c.holds_dates()) {
        return Value::Text(nth_date(n as i64));
    }
    match storage_class(schema, column) {
        Affinity::Text => Value::Text(format!("n{n}")),
        Affinity::Real => Value::Real(1000.5 + n as f64),
        _ => Value::Integer(1000 + n as i64),
    }
}

/// The value of the column that `column` references through `fk`, in the first row of the
/// referenced table in `db`.
fn referenced_value(
    schema: &Schema,
    db: &Database,
    fk: &crate::schema::ForeignKey,
    column: usize,
) -> Option<Value> {
    let i = fk.columns.iter().position(|&c| c == column)?;
    let target = *fk.referenced_columns.get(i)?;
    let position = schema
        .tables
        .get(fk.referenced_table)?
        .columns
        .iter()
        .position(|&c| c == target)?;
    let rows = db.tables.iter().find(|t| t.table == fk.referenced_table)?;
    rows.rows
        .first()
        .and_then(|r| r.get(position))
        .filter(|v| !matches!(v, Value::Null))
        .cloned()
}

/// One result has no rows and the other is a single row of NULLs: an aggregate over nothing.
fn empty_against_nothing(gold: &Outcome, pred: &Outcome) -> bool {
    let (Outcome::Rows(g), Outcome::Rows(p)) = (gold, pred) else {
        return false;
    };
    let all_null = |rows: &[crate::exec::compare::Row]| {
        rows.len() == 1 && rows[0].cells.iter().all(|c| matches!(c, Cell::Null))
    };
    (g.is_empty() && all_null(p)) || (p.is_empty() && all_null(g))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::compare::Row;
    use crate::exec::instance::TableRows;

    fn rows(cells: Vec<Vec<Cell>>) -> Outcome {
        Outcome::Rows(
            cells
                .into_iter()
                .map(|c| Row {
                    real: vec![false; c.len()],
                    cells: c,
                })
                .collect(),
        )
    }

    fn db(values: Vec<Value>) -> Database {
        Database {
            tables: vec![TableRows {
                table: 0,
                rows: vec![values],
            }],
        }
    }

    fn of(db: &Database, gold: &Outcome, pred: &Outcome) -> Evidence {
        Evidence::of(db, (gold, pred), &RowOrder::Bag, Semantics::TestSuite)
    }

    #[test]
    fn classifies_by_database_and_results() {
        let one = rows(vec![vec![Cell::Int(1)]]);
        let two = rows(vec![vec![Cell::Int(2)]]);
        let null_row = rows(vec![vec![Cell::Null]]);
        let none = rows(vec![]);
        let plain = db(vec![Value::Integer(1)]);
        let with_null = db(vec![Value::Integer(1), Value::Null]);
        assert_eq!(of(&Database::default(), &one, &two), Evidence::EmptyInput);
        assert_eq!(of(&plain, &null_row, &none), Evidence::EmptyInput);
        assert_eq!(of(&with_null, &one, &two), Evidence::NullDependent);
        assert_eq!(of(&plain, &one, &two), Evidence::Ordinary);
        let failed = Outcome::Error("no such column".into());
        assert_eq!(of(&Database::default(), &one, &failed), Evidence::Ordinary);
        assert!(Evidence::Ordinary < Evidence::RepeatedValues);
        assert!(Evidence::RepeatedValues < Evidence::Repeats);
        assert!(Evidence::Repeats < Evidence::NullDependent);
        assert!(Evidence::NullDependent < Evidence::EmptyInput);
    }

    #[test]
    fn repeated_rows_alone_are_repeats() {
        let plain = db(vec![Value::Integer(1)]);
        let int_rows = |v: &[i64]| rows(v.iter().map(|&x| vec![Cell::Int(x)]).collect());
        let (once, twice) = (int_rows(&[1, 2]), int_rows(&[1, 2, 1]));
        assert_eq!(of(&plain, &once, &twice), Evidence::Repeats);
        assert_eq!(of(&plain, &once, &int_rows(&[1, 3, 1])), Evidence::Ordinary);
        // under an ORDER BY, the rows without repeats must still come in the gold's order
        let sorted = RowOrder::Sorted(vec![0]);
        let of_sorted =
            |g: &Outcome, p: &Outcome| Evidence::of(&plain, (g, p), &sorted, Semantics::Bag);
        assert_eq!(of_sorted(&once, &int_rows(&[1, 1, 2])), Evidence::Repeats);
        assert_eq!(of_sorted(&once, &int_rows(&[2, 1, 1])), Evidence::Ordinary);
        assert_eq!(of_sorted(&once, &int_rows(&[2, 1])), Evidence::Ordinary);
    }
}
