//! Databases without repeated values: a counterexample is re-checked with every value that a plain column repeats replaced by a fresh one, to tell whether the difference needs two rows that share such a value.
//!
//! A plain column is one that is no part of a primary or unique key, of a foreign key or of a
//! column a foreign key references: keys and references keep their values, so every join of the
//! counterexample still holds. Two airlines of one name, two matches of the same length, two
//! models of one maker's that share a name: `INTERSECT` over names against an `EXISTS` per
//! airline, `ORDER BY minutes DESC LIMIT 1` against `minutes = (SELECT max(minutes) ...)` and
//! `COUNT(*)` against `COUNT(DISTINCT model)` differ only on such databases. The columns either
//! query groups by in an aggregation keep their repeats too ([`replaceable_columns`]).

use super::evidence::fresh_value;
use crate::exec::instance::Database;
use crate::parseval::search::plan_facts::visit_all;
use crate::plan::{Plan, QueryPlan};
use crate::schema::Schema;
use rusqlite::types::Value;

/// The columns whose values may be replaced: no part of a primary or unique key, of a foreign
/// key or of a referenced column (the schema's flat key views hold every table's).
fn plain_columns(schema: &Schema) -> Vec<bool> {
    let mut plain: Vec<bool> = schema.columns.iter().map(|c| !c.unique).collect();
    let keys = schema
        .primary_keys
        .iter()
        .chain(schema.foreign_keys.iter().flat_map(|(from, to)| [from, to]))
        .chain(
            schema
                .tables
                .iter()
                .flat_map(|t| t.unique_keys.iter().flatten()),
        );
    for &c in keys {
        if let Some(p) = plain.get_mut(c) {
            *p = false;
        }
    }
    plain
}

/// `db` with each value a replaceable column ([`replaceable_columns`]) holds in more than one
/// row kept in its first row and replaced by a fresh value of the column's type (one the column
/// does not hold) in every later row; NULLs stay. `None` when no such column repeats a value.
pub fn without_repeated_values(
    schema: &Schema,
    db: &Database,
    replaceable: &[bool],
) -> Option<Database> {
    let mut out = db.clone();
    let mut replaced = 0usize;
    for t in out.tables.iter_mut() {
        let table = schema.tables.get(t.table)?;
        for (position, &column) in table.columns.iter().enumerate() {
            if !replaceable.get(column).copied().unwrap_or(false) {
                continue;
            }
            let mut seen: Vec<Value> = Vec::with_capacity(t.rows.len());
            for r in 0..t.rows.len() {
                let Some(value) = t.rows[r].get(position).cloned() else {
                    continue;
                };
                if matches!(value, Value::Null) {
                    continue;
                }
                if !seen.contains(&value) {
                    seen.push(value);
                    continue;
                }
                // a value no row of the column holds (the first occurrences included)
                let held = |v: &Value| t.rows.iter().any(|row| row.get(position) == Some(v));
                let fresh = (replaced + 1..)
                    .map(|n| fresh_value(schema, column, n))
                    .find(|v| !held(v))?;
                replaced += 1;
                t.rows[r][position] = fresh;
            }
        }
    }
    (replaced > 0).then_some(out)
}

