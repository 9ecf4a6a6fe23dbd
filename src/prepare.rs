//! Text → parse → normalize → tree, once per distinct query text, through a bounded cache.

use crate::cache::TextCache;
use crate::normalize;
use crate::parse;
use crate::tree::LabelledTree;
use std::sync::{Arc, OnceLock};

/// Longest SQL text sqlsim will look at; longer input is treated as SQL that does not parse.
pub const MAX_SQL_BYTES: usize = 1 << 20;
/// Largest tree AST-TE will compare; larger queries are treated as SQL that does not parse.
pub const MAX_TREE_NODES: usize = 3_000;
/// Number of prepared queries kept in memory.
const CACHE_CAPACITY: usize = 8_192;

/// A query prepared for AST-TE: its labelled tree, or why it failed. The AST itself is dropped
/// once the tree is built: keeping thousands of sqlparser ASTs in the cache cost more in memory
/// traffic than re-parsing would save.
#[derive(Debug)]
pub struct PreparedQuery {
    /// `None` when the text parsed; otherwise the parser's message (or the limit that was exceeded).
    pub parse_error: Option<String>,
    /// The labelled tree of the normalized statements (empty when parsing failed).
    pub tree: LabelledTree,
}

impl PreparedQuery {
    fn failed(message: String) -> Self {
        Self {
            parse_error: Some(message),
            tree: LabelledTree::empty(),
        }
    }

    /// Prepares `sql` without the cache.
    pub fn build(sql: &str) -> Self {
        if sql.len() > MAX_SQL_BYTES {
            return Self::failed(format!(
                "query is {} bytes, over sqlsim's limit of {MAX_SQL_BYTES}",
                sql.len()
            ));
        }
        let statements = match parse::parse_sql(sql) {
            Ok(s) => normalize::normalize(s),
            Err(e) => return Self::failed(e.to_string()),
        };
        let tree = crate::tree::from_ast::statements_tree(&statements);
        if tree.len() > MAX_TREE_NODES {
            return Self::failed(format!(
                "query tree has {} nodes, over sqlsim's limit of {MAX_TREE_NODES}",
                tree.len()
            ));
        }
        Self {
            parse_error: None,
            tree,
        }
    }

    /// True when the text parsed.
    pub fn is_ok(&self) -> bool {
        self.parse_error.is_none()
    }
}

fn cache() -> &'static TextCache<PreparedQuery> {
    static CACHE: OnceLock<TextCache<PreparedQuery>> = OnceLock::new();
    CACHE.get_or_init(|| TextCache::new(CACHE_CAPACITY))
}

/// The prepared form of `sql`, from the cache when it was seen before.
pub fn prepare(sql: &str) -> Arc<PreparedQuery> {
    cache().get_or_insert_with(sql, || PreparedQuery::build(sql))
}

/// Number of queries currently cached (reported by `sqlsim_debug()`).
pub fn cached_count() -> usize {
    cache().len()
}
