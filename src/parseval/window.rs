//! The symbolic Window operator: its rows are its input's, its calls' values are not modelled, and its coverage branches ask for the rows that make window calls differ.

use z3::ast::{Bool, Int};

use super::aggregate::count;
use super::execute::{any, Executor};
use super::symbolic::{same_value, SymRel, SymVal};
use super::SearchError;
use crate::plan::{Expr, Window};

/// Most candidate rows for which the branch over three rows (a tie and another row) is built.
const MAX_TRIPLE_ROWS: usize = 12;
/// Most candidate rows for which the branches over pairs of rows are built (they grow with the
/// square of the rows, per call).
const MAX_PAIR_ROWS: usize = 64;
/// Most calls of one Window that get their own branches (calls with the same partition and
/// order keys share them).
const MAX_BRANCHED_CALLS: usize = 8;

impl Executor<'_> {
    /// A Window's rows are its input's; the generator does not model the calls' values (each is
    /// an unconstrained value, NULL only where the function can return NULL). It asks for
    /// several input rows, without which every window is trivial, and per call for two rows in
    /// one partition and two in different ones, and for a tie on the order keys (where `rank`
    /// and `row_number` part).
    pub(super) fn window(
        &mut self,
        op: usize,
        w: &Window,
        outer: &[(u32, SymVal)],
    ) -> Result<SymRel, SearchError> {
        let mut input = self.run(&w.input, outer)?;
        if input.rows.len() > 1 {
            let exists: Vec<Bool> = input.rows.iter().map(|r| r.exists.clone()).collect();
            let several = count(&exists).ge(Int::from_i64(2));
            self.branch(format!("Window#{op} several rows"), true, several);
            let mut specs: Vec<(&[Expr], Vec<&Expr>)> = Vec::new();
            for (i, call) in w.calls.iter().enumerate() {
                let spec = (
                    &call.partition[..],
                    call.order.iter().map(|o| &o.expr).collect(),
                );
                if self.quiet > 0
                    || input.rows.len() > MAX_PAIR_ROWS
                    || specs.len() >= MAX_BRANCHED_CALLS
                    || specs.contains(&spec)
                {
                    continue;
                }
                specs.push(spec);
                let keys = |e: &mut Self, exprs: &[&Expr]| -> Vec<Vec<SymVal>> {
                    input
                        .rows
                        .iter()
                        .map(|r| {
                            let env = e.env(&input.cols, &r.vals, outer);
                            exprs.iter().map(|x| e.value(x, &env)).collect()
                        })
                        .collect()
                };
                let partition: Vec<&Expr> = call.partition.iter().collect();
                let order: Vec<&Expr> = call.order.iter().map(|o| &o.expr).collect();
                let (partition, order) = (keys(self, &partition), keys(self, &order));
                let n = input.rows.len();
                let exists: Vec<Bool> = input.rows.iter().map(|r| r.exists.clone()).collect();
                let same = |k: &[Vec<SymVal>], a: usize, b: usize| {
                    let mut c = vec![exists[a].clone(), exists[b].clone()];
                    c.extend(k[a].iter().zip(&k[b]).map(|(x, y)| same_value(x, y)));
                    Bool::and(&c)
                };
                let (mut shared, mut apart, mut ties, mut after_tie) =
                    (Vec::new(), Vec::new(), Vec::new(), Vec::new());
                for a in 0..n {
                    for b in 0..a {
                        let one_partition = same(&partition, a, b);
                        if !call.partition.is_empty() {
                            shared.push(one_partition.clone());
                            // non-NULL keys: a NULL partition is the NULL branches' concern
                            let mut c = vec![exists[a].clone(), exists[b].clone()];
                            c.extend(
                                partition[a]
                                    .iter()
                                    .chain(&partition[b])
                                    .map(|v| v.null.not()),
                            );
                            c.push(one_partition.not());
                            apart.push(Bool::and(&c));
                        }
                        if call.order.is_empty() {
                            continue;
                        }
                        let tie = Bool::and(&[one_partition, same(&order, a, b)]);
                        ties.push(tie.clone());
                        // a third row of the partition with other order keys: where `rank`
                        // skips numbers and `dense_rank` does not
                        for c in (0..n).filter(|&c| c != a && c != b && n <= MAX_TRIPLE_ROWS) {
                            let other =
                                Bool::and(&[same(&partition, a, c), same(&order, a, c).not()]);
                            after_tie.push(Bool::and(&[tie.clone(), other, exists[c].clone()]));
                        }
                    }
                }
                for (label, positive, conds) in [
                    ("rows share a partition", true, shared),
                    ("rows in different partitions", false, apart),
                    ("tie on the order keys", false, ties),
                    ("tie and another row", true, after_tie),
                ] {
                    if !conds.is_empty() {
                        self.branch(
                            format!("Window#{op} call {i} {label}"),
                            positive,
                            any(conds),
                        );
                    }
                }
            }
        }
        for row in &mut input.rows {
            for call in &w.calls {
                row.vals.push(if self.columns.meta(call.id).not_null {
                    SymVal {
                        term: None,
                        null: Bool::from_bool(false),
                    }
                } else {
                    SymVal::unknown()
                });
            }
        }
        input.cols.extend(w.calls.iter().map(|c| c.id));
        Ok(input)
    }
}
