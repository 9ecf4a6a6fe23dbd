//! The plan operators: one struct per relational operator, and the `Plan` enum over them.

use super::columns::{ColumnId, Columns};
use super::expr::{AggFunc, Expr};

/// Join kinds. Semi and anti joins output only the left input's columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum JoinKind {
    Inner,
    Left,
    Right,
    Full,
    Semi,
    Anti,
}

impl JoinKind {
    /// Lower-case name, as Calcite prints it.
    pub fn name(self) -> &'static str {
        match self {
            JoinKind::Inner => "inner",
            JoinKind::Left => "left",
            JoinKind::Right => "right",
            JoinKind::Full => "full",
            JoinKind::Semi => "semi",
            JoinKind::Anti => "anti",
        }
    }

    /// True when the output holds the right input's columns too.
    pub fn outputs_right(self) -> bool {
        !matches!(self, JoinKind::Semi | JoinKind::Anti)
    }
}

/// Set operation kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SetKind {
    Union,
    Intersect,
    Except,
}

impl SetKind {
    /// Calcite's operator name.
    pub fn name(self) -> &'static str {
        match self {
            SetKind::Union => "Union",
            SetKind::Intersect => "Intersect",
            SetKind::Except => "Minus",
        }
    }
}

/// Reads every column of a base table.
#[derive(Debug, Clone, PartialEq)]
pub struct TableScan {
    /// The table's name as the schema spells it.
    pub table: String,
    pub columns: Vec<ColumnId>,
}

/// Keeps the rows whose condition is TRUE.
#[derive(Debug, Clone, PartialEq)]
pub struct Filter {
    pub input: Box<Plan>,
    pub condition: Expr,
}

/// Computes output columns from each input row. An item `(id, Column(id))` passes a column through.
#[derive(Debug, Clone, PartialEq)]
pub struct Project {
    pub input: Box<Plan>,
    pub items: Vec<(ColumnId, Expr)>,
}

impl Project {
    /// `e`, read above this Project, rewritten to read its input: every column the Project
    /// defines is replaced by its defining expression.
    pub fn inline(&self, e: &Expr) -> Expr {
        e.substitute(&|c| {
            self.items
                .iter()
                .find(|(id, _)| *id == c)
                .map(|(_, x)| x.clone())
        })
    }
}

/// Joins two inputs on a condition.
#[derive(Debug, Clone, PartialEq)]
pub struct Join {
    pub kind: JoinKind,
    pub left: Box<Plan>,
    pub right: Box<Plan>,
    pub condition: Expr,
}

/// One aggregate call of an [`Aggregate`]; its arguments are input columns (none for COUNT(*)).
#[derive(Debug, Clone, PartialEq)]
pub struct AggCall {
    pub id: ColumnId,
    pub func: AggFunc,
    pub distinct: bool,
    pub args: Vec<ColumnId>,
}

/// Groups by key columns (passed through with their ids) and computes aggregate calls.
/// With no keys it returns exactly one row, even on empty input.
#[derive(Debug, Clone, PartialEq)]
pub struct Aggregate {
    pub input: Box<Plan>,
    pub group: Vec<ColumnId>,
    pub calls: Vec<AggCall>,
}

/// One ORDER BY key.
#[derive(Debug, Clone, PartialEq)]
pub struct SortKey {
    pub column: ColumnId,
    pub descending: bool,
    pub nulls_first: bool,
}

/// Orders rows, then skips `offset` and keeps `fetch` rows (LIMIT without ORDER BY has no keys).
#[derive(Debug, Clone, PartialEq)]
pub struct Sort {
    pub input: Box<Plan>,
    pub keys: Vec<SortKey>,
    pub offset: Option<Expr>,
    pub fetch: Option<Expr>,
}

/// UNION / INTERSECT / EXCEPT of inputs with the same arity; output columns are new.
#[derive(Debug, Clone, PartialEq)]
pub struct SetOp {
    pub kind: SetKind,
    pub all: bool,
    pub inputs: Vec<Plan>,
    pub columns: Vec<ColumnId>,
}

/// Literal rows (a SELECT without FROM reads one empty row; an empty result has none).
#[derive(Debug, Clone, PartialEq)]
pub struct Values {
    pub columns: Vec<ColumnId>,
    pub rows: Vec<Vec<Expr>>,
}

/// One key of a window's ORDER BY.
#[derive(Debug, Clone, PartialEq)]
pub struct WindowOrder {
    pub expr: Expr,
    pub descending: bool,
    pub nulls_first: bool,
}

