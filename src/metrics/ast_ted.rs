//! AST-TE: Zhang–Shasha tree edit distance between normalized SQL ASTs, and the similarity built on it.

use crate::query_tree::{self, QueryTree};
use crate::tree::zhang_shasha::{tree_edit_distance, tree_edit_distance_within};
use crate::tree::LabelledTree;

/// Most dynamic-programme cells one comparison may fill (about a second of work); pathological
/// tree shapes beyond it give NULL instead of hanging the statement.
pub const MAX_DP_CELLS: u64 = 300_000_000;

/// Similarity of two trees in [0, 1]: 1 − TED / max(|T1|, |T2|), clamped; 1.0 when both are empty.
pub fn tree_similarity(a: &LabelledTree, b: &LabelledTree) -> f64 {
    similarity_from_distance(a, b, tree_edit_distance(a, b))
}

fn similarity_from_distance(a: &LabelledTree, b: &LabelledTree, ted: u32) -> f64 {
    let largest = a.len().max(b.len());
    if largest == 0 {
        return 1.0;
    }
    (1.0 - f64::from(ted) / largest as f64).clamp(0.0, 1.0)
}

/// Both query trees when both parsed.
fn both_parsed(a: &str, b: &str) -> Option<(std::sync::Arc<QueryTree>, std::sync::Arc<QueryTree>)> {
    let (pa, pb) = (query_tree::cached(a), query_tree::cached(b));
    (pa.is_ok() && pb.is_ok()).then_some((pa, pb))
}

/// AST-TE similarity of two SQL texts in [0, 1]: 1.0 for queries equal after normalization, 0.0
/// when either does not parse, `None` when the pair exceeds [`MAX_DP_CELLS`].
///
/// ```
/// use sqlsim::metrics::ast_ted::ast_ted;
/// assert_eq!(ast_ted("SELECT a FROM t", "select A from T"), Some(1.0));
/// assert_eq!(ast_ted("SELECT a FROM t", "SELEC"), Some(0.0));
/// ```
pub fn ast_ted(a: &str, b: &str) -> Option<f64> {
    let Some((pa, pb)) = both_parsed(a, b) else {
        return Some(0.0);
    };
    let ted = tree_edit_distance_within(&pa.tree, &pb.tree, MAX_DP_CELLS)?;
    Some(similarity_from_distance(&pa.tree, &pb.tree, ted))
}

/// Raw tree edit distance between two SQL texts; `None` when either does not parse or the pair
/// exceeds [`MAX_DP_CELLS`].
///
/// ```
/// assert_eq!(sqlsim::metrics::ast_ted::ast_ted_distance("SELECT a FROM t", "SELECT a FROM t"), Some(0));
/// ```
pub fn ast_ted_distance(a: &str, b: &str) -> Option<u32> {
    let (pa, pb) = both_parsed(a, b)?;
    tree_edit_distance_within(&pa.tree, &pb.tree, MAX_DP_CELLS)
}
