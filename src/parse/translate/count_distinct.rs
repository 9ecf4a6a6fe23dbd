//! Rule `count_distinct`: `COUNT(DISTINCT a, b, ...)` of several values, which SQLite lacks, as
//! a count of one value per row.
//!
//! ```sql
//! -- before (ansi, mysql)
//! SELECT COUNT(DISTINCT a, b) FROM t
//! -- after
//! SELECT COUNT(DISTINCT CASE WHEN NOT a IS NULL AND NOT b IS NULL THEN quote(a) || ',' || quote(b) END) FROM t
//! ```
//!
//! The count of distinct tuples whose every value is non-NULL (standard SQL's and MySQL's
//! reading) is the count of distinct texts that spell the tuple: `quote` writes each value as
//! an SQL literal (a text quoted, with its quotes doubled; a number bare; a blob in hex), so
//! two tuples give one text exactly when their values are the same, value by value, and a
//! tuple with a NULL gives NULL, which COUNT skips. Values are compared by type as well: an
//! integer and a real of the same value (which only a column without a declared type holds
//! side by side) count twice, and a column's collation is not used.

use std::ops::ControlFlow;

use sqlparser::ast::{
    BinaryOperator, DuplicateTreatment, Expr, FunctionArg, FunctionArgExpr, FunctionArguments,
    Statement, VisitMut, VisitorMut,
};

use super::calls::{case, logic, name, not_null, text};
use super::{call, Rule};
use crate::parse::dialect::Dialect;

/// See the module documentation.
pub struct CountDistinct;

/// The one expression that stands for the tuple `values`, NULL where one of them is.
fn tuple_text(values: Vec<Expr>) -> Expr {
    let all_known = values
        .iter()
        .cloned()
        .map(not_null)
        .reduce(|a, b| logic(a, BinaryOperator::And, b));
    let spelled = values
        .into_iter()
        .map(|v| call("quote", vec![v]))
        .reduce(|a, b| {
            logic(
                logic(a, BinaryOperator::StringConcat, text(",")),
                BinaryOperator::StringConcat,
                b,
            )
        });
    match (all_known, spelled) {
        (Some(condition), Some(value)) => case(vec![(condition, value)], None),
        _ => Expr::value(sqlparser::ast::Value::Null),
    }
}

struct Rewrite;

impl VisitorMut for Rewrite {
    type Break = ();

    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        let Expr::Function(f) = e else {
            return ControlFlow::Continue(());
        };
        if name(f) != "count" {
            return ControlFlow::Continue(());
        }
        let FunctionArguments::List(list) = &mut f.args else {
            return ControlFlow::Continue(());
        };
        if list.duplicate_treatment != Some(DuplicateTreatment::Distinct)
            || list.args.len() < 2
            || !list.clauses.is_empty()
        {
            return ControlFlow::Continue(());
        }
        let values: Option<Vec<Expr>> = list
            .args
            .iter()
            .map(|a| match a {
                FunctionArg::Unnamed(FunctionArgExpr::Expr(v)) => Some(v.clone()),
                _ => None,
            })
            .collect();
        if let Some(values) = values {
            list.args = vec![FunctionArg::Unnamed(FunctionArgExpr::Expr(tuple_text(
                values,
            )))];
        }
        ControlFlow::Continue(())
    }
}

impl Rule for CountDistinct {
    fn name(&self) -> &'static str {
        "count_distinct"
    }

    fn applies_to(&self, dialect: Dialect) -> bool {
        dialect != Dialect::Sqlite
    }

    fn apply(&self, statement: &mut Statement, _dialect: Dialect) {
        let _ = statement.visit(&mut Rewrite);
    }
}
