//! The gold query's test databases, generated once per (schema, gold, options) and reused for every prediction of that gold.
//!
//! A verdict runs both queries on the gold's generated databases, then on the prediction's. The
//! gold's suite is generated from the gold alone (its own literals, no prediction's), under half
//! of the call's work budget in a work meter of its own: the same (schema, gold, options) give
//! the same databases and the same units spent, whichever prediction asks first and whatever
//! came before. A call that reuses a suite is charged the units its generation spent, so the
//! prediction's search gets the same share of the budget as when the suite is fresh. A suite
//! stopped by the wall-clock safety cap is never kept (it depends on the moment).

use std::sync::Arc;

use crate::cache::NamedCache;
use crate::parseval::options::Options;
use crate::parseval::search::generate::{generate, Generated};
use crate::parseval::search::work_budget::Work;
use crate::plan::QueryPlan;
use crate::schema::Schema;

/// A gold query's generated databases (the empty one first) and what generating them cost.
#[derive(Debug)]
pub struct GoldSuite {
    /// Shared with every verdict that uses the suite (never copied per call).
    pub generated: Arc<Generated>,
    /// Solver units the generation spent (charged to every call that uses the suite).
    pub spent: u64,
    /// The wall-clock safety cap stopped the generation (such a suite is not cached).
    pub capped: bool,
}

/// Suites of recent gold queries. A Spider gold's suite is a few generated databases of at most
/// `max_rows` rows per table (a few KiB); 512 of them cover the golds of an RL batch or of a
/// whole benchmark split with room to spare.
static GOLD_SUITES: NamedCache<GoldSuite> = NamedCache::new("parseval_gold_suites", 512);

/// The key of a suite: the schema (its argument text, or, when inferred from the queries, the
/// inferred model itself), the gold text and the options generation reads. How results are
/// compared (`semantics`, `keep_distinct`, the leniencies), whose databases decide (`databases`)
/// and how the prediction's search runs (`prediction_mode`) are not among them: `sql_equivalent`
/// (bag) and `sql_similarity` (test-suite) on one gold share its suite.
fn key(schema_text: Option<&str>, schema: &Schema, gold: &str, opts: &Options) -> String {
    let schema_part = schema_key(schema_text, schema);
    let generation = Options {
        semantics: Options::default().semantics,
        keep_distinct: Options::default().keep_distinct,
        databases: Options::default().databases,
        prediction_mode: Options::default().prediction_mode,
        rounds: Options::default().rounds,
        leniency: Options::default().leniency,
        ..*opts
    };
    format!(
        "{}\u{1}{gold}\u{1}{schema_part}\u{1}{generation:?}",
        gold.len()
    )
}

/// The part of a cache key that names the schema: its argument text, or, when it was inferred
/// from the call's queries (`schema_text` None), the inferred model itself.
pub(super) fn schema_key(schema_text: Option<&str>, schema: &Schema) -> String {
    match schema_text {
        Some(t) => format!("text{}\u{1}{t}", t.len()),
        None => format!("inferred\u{1}{schema:?}"),
    }
}

/// The suite of `gold` (planned as `plan`) against `schema`, from the cache or generated now.
/// `schema_text` is the schema argument (None: `schema` was inferred from the call's queries).
pub fn gold_suite(
    schema_text: Option<&str>,
    schema: &Schema,
    gold: &str,
    plan: &QueryPlan,
    opts: &Options,
) -> Arc<GoldSuite> {
    GOLD_SUITES.get().get_or_insert_if(
        &key(schema_text, schema, gold, opts),
        || generate_suite(schema, plan, opts),
        |s| !s.capped,
    )
}

/// Generates the suite in a work meter of its own, stopping at half the budget (the share the
/// gold's search had when it ran inside the call).
fn generate_suite(schema: &Schema, plan: &QueryPlan, opts: &Options) -> GoldSuite {
    let work = Work::new(opts.work, opts.timeout_ms);
    let generated = generate(plan, schema, opts, work.until(work.limit() / 2), &[]);
    GoldSuite {
        generated: Arc::new(generated),
        spent: work.spent(),
        capped: work.capped(),
    }
}

/// True when two queries have the same optimized plan (different spellings of one query: case,
/// spacing, what normalization and the rewrite rules make equal): a prediction with the gold's
/// plan would get the gold's databases from its own search too.
pub fn same_plan(a: &QueryPlan, b: &QueryPlan) -> bool {
    a.root == b.root
        && a.columns.len() == b.columns.len()
        && (0..a.columns.len() as u32).all(|id| {
            let (x, y) = (a.columns.meta(id), b.columns.meta(id));
            x.ty == y.ty && x.label == y.label && x.not_null == y.not_null && x.origin == y.origin
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const DDL: &str = "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER NOT NULL, b TEXT)";

    fn plan(sql: &str, schema: &Schema) -> QueryPlan {
        crate::plan::plan_sql(sql, schema).unwrap()
    }

    #[test]
    fn a_suite_is_generated_once_and_is_the_same_fresh() {
        let schema = crate::schema::schema_argument(DDL).unwrap().schema.clone();
        let gold = "SELECT a FROM t WHERE b = 'gold suite test' AND a > 4";
        let p = plan(gold, &schema);
        let opts = Options::default();
        let first = gold_suite(Some(DDL), &schema, gold, &p, &opts);
        let again = gold_suite(Some(DDL), &schema, gold, &p, &opts);
        assert!(
            Arc::ptr_eq(&first, &again),
            "the second call reuses the suite"
        );
        let fresh = generate_suite(&schema, &p, &opts);
        assert_eq!(fresh.spent, first.spent);
        let dbs = |g: &Generated| g.instances.iter().map(|i| i.db.clone()).collect::<Vec<_>>();
        assert_eq!(dbs(&fresh.generated), dbs(&first.generated));
        assert!(first.generated.instances.len() > 1 && first.spent > 0);
        use crate::parseval::options::{Databases, Mode, Semantics};
        // what comparison or the prediction's side reads does not key the suite
        for other in [
            Options {
                semantics: Semantics::TestSuite,
                ..Options::default()
            },
            Options {
                databases: Databases::Gold,
                prediction_mode: Mode::All,
                ..Options::default()
            },
        ] {
            let suite = gold_suite(Some(DDL), &schema, gold, &p, &other);
            assert!(Arc::ptr_eq(&first, &suite), "{other:?} reuses the suite");
        }
    }

    #[test]
    fn spellings_of_one_plan_are_the_same_plan() {
        let schema = crate::schema::schema_argument(DDL).unwrap().schema.clone();
        let a = plan("SELECT a FROM t WHERE a > 1", &schema);
        let b = plan("select  A from T where a>1", &schema);
        let c = plan("SELECT a FROM t WHERE a >= 1", &schema);
        assert!(same_plan(&a, &b));
        assert!(!same_plan(&a, &c));
    }
}
