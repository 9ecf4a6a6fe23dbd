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
//! Inlining never makes a statement nest queries deeper than [`MAX_QUERY_NESTING`], the most the
//! parser accepts, so [`crate::parse::RECURSION_LIMIT`] still bounds the recursion of every later
//! stage; a CTE that would nest deeper stays a CTE. Reads are counted once per WITH and kept up
//! to date as CTEs move into the body, and each of the few inlines scans the WITH once, so a WITH
//! of thousands of CTEs costs time linear in its size (it was cubic: 800 chained CTEs took 55 s).
//!
//! LLM rewrites of a query often take these shapes; the trees (and so AST-TE, ASTPM and the Hybrid
//! GMN's AST graph) otherwise differ in every node above the wrapped query. The plan (`sql_plan`)
//! already reads both spellings as one.

use super::{body_only, each_query_inside_out, key, lone_derived_table, Pass};
use sqlparser::ast::{
    Cte, Query, SelectItem, SetExpr, Statement, TableAlias, TableFactor, Visit, VisitMut, Visitor,
    VisitorMut,
};
use std::collections::HashMap;
use std::ops::ControlFlow;

/// The deepest nesting of queries (the statement's own query counts one) that inlining may
/// make: the deepest the parser accepts, which spends two of its [`crate::parse::RECURSION_LIMIT`]
/// levels on each nested query (the test below pins it).
pub const MAX_QUERY_NESTING: usize = crate::parse::RECURSION_LIMIT / 2 - 1;

/// See the module documentation.
pub struct WrapperQueries;

impl Pass for WrapperQueries {
    fn name(&self) -> &'static str {
        "wrapper_queries"
    }
    fn apply(&self, mut statement: Statement) -> Statement {
        let mut nesting = Nesting {
            deepest: query_nesting(&statement),
        };
        each_query_inside_out(&mut statement, &mut |q| unwrap(q, &mut nesting));
        statement
    }
}

/// An upper bound of the statement's query nesting as CTEs are inlined.
struct Nesting {
    deepest: usize,
}

impl Nesting {
    /// Takes in a query nesting `depth` deep, put below a reference at most as deep as the
    /// statement; false (nothing taken) when the statement could then nest too deep.
    fn take(&mut self, depth: usize) -> bool {
        let fits = self.deepest + depth <= MAX_QUERY_NESTING;
        if fits {
            self.deepest += depth;
        }
        fits
    }
}

/// How deep queries nest in `node` (a query counts one, each query inside it one more).
fn query_nesting(node: &impl Visit) -> usize {
    struct Depth {
        now: usize,
        deepest: usize,
    }
    impl Visitor for Depth {
        type Break = ();
        fn pre_visit_query(&mut self, _: &Query) -> ControlFlow<()> {
            self.now += 1;
            self.deepest = self.deepest.max(self.now);
            ControlFlow::Continue(())
        }
        fn post_visit_query(&mut self, _: &Query) -> ControlFlow<()> {
            self.now -= 1;
            ControlFlow::Continue(())
        }
    }
    let mut d = Depth { now: 0, deepest: 0 };
    let _ = Visit::visit(node, &mut d);
    d.deepest
}

/// The lower-cased name of a one-part table reference, or None.
fn single_name(factor: &TableFactor) -> Option<String> {
    match factor {
        TableFactor::Table {
            name, args: None, ..
        } if name.0.len() == 1 => name.0[0].as_ident().map(|i| key(&i.value)),
        _ => None,
    }
}

/// How often each name is read as a table in a node; `usize::MAX` for a name a nested WITH
/// defines again (the reads below it may be of the inner one).
type Reads = HashMap<String, usize>;

fn reads(node: &impl Visit) -> Reads {
    struct Count(Reads);
    impl Visitor for Count {
        type Break = ();
        fn pre_visit_query(&mut self, q: &Query) -> ControlFlow<()> {
            for cte in q.with.iter().flat_map(|w| &w.cte_tables) {
                self.0.insert(key(&cte.alias.name.value), usize::MAX);
            }
            ControlFlow::Continue(())
        }
        fn pre_visit_table_factor(&mut self, factor: &TableFactor) -> ControlFlow<()> {
            if let Some(name) = single_name(factor) {
                let n = self.0.entry(name).or_default();
                *n = n.saturating_add(1);
            }
            ControlFlow::Continue(())
        }
    }
    let mut c = Count(Reads::new());
    let _ = Visit::visit(node, &mut c);
    c.0
}

fn count(reads: &Reads, name: &str) -> usize {
    reads.get(name).copied().unwrap_or(0)
}

