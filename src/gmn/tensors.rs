//! The dense ONNX inputs of a batch of pairs (interface contract §2): per side, node types,
//! content characters, adjacency per relation and direction, node mask and positional encoding,
//! zero-padded to the batch's largest graph.

use super::graph::Graph;
use super::{MAX_CHARS, PE_STEPS};

/// One side's tensors (gold `g_*` or prediction `p_*`), row-major, with their shapes.
#[derive(Debug, Clone, PartialEq)]
pub struct SideTensors {
    pub batch: usize,
    /// Padded node count N (at least 1).
    pub nodes: usize,
    pub relations: usize,
    /// `[B, N]`
    pub types: Vec<i64>,
    /// `[B, N, 64]`
    pub chars: Vec<i64>,
    /// `[B, 2R, N, N]`: `adj[b, rel, dst, src]` and `adj[b, R + rel, src, dst]` are 1 per edge.
    pub adj: Vec<f32>,
    /// `[B, N]`
    pub mask: Vec<f32>,
    /// `[B, N, 16]`
    pub pe: Vec<f32>,
}

/// Floats in one side's adjacency tensor: `B · 2R · N²`.
pub fn adjacency_size(batch: usize, relations: usize, nodes: usize) -> usize {
    batch * 2 * relations * nodes * nodes
}

/// The tensors of `graphs` (one side of a batch) with `relations` edge relations.
pub fn side_tensors(graphs: &[&Graph], relations: usize) -> SideTensors {
    let b = graphs.len();
    let n = graphs.iter().map(|g| g.len()).max().unwrap_or(0).max(1);
    let mut t = SideTensors {
        batch: b,
        nodes: n,
        relations,
        types: vec![0; b * n],
        chars: vec![0; b * n * MAX_CHARS],
        adj: vec![0.0; adjacency_size(b, relations, n)],
        mask: vec![0.0; b * n],
        pe: vec![0.0; b * n * PE_STEPS],
    };
    for (bi, g) in graphs.iter().enumerate() {
        for (i, &ty) in g.types.iter().enumerate() {
            t.types[bi * n + i] = ty;
            t.mask[bi * n + i] = 1.0;
        }
        for (i, chars) in g.chars.iter().enumerate() {
            for (k, &c) in chars.iter().take(MAX_CHARS).enumerate() {
                t.chars[(bi * n + i) * MAX_CHARS + k] = i64::from(c);
            }
        }
        for (i, row) in g.pe.iter().enumerate() {
            let at = (bi * n + i) * PE_STEPS;
            t.pe[at..at + PE_STEPS].copy_from_slice(row);
        }
        for &(src, dst, rel) in &g.edges {
            let (s, d, r) = (src as usize, dst as usize, rel as usize);
            if r >= relations || s >= n || d >= n {
                continue;
            }
            let forward = ((bi * 2 * relations + r) * n + d) * n + s;
            let reverse = ((bi * 2 * relations + relations + r) * n + s) * n + d;
            t.adj[forward] = 1.0;
            t.adj[reverse] = 1.0;
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gmn::{pair_graph, Model};

    #[test]
    fn shapes_padding_and_edges() {
        let a = pair_graph(
            "SELECT a FROM t WHERE b = 1",
            "SELECT a FROM t",
            None,
            Model::FuncEval,
        )
        .unwrap();
        let graphs = [&a.gold, &a.pred];
        let t = side_tensors(&graphs, 3);
        let n = a.gold.len().max(a.pred.len());
        assert_eq!((t.batch, t.nodes), (2, n));
        assert_eq!(t.types.len(), 2 * n);
        assert_eq!(t.chars.len(), 2 * n * 64);
        assert_eq!(t.adj.len(), 2 * 6 * n * n);
        assert_eq!(t.pe.len(), 2 * n * 16);
        let real: f32 = t.mask.iter().sum();
        assert_eq!(real as usize, a.gold.len() + a.pred.len());
        // Every edge appears once forward and once reversed.
        let ones = t.adj.iter().filter(|v| **v == 1.0).count();
        assert_eq!(ones, 2 * (a.gold.edges.len() + a.pred.edges.len()));
        // Padding rows are zero.
        let short = if a.gold.len() < a.pred.len() { 0 } else { 1 };
        let len = graphs[short].len();
        if len < n {
            assert_eq!(t.types[short * n + len], 0);
            assert_eq!(t.mask[short * n + len], 0.0);
        }
        let (s, d, r) = a.gold.edges[0];
        assert_eq!(t.adj[((r as usize) * n + d as usize) * n + s as usize], 1.0);
        assert_eq!(
            t.adj[((3 + r as usize) * n + s as usize) * n + d as usize],
            1.0
        );
    }
}
