//! Rule `aggregates`: conditional, boolean and arbitrary-value aggregates, and `FILTER (WHERE)`,
//! as the aggregates SQLite runs and sqlsim plans.
//!
//! ```sql
//! -- before (postgres)
//! SELECT COUNT(*) FILTER (WHERE a > 1), SUM(b) FILTER (WHERE c), BOOL_AND(d), ANY_VALUE(e) FROM t
//! -- after
//! SELECT COUNT(CASE WHEN a > 1 THEN 1 END), SUM(CASE WHEN c THEN b END), MIN(d), MAX(e) FROM t
//! -- before (bigquery)
//! SELECT COUNTIF(a > 1), LOGICAL_OR(b) FROM t
//! -- after
//! SELECT COUNT(CASE WHEN a > 1 THEN 1 END), MAX(b) FROM t
//! ```
//!
//! `AGG(x) FILTER (WHERE c)` aggregates the rows where `c` is true: `AGG(CASE WHEN c THEN x END)`
//! gives the others a NULL, which every aggregate here skips (`COUNT(*)` counts `1` where `c`
//! holds; DISTINCT and OVER stay). `COUNTIF(c)` (BigQuery) and `COUNT_IF(c)` (Snowflake, DuckDB)
//! count the rows where `c` is true, 0 without any: `COUNT(CASE WHEN c THEN 1 END)` (sqlglot's
//! `SUM(IIF(c, 1, 0))` would be NULL on no rows). `BOOL_AND`/`EVERY` (PostgreSQL, DuckDB),
//! `LOGICAL_AND` (BigQuery) and `BOOLAND_AGG` (Snowflake) are true when no value is false, NULL
//! without values: `MIN` of the 0/1 truth values; the OR forms `MAX`. `ANY_VALUE(x)` may return
//! any value of the group: `MAX(x)` is one of them (sqlglot's choice). FILTER on another
//! aggregate has no translation.

use std::ops::ControlFlow;

use sqlparser::ast::{
    Expr, Function, FunctionArg, FunctionArgExpr, FunctionArguments, Ident, ObjectName,
    ObjectNamePart, Statement, VisitMut, VisitorMut,
};

use super::calls::{case, int, name};
use super::{untranslated, NoTranslation, Rule};
use crate::parse::dialect::Dialect;

/// See the module documentation.
pub struct Aggregates;

/// Aggregates that skip NULL values, so that FILTER can become a CASE inside them.
const SKIP_NULLS: [&str; 7] = ["count", "sum", "avg", "min", "max", "total", "group_concat"];

/// SQLite's aggregate for a renamed one of `dialect`, and whether its argument becomes a count
/// of the rows where it holds.
fn renamed(function: &str, dialect: Dialect) -> Option<(&'static str, bool)> {
    use Dialect::*;
    Some(match (function, dialect) {
        ("countif", Bigquery) | ("count_if", Snowflake | Duckdb) => ("COUNT", true),
        ("bool_and" | "every", Postgres | Duckdb)
        | ("logical_and", Bigquery)
        | ("booland_agg", Snowflake) => ("MIN", false),
        ("bool_or", Postgres | Duckdb) | ("logical_or", Bigquery) | ("boolor_agg", Snowflake) => {
            ("MAX", false)
        }
        ("any_value", Postgres | Mysql | Duckdb | Snowflake | Bigquery) => ("MAX", false),
        _ => return None,
    })
}

/// The first argument of `f`, or None for `*`, no argument or a clause-bearing list.
fn first_arg(f: &mut Function) -> Option<&mut Expr> {
    let FunctionArguments::List(list) = &mut f.args else {
        return None;
    };
    if !list.clauses.is_empty() {
        return None;
    }
    match list.args.first_mut() {
        Some(FunctionArg::Unnamed(FunctionArgExpr::Expr(e))) => Some(e),
        _ => None,
    }
}

/// Whether the only argument of `f` is `*`.
fn counts_rows(f: &Function) -> bool {
    matches!(&f.args, FunctionArguments::List(list)
        if matches!(list.args.as_slice(), [FunctionArg::Unnamed(FunctionArgExpr::Wildcard)]))
}

fn rename(f: &mut Function, to: &str) {
    f.name = ObjectName(vec![ObjectNamePart::Identifier(Ident::new(to))]);
}

/// `f` with its FILTER moved inside, or the construct it cannot translate (the planner reads
/// SQLite's own FILTER through it too).
pub(crate) fn move_filter(f: &mut Function) -> Result<(), NoTranslation> {
    let Some(condition) = f.filter.take() else {
        return Ok(());
    };
    let function = name(f);
    if !SKIP_NULLS.contains(&function.as_str()) {
        return Err(NoTranslation(format!(
            "FILTER on {}",
            function.to_uppercase()
        )));
    }
    if counts_rows(f) {
        if let FunctionArguments::List(list) = &mut f.args {
            list.args = vec![FunctionArg::Unnamed(FunctionArgExpr::Expr(case(
                vec![(*condition, int(1))],
                None,
            )))];
        }
        return Ok(());
    }
    match first_arg(f) {
        Some(x) => {
            let value = super::calls::take(x);
            *x = case(vec![(*condition, value)], None);
            Ok(())
        }
        None => Err(NoTranslation(format!(
            "FILTER on {}",
            function.to_uppercase()
        ))),
    }
}

struct Rewrite(Dialect);

impl VisitorMut for Rewrite {
    type Break = ();

    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        let Expr::Function(f) = e else {
            return ControlFlow::Continue(());
        };
        if let Some((to, counts)) = renamed(&name(f), self.0) {
            let Some(x) = first_arg(f) else {
                return ControlFlow::Continue(());
            };
            if counts {
                let condition = super::calls::take(x);
                *x = case(vec![(condition, int(1))], None);
            }
            rename(f, to);
        }
        if let Err(construct) = move_filter(f) {
            let args = first_arg(f).map(|x| vec![x.clone()]).unwrap_or_default();
            *e = untranslated(&construct.0, self.0, args);
        }
        ControlFlow::Continue(())
    }
}

impl Rule for Aggregates {
    fn name(&self) -> &'static str {
        "aggregates"
    }

    fn applies_to(&self, dialect: Dialect) -> bool {
        dialect != Dialect::Sqlite
    }

    fn apply(&self, statement: &mut Statement, dialect: Dialect) {
        let _ = statement.visit(&mut Rewrite(dialect));
    }
}
