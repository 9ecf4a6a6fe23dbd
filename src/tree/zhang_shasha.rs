//! Zhang–Shasha tree edit distance with keyroots, generic over `Tree` (insert 1, delete 1, relabel 2).

use super::Tree;
use std::collections::HashMap;

/// Cost of inserting or deleting one node.
pub const INDEL_COST: u32 = 1;
/// Cost of changing one node's label.
pub const RELABEL_COST: u32 = 2;

/// A tree flattened in post-order: what the dynamic programme indexes.
struct PostOrder {
    /// Interned label of each node, in post-order.
    labels: Vec<u32>,
    /// Post-order index of each node's leftmost leaf descendant.
    leftmost: Vec<usize>,
    /// Key roots in increasing post-order.
    keyroots: Vec<usize>,
}

impl PostOrder {
    /// Flattens `tree`; `mirrored` visits children right to left, so that the dynamic programme
    /// decomposes along rightmost instead of leftmost paths (the distance is the same).
    fn new<'a, T: Tree>(tree: &'a T, intern: &mut HashMap<&'a str, u32>, mirrored: bool) -> Self {
        let n = tree.node_count();
        let mut labels = Vec::with_capacity(n);
        let mut leftmost = Vec::with_capacity(n);
        if let Some(root) = tree.root() {
            // Iterative post-order; each stack entry remembers the post-order index of its first leaf.
            let mut stack: Vec<(usize, usize, Option<usize>)> = vec![(root, 0, None)];
            while let Some(&mut (node, ref mut next_child, ref mut first_leaf)) = stack.last_mut() {
                let kids = tree.children(node);
                if *next_child < kids.len() {
                    let child = if mirrored {
                        kids[kids.len() - 1 - *next_child]
                    } else {
                        kids[*next_child]
                    };
                    *next_child += 1;
                    stack.push((child, 0, None));
                    continue;
                }
                let index = labels.len();
                let leaf = first_leaf.unwrap_or(index);
                let next_id = intern.len() as u32;
                let id = *intern.entry(tree.label(node)).or_insert(next_id);
                labels.push(id);
                leftmost.push(leaf);
                stack.pop();
                if let Some(parent) = stack.last_mut() {
                    if parent.2.is_none() {
                        parent.2 = Some(leaf);
                    }
                }
            }
        }
        // A key root is the highest node having a given leftmost leaf.
        // Post-order visits a node after its descendants, so the last node seen with a given
        // leftmost leaf is the highest one.
        let mut highest = vec![usize::MAX; leftmost.len()];
        for (i, &l) in leftmost.iter().enumerate() {
            highest[l] = i;
        }
        let mut keyroots: Vec<usize> = highest.into_iter().filter(|&i| i != usize::MAX).collect();
        keyroots.sort_unstable();
        Self {
            labels,
            leftmost,
            keyroots,
        }
    }

    fn len(&self) -> usize {
        self.labels.len()
    }

    /// Sum over key roots of (subtree size + 1): the forest table side this tree contributes.
    fn keyroot_span(&self) -> u64 {
        self.keyroots
            .iter()
            .map(|&k| (k - self.leftmost[k] + 2) as u64)
            .sum()
    }
}

/// The tree edit distance between `a` and `b`: the cheapest sequence of node insertions, deletions
/// and relabelings turning `a` into `b`. Symmetric, 0 for identical trees, at most |a| + |b|.
///
/// Runs in time proportional to [`dp_cells`]: about |a|·|b| for query-shaped trees, but up to
/// |a|²·|b|² for trees that branch deeply on both sides; use [`tree_edit_distance_within`] to bound it.
pub fn tree_edit_distance<A: Tree, B: Tree>(a: &A, b: &B) -> u32 {
    tree_edit_distance_within(a, b, u64::MAX).unwrap_or(u32::MAX)
}

