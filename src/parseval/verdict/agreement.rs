//! How often two queries agree: the share of the gold's generated databases on which both give the same result, a graded measure of a difference the verdict found.
//!
//! A verdict stops at the strongest difference it finds; it does not say whether the two queries
//! part on one corner of the data or on nearly every database. The gold's suite
//! ([`super::gold_suite`], cached per gold, so every prediction of a gold is measured on the
//! same databases) covers each branch of the gold's plan once: a prediction that people accept
//! although it differs (a join that a real database never leaves empty, a NULL no row holds)
//! agrees with the gold on most of them, a wrong one on few. `sql_similarity` with the option
//! `agreement` places a pair found different by the mean of its structural score and this share
//! (docs/similarity.md#agreement).

use super::checker::row_order;
use super::decide::prepared;
use super::gold_suite::gold_suite;
use crate::error::Result;
use crate::exec::instance::{compare_lenient, open_database};
use crate::parseval::options::Options;

/// The share of the gold's generated databases that hold rows and on which `gold` and `pred`
/// give the same result, compared as the verdict under `opts` compares them (its semantics and
/// shape leniencies). None when the gold cannot be planned or runs on none of them.
pub fn agreement_share(
    gold: &str,
    pred: &str,
    schema: Option<&str>,
    opts: &Options,
) -> Result<Option<f64>> {
    let (gold, pred, s) = prepared(gold, pred, schema, opts)?;
    let (gold, pred) = (gold.as_ref(), pred.as_ref());
    let Ok(plan) = crate::plan::plan_sql(gold, &s) else {
        return Ok(None);
    };
    let suite = gold_suite(schema, &s, gold, &plan, opts);
    let order = row_order(&plan);
    let (mut same, mut tried) = (0usize, 0usize);
    for instance in &suite.generated.instances {
        if instance.db.tables.iter().all(|t| t.rows.is_empty()) {
            continue;
        }
        let Ok(conn) = open_database(&s, &instance.db) else {
            continue;
        };
        let c = compare_lenient(&conn, gold, pred, (&order, opts.semantics), &opts.leniency);
        if c.gold_failed {
            continue;
        }
        tried += 1;
        same += usize::from(!c.differ);
    }
    Ok((tried > 0).then(|| same as f64 / tried as f64))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DDL: &str = "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER NOT NULL, b TEXT)";

    fn share(gold: &str, pred: &str) -> Option<f64> {
        agreement_share(gold, pred, Some(DDL), &Options::default()).unwrap()
    }

    #[test]
    fn equivalent_queries_agree_everywhere_and_disjoint_ones_rarely() {
        assert_eq!(
            share("SELECT a FROM t WHERE a > 1", "SELECT a FROM t WHERE 1 < a"),
            Some(1.0)
        );
        let opposite = share(
            "SELECT a FROM t WHERE a > 1",
            "SELECT a FROM t WHERE a <= 1",
        );
        let corner = share(
            "SELECT a FROM t WHERE a > 1",
            "SELECT a FROM t WHERE a >= 1",
        );
        let (opposite, corner) = (opposite.unwrap(), corner.unwrap());
        assert!(opposite < 1.0 && corner < 1.0, "{opposite} {corner}");
        // a difference at one boundary value agrees on more databases than the negation
        assert!(corner > opposite, "{corner} <= {opposite}");
    }

    #[test]
    fn a_gold_that_cannot_be_planned_has_no_share() {
        assert_eq!(share("SELECT nope FROM missing", "SELECT a FROM t"), None);
    }
}
