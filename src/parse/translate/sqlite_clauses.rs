//! The clauses, tables and joins of a query that SQLite's grammar lacks, for rule
//! `sqlite_grammar`: each is removed from the syntax tree, and named with the expressions it
//! held so that the rule marks its SELECT (`WHERE sqlsim_untranslated('QUALIFY in postgres',
//! ..) AND ..`). Kept: SQLite's own clauses (`DISTINCT`, `WHERE`, `GROUP BY`, `HAVING`,
//! `WINDOW`, `ORDER BY` with `NULLS FIRST|LAST`, `LIMIT`/`OFFSET`), tables with a schema,
//! table-valued functions, derived tables, and inner, left, right, full and cross joins.

use sqlparser::ast::{
    BinaryOperator, Distinct, Expr, GroupByExpr, Ident, JoinOperator, ObjectName, ObjectNamePart,
    OrderByKind, Query, Select, SelectFlavor, SelectItem, SetExpr, TableFactor,
    WildcardAdditionalOptions,
};

use super::calls::{logic, nested};

/// A clause SQLite lacks was dropped from `select`: its WHERE starts with the marker.
pub(crate) fn mark(select: &mut Select, marker: Expr) {
    select.selection = Some(match select.selection.take() {
        None => marker,
        Some(w) => logic(marker, BinaryOperator::And, nested(w)),
    });
}

/// The first SELECT of a query body (the one a query-level marker goes into).
pub(crate) fn first_select(body: &mut SetExpr) -> Option<&mut Select> {
    match body {
        SetExpr::Select(s) => Some(s),
        SetExpr::SetOperation { left, .. } => first_select(left),
        SetExpr::Query(q) => first_select(&mut q.body),
        _ => None,
    }
}

fn no_wildcard_options(o: &WildcardAdditionalOptions) -> bool {
    o.opt_ilike.is_none()
        && o.opt_exclude.is_none()
        && o.opt_except.is_none()
        && o.opt_replace.is_none()
        && o.opt_rename.is_none()
        && o.opt_alias.is_none()
}

/// Whether SQLite reads a table factor of this form (its parts checked on their own).
fn sqlite_factor(factor: &TableFactor) -> bool {
    match factor {
        TableFactor::Table {
            name,
            version,
            with_hints,
            with_ordinality,
            partitions,
            json_path,
            sample,
            index_hints,
            ..
        } => {
            name.0.len() <= 2
                && version.is_none()
                && with_hints.is_empty()
                && !with_ordinality
                && partitions.is_empty()
                && json_path.is_none()
                && sample.is_none()
                && index_hints.is_empty()
        }
        TableFactor::Derived { lateral, .. } => !lateral,
        TableFactor::NestedJoin {
            table_with_joins, ..
        } => {
            sqlite_factor(&table_with_joins.relation)
                && table_with_joins
                    .joins
                    .iter()
                    .all(|j| sqlite_join(&j.join_operator) && sqlite_factor(&j.relation))
        }
        _ => false,
    }
}

fn sqlite_join(op: &JoinOperator) -> bool {
    use JoinOperator::*;
    matches!(
        op,
        Join(_) | Inner(_) | Left(_) | LeftOuter(_) | Right(_) | RightOuter(_) | FullOuter(_)
    ) || matches!(op, CrossJoin(sqlparser::ast::JoinConstraint::None))
}

/// A table SQLite reads in place of a table form it lacks (the SELECT is marked).
fn placeholder_table() -> TableFactor {
    TableFactor::Table {
        name: ObjectName(vec![ObjectNamePart::Identifier(Ident::new(
            super::UNTRANSLATED,
        ))]),
        alias: None,
        args: None,
        with_hints: vec![],
        version: None,
        with_ordinality: false,
        partitions: vec![],
        json_path: None,
        sample: None,
        index_hints: vec![],
    }
}

