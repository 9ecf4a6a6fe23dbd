//! Plans cached per (schema, query text), and schema arguments parsed once per distinct text.

use super::QueryPlan;
use crate::cache::TextCache;
use crate::error::Result;
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
}

fn plan_cache() -> &'static TextCache<PreparedPlan> {
    static CACHE: OnceLock<TextCache<PreparedPlan>> = OnceLock::new();
    CACHE.get_or_init(|| TextCache::new(PLAN_CACHE_CAPACITY))
}

fn schema_cache() -> &'static TextCache<Result<Schema>> {
    static CACHE: OnceLock<TextCache<Result<Schema>>> = OnceLock::new();
    CACHE.get_or_init(|| TextCache::new(SCHEMA_CACHE_CAPACITY))
}

/// The parsed schema argument `text` (cached), or its argument error.
pub fn schema_argument(text: &str) -> Result<Arc<Result<Schema>>> {
    let parsed = schema_cache().get_or_insert_with(text, || Schema::from_argument(text));
    match &*parsed {
        Ok(_) => Ok(parsed),
        Err(e) => Err(e.clone()),
    }
}

fn fingerprint(text: &str) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

/// The plan of `sql` against the schema given as text, or against the schema inferred from the
/// query itself when `schema` is `None`. Fails only for a bad schema argument; a query that
/// cannot be planned gives a `PreparedPlan` holding the reason.
pub fn prepare_plan(sql: &str, schema: Option<&str>) -> Result<Arc<PreparedPlan>> {
    let key = match schema {
        Some(s) => format!("{:016x}\u{1}{sql}", fingerprint(s)),
        None => format!("-\u{1}{sql}"),
    };
    let schema = match schema {
        Some(s) => Some(schema_argument(s)?),
        None => None,
    };
    Ok(plan_cache().get_or_insert_with(&key, || {
        let plan = match &schema {
            Some(s) => match &**s {
                Ok(schema) => super::plan_sql(sql, schema),
                Err(e) => Err(e.to_string()),
            },
            None => plan_with_inferred_schema(sql),
        };
        PreparedPlan { plan }
    }))
}

/// Plans `sql` against the tables and columns it references itself.
pub fn plan_with_inferred_schema(sql: &str) -> std::result::Result<QueryPlan, String> {
    if sql.len() > crate::prepare::MAX_SQL_BYTES {
        return Err(format!(
            "query is {} bytes, over sqlsim's limit of {}",
            sql.len(),
            crate::prepare::MAX_SQL_BYTES
        ));
    }
    let statements = crate::parse::parse_sql(sql).map_err(|e| e.to_string())?;
    let schema = Schema::infer(&statements);
    super::plan_sql(sql, &schema)
}

/// Number of plans currently cached (reported by `sqlsim_debug()`).
pub fn cached_plans() -> usize {
    plan_cache().len()
}
