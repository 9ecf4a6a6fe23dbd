//! AST-TE: Zhang–Shasha tree edit distance between normalized SQL ASTs, and the similarity built on it.

use crate::prepare::prepare;
use crate::tree::zhang_shasha::tree_edit_distance;
use crate::tree::LabelledTree;

/// Similarity of two trees in [0, 1]: 1 − TED / max(|T1|, |T2|), clamped; 1.0 when both are empty.
pub fn tree_similarity(a: &LabelledTree, b: &LabelledTree) -> f64 {
    let largest = a.len().max(b.len());
    if largest == 0 {
        return 1.0;
    }
    let ted = tree_edit_distance(a, b) as f64;
    (1.0 - ted / largest as f64).clamp(0.0, 1.0)
}

/// AST-TE similarity of two SQL texts in [0, 1]; 1.0 for identical queries, 0.0 when either does not parse.
///
/// ```
/// assert_eq!(sqlsim::metrics::ast_ted::similarity("SELECT a FROM t", "select A from T"), 1.0);
/// assert_eq!(sqlsim::metrics::ast_ted::similarity("SELECT a FROM t", "SELEC"), 0.0);
/// ```
pub fn similarity(a: &str, b: &str) -> f64 {
    let (pa, pb) = (prepare(a), prepare(b));
    if !pa.is_ok() || !pb.is_ok() {
        return 0.0;
    }
    tree_similarity(&pa.tree, &pb.tree)
}

/// Raw tree edit distance between two SQL texts, `None` when either does not parse.
///
/// ```
/// assert_eq!(sqlsim::metrics::ast_ted::distance("SELECT a FROM t", "SELECT a FROM t"), Some(0));
/// ```
pub fn distance(a: &str, b: &str) -> Option<u32> {
    let (pa, pb) = (prepare(a), prepare(b));
    if !pa.is_ok() || !pb.is_ok() {
        return None;
    }
    Some(tree_edit_distance(&pa.tree, &pb.tree))
}
