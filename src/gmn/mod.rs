//! Graphs and scores of the two neural metrics, FuncEvalGMN and Hybrid GMN: the graph builder
//! shared by training (through `sql_graph`) and inference, the dense tensors, and ONNX inference.
//!
//! A pair's graphs are built per query, then merged for the positional encoding: the two roots are
//! joined, and for FuncEvalGMN every maximal pair of equal computing subtrees (RelPM score 1 both
//! ways: same labels and kinds throughout, operands compared as multisets unless their order
//! matters) is joined too, so nodes of matching parts get matching encodings.

pub(crate) mod char_features;
pub(crate) mod graph;
pub(crate) mod hybrid;
pub(crate) mod pe;
pub(crate) mod plan_graph;
pub mod runtime;
pub(crate) mod tensors;
pub(crate) mod vocab;

use crate::plan::cached::cached_plan;
use crate::schema::ParsedSchema;
use graph::Graph;
use plan_graph::{add_plan, PlanRelations};
use serde::Serialize;
use std::collections::{HashMap, HashSet};

/// Most nodes per graph; a larger query gets no graph (and no score).
pub const MAX_NODES: usize = 512;
/// Characters kept per content node.
pub const MAX_CHARS: usize = 64;
/// Random-walk steps of the positional encoding.
pub const PE_STEPS: usize = 16;
/// Version of the JSON layout of `sql_graph`.
pub const VERSION: u32 = 1;

/// FuncEvalGMN relation of plan tree edges.
pub const REL_TREE: u8 = 0;
/// FuncEvalGMN relation of logic-flow edges.
pub const REL_LOGIC: u8 = 1;
/// FuncEvalGMN relation of data-flow edges.
pub const REL_DATA: u8 = 2;

/// Which model's graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Model {
    FuncEval,
    Hybrid,
}

impl Model {
    /// The model named `name` ('funceval' or 'hybrid', any case).
    pub fn from_name(name: &str) -> Option<Model> {
        match name.trim().to_ascii_lowercase().as_str() {
            "funceval" => Some(Model::FuncEval),
            "hybrid" => Some(Model::Hybrid),
            _ => None,
        }
    }

    /// The name used in `sql_graph`'s JSON.
    pub fn name(self) -> &'static str {
        match self {
            Model::FuncEval => "funceval",
            Model::Hybrid => "hybrid",
        }
    }

    /// Number of edge relations.
    pub fn relations(self) -> usize {
        match self {
            Model::FuncEval => 3,
            Model::Hybrid => hybrid::RELATIONS,
        }
    }
}

/// The graphs of a (gold, pred) pair, positional encodings filled.
#[derive(Debug, Clone, PartialEq)]
pub struct PairGraph {
    pub model: Model,
    pub gold: Graph,
    pub pred: Graph,
}

#[derive(Serialize)]
struct PairJson<'a> {
    model: &'static str,
    version: u32,
    relations: usize,
    pe_steps: usize,
    graphs: [&'a Graph; 2],
}

impl PairGraph {
    /// The JSON of `sql_graph` (see `models/graph_contract.md` and the README).
    pub fn to_json(&self) -> String {
        let j = PairJson {
            model: self.model.name(),
            version: VERSION,
            relations: self.model.relations(),
            pe_steps: PE_STEPS,
            graphs: [&self.gold, &self.pred],
        };
        serde_json::to_string(&j).unwrap_or_default()
    }
}

/// One query's graph (positional encoding not yet filled); `None` when it cannot be planned (or,
/// for the hybrid graph, parsed) or its graph exceeds [`MAX_NODES`].
pub fn query_graph(sql: &str, schema: Option<&ParsedSchema>, model: Model) -> Option<Graph> {
    let cached = cached_plan(sql, schema);
    let plan = cached.plan.as_ref().ok()?;
    let g = match model {
        Model::FuncEval => {
            let mut g = Graph::default();
            let rels = PlanRelations {
                tree: REL_TREE,
                logic: Some(REL_LOGIC),
                data: REL_DATA,
            };
            add_plan(&mut g, plan, rels, None);
            g
        }
        Model::Hybrid => {
            let ast = crate::query_tree::cached(sql);
            if !ast.is_ok() {
                return None;
            }
            hybrid::hybrid_graph(&ast.tree, plan)
        }
    };
    (!g.overflowed() && !g.is_empty()).then_some(g)
}

/// The pair's graphs with their positional encodings, or `None` when either query has no graph.
pub fn pair_graph(
    gold: &str,
    pred: &str,
    schema: Option<&ParsedSchema>,
    model: Model,
) -> Option<PairGraph> {
    let mut g = query_graph(gold, schema, model)?;
    let mut p = query_graph(pred, schema, model)?;
    let n = g.len();
    let mut edges: Vec<(usize, usize)> = g.undirected().collect();
    edges.extend(p.undirected().map(|(a, b)| (a + n, b + n)));
    edges.push((0, n));
    if model == Model::FuncEval {
        edges.extend(seed_pairs(&g, &p).into_iter().map(|(a, b)| (a, b + n)));
    }
    let pe = pe::random_walk_pe(n + p.len(), &edges);
    g.pe = pe[..n].to_vec();
    p.pe = pe[n..].to_vec();
    Some(PairGraph {
        model,
        gold: g,
        pred: p,
    })
}

/// Seed node pairs (gold node, pred node): roots of maximal equal computing subtrees. Equal
/// subtrees occurring several times are paired in order of appearance.
pub fn seed_pairs(g: &Graph, p: &Graph) -> Vec<(usize, usize)> {
    let (dg, dp) = (g.subtree_digests(), p.subtree_digests());
    let (in_g, in_p): (HashSet<u64>, HashSet<u64>) =
        (dg.iter().copied().collect(), dp.iter().copied().collect());
    let maximal = |graph: &Graph, d: &[u64], other: &HashSet<u64>| -> HashMap<u64, Vec<usize>> {
        let mut out: HashMap<u64, Vec<usize>> = HashMap::new();
        for node in 0..graph.len() {
            if graph.is_content(node) || !other.contains(&d[node]) {
                continue;
            }
            if let Some(parent) = graph.parent(node) {
                if other.contains(&d[parent]) {
                    continue;
                }
            }
            out.entry(d[node]).or_default().push(node);
        }
        out
    };
    let (mg, mp) = (maximal(g, &dg, &in_p), maximal(p, &dp, &in_g));
    let mut pairs = Vec::new();
    for (digest, gold_nodes) in &mg {
        if let Some(pred_nodes) = mp.get(digest) {
            pairs.extend(gold_nodes.iter().copied().zip(pred_nodes.iter().copied()));
        }
    }
    pairs.sort_unstable();
    pairs
}

#[cfg(test)]
mod tests;
