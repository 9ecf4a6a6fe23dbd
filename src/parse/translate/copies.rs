//! The copy budget of a translation: a rule that writes one of its arguments more than once
//! (a month added as `CASE WHEN strftime('%d', x, ..) = strftime('%d', x) THEN .. x .. ELSE
//! .. x .. END`) takes each extra copy through [`copy`], which counts the syntax tree nodes
//! copied against a budget proportional to the query's own size. Nested, such rules multiply
//! their copies (a chain of `+ INTERVAL '1 day'` in standard SQL doubled its text at every
//! term); once the budget is spent a copy is the literal NULL, so the rules finish in time and
//! memory linear in the budget, and [`translate`](super::translate) reports the translation as
//! over its size bound. Work is counted, never time: the same query gives the same outcome on
//! every machine.

use std::cell::Cell;
use std::ops::ControlFlow;

use sqlparser::ast::{Expr, Statement, Value, Visit, Visitor};

/// Nodes a translation may copy per node of the query it translates.
pub(crate) const COPIES_PER_NODE: usize = 16;
/// Nodes every translation may copy, however small its query.
pub(crate) const COPIES_SLACK: usize = 4_096;

thread_local! {
    /// Nodes the translation running on this thread may still copy (None: no translation runs,
    /// as in a rule's unit test, and copies are free).
    static LEFT: Cell<Option<usize>> = const { Cell::new(None) };
    /// Whether a copy was refused since the translation began.
    static SPENT: Cell<bool> = const { Cell::new(false) };
}

/// Counts expression nodes up to a limit.
struct Counter {
    nodes: usize,
    limit: usize,
}

impl Visitor for Counter {
    type Break = ();

    fn pre_visit_expr(&mut self, _: &Expr) -> ControlFlow<()> {
        self.nodes += 1;
        if self.nodes > self.limit {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }
}

/// The expression nodes of `statements` (the size the budget is proportional to).
pub(crate) fn nodes(statements: &[Statement]) -> usize {
    let mut counter = Counter {
        nodes: 0,
        limit: usize::MAX,
    };
    for s in statements {
        let _ = s.visit(&mut counter);
    }
    counter.nodes
}

/// A copy of `e` for a rule that writes it once more, counted against the budget of the
/// translation running on this thread; the literal NULL once the budget is spent.
pub(crate) fn copy(e: &Expr) -> Expr {
    let Some(left) = LEFT.with(Cell::get) else {
        return e.clone();
    };
    let mut counter = Counter {
        nodes: 0,
        limit: left,
    };
    let _ = e.visit(&mut counter);
    if counter.nodes > left {
        LEFT.with(|l| l.set(Some(0)));
        SPENT.with(|s| s.set(true));
        return Expr::value(Value::Null);
    }
    LEFT.with(|l| l.set(Some(left - counter.nodes)));
    e.clone()
}

/// Runs `work` with a budget of `budget` copied nodes on this thread; true with its result when
/// a copy was refused.
pub(crate) fn within<T>(budget: usize, work: impl FnOnce() -> T) -> (T, bool) {
    let outer = (LEFT.with(Cell::get), SPENT.with(Cell::get));
    LEFT.with(|l| l.set(Some(budget)));
    SPENT.with(|s| s.set(false));
    let result = work();
    let spent = SPENT.with(Cell::get);
    LEFT.with(|l| l.set(outer.0));
    SPENT.with(|s| s.set(outer.1));
    (result, spent)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn column() -> Expr {
        Expr::Identifier(sqlparser::ast::Ident::new("x"))
    }

    #[test]
    fn copies_are_free_outside_a_translation_and_counted_inside() {
        assert_eq!(copy(&column()), column());
        let (copies, spent) = within(2, || (copy(&column()), copy(&column()), copy(&column())));
        assert!(spent);
        assert_eq!(copies.0, column());
        assert_eq!(copies.1, column());
        assert_eq!(copies.2, Expr::value(Value::Null));
        let ((), spent) = within(5, || {
            copy(&column());
        });
        assert!(!spent);
        // the budget ends with the translation
        assert_eq!(copy(&column()), column());
    }

    fn translation(sql: &str, dialect: crate::parse::dialect::Dialect) -> String {
        let statements = crate::parse::parse_in(dialect, sql).unwrap();
        super::super::print(&super::super::translate(statements, dialect))
    }

    #[test]
    fn an_interval_chain_grows_within_the_budget() {
        use crate::parse::dialect::Dialect;
        // standard SQL writes `d` twice per term (its type decides the result's): the text
        // doubled at every term, 5 MB for 16 terms, and a few hundred terms held gigabytes
        let chain = vec!["INTERVAL '1 day'"; 16].join(" + ");
        let sql = format!("SELECT d + {chain} FROM t");
        let text = translation(&sql, Dialect::Ansi);
        assert!(text.len() < 1 << 20, "{} bytes", text.len());
        let err =
            crate::parse::translate::sqlite_text(&crate::parse::dialect::tag(&sql, Dialect::Ansi))
                .unwrap_err();
        assert!(err.to_string().contains("times its size"), "{err}");
        // a short chain is whole
        let two = "SELECT d + INTERVAL '1' MONTH + INTERVAL '1' MONTH FROM t";
        let text = translation(two, Dialect::Snowflake);
        assert!(!text.contains("NULL"), "{text}");
    }

    #[test]
    fn nested_calls_that_write_an_argument_twice_stay_within_the_budget() {
        use crate::parse::dialect::Dialect;
        fn nest(depth: usize, wrap: impl Fn(&str) -> String) -> String {
            (0..depth).fold("x".to_string(), |inner, _| wrap(&inner))
        }
        // each call writes its argument several times: the text multiplied at every level
        let cases = [
            (
                Dialect::Mysql,
                nest(5, |x| format!("DATE_FORMAT({x}, '%a %b %e %l %p %U')")),
            ),
            (
                Dialect::Mysql,
                nest(8, |x| format!("TIMESTAMPDIFF(MONTH, d, {x})")),
            ),
            (Dialect::Postgres, nest(18, |x| format!("LEFT({x}, n)"))),
            (
                Dialect::Bigquery,
                nest(14, |x| format!("EXTRACT(WEEK FROM {x})")),
            ),
        ];
        for (dialect, call) in cases {
            let sql = format!("SELECT {call} FROM t");
            let text = translation(&sql, dialect);
            assert!(text.len() < 1 << 20, "{dialect:?}: {} bytes", text.len());
            let tagged = crate::parse::dialect::tag(&sql, dialect);
            let err = crate::parse::translate::sqlite_text(&tagged).unwrap_err();
            assert!(err.to_string().contains("times its size"), "{err}");
        }
    }
}