/// The columns whose repeats the check replaces for these queries: the plain columns but those
/// either query groups by in an aggregation (`GROUP BY country` with a COUNT). A group of several
/// rows repeats its key by definition, so such a repeat is what the query asks about, no
/// coincidence. A grouping that holds a key or a reference groups by that entity (its other
/// columns follow it), and a DISTINCT, which groups with no aggregate, is not one: neither keeps
/// its columns' repeats.
pub fn replaceable_columns<'a>(
    schema: &Schema,
    plans: impl IntoIterator<Item = &'a QueryPlan>,
) -> Vec<bool> {
    let plain = plain_columns(schema);
    let mut replaceable = plain.clone();
    for q in plans {
        visit_all(&q.root, &mut |p| {
            let Plan::Aggregate(a) = p else {
                return;
            };
            if a.calls.is_empty() {
                return;
            }
            let columns: Option<Vec<usize>> = a
                .group
                .iter()
                .map(|&g| {
                    let (t, c) = q.columns.meta(g).origin.as_ref()?;
                    schema.column_index(schema.table_index(t)?, c)
                })
                .collect();
            match columns {
                Some(columns) if columns.iter().all(|&c| plain.get(c) == Some(&true)) => {
                    columns.into_iter().for_each(|c| replaceable[c] = false)
                }
                _ => {}
            }
        });
    }
    replaceable
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::instance::TableRows;

    fn schema() -> Schema {
        Schema::from_ddl(
            "CREATE TABLE airlines (uid INTEGER PRIMARY KEY, name TEXT, country TEXT);
             CREATE TABLE flights (id INTEGER PRIMARY KEY, airline INTEGER REFERENCES airlines(uid),
                                   source TEXT, minutes INTEGER);",
        )
        .unwrap()
    }

    fn text(s: &str) -> Value {
        Value::Text(s.into())
    }

    #[test]
    fn replaces_later_repeats_of_plain_columns_only() {
        let s = schema();
        let db = Database {
            tables: vec![
                TableRows {
                    table: 0,
                    rows: vec![
                        vec![Value::Integer(1), text("X"), text("US")],
                        vec![Value::Integer(2), text("X"), Value::Null],
                        vec![Value::Integer(3), text("n1"), Value::Null],
                    ],
                },
                TableRows {
                    table: 1,
                    rows: vec![
                        vec![
                            Value::Integer(1),
                            Value::Integer(1),
                            text("APG"),
                            Value::Integer(5),
                        ],
                        vec![
                            Value::Integer(2),
                            Value::Integer(1),
                            text("CVO"),
                            Value::Integer(5),
                        ],
                    ],
                },
            ],
        };
        let out = without_repeated_values(&s, &db, &plain_columns(&s)).unwrap();
        let airlines = &out.tables[0].rows;
        assert_eq!(airlines[0][1], text("X"));
        // the fresh name is one the column does not hold ("n1" is taken)
        assert_eq!(airlines[1][1], text("n2"));
        assert_eq!(airlines[2][1], text("n1"));
        // NULLs are no repeated value
        assert_eq!(airlines[1][2], Value::Null);
        assert_eq!(airlines[2][2], Value::Null);
        let flights = &out.tables[1].rows;
        // a foreign key keeps its repeats; a plain column does not
        assert_eq!(flights[1][1], Value::Integer(1));
        assert_eq!(flights[0][3], Value::Integer(5));
        assert_ne!(flights[1][3], Value::Integer(5));
        assert_eq!(out.tables[0].rows.len(), 3);
        // a column that is not replaceable (one a query groups by) keeps its repeats too
        let mut replaceable = plain_columns(&s);
        replaceable[s.column_index(0, "name").unwrap()] = false;
        let out = without_repeated_values(&s, &db, &replaceable).unwrap();
        assert_eq!(out.tables[0].rows[1][1], text("X"));
        assert_ne!(out.tables[1].rows[1][3], Value::Integer(5));
    }

    #[test]
    fn columns_grouped_by_in_an_aggregation_are_kept() {
        let s = schema();
        let grouped = |sql: &str| {
            let plan = crate::plan::plan_sql(sql, &s).unwrap();
            let (plain, replaceable) = (plain_columns(&s), replaceable_columns(&s, [&plan]));
            let mut names: Vec<&str> = (0..plain.len())
                .filter(|&c| plain[c] && !replaceable[c])
                .map(|c| s.columns[c].name.as_str())
                .collect();
            names.sort_unstable();
            names
        };
        assert_eq!(
            grouped("SELECT name, count(*) FROM airlines GROUP BY name, country"),
            ["country", "name"]
        );
        assert_eq!(
            grouped("SELECT a.name, count(*) FROM airlines a JOIN flights f ON f.airline = a.uid GROUP BY a.name"),
            ["name"]
        );
        // grouping by a key or a reference groups by that entity
        assert!(grouped("SELECT name, count(*) FROM airlines GROUP BY uid, name").is_empty());
        assert!(grouped("SELECT airline, max(minutes) FROM flights GROUP BY airline").is_empty());
        // a DISTINCT groups with no aggregate
        assert!(grouped("SELECT DISTINCT name FROM airlines").is_empty());
        assert!(grouped("SELECT name FROM airlines").is_empty());
    }

    #[test]
    fn none_without_repeats() {
        let s = schema();
        let db = Database {
            tables: vec![TableRows {
                table: 0,
                rows: vec![
                    vec![Value::Integer(1), text("X"), text("US")],
                    vec![Value::Integer(2), text("Y"), text("FR")],
                ],
            }],
        };
        assert!(without_repeated_values(&s, &db, &plain_columns(&s)).is_none());
    }
}
