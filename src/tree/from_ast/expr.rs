//! Expressions and function calls → labelled subtrees (the expression half of the tree builder).

use super::{object_name_text, value_label, Builder, MAX_DEPTH};
use sqlparser::ast::{
    BinaryOperator, CaseWhen, DuplicateTreatment, Expr, Function, FunctionArg, FunctionArgExpr,
    FunctionArguments, Ident, WindowType,
};

fn ident_text(ident: &Ident) -> &str {
    &ident.value
}

impl Builder {
    pub(super) fn function(&mut self, f: &Function, parent: usize, depth: usize) {
        let n = self.leaf(
            parent,
            format!("Function:{}", object_name_text(&f.name).to_lowercase()),
        );
        match &f.args {
            FunctionArguments::List(list) => {
                if list.duplicate_treatment == Some(DuplicateTreatment::Distinct) {
                    self.leaf(n, "Distinct");
                }
                for arg in &list.args {
                    let arg = match arg {
                        FunctionArg::Unnamed(a) => a,
                        FunctionArg::Named { arg, .. } | FunctionArg::ExprNamed { arg, .. } => arg,
                    };
                    match arg {
                        FunctionArgExpr::Expr(e) => self.expr(e, n, depth + 1),
                        FunctionArgExpr::QualifiedWildcard(q) => {
                            self.leaf(n, format!("Star:{}", object_name_text(q)));
                        }
                        FunctionArgExpr::Wildcard | FunctionArgExpr::WildcardWithOptions(_) => {
                            self.leaf(n, "Star");
                        }
                    }
                }
            }
            FunctionArguments::Subquery(q) => self.query(q, n, depth + 1),
            FunctionArguments::None => {}
        }
        if let Some(filter) = &f.filter {
            let fl = self.leaf(n, "Filter");
            self.expr(filter, fl, depth + 1);
        }
        match &f.over {
            Some(WindowType::WindowSpec(spec)) => {
                let w = self.leaf(n, "Window");
                if !spec.partition_by.is_empty() {
                    let p = self.leaf(w, "PartitionBy");
                    for e in &spec.partition_by {
                        self.expr(e, p, depth + 2);
                    }
                }
                if !spec.order_by.is_empty() {
                    let o = self.leaf(w, "OrderBy");
                    for item in &spec.order_by {
                        self.order_item(item, o, depth + 2);
                    }
                }
                if spec.window_frame.is_some() {
                    self.leaf(w, "Frame");
                }
            }
            Some(WindowType::NamedWindow(name)) => {
                self.leaf(n, format!("Window:{}", ident_text(name)));
            }
            None => {}
        }
    }

    fn exprs(&mut self, label: &str, items: &[&Expr], parent: usize, depth: usize) -> usize {
        let n = self.leaf(parent, label);
        for e in items {
            self.expr(e, n, depth + 1);
        }
        n
    }

    pub(super) fn expr(&mut self, e: &Expr, parent: usize, depth: usize) {
        if depth > MAX_DEPTH {
            self.leaf(parent, "Truncated");
            return;
        }
        let handled = self.structural(e, parent, depth)
            || self.predicate(e, parent, depth)
            || self.is_test(e, parent, depth)
            || self.function_syntax(e, parent, depth);
        if !handled {
            self.leaf_expr(e, parent);
        }
    }

