//! Pass `database_qualifiers`: drops the database (schema, catalog) part of table names, as Calcite prints them.
//!
//! ```sql
//! -- before
//! SELECT concert_singer.singer.name FROM concert_singer.singer
//! -- after
//! SELECT singer.name FROM singer
//! ```
//!
//! A query reads the tables of one database, so the qualifier says nothing: `concert_singer.singer`
//! and `singer` are the same table. Column references keep their last two parts (table and
//! column). Runs before `table_aliases` and `unqualify_columns`, which compare table names.

use super::Pass;
use sqlparser::ast::{Expr, ObjectName, Statement, VisitMut, VisitorMut};
use std::ops::ControlFlow;

/// See the module documentation.
pub struct DatabaseQualifiers;

struct Unqualify;

impl VisitorMut for Unqualify {
    type Break = ();
    fn pre_visit_relation(&mut self, relation: &mut ObjectName) -> ControlFlow<()> {
        if relation.0.len() > 1 {
            relation.0.drain(..relation.0.len() - 1);
        }
        ControlFlow::Continue(())
    }
    fn post_visit_expr(&mut self, expr: &mut Expr) -> ControlFlow<()> {
        if let Expr::CompoundIdentifier(ids) = expr {
            if ids.len() > 2 {
                ids.drain(..ids.len() - 2);
            }
        }
        ControlFlow::Continue(())
    }
}

impl Pass for DatabaseQualifiers {
    fn name(&self) -> &'static str {
        "database_qualifiers"
    }
    fn apply(&self, mut statement: Statement) -> Statement {
        let _ = statement.visit(&mut Unqualify);
        statement
    }
}