/// Adds `more` to `reads`.
fn add(reads: &mut Reads, more: &Reads) {
    for (name, n) in more {
        let total = reads.entry(name.clone()).or_default();
        *total = total.saturating_add(*n);
    }
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

/// What [`inline_ctes`] knows of one CTE still in the WITH.
struct CteReads {
    name: String,
    /// What its query reads.
    reads: Reads,
    /// How deep queries nest in its query.
    nesting: usize,
}

/// Inlines, one at a time, every CTE of `q` read once by the body and nowhere else (not by
/// another CTE, not in a subquery of the ORDER BY or LIMIT) while `nesting` allows; true when it
/// inlined any.
fn inline_ctes(q: &mut Query, nesting: &mut Nesting) -> bool {
    let Some(with) = q.with.as_ref().filter(|w| !w.recursive) else {
        return false;
    };
    let mut ctes: Vec<CteReads> = with
        .cte_tables
        .iter()
        .map(|c| CteReads {
            name: key(&c.alias.name.value),
            reads: reads(&c.query),
            nesting: query_nesting(&c.query),
        })
        .collect();
    // how many CTEs read each name
    let mut readers: HashMap<String, usize> = HashMap::new();
    for c in &ctes {
        for name in c.reads.keys() {
            *readers.entry(name.clone()).or_default() += 1;
        }
    }
    let mut body = reads(q.body.as_ref());
    let mut order_limit = reads(&q.order_by);
    add(&mut order_limit, &reads(&q.limit_clause));
    let mut inlined = false;
    loop {
        let Some(with) = q.with.as_mut() else {
            return inlined;
        };
        let found = with.cte_tables.iter().zip(&ctes).position(|(cte, c)| {
            let own = usize::from(c.reads.contains_key(&c.name));
            inlinable(cte)
                && count(&body, &c.name) == 1
                && count(&order_limit, &c.name) == 0
                && count(&readers, &c.name) == own
                && nesting.take(c.nesting)
        });
        let Some(i) = found else {
            return inlined;
        };
        let cte = with.cte_tables.remove(i);
        if with.cte_tables.is_empty() {
            q.with = None;
        }
        let c = ctes.remove(i);
        for name in c.reads.keys() {
            if let Some(n) = readers.get_mut(name) {
                *n -= 1;
            }
        }
        // its query now sits in the body, in the place of the one read of its name
        body.insert(c.name.clone(), 0);
        add(&mut body, &c.reads);
        let mut inline = Inline {
            name: c.name,
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
fn unwrap(q: &mut Query, nesting: &mut Nesting) {
    if inline_ctes(q, nesting) {
        // a wrapper the inlining made (`... IN (SELECT * FROM (X) AS a)`) inside the body
        each_query_inside_out(q.body.as_mut(), &mut |q| unwrap(q, nesting));
    }
    if let Some(inner) = star_over_subquery(q) {
        *q = inner.clone();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` CTEs, each reading the one before it, and a body reading the last.
    fn chain(n: usize) -> String {
        let ctes: Vec<String> = std::iter::once("c0 AS (SELECT a, b FROM t)".to_string())
            .chain((1..n).map(|i| format!("c{i} AS (SELECT a, b FROM c{} WHERE b > {i})", i - 1)))
            .collect();
        format!("WITH {} SELECT a FROM c{}", ctes.join(", "), n - 1)
    }

    fn unwrapped(sql: &str) -> Statement {
        let statement = crate::parse::parse_sql(sql).unwrap().remove(0);
        WrapperQueries.apply(statement)
    }

    #[test]
    fn a_short_chain_of_ctes_reads_as_nested_derived_tables() {
        assert_eq!(
            unwrapped(&chain(3)).to_string(),
            "SELECT a FROM (SELECT a, b FROM (SELECT a, b FROM (SELECT a, b FROM t) AS c0 \
             WHERE b > 1) AS c1 WHERE b > 2) AS c2"
        );
    }

    #[test]
    fn inlining_stops_where_queries_would_nest_deeper_than_the_parser_accepts() {
        let nested = |levels: usize| {
            (1..levels).fold("SELECT a FROM t".to_string(), |q, i| {
                format!("SELECT a FROM ({q}) AS s{i}")
            })
        };
        assert!(crate::parse::parse_sql(&nested(MAX_QUERY_NESTING)).is_ok());
        assert!(crate::parse::parse_sql(&nested(MAX_QUERY_NESTING + 1)).is_err());
        for n in [40, 5_000] {
            let statement = unwrapped(&chain(n));
            assert!(query_nesting(&statement) <= MAX_QUERY_NESTING);
            let Statement::Query(q) = &statement else {
                panic!("a query");
            };
            let left = q.with.as_ref().map_or(0, |w| w.cte_tables.len());
            assert_eq!(left, n - (MAX_QUERY_NESTING - 2), "{n} chained CTEs");
        }
    }
}