/// One window function call of a [`Window`]: `func(args) OVER (PARTITION BY partition ORDER BY
/// order)` with SQL's default frame.
#[derive(Debug, Clone, PartialEq)]
pub struct WindowCall {
    pub id: ColumnId,
    /// The function's lower-case name (`row_number`, `rank`, `sum`, ...).
    pub func: String,
    pub args: Vec<Expr>,
    pub partition: Vec<Expr>,
    pub order: Vec<WindowOrder>,
    /// The frame clause as written (`ROWS BETWEEN 1 PRECEDING AND CURRENT ROW`); `None` is the
    /// default frame.
    pub frame: Option<String>,
}

/// `OVER (PARTITION BY .. ORDER BY .. frame)` from the printed parts, leaving out empty ones.
pub fn over_clause(partition: &[String], order: &[String], frame: Option<&str>) -> String {
    let mut parts = Vec::new();
    if !partition.is_empty() {
        parts.push(format!("PARTITION BY {}", partition.join(", ")));
    }
    if !order.is_empty() {
        parts.push(format!("ORDER BY {}", order.join(", ")));
    }
    parts.extend(frame.map(str::to_string));
    format!("OVER ({})", parts.join(" "))
}

impl WindowCall {
    /// The call's expressions: arguments, partition keys, then order keys.
    pub fn exprs(&self) -> impl Iterator<Item = &Expr> {
        self.args
            .iter()
            .chain(&self.partition)
            .chain(self.order.iter().map(|o| &o.expr))
    }

    /// The call's expressions, mutably.
    pub fn exprs_mut(&mut self) -> impl Iterator<Item = &mut Expr> {
        self.args
            .iter_mut()
            .chain(self.partition.iter_mut())
            .chain(self.order.iter_mut().map(|o| &mut o.expr))
    }

    /// True when `other` computes the same values (everything but the output column).
    pub fn same_call(&self, other: &WindowCall) -> bool {
        self.func == other.func
            && self.args == other.args
            && self.partition == other.partition
            && self.order == other.order
            && self.frame == other.frame
    }

    /// `FUNC(args) OVER (PARTITION BY .. ORDER BY .. DESC frame)`, each expression printed by
    /// `text`: `sql_plan`'s attribute and the call column's label.
    pub fn render(&self, text: &dyn Fn(&Expr) -> String) -> String {
        let list = |es: &[Expr]| es.iter().map(text).collect::<Vec<_>>();
        let order: Vec<String> = self
            .order
            .iter()
            .map(|o| {
                format!(
                    "{}{}",
                    text(&o.expr),
                    if o.descending { " DESC" } else { "" }
                )
            })
            .collect();
        format!(
            "{}({}) {}",
            self.func.to_uppercase(),
            list(&self.args).join(", "),
            over_clause(&list(&self.partition), &order, self.frame.as_deref())
        )
    }

    /// The call's expressions as RelPM's tree and the GMN graph place them under the call's
    /// node: the arguments directly (`None`), the partition keys under `PARTITION BY`, each
    /// order key under `ASC` or `DESC`.
    pub fn subtrees(&self) -> Vec<(Option<&'static str>, Vec<&Expr>)> {
        let mut out = vec![(None, self.args.iter().collect())];
        if !self.partition.is_empty() {
            out.push((Some("PARTITION BY"), self.partition.iter().collect()));
        }
        for o in &self.order {
            out.push((
                Some(if o.descending { "DESC" } else { "ASC" }),
                vec![&o.expr],
            ));
        }
        out
    }
}

/// Appends one column per window function call to every input row (Calcite's LogicalWindow):
/// the input's columns, then the calls' results. A row's value depends on the other rows of its
/// partition, so no filter moves below it.
#[derive(Debug, Clone, PartialEq)]
pub struct Window {
    pub input: Box<Plan>,
    pub calls: Vec<WindowCall>,
}

/// A relational operator tree.
#[derive(Debug, Clone, PartialEq)]
pub enum Plan {
    TableScan(TableScan),
    Filter(Filter),
    Project(Project),
    Join(Join),
    Aggregate(Aggregate),
    Sort(Sort),
    SetOp(SetOp),
    Values(Values),
    Window(Window),
}

impl Plan {
    /// An empty relation with no columns (a placeholder while rewriting).
    pub fn empty() -> Plan {
        Plan::Values(Values {
            columns: vec![],
            rows: vec![],
        })
    }

