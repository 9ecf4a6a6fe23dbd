//! Typed scalar expressions of a plan: column references by id, literals, calls, subqueries.

use super::columns::{ColumnId, Columns};
use super::node::Plan;
use std::fmt::Write;

/// A constant value.
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    Null,
    Integer(i64),
    Real(f64),
    Text(String),
    Boolean(bool),
}

/// The type of a value, by SQLite's storage classes plus booleans and "unknown".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DataType {
    Integer,
    Real,
    Numeric,
    Text,
    Boolean,
    Blob,
    Null,
    Any,
}

impl DataType {
    /// The upper-case name printed by `sql_plan`.
    pub fn name(self) -> &'static str {
        match self {
            DataType::Integer => "INTEGER",
            DataType::Real => "REAL",
            DataType::Numeric => "NUMERIC",
            DataType::Text => "TEXT",
            DataType::Boolean => "BOOLEAN",
            DataType::Blob => "BLOB",
            DataType::Null => "NULL",
            DataType::Any => "ANY",
        }
    }
}

/// Aggregate functions. `AnyValue` stands for SQLite's "bare column" in an aggregate query.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AggFunc {
    Count,
    Sum,
    Avg,
    Min,
    Max,
    Total,
    GroupConcat,
    AnyValue,
}

impl AggFunc {
    /// The aggregate function named `name` (lower case), when it is one.
    pub fn from_name(name: &str) -> Option<AggFunc> {
        Some(match name {
            "count" => AggFunc::Count,
            "sum" => AggFunc::Sum,
            "avg" => AggFunc::Avg,
            "min" => AggFunc::Min,
            "max" => AggFunc::Max,
            "total" => AggFunc::Total,
            "group_concat" | "string_agg" => AggFunc::GroupConcat,
            "any_value" => AggFunc::AnyValue,
            _ => return None,
        })
    }

    /// The upper-case name printed by `sql_plan`.
    pub fn name(&self) -> &'static str {
        match self {
            AggFunc::Count => "COUNT",
            AggFunc::Sum => "SUM",
            AggFunc::Avg => "AVG",
            AggFunc::Min => "MIN",
            AggFunc::Max => "MAX",
            AggFunc::Total => "TOTAL",
            AggFunc::GroupConcat => "GROUP_CONCAT",
            AggFunc::AnyValue => "ANY_VALUE",
        }
    }
}

/// Scalar operators and functions.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Op {
    Eq,
    NotEq,
    Lt,
    LtEq,
    Gt,
    GtEq,
    IsDistinctFrom,
    IsNotDistinctFrom,
    And,
    Or,
    Not,
    IsNull,
    IsNotNull,
    Plus,
    Minus,
    Multiply,
    Divide,
    Modulo,
    Concat,
    Negate,
    /// `LIKE` (case-insensitive for ASCII in SQLite); args: value, pattern[, escape].
    Like,
    Glob,
    /// args: value, low, high. Expanded by the `expand_between_in` rule.
    Between,
    /// args: value, item, item, ... Expanded by the `expand_between_in` rule.
    InList,
    /// Searched CASE; args: when, then, when, then, ..., else.
    Case,
    /// CAST to the named type (lower case, as written).
    Cast(String),
    /// Any other scalar function, by lower-case name.
    Function(String),
    /// An aggregate call not yet moved into an Aggregate operator (only inside the builder).
    Aggregate(AggFunc, bool),
}

impl Op {
    /// The name printed by `sql_plan` (Calcite's spelling where Calcite has one).
    pub fn name(&self) -> String {
        match self {
            Op::Eq => "=".into(),
            Op::NotEq => "<>".into(),
            Op::Lt => "<".into(),
            Op::LtEq => "<=".into(),
            Op::Gt => ">".into(),
            Op::GtEq => ">=".into(),
            Op::IsDistinctFrom => "IS DISTINCT FROM".into(),
            Op::IsNotDistinctFrom => "IS NOT DISTINCT FROM".into(),
            Op::And => "AND".into(),
            Op::Or => "OR".into(),
            Op::Not => "NOT".into(),
            Op::IsNull => "IS NULL".into(),
            Op::IsNotNull => "IS NOT NULL".into(),
            Op::Plus => "+".into(),
            Op::Minus => "-".into(),
            Op::Multiply => "*".into(),
            Op::Divide => "/".into(),
            Op::Modulo => "MOD".into(),
            Op::Concat => "||".into(),
            Op::Negate => "-".into(),
            Op::Like => "LIKE".into(),
            Op::Glob => "GLOB".into(),
            Op::Between => "BETWEEN".into(),
            Op::InList => "IN".into(),
            Op::Case => "CASE".into(),
            Op::Cast(t) => format!("CAST:{}", t.to_uppercase()),
            Op::Function(f) => f.to_uppercase(),
            Op::Aggregate(f, distinct) => {
                format!("{}{}", f.name(), if *distinct { " DISTINCT" } else { "" })
            }
        }
    }

