//! Rule `null_ordering`: each dialect's place for NULLs in an ORDER BY, written out where it is
//! not SQLite's.
//!
//! ```sql
//! -- before (postgres)
//! SELECT name FROM t ORDER BY score DESC, age
//! -- after
//! SELECT name FROM t ORDER BY score DESC NULLS FIRST, age NULLS LAST
//! ```
//!
//! SQLite, MySQL and BigQuery sort NULLs as the smallest value (first ascending, last
//! descending). PostgreSQL, Snowflake and standard SQL as Calcite runs it sort them as the
//! largest; DuckDB puts them last in both directions. An explicit `NULLS FIRST`/`NULLS LAST`
//! stays, except that one equal to SQLite's default is dropped, so that the same order spelled
//! for two engines prints the same. Query ORDER BY, window ORDER BY and named windows alike.

use std::ops::ControlFlow;

use sqlparser::ast::{
    Expr, NamedWindowExpr, OrderByExpr, OrderByKind, OrderBySort, Query, SetExpr, Statement,
    VisitMut, VisitorMut, WindowType,
};

use super::Rule;
use crate::parse::dialect::Dialect;

/// See the module documentation.
pub struct NullOrdering;

/// Whether NULLs come first in an order of `dialect`, descending or not, when no NULLS clause says.
fn nulls_first_by_default(dialect: Dialect, descending: bool) -> bool {
    match dialect {
        Dialect::Sqlite | Dialect::Mysql | Dialect::Bigquery => !descending,
        Dialect::Postgres | Dialect::Snowflake | Dialect::Ansi => descending,
        Dialect::Duckdb => false,
    }
}

fn resolve(items: &mut [OrderByExpr], dialect: Dialect) {
    for item in items {
        let descending = matches!(item.options.sort, Some(OrderBySort::Desc));
        let first = item
            .options
            .nulls_first
            .unwrap_or_else(|| nulls_first_by_default(dialect, descending));
        // SQLite's own default is NULLs first exactly when ascending
        item.options.nulls_first = (first == descending).then_some(first);
    }
}

struct Rewrite(Dialect);

impl VisitorMut for Rewrite {
    type Break = ();

    fn pre_visit_query(&mut self, q: &mut Query) -> ControlFlow<()> {
        if let Some(order_by) = &mut q.order_by {
            if let OrderByKind::Expressions(items) = &mut order_by.kind {
                resolve(items, self.0);
            }
        }
        if let SetExpr::Select(select) = q.body.as_mut() {
            for window in &mut select.named_window {
                if let NamedWindowExpr::WindowSpec(spec) = &mut window.1 {
                    resolve(&mut spec.order_by, self.0);
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn pre_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        if let Expr::Function(f) = e {
            if let Some(WindowType::WindowSpec(spec)) = &mut f.over {
                resolve(&mut spec.order_by, self.0);
            }
        }
        ControlFlow::Continue(())
    }
}

impl Rule for NullOrdering {
    fn name(&self) -> &'static str {
        "null_ordering"
    }

    fn applies_to(&self, dialect: Dialect) -> bool {
        dialect != Dialect::Sqlite
    }

    fn apply(&self, statement: &mut Statement, dialect: Dialect) {
        let _ = statement.visit(&mut Rewrite(dialect));
    }
}
