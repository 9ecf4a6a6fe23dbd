//! Pass `table_aliases`: replaces table aliases by the table names they stand for and drops them.
//!
//! ```sql
//! -- before
//! SELECT T1.name FROM singer AS T1 JOIN concert AS T2 ON T1.id = T2.singer_id
//! -- after
//! SELECT singer.name FROM singer JOIN concert ON singer.id = concert.singer_id
//! ```
//!
//! A table that occurs more than once in one FROM clause (a self-join) keeps distinct qualifiers:
//! its aliases become `<table>_<n>` (n = 1-based occurrence). Aliases of derived tables become
//! `derived_<n>`. Qualifiers are resolved innermost scope first, so correlated subqueries that refer
//! to an outer alias are rewritten too; an aliased table in a subquery that an enclosing SELECT
//! also reads becomes `<table>_<depth>` so the two stay apart. Only plain `FROM`/`JOIN` tables are considered; nested joins
//! and table functions keep their aliases.

use super::{key, Pass};
use sqlparser::ast::{
    visit_expressions_mut, Expr, Ident, ObjectName, ObjectNamePart, Query, Select, SelectItem,
    SelectItemQualifiedWildcardKind, SetExpr, Statement, TableFactor, VisitMut, VisitorMut,
};
use std::collections::{HashMap, HashSet};
use std::ops::ControlFlow;

/// See the module documentation.
pub struct TableAliases;

type Scope = HashMap<String, Ident>;

fn table_key(name: &ObjectName) -> Option<String> {
    name.0
        .last()
        .and_then(ObjectNamePart::as_ident)
        .map(|i| key(&i.value))
}

fn tables_of(select: &mut Select) -> HashSet<String> {
    factors_mut(select)
        .filter_map(|f| match f {
            TableFactor::Table { name, .. } => table_key(name),
            _ => None,
        })
        .collect()
}

fn factors_mut(select: &mut Select) -> impl Iterator<Item = &mut TableFactor> {
    select.from.iter_mut().flat_map(|t| {
        std::iter::once(&mut t.relation).chain(t.joins.iter_mut().map(|j| &mut j.relation))
    })
}

/// The alias → qualifier map of one SELECT; when `strip` is set, also rewrites its FROM clause.
/// `outer` holds the tables of the enclosing SELECTs: an aliased table that an enclosing SELECT
/// also reads (a correlated self-reference) keeps a distinct qualifier `<table>_<depth>`.
fn scope_of(select: &mut Select, strip: bool, outer: &[HashSet<String>]) -> Scope {
    let mut occurrences: HashMap<String, usize> = HashMap::new();
    for f in factors_mut(select) {
        if let TableFactor::Table { name, .. } = f {
            if let Some(k) = table_key(name) {
                *occurrences.entry(k).or_default() += 1;
            }
        }
    }
    let mut scope = Scope::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut derived = 0;
    for f in factors_mut(select) {
        match f {
            TableFactor::Table { name, alias, .. } => {
                let Some(k) = table_key(name) else { continue };
                let n = {
                    let count = seen.entry(k.clone()).or_default();
                    *count += 1;
                    *count
                };
                let Some(a) = alias.as_mut() else { continue };
                let repeated = occurrences.get(&k).copied().unwrap_or(0) > 1;
                let in_outer = outer.iter().any(|o| o.contains(&k));
                let target = if in_outer {
                    format!("{k}_{}", outer.len() + 1)
                } else if repeated {
                    format!("{k}_{n}")
                } else {
                    k
                };
                let repeated = repeated || in_outer;
                scope.insert(key(&a.name.value), Ident::new(target.clone()));
                if strip {
                    if repeated || !a.columns.is_empty() {
                        a.name = Ident::new(target);
                    } else {
                        *alias = None;
                    }
                }
            }
            TableFactor::Derived { alias: Some(a), .. } => {
                derived += 1;
                let target = format!("derived_{derived}");
                scope.insert(key(&a.name.value), Ident::new(target.clone()));
                if strip {
                    a.name = Ident::new(target);
                }
            }
            _ => {}
        }
    }
    scope
}

/// Rewrites the qualifier (the part before the column name) of `ids` through `scopes`.
fn requalify(scopes: &[Scope], ids: &mut [Ident]) {
    if ids.len() < 2 {
        return;
    }
    let q = ids.len() - 2;
    let k = key(&ids[q].value);
    if let Some(target) = scopes.iter().rev().find_map(|s| s.get(&k)) {
        ids[q] = target.clone();
    }
}

/// Rewrites a `T1.*` wildcard qualifier through `scopes`.
fn requalify_name(scopes: &[Scope], name: &mut ObjectName) {
    if let [ObjectNamePart::Identifier(id)] = name.0.as_mut_slice() {
        let k = key(&id.value);
        if let Some(target) = scopes.iter().rev().find_map(|s| s.get(&k)) {
            *id = target.clone();
        }
    }
}

#[derive(Default)]
struct Resolver {
    scopes: Vec<Scope>,
    /// Tables read by each enclosing SELECT, innermost last (parallel to `scopes`).
    tables: Vec<HashSet<String>>,
}

impl VisitorMut for Resolver {
    type Break = ();
    fn pre_visit_query(&mut self, query: &mut Query) -> ControlFlow<()> {
        // ORDER BY belongs to the query, not to its SELECT, and is visited after the SELECT's scope
        // is closed: resolve it here with the body's scope (computed without touching the FROM).
        if let (SetExpr::Select(select), Some(order_by)) =
            (query.body.as_mut(), query.order_by.as_mut())
        {
            let mut scopes = self.scopes.clone();
            scopes.push(scope_of(select, false, &self.tables));
            let _ = visit_expressions_mut(order_by, |e| {
                if let Expr::CompoundIdentifier(ids) = e {
                    requalify(&scopes, ids);
                }
                ControlFlow::<()>::Continue(())
            });
        }
        ControlFlow::Continue(())
    }
    fn pre_visit_select(&mut self, select: &mut Select) -> ControlFlow<()> {
        let tables = tables_of(select);
        let scope = scope_of(select, true, &self.tables);
        self.scopes.push(scope);
        self.tables.push(tables);
        for item in &mut select.projection {
            if let SelectItem::QualifiedWildcard(
                SelectItemQualifiedWildcardKind::ObjectName(n),
                _,
            ) = item
            {
                requalify_name(&self.scopes, n);
            }
        }
        ControlFlow::Continue(())
    }
    fn post_visit_select(&mut self, _select: &mut Select) -> ControlFlow<()> {
        self.scopes.pop();
        self.tables.pop();
        ControlFlow::Continue(())
    }
    fn post_visit_expr(&mut self, expr: &mut Expr) -> ControlFlow<()> {
        match expr {
            Expr::CompoundIdentifier(ids) => requalify(&self.scopes, ids),
            Expr::QualifiedWildcard(name, _) => requalify_name(&self.scopes, name),
            _ => {}
        }
        ControlFlow::Continue(())
    }
}

impl Pass for TableAliases {
    fn name(&self) -> &'static str {
        "table_aliases"
    }
    fn apply(&self, mut statement: Statement) -> Statement {
        let _ = statement.visit(&mut Resolver::default());
        statement
    }
}
