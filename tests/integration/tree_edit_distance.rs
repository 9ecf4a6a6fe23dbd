//! Property tests of the Zhang–Shasha tree edit distance (insert 1, delete 1, relabel 2) over
//! random labelled trees, a brute-force cross-check on small trees, and AST-TE similarity edge cases.

use proptest::prelude::*;
use proptest::sample::Index;
use sqlsim::metrics::ast_ted::tree_similarity;
use sqlsim::tree::zhang_shasha::tree_edit_distance;
use sqlsim::tree::{LabelledTree, Tree};
use std::collections::HashMap;

/// Builds a tree from (parent pick, label) specs: node i+1 hangs under one of nodes 0..=i.
fn build(root: Option<u8>, rest: &[(Index, u8)]) -> LabelledTree {
    let Some(root) = root else {
        return LabelledTree::empty();
    };
    let mut tree = LabelledTree::with_root(label(root));
    for (i, (parent, l)) in rest.iter().enumerate() {
        tree.add_child(parent.index(i + 1), label(*l));
    }
    tree
}

fn label(l: u8) -> String {
    // A small alphabet so that equal labels (and zero-cost matches) are common.
    ["a", "b", "c", "d"][usize::from(l % 4)].to_string()
}

/// Random trees of at most `max_nodes` nodes (sometimes empty).
fn tree_strategy(max_nodes: usize) -> impl Strategy<Value = LabelledTree> {
    (
        prop::option::weighted(0.95, 0u8..4),
        prop::collection::vec((any::<Index>(), 0u8..4), 0..max_nodes),
    )
        .prop_map(|(root, rest)| build(root, &rest))
}

/// Canonical text of a tree, `a(b,c(d))`, for structural equality independent of node ids.
fn canonical<T: Tree>(tree: &T) -> String {
    fn go<T: Tree>(tree: &T, node: usize, out: &mut String) {
        out.push_str(tree.label(node));
        let kids = tree.children(node);
        if !kids.is_empty() {
            out.push('(');
            for (i, &k) in kids.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                go(tree, k, out);
            }
            out.push(')');
        }
    }
    let mut out = String::new();
    if let Some(root) = tree.root() {
        go(tree, root, &mut out);
    }
    out
}

/// A second `Tree` implementation (one boxed node per vertex), to exercise the generic interface.
struct Nested {
    labels: Vec<String>,
    children: Vec<Vec<usize>>,
    root: Option<usize>,
}

impl Nested {
    /// Copies `tree` with nodes numbered in reverse pre-order, so ids differ from the source.
    fn from_tree<T: Tree>(tree: &T) -> Self {
        let n = tree.node_count();
        let mut out = Nested {
            labels: vec![String::new(); n],
            children: vec![Vec::new(); n],
            root: None,
        };
        let Some(root) = tree.root() else {
            return out;
        };
        let mut next = n;
        let mut map = HashMap::new();
        let mut stack = vec![root];
        while let Some(node) = stack.pop() {
            next -= 1;
            map.insert(node, next);
            stack.extend(tree.children(node).iter().rev());
        }
        for (&old, &new) in &map {
            out.labels[new] = tree.label(old).to_string();
            out.children[new] = tree.children(old).iter().map(|c| map[c]).collect();
        }
        out.root = Some(map[&root]);
        out
    }
}

impl Tree for Nested {
    fn node_count(&self) -> usize {
        self.labels.len()
    }
    fn root(&self) -> Option<usize> {
        self.root
    }
    fn children(&self, node: usize) -> &[usize] {
        &self.children[node]
    }
    fn label(&self, node: usize) -> &str {
        &self.labels[node]
    }
}

/// The textbook recursive forest edit distance, memoized on (forest of a, forest of b), where a
/// forest is the list of its root node ids. Exponential in general; fine for trees of ≤ 8 nodes.
struct BruteForce<'t> {
    a: &'t LabelledTree,
    b: &'t LabelledTree,
    memo: HashMap<(Vec<usize>, Vec<usize>), u32>,
}

