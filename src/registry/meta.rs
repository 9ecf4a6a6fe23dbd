//! What sqlsim says about itself (`sqlsim_version`, `sqlsim_debug`, `sqlsim_functions`, `sql_ast_nodes`): version, build facts, the function list and tree dumps.

use super::{Host, Output, SCALAR_FUNCTIONS, TABLE_FUNCTIONS};
use crate::tree::{LabelledTree, Tree};
use serde_json::{json, Value as Json};

/// The crate version and the git commit it was built from.
pub fn version_string() -> String {
    format!(
        "sqlsim {} ({})",
        env!("CARGO_PKG_VERSION"),
        option_env!("SQLSIM_GIT_HASH").unwrap_or("unknown")
    )
}

/// Build and runtime facts as JSON, for `sqlsim_debug()`.
pub fn debug_json(host: Host) -> Json {
    json!({
        "version": env!("CARGO_PKG_VERSION"),
        "git": option_env!("SQLSIM_GIT_HASH").unwrap_or("unknown"),
        "host": host.name(),
        "features": ["ast_ted", "astpm", "relpm", "sql_plan", "plan_cache", "spider_eval", "exec_match", "parse_cache", "rayon"],
        "functions": SCALAR_FUNCTIONS.len() + TABLE_FUNCTIONS.len(),
        "threads": rayon::current_num_threads(),
        "z3": crate::parseval::search::solver::z3_version(),
        "sqlite": crate::exec::engine::version(),
        "limits": {
            "max_sql_bytes": crate::parse::MAX_SQL_BYTES,
            "max_tree_nodes": crate::query_tree::MAX_TREE_NODES,
            "max_match_node_pairs": crate::tree::node_match::MAX_NODE_PAIRS,
            "max_plan_depth": crate::plan::build::MAX_BUILD_DEPTH,
            "max_plan_columns": crate::plan::build::MAX_PLAN_COLUMNS,
            "max_plan_expressions": crate::plan::build::MAX_PLAN_EXPRESSIONS,
            "max_rule_passes": crate::plan::rules::MAX_PASSES,
            "parseval_default_work": crate::parseval::options::DEFAULT_WORK,
            "parseval_max_units_per_check": crate::parseval::search::work_budget::MAX_UNITS_PER_CHECK,
            "parseval_default_timeout_ms": crate::parseval::options::DEFAULT_TIMEOUT_MS,
            "parseval_steps_per_query": crate::exec::instance::MAX_STEPS_PER_QUERY,
            "z3_memory_max_mb": crate::parseval::search::solver::MAX_MEMORY_MB,
        },
        "cache_entries": crate::cache::entries("query_trees"),
        "plan_cache_entries": crate::cache::entries("plans"),
        "caches": caches_json(),
        "stages": stages_json(),
    })
}

/// Every cache used so far: `{name: {capacity, entries}}` ([`crate::cache::report`]).
fn caches_json() -> Json {
    named_objects(crate::cache::report().into_iter().map(|c| {
        let info = json!({"capacity": c.capacity, "entries": c.entries});
        (c.name, info)
    }))
}

/// The stage timings of the similarity calls so far (`{stage: {seconds, count}}`,
/// [`crate::profile::report`]); null unless the process runs with `SQLSIM_PROFILE=1`.
fn stages_json() -> Json {
    if !crate::profile::enabled() {
        return Json::Null;
    }
    named_objects(crate::profile::report().into_iter().map(|s| {
        let info = json!({"seconds": s.seconds, "count": s.count});
        (s.name, info)
    }))
}

/// One JSON object of `(name, value)` pairs, in their order.
fn named_objects<'a>(entries: impl Iterator<Item = (&'a str, Json)>) -> Json {
    Json::Object(entries.map(|(name, v)| (name.to_string(), v)).collect())
}

/// Rows of `sqlsim_functions()`.
pub fn function_rows() -> Vec<Vec<Output>> {
    let scalars = SCALAR_FUNCTIONS
        .iter()
        .map(|f| (f.name, "scalar", f.signature(), f.doc));
    let tables = TABLE_FUNCTIONS
        .iter()
        .map(|f| (f.name, "table", f.signature(), f.doc));
    scalars
        .chain(tables)
        .map(|(name, kind, sig, doc)| {
            vec![
                Output::Text(name.into()),
                Output::Text(kind.into()),
                Output::Text(sig),
                Output::Text(doc.into()),
            ]
        })
        .collect()
}

/// Rows of `sql_ast_nodes()`: (node, parent, depth, label) in pre-order.
pub fn tree_rows(tree: &LabelledTree) -> Vec<Vec<Output>> {
    let mut rows = Vec::with_capacity(tree.len());
    let Some(root) = tree.root() else {
        return rows;
    };
    let mut stack = vec![(root, None::<usize>, 0i64)];
    while let Some((node, parent, depth)) = stack.pop() {
        rows.push(vec![
            Output::Integer(node as i64),
            parent.map_or(Output::Null, |p| Output::Integer(p as i64)),
            Output::Integer(depth),
            Output::Text(tree.label(node).to_string()),
        ]);
        for &c in tree.children(node).iter().rev() {
            stack.push((c, Some(node), depth + 1));
        }
    }
    rows
}
