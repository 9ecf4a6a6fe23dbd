//! Plans cached per (schema, query text), with the RelPM match tree built once beside each plan.

use super::QueryPlan;
use crate::cache::NamedCache;
use crate::schema::{ParsedSchema, Schema};
use crate::tree::node_match::MatchTree;
use std::sync::Arc;

/// Number of plans kept in memory.
const PLAN_CACHE_CAPACITY: usize = 8_192;

/// The optimized plan of a query, or why it could not be planned.
#[derive(Debug)]
pub struct CachedPlan {
    pub plan: std::result::Result<QueryPlan, super::PlanError>,
    /// The plan's RelPM tree (empty when the query could not be planned).
    pub tree: MatchTree,
}

static CACHE: NamedCache<CachedPlan> = NamedCache::new("plans", PLAN_CACHE_CAPACITY);

/// The plan of `sql` against a parsed schema argument, or against the schema inferred from the
/// query itself when `schema` is `None`; a query that cannot be planned gives a `CachedPlan`
/// holding the reason.
pub fn cached_plan(sql: &str, schema: Option<&ParsedSchema>) -> Arc<CachedPlan> {
    let key = match schema {
        Some(s) => format!("{:016x}\u{1}{sql}", s.fingerprint()),
        None => format!("-\u{1}{sql}"),
    };
    CACHE.get().get_or_insert_with(&key, || {
        let plan = match schema {
            Some(s) => super::plan_sql(sql, &s.schema),
            None => plan_with_inferred_schema(sql),
        };
        let tree = match &plan {
            Ok(p) => super::match_tree::match_tree(p),
            Err(_) => MatchTree::new(),
        };
        CachedPlan { plan, tree }
    })
}

/// Plans `sql` against the tables and columns it references itself (parsing it once): a plan is
/// of one query, so its schema is inferred from that query alone (policy in `schema::infer`).
pub fn plan_with_inferred_schema(sql: &str) -> std::result::Result<QueryPlan, super::PlanError> {
    let statements = super::parse_query(sql)?;
    let schema = Schema::infer(&statements);
    super::plan_parsed(&statements, &schema)
}
