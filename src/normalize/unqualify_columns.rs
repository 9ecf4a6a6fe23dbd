//! Pass `unqualify_columns`: drops the table qualifier of a column when its SELECT reads one table.
//!
//! ```sql
//! -- before
//! SELECT singer.name FROM singer WHERE singer.age > 20 ORDER BY singer.age
//! -- after
//! SELECT name FROM singer WHERE age > 20 ORDER BY age
//! ```
//!
//! Only qualifiers naming that one table are dropped, so a correlated reference to an outer table
//! keeps its qualifier. Runs after `table_aliases`, when qualifiers are table names.

use super::{key, Pass};
use sqlparser::ast::{
    visit_expressions_mut, Expr, ObjectNamePart, Query, Select, SetExpr, Statement, TableFactor,
    VisitMut, VisitorMut,
};
use std::ops::ControlFlow;

/// See the module documentation.
pub struct UnqualifyColumns;

/// The qualifier that names the only table of `select`, if it reads exactly one table.
fn single_table(select: &Select) -> Option<String> {
    match select.from.as_slice() {
        [t] if t.joins.is_empty() => match &t.relation {
            TableFactor::Table { name, alias, .. } => match alias {
                Some(a) => Some(key(&a.name.value)),
                None => name
                    .0
                    .last()
                    .and_then(ObjectNamePart::as_ident)
                    .map(|i| key(&i.value)),
            },
            _ => None,
        },
        _ => None,
    }
}

fn unqualify(scope: Option<&Option<String>>, expr: &mut Expr) {
    if let (Some(Some(table)), Expr::CompoundIdentifier(ids)) = (scope, &mut *expr) {
        if ids.len() == 2 && key(&ids[0].value) == *table {
            *expr = Expr::Identifier(ids[1].clone());
        }
    }
}

#[derive(Default)]
struct Unqualifier {
    scopes: Vec<Option<String>>,
}

impl VisitorMut for Unqualifier {
    type Break = ();
    fn pre_visit_query(&mut self, query: &mut Query) -> ControlFlow<()> {
        // ORDER BY is visited after the body's scope closes; handle it here with the body's scope.
        if let (SetExpr::Select(select), Some(order_by)) =
            (query.body.as_ref(), query.order_by.as_mut())
        {
            let scope = Some(single_table(select));
            let _ = visit_expressions_mut(order_by, |e| {
                unqualify(scope.as_ref(), e);
                ControlFlow::<()>::Continue(())
            });
        }
        ControlFlow::Continue(())
    }
    fn pre_visit_select(&mut self, select: &mut Select) -> ControlFlow<()> {
        self.scopes.push(single_table(select));
        ControlFlow::Continue(())
    }
    fn post_visit_select(&mut self, _select: &mut Select) -> ControlFlow<()> {
        self.scopes.pop();
        ControlFlow::Continue(())
    }
    fn post_visit_expr(&mut self, expr: &mut Expr) -> ControlFlow<()> {
        unqualify(self.scopes.last(), expr);
        ControlFlow::Continue(())
    }
}

impl Pass for UnqualifyColumns {
    fn name(&self) -> &'static str {
        "unqualify_columns"
    }
    fn apply(&self, mut statement: Statement) -> Statement {
        let _ = statement.visit(&mut Unqualifier::default());
        statement
    }
}
