//! The symbolic Window operator: its rows are its input's, its calls' values are not modelled, and its coverage branches ask for the rows that make window calls differ.

use std::collections::HashMap;

use z3::ast::{Bool, Int};

use super::aggregate::count;
use super::execute::{any, Executor};
use super::values::{same_value, SymRel, SymVal};
use crate::parseval::SearchError;
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
    /// several input rows, without which every window is trivial, and per distinct partition and
    /// order keys for the rows that make calls differ ([`Executor::window_key_branches`]).
    pub(super) fn window(
        &mut self,
        op: usize,
        w: &Window,
        outer: &[(u32, SymVal)],
    ) -> Result<SymRel, SearchError> {
        let mut input = self.run(&w.input, outer)?;
        self.step(input.rows.len() * input.rows.len() * w.calls.len())?;
        if input.rows.len() > 1 {
            let exists: Vec<Bool> = input.rows.iter().map(|r| r.exists.clone()).collect();
            let several = count(&exists).ge(Int::from_i64(2));
            self.branch(format!("Window#{op} several rows"), true, several);
            if self.quiet == 0 && input.rows.len() <= MAX_PAIR_ROWS {
                let mut specs: Vec<(Vec<&Expr>, Vec<&Expr>)> = Vec::new();
                for (i, call) in w.calls.iter().enumerate() {
                    let spec = (
                        call.partition.iter().collect(),
                        call.order.iter().map(|o| &o.expr).collect(),
                    );
                    if specs.len() >= MAX_BRANCHED_CALLS || specs.contains(&spec) {
                        continue;
                    }
                    let partition = self.keys(&input, &spec.0, outer);
                    let order = self.keys(&input, &spec.1, outer);
                    for (label, positive, conds) in window_key_branches(&exists, &partition, &order)
                    {
                        if !conds.is_empty() {
                            self.branch(
                                format!("Window#{op} call {i} {label}"),
                                positive,
                                any(conds),
                            );
                        }
                    }
                    specs.push(spec);
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

    /// The values of `exprs` on each candidate row of `rel`.
    fn keys(&mut self, rel: &SymRel, exprs: &[&Expr], outer: &[(u32, SymVal)]) -> Vec<Vec<SymVal>> {
        rel.rows
            .iter()
            .map(|r| {
                let env = self.env(&rel.cols, &r.vals, outer);
                exprs.iter().map(|x| self.value(x, &env)).collect()
            })
            .collect()
    }
}

/// The branches of one window's keys over candidate rows that `exists`, with each row's
/// `partition` and `order` key values (empty lists when the call has none): two rows sharing a
/// partition, two in different partitions (non-NULL keys: a NULL partition is the NULL
/// branches' concern), a tie on the order keys, and a tie followed by a third row of the
/// partition with other order keys (where `rank` skips numbers and `dense_rank` does not).
fn window_key_branches(
    exists: &[Bool],
    partition: &[Vec<SymVal>],
    order: &[Vec<SymVal>],
) -> [(&'static str, bool, Vec<Bool>); 4] {
    let n = exists.len();
    let partitioned = partition.first().is_some_and(|k| !k.is_empty());
    let ordered = order.first().is_some_and(|k| !k.is_empty());
    let mut one_partition = SameKeys::new(exists, partition);
    let mut same_order = SameKeys::new(exists, order);
    let triples = n <= MAX_TRIPLE_ROWS;
    let (mut shared, mut apart, mut ties, mut after_tie) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for a in 0..n {
        for b in 0..a {
            let pair_partition = one_partition.get(a, b);
            if partitioned {
                shared.push(pair_partition.clone());
                let mut c = vec![exists[a].clone(), exists[b].clone()];
                c.extend(
                    partition[a]
                        .iter()
                        .chain(&partition[b])
                        .map(|v| v.null.not()),
                );
                c.push(pair_partition.not());
                apart.push(Bool::and(&c));
            }
            if !ordered {
                continue;
            }
            let tie = Bool::and(&[pair_partition, same_order.get(a, b)]);
            ties.push(tie.clone());
            for c in (0..n).filter(|&c| triples && c != a && c != b) {
                let other = Bool::and(&[one_partition.get(a, c), same_order.get(a, c).not()]);
                after_tie.push(Bool::and(&[tie.clone(), other, exists[c].clone()]));
            }
        }
    }
    [
        ("rows share a partition", true, shared),
        ("rows in different partitions", false, apart),
        ("tie on the order keys", false, ties),
        ("tie and another row", true, after_tie),
    ]
}

/// Per pair of candidate rows: both exist and their `keys` are the same, built once per pair
/// (the three-row branch asks for the same pairs many times).
struct SameKeys<'a> {
    exists: &'a [Bool],
    keys: &'a [Vec<SymVal>],
    built: HashMap<(usize, usize), Bool>,
}

impl<'a> SameKeys<'a> {
    fn new(exists: &'a [Bool], keys: &'a [Vec<SymVal>]) -> Self {
        SameKeys {
            exists,
            keys,
            built: HashMap::new(),
        }
    }

    fn get(&mut self, a: usize, b: usize) -> Bool {
        let (exists, keys) = (self.exists, self.keys);
        self.built
            .entry((a, b))
            .or_insert_with(|| {
                let mut c = vec![exists[a].clone(), exists[b].clone()];
                c.extend(keys[a].iter().zip(&keys[b]).map(|(x, y)| same_value(x, y)));
                Bool::and(&c)
            })
            .clone()
    }
}