    /// Nesting, operators, function calls, CASE and subqueries: the forms with their own shape.
    /// Returns false for any other variant.
    fn structural(&mut self, e: &Expr, parent: usize, depth: usize) -> bool {
        match e {
            Expr::Nested(inner) => self.expr(inner, parent, depth + 1),
            Expr::BinaryOp { op, .. } if matches!(op, BinaryOperator::And | BinaryOperator::Or) => {
                // One n-ary node per chain, collected with an explicit stack.
                let n = self.leaf(parent, format!("BinaryOp:{op}"));
                let mut stack = vec![e];
                while let Some(cur) = stack.pop() {
                    match cur {
                        Expr::BinaryOp { left, op: o, right } if o == op => {
                            stack.push(right);
                            stack.push(left);
                        }
                        Expr::Nested(inner) if matches!(&**inner, Expr::BinaryOp { op: o, .. } if o == op) =>
                        {
                            stack.push(inner);
                        }
                        term => self.expr(term, n, depth + 1),
                    }
                }
            }
            Expr::BinaryOp { left, op, right } => {
                self.exprs(&format!("BinaryOp:{op}"), &[left, right], parent, depth);
            }
            Expr::UnaryOp { op, expr } => {
                self.exprs(&format!("UnaryOp:{op}"), &[expr], parent, depth);
            }
            Expr::Function(f) => self.function(f, parent, depth),
            Expr::Case {
                operand,
                conditions,
                else_result,
                ..
            } => {
                let n = self.leaf(parent, "Case");
                if let Some(op) = operand {
                    self.exprs("Operand", &[op], n, depth + 1);
                }
                for CaseWhen { condition, result } in conditions {
                    self.exprs("When", &[condition, result], n, depth + 1);
                }
                if let Some(el) = else_result {
                    self.exprs("Else", &[el], n, depth + 1);
                }
            }
            Expr::Exists { subquery, negated } => {
                let n = self.leaf(parent, not(negated, "Exists", "NotExists"));
                self.query(subquery, n, depth + 1);
            }
            Expr::Subquery(q) => {
                let n = self.leaf(parent, "Subquery");
                self.query(q, n, depth + 1);
            }
            _ => return false,
        }
        true
    }

    /// Range, membership, pattern and quantified comparisons: `BETWEEN`, `IN`, `LIKE`, `ANY`/`ALL`, ...
    /// Returns false for any other variant.
    fn predicate(&mut self, e: &Expr, parent: usize, depth: usize) -> bool {
        match e {
            Expr::Between {
                expr,
                negated,
                low,
                high,
            } => {
                let label = not(negated, "Between", "NotBetween");
                self.exprs(label, &[expr, low, high], parent, depth);
            }
            Expr::InList {
                expr,
                list,
                negated,
            } => {
                let n = self.exprs(not(negated, "In", "NotIn"), &[expr], parent, depth);
                for item in list {
                    self.expr(item, n, depth + 1);
                }
            }
            Expr::InSubquery {
                expr,
                subquery,
                negated,
            } => {
                let n = self.exprs(not(negated, "In", "NotIn"), &[expr], parent, depth);
                self.query(subquery, n, depth + 1);
            }
            Expr::Like {
                negated,
                expr,
                pattern,
                escape_char,
                ..
            }
            | Expr::ILike {
                negated,
                expr,
                pattern,
                escape_char,
                ..
            } => {
                let n = self.exprs(
                    not(negated, "Like", "NotLike"),
                    &[expr, pattern],
                    parent,
                    depth,
                );
                if let Some(esc) = escape_char {
                    self.exprs("Escape", &[esc], n, depth + 1);
                }
            }
            Expr::SimilarTo {
                negated,
                expr,
                pattern,
                ..
            } => {
                let label = not(negated, "SimilarTo", "NotSimilarTo");
                self.exprs(label, &[expr, pattern], parent, depth);
            }
            Expr::RLike {
                negated,
                expr,
                pattern,
                ..
            } => {
                let label = not(negated, "RLike", "NotRLike");
                self.exprs(label, &[expr, pattern], parent, depth);
            }
            Expr::AnyOp {
                left,
                compare_op,
                right,
                ..
            } => {
                self.exprs(&format!("Any:{compare_op}"), &[left, right], parent, depth);
            }
            Expr::AllOp {
                left,
                compare_op,
                right,
            } => {
                self.exprs(&format!("All:{compare_op}"), &[left, right], parent, depth);
            }
            _ => return false,
        }
        true
    }

    /// `IS [NOT] NULL/TRUE/FALSE` and `IS [NOT] DISTINCT FROM`. Returns false for any other variant.
    fn is_test(&mut self, e: &Expr, parent: usize, depth: usize) -> bool {
        match e {
            Expr::IsNull(x) => {
                self.exprs("IsNull", &[x], parent, depth);
            }
            Expr::IsNotNull(x) => {
                self.exprs("IsNotNull", &[x], parent, depth);
            }
            Expr::IsTrue(x) => {
                self.exprs("IsTrue", &[x], parent, depth);
            }
            Expr::IsNotTrue(x) => {
                self.exprs("IsNotTrue", &[x], parent, depth);
            }
            Expr::IsFalse(x) => {
                self.exprs("IsFalse", &[x], parent, depth);
            }
            Expr::IsNotFalse(x) => {
                self.exprs("IsNotFalse", &[x], parent, depth);
            }
            Expr::IsDistinctFrom(a, b) => {
                self.exprs("IsDistinctFrom", &[a, b], parent, depth);
            }
            Expr::IsNotDistinctFrom(a, b) => {
                self.exprs("IsNotDistinctFrom", &[a, b], parent, depth);
            }
            _ => return false,
        }
        true
    }

