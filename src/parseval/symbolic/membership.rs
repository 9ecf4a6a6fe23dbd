//! The IN-subquery branch a plain false branch misses: a row whose value is missing from a
//! subquery result that has rows.

use z3::ast::Bool;

use super::execute::{any, Executor};
use super::values::{SymRel, SymVal};
use crate::plan::Expr;

impl Executor<'_> {
    /// For an `IN (subquery)` atom: a row whose value is missing from a subquery result that
    /// has rows. The plain false branch is met by an empty subquery, on which `IN` and an
    /// `EXISTS` that lost its correlation (`S.y = y` binding `y` to `S`) agree.
    pub(super) fn missing_from_subquery(
        &mut self,
        op: usize,
        k: usize,
        atom: &Expr,
        input: &SymRel,
        outer: &[(u32, SymVal)],
    ) {
        let Expr::Subquery(s) = atom else {
            return;
        };
        if self.quiet > 0 || s.kind != crate::plan::SubqueryKind::In {
            return;
        }
        let mut hits = Vec::new();
        for row in &input.rows {
            let env = self.env(&input.cols, &row.vals, outer);
            let truth = self.truth(atom, &env);
            self.quiet += 1;
            let rel = self.run(&s.plan, &env);
            self.quiet -= 1;
            let Ok(rel) = rel else {
                return;
            };
            // a subquery row whose values are not NULL (a NULL makes IN unknown, not false)
            let width = s.operands.len().max(1);
            let nonempty = any(rel
                .rows
                .iter()
                .filter(|r| r.vals.len() >= width)
                .map(|r| {
                    let mut known = vec![r.exists.clone()];
                    known.extend(r.vals[..width].iter().map(|v| v.null.not()));
                    Bool::and(&known)
                })
                .collect());
            hits.push(Bool::and(&[row.exists.clone(), truth.f, nonempty]));
        }
        self.branch(
            format!("Filter#{op} term {k} false against a non-empty subquery"),
            false,
            any(hits),
        );
    }
}
