//! Rule `string_aggregates`: `STRING_AGG`, `LISTAGG` and MySQL's `GROUP_CONCAT` as SQLite's
//! `GROUP_CONCAT(x, separator)`.
//!
//! ```sql
//! -- before (mysql)
//! SELECT GROUP_CONCAT(name SEPARATOR '; '), GROUP_CONCAT(DISTINCT city) FROM t
//! -- after
//! SELECT GROUP_CONCAT(name, '; '), GROUP_CONCAT(DISTINCT city) FROM t
//! -- before (snowflake)
//! SELECT LISTAGG(name, ', ') FROM t
//! -- after
//! SELECT COALESCE(GROUP_CONCAT(name, ', '), '') FROM t
//! ```
//!
//! Every one joins the non-NULL values with the separator and is NULL without any, as SQLite's
//! `GROUP_CONCAT` is, except Snowflake's `LISTAGG`, which is '' then. Default separators: ','
//! (MySQL, BigQuery, DuckDB, SQLite) and '' (Snowflake); PostgreSQL names one always. MySQL's
//! `GROUP_CONCAT(a, b)` joins the concatenation of several expressions, skipping rows where one
//! is NULL: `GROUP_CONCAT(a || b)`. SQLite accepts DISTINCT only without a separator argument,
//! so DISTINCT with a separator other than ',' has no translation, and neither has an order
//! inside the aggregate (`ORDER BY`, `WITHIN GROUP`), which the linked SQLite cannot run (3.44
//! added it), nor BigQuery's `LIMIT`. MySQL truncates the result at `group_concat_max_len`
//! (1024 bytes by default); SQLite does not (docs/dialects.md, known limits).

use std::ops::ControlFlow;

use sqlparser::ast::{
    BinaryOperator, DuplicateTreatment, Expr, Function, FunctionArg, FunctionArgExpr,
    FunctionArgumentClause, FunctionArgumentList, FunctionArguments, Ident, ObjectName,
    ObjectNamePart, Statement, Value, VisitMut, VisitorMut,
};

use super::calls::{name, nested, text, text_literal};
use super::{call, untranslated, NoTranslation, Rule};
use crate::parse::dialect::Dialect;

/// See the module documentation.
pub struct StringAggregates;

/// Whether `function` is a string aggregate of `dialect`.
fn is_string_aggregate(function: &str, dialect: Dialect) -> bool {
    use Dialect::*;
    matches!(
        (function, dialect),
        ("string_agg", Postgres | Duckdb | Bigquery)
            | ("listagg", Snowflake | Duckdb)
            | ("group_concat", Mysql | Duckdb)
    )
}

/// The parts of a string aggregate call, read from its arguments and clauses.
struct Parts {
    distinct: bool,
    values: Vec<Expr>,
    separator: Option<Expr>,
    ordered: bool,
    limited: bool,
}

fn parts(f: &Function, function: &str, dialect: Dialect) -> Option<Parts> {
    let FunctionArguments::List(list) = &f.args else {
        return None;
    };
    let mut values = Vec::new();
    for a in &list.args {
        match a {
            FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => values.push(e.clone()),
            _ => return None,
        }
    }
    let mut separator = None;
    let mut ordered = !f.within_group.is_empty();
    let mut limited = false;
    for clause in &list.clauses {
        match clause {
            FunctionArgumentClause::Separator(v) => separator = Some(Expr::Value(v.clone())),
            FunctionArgumentClause::OrderBy(_) => ordered = true,
            FunctionArgumentClause::Limit(_) => limited = true,
            _ => return None,
        }
    }
    // MySQL's separator is a clause; the other dialects' the second argument.
    if function != "group_concat" && values.len() == 2 {
        separator = values.pop();
    }
    if values.is_empty() || (function != "group_concat" && values.len() > 1) {
        return None;
    }
    let separator = separator.or_else(|| match dialect {
        Dialect::Snowflake => Some(text("")),
        _ => None,
    });
    Some(Parts {
        distinct: list.duplicate_treatment == Some(DuplicateTreatment::Distinct),
        values,
        separator,
        ordered,
        limited,
    })
}

/// `f` as SQLite's GROUP_CONCAT, or the construct it cannot translate.
fn translate(
    f: &mut Function,
    function: &str,
    dialect: Dialect,
) -> Option<Result<Expr, NoTranslation>> {
    let p = parts(f, function, dialect)?;
    let label = function.to_uppercase();
    if p.ordered {
        return Some(Err(NoTranslation(format!("{label} with ORDER BY"))));
    }
    if p.limited {
        return Some(Err(NoTranslation(format!("{label} with LIMIT"))));
    }
    let mut values = p.values.into_iter();
    let first = values.next()?;
    let value = values.fold(first, |acc, v| Expr::BinaryOp {
        left: Box::new(nested(acc)),
        op: BinaryOperator::StringConcat,
        right: Box::new(nested(v)),
    });
    let separator = match p.separator {
        Some(s) if p.distinct && text_literal(&s) == Some(",") => None,
        Some(_) if p.distinct => {
            return Some(Err(NoTranslation(format!(
                "{label} DISTINCT with a separator"
            ))))
        }
        s => s,
    };
    f.name = ObjectName(vec![ObjectNamePart::Identifier(Ident::new("GROUP_CONCAT"))]);
    f.within_group.clear();
    f.args = FunctionArguments::List(FunctionArgumentList {
        duplicate_treatment: p.distinct.then_some(DuplicateTreatment::Distinct),
        args: std::iter::once(value)
            .chain(separator)
            .map(|e| FunctionArg::Unnamed(FunctionArgExpr::Expr(e)))
            .collect(),
        clauses: vec![],
    });
    let aggregate = Expr::Function(f.clone());
    Some(Ok(if dialect == Dialect::Snowflake {
        call("COALESCE", vec![aggregate, text("")])
    } else {
        aggregate
    }))
}

struct Rewrite(Dialect);

impl VisitorMut for Rewrite {
    type Break = ();

    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        let Expr::Function(f) = e else {
            return ControlFlow::Continue(());
        };
        let function = name(f);
        if !is_string_aggregate(&function, self.0) {
            return ControlFlow::Continue(());
        }
        match translate(f, &function, self.0) {
            Some(Ok(x)) => *e = x,
            Some(Err(construct)) => {
                let args = match &f.args {
                    FunctionArguments::List(list) => list
                        .args
                        .iter()
                        .filter_map(|a| match a {
                            FunctionArg::Unnamed(FunctionArgExpr::Expr(x)) => Some(x.clone()),
                            _ => None,
                        })
                        .collect(),
                    _ => vec![Expr::value(Value::Null)],
                };
                *e = untranslated(&construct.0, self.0, args);
            }
            None => {}
        }
        ControlFlow::Continue(())
    }
}

impl Rule for StringAggregates {
    fn name(&self) -> &'static str {
        "string_aggregates"
    }

    fn applies_to(&self, dialect: Dialect) -> bool {
        matches!(
            dialect,
            Dialect::Postgres
                | Dialect::Mysql
                | Dialect::Duckdb
                | Dialect::Snowflake
                | Dialect::Bigquery
        )
    }

    fn apply(&self, statement: &mut Statement, dialect: Dialect) {
        let _ = statement.visit(&mut Rewrite(dialect));
    }
}
