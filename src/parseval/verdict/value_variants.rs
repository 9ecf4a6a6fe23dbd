//! Value variants of a generated database: the same rows with NULLs replaced, letter case swapped,
//! numbers moved, text lengthened or values repeated, keeping every declared constraint. Coverage
//! branches fix the values a query's conditions read; the values it only outputs stay arbitrary
//! (often NULL), so `upper(name)` against `name`, `a + 1` against `a` or `count(DISTINCT a)`
//! against `count(a)` need other data to part. Any valid database that tells two queries apart is a
//! counterexample, so a variant needs no coverage of its own, only the schema's constraints.

use rusqlite::types::Value;
use rusqlite::Connection;

use super::evidence::without_nulls;
use crate::exec::instance::{quote, Database};
use crate::schema::Schema;

/// The variants of `db` worth running, at most four: NULLs replaced (when there are any), then,
/// on that NULL-free copy, "swapped" (letter case swapped, integers v → 2v + 3, reals r → 2r + 0.25),
/// "repeated" (numbers negated, text padded as " t" + t + "z", and each free column's first
/// value repeated down the table) and "names repeated" (the copy with each free column's values
/// repeated, except values equal to one of the queries' `literals`, which the queries' conditions
/// pick: two students called alike, one with a cat and one with a dog). Text that reads as a
/// number is moved with the numbers, so a text column referencing a number key keeps matching
/// it. Variants equal to `db` are left out.
pub fn variants(schema: &Schema, db: &Database, literals: &[String]) -> Vec<Database> {
    let mut out = Vec::new();
    let base = match without_nulls(schema, db) {
        Some(plain) => {
            out.push(plain.clone());
            plain
        }
        None => db.clone(),
    };
    if base.tables.iter().all(|t| t.rows.is_empty()) {
        return out;
    }
    out.push(SWAPPED.database(schema, &base));
    let free = free_columns(schema);
    let mut repeated = NEGATED_AND_PADDED.database(schema, &base);
    repeat_free_columns(schema, &free, &mut repeated, &[]);
    out.push(repeated);
    let mut alike = base;
    repeat_free_columns(schema, &free, &mut alike, literals);
    out.push(alike);
    // no repeats (of `db` or of an earlier variant)
    let mut k = 0;
    while k < out.len() {
        if out[k] == *db || out[..k].contains(&out[k]) {
            out.remove(k);
        } else {
            k += 1;
        }
    }
    out
}

/// True when every foreign key of `schema` holds in the database open on `conn` (SQLite's own
/// comparison rules decide a match, as in the queries' joins); tables that are not there count
/// as empty.
pub fn foreign_keys_hold(conn: &Connection, schema: &Schema) -> bool {
    let name = |c: usize| schema.columns.get(c).map(|c| quote(&c.name));
    for table in &schema.tables {
        for fk in &table.foreign_keys {
            let Some(parent) = schema.tables.get(fk.referenced_table) else {
                continue;
            };
            let pairs: Option<Vec<(String, String)>> = fk
                .columns
                .iter()
                .zip(&fk.referenced_columns)
                .map(|(&c, &r)| Some((name(c)?, name(r)?)))
                .collect();
            let Some(pairs) = pairs.filter(|p| !p.is_empty()) else {
                continue;
            };
            let present = pairs
                .iter()
                .map(|(c, _)| format!("c.{c} IS NOT NULL"))
                .collect::<Vec<_>>()
                .join(" AND ");
            let matched = pairs
                .iter()
                .map(|(c, r)| format!("p.{r} = c.{c}"))
                .collect::<Vec<_>>()
                .join(" AND ");
            let sql = format!(
                "SELECT count(*) FROM {} AS c WHERE {present} AND NOT EXISTS \
                 (SELECT 1 FROM {} AS p WHERE {matched})",
                quote(&table.name),
                quote(&parent.name)
            );
            match conn.query_row(&sql, [], |row| row.get::<_, i64>(0)) {
                Ok(0) => {}
                _ => return false,
            }
        }
    }
    true
}

/// A change of every value of a database: integers, reals and other text each by their own map;
/// text that spells an integer exactly (`'12'`, as a text column referencing a number key holds
/// it) moves with the integers.
struct Remap {
    integer: fn(i64) -> i64,
    real: fn(f64) -> f64,
    text: fn(&str) -> String,
}

/// Letter case swapped; integers 2v + 3 (odd, order kept); reals 2r + 0.25 (a fraction).
const SWAPPED: Remap = Remap {
    integer: |i| i.saturating_mul(2).saturating_add(3),
    real: |r| 2.0 * r + 0.25,
    text: |t| t.chars().map(swap_case).collect(),
};

/// Numbers negated (order reversed); text padded: a leading space, doubled, a trailing letter.
const NEGATED_AND_PADDED: Remap = Remap {
    integer: i64::saturating_neg,
    real: |r| -r,
    text: |t| format!(" {t}{t}z"),
};

impl Remap {
    fn value(&self, v: &Value) -> Value {
        match v {
            Value::Integer(i) => Value::Integer((self.integer)(*i)),
            Value::Real(r) => Value::Real((self.real)(*r)),
            Value::Text(t) => Value::Text(match t.parse::<i64>() {
                Ok(i) if i.to_string() == *t => (self.integer)(i).to_string(),
                _ => (self.text)(t),
            }),
            other => other.clone(),
        }
    }