/// The clauses of `select` SQLite lacks, each removed, with the expressions they held.
pub(crate) fn select_lacks(select: &mut Select) -> Vec<(&'static str, Vec<Expr>)> {
    let mut found = vec![];
    if select.projection.is_empty() {
        // PostgreSQL's `SELECT FROM t`
        let null = Expr::value(sqlparser::ast::Value::Null);
        select.projection.push(SelectItem::UnnamedExpr(null));
        found.push(("a SELECT of no columns", vec![]));
    }
    if let Some(top) = select.top.take() {
        let args = match top.quantity {
            Some(sqlparser::ast::TopQuantity::Expr(e)) => vec![e],
            _ => vec![],
        };
        found.push(("TOP", args));
    }
    if let Some(q) = select.qualify.take() {
        found.push(("QUALIFY", vec![q]));
    }
    if let Some(p) = select.prewhere.take() {
        found.push(("PREWHERE", vec![p]));
    }
    if let Some(Distinct::On(on)) = &select.distinct {
        let on = on.clone();
        select.distinct = Some(Distinct::Distinct);
        found.push(("DISTINCT ON", on));
    }
    if select.into.take().is_some() {
        found.push(("SELECT INTO", vec![]));
    }
    if select.select_modifiers.take().is_some() || !select.optimizer_hints.is_empty() {
        select.optimizer_hints.clear();
        found.push(("SELECT modifiers", vec![]));
    }
    if select.exclude.take().is_some() {
        found.push(("EXCLUDE", vec![]));
    }
    if !select.lateral_views.is_empty() {
        select.lateral_views.clear();
        found.push(("LATERAL VIEW", vec![]));
    }
    if !select.connect_by.is_empty() {
        select.connect_by.clear();
        found.push(("CONNECT BY", vec![]));
    }
    if !(select.cluster_by.is_empty()
        && select.distribute_by.is_empty()
        && select.sort_by.is_empty())
    {
        let mut args = std::mem::take(&mut select.cluster_by);
        args.append(&mut select.distribute_by);
        args.extend(
            std::mem::take(&mut select.sort_by)
                .into_iter()
                .map(|o| o.expr),
        );
        found.push(("CLUSTER BY, DISTRIBUTE BY or SORT BY", args));
    }
    if select.value_table_mode.take().is_some() {
        found.push(("SELECT AS STRUCT or VALUE", vec![]));
    }
    if select.flavor != SelectFlavor::Standard {
        select.flavor = SelectFlavor::Standard;
        found.push(("FROM before SELECT", vec![]));
    }
    let mut wildcard = false;
    for item in &mut select.projection {
        if let SelectItem::ExprWithAliases { expr, .. } = item {
            // `f(x) AS (a, b)`: one expression named as several columns
            let expr = std::mem::replace(expr, Expr::value(sqlparser::ast::Value::Null));
            found.push(("AS with several names", vec![expr]));
            *item = SelectItem::UnnamedExpr(Expr::value(sqlparser::ast::Value::Null));
            continue;
        }
        match item {
            SelectItem::Wildcard(o) | SelectItem::QualifiedWildcard(_, o)
                if !no_wildcard_options(o) =>
            {
                *o = WildcardAdditionalOptions {
                    wildcard_token: o.wildcard_token.clone(),
                    ..Default::default()
                };
                wildcard = true;
            }
            _ => {}
        }
    }
    if wildcard {
        found.push(("options of *", vec![]));
    }
    match &mut select.group_by {
        GroupByExpr::All(_) => {
            select.group_by = GroupByExpr::Expressions(vec![], vec![]);
            found.push(("GROUP BY ALL", vec![]));
        }
        GroupByExpr::Expressions(_, modifiers) if !modifiers.is_empty() => {
            modifiers.clear();
            found.push(("GROUP BY modifiers", vec![]));
        }
        _ => {}
    }
    let mut tables = false;
    for from in &mut select.from {
        if !sqlite_factor(&from.relation) {
            from.relation = placeholder_table();
            tables = true;
        }
        for join in &mut from.joins {
            if !sqlite_factor(&join.relation) {
                join.relation = placeholder_table();
                tables = true;
            }
            if !sqlite_join(&join.join_operator) {
                join.join_operator = JoinOperator::CrossJoin(sqlparser::ast::JoinConstraint::None);
                tables = true;
            }
        }
    }
    if tables {
        found.push(("this table or join form", vec![]));
    }
    found
}

/// The clauses of `query` (beside its body) SQLite lacks, each removed.
pub(crate) fn query_lacks(query: &mut Query) -> Vec<(&'static str, Vec<Expr>)> {
    let mut found = vec![];
    if query.fetch.take().is_some() {
        found.push(("FETCH", vec![]));
    }
    if !query.locks.is_empty() || query.for_clause.is_some() {
        query.locks.clear();
        query.for_clause = None;
        found.push(("FOR UPDATE, SHARE, XML or JSON", vec![]));
    }
    if query.settings.take().is_some()
        || query.format_clause.take().is_some()
        || !query.pipe_operators.is_empty()
    {
        query.pipe_operators.clear();
        found.push(("SETTINGS, FORMAT or a pipe", vec![]));
    }
    if let Some(order) = &mut query.order_by {
        let odd = !matches!(order.kind, OrderByKind::Expressions(_))
            || order.interpolate.is_some()
            || matches!(&order.kind, OrderByKind::Expressions(items)
                if items.iter().any(|i| i.with_fill.is_some()));
        if odd {
            query.order_by = None;
            found.push(("this ORDER BY", vec![]));
        }
    }
    if let Some(sqlparser::ast::LimitClause::LimitOffset { limit_by, .. }) = &mut query.limit_clause
    {
        if !limit_by.is_empty() {
            let by = std::mem::take(limit_by);
            found.push(("LIMIT BY", by));
        }
    }
    found
}
