//! Plans cached per (schema, query text), with the RelPM tree built once beside each plan, and
//! schema arguments parsed (and fingerprinted) once per distinct text.

use super::QueryPlan;
use crate::cache::TextCache;
use crate::error::Result;
use crate::tree::node_match::MatchTree;
use crate::schema::Schema;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, OnceLock};

/// Number of plans kept in memory.
const PLAN_CACHE_CAPACITY: usize = 8_192;
/// Number of parsed schema arguments kept in memory.
const SCHEMA_CACHE_CAPACITY: usize = 256;

/// The optimized plan of a query, or why it could not be planned.
#[derive(Debug)]
pub struct PreparedPlan {
    pub plan: std::result::Result<QueryPlan, String>,
    /// The plan's RelPM tree (empty when the query could not be planned).
    pub tree: MatchTree,
}

/// A schema argument, parsed, with a fingerprint of its text that keys the plans built on it.
#[derive(Debug)]
pub struct ParsedSchema {
    pub schema: Arc<Schema>,
    fingerprint: u64,
}

fn plan_cache() -> &'static TextCache<PreparedPlan> {
    static CACHE: OnceLock<TextCache<PreparedPlan>> = OnceLock::new();
    CACHE.get_or_init(|| TextCache::new(PLAN_CACHE_CAPACITY))
}

fn schema_cache() -> &'static TextCache<Result<Arc<ParsedSchema>>> {
    static CACHE: OnceLock<TextCache<Result<Arc<ParsedSchema>>>> = OnceLock::new();
    CACHE.get_or_init(|| TextCache::new(SCHEMA_CACHE_CAPACITY))
}

/// The parsed schema argument `text` (cached), or its argument error.
pub fn schema_argument(text: &str) -> Result<Arc<ParsedSchema>> {
    let parsed = schema_cache().get_or_insert_with(text, || {
        Schema::from_argument(text).map(|schema| {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            text.hash(&mut h);
            Arc::new(ParsedSchema {
                schema: Arc::new(schema),
                fingerprint: h.finish(),
            })
        })
    });
    (*parsed).clone()
}

/// The plan of `sql` against a parsed schema argument, or against the schema inferred from the
/// query itself when `schema` is `None`; a query that cannot be planned gives a `PreparedPlan`
/// holding the reason.
pub fn prepare_plan(sql: &str, schema: Option<&ParsedSchema>) -> Arc<PreparedPlan> {
    let key = match schema {
        Some(s) => format!("{:016x}\u{1}{sql}", s.fingerprint),
        None => format!("-\u{1}{sql}"),
    };
    plan_cache().get_or_insert_with(&key, || {
        let plan = match schema {
            Some(s) => super::plan_sql(sql, &s.schema),
            None => plan_with_inferred_schema(sql),
        };
        let tree = match &plan {
            Ok(p) => super::match_tree::match_tree(p),
            Err(_) => MatchTree::new(),
        };
        PreparedPlan { plan, tree }
    })
}

/// Plans `sql` against the tables and columns it references itself (parsing it once).
pub fn plan_with_inferred_schema(sql: &str) -> std::result::Result<QueryPlan, String> {
    let statements = super::parse_query(sql)?;
    let schema = Schema::infer(&statements);
    super::plan_parsed(&statements, &schema)
}

/// Number of plans currently cached (reported by `sqlsim_debug()`).
pub fn cached_plans() -> usize {
    plan_cache().len()
}
