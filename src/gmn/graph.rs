//! One query's GMN graph: typed computing nodes, ASCII content nodes, relation-typed directed
//! edges, and the bookkeeping the builders need (tree children, subtree digests, join keys).

use super::vocab;
use super::{MAX_CHARS, MAX_NODES, PE_STEPS};
use serde::Serialize;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};

/// A graph as the models read it (the fields the JSON and the dense tensors are built from).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Graph {
    /// Per node: computing-node vocabulary id, [`vocab::CONTENT`] for content nodes.
    pub types: Vec<i64>,
    /// Per node: ASCII codes of the content text (at most [`MAX_CHARS`]), empty for computing nodes.
    pub chars: Vec<Vec<u8>>,
    /// Directed edges `(src, dst, relation)`, each listed once.
    pub edges: Vec<(u32, u32, u8)>,
    /// Per node: random-walk positional encoding (filled on the merged pair graph).
    pub pe: Vec<[f32; PE_STEPS]>,
    #[serde(skip)]
    labels: Vec<String>,
    #[serde(skip)]
    content: Vec<bool>,
    #[serde(skip)]
    children: Vec<Vec<usize>>,
    #[serde(skip)]
    parent: Vec<Option<usize>>,
    #[serde(skip)]
    ordered: Vec<bool>,
    #[serde(skip)]
    edge_set: HashSet<(u32, u32, u8)>,
    /// Set once a node beyond [`MAX_NODES`] was asked for; the graph is then unusable.
    #[serde(skip)]
    overflow: bool,
}

/// The ASCII codes of `text` as content nodes carry them: non-ASCII characters become 127, and
/// at most [`MAX_CHARS`] are kept.
pub fn ascii_codes(text: &str) -> Vec<u8> {
    text.chars()
        .take(MAX_CHARS)
        .map(|c| if c.is_ascii() { c as u8 } else { 127 })
        .collect()
}

impl Graph {
    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.types.len()
    }

    /// True for the graph with no nodes.
    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }

    /// True when the builder went past [`MAX_NODES`].
    pub fn overflowed(&self) -> bool {
        self.overflow
    }

    fn push(&mut self, ty: i64, text: &str, content: bool, parent: Option<(usize, u8)>) -> usize {
        let id = self.types.len();
        if id >= MAX_NODES {
            self.overflow = true;
            return 0;
        }
        self.types.push(ty);
        self.chars.push(if content {
            ascii_codes(text)
        } else {
            Vec::new()
        });
        self.labels.push(text.to_string());
        self.content.push(content);
        self.children.push(Vec::new());
        self.parent.push(parent.map(|(p, _)| p));
        self.ordered.push(false);
        if let Some((p, rel)) = parent {
            if p < id {
                self.children[p].push(id);
                self.edge(p, id, rel);
            }
        }
        id
    }

    /// Appends a computing node labelled `label` (typed through the vocabulary, `fallback` when
    /// the label is missing from it), child of `parent` through a tree edge of relation `rel`.
    pub fn computing(
        &mut self,
        label: &str,
        fallback: Option<&str>,
        parent: Option<(usize, u8)>,
    ) -> usize {
        let ty = vocab::lookup(label)
            .or_else(|| fallback.and_then(vocab::lookup))
            .unwrap_or(vocab::UNK);
        self.push(ty, label, false, parent)
    }

    /// Appends a content node holding `text`, child of `parent` through a tree edge.
    pub fn content(&mut self, text: &str, parent: Option<(usize, u8)>) -> usize {
        self.push(vocab::CONTENT, text, true, parent)
    }

    /// Marks `node`'s children as ordered (their positions matter when subtrees are compared).
    pub fn set_ordered(&mut self, node: usize) {
        if let Some(o) = self.ordered.get_mut(node) {
            *o = true;
        }
    }

    /// Adds the edge `src -> dst` of relation `rel` (once; ignored for unknown nodes or loops).
    pub fn edge(&mut self, src: usize, dst: usize, rel: u8) {
        let n = self.types.len();
        if src >= n || dst >= n || src == dst {
            return;
        }
        let e = (src as u32, dst as u32, rel);
        if self.edge_set.insert(e) {
            self.edges.push(e);
        }
    }

    /// The node's parent in the tree it was built as.
    pub fn parent(&self, node: usize) -> Option<usize> {
        self.parent.get(node).copied().flatten()
    }

    /// True for content nodes.
    pub fn is_content(&self, node: usize) -> bool {
        self.content.get(node).copied().unwrap_or(false)
    }

    /// A digest of each node's subtree: equal digests mean equal labels and kinds throughout,
    /// children compared as a multiset unless the node is ordered. Deterministic across runs.
    pub fn subtree_digests(&self) -> Vec<u64> {
        let n = self.len();
        let mut out = vec![0u64; n];
        // Children always have larger ids than their parents.
        for node in (0..n).rev() {
            let mut kids: Vec<u64> = self.children[node].iter().map(|&c| out[c]).collect();
            if !self.ordered[node] {
                kids.sort_unstable();
            }
            let mut h = std::collections::hash_map::DefaultHasher::new();
            self.content[node].hash(&mut h);
            self.labels[node].hash(&mut h);
            kids.hash(&mut h);
            out[node] = h.finish();
        }
        out
    }

    /// Every edge, undirected, as pairs of node ids.
    pub fn undirected(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.edges.iter().map(|&(s, d, _)| (s as usize, d as usize))
    }
}
