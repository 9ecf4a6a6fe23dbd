//! Rule `set_operations_all`: `INTERSECT ALL` and `EXCEPT ALL`, which SQLite lacks, as the
//! set operations SQLite has over rows numbered within their duplicates.
//!
//! ```sql
//! -- before (ansi, postgres, duckdb, ...)
//! SELECT a, b FROM t INTERSECT ALL SELECT x, y FROM s
//! -- after
//! SELECT `a`, `b` FROM (
//!   SELECT `a`, `b`, ROW_NUMBER() OVER (PARTITION BY `a`, `b`) AS `_n` FROM (SELECT a, b FROM t) AS `_l`
//!   INTERSECT
//!   SELECT `x`, `y`, ROW_NUMBER() OVER (PARTITION BY `x`, `y`) AS `_n` FROM (SELECT x, y FROM s) AS `_r`
//! ) AS `_s`
//! ```
//!
//! A row that occurs m times on the left and n times on the right occurs min(m, n) times in
//! `INTERSECT ALL` and max(m - n, 0) times in `EXCEPT ALL`: numbering each copy 1, 2, ... within
//! its duplicates (NULLs equal, as set operations compare) makes the copies distinct, and the
//! set operation keeps copies 1..min(m, n), or n+1..m. The outer SELECT drops the number and
//! keeps the left side's column names. The columns are named, so each side's names must be
//! known and distinct (an alias or a column per item, as Calcite prints them); a side with `*`
//! or an unnamed expression has no translation.

use std::ops::ControlFlow;

use sqlparser::ast::{Query, SetExpr, SetOperator, SetQuantifier, Statement, VisitMut, VisitorMut};

use super::outputs::{derived_tables, name_list, output_names, put, template};
use super::Rule;
use crate::parse::dialect::Dialect;

/// See the module documentation.
pub struct SetOperationsAll;

/// The rewrite of `left op ALL right`, or None without known column names.
fn numbered(op: &SetOperator, left: &SetExpr, right: &SetExpr) -> Option<SetExpr> {
    let (l, r) = (output_names(left)?, output_names(right)?);
    if l.len() != r.len() {
        return None;
    }
    let (l, r) = (name_list(&l), name_list(&r));
    let mut outer = template(&format!(
        "SELECT {l} FROM (SELECT {l}, ROW_NUMBER() OVER (PARTITION BY {l}) AS `_n` \
         FROM (SELECT 1) AS `_l` {op} \
         SELECT {r}, ROW_NUMBER() OVER (PARTITION BY {r}) AS `_n` FROM (SELECT 1) AS `_r`) AS `_s`"
    ))?;
    let compound = derived_tables(&mut outer.body).into_iter().next()?;
    let mut sides = derived_tables(&mut compound.body).into_iter();
    put(sides.next()?, left.clone());
    put(sides.next()?, right.clone());
    Some(*outer.body)
}

/// `body` with every `INTERSECT ALL` and `EXCEPT ALL` in it rewritten, innermost first.
fn rewrite(body: &mut SetExpr, dialect: Dialect) {
    let SetExpr::SetOperation {
        op,
        set_quantifier,
        left,
        right,
    } = body
    else {
        return;
    };
    rewrite(left, dialect);
    rewrite(right, dialect);
    if !matches!(op, SetOperator::Intersect | SetOperator::Except)
        || *set_quantifier != SetQuantifier::All
    {
        return;
    }
    let construct = format!("{op} ALL");
    *body = match numbered(op, left, right) {
        Some(new) => new,
        None => match template(&format!(
            "SELECT sqlsim_untranslated('{construct} of unnamed columns in {}')",
            dialect.name()
        )) {
            Some(q) => *q.body,
            None => return,
        },
    };
}

struct Rewrite(Dialect);

impl VisitorMut for Rewrite {
    type Break = ();

    fn post_visit_query(&mut self, q: &mut Query) -> ControlFlow<()> {
        rewrite(&mut q.body, self.0);
        ControlFlow::Continue(())
    }
}

impl Rule for SetOperationsAll {
    fn name(&self) -> &'static str {
        "set_operations_all"
    }

    fn applies_to(&self, dialect: Dialect) -> bool {
        dialect != Dialect::Sqlite
    }

    fn apply(&self, statement: &mut Statement, dialect: Dialect) {
        let _ = statement.visit(&mut Rewrite(dialect));
    }
}
