//! Unit and property tests of NodeMatch: hand-computed scores, a recursive reference, bounds.

use super::*;
use proptest::prelude::*;
use NodeKind::{Computing, Content};

/// Builds a tree from `(label, parent)` rows; a label starting with a lower-case letter is content.
fn tree(rows: &[(&str, Option<usize>)]) -> MatchTree {
    let mut t = MatchTree::new();
    for &(label, parent) in rows {
        let kind = if label.starts_with(|c: char| c.is_ascii_lowercase()) {
            Content
        } else {
            Computing
        };
        t.push(label, kind, parent);
    }
    t
}

/// The definition, recursively, as the paper writes it (small trees only).
fn reference(a: &MatchTree, u: usize, b: &MatchTree, v: usize, alpha: f64) -> f64 {
    if a.label(u) != b.label(v) || a.kind(u) != b.kind(v) {
        return 0.0;
    }
    let (cu, cv) = (a.children(u), b.children(v));
    if cu.is_empty() {
        return 1.0;
    }
    let ordered = a.is_ordered(u) || b.is_ordered(v);
    let sum: f64 = cu
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            if ordered {
                cv.get(i).map_or(0.0, |&d| reference(a, c, b, d, alpha))
            } else {
                cv.iter()
                    .map(|&d| reference(a, c, b, d, alpha))
                    .fold(0.0, f64::max)
            }
        })
        .sum();
    alpha + (1.0 - alpha) * sum / cu.len() as f64
}

fn close(x: f64, y: f64) -> bool {
    (x - y).abs() < 1e-12
}

fn select(column: &str) -> MatchTree {
    tree(&[
        ("Select", None),
        ("Projection", Some(0)),
        (column, Some(1)),
        ("From", Some(0)),
        ("t", Some(3)),
    ])
}

#[test]
fn one_wrong_column_hand_computed() {
    // Projection: 0.5 + 0.5·0 = 0.5; From: 1; root: 0.5 + 0.5·(0.5 + 1)/2 = 0.875.
    let s = match_scores(&select("a"), &select("b"), 0.5, 1.0).unwrap();
    assert!(close(s.precision, 0.875) && close(s.recall, 0.875) && close(s.f_beta, 0.875));
}

#[test]
fn missing_column_is_a_recall_loss() {
    let gold = tree(&[("Project", None), ("a", Some(0)), ("b", Some(0))]);
    let pred = tree(&[("Project", None), ("a", Some(0))]);
    let s = match_scores(&gold, &pred, 0.5, 1.0).unwrap();
    assert_eq!((s.precision, s.recall), (1.0, 0.75));
    assert!(close(s.f_beta, 2.0 * 0.75 / 1.75));
    // β = 2 weighs recall: 5·0.75 / (4 + 0.75).
    let s2 = match_scores(&gold, &pred, 0.5, 2.0).unwrap();
    assert!(close(s2.f_beta, 3.75 / 4.75));
    // β = 0.5 weighs precision: 1.25·0.75 / (0.25 + 0.75).
    let s_half = match_scores(&gold, &pred, 0.5, 0.5).unwrap();
    assert!(close(s_half.f_beta, 0.9375));
}

#[test]
fn childless_partner_scores_alpha() {
    let gold = tree(&[("Filter", None), ("x", Some(0))]);
    let pred = tree(&[("Filter", None)]);
    assert_eq!(node_match(&gold, 0, &pred, 0, 0.3), Some(0.3));
    assert_eq!(node_match(&pred, 0, &gold, 0, 0.3), Some(1.0));
}

#[test]
fn best_partner_is_chosen_per_child() {
    // Children of the gold root each pick their best partner; partners may repeat.
    let gold = tree(&[
        ("And", None),
        ("Eq", Some(0)),
        ("x", Some(1)),
        ("one", Some(1)),
        ("Eq", Some(0)),
        ("x", Some(4)),
        ("two", Some(4)),
    ]);
    let pred = tree(&[
        ("And", None),
        ("Eq", Some(0)),
        ("x", Some(1)),
        ("one", Some(1)),
    ]);
    // Eq(x, one) vs Eq(x, one) = 1; Eq(x, two) vs Eq(x, one) = 0.5 + 0.5·0.5 = 0.75.
    let recall = node_match(&gold, 0, &pred, 0, 0.5).unwrap();
    assert!(close(recall, 0.5 + 0.5 * (1.0 + 0.75) / 2.0));
    assert_eq!(node_match(&pred, 0, &gold, 0, 0.5), Some(1.0));
}

