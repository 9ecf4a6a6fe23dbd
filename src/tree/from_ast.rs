//! Normalized sqlparser AST → labelled ordered tree, the shape AST-TE compares.
//!
//! Inner nodes are labelled with the node kind (`Select`, `Projection`, `From`, `Join:left`, `Where`,
//! `BinaryOp:=`, `Function:count`, `In`, `Case`, ...); leaves carry names and literals
//! (`Column:name`, `Qualifier:singer`, `Table:singer`, `Literal:'x'`, `Number:3`, `Star`).
//!
//! Shape choices:
//! - parentheses (`Expr::Nested`) are transparent, and an AND/OR chain becomes one n-ary node, so
//!   `(a AND b) AND c` and `a AND (b AND c)` give the same tree;
//! - a `Query` node appears only when the query has WITH, ORDER BY, LIMIT/OFFSET or FETCH; a bare
//!   query is just its body;
//! - a qualified column is `Column:name` with a `Qualifier:table` child, so qualifying a column costs
//!   one insertion.
//!
//! Recursion: the builder recurses over the AST. Depth is bounded twice: by the parser's recursion
//! limit (`crate::parse::RECURSION_LIMIT`), which bounds the AST depth, and by [`MAX_DEPTH`] here,
//! past which a subtree becomes a single `Truncated` leaf (only reachable for ASTs built by hand).

mod expr;

use super::LabelledTree;
use sqlparser::ast::{
    Distinct, GroupByExpr, Ident, Join, JoinConstraint, JoinOperator, LimitClause, ObjectName,
    OrderByExpr, OrderByKind, OrderBySort, Query, Select, SelectItem,
    SelectItemQualifiedWildcardKind, SetExpr, SetOperator, SetQuantifier, Statement, TableFactor,
    Value,
};

/// Deepest tree level the builder descends to.
pub const MAX_DEPTH: usize = 400;

/// The labelled tree of a list of statements: the statement's tree for one statement, a
/// `Statements` root over them for several, the empty tree for none.
///
/// ```
/// let stmts = sqlsim::parse::parse_sql("SELECT a FROM t WHERE b = 1").unwrap();
/// let tree = sqlsim::tree::from_ast::statements_tree(&stmts);
/// // Select, Projection, Column:a, From, Table:t, Where, BinaryOp:=, Column:b, Number:1
/// assert_eq!(tree.len(), 9);
/// ```
pub fn statements_tree(statements: &[Statement]) -> LabelledTree {
    match statements {
        [] => LabelledTree::empty(),
        [one] => {
            let mut b = Builder::new(statement_label(one));
            b.statement_children(one, 0);
            b.tree
        }
        many => {
            let mut b = Builder::new("Statements".to_string());
            for s in many {
                let id = b.tree.add_child(0, statement_label(s));
                b.statement_children(s, id);
            }
            b.tree
        }
    }
}

fn statement_label(s: &Statement) -> String {
    match s {
        Statement::Query(q) => query_label(q),
        other => {
            let text = other.to_string();
            let kind = text.split_whitespace().next().unwrap_or("Statement");
            format!("Statement:{}", kind.to_lowercase())
        }
    }
}

fn query_is_bare(q: &Query) -> bool {
    q.with.is_none() && q.order_by.is_none() && q.limit_clause.is_none() && q.fetch.is_none()
}

fn query_label(q: &Query) -> String {
    if query_is_bare(q) {
        set_expr_label(&q.body)
    } else {
        "Query".into()
    }
}

fn set_expr_label(s: &SetExpr) -> String {
    match s {
        SetExpr::Select(_) => "Select".into(),
        SetExpr::Query(q) => query_label(q),
        SetExpr::SetOperation {
            op, set_quantifier, ..
        } => {
            let op = match op {
                SetOperator::Union => "Union",
                SetOperator::Except | SetOperator::Minus => "Except",
                SetOperator::Intersect => "Intersect",
            };
            match set_quantifier {
                SetQuantifier::All | SetQuantifier::AllByName => format!("{op}:all"),
                _ => op.into(),
            }
        }
        SetExpr::Values(_) => "Values".into(),
        _ => "SetExpr:other".into(),
    }
}

