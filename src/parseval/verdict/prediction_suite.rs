//! The prediction's own search, kept per (schema, plan, literals, options, units left): predictions that plan alike share it.
//!
//! A verdict's own search for the prediction (`Checker::search`) generates databases from the
//! prediction's optimized plan, the gold's literals besides its own, the prediction's options and
//! the units left in its share of the budget; nothing else enters it (a fresh Z3 context per
//! instance size, the units counted from zero). Two predictions of one gold spelled differently
//! (aliases, case, what normalization and the plan rules make equal) have one plan and so get the
//! same databases. A search runs in a meter of its own holding the units left to it
//! (`Work::part`), and every call that uses it is charged what it spent, as a call that uses a
//! gold's suite is (gold_suite.rs). A search stopped by the wall-clock safety cap is never kept.
//! Both queries still run as written on every database.

use std::sync::Arc;

use super::gold_suite::schema_key;
use crate::cache::NamedCache;
use crate::parseval::options::Options;
use crate::parseval::search::generate::{generate, Generated};
use crate::parseval::search::work_budget::Budget;
use crate::plan::QueryPlan;
use crate::schema::Schema;

/// One prediction search's databases and the units it spent.
struct PredictionSuite {
    generated: Arc<Generated>,
    spent: u64,
    capped: bool,
}

/// Recent prediction searches. The key holds the plan's full structure, a few KiB for a Spider
/// or BIRD query; 512 searches cover the predictions of a rollout batch's golds.
static PREDICTION_SUITES: NamedCache<PredictionSuite> =
    NamedCache::new("parseval_prediction_suites", 512);

/// The databases of `plan`'s own search under `budget` (`also`: the other query's literals),
/// from the cache or generated now in a meter of its own; the call is charged the units it cost
/// either way. `schema_text` is the schema argument (None: `schema` was inferred from the call's
/// queries).
pub(super) fn prediction_suite(
    (schema_text, schema): (Option<&str>, &Schema),
    plan: &QueryPlan,
    opts: &Options,
    budget: Budget<'_>,
    also: &[String],
) -> Arc<Generated> {
    let work = budget.work();
    let left = budget.left();
    let key = format!(
        "{}\u{1}{opts:?}\u{1}{left}\u{1}{also:?}\u{1}{plan:?}",
        schema_key(schema_text, schema),
    );
    // in a meter of its own with the units left, as the search has them in the call's
    let search = || {
        let own = work.part(left);
        let generated = generate(plan, schema, opts, own.all(), also);
        PredictionSuite {
            generated: Arc::new(generated),
            spent: own.spent(),
            capped: own.capped(),
        }
    };
    let suite = PREDICTION_SUITES
        .get()
        .get_or_insert_if(&key, search, |s| !s.capped);
    work.charge(suite.spent, suite.capped);
    Arc::clone(&suite.generated)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parseval::search::work_budget::Work;

    const DDL: &str = "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER NOT NULL, b TEXT)";

    #[test]
    fn spellings_of_one_plan_share_a_search_and_its_cost() {
        let schema = crate::schema::schema_argument(DDL).unwrap().schema.clone();
        let plan = |sql: &str| crate::plan::plan_sql(sql, &schema).unwrap();
        let (p, q) = (
            plan("SELECT a FROM t WHERE b = 'prediction suite' AND a < 9"),
            plan("select a from T where b='prediction suite' and a<9"),
        );
        let opts = Options::default();
        let also = vec!["gold literal".to_string()];
        let run = |plan: &QueryPlan| {
            let work = Work::new(400_000, 600_000);
            let g = prediction_suite((Some(DDL), &schema), plan, &opts, work.all(), &also);
            (g, work.spent())
        };
        let (first, spent) = run(&p);
        let (again, charged) = run(&q);
        assert!(Arc::ptr_eq(&first, &again), "the second spelling reuses it");
        assert_eq!(spent, charged, "and is charged what it cost");
        assert!(spent > 0 && first.instances.len() > 1);
        // fresh, the search gives the same databases
        let work = Work::new(400_000, 600_000);
        let fresh = generate(&q, &schema, &opts, work.all(), &also);
        let dbs = |g: &Generated| g.instances.iter().map(|i| i.db.clone()).collect::<Vec<_>>();
        assert_eq!(dbs(&fresh), dbs(&first));
        assert_eq!(work.spent(), spent);
        // another budget or other literals are another search
        let other = Work::new(300_000, 600_000);
        let fewer = prediction_suite((Some(DDL), &schema), &p, &opts, other.all(), &also);
        assert!(!Arc::ptr_eq(&first, &fewer));
        let none = Work::new(400_000, 600_000);
        let bare = prediction_suite((Some(DDL), &schema), &p, &opts, none.all(), &[]);
        assert!(!Arc::ptr_eq(&first, &bare));
    }
}