#[test]
fn kinds_must_agree() {
    let mut a = MatchTree::new();
    a.push("x", Computing, None);
    let mut b = MatchTree::new();
    b.push("x", Content, None);
    assert_eq!(match_scores(&a, &b, 0.5, 1.0).unwrap().f_beta, 0.0);
}

#[test]
fn ordered_children_match_by_position() {
    let minus = |l: &str, r: &str| {
        let mut t = tree(&[("Minus", None), (l, Some(0)), (r, Some(0))]);
        t.set_ordered(0, true);
        t
    };
    let (ab, ba) = (minus("a", "b"), minus("b", "a"));
    assert_eq!(match_scores(&ab, &ab, 0.5, 1.0).unwrap().f_beta, 1.0);
    assert_eq!(node_match(&ab, 0, &ba, 0, 0.5), Some(0.5));
    // Unordered, the swap goes unnoticed.
    let plain = tree(&[("Minus", None), ("b", Some(0)), ("a", Some(0))]);
    assert_eq!(
        node_match(
            &plain,
            0,
            &tree(&[("Minus", None), ("a", Some(0)), ("b", Some(0))]),
            0,
            0.5
        ),
        Some(1.0)
    );
    // Either side being ordered is enough, and a missing position scores 0.
    assert_eq!(node_match(&plain, 0, &ab, 0, 0.5), Some(0.5));
    let short = tree(&[("Minus", None), ("a", Some(0))]);
    assert_eq!(node_match(&ab, 0, &short, 0, 0.5), Some(0.75));
}

#[test]
fn empty_trees() {
    let empty = MatchTree::new();
    let one = select("a");
    assert_eq!(match_scores(&empty, &empty, 0.5, 1.0).unwrap().f_beta, 1.0);
    let s = match_scores(&empty, &one, 0.5, 1.0).unwrap();
    assert_eq!((s.precision, s.recall, s.f_beta), (0.0, 0.0, 0.0));
    assert_eq!(match_scores(&one, &empty, 0.5, 1.0).unwrap().f_beta, 0.0);
}

#[test]
fn f_beta_edges() {
    assert_eq!(f_beta(0.0, 0.0, 1.0), 0.0);
    assert_eq!(f_beta(1.0, 0.0, 1.0), 0.0);
    assert_eq!(f_beta(1.0, 1.0, 0.5), 1.0);
    assert!(close(f_beta(0.5, 1.0, 1.0), 2.0 / 3.0));
}

#[test]
fn deep_chains_do_not_recurse() {
    let mut a = MatchTree::new();
    let mut parent = a.push("N", Computing, None);
    for _ in 0..200_000 {
        parent = a.push("N", Computing, Some(parent));
    }
    let s = match_scores(&a, &a, 0.5, 1.0).unwrap();
    assert_eq!(s.f_beta, 1.0);
    // The same chain with an extra leaf: the α-loss at the bottom halves at every level above it.
    let mut b = a.clone();
    b.push("leaf", Content, Some(parent));
    assert_eq!(node_match(&b, 0, &a, 0, 0.5), Some(1.0)); // 1 − 2^−200001 rounds to 1
    let mut short = MatchTree::new();
    let mut p = short.push("N", Computing, None);
    for _ in 0..20 {
        p = short.push("N", Computing, Some(p));
    }
    let mut longer = short.clone();
    longer.push("leaf", Content, Some(p));
    let r = node_match(&longer, 0, &short, 0, 0.5).unwrap();
    assert!(close(r, 1.0 - 0.5f64.powi(21)));
}

#[test]
fn budget_gives_none() {
    // Two stars with 1,000 equal leaves: 1 + 10⁶ pair visits... unless a perfect partner cuts the
    // search short, so make every leaf distinct on one side.
    let mut a = MatchTree::new();
    let mut b = MatchTree::new();
    let (ra, rb) = (a.push("R", Computing, None), b.push("R", Computing, None));
    for i in 0..1000 {
        a.push(&format!("a{i}"), Content, Some(ra));
        b.push(&format!("b{i}"), Content, Some(rb));
    }
    assert_eq!(node_match_within(&a, 0, &b, 0, 0.5, 1_000_001), Some(0.5));
    assert_eq!(node_match_within(&a, 0, &b, 0, 0.5, 1_000_000), None);
    assert_eq!(match_scores_within(&a, &b, 0.5, 1.0, 10), None);
}

