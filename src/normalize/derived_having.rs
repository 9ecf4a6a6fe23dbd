//! Pass `derived_having`: a filter on the rows of a grouped derived table reads as HAVING.
//!
//! ```sql
//! -- before
//! SELECT c0 FROM (SELECT name AS c0, count(*) AS n FROM singer GROUP BY name) AS g WHERE n > 1
//! -- after
//! SELECT name AS c0 FROM singer GROUP BY name HAVING count(*) > 1
//! ```
//!
//! The rows of a grouped query are its groups, so a WHERE over them, and a projection of some of
//! their columns, is the grouped query with that condition in its HAVING (joined by AND to one it
//! has) and those columns in its select list. Rewritten only when every name the outer query uses
//! is an output column of the inner one (its alias, or the name of an unaliased column), the outer
//! query is `SELECT ... FROM (inner) [AS a] [WHERE ...]` with nothing else (no join, GROUP BY,
//! DISTINCT, ORDER BY, LIMIT, WITH, subquery, and no function call: `SELECT count(*) FROM
//! (grouped)` counts the groups), and the inner one is a plain grouped SELECT (GROUP BY, no
//! DISTINCT, ORDER BY or LIMIT). `SELECT *` keeps every inner column.
//!
//! LLM rewrites of a HAVING query take this shape; without the pass the trees (and so AST-TE,
//! ASTPM and the Hybrid GMN's AST graph) differ in every node above the grouped query, while the
//! plan (`sql_plan`) already reads both spellings as one.

use super::{body_only, key, lone_derived_table, QueryPass};
use sqlparser::ast::{
    BinaryOperator, Expr, GroupByExpr, Query, Select, SelectItem, SetExpr, VisitMut, VisitorMut,
};
use std::collections::HashMap;
use std::ops::ControlFlow;

/// See the module documentation.
pub static DERIVED_HAVING: QueryPass = QueryPass::new("derived_having", rewrite);

/// The select of `q` when `q` has nothing but that select (no WITH, ORDER BY, LIMIT, ...).
fn lone_select(q: &Query) -> Option<&Select> {
    match q.body.as_ref() {
        SetExpr::Select(s) if body_only(q) => Some(s),
        _ => None,
    }
}

/// True when `s` has no clause but its select list, FROM, WHERE, GROUP BY (without modifiers)
/// and HAVING: printed without those it is `SELECT` (the check that does not depend on
/// sqlparser's list of Select fields).
fn plain(s: &Select) -> bool {
    if matches!(&s.group_by, GroupByExpr::Expressions(_, m) if !m.is_empty())
        || matches!(s.group_by, GroupByExpr::All(_))
    {
        return false;
    }
    let mut rest = s.clone();
    rest.projection.clear();
    rest.from.clear();
    rest.selection = None;
    rest.group_by = GroupByExpr::Expressions(vec![], vec![]);
    rest.having = None;
    rest.to_string() == "SELECT"
}

fn grouped(s: &Select) -> bool {
    matches!(&s.group_by, GroupByExpr::Expressions(e, _) if !e.is_empty())
}

/// The inner select's items by output name; a name given twice maps to None.
type Outputs<'a> = HashMap<String, Option<&'a SelectItem>>;

fn outputs(s: &Select) -> Outputs<'_> {
    let mut out = Outputs::new();
    for item in &s.projection {
        let name = match item {
            SelectItem::ExprWithAlias { alias, .. } => Some(key(&alias.value)),
            SelectItem::UnnamedExpr(Expr::Identifier(i)) => Some(key(&i.value)),
            SelectItem::UnnamedExpr(Expr::CompoundIdentifier(p)) => p.last().map(|i| key(&i.value)),
            _ => None,
        };
        if let Some(name) = name {
            out.entry(name)
                .and_modify(|twice| *twice = None)
                .or_insert(Some(item));
        }
    }
    out
}

/// The expression of a named output item (`outputs` holds no other kind).
fn item_expr(item: &SelectItem) -> Option<&Expr> {
    match item {
        SelectItem::ExprWithAlias { expr, .. } | SelectItem::UnnamedExpr(expr) => Some(expr),
        _ => None,
    }
}

/// Replaces every column reference of an outer expression with the inner expression it names;
/// `failed` when a reference names no (or an ambiguous) output column, or a subquery is met.
struct Substitute<'a> {
    alias: Option<String>,
    outputs: &'a Outputs<'a>,
    failed: bool,
}

