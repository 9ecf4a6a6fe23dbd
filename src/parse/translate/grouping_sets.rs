//! Rule `grouping_sets`: `GROUPING SETS`, `ROLLUP`, `CUBE` and MySQL's `WITH ROLLUP`, which
//! SQLite lacks, as a UNION ALL of one grouping per set.
//!
//! ```sql
//! -- before (ansi, postgres, ...)
//! SELECT a, b, COUNT(*), GROUPING(b) FROM t GROUP BY ROLLUP(a, b)
//! -- after
//! SELECT * FROM (SELECT a, b, COUNT(*), 0 FROM t GROUP BY a, b
//!   UNION ALL SELECT a, NULL AS b, COUNT(*), 1 FROM t GROUP BY a
//!   UNION ALL SELECT NULL AS a, NULL AS b, COUNT(*), 1 FROM t) AS `_g`
//! ```
//!
//! Each grouping set is the same SELECT grouped by that set's keys, where a key of another set
//! is NULL outside aggregates (in the SELECT list and HAVING), and `GROUPING(k, ...)` is the
//! number whose bits say which keys are NULL for the set (1 for a missing key, the first
//! argument highest). The grand total `()` is the SELECT without GROUP BY, one row even on no
//! rows, as the standard's empty grouping set gives; a SELECT without an aggregate has no such
//! row in SQLite, and no translation. A DISTINCT applies to the union; a window function, which
//! would read each set's rows alone, has no translation. `ROLLUP(a, b)` is the sets `(a, b)`, `(a)`, `()`;
//! `CUBE(a, b)` every subset; several elements multiply out. The query's ORDER BY reads the
//! union's columns: an ORDER BY of a qualified name or of a call has no translation, nor more
//! than [`MAX_SETS`] sets. The rule runs after the aggregate rules, so an aggregate is one of
//! SQLite's.

use std::ops::ControlFlow;

use sqlparser::ast::{
    Expr, GroupByExpr, GroupByWithModifier, OrderByKind, Query, Select, SelectItem, SetExpr,
    SetOperator, SetQuantifier, Statement, Value, Visit, VisitMut, Visitor, VisitorMut,
};

use super::calls::{int, name};
use super::outputs::{derived_tables, put, template};
use super::Rule;
use crate::parse::dialect::Dialect;

/// See the module documentation.
pub struct GroupingSets;

/// Most grouping sets one query may expand into.
const MAX_SETS: usize = 32;

/// SQLite's aggregates (after the rules before this one).
const AGGREGATES: [&str; 7] = ["count", "sum", "avg", "min", "max", "total", "group_concat"];

/// Whether `e` is a call of an aggregate (not a window, not the scalar MIN/MAX).
fn is_aggregate(e: &Expr) -> bool {
    let Expr::Function(f) = e else { return false };
    let n = name(f);
    let args = match &f.args {
        sqlparser::ast::FunctionArguments::List(l) => l.args.len(),
        _ => 0,
    };
    f.over.is_none()
        && AGGREGATES.contains(&n.as_str())
        && !(args > 1 && (n == "min" || n == "max"))
}

/// The grouping sets of one GROUP BY element.
fn sets_of(e: &Expr) -> Vec<Vec<Expr>> {
    match e {
        Expr::Rollup(items) => (0..=items.len())
            .rev()
            .map(|k| items[..k].concat())
            .collect(),
        Expr::Cube(items) => {
            let n = items.len().min(8);
            (0..1usize << n)
                .rev()
                .map(|mask| {
                    (0..n)
                        .filter(|i| mask & (1 << (n - 1 - i)) != 0)
                        .flat_map(|i| items[i].clone())
                        .collect()
                })
                .collect()
        }
        Expr::GroupingSets(sets) => sets.clone(),
        other => vec![vec![other.clone()]],
    }
}

/// The grouping sets of a GROUP BY, None for one without them.
fn grouping_sets(group_by: &GroupByExpr) -> Option<Vec<Vec<Expr>>> {
    let GroupByExpr::Expressions(keys, modifiers) = group_by else {
        return None;
    };
    let rollup = modifiers.contains(&GroupByWithModifier::Rollup);
    let grouped = keys
        .iter()
        .any(|k| matches!(k, Expr::Rollup(_) | Expr::Cube(_) | Expr::GroupingSets(_)));
    if !rollup && !grouped {
        return None;
    }
    let elements: Vec<Vec<Vec<Expr>>> = if rollup {
        vec![sets_of(&Expr::Rollup(
            keys.iter().map(|k| vec![k.clone()]).collect(),
        ))]
    } else {
        keys.iter().map(sets_of).collect()
    };
    let mut sets: Vec<Vec<Expr>> = vec![vec![]];
    for element in elements {
        sets = sets
            .iter()
            .flat_map(|s| element.iter().map(move |e| [s.clone(), e.clone()].concat()))
            .collect();
    }
    Some(sets)
}

/// Replaces, outside aggregates, the keys missing from a set by NULL and GROUPING calls by
/// their value; counts the aggregates it sees.
struct ForSet<'a> {
    missing: &'a [Expr],
    depth: usize,
    aggregates: usize,
}