/// The tree edit distance, or `None` when computing it would fill more than `max_cells` cells of
/// the dynamic programme (about 2–5 ns each); see [`dp_cells`].
pub fn tree_edit_distance_within<A: Tree, B: Tree>(a: &A, b: &B, max_cells: u64) -> Option<u32> {
    let (t1, t2, cells) = best_orientation(a, b);
    (cells <= max_cells).then(|| distance(&t1, &t2))
}

/// Zhang–Shasha over two flattened trees.
fn distance(t1: &PostOrder, t2: &PostOrder) -> u32 {
    let (n1, n2) = (t1.len(), t2.len());
    if n1 == 0 || n2 == 0 {
        return INDEL_COST * (n1 + n2) as u32;
    }
    let mut treedist = vec![0u32; n1 * n2];
    let mut forest = vec![0u32; (n1 + 1) * (n2 + 1)];
    for &i in &t1.keyroots {
        for &j in &t2.keyroots {
            forest_distance(t1, t2, i, j, &mut treedist, &mut forest);
        }
    }
    treedist[(n1 - 1) * n2 + (n2 - 1)]
}

/// Number of forest-table cells the edit distance of `a` and `b` fills (in the cheaper of the
/// left-path and right-path decompositions): the work [`tree_edit_distance_within`] bounds.
pub fn dp_cells<A: Tree, B: Tree>(a: &A, b: &B) -> u64 {
    best_orientation(a, b).2
}

/// Flattens both trees in the orientation (leftmost or rightmost paths) needing fewer cells.
/// The distance is the same either way: mirroring both trees maps edit scripts one to one.
fn best_orientation<'a, A: Tree, B: Tree>(a: &'a A, b: &'a B) -> (PostOrder, PostOrder, u64) {
    let mut intern = HashMap::new();
    let left = (
        PostOrder::new(a, &mut intern, false),
        PostOrder::new(b, &mut intern, false),
    );
    let left_cells = left.0.keyroot_span().saturating_mul(left.1.keyroot_span());
    // Query trees are mostly left-deep (leftmost paths are cheap); only mirror when it pays.
    if left_cells <= 4 * (left.0.len() as u64 + 1) * (left.1.len() as u64 + 1) {
        return (left.0, left.1, left_cells);
    }
    let right = (
        PostOrder::new(a, &mut intern, true),
        PostOrder::new(b, &mut intern, true),
    );
    let right_cells = right
        .0
        .keyroot_span()
        .saturating_mul(right.1.keyroot_span());
    if right_cells < left_cells {
        (right.0, right.1, right_cells)
    } else {
        (left.0, left.1, left_cells)
    }
}

