//! Symbolic joins (inner, outer, semi, anti): which candidate pairs match, the join's coverage branches, and its output rows.

use z3::ast::Bool;

use super::execute::{any, Executor, MAX_REL_ROWS};
use super::values::{SymRel, SymRow, SymVal};
use crate::parseval::SearchError;
use crate::plan::{ColumnId, Join, JoinKind};

/// Which candidate rows of a join match, per pair and per row of either side.
struct Matches {
    /// `pairs[l][r]`: both rows exist and the condition holds.
    pairs: Vec<Vec<Bool>>,
    /// Per left row: some existing right row for which the condition is FALSE (not NULL).
    refused: Vec<Bool>,
    /// Per left row: it matches some right row.
    left: Vec<Bool>,
    /// Per left row: it exists and matches nothing.
    left_alone: Vec<Bool>,
    /// Per right row: it exists and matches nothing.
    right_alone: Vec<Bool>,
}

impl Executor<'_> {
    pub(super) fn join(
        &mut self,
        op: usize,
        j: &Join,
        outer: &[(u32, SymVal)],
    ) -> Result<SymRel, SearchError> {
        let left = self.run(&j.left, outer)?;
        let right = self.run(&j.right, outer)?;
        self.step(left.rows.len() * right.rows.len())?;
        if left.rows.len() * right.rows.len() > MAX_REL_ROWS * 4 {
            return Err(SearchError::TooLarge(format!(
                "join of {} by {} candidate rows",
                left.rows.len(),
                right.rows.len()
            )));
        }
        let mut cols = left.cols.clone();
        cols.extend(&right.cols);
        let m = self.matches(j, &left, &right, &cols, outer);
        self.join_branches(op, j.kind, &m);
        Ok(join_rows(j.kind, left, right, cols, &m))
    }

    /// The join condition over every pair of candidate rows (`cols` is left then right).
    fn matches(
        &mut self,
        j: &Join,
        left: &SymRel,
        right: &SymRel,
        cols: &[ColumnId],
        outer: &[(u32, SymVal)],
    ) -> Matches {
        let mut m: Vec<Vec<Bool>> = Vec::with_capacity(left.rows.len());
        let mut refused: Vec<Bool> = Vec::with_capacity(left.rows.len());
        for l in &left.rows {
            let mut line = Vec::with_capacity(right.rows.len());
            let mut no = Vec::new();
            for r in &right.rows {
                let mut vals = l.vals.clone();
                vals.extend(r.vals.iter().cloned());
                let env = self.env(cols, &vals, outer);
                let t = self.truth(&j.condition, &env);
                if !j.kind.outputs_right() {
                    no.push(Bool::and(&[l.exists.clone(), r.exists.clone(), t.f]));
                }
                line.push(Bool::and(&[l.exists.clone(), r.exists.clone(), t.t]));
            }
            m.push(line);
            refused.push(any(no));
        }
        let matched_left: Vec<Bool> = m.iter().map(|line| any(line.clone())).collect();
        let matched_right: Vec<Bool> = (0..right.rows.len())
            .map(|r| any(m.iter().map(|line| line[r].clone()).collect()))
            .collect();
        let left_alone: Vec<Bool> = left
            .rows
            .iter()
            .zip(&matched_left)
            .map(|(l, ml)| Bool::and(&[l.exists.clone(), ml.not()]))
            .collect();
        let right_alone: Vec<Bool> = right
            .rows
            .iter()
            .zip(&matched_right)
            .map(|(r, mr)| Bool::and(&[r.exists.clone(), mr.not()]))
            .collect();
        Matches {
            pairs: m,
            refused,
            left: matched_left,
            left_alone,
            right_alone,
        }
    }

    /// Some pair matches; a left row matches nothing; for SEMI/ANTI, a left row is unmatched
    /// although the right side is not empty; for RIGHT/FULL, a right row matches nothing.
    fn join_branches(&mut self, op: usize, kind: JoinKind, m: &Matches) {
        let name = kind.name();
        self.branch(
            format!("Join#{op} {name} some pair matches"),
            true,
            any(m.left.clone()),
        );
        self.branch(
            format!("Join#{op} {name} a left row matches nothing"),
            false,
            any(m.left_alone.clone()),
        );
        if matches!(kind, JoinKind::Semi | JoinKind::Anti) {
            // unmatched although a right row is definitely different: an empty right input,
            // or one with only NULL keys, matches nothing too
            let cond = any(m
                .left_alone
                .iter()
                .zip(&m.refused)
                .map(|(a, r)| Bool::and(&[a.clone(), r.clone()]))
                .collect());
            self.branch(
                format!("Join#{op} {name} unmatched, right not empty"),
                false,
                cond,
            );
        }
        if kind.outputs_right() {
            self.branch(
                format!("Join#{op} {name} a right row matches nothing"),
                false,
                any(m.right_alone.clone()),
            );
        }
    }
}

/// The join's candidate output rows: left rows kept or dropped for SEMI/ANTI; otherwise every
/// pair, then unmatched rows padded with NULLs on the outer sides.
fn join_rows(
    kind: JoinKind,
    left: SymRel,
    right: SymRel,
    cols: Vec<ColumnId>,
    m: &Matches,
) -> SymRel {
    let null_row = |n: usize| vec![SymVal::null(); n];
    let mut rows = Vec::new();
    if matches!(kind, JoinKind::Semi | JoinKind::Anti) {
        for ((l, ml), alone) in left.rows.iter().zip(&m.left).zip(&m.left_alone) {
            let exists = if kind == JoinKind::Semi {
                ml.clone()
            } else {
                alone.clone()
            };
            rows.push(SymRow {
                exists,
                vals: l.vals.clone(),
            });
        }
        return SymRel {
            cols: left.cols,
            rows,
        };
    }
    for (li, l) in left.rows.iter().enumerate() {
        for (ri, r) in right.rows.iter().enumerate() {
            let mut vals = l.vals.clone();
            vals.extend(r.vals.iter().cloned());
            rows.push(SymRow {
                exists: m.pairs[li][ri].clone(),
                vals,
            });
        }
    }
    if matches!(kind, JoinKind::Left | JoinKind::Full) {
        for (l, alone) in left.rows.iter().zip(&m.left_alone) {
            let mut vals = l.vals.clone();
            vals.extend(null_row(right.cols.len()));
            rows.push(SymRow {
                exists: alone.clone(),
                vals,
            });
        }
    }
    if matches!(kind, JoinKind::Right | JoinKind::Full) {
        for (r, alone) in right.rows.iter().zip(&m.right_alone) {
            let mut vals = null_row(left.cols.len());
            vals.extend(r.vals.iter().cloned());
            rows.push(SymRow {
                exists: alone.clone(),
                vals,
            });
        }
    }
    SymRel { cols, rows }
}