    /// Every value of `db` remapped, except the dates of `DATE` columns (a padded or case-swapped
    /// date is no date, which such a column never holds).
    fn database(&self, schema: &Schema, db: &Database) -> Database {
        let mut out = db.clone();
        for t in out.tables.iter_mut() {
            let dates: Vec<bool> = schema
                .table_columns(t.table)
                .map(|c| c.holds_dates())
                .collect();
            for row in t.rows.iter_mut() {
                for (i, v) in row.iter_mut().enumerate() {
                    let a_date = dates.get(i) == Some(&true) && matches!(v, Value::Text(_));
                    if !a_date {
                        *v = self.value(v);
                    }
                }
            }
        }
        out
    }
}

fn swap_case(c: char) -> char {
    if c.is_ascii_lowercase() {
        c.to_ascii_uppercase()
    } else {
        c.to_ascii_lowercase()
    }
}

/// The columns that no key, unique constraint or foreign key involves.
fn free_columns(schema: &Schema) -> std::collections::HashSet<usize> {
    let bound: std::collections::HashSet<usize> = schema
        .tables
        .iter()
        .flat_map(|t| {
            let keys = t.primary_key.iter().chain(t.unique_keys.iter().flatten());
            let fks = t
                .foreign_keys
                .iter()
                .flat_map(|fk| fk.columns.iter().chain(&fk.referenced_columns));
            keys.chain(fks).copied().collect::<Vec<_>>()
        })
        .collect();
    schema
        .tables
        .iter()
        .flat_map(|t| t.columns.iter().copied())
        .filter(|c| !bound.contains(c))
        .collect()
}

/// Each `free` column (see [`free_columns`]) takes one value in every row of its table, so
/// duplicates appear (DISTINCT, COUNT(DISTINCT ..), GROUP BY): its first value that is not one
/// of `kept`; values in `kept` (as text) stay where they are.
fn repeat_free_columns(
    schema: &Schema,
    free: &std::collections::HashSet<usize>,
    db: &mut Database,
    kept: &[String],
) {
    let is_kept = |v: &Value| {
        let text = match v {
            Value::Text(t) => t.clone(),
            Value::Integer(i) => i.to_string(),
            Value::Real(r) => r.to_string(),
            _ => return false,
        };
        kept.contains(&text)
    };
    for t in &mut db.tables {
        let Some(table) = schema.tables.get(t.table) else {
            continue;
        };
        for (i, &column) in table.columns.iter().enumerate() {
            if !free.contains(&column) {
                continue;
            }
            let Some(value) = t
                .rows
                .iter()
                .filter_map(|r| r.get(i))
                .find(|v| !is_kept(v))
                .cloned()
            else {
                continue;
            };
            for slot in t.rows.iter_mut().filter_map(|r| r.get_mut(i)) {
                if !is_kept(slot) {
                    *slot = value.clone();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::instance::{open_database, TableRows};

    fn schema() -> std::sync::Arc<Schema> {
        crate::schema::schema_argument(
            "CREATE TABLE p(id INTEGER PRIMARY KEY, name TEXT, a INTEGER, x REAL);\
             CREATE TABLE c(cid INTEGER PRIMARY KEY, pid TEXT REFERENCES p(id), note TEXT)",
        )
        .unwrap()
        .schema
        .clone()
    }

    fn db() -> Database {
        let t = |s: &str| Value::Text(s.into());
        Database {
            tables: vec![
                TableRows {
                    table: 0,
                    rows: vec![
                        vec![Value::Integer(1), t("Ann"), Value::Null, Value::Real(1.0)],
                        vec![
                            Value::Integer(-2),
                            t("bob"),
                            Value::Integer(4),
                            Value::Real(2.0),
                        ],
                    ],
                },
                TableRows {
                    table: 1,
                    rows: vec![vec![Value::Integer(7), t("1"), t("x")]],
                },
            ],
        }
    }

    #[test]
    fn variants_keep_keys_and_references() {
        let s = schema();
        let all = variants(&s, &db(), &[]);
        assert_eq!(
            all.len(),
            4,
            "NULLs replaced, swapped, repeated, names repeated"
        );
        for v in &all {
            let conn = open_database(&s, v).expect("keys hold");
            assert!(foreign_keys_hold(&conn, &s), "{v:?}");
            assert!(v.tables[0].rows.iter().flatten().all(|x| *x != Value::Null));
        }
        let swapped = &all[1].tables[0].rows;
        assert_eq!(swapped[0][0], Value::Integer(5));
        assert_eq!(swapped[0][1], Value::Text("aNN".into()));
        assert_eq!(swapped[1][3], Value::Real(4.25));
        // the text reference follows its number key
        assert_eq!(all[1].tables[1].rows[0][1], Value::Text("5".into()));
        let repeated = &all[2].tables[0].rows;
        assert_eq!(repeated[0][1], Value::Text(" AnnAnnz".into()));
        assert_eq!(
            repeated[1][1], repeated[0][1],
            "a free column repeats its first value"
        );
        assert_ne!(repeated[1][0], repeated[0][0], "a key never repeats");
        let alike = &all[3].tables[0].rows;
        assert_eq!(
            alike[1][1],
            Value::Text("Ann".into()),
            "plain values repeat"
        );
        let kept = variants(&s, &db(), &["Ann".into()]);
        let alike = &kept[3].tables[0].rows;
        assert_eq!(alike[0][1], Value::Text("Ann".into()), "a literal stays");
        assert_eq!(alike[1][1], Value::Text("bob".into()), "and is not copied");
    }

    #[test]
    fn a_broken_reference_is_seen() {
        let s = schema();
        let mut bad = db();
        bad.tables[1].rows[0][1] = Value::Text("A".into());
        let conn = open_database(&s, &bad).unwrap();
        assert!(!foreign_keys_hold(&conn, &s));
        assert!(variants(&s, &Database::default(), &[]).is_empty());
    }
}
