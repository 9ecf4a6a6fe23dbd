//! A query's normalized AST as a labelled tree (text → parse → normalize → tree), once per distinct
//! query text, through a bounded cache: what AST-TE, ASTPM, `sql_ast` and the hybrid GMN graph read.

use crate::cache::NamedCache;
use crate::normalize;
use crate::parse::{self, MAX_SQL_BYTES};
use crate::tree::LabelledTree;
use std::sync::Arc;

/// Largest tree AST-TE will compare; larger queries are treated as SQL that does not parse.
pub const MAX_TREE_NODES: usize = 3_000;
/// Number of query trees kept in memory.
const CACHE_CAPACITY: usize = 8_192;

/// A query's labelled tree, or why it failed. The AST itself is dropped
/// once the tree is built: keeping thousands of sqlparser ASTs in the cache cost more in memory
/// traffic than re-parsing would save.
#[derive(Debug)]
pub struct QueryTree {
    /// `None` when the text parsed; otherwise the parser's message (or the limit that was exceeded).
    pub parse_error: Option<String>,
    /// The labelled tree of the normalized statements (empty when parsing failed).
    pub tree: LabelledTree,
}

impl QueryTree {
    fn failed(message: String) -> Self {
        Self {
            parse_error: Some(message),
            tree: LabelledTree::empty(),
        }
    }

    /// Builds the tree of `sql` without the cache.
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

static CACHE: NamedCache<QueryTree> = NamedCache::new("query_trees", CACHE_CAPACITY);

/// The tree of `sql`, from the cache when it was seen before.
pub fn cached(sql: &str) -> Arc<QueryTree> {
    CACHE
        .get()
        .get_or_insert_with(sql, || QueryTree::build(sql))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The deepest input the parser accepts must survive the whole pipeline on a 2 MiB stack.
    #[test]
    fn deep_nesting_within_limit_fits_small_stack() {
        let run = || {
            let mut deepest_ok = 0;
            for depth in (1..200).step_by(3) {
                let exprs = [
                    format!("SELECT {}1{}", "(".repeat(depth), ")".repeat(depth)),
                    format!("SELECT {}1{}", "-(".repeat(depth), ")".repeat(depth)),
                    format!("SELECT a FROM t WHERE {}x = 1", "NOT ".repeat(depth)),
                    format!(
                        "{}SELECT 1{}",
                        "SELECT * FROM (".repeat(depth),
                        ")".repeat(depth)
                    ),
                    format!(
                        "SELECT a FROM t WHERE a IN {}SELECT 1{}",
                        "(SELECT a FROM t WHERE a IN ".repeat(depth),
                        ")".repeat(depth)
                    ),
                    format!(
                        "SELECT {}1{}",
                        "CASE WHEN a THEN ".repeat(depth),
                        " END".repeat(depth)
                    ),
                ];
                for sql in exprs {
                    if let Ok(stmts) = crate::parse::parse_sql(&sql) {
                        deepest_ok = depth;
                        let text: usize = stmts.iter().map(|s| s.to_string().len()).sum();
                        let normalized = normalize::normalize(stmts);
                        let printed: usize = normalized.iter().map(|s| s.to_string().len()).sum();
                        let tree = crate::tree::from_ast::statements_tree(&normalized);
                        assert!(text > 0 && printed > 0 && !tree.is_empty());
                    }
                }
            }
            deepest_ok
        };
        let handle = std::thread::Builder::new().stack_size(2 << 20).spawn(run);
        let deepest = handle.map(|h| h.join());
        assert!(
            matches!(deepest, Ok(Ok(d)) if d > 10),
            "pipeline overflowed or rejected shallow input: {deepest:?}"
        );
    }
}