    /// True when swapping the two operands gives the same value (`=`, `AND`, `+`, ...).
    pub fn is_commutative(&self) -> bool {
        matches!(
            self,
            Op::Eq
                | Op::NotEq
                | Op::IsDistinctFrom
                | Op::IsNotDistinctFrom
                | Op::And
                | Op::Or
                | Op::Plus
                | Op::Multiply
        )
    }

    /// The comparison with its operands swapped (`a < b` is `b > a`).
    pub fn flipped(&self) -> Option<Op> {
        Some(match self {
            Op::Lt => Op::Gt,
            Op::LtEq => Op::GtEq,
            Op::Gt => Op::Lt,
            Op::GtEq => Op::LtEq,
            Op::Eq | Op::NotEq | Op::IsDistinctFrom | Op::IsNotDistinctFrom => self.clone(),
            _ => return None,
        })
    }

    /// The comparison that is true exactly when this one is false (both NULL on NULL input).
    pub fn negated(&self) -> Option<Op> {
        Some(match self {
            Op::Eq => Op::NotEq,
            Op::NotEq => Op::Eq,
            Op::Lt => Op::GtEq,
            Op::LtEq => Op::Gt,
            Op::Gt => Op::LtEq,
            Op::GtEq => Op::Lt,
            Op::IsNull => Op::IsNotNull,
            Op::IsNotNull => Op::IsNull,
            Op::IsDistinctFrom => Op::IsNotDistinctFrom,
            Op::IsNotDistinctFrom => Op::IsDistinctFrom,
            _ => return None,
        })
    }

    /// True for the operators whose value is a truth value (comparisons, logic, IS NULL, LIKE,
    /// BETWEEN, IN).
    pub fn is_predicate(&self) -> bool {
        matches!(
            self,
            Op::Eq
                | Op::NotEq
                | Op::Lt
                | Op::LtEq
                | Op::Gt
                | Op::GtEq
                | Op::IsDistinctFrom
                | Op::IsNotDistinctFrom
                | Op::And
                | Op::Or
                | Op::Not
                | Op::IsNull
                | Op::IsNotNull
                | Op::Like
                | Op::Glob
                | Op::Between
                | Op::InList
        )
    }

    /// True for `=`, `<`, ... (the comparisons).
    pub fn is_comparison(&self) -> bool {
        matches!(
            self,
            Op::Eq | Op::NotEq | Op::Lt | Op::LtEq | Op::Gt | Op::GtEq
        )
    }
}

/// What a subquery expression asks of its rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubqueryKind {
    /// `(SELECT ...)` as a value.
    Scalar,
    /// `EXISTS (SELECT ...)`.
    Exists,
    /// `operand IN (SELECT ...)`.
    In,
}

/// A subquery inside an expression; its plan may reference outer columns (correlation).
#[derive(Debug, Clone, PartialEq)]
pub struct Subquery {
    pub kind: SubqueryKind,
    /// The left operand of `IN`: one value, or the values of a row value `(a, b, ..)` (as
    /// many as the subquery has columns); empty for `EXISTS` and a scalar subquery.
    pub operands: Vec<Expr>,
    pub plan: Plan,
}

/// A scalar expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Column(ColumnId),
    Literal(Literal),
    Call(Op, Vec<Expr>),
    Subquery(Box<Subquery>),
}

impl Expr {
    pub const TRUE: Expr = Expr::Literal(Literal::Boolean(true));
    pub const FALSE: Expr = Expr::Literal(Literal::Boolean(false));

    /// A call expression.
    pub fn call(op: Op, args: Vec<Expr>) -> Expr {
        Expr::Call(op, args)
    }

    /// `NOT e`.
    pub fn negation(e: Expr) -> Expr {
        Expr::Call(Op::Not, vec![e])
    }

    /// The conjunction of `terms` (TRUE when empty, the term itself when one).
    pub fn and(mut terms: Vec<Expr>) -> Expr {
        match terms.len() {
            0 => Expr::TRUE,
            1 => terms.pop().unwrap_or(Expr::TRUE),
            _ => Expr::Call(Op::And, terms),
        }
    }