fn ident_text(ident: &Ident) -> &str {
    &ident.value
}

fn object_name_text(name: &ObjectName) -> String {
    name.0
        .iter()
        .map(|p| match p.as_ident() {
            Some(i) => i.value.clone(),
            None => p.to_string(),
        })
        .collect::<Vec<_>>()
        .join(".")
}

fn value_label(v: &Value) -> String {
    match v {
        Value::Number(n, _) => format!("Number:{n}"),
        Value::SingleQuotedString(s) | Value::DoubleQuotedString(s) => format!("Literal:'{s}'"),
        Value::Boolean(b) => format!("Boolean:{b}"),
        Value::Null => "Null".into(),
        Value::Placeholder(p) => format!("Placeholder:{p}"),
        other => format!("Literal:{other}"),
    }
}

struct Builder {
    tree: LabelledTree,
}

impl Builder {
    fn new(root: String) -> Self {
        Self {
            tree: LabelledTree::with_root(root),
        }
    }

    fn leaf(&mut self, parent: usize, label: impl Into<String>) -> usize {
        self.tree.add_child(parent, label)
    }

    fn statement_children(&mut self, s: &Statement, node: usize) {
        if let Statement::Query(q) = s {
            self.query_children(q, node, 1);
        }
    }

    /// Adds `q` under `parent` (as `Query` or as its bare body).
    fn query(&mut self, q: &Query, parent: usize, depth: usize) {
        if depth > MAX_DEPTH {
            self.leaf(parent, "Truncated");
            return;
        }
        let node = self.leaf(parent, query_label(q));
        self.query_children(q, node, depth + 1);
    }

    fn query_children(&mut self, q: &Query, node: usize, depth: usize) {
        if query_is_bare(q) {
            self.set_expr_children(&q.body, node, depth);
            return;
        }
        if let Some(with) = &q.with {
            let w = self.leaf(
                node,
                if with.recursive {
                    "With:recursive"
                } else {
                    "With"
                },
            );
            for cte in &with.cte_tables {
                let c = self.leaf(w, format!("Cte:{}", ident_text(&cte.alias.name)));
                self.query(&cte.query, c, depth + 1);
            }
        }
        self.set_expr(&q.body, node, depth);
        if let Some(order_by) = &q.order_by {
            let o = self.leaf(node, "OrderBy");
            if let OrderByKind::Expressions(items) = &order_by.kind {
                for item in items {
                    self.order_item(item, o, depth + 1);
                }
            } else {
                self.leaf(o, "All");
            }
        }
        match &q.limit_clause {
            Some(LimitClause::LimitOffset { limit, offset, .. }) => {
                if let Some(l) = limit {
                    let n = self.leaf(node, "Limit");
                    self.expr(l, n, depth + 1);
                }
                if let Some(o) = offset {
                    let n = self.leaf(node, "Offset");
                    self.expr(&o.value, n, depth + 1);
                }
            }
            Some(LimitClause::OffsetCommaLimit { offset, limit }) => {
                let n = self.leaf(node, "Limit");
                self.expr(limit, n, depth + 1);
                let n = self.leaf(node, "Offset");
                self.expr(offset, n, depth + 1);
            }
            None => {}
        }
        if let Some(fetch) = &q.fetch {
            let n = self.leaf(node, "Limit");
            if let Some(qty) = &fetch.quantity {
                self.expr(qty, n, depth + 1);
            }
        }
    }

    fn order_item(&mut self, item: &OrderByExpr, parent: usize, depth: usize) {
        let label = match item.options.sort {
            Some(OrderBySort::Desc) => "Ordered:desc",
            _ => "Ordered:asc",
        };
        let n = self.leaf(parent, label);
        self.expr(&item.expr, n, depth + 1);
    }