impl BruteForce<'_> {
    fn size(tree: &LabelledTree, forest: &[usize]) -> u32 {
        forest
            .iter()
            .map(|&n| 1 + Self::size(tree, tree.children(n)))
            .sum()
    }

    fn distance(a: &LabelledTree, b: &LabelledTree) -> u32 {
        let mut bf = BruteForce {
            a,
            b,
            memo: HashMap::new(),
        };
        let fa: Vec<usize> = a.root().into_iter().collect();
        let fb: Vec<usize> = b.root().into_iter().collect();
        bf.forest(fa, fb)
    }

    fn forest(&mut self, f: Vec<usize>, g: Vec<usize>) -> u32 {
        if f.is_empty() {
            return Self::size(self.b, &g);
        }
        if g.is_empty() {
            return Self::size(self.a, &f);
        }
        let key = (f.clone(), g.clone());
        if let Some(&d) = self.memo.get(&key) {
            return d;
        }
        let (v, w) = (f[f.len() - 1], g[g.len() - 1]);
        // Delete v: its children take its place at the right end of the forest.
        let mut f_minus_v = f[..f.len() - 1].to_vec();
        f_minus_v.extend_from_slice(self.a.children(v));
        let mut g_minus_w = g[..g.len() - 1].to_vec();
        g_minus_w.extend_from_slice(self.b.children(w));
        let delete = self.forest(f_minus_v, g.clone()) + 1;
        let insert = self.forest(f.clone(), g_minus_w) + 1;
        // Match v with w: the rest of the forests and the children forests separately.
        let relabel = if self.a.label(v) == self.b.label(w) {
            0
        } else {
            2
        };
        let rest = self.forest(f[..f.len() - 1].to_vec(), g[..g.len() - 1].to_vec());
        let kids = self.forest(self.a.children(v).to_vec(), self.b.children(w).to_vec());
        let d = delete.min(insert).min(rest + kids + relabel);
        self.memo.insert(key, d);
        d
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn symmetric(a in tree_strategy(30), b in tree_strategy(30)) {
        prop_assert_eq!(tree_edit_distance(&a, &b), tree_edit_distance(&b, &a));
    }

    #[test]
    fn zero_on_identical_trees(a in tree_strategy(40)) {
        prop_assert_eq!(tree_edit_distance(&a, &a.clone()), 0);
        prop_assert_eq!(tree_edit_distance(&a, &Nested::from_tree(&a)), 0);
    }

    #[test]
    fn bounded_by_sizes(a in tree_strategy(30), b in tree_strategy(30)) {
        let d = tree_edit_distance(&a, &b) as usize;
        prop_assert!(d <= a.len() + b.len(), "{} > {} + {}", d, a.len(), b.len());
        prop_assert!(d >= a.len().abs_diff(b.len()));
    }

    #[test]
    fn triangle_inequality(a in tree_strategy(15), b in tree_strategy(15), c in tree_strategy(15)) {
        let ab = tree_edit_distance(&a, &b);
        let bc = tree_edit_distance(&b, &c);
        let ac = tree_edit_distance(&a, &c);
        prop_assert!(ac <= ab + bc, "d(a,c)={} > d(a,b)={} + d(b,c)={}", ac, ab, bc);
    }

    #[test]
    fn zero_iff_equal(a in tree_strategy(8), b in tree_strategy(8)) {
        let d = tree_edit_distance(&a, &b);
        prop_assert_eq!(d == 0, canonical(&a) == canonical(&b), "d={} a={} b={}", d, canonical(&a), canonical(&b));
    }

    #[test]
    fn generic_over_tree_impls(a in tree_strategy(20), b in tree_strategy(20)) {
        let d = tree_edit_distance(&a, &b);
        prop_assert_eq!(tree_edit_distance(&Nested::from_tree(&a), &b), d);
        prop_assert_eq!(tree_edit_distance(&a, &Nested::from_tree(&b)), d);
    }

    #[test]
    fn matches_brute_force(a in tree_strategy(8), b in tree_strategy(8)) {
        prop_assert_eq!(
            tree_edit_distance(&a, &b),
            BruteForce::distance(&a, &b),
            "a={} b={}", canonical(&a), canonical(&b)
        );
    }

    #[test]
    fn similarity_in_unit_interval(a in tree_strategy(30), b in tree_strategy(30)) {
        let s = tree_similarity(&a, &b);
        prop_assert!((0.0..=1.0).contains(&s), "similarity {}", s);
        prop_assert_eq!(s, tree_similarity(&b, &a));
        if canonical(&a) == canonical(&b) {
            prop_assert_eq!(s, 1.0);
        }
    }
}

#[test]
fn brute_force_agrees_on_the_classic_example() {
    // Zhang & Shasha's example, f(d(a c(b)) e) vs f(c(d(a b)) e): one delete and one insert.
    let mut a = LabelledTree::with_root("f");
    let d = a.add_child(0, "d");
    a.add_child(d, "a");
    let c = a.add_child(d, "c");
    a.add_child(c, "b");
    a.add_child(0, "e");
    let mut b = LabelledTree::with_root("f");
    let c = b.add_child(0, "c");
    let d = b.add_child(c, "d");
    b.add_child(d, "a");
    b.add_child(d, "b");
    b.add_child(0, "e");
    assert_eq!(BruteForce::distance(&a, &b), 2);
    assert_eq!(tree_edit_distance(&a, &b), 2);
}

#[test]
fn deep_chain_does_not_overflow_the_stack() {
    let mut a = LabelledTree::with_root("x");
    let mut last = 0;
    for _ in 0..20_000 {
        last = a.add_child(last, "x");
    }
    let b = LabelledTree::with_root("x");
    assert_eq!(tree_edit_distance(&a, &b), 20_000);
}

#[test]
fn similarity_edge_cases() {
    let empty = LabelledTree::empty();
    assert_eq!(tree_similarity(&empty, &empty), 1.0);
    let one = LabelledTree::with_root("a");
    assert_eq!(tree_similarity(&empty, &one), 0.0);
    assert_eq!(tree_similarity(&one, &empty), 0.0);
    assert_eq!(tree_similarity(&one, &one), 1.0);
    // A relabel of a single node costs 2 over max size 1: clamped to 0.
    assert_eq!(tree_similarity(&one, &LabelledTree::with_root("b")), 0.0);
    // a(b) vs a(c): one relabel (2) over 2 nodes.
    let mut ab = LabelledTree::with_root("a");
    ab.add_child(0, "b");
    let mut ac = LabelledTree::with_root("a");
    ac.add_child(0, "c");
    assert_eq!(tree_similarity(&ab, &ac), 0.0);
    // a(b) vs a: one delete over 2 nodes.
    assert_eq!(tree_similarity(&ab, &one), 0.5);
}