    /// The disjunction of `terms` (FALSE when empty).
    pub fn or(mut terms: Vec<Expr>) -> Expr {
        match terms.len() {
            0 => Expr::FALSE,
            1 => terms.pop().unwrap_or(Expr::FALSE),
            _ => Expr::Call(Op::Or, terms),
        }
    }

    /// `args` with nested calls of `op` spliced in (AND and OR chains become n-ary).
    pub fn flattened(op: &Op, args: Vec<Expr>) -> Vec<Expr> {
        let mut out = Vec::new();
        for a in args {
            match a {
                Expr::Call(o, inner) if o == *op => out.extend(Expr::flattened(op, inner)),
                other => out.push(other),
            }
        }
        out
    }

    /// True for the literal TRUE.
    pub fn is_true(&self) -> bool {
        matches!(self, Expr::Literal(Literal::Boolean(true)))
    }

    /// The top-level conjuncts (the expression itself when it is not an AND).
    pub fn conjuncts(self) -> Vec<Expr> {
        match self {
            Expr::Call(Op::And, args) => args.into_iter().flat_map(Expr::conjuncts).collect(),
            e if e.is_true() => vec![],
            e => vec![e],
        }
    }

    /// Calls `f` on every column this expression reads, including outer columns read inside
    /// subqueries (but not the subquery's own columns).
    pub fn for_each_column(&self, f: &mut dyn FnMut(ColumnId)) {
        match self {
            Expr::Column(c) => f(*c),
            Expr::Literal(_) => {}
            Expr::Call(_, args) => args.iter().for_each(|a| a.for_each_column(f)),
            Expr::Subquery(s) => {
                for o in &s.operands {
                    o.for_each_column(f);
                }
                let own = s.plan.all_produced_columns();
                s.plan.for_each_expr_column(&mut |c| {
                    if !own.contains(&c) {
                        f(c)
                    }
                });
            }
        }
    }

    /// The columns this expression reads, in order of appearance, without repeats.
    pub fn columns(&self) -> Vec<ColumnId> {
        let mut out = Vec::new();
        self.for_each_column(&mut |c| {
            if !out.contains(&c) {
                out.push(c)
            }
        });
        out
    }

    /// True when every column read is in `available`.
    pub fn only_reads(&self, available: &[ColumnId]) -> bool {
        let mut ok = true;
        self.for_each_column(&mut |c| ok &= available.contains(&c));
        ok
    }

    /// Number of nodes in the expression (subquery plans count as one).
    pub fn size(&self) -> usize {
        match self {
            Expr::Call(_, args) => 1 + args.iter().map(Expr::size).sum::<usize>(),
            _ => 1,
        }
    }

    /// True when the expression contains a subquery.
    pub fn has_subquery(&self) -> bool {
        match self {
            Expr::Subquery(_) => true,
            Expr::Call(_, args) => args.iter().any(Expr::has_subquery),
            _ => false,
        }
    }

    /// True when the expression contains an aggregate placeholder (builder only).
    pub fn has_aggregate(&self) -> bool {
        match self {
            Expr::Call(Op::Aggregate(..), _) => true,
            Expr::Call(_, args) => args.iter().any(Expr::has_aggregate),
            _ => false,
        }
    }

    /// True when the expression may give a different value each time (`random()`).
    pub fn is_volatile(&self) -> bool {
        match self {
            Expr::Call(Op::Function(f), args) => {
                matches!(
                    f.as_str(),
                    "random" | "randomblob" | "changes" | "last_insert_rowid"
                ) || args.iter().any(Expr::is_volatile)
            }
            Expr::Call(_, args) => args.iter().any(Expr::is_volatile),
            _ => false,
        }
    }

    /// Replaces every column reference `c` with `f(c)` when that gives `Some`.
    pub fn substitute(&self, f: &dyn Fn(ColumnId) -> Option<Expr>) -> Expr {
        match self {
            Expr::Column(c) => f(*c).unwrap_or(Expr::Column(*c)),
            Expr::Literal(_) => self.clone(),
            Expr::Call(op, args) => {
                Expr::Call(op.clone(), args.iter().map(|a| a.substitute(f)).collect())
            }
            Expr::Subquery(s) => {
                let mut s = (**s).clone();
                s.operands = s.operands.iter().map(|o| o.substitute(f)).collect();
                s.plan = s.plan.substitute_outer(f);
                Expr::Subquery(Box::new(s))
            }
        }
    }