impl VisitorMut for ForSet<'_> {
    type Break = ();

    fn pre_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        if self.depth == 0 {
            if self.missing.contains(e) {
                *e = Expr::value(Value::Null);
            } else if let Expr::Function(f) = e {
                if name(f) == "grouping" && f.over.is_none() {
                    let args = super::calls::plain_args(f).unwrap_or_default();
                    let bits = args
                        .iter()
                        .fold(0i64, |acc, a| acc * 2 + i64::from(self.missing.contains(a)));
                    *e = int(bits);
                }
            }
        }
        if is_aggregate(e) {
            self.depth += 1;
            self.aggregates += 1;
        }
        ControlFlow::Continue(())
    }

    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        if is_aggregate(e) {
            self.depth = self.depth.saturating_sub(1);
        }
        ControlFlow::Continue(())
    }
}

/// Finds a window function.
struct HasWindow(bool);

impl Visitor for HasWindow {
    type Break = ();

    fn pre_visit_expr(&mut self, e: &Expr) -> ControlFlow<()> {
        if matches!(e, Expr::Function(f) if f.over.is_some()) {
            self.0 = true;
        }
        ControlFlow::Continue(())
    }
}

/// `select` grouped by `set` alone, and whether it aggregates.
fn for_set(select: &Select, set: &[Expr], keys: &[Expr]) -> (Select, bool) {
    let missing: Vec<Expr> = keys.iter().filter(|k| !set.contains(k)).cloned().collect();
    let mut s = select.clone();
    s.group_by = GroupByExpr::Expressions(set.to_vec(), vec![]);
    for item in &mut s.projection {
        if let SelectItem::UnnamedExpr(e) = item {
            let alias = match e {
                Expr::Identifier(id) => Some(id.clone()),
                Expr::CompoundIdentifier(parts) => parts.last().cloned(),
                _ => None,
            };
            if let Some(alias) = alias.filter(|_| missing.contains(e)) {
                *item = SelectItem::ExprWithAlias {
                    expr: e.clone(),
                    alias,
                };
            }
        }
    }
    let mut visitor = ForSet {
        missing: &missing,
        depth: 0,
        aggregates: 0,
    };
    let _ = VisitMut::visit(&mut s.projection, &mut visitor);
    let _ = VisitMut::visit(&mut s.having, &mut visitor);
    (s, visitor.aggregates > 0)
}

/// The UNION ALL of `select`'s groupings, wrapped so that ORDER BY reads its columns; None
/// without a faithful rewrite.
fn expanded(select: &Select, sets: &[Vec<Expr>]) -> Option<SetExpr> {
    if sets.is_empty() || sets.len() > MAX_SETS {
        return None;
    }
    let mut keys: Vec<Expr> = vec![];
    for k in sets.iter().flatten() {
        if !keys.contains(k) {
            keys.push(k.clone());
        }
    }
    // a window or DISTINCT reads every set's rows together: the outer query's DISTINCT, no
    // window
    let mut windows = HasWindow(false);
    let _ = Visit::visit(&select.projection, &mut windows);
    if windows.0 {
        return None;
    }
    let mut plain = select.clone();
    let distinct = plain.distinct.take();
    let mut branches = vec![];
    for set in sets {
        let (s, aggregates) = for_set(&plain, set, &keys);
        if set.is_empty() && !aggregates {
            return None;
        }
        branches.push(SetExpr::Select(Box::new(s)));
    }
    let union = branches
        .into_iter()
        .reduce(|left, right| SetExpr::SetOperation {
            op: SetOperator::Union,
            set_quantifier: SetQuantifier::All,
            left: Box::new(left),
            right: Box::new(right),
        })?;
    let mut outer = template("SELECT * FROM (SELECT 1) AS `_g`")?;
    put(derived_tables(&mut outer.body).into_iter().next()?, union);
    if let SetExpr::Select(s) = outer.body.as_mut() {
        s.distinct = distinct;
    }
    Some(*outer.body)
}

/// Whether an ORDER BY reads only the union's columns (names and positions).
fn orders_by_columns(q: &Query) -> bool {
    match q.order_by.as_ref().map(|o| &o.kind) {
        None => true,
        Some(OrderByKind::Expressions(items)) => items
            .iter()
            .all(|i| matches!(i.expr, Expr::Identifier(_) | Expr::Value(_))),
        Some(OrderByKind::All(_)) => false,
    }
}

/// `body` with each SELECT that groups by sets expanded.
fn rewrite(body: &mut SetExpr, dialect: Dialect, ordered: bool) {
    match body {
        SetExpr::SetOperation { left, right, .. } => {
            rewrite(left, dialect, true);
            rewrite(right, dialect, true);
        }
        SetExpr::Select(select) => {
            let Some(sets) = grouping_sets(&select.group_by) else {
                return;
            };
            let new = if ordered {
                expanded(select, &sets)
            } else {
                None
            };
            *body = match new.or_else(|| {
                template(&format!(
                    "SELECT sqlsim_untranslated('GROUPING SETS of this form in {}')",
                    dialect.name()
                ))
                .map(|q| *q.body)
            }) {
                Some(b) => b,
                None => return,
            };
        }
        _ => {}
    }
}

struct Rewrite(Dialect);

impl VisitorMut for Rewrite {
    type Break = ();

    fn post_visit_query(&mut self, q: &mut Query) -> ControlFlow<()> {
        let ordered = orders_by_columns(q);
        rewrite(&mut q.body, self.0, ordered);
        ControlFlow::Continue(())
    }
}

impl Rule for GroupingSets {
    fn name(&self) -> &'static str {
        "grouping_sets"
    }

    fn applies_to(&self, dialect: Dialect) -> bool {
        dialect != Dialect::Sqlite
    }

    fn apply(&self, statement: &mut Statement, dialect: Dialect) {
        let _ = VisitMut::visit(statement, &mut Rewrite(dialect));
    }
}
