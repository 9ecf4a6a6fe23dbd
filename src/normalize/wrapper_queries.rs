//! Pass `wrapper_queries`: a query wrapped without being changed reads as the query itself.
//!
//! ```sql
//! -- before
//! WITH q AS (SELECT name FROM singer WHERE age > 3) SELECT * FROM q
//! -- after
//! SELECT name FROM singer WHERE age > 3
//! ```
//!
//! - A common table expression read exactly once (in the body, not by another CTE of its WITH
//!   nor in the ORDER BY or LIMIT) becomes a derived table in the place that reads it, under the
//!   name it was read by: `WITH a AS (X) SELECT a.n FROM a JOIN t ...` reads as `SELECT a.n FROM
//!   (X) AS a JOIN t ...`, the same tree as the subquery spelling. Left as they are: RECURSIVE, a CTE with a column list or a
//!   MATERIALIZED hint, and a name that a nested WITH still defines (it shadows the outer one
//!   there; nested WITHs are inlined first, inside out).
//! - `SELECT * FROM (X) [AS a]` with nothing else (no WHERE, GROUP BY, ORDER BY, LIMIT, DISTINCT,
//!   join or WITH) is X.
//!
//! LLM rewrites of a query often take these shapes; the trees (and so AST-TE, ASTPM and the Hybrid
//! GMN's AST graph) otherwise differ in every node above the wrapped query. The plan (`sql_plan`)
//! already reads both spellings as one.

use super::{body_only, each_query_inside_out, key, lone_derived_table, QueryPass};
use sqlparser::ast::{
    Cte, Query, SelectItem, SetExpr, TableAlias, TableFactor, Visit, VisitMut, Visitor, VisitorMut,
};
use std::ops::ControlFlow;

/// See the module documentation.
pub static WRAPPER_QUERIES: QueryPass = QueryPass::new("wrapper_queries", unwrap);

/// The lower-cased name of a one-part table reference, or None.
fn single_name(factor: &TableFactor) -> Option<String> {
    match factor {
        TableFactor::Table {
            name, args: None, ..
        } if name.0.len() == 1 => name.0[0].as_ident().map(|i| key(&i.value)),
        _ => None,
    }
}

/// How often `name` is read as a table in what it visits; `usize::MAX` when a nested WITH defines
/// `name` again (the reads below it may be of the inner one).
struct Reads<'a> {
    name: &'a str,
    count: usize,
}

impl Visitor for Reads<'_> {
    type Break = ();
    fn pre_visit_query(&mut self, q: &Query) -> ControlFlow<()> {
        let redefines = q
            .with
            .iter()
            .flat_map(|w| &w.cte_tables)
            .any(|c| key(&c.alias.name.value) == self.name);
        if redefines {
            self.count = usize::MAX;
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }
    fn pre_visit_table_factor(&mut self, factor: &TableFactor) -> ControlFlow<()> {
        if single_name(factor).as_deref() == Some(self.name) {
            self.count = self.count.saturating_add(1);
        }
        ControlFlow::Continue(())
    }
}

fn reads(node: &impl Visit, name: &str) -> usize {
    let mut r = Reads { name, count: 0 };
    let _ = Visit::visit(node, &mut r);
    r.count
}

/// Puts `cte`'s query in the place of the one table reference to it.
struct Inline {
    name: String,
    cte: Option<Cte>,
}

impl VisitorMut for Inline {
    type Break = ();
    fn pre_visit_table_factor(&mut self, factor: &mut TableFactor) -> ControlFlow<()> {
        if single_name(factor).as_deref() != Some(self.name.as_str()) {
            return ControlFlow::Continue(());
        }
        let Some(cte) = self.cte.take() else {
            return ControlFlow::Break(());
        };
        let read_as = match factor {
            TableFactor::Table { alias: Some(a), .. } => a.name.clone(),
            _ => cte.alias.name.clone(),
        };
        *factor = TableFactor::Derived {
            lateral: false,
            subquery: cte.query,
            alias: Some(TableAlias {
                explicit: true,
                name: read_as,
                columns: vec![],
                at: None,
            }),
            sample: None,
        };
        ControlFlow::Break(())
    }
}

/// True when `cte` may be inlined: a plain `name AS (query)`.
fn inlinable(cte: &Cte) -> bool {
    cte.alias.columns.is_empty() && cte.materialized.is_none() && cte.from.is_none()
}

/// Inlines, one at a time, every CTE of `q` read once by the body and nowhere else (not by
/// another CTE, not in a subquery of the ORDER BY or LIMIT); true when it inlined any.
fn inline_ctes(q: &mut Query) -> bool {
    let mut inlined = false;
    loop {
        let Some(with) = q.with.as_ref().filter(|w| !w.recursive) else {
            return inlined;
        };
        let ctes = &with.cte_tables;
        let found = ctes.iter().enumerate().find_map(|(i, cte)| {
            let name = key(&cte.alias.name.value);
            let once = inlinable(cte)
                && reads(&q.body, &name) == 1
                && reads(&q.order_by, &name) == 0
                && reads(&q.limit_clause, &name) == 0
                && ctes
                    .iter()
                    .enumerate()
                    .all(|(j, other)| j == i || reads(&other.query, &name) == 0);
            once.then_some((i, name))
        });
        let Some((i, name)) = found else {
            return inlined;
        };
        let Some(with) = q.with.as_mut() else {
            return inlined;
        };
        let cte = with.cte_tables.remove(i);
        if with.cte_tables.is_empty() {
            q.with = None;
        }
        let mut inline = Inline {
            name,
            cte: Some(cte),
        };
        let _ = VisitMut::visit(q.body.as_mut(), &mut inline);
        inlined = true;
    }
}

/// The subquery of `q` when `q` is exactly `SELECT * FROM (subquery) [AS a]`. The cheap checks
/// come first: the select is printed (the only version-proof way to see that it has no other
/// clause) only for a lone `*` over one derived table.
fn star_over_subquery(q: &Query) -> Option<&Query> {
    let SetExpr::Select(select) = q.body.as_ref() else {
        return None;
    };
    let [SelectItem::Wildcard(_)] = select.projection.as_slice() else {
        return None;
    };
    let (subquery, _) = lone_derived_table(select)?;
    let only_star =
        body_only(q) && select.to_string() == format!("SELECT * FROM {}", select.from[0].relation);
    only_star.then_some(subquery)
}

/// One query, its inner queries already done (so a nested WITH is gone, where it can go, before
/// the enclosing one is looked at, and an inlined query is already rewritten).
fn unwrap(q: &mut Query) {
    if inline_ctes(q) {
        // a wrapper the inlining made (`... IN (SELECT * FROM (X) AS a)`) inside the body
        each_query_inside_out(q.body.as_mut(), unwrap);
    }
    if let Some(inner) = star_over_subquery(q) {
        *q = inner.clone();
    }
}
