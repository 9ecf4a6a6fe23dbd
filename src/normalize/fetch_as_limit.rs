//! Pass `fetch_as_limit`: standard SQL's row limit, as Calcite prints it, becomes LIMIT.
//!
//! ```sql
//! -- before
//! SELECT name FROM singer ORDER BY age OFFSET 2 ROWS FETCH NEXT 1 ROWS ONLY
//! -- after
//! SELECT name FROM singer ORDER BY age LIMIT 1 OFFSET 2
//! ```
//!
//! `FETCH {FIRST | NEXT} [n] {ROW | ROWS} ONLY` keeps the first n rows (1 without a count), as
//! `LIMIT n` does; `OFFSET n ROWS` is `OFFSET n`. `FETCH ... PERCENT` or `WITH TIES`, and a
//! query with both LIMIT and FETCH, are left as they are.

use super::Pass;
use sqlparser::ast::{
    Expr, LimitClause, Offset, OffsetRows, Query, Statement, Value, VisitMut, VisitorMut,
};
use std::ops::ControlFlow;

/// See the module documentation.
pub struct FetchAsLimit;

struct Rewrite;

/// `offset` without its ROW/ROWS word.
fn plain(offset: Option<Offset>) -> Option<Offset> {
    offset.map(|o| Offset {
        value: o.value,
        rows: OffsetRows::None,
    })
}

impl VisitorMut for Rewrite {
    type Break = ();
    fn pre_visit_query(&mut self, q: &mut Query) -> ControlFlow<()> {
        let Some(fetch) = &q.fetch else {
            return ControlFlow::Continue(());
        };
        if fetch.with_ties || fetch.percent {
            return ControlFlow::Continue(());
        }
        let offset = match q.limit_clause.take() {
            None => None,
            Some(LimitClause::LimitOffset {
                limit: None,
                offset,
                limit_by,
            }) if limit_by.is_empty() => offset,
            other => {
                q.limit_clause = other;
                return ControlFlow::Continue(());
            }
        };
        let count = fetch
            .quantity
            .clone()
            .unwrap_or_else(|| Expr::value(Value::Number("1".into(), false)));
        q.fetch = None;
        q.limit_clause = Some(LimitClause::LimitOffset {
            limit: Some(count),
            offset: plain(offset),
            limit_by: vec![],
        });
        ControlFlow::Continue(())
    }
}

impl Pass for FetchAsLimit {
    fn name(&self) -> &'static str {
        "fetch_as_limit"
    }
    fn apply(&self, mut statement: Statement) -> Statement {
        let _ = statement.visit(&mut Rewrite);
        statement
    }
}
