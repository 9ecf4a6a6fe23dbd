//! A plan as RelPM's tree: operators, functions, comparison and logical operators are computing
//! nodes; tables, columns and literals are content nodes. Columns are labelled canonically
//! (`table.column` for base columns, the defining expression for computed ones), so the two
//! queries of a pair label corresponding columns alike whatever their aliases.

use super::columns::Columns;
use super::expr::{literal_text, Expr, Op, SubqueryKind};
use super::node::Plan;
use super::QueryPlan;
use crate::tree::node_match::{MatchTree, NodeKind};

/// The RelPM tree of a plan, under a `Query` root shared by every plan (as ASTPM's trees are), so
/// that plans whose top operators differ (`MAX(x)` against `ORDER BY x DESC LIMIT 1`) still compare
/// their inputs instead of scoring 0 at the root.
pub fn match_tree(plan: &QueryPlan) -> MatchTree {
    let mut tree = MatchTree::new();
    let root = tree.push("Query", NodeKind::Computing, None);
    add_plan(&mut tree, &plan.root, &plan.columns, Some(root));
    tree
}

fn operator_label(plan: &Plan) -> String {
    match plan {
        Plan::Join(j) => format!("Join:{}", j.kind.name()),
        Plan::SetOp(s) if s.all => format!("{}:all", s.kind.name()),
        other => other.kind_name().to_string(),
    }
}

fn add_plan(tree: &mut MatchTree, plan: &Plan, columns: &Columns, parent: Option<usize>) {
    let node = tree.push(&operator_label(plan), NodeKind::Computing, parent);
    let column = |tree: &mut MatchTree, c: u32, parent: usize| {
        tree.push(
            columns.meta(c).origin_label(),
            NodeKind::Content,
            Some(parent),
        );
    };
    match plan {
        Plan::TableScan(t) => {
            tree.push(&t.table.to_lowercase(), NodeKind::Content, Some(node));
        }
        Plan::Aggregate(a) => {
            for g in &a.group {
                column(tree, *g, node);
            }
            for c in &a.calls {
                let label = format!(
                    "{}{}",
                    c.func.name(),
                    if c.distinct { " DISTINCT" } else { "" }
                );
                let call = tree.push(&label, NodeKind::Computing, Some(node));
                for x in &c.args {
                    column(tree, *x, call);
                }
            }
        }
        Plan::Sort(s) => {
            for k in &s.keys {
                let dir = tree.push(
                    if k.descending { "DESC" } else { "ASC" },
                    NodeKind::Computing,
                    Some(node),
                );
                column(tree, k.column, dir);
            }
            if let Some(f) = &s.fetch {
                let n = tree.push("fetch", NodeKind::Computing, Some(node));
                add_expr(tree, f, columns, n);
            }
            if let Some(o) = &s.offset {
                let n = tree.push("offset", NodeKind::Computing, Some(node));
                add_expr(tree, o, columns, n);
            }
        }
        Plan::Window(w) => {
            for c in &w.calls {
                let call = tree.push(&c.func.to_uppercase(), NodeKind::Computing, Some(node));
                for (label, exprs) in c.subtrees() {
                    let parent =
                        label.map_or(call, |l| tree.push(l, NodeKind::Computing, Some(call)));
                    for e in exprs {
                        add_expr(tree, e, columns, parent);
                    }
                }
            }
        }
        _ => {
            for e in plan.exprs() {
                add_expr(tree, e, columns, node);
            }
        }
    }
    for input in plan.inputs() {
        add_plan(tree, input, columns, Some(node));
    }
}

fn add_expr(tree: &mut MatchTree, e: &Expr, columns: &Columns, parent: usize) {
    match e {
        Expr::Column(c) => {
            tree.push(
                columns.meta(*c).origin_label(),
                NodeKind::Content,
                Some(parent),
            );
        }
        Expr::Literal(l) => {
            tree.push(&literal_text(l), NodeKind::Content, Some(parent));
        }
        Expr::Call(op, args) => {
            let node = tree.push(&op.name(), NodeKind::Computing, Some(parent));
            if args.len() >= 2 && !op.is_commutative() && !matches!(op, Op::Case) {
                tree.set_ordered(node, true);
            }
            for a in args {
                add_expr(tree, a, columns, node);
            }
        }
        Expr::Subquery(s) => {
            let label = match s.kind {
                SubqueryKind::Scalar => "ScalarSubquery",
                SubqueryKind::Exists => "Exists",
                SubqueryKind::In => "In",
            };
            let node = tree.push(label, NodeKind::Computing, Some(parent));
            for o in &s.operands {
                add_expr(tree, o, columns, node);
            }
            add_plan(tree, &s.plan, columns, Some(node));
        }
    }
}
