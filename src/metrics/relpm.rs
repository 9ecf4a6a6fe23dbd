//! RelPM: FuncEvalGMN's partial matching over the optimized logical plans of the two queries.

use crate::plan::cached::cached_plan;
use crate::schema::ParsedSchema;
use crate::tree::node_match::{match_scores, MatchScores};

/// RelPM scores of a pair: precision, recall and F-β over the plans' match trees (built once per
/// cached plan); all 0.0 when either query cannot be planned (as AST-TE scores SQL that does not
/// parse); `None` beyond the matching budget. With `schema` `None`, each query is planned against
/// the tables and columns it references itself.
pub fn relpm(
    gold: &str,
    pred: &str,
    schema: Option<&ParsedSchema>,
    alpha: f64,
    beta: f64,
) -> Option<MatchScores> {
    let (g, p) = (cached_plan(gold, schema), cached_plan(pred, schema));
    if g.plan.is_err() || p.plan.is_err() {
        return Some(MatchScores {
            precision: 0.0,
            recall: 0.0,
            f_beta: 0.0,
        });
    }
    match_scores(&g.tree, &p.tree, alpha, beta)
}
