//! Labelled ordered trees: the shape AST-TE compares, the generic `Tree` trait the edit distance runs on, and NodeMatch (partial matching of two trees).

pub mod from_ast;
pub mod node_match;
pub mod zhang_shasha;

use serde_json::{json, Map, Value as Json};

/// An ordered tree whose nodes carry string labels; the edit distance is generic over it.
pub trait Tree {
    /// Number of nodes (0 for the empty tree).
    fn node_count(&self) -> usize;
    /// The root node, `None` for the empty tree.
    fn root(&self) -> Option<usize>;
    /// Children of `node`, left to right.
    fn children(&self, node: usize) -> &[usize];
    /// Label of `node`.
    fn label(&self, node: usize) -> &str;
}

/// A labelled ordered tree stored as arenas of labels and child lists; node 0 is the root.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LabelledTree {
    labels: Vec<String>,
    children: Vec<Vec<usize>>,
}

impl LabelledTree {
    /// The tree with no nodes.
    pub fn empty() -> Self {
        Self::default()
    }

    /// A tree holding a single root node.
    pub fn with_root(label: impl Into<String>) -> Self {
        Self {
            labels: vec![label.into()],
            children: vec![Vec::new()],
        }
    }

    /// Appends a child as the last child of `parent` and returns its id.
    pub fn add_child(&mut self, parent: usize, label: impl Into<String>) -> usize {
        let id = self.labels.len();
        self.labels.push(label.into());
        self.children.push(Vec::new());
        self.children[parent].push(id);
        id
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// True for the tree with no nodes.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// The tree as nested JSON objects `{"label": ..., "children": [...]}` (built without recursion).
    pub fn to_json(&self) -> Json {
        if self.is_empty() {
            return Json::Null;
        }
        // Post-order: build each node's JSON after its children.
        let mut built: Vec<Option<Json>> = vec![None; self.len()];
        let mut stack = vec![(0usize, false)];
        while let Some((node, expanded)) = stack.pop() {
            if expanded {
                let kids: Vec<Json> = self.children[node]
                    .iter()
                    .map(|&c| built[c].take().unwrap_or(Json::Null))
                    .collect();
                let mut obj = Map::new();
                obj.insert("label".into(), json!(self.labels[node]));
                if !kids.is_empty() {
                    obj.insert("children".into(), Json::Array(kids));
                }
                built[node] = Some(Json::Object(obj));
            } else {
                stack.push((node, true));
                for &c in self.children[node].iter().rev() {
                    stack.push((c, false));
                }
            }
        }
        built[0].take().unwrap_or(Json::Null)
    }
}

impl Tree for LabelledTree {
    fn node_count(&self) -> usize {
        self.labels.len()
    }
    fn root(&self) -> Option<usize> {
        (!self.labels.is_empty()).then_some(0)
    }
    fn children(&self, node: usize) -> &[usize] {
        &self.children[node]
    }
    fn label(&self, node: usize) -> &str {
        &self.labels[node]
    }
}
