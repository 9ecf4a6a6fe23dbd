//! Rule `qualify`: `QUALIFY` (Snowflake, BigQuery, DuckDB) as a filter over a derived table.
//!
//! ```sql
//! -- before (snowflake)
//! SELECT a, ROW_NUMBER() OVER (PARTITION BY a ORDER BY b) AS rn FROM t QUALIFY rn = 1
//! -- after (ORDER BY as rule null_ordering leaves it)
//! SELECT a, rn FROM (SELECT a, ROW_NUMBER() OVER (PARTITION BY a ORDER BY b) AS rn FROM t) AS _t
//!   WHERE rn = 1
//! -- before (duckdb)
//! SELECT a FROM t QUALIFY ROW_NUMBER() OVER (ORDER BY b DESC) <= 3
//! -- after
//! SELECT a FROM (SELECT a, ROW_NUMBER() OVER (ORDER BY b DESC) AS _w0 FROM t) AS _t
//!   WHERE _w0 <= 3
//! ```
//!
//! QUALIFY filters the rows after the window functions and before DISTINCT, ORDER BY and the
//! limit. The query's SELECT (without its DISTINCT) becomes a derived table `_t`, each window
//! call in the condition one more column `_w<k>` of it, and an item without a name a column
//! `_c<k>`; the outer query selects the original items by name, filters on the condition and
//! keeps DISTINCT, ORDER BY and the limit (sqlglot's spelling). The outer query can only name
//! what the derived table outputs: with `*` in the SELECT, two items of one name, or a name in
//! the condition or ORDER BY that is no item's (a plain name, or a qualified one that is an item
//! itself), there is no translation.

use std::ops::ControlFlow;

use sqlparser::ast::{
    Expr, GroupByExpr, Ident, OrderByKind, Query, Select, SelectItem, SetExpr, Statement,
    TableAlias, TableFactor, TableWithJoins, Visit, VisitMut, Visitor, VisitorMut,
};

use super::calls::logic;
use super::{untranslated, Rule};
use crate::parse::dialect::Dialect;

/// See the module documentation.
pub struct Qualify;

/// The names the SELECT items output, naming the unnamed ones `_c<k>`; None with a wildcard or
/// two items of one name.
fn output_names(projection: &mut [SelectItem]) -> Option<Vec<Ident>> {
    let mut names: Vec<Ident> = Vec::new();
    for (k, item) in projection.iter_mut().enumerate() {
        let name = match item {
            SelectItem::UnnamedExpr(Expr::Identifier(id)) => id.clone(),
            SelectItem::UnnamedExpr(Expr::CompoundIdentifier(parts)) => parts.last()?.clone(),
            SelectItem::ExprWithAlias { alias, .. } => alias.clone(),
            SelectItem::UnnamedExpr(e) => {
                let alias = Ident::new(format!("_c{k}"));
                *item = SelectItem::ExprWithAlias {
                    expr: e.clone(),
                    alias: alias.clone(),
                };
                alias
            }
            _ => return None,
        };
        if names
            .iter()
            .any(|n| n.value.eq_ignore_ascii_case(&name.value))
        {
            return None;
        }
        names.push(name);
    }
    Some(names)
}

/// Moves every window call of the condition into the derived table as `_w<k>`.
struct Windows(Vec<SelectItem>);

impl VisitorMut for Windows {
    type Break = ();

    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        if matches!(e, Expr::Function(f) if f.over.is_some()) {
            let alias = Ident::new(format!("_w{}", self.0.len()));
            let call = std::mem::replace(e, Expr::Identifier(alias.clone()));
            self.0.push(SelectItem::ExprWithAlias { expr: call, alias });
        }
        ControlFlow::Continue(())
    }
}

/// Whether every name `e` reads is one of `names`, and it calls no function (an aggregate would
/// not run in the outer WHERE).
struct ReadsOnly<'a>(&'a [Ident]);

impl Visitor for ReadsOnly<'_> {
    type Break = ();

    fn pre_visit_expr(&mut self, e: &Expr) -> ControlFlow<()> {
        match e {
            Expr::Identifier(id)
                if !self
                    .0
                    .iter()
                    .any(|n| n.value.eq_ignore_ascii_case(&id.value)) =>
            {
                ControlFlow::Break(())
            }
            Expr::CompoundIdentifier(_) | Expr::Function(_) | Expr::Subquery(_) => {
                ControlFlow::Break(())
            }
            _ => ControlFlow::Continue(()),
        }
    }
}

fn reads_only(e: &Expr, names: &[Ident]) -> bool {
    Visit::visit(e, &mut ReadsOnly(names)).is_continue()
}

