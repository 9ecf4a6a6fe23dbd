//! NodeMatch: FuncEvalGMN's rule-based matching of two trees (the algorithm under RelPM and ASTPM): `MatchTree`, NodeMatch, F-β.
//!
//! Generic over labelled trees and independent of SQL: `plan::match_tree` and `metrics::astpm` build
//! the trees, `metrics` holds the tuned α/β defaults.
//!
//! FuncEvalGMN (Zhan et al., Algorithms 1–3 and Appendix A) scores a predicted query against a gold
//! one by matching their trees top-down. A tree has *computing nodes* (operators, functions,
//! comparison and logical operators) and *content nodes* (tables, columns, literals). For nodes `u`
//! of tree A and `v` of tree B:
//!
//! ```text
//! NodeMatch(u, v) = 0                                   u, v differ in kind or label
//!                 = 1                                   u has no children
//!                 = α                                   v has no children
//!                 = α + (1 − α) · mean_{c ∈ C(u)} max_{d ∈ C(v)} NodeMatch(c, d)
//! precision = NodeMatch(pred root, gold root)   recall = NodeMatch(gold root, pred root)
//! F-β       = (1 + β²) · P · R / (β² · P + R)   (0 when P = R = 0)
//! ```
//!
//! Two empty trees score 1 (nothing to disagree on); one empty tree scores 0.
//!
//! **Ordered children.** The paper matches children as a set (best partner anywhere), which is
//! right for commutative operands, conjunctions, projections and join inputs. For operators whose
//! operand *positions* carry meaning (`a - b`, `x < y`, `LIKE`, `BETWEEN`, a sort key list) a node
//! may be marked ordered ([`MatchTree::set_ordered`]): a pair of nodes in which either side is
//! ordered matches children by position instead, child `i` against child `i` (0 when the other side
//! has no child `i`). Unmarked trees follow the paper exactly.
//!
//! **Bounded work.** NodeMatch recurses only into pairs whose labels match, and a child pair
//! `(c, d)` is reached only from its parents' pair, so every node pair is visited at most once:
//! the work is at most `|A| · |B|` pair visits and memoization would gain nothing. The traversal
//! uses an explicit stack (no recursion, so any depth is safe) and counts visited pairs; beyond
//! [`MAX_NODE_PAIRS`] it gives `None`, as AST-TE does with its DP-cell budget.

use crate::tree::Tree;

/// Most node pairs one NodeMatch may visit (about half a second of work). Trees of the sizes the
/// SQL surface admits (3,000 nodes each, at most 9·10⁶ pairs) always fit; larger generic trees
/// beyond it give `None` instead of a hang.
pub const MAX_NODE_PAIRS: u64 = 50_000_000;

/// What a node stands for: two nodes match only when their kinds and labels are equal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NodeKind {
    /// Operators, functions, comparison and logical operators, clauses.
    Computing,
    /// Tables, columns, aliases, literals.
    Content,
}

/// A rooted tree for NodeMatch, stored as arenas; node 0 is the root and parents come
/// before their children.
///
/// ```
/// use sqlsim::tree::node_match::{MatchTree, NodeKind};
/// let mut t = MatchTree::new();
/// let root = t.push("Filter", NodeKind::Computing, None);
/// let gt = t.push(">", NodeKind::Computing, Some(root));
/// t.set_ordered(gt, true);
/// t.push("age", NodeKind::Content, Some(gt));
/// t.push("20", NodeKind::Content, Some(gt));
/// assert_eq!((t.len(), t.children(gt).len(), t.label(gt)), (4, 2, ">"));
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MatchTree {
    /// All labels, concatenated; node `i`'s label is `text[spans[i].0..spans[i].1]`.
    text: String,
    spans: Vec<(usize, usize)>,
    /// A hash of each label, compared before the text so most mismatches cost one integer test.
    hashes: Vec<u64>,
    kinds: Vec<NodeKind>,
    ordered: Vec<bool>,
    children: Vec<Vec<usize>>,
}

