//! Rule `derived_columns`: a table alias with column names, `(VALUES ...) AS t (x, y)` or
//! `(SELECT ...) AS t (x, y)`, which SQLite lacks, as a derived table that names its columns.
//!
//! ```sql
//! -- before (ansi, postgres, ...)
//! SELECT x FROM (VALUES (1, 'a'), (2, 'b')) AS t (x, y)
//! -- after
//! SELECT x FROM (SELECT 1 AS `x`, 'a' AS `y` UNION ALL SELECT 2, 'b') AS t
//! -- before
//! SELECT x FROM (SELECT a, b FROM s) AS t (x, y)
//! -- after
//! SELECT x FROM (SELECT `a` AS `x`, `b` AS `y` FROM (SELECT a, b FROM s) AS `_d`) AS t
//! ```
//!
//! The rows of a VALUES list are the SELECTs of a UNION ALL, the first naming the columns;
//! another query is selected from under the new names, which needs its own names known and
//! distinct (`outputs::output_names`). A named table with column names (`FROM t AS u (x, y)`),
//! whose columns only the schema knows, and a query without known names have no translation.

use std::ops::ControlFlow;

use sqlparser::ast::{
    Expr, Ident, Query, SelectItem, SetExpr, SetOperator, SetQuantifier, Statement, TableAlias,
    TableFactor, VisitMut, VisitorMut,
};

use super::outputs::{derived_tables, output_names, put, quoted, template};
use super::Rule;
use crate::parse::dialect::Dialect;

/// See the module documentation.
pub struct DerivedColumns;

/// `rows` as `SELECT v1 AS c1, ... UNION ALL SELECT ...`.
fn values_as_selects(rows: &[Vec<Expr>], columns: &[Ident]) -> Option<SetExpr> {
    let mut selects = rows.iter().enumerate().map(|(i, row)| {
        let mut q = template(&format!("SELECT {}", vec!["1"; row.len()].join(", ")))?;
        let SetExpr::Select(s) = q.body.as_mut() else {
            return None;
        };
        s.projection = row
            .iter()
            .zip(columns)
            .map(|(value, name)| match i {
                0 => SelectItem::ExprWithAlias {
                    expr: value.clone(),
                    alias: Ident::with_quote('`', name.value.clone()),
                },
                _ => SelectItem::UnnamedExpr(value.clone()),
            })
            .collect();
        Some(*q.body)
    });
    let first = selects.next()??;
    selects.try_fold(first, |left, right| {
        Some(SetExpr::SetOperation {
            op: SetOperator::Union,
            set_quantifier: SetQuantifier::All,
            left: Box::new(left),
            right: Box::new(right?),
        })
    })
}

/// `subquery` with its columns named `columns`, or None without a faithful rewrite.
fn renamed(subquery: &Query, columns: &[Ident]) -> Option<Query> {
    if let SetExpr::Values(v) = subquery.body.as_ref() {
        let plain = subquery.order_by.is_none()
            && subquery.limit_clause.is_none()
            && subquery.with.is_none();
        if plain && v.rows.iter().all(|r| r.content.len() == columns.len()) {
            let mut q = subquery.clone();
            let rows: Vec<Vec<Expr>> = v.rows.iter().map(|r| r.content.clone()).collect();
            *q.body = values_as_selects(&rows, columns)?;
            return Some(q);
        }
        return None;
    }
    let names = output_names(&subquery.body)?;
    if names.len() != columns.len() {
        return None;
    }
    let renames = names
        .iter()
        .zip(columns)
        .map(|(from, to)| format!("{} AS {}", quoted(from), quoted(to)))
        .collect::<Vec<_>>()
        .join(", ");
    let mut outer = template(&format!("SELECT {renames} FROM (SELECT 1) AS `_d`"))?;
    let inner = derived_tables(&mut outer.body).into_iter().next()?;
    put(inner, SetExpr::Query(Box::new(subquery.clone())));
    Some(outer)
}

/// A derived table that marks `construct` untranslated.
fn untranslated_table(construct: &str, dialect: Dialect, alias: TableAlias) -> Option<TableFactor> {
    let q = template(&format!(
        "SELECT sqlsim_untranslated('{construct} in {}')",
        dialect.name()
    ))?;
    Some(TableFactor::Derived {
        lateral: false,
        subquery: Box::new(q),
        alias: Some(TableAlias {
            columns: vec![],
            ..alias
        }),
        sample: None,
    })
}

struct Rewrite(Dialect);

impl VisitorMut for Rewrite {
    type Break = ();

    fn post_visit_table_factor(&mut self, t: &mut TableFactor) -> ControlFlow<()> {
        match t {
            TableFactor::Derived {
                subquery,
                alias: Some(alias),
                ..
            } if !alias.columns.is_empty() => {
                let columns: Vec<Ident> = alias.columns.iter().map(|c| c.name.clone()).collect();
                match renamed(subquery, &columns) {
                    Some(q) => {
                        **subquery = q;
                        alias.columns.clear();
                    }
                    None => {
                        if let Some(u) = untranslated_table(
                            "column names of this derived table",
                            self.0,
                            alias.clone(),
                        ) {
                            *t = u;
                        }
                    }
                }
            }
            TableFactor::Table {
                alias: Some(alias), ..
            } if !alias.columns.is_empty() => {
                if let Some(u) =
                    untranslated_table("column names of a table alias", self.0, alias.clone())
                {
                    *t = u;
                }
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }
}

impl Rule for DerivedColumns {
    fn name(&self) -> &'static str {
        "derived_columns"
    }

    fn applies_to(&self, dialect: Dialect) -> bool {
        dialect != Dialect::Sqlite
    }

    fn apply(&self, statement: &mut Statement, dialect: Dialect) {
        let _ = statement.visit(&mut Rewrite(dialect));
    }
}