/// ORDER BY items naming the derived table's outputs: a qualified item of the SELECT becomes
/// its output name; false where an item names something else.
fn rename_order_by(q: &mut Query, projection: &[SelectItem], names: &[Ident]) -> bool {
    let Some(order_by) = &mut q.order_by else {
        return true;
    };
    let OrderByKind::Expressions(items) = &mut order_by.kind else {
        return false;
    };
    for item in items {
        if matches!(item.expr, Expr::Value(_)) {
            continue; // a position
        }
        if let Expr::CompoundIdentifier(_) = item.expr {
            let position = projection
                .iter()
                .position(|p| matches!(p, SelectItem::UnnamedExpr(e) if *e == item.expr));
            match position {
                Some(k) => item.expr = Expr::Identifier(names[k].clone()),
                None => return false,
            }
        }
        if !reads_only(&item.expr, names) {
            return false;
        }
    }
    true
}

/// `select` (with its QUALIFY `condition` taken out) as the outer query over a derived table,
/// or false where there is no translation (see the module documentation).
#[allow(clippy::result_large_err)] // the condition goes back once per QUALIFY, not in a loop
fn rewrite(q: &mut Query, mut condition: Expr) -> Result<(), Expr> {
    let SetExpr::Select(select) = q.body.as_mut() else {
        return Err(condition);
    };
    let mut inner: Select = (**select).clone();
    let Some(names) = output_names(&mut inner.projection) else {
        return Err(condition);
    };
    let mut windows = Windows(vec![]);
    let _ = VisitMut::visit(&mut condition, &mut windows);
    let mut readable = names.clone();
    readable.extend(windows.0.iter().filter_map(|w| match w {
        SelectItem::ExprWithAlias { alias, .. } => Some(alias.clone()),
        _ => None,
    }));
    let original = select.projection.clone();
    if !reads_only(&condition, &readable) || !rename_order_by(q, &original, &names) {
        // undo the window placeholders: the construct keeps the original condition
        let mut restored = condition;
        let _ = VisitMut::visit(&mut restored, &mut Restore(&windows.0));
        return Err(restored);
    }
    inner.projection.extend(windows.0);
    inner.distinct = None;
    inner.top = None;
    let SetExpr::Select(select) = q.body.as_mut() else {
        return Err(condition);
    };
    let outer: &mut Select = select;
    outer.projection = names
        .into_iter()
        .map(|n| SelectItem::UnnamedExpr(Expr::Identifier(n)))
        .collect();
    outer.from = vec![TableWithJoins {
        relation: TableFactor::Derived {
            lateral: false,
            subquery: Box::new(derived(inner)),
            alias: Some(TableAlias {
                explicit: true,
                name: Ident::new("_t"),
                columns: vec![],
                at: None,
            }),
            sample: None,
        },
        joins: vec![],
    }];
    outer.lateral_views.clear();
    outer.prewhere = None;
    outer.selection = Some(condition);
    outer.connect_by.clear();
    outer.group_by = GroupByExpr::Expressions(vec![], vec![]);
    outer.cluster_by.clear();
    outer.distribute_by.clear();
    outer.sort_by.clear();
    outer.having = None;
    outer.named_window.clear();
    outer.qualify = None;
    Ok(())
}

/// Puts the window calls back in place of their `_w<k>` names.
struct Restore<'a>(&'a [SelectItem]);

impl VisitorMut for Restore<'_> {
    type Break = ();

    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        let found = match e {
            Expr::Identifier(id) => self.0.iter().find_map(|w| match w {
                SelectItem::ExprWithAlias { expr, alias } if alias == id => Some(expr.clone()),
                _ => None,
            }),
            _ => None,
        };
        if let Some(call) = found {
            *e = call;
        }
        ControlFlow::Continue(())
    }
}

/// A query of `select` alone.
fn derived(select: Select) -> Query {
    Query {
        with: None,
        body: Box::new(SetExpr::Select(Box::new(select))),
        order_by: None,
        limit_clause: None,
        fetch: None,
        locks: vec![],
        for_clause: None,
        settings: None,
        format_clause: None,
        pipe_operators: vec![],
    }
}

struct Rewrite(Dialect);

impl VisitorMut for Rewrite {
    type Break = ();

    fn pre_visit_query(&mut self, q: &mut Query) -> ControlFlow<()> {
        let SetExpr::Select(select) = q.body.as_mut() else {
            return ControlFlow::Continue(());
        };
        let Some(condition) = select.qualify.take() else {
            return ControlFlow::Continue(());
        };
        if let Err(condition) = rewrite(q, condition) {
            if let SetExpr::Select(select) = q.body.as_mut() {
                let marker = untranslated("QUALIFY", self.0, vec![condition]);
                select.selection = Some(match select.selection.take() {
                    None => marker,
                    Some(w) => logic(
                        marker,
                        sqlparser::ast::BinaryOperator::And,
                        super::calls::nested(w),
                    ),
                });
            }
        }
        ControlFlow::Continue(())
    }
}

impl Rule for Qualify {
    fn name(&self) -> &'static str {
        "qualify"
    }

    fn applies_to(&self, dialect: Dialect) -> bool {
        matches!(
            dialect,
            Dialect::Snowflake | Dialect::Bigquery | Dialect::Duckdb
        )
    }

    fn apply(&self, statement: &mut Statement, dialect: Dialect) {
        let _ = VisitMut::visit(statement, &mut Rewrite(dialect));
    }
}