impl Substitute<'_> {
    fn name_of(&self, e: &Expr) -> Option<String> {
        match e {
            Expr::Identifier(i) => Some(key(&i.value)),
            Expr::CompoundIdentifier(p)
                if p.len() == 2 && self.alias.as_deref() == Some(key(&p[0].value).as_str()) =>
            {
                Some(key(&p[1].value))
            }
            Expr::CompoundIdentifier(_) => {
                Some(String::new()) // qualified by another name: resolves to nothing below
            }
            _ => None,
        }
    }
}

impl VisitorMut for Substitute<'_> {
    type Break = ();
    fn pre_visit_query(&mut self, _q: &mut Query) -> ControlFlow<()> {
        self.failed = true;
        ControlFlow::Break(())
    }
    /// A function of the outer query may be an aggregate (`SELECT count(*) FROM (grouped)` counts
    /// the groups: one row, not one per group), so none is moved into the grouped query.
    fn pre_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        if matches!(e, Expr::Function(_)) {
            self.failed = true;
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }
    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        let Some(name) = self.name_of(e) else {
            return ControlFlow::Continue(());
        };
        let Some(inner) = self
            .outputs
            .get(&name)
            .copied()
            .flatten()
            .and_then(item_expr)
        else {
            self.failed = true;
            return ControlFlow::Break(());
        };
        *e = match inner {
            Expr::Identifier(_)
            | Expr::CompoundIdentifier(_)
            | Expr::Function(_)
            | Expr::Value(_) => inner.clone(),
            other => Expr::Nested(Box::new(other.clone())),
        };
        ControlFlow::Continue(())
    }
}

/// An outer select item as an item of the grouped select: a bare reference is the inner item
/// itself (its alias is the name the outer query read), anything else has its references
/// substituted; None for a wildcard.
fn project(item: &SelectItem, sub: &mut Substitute<'_>) -> Option<SelectItem> {
    match item {
        SelectItem::UnnamedExpr(e) => {
            if let Some(Some(inner)) = sub.name_of(e).and_then(|n| sub.outputs.get(&n)) {
                return Some((*inner).clone());
            }
            let mut e = e.clone();
            let _ = VisitMut::visit(&mut e, sub);
            Some(SelectItem::UnnamedExpr(e))
        }
        SelectItem::ExprWithAlias { expr, alias } => {
            let mut expr = expr.clone();
            let _ = VisitMut::visit(&mut expr, sub);
            Some(SelectItem::ExprWithAlias {
                expr,
                alias: alias.clone(),
            })
        }
        _ => None,
    }
}

/// The grouped select that `q` reads as, or None when `q` is not such a filter or projection.
fn as_having(q: &Query) -> Option<Query> {
    let outer = lone_select(q)?;
    let (subquery, alias) = lone_derived_table(outer)?;
    if grouped(outer) || outer.having.is_some() {
        return None;
    }
    let inner = lone_select(subquery)?;
    if !grouped(inner) || !plain(inner) {
        return None;
    }
    let outputs = outputs(inner);
    let mut sub = Substitute {
        alias: alias.map(|a| key(&a.name.value)),
        outputs: &outputs,
        failed: false,
    };
    let projection = match outer.projection.as_slice() {
        [SelectItem::Wildcard(w)] if SelectItem::Wildcard(w.clone()).to_string() == "*" => {
            inner.projection.clone()
        }
        items => items
            .iter()
            .map(|item| project(item, &mut sub))
            .collect::<Option<Vec<_>>>()?,
    };
    let condition = outer.selection.clone().map(|mut w| {
        let _ = VisitMut::visit(&mut w, &mut sub);
        w
    });
    // last, as the dearest check: it copies the outer select, derived table included
    if sub.failed || !plain(outer) {
        return None;
    }
    let mut result = subquery.clone();
    let SetExpr::Select(select) = result.body.as_mut() else {
        return None;
    };
    select.projection = projection;
    select.having = match (select.having.take(), condition) {
        (Some(h), Some(c)) => Some(Expr::BinaryOp {
            left: Box::new(Expr::Nested(Box::new(h))),
            op: BinaryOperator::And,
            right: Box::new(Expr::Nested(Box::new(c))),
        }),
        (h, c) => h.or(c),
    };
    Some(result)
}

/// Rewrites one query; inner queries come first (`each_query_inside_out`), so a derived table
/// nested in another is already rewritten.
fn rewrite(q: &mut Query) {
    if let Some(grouped) = as_having(q) {
        *q = grouped;
    }
}
