//! Pass `double_quoted_strings`: a double-quoted token in value position that names nothing in the
//! query is a string literal, as SQLite reads it.
//!
//! ```sql
//! -- before
//! SELECT "name" FROM singer WHERE country = "France" AND "name" LIKE "%a%"
//! -- after
//! SELECT "name" FROM singer WHERE country = 'France' AND "name" LIKE '%a%'
//! ```
//!
//! Value positions: the right side of a comparison (the left side instead when the right side is
//! a column), LIKE patterns, IN-list items and BETWEEN bounds. A token counts as a name when it
//! matches (case-insensitively) a table, alias or column written anywhere else in the statement:
//! unquoted, backticked, qualified, or double-quoted outside a value position.

use super::{key, Pass};
use sqlparser::ast::{
    visit_expressions, visit_expressions_mut, BinaryOperator, Expr, Ident, ObjectName, Select,
    SelectItem, Statement, TableFactor, Value, Visit, Visitor,
};
use std::collections::{HashMap, HashSet};
use std::ops::ControlFlow;

/// See the module documentation.
pub struct DoubleQuotedStrings;

fn dq(expr: &Expr) -> Option<&Ident> {
    match expr {
        Expr::Identifier(id) if id.quote_style == Some('"') => Some(id),
        _ => None,
    }
}

fn is_comparison(op: &BinaryOperator) -> bool {
    use BinaryOperator::*;
    matches!(op, Eq | NotEq | Lt | LtEq | Gt | GtEq)
}

/// Where a value-position operand sits inside its parent expression.
#[derive(Clone, Copy)]
enum Slot {
    Left,
    Right,
    Pattern,
    Item(usize),
    Low,
    High,
}

/// The slots of `expr` that hold operands in value position.
fn value_slots(expr: &Expr) -> Vec<Slot> {
    match expr {
        Expr::BinaryOp { op, right, .. } if is_comparison(op) => {
            let right_is_column = matches!(**right, Expr::CompoundIdentifier(_))
                || matches!(&**right, Expr::Identifier(id) if id.quote_style != Some('"'));
            vec![if right_is_column {
                Slot::Left
            } else {
                Slot::Right
            }]
        }
        Expr::Like { .. } | Expr::ILike { .. } => vec![Slot::Pattern],
        Expr::InList { list, .. } => (0..list.len()).map(Slot::Item).collect(),
        Expr::Between { .. } => vec![Slot::Low, Slot::High],
        _ => Vec::new(),
    }
}

fn slot_ref(expr: &Expr, slot: Slot) -> Option<&Expr> {
    match (expr, slot) {
        (Expr::BinaryOp { left, .. }, Slot::Left) => Some(left),
        (Expr::BinaryOp { right, .. }, Slot::Right) => Some(right),
        (Expr::Like { pattern, .. } | Expr::ILike { pattern, .. }, Slot::Pattern) => Some(pattern),
        (Expr::InList { list, .. }, Slot::Item(i)) => list.get(i),
        (Expr::Between { low, .. }, Slot::Low) => Some(low),
        (Expr::Between { high, .. }, Slot::High) => Some(high),
        _ => None,
    }
}

fn slot_mut(expr: &mut Expr, slot: Slot) -> Option<&mut Expr> {
    match (expr, slot) {
        (Expr::BinaryOp { left, .. }, Slot::Left) => Some(left),
        (Expr::BinaryOp { right, .. }, Slot::Right) => Some(right),
        (Expr::Like { pattern, .. } | Expr::ILike { pattern, .. }, Slot::Pattern) => Some(pattern),
        (Expr::InList { list, .. }, Slot::Item(i)) => list.get_mut(i),
        (Expr::Between { low, .. }, Slot::Low) => Some(low),
        (Expr::Between { high, .. }, Slot::High) => Some(high),
        _ => None,
    }
}

/// Names written in the statement outside value positions, and how often each double-quoted
/// identifier occurs in total.
#[derive(Default)]
struct Names {
    names: HashSet<String>,
    dq_total: HashMap<String, usize>,
}

impl Visitor for Names {
    type Break = ();
    fn pre_visit_relation(&mut self, r: &ObjectName) -> ControlFlow<()> {
        for part in &r.0 {
            if let Some(id) = part.as_ident() {
                self.names.insert(key(&id.value));
            }
        }
        ControlFlow::Continue(())
    }
    fn pre_visit_table_factor(&mut self, t: &TableFactor) -> ControlFlow<()> {
        if let TableFactor::Table { alias: Some(a), .. }
        | TableFactor::Derived { alias: Some(a), .. } = t
        {
            self.names.insert(key(&a.name.value));
        }
        ControlFlow::Continue(())
    }
    fn pre_visit_select(&mut self, s: &Select) -> ControlFlow<()> {
        for item in &s.projection {
            if let SelectItem::ExprWithAlias { alias, .. } = item {
                self.names.insert(key(&alias.value));
            }
        }
        ControlFlow::Continue(())
    }
    fn pre_visit_expr(&mut self, e: &Expr) -> ControlFlow<()> {
        match e {
            Expr::Identifier(id) if id.quote_style == Some('"') => {
                *self.dq_total.entry(key(&id.value)).or_default() += 1;
            }
            Expr::Identifier(id) => {
                self.names.insert(key(&id.value));
            }
            Expr::CompoundIdentifier(ids) => {
                self.names.extend(ids.iter().map(|i| key(&i.value)));
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }
}

impl Pass for DoubleQuotedStrings {
    fn name(&self) -> &'static str {
        "double_quoted_strings"
    }
    fn apply(&self, mut statement: Statement) -> Statement {
        // Most queries have no double-quoted token in a value position: skip the name census.
        let candidate = visit_expressions(&statement, |e| {
            let found = value_slots(e)
                .into_iter()
                .any(|slot| slot_ref(e, slot).and_then(dq).is_some());
            if found {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        if candidate.is_continue() {
            return statement;
        }
        let mut names = Names::default();
        let _ = statement.visit(&mut names);
        // Count value-position occurrences; a double-quoted token seen more often than that also
        // appears as a column somewhere (e.g. in the select list), so it is a name.
        let mut in_value: HashMap<String, usize> = HashMap::new();
        let _ = visit_expressions(&statement, |e| {
            for slot in value_slots(e) {
                if let Some(id) = slot_ref(e, slot).and_then(dq) {
                    *in_value.entry(key(&id.value)).or_default() += 1;
                }
            }
            ControlFlow::<()>::Continue(())
        });
        let is_string = |k: &str| {
            !names.names.contains(k)
                && names.dq_total.get(k).copied().unwrap_or(0)
                    <= in_value.get(k).copied().unwrap_or(0)
        };
        let _ = visit_expressions_mut(&mut statement, |e| {
            for slot in value_slots(e) {
                if let Some(operand) = slot_mut(e, slot) {
                    let text = match dq(operand) {
                        Some(id) if is_string(&key(&id.value)) => id.value.clone(),
                        _ => continue,
                    };
                    *operand = Expr::value(Value::SingleQuotedString(text));
                }
            }
            ControlFlow::<()>::Continue(())
        });
        statement
    }
}
