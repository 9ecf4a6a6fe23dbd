//! The Hybrid GMN graph (AST-TE paper §5): the normalized AST and the optimized plan in one
//! heterogeneous graph. AST labels `Kind:text` of names and literals become a computing node
//! `ast:Kind` with a content child `text`; other AST labels are computing nodes `ast:<label>`
//! (falling back to `ast:<Kind>`). Relations: 0 AST tree, 1 plan tree, 2 link between an AST
//! content node and a plan content node with the same text (and between the two roots), 3 data
//! flow between uses of the same column in the plan.

use super::graph::Graph;
use super::plan_graph::{add_plan, PlanRelations};
use crate::plan::QueryPlan;
use crate::tree::{LabelledTree, Tree};
use std::collections::HashMap;

/// Relation of AST tree edges.
pub const REL_AST: u8 = 0;
/// Relation of plan tree edges.
pub const REL_PLAN: u8 = 1;
/// Relation of AST-to-plan links.
pub const REL_LINK: u8 = 2;
/// Relation of data-flow edges.
pub const REL_DATA: u8 = 3;
/// Number of relations.
pub const RELATIONS: usize = 4;

/// AST label kinds whose text is content (names and literals).
const CONTENT_KINDS: &[&str] = &[
    "Column",
    "Qualifier",
    "Table",
    "Alias",
    "Literal",
    "Number",
    "Boolean",
    "Cte",
    "Star",
    "Placeholder",
    "Window",
];

/// The hybrid graph of one query from its AST tree and plan; `overflowed()` tells when it
/// passed the node bound.
pub fn hybrid_graph(ast: &LabelledTree, plan: &QueryPlan) -> Graph {
    let mut g = Graph::default();
    let mut ast_keys: Vec<(usize, String)> = Vec::new();
    let Some(root) = ast.root() else {
        return g;
    };
    // (tree node, graph parent): parents are pushed before their children.
    let mut stack = vec![(root, None::<usize>)];
    let mut ast_root = None;
    while let Some((t, parent)) = stack.pop() {
        if g.overflowed() {
            break;
        }
        let label = ast.label(t);
        let edge = parent.map(|p| (p, REL_AST));
        let (kind, text) = match label.split_once(':') {
            Some((k, rest)) => (k, Some(rest)),
            None => (label, None),
        };
        let node = match text {
            Some(text) if CONTENT_KINDS.contains(&kind) => {
                let n = g.computing(&format!("ast:{kind}"), None, edge);
                let c = g.content(text, Some((n, REL_AST)));
                ast_keys.push((c, text.to_lowercase()));
                n
            }
            _ => g.computing(&format!("ast:{label}"), Some(&format!("ast:{kind}")), edge),
        };
        ast_root.get_or_insert(node);
        for &c in ast.children(t).iter().rev() {
            stack.push((c, Some(node)));
        }
    }
    let rels = PlanRelations {
        tree: REL_PLAN,
        logic: None,
        data: REL_DATA,
    };
    let (plan_root, plan_keys) = add_plan(&mut g, plan, rels, None);
    if let Some(r) = ast_root {
        g.edge(r, plan_root, REL_LINK);
    }
    let mut by_key: HashMap<&str, Vec<usize>> = HashMap::new();
    for k in &plan_keys {
        by_key.entry(k.key.as_str()).or_default().push(k.node);
    }
    for (node, key) in &ast_keys {
        for &p in by_key.get(key.as_str()).into_iter().flatten() {
            g.edge(*node, p, REL_LINK);
        }
    }
    g
}
