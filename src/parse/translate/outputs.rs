//! The output columns of a query as the rules that wrap one read them: their names, and
//! queries written from a template with a query put in the template's place.

use sqlparser::ast::{Expr, Ident, Query, SelectItem, SetExpr, TableFactor};
use sqlparser::dialect::GenericDialect;
use sqlparser::parser::Parser;

/// The names of the output columns of `body`, when each is known and they are distinct: an
/// alias, or the last part of a column's name (a compound query's names are its first
/// SELECT's). None for `*`, an expression without an alias, or two columns of one name.
pub(crate) fn output_names(body: &SetExpr) -> Option<Vec<Ident>> {
    let names: Vec<Ident> = match body {
        SetExpr::Select(s) => s
            .projection
            .iter()
            .map(|item| match item {
                SelectItem::ExprWithAlias { alias, .. } => Some(alias.clone()),
                SelectItem::UnnamedExpr(Expr::Identifier(id)) => Some(id.clone()),
                SelectItem::UnnamedExpr(Expr::CompoundIdentifier(parts)) => parts.last().cloned(),
                _ => None,
            })
            .collect::<Option<_>>()?,
        SetExpr::SetOperation { left, .. } => output_names(left)?,
        SetExpr::Query(q) => output_names(&q.body)?,
        _ => return None,
    };
    let mut lower: Vec<String> = names.iter().map(|n| n.value.to_lowercase()).collect();
    lower.sort();
    lower.dedup();
    (lower.len() == names.len()).then_some(names)
}

/// `name` in backquotes, for a template.
pub(crate) fn quoted(name: &Ident) -> String {
    format!("`{}`", name.value.replace('`', "``"))
}

/// `names` in backquotes, separated by commas.
pub(crate) fn name_list(names: &[Ident]) -> String {
    names.iter().map(quoted).collect::<Vec<_>>().join(", ")
}

/// The query a template (standard SQL) spells; None if it does not parse, which the rules'
/// templates always do.
pub(crate) fn template(sql: &str) -> Option<Query> {
    let mut statements = Parser::parse_sql(&GenericDialect {}, sql).ok()?;
    match statements.pop()? {
        sqlparser::ast::Statement::Query(q) => Some(*q),
        _ => None,
    }
}

/// The derived tables of `body` in the order they are written (`FROM (...) AS x`), through
/// compound queries and nested queries.
pub(crate) fn derived_tables(body: &mut SetExpr) -> Vec<&mut Query> {
    match body {
        SetExpr::Select(s) => s
            .from
            .iter_mut()
            .filter_map(|t| match &mut t.relation {
                TableFactor::Derived { subquery, .. } => Some(subquery.as_mut()),
                _ => None,
            })
            .collect(),
        SetExpr::SetOperation { left, right, .. } => {
            let mut all = derived_tables(left);
            all.extend(derived_tables(right));
            all
        }
        SetExpr::Query(q) => derived_tables(&mut q.body),
        _ => vec![],
    }
}

/// `into` with `body` as its whole query: a nested query as itself, another body wrapped.
pub(crate) fn put(into: &mut Query, body: SetExpr) {
    match body {
        SetExpr::Query(q) => *into = *q,
        other => *into.body = other,
    }
}
