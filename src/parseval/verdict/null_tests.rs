//! The columns a query tests for NULL (`x IS NULL`, `x IS NOT NULL`, `IFNULL(x, ..)`, `COALESCE(x, ..)`), and whether a counterexample holds a NULL in one of them: a NULL the queries themselves check for is one a person takes as real data, so option `forgive_untested_nulls` forgives a NULL-only difference only where no such column holds a NULL.
//!
//! `SELECT count(*) FROM cards WHERE side IS NULL` against `SELECT count(side) FROM cards WHERE
//! side IS NULL`: the NULL in `side` is tested, the difference stands. `SELECT count(*) FROM
//! singer` against `SELECT count(country) FROM singer`: nothing tests `country`, a difference
//! only a NULL country shows is forgiven.

use crate::exec::instance::Database;
use crate::parseval::search::plan_facts::visit_all;
use crate::plan::{Expr, Op, QueryPlan};
use crate::schema::Schema;
use rusqlite::types::Value;

/// For each schema column, whether either query tests it for NULL.
pub fn null_tested_columns<'a>(
    schema: &Schema,
    plans: impl IntoIterator<Item = &'a QueryPlan>,
) -> Vec<bool> {
    let mut tested = vec![false; schema.columns.len()];
    for q in plans {
        visit_all(&q.root, &mut |p| {
            for e in p.exprs() {
                tests_in(e, &mut |c| {
                    let origin = q.columns.meta(c).origin.as_ref();
                    let index =
                        origin.and_then(|(t, c)| schema.column_index(schema.table_index(t)?, c));
                    if let Some(slot) = index.and_then(|i| tested.get_mut(i)) {
                        *slot = true;
                    }
                });
            }
        });
    }
    tested
}

/// Calls `f` for each column read under a NULL test in `e` (subqueries are visited as plans).
fn tests_in(e: &Expr, f: &mut dyn FnMut(crate::plan::ColumnId)) {
    let Expr::Call(op, args) = e else {
        return;
    };
    let test = match op {
        Op::IsNull | Op::IsNotNull => true,
        Op::Function(name) => matches!(name.as_str(), "coalesce" | "nullif"),
        _ => false,
    };
    for a in args {
        if test {
            a.for_each_column(f);
        }
        tests_in(a, f);
    }
}

/// True when `db` holds a NULL in a column that `tested` marks.
pub fn holds_tested_null(schema: &Schema, db: &Database, tested: &[bool]) -> bool {
    db.tables.iter().any(|t| {
        let Some(table) = schema.tables.get(t.table) else {
            return false;
        };
        t.rows.iter().any(|row| {
            row.iter()
                .zip(&table.columns)
                .any(|(v, &c)| matches!(v, Value::Null) && tested.get(c) == Some(&true))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::instance::TableRows;

    #[test]
    fn finds_the_columns_tested_for_null_and_the_nulls_in_them() {
        let s =
            Schema::from_ddl("CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, b TEXT, c INTEGER)")
                .unwrap();
        let plan = |sql: &str| crate::plan::plan_sql(sql, &s).unwrap();
        let q1 = plan("SELECT count(*) FROM t WHERE a IS NULL");
        let q2 =
            plan("SELECT ifnull(b, 'x') FROM t WHERE id IN (SELECT id FROM t WHERE c IS NOT NULL)");
        let tested = null_tested_columns(&s, [&q1]);
        let index = |name: &str| s.column_index(0, name).unwrap();
        assert!(tested[index("a")] && !tested[index("b")] && !tested[index("c")]);
        let tested = null_tested_columns(&s, [&q1, &q2]);
        assert!(tested[index("a")] && tested[index("b")] && tested[index("c")]);
        assert!(!tested[index("id")]);
        let db = |row: Vec<Value>| Database {
            tables: vec![TableRows {
                table: 0,
                rows: vec![row],
            }],
        };
        let only_a = null_tested_columns(&s, [&q1]);
        let null_in = |i: usize| {
            let text = |s: &str| Value::Text(s.into());
            let mut row = vec![Value::Integer(1), text("x"), text("y"), Value::Integer(2)];
            row[i] = Value::Null;
            db(row)
        };
        assert!(holds_tested_null(&s, &null_in(1), &only_a));
        assert!(!holds_tested_null(&s, &null_in(2), &only_a));
    }
}