    /// The value type of the expression.
    pub fn data_type(&self, columns: &Columns) -> DataType {
        match self {
            Expr::Column(c) => columns.meta(*c).ty,
            Expr::Literal(Literal::Null) => DataType::Null,
            Expr::Literal(Literal::Integer(_)) => DataType::Integer,
            Expr::Literal(Literal::Real(_)) => DataType::Real,
            Expr::Literal(Literal::Text(_)) => DataType::Text,
            Expr::Literal(Literal::Boolean(_)) => DataType::Boolean,
            Expr::Call(op, args) => match op {
                op if op.is_predicate() => DataType::Boolean,
                Op::Concat => DataType::Text,
                Op::Divide | Op::Plus | Op::Minus | Op::Multiply | Op::Modulo => {
                    let (a, b) = (
                        args.first().map(|a| a.data_type(columns)),
                        args.get(1).map(|a| a.data_type(columns)),
                    );
                    match (a, b) {
                        (Some(DataType::Integer), Some(DataType::Integer)) => DataType::Integer,
                        (Some(DataType::Real), _) | (_, Some(DataType::Real)) => DataType::Real,
                        _ => DataType::Numeric,
                    }
                }
                Op::Negate => args.first().map_or(DataType::Any, |a| a.data_type(columns)),
                Op::Case => args
                    .iter()
                    .skip(1)
                    .step_by(2)
                    .map(|a| a.data_type(columns))
                    .find(|t| *t != DataType::Null)
                    .unwrap_or(DataType::Any),
                Op::Cast(t) => cast_type(t),
                Op::Aggregate(f, _) => match f {
                    AggFunc::Count => DataType::Integer,
                    AggFunc::Avg | AggFunc::Total => DataType::Real,
                    AggFunc::GroupConcat => DataType::Text,
                    _ => args.first().map_or(DataType::Any, |a| a.data_type(columns)),
                },
                _ => DataType::Any,
            },
            Expr::Subquery(s) => match s.kind {
                SubqueryKind::Scalar => s
                    .plan
                    .output()
                    .first()
                    .map_or(DataType::Any, |c| columns.meta(*c).ty),
                _ => DataType::Boolean,
            },
        }
    }

    /// A canonical text of the expression (column ids printed as `#id`), used to order
    /// commutative operands and to compare expressions.
    pub fn digest(&self, columns: &Columns) -> String {
        let mut s = String::new();
        self.write_digest(columns, &mut s);
        s
    }

    fn write_digest(&self, columns: &Columns, out: &mut String) {
        match self {
            Expr::Column(c) => {
                let m = columns.meta(*c);
                let _ = write!(out, "{}", m.origin_label());
            }
            Expr::Literal(l) => {
                let _ = write!(out, "{}", literal_text(l));
            }
            Expr::Call(op, args) => {
                out.push_str(&op.name());
                out.push('(');
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    a.write_digest(columns, out);
                }
                out.push(')');
            }
            Expr::Subquery(s) => {
                let _ = write!(out, "{:?}(", s.kind);
                for o in &s.operands {
                    o.write_digest(columns, out);
                }
                out.push_str(&s.plan.digest(columns));
                out.push(')');
            }
        }
    }
}

/// A literal as `sql_plan` prints it: numbers bare, text in single quotes.
pub fn literal_text(l: &Literal) -> String {
    match l {
        Literal::Null => "null".into(),
        Literal::Integer(i) => i.to_string(),
        Literal::Real(r) => {
            if r.fraction() == 0.0 && r.abs() < 1e15 {
                format!("{r:.1}")
            } else {
                r.to_string()
            }
        }
        Literal::Text(t) => format!("'{}'", t.replace('\'', "''")),
        Literal::Boolean(b) => b.to_string(),
    }
}

trait Fraction {
    fn fraction(self) -> f64;
}

impl Fraction for f64 {
    fn fraction(self) -> f64 {
        self - self.trunc()
    }
}

/// The value type of `CAST(x AS name)`, by SQLite's affinity rules.
pub fn cast_type(name: &str) -> DataType {
    let n = name.to_lowercase();
    if n.contains("int") {
        DataType::Integer
    } else if n.contains("char") || n.contains("clob") || n.contains("text") {
        DataType::Text
    } else if n.contains("blob") || n.is_empty() {
        DataType::Blob
    } else if n.contains("real") || n.contains("floa") || n.contains("doub") {
        DataType::Real
    } else {
        DataType::Numeric
    }
}
