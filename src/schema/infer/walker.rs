//! Column references in one clause of a query, for [`super`]: identifiers become columns through
//! the inferer's scopes, nested queries are handed back to it as queries of their own, and
//! double-quoted names in value position are skipped as strings.

use std::collections::HashSet;
use std::ops::ControlFlow;

use sqlparser::ast::{BinaryOperator, Expr, Query, Visitor};

use super::Inferer;

/// Finds column references in one clause; nested queries are walked as queries of their own.
pub(super) struct Walker<'a> {
    inf: &'a mut Inferer,
    /// How many nested queries the visitor is inside (their expressions belong to their own walk).
    depth: usize,
    /// Whether SELECT-list aliases shadow names (GROUP BY, HAVING, ORDER BY).
    aliases: bool,
    /// Double-quoted identifiers in value position: strings, not columns.
    strings: HashSet<*const Expr>,
}

impl<'a> Walker<'a> {
    pub(super) fn new(inf: &'a mut Inferer, aliases: bool) -> Walker<'a> {
        Walker {
            inf,
            depth: 0,
            aliases,
            strings: HashSet::new(),
        }
    }
}

fn double_quoted(e: &Expr) -> bool {
    matches!(e, Expr::Identifier(id) if id.quote_style == Some('"'))
}

fn is_column(e: &Expr) -> bool {
    matches!(e, Expr::CompoundIdentifier(_))
        || matches!(e, Expr::Identifier(_)) && !double_quoted(e)
}

/// Operands of `e` in value position (see the module documentation).
fn value_operands(e: &Expr) -> Vec<&Expr> {
    use BinaryOperator::*;
    match e {
        Expr::BinaryOp {
            left,
            op: Eq | NotEq | Lt | LtEq | Gt | GtEq,
            right,
        } => {
            if is_column(right) {
                vec![left]
            } else {
                vec![right]
            }
        }
        Expr::Like { pattern, .. } | Expr::ILike { pattern, .. } => vec![pattern],
        Expr::InList { list, .. } => list.iter().collect(),
        Expr::Between { low, high, .. } => vec![low, high],
        _ => Vec::new(),
    }
}

impl Visitor for Walker<'_> {
    type Break = ();

    fn pre_visit_query(&mut self, q: &Query) -> ControlFlow<()> {
        if self.depth == 0 {
            self.inf.query(q);
        }
        self.depth += 1;
        ControlFlow::Continue(())
    }

    fn post_visit_query(&mut self, _q: &Query) -> ControlFlow<()> {
        self.depth = self.depth.saturating_sub(1);
        ControlFlow::Continue(())
    }

    fn pre_visit_expr(&mut self, e: &Expr) -> ControlFlow<()> {
        if self.depth > 0 {
            return ControlFlow::Continue(());
        }
        for operand in value_operands(e) {
            if double_quoted(operand) {
                self.strings.insert(operand as *const Expr);
            }
        }
        match e {
            Expr::Identifier(id) if !self.strings.contains(&(e as *const Expr)) => {
                self.inf.unqualified(id, self.aliases)
            }
            Expr::CompoundIdentifier(ids) if ids.len() >= 2 => {
                self.inf.qualified(&ids[ids.len() - 2], &ids[ids.len() - 1])
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn operands(sql: &str) -> Vec<String> {
        let statements = crate::parse::parse_sql(&format!("SELECT 1 WHERE {sql}")).unwrap();
        let mut found = Vec::new();
        let _ = sqlparser::ast::visit_expressions(&statements, |e| {
            if found.is_empty() {
                found = value_operands(e).iter().map(|o| o.to_string()).collect();
            }
            ControlFlow::<()>::Continue(())
        });
        found
    }

    #[test]
    fn value_positions() {
        assert_eq!(operands("a = \"x\""), ["\"x\""]);
        assert_eq!(operands("\"x\" = a"), ["\"x\""]);
        assert_eq!(operands("a LIKE \"%x\""), ["\"%x\""]);
        assert_eq!(operands("a IN (\"x\", 1)"), ["\"x\"", "1"]);
        assert_eq!(operands("a BETWEEN 1 AND \"b\""), ["1", "\"b\""]);
        assert!(operands("a + \"x\" > 0").iter().all(|o| o != "\"x\""));
    }
}