    fn set_expr(&mut self, s: &SetExpr, parent: usize, depth: usize) {
        if depth > MAX_DEPTH {
            self.leaf(parent, "Truncated");
            return;
        }
        if let SetExpr::Query(q) = s {
            self.query(q, parent, depth);
            return;
        }
        let node = self.leaf(parent, set_expr_label(s));
        self.set_expr_children(s, node, depth + 1);
    }

    fn set_expr_children(&mut self, s: &SetExpr, node: usize, depth: usize) {
        match s {
            SetExpr::Select(select) => self.select(select, node, depth),
            SetExpr::Query(q) => self.query_children(q, node, depth),
            SetExpr::SetOperation { left, right, .. } => {
                self.set_expr(left, node, depth + 1);
                self.set_expr(right, node, depth + 1);
            }
            SetExpr::Values(values) => {
                for row in &values.rows {
                    let r = self.leaf(node, "Row");
                    for e in row.iter() {
                        self.expr(e, r, depth + 1);
                    }
                }
            }
            _ => {}
        }
    }

    fn select(&mut self, s: &Select, node: usize, depth: usize) {
        match &s.distinct {
            Some(Distinct::Distinct) => {
                self.leaf(node, "Distinct");
            }
            Some(Distinct::On(exprs)) => {
                let d = self.leaf(node, "DistinctOn");
                for e in exprs {
                    self.expr(e, d, depth + 1);
                }
            }
            Some(Distinct::All) | None => {}
        }
        let p = self.leaf(node, "Projection");
        for item in &s.projection {
            self.select_item(item, p, depth + 1);
        }
        if !s.from.is_empty() {
            let f = self.leaf(node, "From");
            for t in &s.from {
                self.table_factor(&t.relation, f, depth + 1);
                for j in &t.joins {
                    self.join(j, f, depth + 1);
                }
            }
        }
        if let Some(w) = &s.selection {
            let n = self.leaf(node, "Where");
            self.expr(w, n, depth + 1);
        }
        if let GroupByExpr::Expressions(exprs, _) = &s.group_by {
            if !exprs.is_empty() {
                let g = self.leaf(node, "GroupBy");
                for e in exprs {
                    self.expr(e, g, depth + 1);
                }
            }
        } else {
            self.leaf(node, "GroupBy:all");
        }
        if let Some(h) = &s.having {
            let n = self.leaf(node, "Having");
            self.expr(h, n, depth + 1);
        }
    }

    fn select_item(&mut self, item: &SelectItem, parent: usize, depth: usize) {
        match item {
            SelectItem::UnnamedExpr(e) => self.expr(e, parent, depth),
            SelectItem::ExprWithAlias { expr, alias } => {
                let a = self.leaf(parent, format!("Alias:{}", ident_text(alias)));
                self.expr(expr, a, depth + 1);
            }
            SelectItem::ExprWithAliases { expr, .. } => self.expr(expr, parent, depth),
            SelectItem::Wildcard(_) => {
                self.leaf(parent, "Star");
            }
            SelectItem::QualifiedWildcard(kind, _) => {
                let label = match kind {
                    SelectItemQualifiedWildcardKind::ObjectName(n) => {
                        format!("Star:{}", object_name_text(n))
                    }
                    SelectItemQualifiedWildcardKind::Expr(_) => "Star".into(),
                };
                self.leaf(parent, label);
            }
        }
    }

    fn table_factor(&mut self, t: &TableFactor, parent: usize, depth: usize) {
        match t {
            TableFactor::Table { name, alias, .. } => {
                let n = self.leaf(parent, format!("Table:{}", object_name_text(name)));
                if let Some(a) = alias {
                    self.leaf(n, format!("Alias:{}", ident_text(&a.name)));
                }
            }
            TableFactor::Derived {
                subquery, alias, ..
            } => {
                let n = self.leaf(parent, "DerivedTable");
                self.query(subquery, n, depth + 1);
                if let Some(a) = alias {
                    self.leaf(n, format!("Alias:{}", ident_text(&a.name)));
                }
            }
            TableFactor::NestedJoin {
                table_with_joins,
                alias,
            } => {
                let n = self.leaf(parent, "NestedJoin");
                self.table_factor(&table_with_joins.relation, n, depth + 1);
                for j in &table_with_joins.joins {
                    self.join(j, n, depth + 1);
                }
                if let Some(a) = alias {
                    self.leaf(n, format!("Alias:{}", ident_text(&a.name)));
                }
            }
            _ => {
                self.leaf(parent, "TableFactor:other");
            }
        }
    }

