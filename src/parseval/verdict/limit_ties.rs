//! Ties at a LIMIT cut-off: on a database where two rows with equal ORDER BY keys straddle a
//! LIMIT/OFFSET boundary, the query's own result depends on SQLite's tie-breaking, so that
//! database cannot tell two queries apart (it is never used as a counterexample).

use rusqlite::Connection;

use crate::exec::instance::{run_query, Outcome};
use crate::exec::ExecOptions;
use crate::parseval::search::plan_facts::visit_all;
use crate::plan::to_sql::to_sql;
use crate::plan::{Expr, Literal, Plan, QueryPlan};

/// What is known about the tie-breaking of a query's LIMITs on one database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cutoff {
    /// Every ordered LIMIT of the plan keeps the same rows whatever the tie-breaking.
    Determined,
    /// Only the outer ordered LIMIT has a tie at its cut-off: which rows come back depends on
    /// tie-breaking, how many does not.
    OuterTie,
    /// An ordered LIMIT inside the query has a tie at its cut-off.
    Tie,
}

/// Bounds of the tie checks (a few rows of a small generated database).
const CHECK: ExecOptions = ExecOptions {
    timeout: std::time::Duration::from_millis(5_000),
    max_steps: Some(5_000_000),
    max_rows: 10,
    keep_distinct: true,
};

/// The plan's outer Sort (under row-wise projections), if any.
fn outer_sort(p: &Plan) -> Option<&crate::plan::Sort> {
    match p {
        Plan::Sort(s) => Some(s),
        Plan::Project(p) => outer_sort(&p.input),
        _ => None,
    }
}

fn integer(e: &Option<Expr>) -> Option<i64> {
    match e {
        None => Some(0),
        Some(Expr::Literal(Literal::Integer(i))) => Some(*i),
        _ => None,
    }
}

/// SQL returning a row when the sort input has two different rows with equal keys at positions
/// `last` (the last row kept) and `last + 1` (the first row cut), in the sort's order.
fn tie_sql(s: &crate::plan::Sort, q: &QueryPlan) -> Option<String> {
    let fetch = match &s.fetch {
        Some(_) => integer(&s.fetch)?,
        None => return None,
    };
    let offset = integer(&s.offset)?;
    if s.keys.is_empty() || fetch <= 0 || offset < 0 {
        return None;
    }
    let inner = to_sql(&s.input, &q.columns);
    let keys: Vec<String> = s.keys.iter().map(|k| format!("c{}", k.column)).collect();
    let order: Vec<String> = s
        .keys
        .iter()
        .map(|k| {
            format!(
                "c{} {} NULLS {}",
                k.column,
                if k.descending { "DESC" } else { "ASC" },
                if k.nulls_first { "FIRST" } else { "LAST" }
            )
        })
        .collect();
    Some(format!(
        "SELECT 1 FROM (SELECT DISTINCT * FROM (SELECT * FROM ({inner}) AS ties_in ORDER BY {} \
         LIMIT 2 OFFSET {}) AS ties_cut) AS ties_rows GROUP BY {} HAVING COUNT(*) > 1",
        order.join(", "),
        offset + fetch - 1,
        keys.join(", ")
    ))
}

/// Whether the ordered LIMITs of `q` (the outer query's and those of subqueries that do not
/// refer to an outer row) keep the same rows on `conn` whatever the tie-breaking. A LIMIT whose
/// check cannot run (a correlated subquery, a non-literal count) is taken as determined.
pub fn cutoff(conn: &Connection, q: &QueryPlan) -> Cutoff {
    let outer = outer_sort(&q.root).map(|s| s as *const crate::plan::Sort);
    let mut checks = Vec::new();
    visit_all(&q.root, &mut |p| {
        if let Plan::Sort(s) = p {
            if let Some(sql) = tie_sql(s, q) {
                checks.push((Some(s as *const crate::plan::Sort) == outer, sql));
            }
        }
    });
    let mut found = Cutoff::Determined;
    for (is_outer, sql) in checks {
        if let Outcome::Rows(r) = run_query(conn, &sql, &CHECK, false) {
            if !r.is_empty() {
                if !is_outer {
                    return Cutoff::Tie;
                }
                found = Cutoff::OuterTie;
            }
        }
    }
    found
}

/// SQL returning a row when the outer Sort's input has two different rows with equal keys
/// anywhere (their order in the result is SQLite's choice); None without an outer Sort.
fn any_tie_sql(q: &QueryPlan) -> Option<String> {
    let s = outer_sort(&q.root)?;
    if s.keys.is_empty() {
        return None;
    }
    let inner = to_sql(&s.input, &q.columns);
    let keys: Vec<String> = s.keys.iter().map(|k| format!("c{}", k.column)).collect();
    Some(format!(
        "SELECT 1 FROM (SELECT DISTINCT * FROM ({inner}) AS ties_in) AS ties_rows GROUP BY {} \
         HAVING COUNT(*) > 1",
        keys.join(", ")
    ))
}

/// Whether `q`'s rows on `conn` come back in one order only: it has an outer ORDER BY and no
/// two different rows share its keys. Unknown (a check that does not run) counts as no.
pub fn order_determined(conn: &Connection, q: &QueryPlan) -> bool {
    let Some(sql) = any_tie_sql(q) else {
        return false;
    };
    matches!(run_query(conn, &sql, &CHECK, false), Outcome::Rows(r) if r.is_empty())
}

/// Whether the outer ORDER BY of `q` has keys that are not among its output columns (so
/// [`super::checker::row_order`] cannot compare by them).
pub fn orders_by_hidden_keys(q: &QueryPlan) -> bool {
    let Some(s) = outer_sort(&q.root) else {
        return false;
    };
    let out = q.root.output();
    let shown = |c: u32| match &q.root {
        Plan::Project(p) => p.items.iter().any(|(_, e)| *e == Expr::Column(c)),
        _ => out.contains(&c),
    };
    s.keys.iter().any(|k| !shown(k.column))
}