#[test]
fn from_tree_keeps_shape_and_preorder() {
    let mut lt = crate::tree::LabelledTree::with_root("Select");
    let p = lt.add_child(0, "Projection");
    lt.add_child(p, "Column:a");
    let f = lt.add_child(0, "From");
    lt.add_child(f, "Table:t");
    let m = MatchTree::from_tree(&lt, |label, leaf| {
        (if leaf { Content } else { Computing }, label == "From")
    });
    let labels: Vec<&str> = (0..m.len()).map(|i| m.label(i)).collect();
    assert_eq!(
        labels,
        ["Select", "Projection", "Column:a", "From", "Table:t"]
    );
    assert_eq!(m.children(0), &[1, 3]);
    assert_eq!(
        (m.kind(2), m.kind(3), m.is_ordered(3)),
        (Content, Computing, true)
    );
    assert!(
        MatchTree::from_tree(&crate::tree::LabelledTree::empty(), |_, _| (Content, false))
            .is_empty()
    );
}

#[test]
#[should_panic(expected = "already has a root")]
fn second_root_is_a_bug() {
    let mut t = MatchTree::new();
    t.push("a", Content, None);
    t.push("b", Content, None);
}

/// Random trees of up to `max` nodes over a small alphabet (so labels collide often), with some
/// nodes ordered.
fn arb_tree(max: usize) -> impl Strategy<Value = MatchTree> {
    prop::collection::vec(
        (any::<prop::sample::Index>(), 0u8..4, any::<bool>(), 0u8..5),
        0..max,
    )
    .prop_map(|rows| {
        let mut t = MatchTree::new();
        for (i, (parent, label, content, ordered)) in rows.into_iter().enumerate() {
            let kind = if content { Content } else { Computing };
            let parent = (i > 0).then(|| parent.index(i));
            let id = t.push(&format!("L{label}"), kind, parent);
            t.set_ordered(id, ordered == 0);
        }
        t
    })
}

proptest! {
    #[test]
    fn matches_the_recursive_definition(a in arb_tree(24), b in arb_tree(24), alpha in 0.0f64..=1.0) {
        if !a.is_empty() && !b.is_empty() {
            let fast = node_match(&a, 0, &b, 0, alpha).unwrap();
            prop_assert!((fast - reference(&a, 0, &b, 0, alpha)).abs() < 1e-9);
        }
    }

    #[test]
    fn scores_are_bounded_and_swap_exchanges_p_and_r(
        a in arb_tree(30), b in arb_tree(30), alpha in 0.0f64..=1.0, beta in 0.1f64..4.0
    ) {
        let ab = match_scores(&a, &b, alpha, beta).unwrap();
        let ba = match_scores(&b, &a, alpha, beta).unwrap();
        prop_assert_eq!((ab.precision, ab.recall), (ba.recall, ba.precision));
        for x in [ab.precision, ab.recall, ab.f_beta] {
            prop_assert!((0.0..=1.0).contains(&x));
        }
        if beta == 1.0 {
            prop_assert_eq!(ab.f_beta, ba.f_beta);
        }
    }

    #[test]
    fn identical_trees_score_one(a in arb_tree(40), alpha in 0.0f64..=1.0, beta in 0.1f64..4.0) {
        prop_assert_eq!(match_scores(&a, &a.clone(), alpha, beta).unwrap().f_beta, 1.0);
    }

    #[test]
    fn alpha_one_is_root_label_equality(a in arb_tree(20), b in arb_tree(20)) {
        prop_assume!(!a.is_empty() && !b.is_empty());
        let same = a.label(0) == b.label(0) && a.kind(0) == b.kind(0);
        let s = match_scores(&a, &b, 1.0, 1.0).unwrap();
        prop_assert_eq!(s.f_beta, if same { 1.0 } else { 0.0 });
    }

    #[test]
    fn matching_roots_score_at_least_alpha(a in arb_tree(20), b in arb_tree(20), alpha in 0.0f64..=1.0) {
        prop_assume!(!a.is_empty() && !b.is_empty());
        let s = node_match(&a, 0, &b, 0, alpha).unwrap();
        if a.label(0) == b.label(0) && a.kind(0) == b.kind(0) {
            prop_assert!(s >= alpha - 1e-12);
        } else {
            prop_assert_eq!(s, 0.0);
        }
    }
}
