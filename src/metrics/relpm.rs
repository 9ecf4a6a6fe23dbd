//! RelPM: FuncEvalGMN's partial matching over the optimized logical plans of the two queries.

use super::partial_match::{partial_match, PartialMatchScore};
use crate::error::Result;
use crate::plan::match_tree::match_tree;
use crate::plan::prepared::prepare_plan;

/// RelPM scores of a pair: precision, recall and F-β over the plans' match trees; all 0.0 when
/// either query cannot be planned (as AST-TE scores SQL that does not parse); `Ok(None)` beyond
/// the matching budget. Errors only for a bad schema argument. With `schema` `None`, each query
/// is planned against the tables and columns it references itself.
pub fn relpm(
    gold: &str,
    pred: &str,
    schema: Option<&str>,
    alpha: f64,
    beta: f64,
) -> Result<Option<PartialMatchScore>> {
    let (g, p) = (prepare_plan(gold, schema)?, prepare_plan(pred, schema)?);
    match (&g.plan, &p.plan) {
        (Ok(gp), Ok(pp)) => Ok(partial_match(&match_tree(gp), &match_tree(pp), alpha, beta)),
        _ => Ok(Some(PartialMatchScore {
            precision: 0.0,
            recall: 0.0,
            f_beta: 0.0,
        })),
    }
}
