//! Rule `limits`: every dialect's row limit as SQLite's `LIMIT n [OFFSET m]`.
//!
//! ```sql
//! -- before (snowflake)
//! SELECT TOP 5 name FROM t ORDER BY a
//! -- after (ORDER BY as rule null_ordering leaves it)
//! SELECT name FROM t ORDER BY a LIMIT 5
//! -- before (mysql)
//! SELECT name FROM t LIMIT 10, 5
//! -- after
//! SELECT name FROM t LIMIT 5 OFFSET 10
//! -- before (postgres)
//! SELECT name FROM t OFFSET 2 ROWS FETCH FIRST 3 ROWS ONLY
//! -- after
//! SELECT name FROM t LIMIT 3 OFFSET 2
//! ```
//!
//! `TOP n` (Snowflake), MySQL's `LIMIT offset, count`, `OFFSET n ROWS` and
//! `FETCH {FIRST | NEXT} [n] {ROW | ROWS} ONLY` (1 row without a count) keep the same rows as
//! `LIMIT`/`OFFSET`; an OFFSET without a limit is `LIMIT -1 OFFSET n` (sqlglot's spelling; -1
//! is no limit in SQLite). `TOP ... PERCENT`, `WITH TIES` and `FETCH ... PERCENT` have no
//! translation. Standard SQL (`ansi`, Calcite's printing) reads the same: its FETCH becomes a
//! LIMIT here, so that the text runs on SQLite everywhere (the normalization pass
//! `fetch_as_limit` reads it the same way in SQLite text).

use std::ops::ControlFlow;

use sqlparser::ast::{
    BinaryOperator, Expr, LimitClause, Offset, OffsetRows, Query, Select, SetExpr, Statement,
    TopQuantity, VisitMut, VisitorMut,
};

use super::calls::{int, logic, nested};
use super::{untranslated, Rule};
use crate::parse::dialect::Dialect;

/// See the module documentation.
pub struct Limits;

/// `select`'s WHERE with `marker` (an untranslated construct) in front: the planner refuses the
/// query with the construct's name.
fn mark(select: &mut Select, marker: Expr) {
    select.selection = Some(match select.selection.take() {
        None => marker,
        Some(w) => logic(marker, BinaryOperator::And, nested(w)),
    });
}

struct Rewrite(Dialect);

impl Rewrite {
    /// The row limit `query`'s TOP or FETCH asks for, Err with an untranslated marker for one
    /// without a translation, None where there is none.
    fn requested(&self, q: &mut Query) -> Option<Result<Expr, Expr>> {
        if let SetExpr::Select(select) = q.body.as_mut() {
            if let Some(top) = select.top.take() {
                let count = match top.quantity {
                    Some(TopQuantity::Constant(n)) => int(n as i64),
                    Some(TopQuantity::Expr(e)) => e,
                    None => int(1),
                };
                if top.percent || top.with_ties {
                    return Some(Err(untranslated(
                        "TOP PERCENT or WITH TIES",
                        self.0,
                        vec![count],
                    )));
                }
                return Some(Ok(count));
            }
        }
        let fetch = q.fetch.take()?;
        let count = fetch.quantity.unwrap_or_else(|| int(1));
        if fetch.percent || fetch.with_ties {
            return Some(Err(untranslated(
                "FETCH PERCENT or WITH TIES",
                self.0,
                vec![count],
            )));
        }
        Some(Ok(count))
    }
}

impl VisitorMut for Rewrite {
    type Break = ();

    fn pre_visit_query(&mut self, q: &mut Query) -> ControlFlow<()> {
        let requested = self.requested(q);
        let (mut limit, offset) = match q.limit_clause.take() {
            None => (None, None),
            Some(LimitClause::OffsetCommaLimit { offset, limit }) => (Some(limit), Some(offset)),
            Some(LimitClause::LimitOffset {
                limit,
                offset,
                limit_by,
            }) if limit_by.is_empty() => (limit, offset.map(|o| o.value)),
            Some(other) => {
                q.limit_clause = Some(other);
                return ControlFlow::Continue(());
            }
        };
        match requested {
            // a TOP or FETCH beside a LIMIT is an error in every dialect: the LIMIT stays
            Some(Ok(count)) => limit = limit.or(Some(count)),
            Some(Err(marker)) => match q.body.as_mut() {
                SetExpr::Select(select) => mark(select, marker),
                _ => limit = Some(marker),
            },
            None => {}
        }
        if limit.is_none() && offset.is_some() {
            limit = Some(int(-1));
        }
        if limit.is_some() || offset.is_some() {
            q.limit_clause = Some(LimitClause::LimitOffset {
                limit,
                offset: offset.map(|value| Offset {
                    value,
                    rows: OffsetRows::None,
                }),
                limit_by: vec![],
            });
        }
        ControlFlow::Continue(())
    }
}

impl Rule for Limits {
    fn name(&self) -> &'static str {
        "limits"
    }

    fn applies_to(&self, dialect: Dialect) -> bool {
        dialect != Dialect::Sqlite
    }

    fn apply(&self, statement: &mut Statement, dialect: Dialect) {
        let _ = statement.visit(&mut Rewrite(dialect));
    }
}