/// FNV-1a: deterministic across trees and runs, enough to reject unequal labels quickly.
fn label_hash(label: &str) -> u64 {
    label.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl MatchTree {
    /// The empty tree.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends a node labelled `label` as the last child of `parent` (`None` for the root) and
    /// returns its id. Children are unordered until [`set_ordered`](Self::set_ordered) says otherwise.
    ///
    /// # Panics
    /// When `parent` is `None` but the tree already has a root, or names a node not yet pushed:
    /// both are bugs of the code building the tree, never of user input.
    pub fn push(&mut self, label: &str, kind: NodeKind, parent: Option<usize>) -> usize {
        let id = self.spans.len();
        match parent {
            None => assert!(id == 0, "MatchTree::push: the tree already has a root"),
            Some(p) => {
                assert!(p < id, "MatchTree::push: parent {p} does not exist");
                self.children[p].push(id);
            }
        }
        let start = self.text.len();
        self.text.push_str(label);
        self.spans.push((start, self.text.len()));
        self.hashes.push(label_hash(label));
        self.kinds.push(kind);
        self.ordered.push(false);
        self.children.push(Vec::new());
        id
    }

    /// Marks `node`'s children as ordered (matched by position) or unordered (matched as a set).
    pub fn set_ordered(&mut self, node: usize, ordered: bool) {
        self.ordered[node] = ordered;
    }

    /// Converts any [`Tree`] node by node: `classify(label, is_leaf)` gives each node's kind and
    /// whether its children are ordered. Node ids are the pre-order of `tree` (built without recursion).
    pub fn from_tree<T: Tree>(
        tree: &T,
        mut classify: impl FnMut(&str, bool) -> (NodeKind, bool),
    ) -> Self {
        let mut out = Self::new();
        let Some(root) = tree.root() else {
            return out;
        };
        let mut stack = vec![(root, None)];
        while let Some((node, parent)) = stack.pop() {
            let label = tree.label(node);
            let kids = tree.children(node);
            let (kind, ordered) = classify(label, kids.is_empty());
            let id = out.push(label, kind, parent);
            out.ordered[id] = ordered;
            stack.extend(kids.iter().rev().map(|&c| (c, Some(id))));
        }
        out
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// True for the tree with no nodes.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The label of `node`.
    pub fn label(&self, node: usize) -> &str {
        let (start, end) = self.spans[node];
        &self.text[start..end]
    }

    /// The kind of `node`.
    pub fn kind(&self, node: usize) -> NodeKind {
        self.kinds[node]
    }

    /// Whether `node`'s children are matched by position.
    pub fn is_ordered(&self, node: usize) -> bool {
        self.ordered[node]
    }

    /// The children of `node`, in insertion order.
    pub fn children(&self, node: usize) -> &[usize] {
        &self.children[node]
    }

    fn same_node(&self, u: usize, other: &MatchTree, v: usize) -> bool {
        self.hashes[u] == other.hashes[v]
            && self.kinds[u] == other.kinds[v]
            && self.label(u) == other.label(v)
    }
}

impl Tree for MatchTree {
    fn node_count(&self) -> usize {
        self.len()
    }
    fn root(&self) -> Option<usize> {
        (!self.is_empty()).then_some(0)
    }
    fn children(&self, node: usize) -> &[usize] {
        MatchTree::children(self, node)
    }
    fn label(&self, node: usize) -> &str {
        MatchTree::label(self, node)
    }
}

/// Precision, recall and their F-β, each in [0, 1].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MatchScores {
    /// NodeMatch(pred, gold): how much of the prediction the gold query supports.
    pub precision: f64,
    /// NodeMatch(gold, pred): how much of the gold query the prediction covers.
    pub recall: f64,
    /// (1 + β²)·P·R / (β²·P + R), 0 when both are 0.
    pub f_beta: f64,
}

/// F-β of a precision and a recall in [0, 1]; 0 when both are 0. `beta` must be positive.
pub fn f_beta(precision: f64, recall: f64, beta: f64) -> f64 {
    let b2 = beta * beta;
    if b2.is_infinite() {
        // β above ~1e154: β² overflows and the formula gives ∞/∞; its limit is the recall
        return if precision > 0.0 {
            recall.clamp(0.0, 1.0)
        } else {
            0.0
        };
    }
    let denominator = b2 * precision + recall;
    if denominator <= 0.0 {
        return 0.0;
    }
    ((1.0 + b2) * precision * recall / denominator).clamp(0.0, 1.0)
}

/// A node pair whose children are being matched.
struct Frame {
    u: usize,
    v: usize,
    ordered: bool,
    /// Next child of `u` to match, and (unordered) next candidate partner among `v`'s children.
    i: usize,
    j: usize,
    /// Best score of child `i` so far (unordered), and the sum over finished children.
    best: f64,
    sum: f64,
}

impl Frame {
    fn receive(&mut self, score: f64) {
        if self.ordered {
            self.sum += score;
            self.i += 1;
        } else {
            self.best = self.best.max(score);
            self.j += 1;
        }
    }
}

/// α + (1 − α)·mean, exactly 1 when every child matched fully.
fn combine(alpha: f64, mean: f64) -> f64 {
    if mean >= 1.0 {
        1.0
    } else {
        (alpha + (1.0 - alpha) * mean).clamp(0.0, 1.0)
    }
}

/// NodeMatch(u, v) in [0, 1] for node `u` of `a` against node `v` of `b` (module docs); `None`
/// when more than `max_pairs` node pairs would be visited. `alpha` must lie in [0, 1].
pub fn node_match_within(
    a: &MatchTree,
    u: usize,
    b: &MatchTree,
    v: usize,
    alpha: f64,
    max_pairs: u64,
) -> Option<f64> {
    debug_assert!((0.0..=1.0).contains(&alpha), "alpha {alpha} outside [0, 1]");
    let mut budget = max_pairs;
    // Scores a pair outright, or returns the frame that will score it from its children.
    let mut open = |u: usize, v: usize| -> Option<Result<f64, Frame>> {
        budget = budget.checked_sub(1)?;
        Some(if !a.same_node(u, b, v) {
            Ok(0.0)
        } else if a.children(u).is_empty() || alpha >= 1.0 {
            Ok(1.0)
        } else if b.children(v).is_empty() {
            Ok(alpha)
        } else {
            Err(Frame {
                u,
                v,
                ordered: a.is_ordered(u) || b.is_ordered(v),
                i: 0,
                j: 0,
                best: 0.0,
                sum: 0.0,
            })
        })
    };
    let mut stack = match open(u, v)? {
        Ok(score) => return Some(score),
        Err(frame) => vec![frame],
    };
    while let Some(top) = stack.last_mut() {
        let (cu, cv) = (a.children(top.u), b.children(top.v));
        if top.i == cu.len() {
            let score = combine(alpha, top.sum / cu.len() as f64);
            stack.pop();
            match stack.last_mut() {
                Some(parent) => parent.receive(score),
                None => return Some(score),
            }
            continue;
        }
        let pair = if top.ordered {
            cv.get(top.i).map(|&d| (cu[top.i], d))
        } else if top.j < cv.len() && top.best < 1.0 {
            Some((cu[top.i], cv[top.j]))
        } else {
            // Child i has met every candidate (or a perfect one): fold in its best score.
            top.sum += top.best;
            top.best = 0.0;
            top.i += 1;
            top.j = 0;
            continue;
        };
        let Some((c, d)) = pair else {
            top.i += 1; // ordered, and `v` has no child at this position: scores 0
            continue;
        };
        match open(c, d)? {
            Ok(score) => top.receive(score),
            Err(frame) => stack.push(frame),
        }
    }
    None // unreachable: the root frame returns when it finishes
}

/// NodeMatch(u, v) with the default budget [`MAX_NODE_PAIRS`].
///
/// ```
/// use sqlsim::tree::node_match::{node_match, MatchTree, NodeKind::*};
/// let (mut a, mut b) = (MatchTree::new(), MatchTree::new());
/// let r = a.push("Project", Computing, None);
/// a.push("name", Content, Some(r));
/// a.push("age", Content, Some(r));
/// let r = b.push("Project", Computing, None);
/// b.push("name", Content, Some(r));
/// // α + (1 − α) · (1 + 0) / 2 with α = 0.5
/// assert_eq!(node_match(&a, 0, &b, 0, 0.5), Some(0.75));
/// assert_eq!(node_match(&b, 0, &a, 0, 0.5), Some(1.0));
/// ```
pub fn node_match(a: &MatchTree, u: usize, b: &MatchTree, v: usize, alpha: f64) -> Option<f64> {
    node_match_within(a, u, b, v, alpha, MAX_NODE_PAIRS)
}

/// Partial match of a prediction against a gold tree, every score in [0, 1]: 1.0 for identical
/// trees and for two empty trees, 0.0 when exactly one is empty; `None` when either direction
/// exceeds `max_pairs` node pairs. `alpha` in [0, 1], `beta` > 0.
pub fn match_scores_within(
    gold: &MatchTree,
    pred: &MatchTree,
    alpha: f64,
    beta: f64,
    max_pairs: u64,
) -> Option<MatchScores> {
    let (precision, recall) = match (gold.is_empty(), pred.is_empty()) {
        (true, true) => (1.0, 1.0),
        (true, false) | (false, true) => (0.0, 0.0),
        (false, false) => (
            node_match_within(pred, 0, gold, 0, alpha, max_pairs)?,
            node_match_within(gold, 0, pred, 0, alpha, max_pairs)?,
        ),
    };
    Some(MatchScores {
        precision,
        recall,
        f_beta: f_beta(precision, recall, beta),
    })
}

/// NodeMatch scores with the default budget [`MAX_NODE_PAIRS`]: F-β in [0, 1], 1.0 for identical
/// trees and for two empty trees, 0.0 when exactly one is empty.
///
/// ```
/// use sqlsim::tree::node_match::{match_scores, MatchTree, NodeKind::*};
/// let mut gold = MatchTree::new();
/// let r = gold.push("Project", Computing, None);
/// gold.push("name", Content, Some(r));
/// gold.push("age", Content, Some(r));
/// let mut pred = MatchTree::new();
/// let r = pred.push("Project", Computing, None);
/// pred.push("name", Content, Some(r));
/// let s = match_scores(&gold, &pred, 0.5, 1.0).unwrap();
/// assert_eq!((s.precision, s.recall), (1.0, 0.75));
/// assert!((s.f_beta - 1.5 / 1.75).abs() < 1e-12);
/// ```
pub fn match_scores(
    gold: &MatchTree,
    pred: &MatchTree,
    alpha: f64,
    beta: f64,
) -> Option<MatchScores> {
    match_scores_within(gold, pred, alpha, beta, MAX_NODE_PAIRS)
}

#[cfg(test)]
mod tests;
