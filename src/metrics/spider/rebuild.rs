//! evaluation.py's rewrites before comparison: value removal (`rebuild_sql_val`, DISABLE_VALUE) and
//! foreign-key column normalization plus DISTINCT removal (`rebuild_sql_col`, DISABLE_DISTINCT).
//!
//! Kept as in the original: values of FROM subqueries are not removed; nested queries inside
//! conditions lose their values but keep their columns and DISTINCT flags; IUE parts are rewritten
//! with the outer query's valid columns.

use super::ast::*;
use super::catalog::Catalog;

fn val_condition(c: &mut Condition) {
    for u in &mut c.units {
        u.val1 = match u.val1.take() {
            Some(Value::Sql(mut s)) => {
                rebuild_val(&mut s);
                Some(Value::Sql(s))
            }
            _ => None,
        };
        u.val2 = match u.val2.take() {
            Some(Value::Sql(mut s)) => {
                rebuild_val(&mut s);
                Some(Value::Sql(s))
            }
            _ => None,
        };
    }
}

/// `rebuild_sql_val`: every non-query operand of FROM/WHERE/HAVING conditions becomes `None`.
pub fn rebuild_val(sql: &mut Sql) {
    val_condition(&mut sql.from.conds);
    val_condition(&mut sql.having);
    val_condition(&mut sql.where_);
    for s in [&mut sql.intersect, &mut sql.except, &mut sql.union]
        .into_iter()
        .flatten()
    {
        rebuild_val(s);
    }
}

/// The columns whose table is a table unit of `sql`'s FROM (`build_valid_col_units`).
pub fn valid_tables(sql: &Sql) -> Vec<u32> {
    sql.from
        .table_units
        .iter()
        .filter_map(|t| match t {
            TableUnit::Table(id) => Some(*id),
            TableUnit::Sql(_) => None,
        })
        .collect()
}

struct ColRewrite<'a> {
    cat: &'a Catalog,
    valid: &'a [u32],
    disable_distinct: bool,
}

impl ColRewrite<'_> {
    fn col_unit(&self, c: &mut ColUnit) {
        if let ColRef::Col(id) = c.col {
            if let Some(rep) = self.cat.fk(id) {
                if self
                    .cat
                    .col_table(id)
                    .is_some_and(|t| self.valid.contains(&t))
                {
                    c.col = ColRef::Col(rep);
                }
            }
        }
        if self.disable_distinct {
            c.distinct = None;
        }
    }
    fn val_unit(&self, v: &mut ValUnit) {
        self.col_unit(&mut v.left);
        if let Some(r) = &mut v.right {
            self.col_unit(r);
        }
    }
    fn condition(&self, c: &mut Condition) {
        for u in &mut c.units {
            self.val_unit(&mut u.val_unit);
        }
    }
    fn sql(&self, sql: &mut Sql) {
        for (_, v) in &mut sql.select.items {
            self.val_unit(v);
        }
        if self.disable_distinct {
            sql.select.distinct = None;
        }
        self.condition(&mut sql.from.conds);
        self.condition(&mut sql.where_);
        for c in &mut sql.group_by {
            self.col_unit(c);
        }
        if let Some(ob) = &mut sql.order_by {
            for v in &mut ob.units {
                self.val_unit(v);
            }
        }
        self.condition(&mut sql.having);
        for s in [&mut sql.intersect, &mut sql.except, &mut sql.union]
            .into_iter()
            .flatten()
        {
            self.sql(s);
        }
    }
}

/// `rebuild_sql_col` with the valid tables of the top-level query.
pub fn rebuild_col(cat: &Catalog, valid: &[u32], sql: &mut Sql, disable_distinct: bool) {
    ColRewrite {
        cat,
        valid,
        disable_distinct,
    }
    .sql(sql)
}