    /// Calcite's name for the operator.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Plan::TableScan(_) => "TableScan",
            Plan::Filter(_) => "Filter",
            Plan::Project(_) => "Project",
            Plan::Join(_) => "Join",
            Plan::Aggregate(_) => "Aggregate",
            Plan::Sort(_) => "Sort",
            Plan::SetOp(s) => s.kind.name(),
            Plan::Values(_) => "Values",
            Plan::Window(_) => "Window",
        }
    }

    /// The output columns, in order.
    pub fn output(&self) -> Vec<ColumnId> {
        match self {
            Plan::TableScan(t) => t.columns.clone(),
            Plan::Filter(f) => f.input.output(),
            Plan::Project(p) => p.items.iter().map(|(id, _)| *id).collect(),
            Plan::Join(j) => {
                let mut out = j.left.output();
                if j.kind.outputs_right() {
                    out.extend(j.right.output());
                }
                out
            }
            Plan::Aggregate(a) => a
                .group
                .iter()
                .copied()
                .chain(a.calls.iter().map(|c| c.id))
                .collect(),
            Plan::Sort(s) => s.input.output(),
            Plan::SetOp(s) => s.columns.clone(),
            Plan::Values(v) => v.columns.clone(),
            Plan::Window(w) => {
                let mut out = w.input.output();
                out.extend(w.calls.iter().map(|c| c.id));
                out
            }
        }
    }

    /// The columns an expression of this node can read: the inputs' outputs, concatenated.
    pub fn input_columns(&self) -> Vec<ColumnId> {
        self.inputs().into_iter().flat_map(|i| i.output()).collect()
    }

    /// The inputs, left to right.
    pub fn inputs(&self) -> Vec<&Plan> {
        match self {
            Plan::TableScan(_) | Plan::Values(_) => vec![],
            Plan::Filter(f) => vec![&f.input],
            Plan::Project(p) => vec![&p.input],
            Plan::Join(j) => vec![&j.left, &j.right],
            Plan::Aggregate(a) => vec![&a.input],
            Plan::Sort(s) => vec![&s.input],
            Plan::SetOp(s) => s.inputs.iter().collect(),
            Plan::Window(w) => vec![&w.input],
        }
    }

    /// The inputs, mutably.
    pub fn inputs_mut(&mut self) -> Vec<&mut Plan> {
        match self {
            Plan::TableScan(_) | Plan::Values(_) => vec![],
            Plan::Filter(f) => vec![&mut f.input],
            Plan::Project(p) => vec![&mut p.input],
            Plan::Join(j) => vec![&mut j.left, &mut j.right],
            Plan::Aggregate(a) => vec![&mut a.input],
            Plan::Sort(s) => vec![&mut s.input],
            Plan::SetOp(s) => s.inputs.iter_mut().collect(),
            Plan::Window(w) => vec![&mut w.input],
        }
    }

    /// The node's own scalar expressions (not its inputs').
    pub fn exprs(&self) -> Vec<&Expr> {
        match self {
            Plan::TableScan(_) | Plan::Aggregate(_) | Plan::SetOp(_) => vec![],
            Plan::Filter(f) => vec![&f.condition],
            Plan::Project(p) => p.items.iter().map(|(_, e)| e).collect(),
            Plan::Join(j) => vec![&j.condition],
            Plan::Sort(s) => s.offset.iter().chain(s.fetch.iter()).collect(),
            Plan::Values(v) => v.rows.iter().flatten().collect(),
            Plan::Window(w) => w.calls.iter().flat_map(WindowCall::exprs).collect(),
        }
    }

    /// The node's own scalar expressions, mutably.
    pub fn exprs_mut(&mut self) -> Vec<&mut Expr> {
        match self {
            Plan::TableScan(_) | Plan::Aggregate(_) | Plan::SetOp(_) => vec![],
            Plan::Filter(f) => vec![&mut f.condition],
            Plan::Project(p) => p.items.iter_mut().map(|(_, e)| e).collect(),
            Plan::Join(j) => vec![&mut j.condition],
            Plan::Sort(s) => s.offset.iter_mut().chain(s.fetch.iter_mut()).collect(),
            Plan::Values(v) => v.rows.iter_mut().flatten().collect(),
            Plan::Window(w) => w.calls.iter_mut().flat_map(WindowCall::exprs_mut).collect(),
        }
    }

    /// Columns the node reads directly (expressions, group keys, aggregate arguments, sort keys).
    pub fn own_column_reads(&self) -> Vec<ColumnId> {
        let mut out = Vec::new();
        for e in self.exprs() {
            e.for_each_column(&mut |c| out.push(c));
        }
        match self {
            Plan::Aggregate(a) => {
                out.extend(a.group.iter().copied());
                for c in &a.calls {
                    out.extend(c.args.iter().copied());
                }
            }
            Plan::Sort(s) => out.extend(s.keys.iter().map(|k| k.column)),
            _ => {}
        }
        out
    }

    /// Every column id produced anywhere in this subtree.
    pub fn all_produced_columns(&self) -> Vec<ColumnId> {
        let mut out = self.output();
        for i in self.inputs() {
            out.extend(i.all_produced_columns());
        }
        out
    }

    /// Calls `f` for every column read by any expression, key or argument in this subtree.
    pub fn for_each_expr_column(&self, f: &mut dyn FnMut(ColumnId)) {
        for c in self.own_column_reads() {
            f(c);
        }
        for i in self.inputs() {
            i.for_each_expr_column(f);
        }
    }

    /// The columns read in this subtree that it does not produce (its correlation variables).
    pub fn outer_references(&self) -> Vec<ColumnId> {
        let own = self.all_produced_columns();
        let mut out = Vec::new();
        self.for_each_expr_column(&mut |c| {
            if !own.contains(&c) && !out.contains(&c) {
                out.push(c)
            }
        });
        out
    }

    /// This subtree with `f` applied to the column references of every expression.
    pub fn substitute_outer(&self, f: &dyn Fn(ColumnId) -> Option<Expr>) -> Plan {
        let mut p = self.clone();
        p.visit_mut(&mut |node| {
            for e in node.exprs_mut() {
                *e = e.substitute(f);
            }
        });
        p
    }

    /// This node with each input replaced by `f(input)`.
    pub fn map_inputs(mut self, f: &mut dyn FnMut(Plan) -> Plan) -> Plan {
        for input in self.inputs_mut() {
            let taken = std::mem::replace(input, Plan::empty());
            *input = f(taken);
        }
        self
    }

    /// Calls `f` on every node, children before parents.
    pub fn visit_mut(&mut self, f: &mut dyn FnMut(&mut Plan)) {
        for i in self.inputs_mut() {
            i.visit_mut(f);
        }
        f(self);
    }

    /// Calls `f` on every node, parents before children.
    pub fn visit(&self, f: &mut dyn FnMut(&Plan)) {
        f(self);
        for i in self.inputs() {
            i.visit(f);
        }
    }

    /// A canonical one-line text of the subtree (used to order join inputs and compare plans).
    pub fn digest(&self, columns: &Columns) -> String {
        let mut s = format!("{}[", self.kind_name());
        match self {
            Plan::TableScan(t) => s.push_str(&t.table.to_lowercase()),
            Plan::Join(j) => s.push_str(j.kind.name()),
            Plan::Aggregate(a) => {
                for g in &a.group {
                    s.push_str(columns.meta(*g).origin_label());
                    s.push(',');
                }
                for c in &a.calls {
                    s.push_str(c.func.name());
                    for x in &c.args {
                        s.push_str(columns.meta(*x).origin_label());
                    }
                    s.push(';');
                }
            }
            Plan::Sort(o) => {
                for k in &o.keys {
                    s.push_str(columns.meta(k.column).origin_label());
                    s.push(if k.descending { '-' } else { '+' });
                }
            }
            Plan::SetOp(o) => s.push_str(if o.all { "all" } else { "distinct" }),
            Plan::Window(w) => {
                for c in &w.calls {
                    s.push_str(&c.func);
                    s.push_str(&format!("/{}/{}", c.args.len(), c.partition.len()));
                    for o in &c.order {
                        s.push(if o.descending { '-' } else { '+' });
                    }
                    s.push_str(c.frame.as_deref().unwrap_or_default());
                    s.push(';');
                }
            }
            _ => {}
        }
        for e in self.exprs() {
            s.push_str(&e.digest(columns));
            s.push(',');
        }
        s.push(']');
        let inputs = self.inputs();
        if !inputs.is_empty() {
            s.push('(');
            for (i, input) in inputs.iter().enumerate() {
                if i > 0 {
                    s.push(',');
                }
                s.push_str(&input.digest(columns));
            }
            s.push(')');
        }
        s
    }
}