/// Fills `treedist` for all subtree pairs whose forests end at key roots `i` and `j`.
fn forest_distance(
    t1: &PostOrder,
    t2: &PostOrder,
    i: usize,
    j: usize,
    treedist: &mut [u32],
    forest: &mut [u32],
) {
    let n2 = t2.len();
    let (li, lj) = (t1.leftmost[i], t2.leftmost[j]);
    let rows = i - li + 2;
    let cols = j - lj + 2;
    let at = |r: usize, c: usize| r * cols + c;
    forest[at(0, 0)] = 0;
    for r in 1..rows {
        forest[at(r, 0)] = forest[at(r - 1, 0)] + INDEL_COST;
    }
    for c in 1..cols {
        forest[at(0, c)] = forest[at(0, c - 1)] + INDEL_COST;
    }
    for r in 1..rows {
        let x = li + r - 1;
        for c in 1..cols {
            let y = lj + c - 1;
            let delete = forest[at(r - 1, c)] + INDEL_COST;
            let insert = forest[at(r, c - 1)] + INDEL_COST;
            if t1.leftmost[x] == li && t2.leftmost[y] == lj {
                let relabel = if t1.labels[x] == t2.labels[y] {
                    0
                } else {
                    RELABEL_COST
                };
                let d = delete.min(insert).min(forest[at(r - 1, c - 1)] + relabel);
                forest[at(r, c)] = d;
                treedist[x * n2 + y] = d;
            } else {
                let pr = t1.leftmost[x] - li;
                let pc = t2.leftmost[y] - lj;
                let d = delete
                    .min(insert)
                    .min(forest[at(pr, pc)] + treedist[x * n2 + y]);
                forest[at(r, c)] = d;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::LabelledTree;

    fn tree(spec: &[(usize, &str)]) -> LabelledTree {
        // spec: (parent, label) for nodes 1.., root label first with parent ignored.
        let mut t = LabelledTree::with_root(spec[0].1);
        for &(p, l) in &spec[1..] {
            t.add_child(p, l);
        }
        t
    }

    #[test]
    fn classic_example() {
        // Zhang & Shasha's paper example: f(d(a c(b)) e) vs f(c(d(a b)) e) has distance 2 with unit
        // costs; with relabel 2 nothing changes because the optimum uses one delete and one insert.
        let a = tree(&[(0, "f"), (0, "d"), (1, "a"), (1, "c"), (3, "b"), (0, "e")]);
        let b = tree(&[(0, "f"), (0, "c"), (1, "d"), (2, "a"), (2, "b"), (0, "e")]);
        assert_eq!(tree_edit_distance(&a, &b), 2);
        assert_eq!(tree_edit_distance(&b, &a), 2);
    }

    #[test]
    fn relabel_costs_two_and_empty_trees() {
        let a = tree(&[(0, "x")]);
        let b = tree(&[(0, "y")]);
        assert_eq!(tree_edit_distance(&a, &b), 2);
        assert_eq!(tree_edit_distance(&a, &LabelledTree::empty()), 1);
        assert_eq!(
            tree_edit_distance(&LabelledTree::empty(), &LabelledTree::empty()),
            0
        );
    }

    /// A right comb: every node has a leaf as first child and the rest of the comb as last child.
    fn right_comb(n: usize, prefix: &str) -> LabelledTree {
        let mut t = LabelledTree::with_root(format!("{prefix}0"));
        let mut spine = 0;
        for i in 1..n {
            t.add_child(spine, format!("leaf{}", i % 3));
            spine = t.add_child(spine, format!("{prefix}{}", i % 5));
        }
        t
    }

    #[test]
    fn both_orientations_agree() {
        // Deterministic pseudo-random trees (xorshift), compared in both decompositions.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |m: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % m as u64) as usize
        };
        for _ in 0..300 {
            let mut trees = Vec::new();
            for _ in 0..2 {
                let n = 1 + next(25);
                let mut t = LabelledTree::with_root(["a", "b", "c"][next(3)]);
                for i in 1..n {
                    t.add_child(next(i), ["a", "b", "c"][next(3)]);
                }
                trees.push(t);
            }
            let mut intern = HashMap::new();
            let left = distance(
                &PostOrder::new(&trees[0], &mut intern, false),
                &PostOrder::new(&trees[1], &mut intern, false),
            );
            let right = distance(
                &PostOrder::new(&trees[0], &mut intern, true),
                &PostOrder::new(&trees[1], &mut intern, true),
            );
            assert_eq!(left, right);
            assert_eq!(tree_edit_distance(&trees[0], &trees[1]), left);
        }
    }

    #[test]
    fn right_combs_use_the_cheap_orientation() {
        // Left-path decomposition of two 1,000-node right combs needs ~(500²/2)² cells; the mirrored
        // one about 1,000², so this finishes in milliseconds.
        let (a, b) = (right_comb(500, "x"), right_comb(500, "y"));
        assert!(dp_cells(&a, &b) < 10_000_000);
        let d = tree_edit_distance(&a, &b);
        assert!(d > 0 && d as usize <= a.len() + b.len());
        assert_eq!(tree_edit_distance(&a, &a.clone()), 0);
    }

    #[test]
    fn budget_refuses_expensive_pairs() {
        let (a, b) = (right_comb(50, "x"), right_comb(50, "y"));
        let cells = dp_cells(&a, &b);
        assert_eq!(tree_edit_distance_within(&a, &b, cells - 1), None);
        assert_eq!(
            tree_edit_distance_within(&a, &b, cells),
            Some(tree_edit_distance(&a, &b))
        );
    }
}
