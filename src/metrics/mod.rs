//! Similarity metrics: pure functions from prepared queries to scores, one file per metric.

pub mod ast_ted;
pub mod astpm;
pub mod relpm;
pub mod spider;

/// Default α, the weight of a node's own match against its children's: the best mean ROC AUC of
/// `astpm` over the five labeled public sets on the grid α ∈ {0.1, …, 0.9} × β ∈ {0.5, 1, 2}
/// (0.8166; the grid, per-set figures and caveats are in `docs/partial-match-tuning.md`). A high α
/// ranks pairs mostly by their upper levels and keeps scores of matching roots in [α, 1].
pub const DEFAULT_ALPHA: f64 = 0.9;

/// Default β of F-β: 0.5 weighs precision (how much of the prediction the gold query supports)
/// more than recall; best on every α of the grid (`docs/partial-match-tuning.md`).
pub const DEFAULT_BETA: f64 = 0.5;