    fn join(&mut self, j: &Join, parent: usize, depth: usize) {
        use JoinOperator as J;
        let (kind, constraint) = match &j.join_operator {
            J::Join(c) | J::Inner(c) | J::StraightJoin(c) => ("Join", Some(c)),
            J::Left(c) | J::LeftOuter(c) => ("Join:left", Some(c)),
            J::Right(c) | J::RightOuter(c) => ("Join:right", Some(c)),
            J::FullOuter(c) => ("Join:full", Some(c)),
            J::CrossJoin(c) => ("Join:cross", Some(c)),
            J::Semi(c) | J::LeftSemi(c) | J::RightSemi(c) => ("Join:semi", Some(c)),
            J::Anti(c) | J::LeftAnti(c) | J::RightAnti(c) => ("Join:anti", Some(c)),
            _ => ("Join:other", None),
        };
        let n = self.leaf(parent, kind);
        self.table_factor(&j.relation, n, depth + 1);
        match constraint {
            Some(JoinConstraint::On(e)) => {
                let on = self.leaf(n, "On");
                self.expr(e, on, depth + 1);
            }
            Some(JoinConstraint::Using(cols)) => {
                let u = self.leaf(n, "Using");
                for c in cols {
                    self.leaf(u, format!("Column:{}", object_name_text(c)));
                }
            }
            Some(JoinConstraint::Natural) => {
                self.leaf(n, "Natural");
            }
            Some(JoinConstraint::None) | None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::Tree;

    fn labels(sql: &str) -> Vec<String> {
        let stmts = crate::parse::parse_sql(sql).unwrap_or_default();
        let t = statements_tree(&crate::normalize::normalize(stmts));
        (0..t.node_count())
            .map(|i| t.label(i).to_string())
            .collect()
    }

    #[test]
    fn simple_select_shape() {
        assert_eq!(
            labels("SELECT a FROM t WHERE b = 1"),
            [
                "Select",
                "Projection",
                "Column:a",
                "From",
                "Table:t",
                "Where",
                "BinaryOp:=",
                "Column:b",
                "Number:1"
            ]
        );
    }

    #[test]
    fn and_chains_are_n_ary_and_parentheses_transparent() {
        let a = labels("SELECT a FROM t WHERE (x = 1 AND y = 2) AND z = 3");
        let b = labels("SELECT a FROM t WHERE x = 1 AND (y = 2 AND (z = 3))");
        assert_eq!(a, b);
        assert_eq!(a.iter().filter(|l| *l == "BinaryOp:AND").count(), 1);
    }

    #[test]
    fn empty_list_gives_empty_tree() {
        assert!(statements_tree(&[]).is_empty());
    }

    #[test]
    fn no_fallback_labels_on_common_forms() {
        let sql =
            "SELECT DISTINCT count(DISTINCT a), CAST(b AS REAL), CASE WHEN c THEN 1 ELSE 2 END, \
                   substr(d, 1, 2), row_number() OVER (PARTITION BY e ORDER BY f DESC) \
                   FROM t AS x LEFT JOIN (SELECT * FROM u) AS y ON x.k = y.k \
                   WHERE g BETWEEN 1 AND 2 AND h IN (1, 2) AND i LIKE 'a%' AND j IS NOT NULL \
                   AND NOT EXISTS (SELECT 1 FROM v) AND k IN (SELECT k FROM w) \
                   GROUP BY a HAVING count(*) > 1 \
                   UNION SELECT 1, 2, 3, 4, 5 FROM z ORDER BY 1 LIMIT 3 OFFSET 2";
        let l = labels(sql);
        assert!(!l.is_empty());
        assert!(l.iter().all(|x| !x.starts_with("Expr:")), "{l:?}");
    }
}
