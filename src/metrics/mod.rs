//! Similarity metrics: pure functions from prepared queries to scores, one file per metric.

pub mod ast_ted;
pub mod astpm;
pub mod partial_match;
pub mod relpm;
pub mod similarity;
pub mod spider;