    /// Tuples and the functions with their own syntax (`CAST`, `EXTRACT`, `SUBSTRING`, `TRIM`, ...,
    /// `COLLATE`). Returns false for any other variant.
    fn function_syntax(&mut self, e: &Expr, parent: usize, depth: usize) -> bool {
        match e {
            Expr::Cast {
                expr, data_type, ..
            } => {
                let label = format!("Cast:{}", data_type.to_string().to_lowercase());
                self.exprs(&label, &[expr], parent, depth);
            }
            Expr::Tuple(items) => {
                let refs: Vec<&Expr> = items.iter().collect();
                self.exprs("Tuple", &refs, parent, depth);
            }
            Expr::Extract { field, expr, .. } => {
                let label = format!("Extract:{}", field.to_string().to_lowercase());
                self.exprs(&label, &[expr], parent, depth);
            }
            Expr::Substring {
                expr,
                substring_from,
                substring_for,
                ..
            } => {
                let mut args: Vec<&Expr> = vec![expr];
                args.extend(substring_from.iter().map(|b| b.as_ref()));
                args.extend(substring_for.iter().map(|b| b.as_ref()));
                self.exprs("Function:substr", &args, parent, depth);
            }
            Expr::Trim {
                expr, trim_what, ..
            } => {
                let mut args: Vec<&Expr> = vec![expr];
                args.extend(trim_what.iter().map(|b| b.as_ref()));
                self.exprs("Function:trim", &args, parent, depth);
            }
            Expr::Ceil { expr, .. } => {
                self.exprs("Function:ceil", &[expr], parent, depth);
            }
            Expr::Floor { expr, .. } => {
                self.exprs("Function:floor", &[expr], parent, depth);
            }
            Expr::Position { expr, r#in } => {
                self.exprs("Function:position", &[expr, r#in], parent, depth);
            }
            Expr::Collate { expr, collation } => {
                let label = format!("Collate:{}", object_name_text(collation).to_lowercase());
                self.exprs(&label, &[expr], parent, depth);
            }
            _ => return false,
        }
        true
    }

    /// Columns, values, wildcards and every other form: one leaf (a column qualifier is its child).
    fn leaf_expr(&mut self, e: &Expr, parent: usize) {
        match e {
            Expr::Identifier(id) => {
                self.leaf(parent, format!("Column:{}", ident_text(id)));
            }
            Expr::CompoundIdentifier(ids) => match ids.split_last() {
                Some((col, quals)) if !quals.is_empty() => {
                    let n = self.leaf(parent, format!("Column:{}", ident_text(col)));
                    let q: Vec<&str> = quals.iter().map(ident_text).collect();
                    self.leaf(n, format!("Qualifier:{}", q.join(".")));
                }
                Some((col, _)) => {
                    self.leaf(parent, format!("Column:{}", ident_text(col)));
                }
                None => {}
            },
            Expr::Value(v) => {
                self.leaf(parent, value_label(&v.value));
            }
            Expr::Wildcard(_) => {
                self.leaf(parent, "Star");
            }
            Expr::QualifiedWildcard(name, _) => {
                self.leaf(parent, format!("Star:{}", object_name_text(name)));
            }
            // Literal-like leaves: the whole value is one label.
            Expr::TypedString(_) | Expr::Interval(_) => {
                self.leaf(parent, format!("Literal:{e}"));
            }
            // Rare dialect-specific forms absent from the benchmark data: one leaf with their SQL.
            other => {
                self.leaf(parent, format!("Expr:{other}"));
            }
        }
    }
}

/// The label of a negatable form: `no` when `negated`.
fn not(negated: &bool, yes: &'static str, no: &'static str) -> &'static str {
    if *negated {
        no
    } else {
        yes
    }
}
