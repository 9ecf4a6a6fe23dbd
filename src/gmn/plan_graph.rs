//! The optimized plan as GMN nodes (FuncEvalGMN §4.1, Appendix B): relational operators,
//! functions, aggregate calls, comparison/arithmetic/logic operators and sort directions are
//! computing nodes; tables, columns (by canonical label) and literals are content nodes. Edges:
//! plan tree (parent -> child), logic flow between the relational operators in execution order
//! (inputs before the operators that read them), data flow between consecutive uses of the same
//! column in execution order.

use super::graph::Graph;
use crate::plan::expr::{literal_text, Expr, Op, SubqueryKind};
use crate::plan::{Columns, Plan, QueryPlan};
use std::collections::HashMap;

/// Which relation each kind of edge gets (the two models number them differently).
#[derive(Debug, Clone, Copy)]
pub struct PlanRelations {
    pub tree: u8,
    /// `None`: no logic-flow edges (the hybrid graph has none).
    pub logic: Option<u8>,
    pub data: u8,
}

/// A content node the hybrid graph may link to an AST node: its node id and lower-case key.
#[derive(Debug, Clone)]
pub struct ContentKey {
    pub node: usize,
    pub key: String,
}

struct Builder<'a> {
    g: &'a mut Graph,
    columns: &'a Columns,
    rels: PlanRelations,
    /// Relational operators, in execution order.
    operators: Vec<usize>,
    /// Column uses in execution order: (node, canonical label).
    uses: Vec<(usize, String)>,
    keys: Vec<ContentKey>,
}

/// Adds `plan` to `g` (its root a child of `parent` when given) and returns the root's id with
/// the content keys of tables, base columns and literals.
pub fn add_plan(
    g: &mut Graph,
    plan: &QueryPlan,
    rels: PlanRelations,
    parent: Option<usize>,
) -> (usize, Vec<ContentKey>) {
    let mut b = Builder {
        g,
        columns: &plan.columns,
        rels,
        operators: Vec::new(),
        uses: Vec::new(),
        keys: Vec::new(),
    };
    let root = b.plan(&plan.root, parent);
    if let Some(rel) = rels.logic {
        for w in b.operators.windows(2) {
            b.g.edge(w[0], w[1], rel);
        }
    }
    let mut last: HashMap<&str, usize> = HashMap::new();
    for (node, label) in &b.uses {
        if let Some(prev) = last.insert(label.as_str(), *node) {
            b.g.edge(prev, *node, rels.data);
        }
    }
    (root, b.keys)
}

fn operator_label(plan: &Plan) -> String {
    match plan {
        Plan::Join(j) => format!("Join:{}", j.kind.name()),
        Plan::SetOp(s) if s.all => format!("{}:all", s.kind.name()),
        other => other.kind_name().to_string(),
    }
}

impl Builder<'_> {
    fn tree(&self, parent: usize) -> Option<(usize, u8)> {
        Some((parent, self.rels.tree))
    }

    fn plan(&mut self, plan: &Plan, parent: Option<usize>) -> usize {
        // the models never saw a Window operator; Calcite's own plans hold window calls in a
        // Project until a rule splits them out
        let fallback = matches!(plan, Plan::Window(_)).then_some("Project");
        let node = self.g.computing(
            &operator_label(plan),
            fallback,
            parent.map(|p| (p, self.rels.tree)),
        );
        // Inputs run first: their operators and column uses come before this node's.
        for input in plan.inputs() {
            self.plan(input, Some(node));
        }
        self.operators.push(node);
        match plan {
            Plan::TableScan(t) => {
                let table = t.table.to_lowercase();
                let c = self.g.content(&table, self.tree(node));
                self.keys.push(ContentKey {
                    node: c,
                    key: table,
                });
            }
            Plan::Aggregate(a) => {
                for g in &a.group {
                    self.column(*g, node);
                }
                for call in &a.calls {
                    let label = format!(
                        "{}{}",
                        call.func.name(),
                        if call.distinct { " DISTINCT" } else { "" }
                    );
                    let c = self.g.computing(&label, None, self.tree(node));
                    for x in &call.args {
                        self.column(*x, c);
                    }
                }
            }
            Plan::Sort(s) => {
                self.g.set_ordered(node);
                for k in &s.keys {
                    let dir = if k.descending { "DESC" } else { "ASC" };
                    let d = self.g.computing(dir, None, self.tree(node));
                    self.column(k.column, d);
                }
                for (label, e) in [("fetch", &s.fetch), ("offset", &s.offset)] {
                    if let Some(e) = e {
                        let n = self.g.computing(label, None, self.tree(node));
                        self.expr(e, n);
                    }
                }
            }
            Plan::Window(w) => {
                for c in &w.calls {
                    let call = self
                        .g
                        .computing(&c.func.to_uppercase(), None, self.tree(node));
                    for (label, exprs) in c.subtrees() {
                        let parent =
                            label.map_or(call, |l| self.g.computing(l, None, self.tree(call)));
                        for e in exprs {
                            self.expr(e, parent);
                        }
                    }
                }
            }
            _ => {
                for e in plan.exprs() {
                    self.expr(e, node);
                }
            }
        }
        node
    }

    fn column(&mut self, c: u32, parent: usize) {
        let meta = self.columns.meta(c);
        let label = meta.origin_label().to_string();
        let n = self.g.content(&label, self.tree(parent));
        if let Some((_, col)) = &meta.origin {
            self.keys.push(ContentKey {
                node: n,
                key: col.to_lowercase(),
            });
        }
        self.uses.push((n, label));
    }

    fn expr(&mut self, e: &Expr, parent: usize) {
        match e {
            Expr::Column(c) => self.column(*c, parent),
            Expr::Literal(l) => {
                let text = literal_text(l);
                let n = self.g.content(&text, self.tree(parent));
                self.keys.push(ContentKey {
                    node: n,
                    key: text.to_lowercase(),
                });
            }
            Expr::Call(op, args) => {
                let n = self.g.computing(&op.name(), None, self.tree(parent));
                if args.len() >= 2 && !op.is_commutative() && !matches!(op, Op::Case) {
                    self.g.set_ordered(n);
                }
                for a in args {
                    self.expr(a, n);
                }
            }
            Expr::Subquery(s) => {
                let label = match s.kind {
                    SubqueryKind::Scalar => "ScalarSubquery",
                    SubqueryKind::Exists => "Exists",
                    SubqueryKind::In => "In",
                };
                let n = self.g.computing(label, None, self.tree(parent));
                for o in &s.operands {
                    self.expr(o, n);
                }
                self.plan(&s.plan, Some(n));
            }
        }
    }
}
