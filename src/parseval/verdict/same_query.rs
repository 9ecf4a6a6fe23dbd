//! Whether a prediction is the gold query itself: both texts, read as SQLite, print as the same statements once what SQLite reads alike is spelled alike.

use std::ops::ControlFlow;

use sqlparser::ast::{
    Expr, ObjectNamePart, OrderByExpr, OrderBySort, TableFactor, VisitMut, VisitorMut,
};

/// Whether `pred` is the gold query itself: both texts read as SQLite (the prediction through its
/// dialect's translation) print as the same statements. Spelling may differ where SQLite reads it
/// alike ([`Spelling`]; spaces and comments too); names and literals may not.
pub(super) fn same_query(gold: &str, pred: &str) -> bool {
    let printed = |sql: &str| -> Option<Vec<String>> {
        let mut statements = crate::parse::parse_sql(sql).ok()?;
        for statement in &mut statements {
            let _ = statement.visit(&mut Spelling);
        }
        Some(statements.iter().map(ToString::to_string).collect())
    };
    matches!((printed(gold), printed(pred)), (Some(g), Some(p)) if g == p)
}

/// One spelling for what SQLite reads alike: unquoted function names in lower case (SQLite reads
/// them without case), a table alias without `AS`, and a sort key without `ASC` and without the
/// NULLS placement that SQLite gives its direction anyway (NULLs sort first ascending, last
/// descending), the placement a translation from another engine spells out.
struct Spelling;

impl VisitorMut for Spelling {
    type Break = ();

    fn pre_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        if let Expr::Function(f) = e {
            for part in &mut f.name.0 {
                if let ObjectNamePart::Identifier(id) = part {
                    if id.quote_style.is_none() {
                        id.value.make_ascii_lowercase();
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn pre_visit_table_factor(&mut self, table: &mut TableFactor) -> ControlFlow<()> {
        if let Some(alias) = crate::parse::table_alias(table) {
            alias.explicit = false;
        }
        ControlFlow::Continue(())
    }

    fn pre_visit_order_by_expr(&mut self, key: &mut OrderByExpr) -> ControlFlow<()> {
        let descending = match key.options.sort {
            Some(OrderBySort::Desc) => true,
            Some(OrderBySort::Asc) | None => false,
            Some(OrderBySort::Using(_)) => return ControlFlow::Continue(()),
        };
        if !descending {
            key.options.sort = None;
        }
        if key.options.nulls_first == Some(!descending) {
            key.options.nulls_first = None;
        }
        ControlFlow::Continue(())
    }
}

#[cfg(test)]
mod tests {
    use super::same_query;

    #[test]
    fn spellings_sqlite_reads_alike_are_the_same_query() {
        let same = [
            (
                "SELECT s.a FROM t AS s JOIN u AS v ON s.id = v.id",
                "select s.a from t s join u v on s.id = v.id;",
            ),
            (
                "SELECT a FROM t ORDER BY a DESC NULLS LAST, b ASC NULLS FIRST, c ASC",
                "SELECT a FROM t ORDER BY a DESC, b, c",
            ),
            (
                "SELECT COUNT(x) FROM (SELECT a AS x FROM t) AS d",
                "SELECT count(x) FROM (SELECT a AS x FROM t) d",
            ),
        ];
        for (gold, pred) in same {
            assert!(same_query(gold, pred), "{gold} / {pred}");
        }
    }

    #[test]
    fn what_sqlite_reads_otherwise_is_another_query() {
        let other = [
            // NULLs placed against SQLite's default, another alias, another quoted function
            (
                "SELECT a FROM t ORDER BY a DESC NULLS FIRST",
                "SELECT a FROM t ORDER BY a DESC",
            ),
            (
                "SELECT a FROM t ORDER BY a NULLS LAST",
                "SELECT a FROM t ORDER BY a",
            ),
            ("SELECT s.a FROM t AS s", "SELECT s.a FROM t AS r"),
            ("SELECT \"F\"(a) FROM t", "SELECT \"f\"(a) FROM t"),
            (
                "SELECT a FROM t ORDER BY a",
                "SELECT a FROM t ORDER BY a DESC",
            ),
        ];
        for (gold, pred) in other {
            assert!(!same_query(gold, pred), "{gold} / {pred}");
        }
    }
}
