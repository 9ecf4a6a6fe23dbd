//! The SQL structure Spider's evaluator compares, as typed Rust values (process_sql.py's dict/tuple layout).
//!
//! Equality (`PartialEq`) is the evaluator's Python `==` on the corresponding tuples and dicts.

/// Aggregate (`AGG_OPS`; `None` is also produced by the literal token `none`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Agg {
    None,
    Max,
    Min,
    Count,
    Sum,
    Avg,
}

impl Agg {
    pub fn from_token(t: &str) -> Option<Agg> {
        Some(match t {
            "none" => Agg::None,
            "max" => Agg::Max,
            "min" => Agg::Min,
            "count" => Agg::Count,
            "sum" => Agg::Sum,
            "avg" => Agg::Avg,
            _ => return None,
        })
    }
}

/// Arithmetic between two column units (`UNIT_OPS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnitOp {
    None,
    Minus,
    Plus,
    Times,
    Divide,
}

impl UnitOp {
    pub fn from_token(t: &str) -> Option<UnitOp> {
        Some(match t {
            "none" => UnitOp::None,
            "-" => UnitOp::Minus,
            "+" => UnitOp::Plus,
            "*" => UnitOp::Times,
            "/" => UnitOp::Divide,
            _ => return None,
        })
    }
}

/// Condition operator (`WHERE_OPS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WhereOp {
    Not,
    Between,
    Eq,
    Gt,
    Lt,
    Ge,
    Le,
    Ne,
    In,
    Like,
    Is,
    Exists,
}

impl WhereOp {
    pub fn from_token(t: &str) -> Option<WhereOp> {
        Some(match t {
            "not" => WhereOp::Not,
            "between" => WhereOp::Between,
            "=" => WhereOp::Eq,
            ">" => WhereOp::Gt,
            "<" => WhereOp::Lt,
            ">=" => WhereOp::Ge,
            "<=" => WhereOp::Le,
            "!=" => WhereOp::Ne,
            "in" => WhereOp::In,
            "like" => WhereOp::Like,
            "is" => WhereOp::Is,
            "exists" => WhereOp::Exists,
            _ => return None,
        })
    }
}

/// `and` / `or` between condition units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Conj {
    And,
    Or,
}

/// A resolved column: `*` (`__all__`) or an interned `__table.column__` key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ColRef {
    All,
    Col(u32),
}

/// `(agg_id, col_id, isDistinct)`; `distinct` becomes `None` under DISABLE_DISTINCT.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ColUnit {
    pub agg: Agg,
    pub col: ColRef,
    pub distinct: Option<bool>,
}

/// `(unit_op, col_unit1, col_unit2)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ValUnit {
    pub op: UnitOp,
    pub left: ColUnit,
    pub right: Option<ColUnit>,
}

/// A condition operand: number, string (with its `"` quotes), column unit or nested query.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Number(f64),
    Str(String),
    Col(ColUnit),
    Sql(Box<Sql>),
}

/// `(not_op, op_id, val_unit, val1, val2)`; values become `None` under DISABLE_VALUE (nested queries stay).
#[derive(Debug, Clone, PartialEq)]
pub struct CondUnit {
    pub not: bool,
    pub op: WhereOp,
    pub val_unit: ValUnit,
    pub val1: Option<Value>,
    pub val2: Option<Value>,
}

/// `[cond_unit1, 'and'/'or', cond_unit2, ...]`, split into its even (`units`) and odd (`conj`) positions.
/// `conj` can be as long as `units` when the text ends in a dangling `and`/`or`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Condition {
    pub units: Vec<CondUnit>,
    pub conj: Vec<Conj>,
}

impl Condition {
    pub fn is_empty(&self) -> bool {
        self.units.is_empty() && self.conj.is_empty()
    }
    /// Length of the official flat list.
    pub fn raw_len(&self) -> usize {
        self.units.len() + self.conj.len()
    }
}

/// A FROM item: a table (`__table__`, interned) or a subquery.
#[derive(Debug, Clone, PartialEq)]
pub enum TableUnit {
    Table(u32),
    Sql(Box<Sql>),
}

/// Order direction; the last one written in ORDER BY applies to all keys (as in the original).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dir {
    Asc,
    Desc,
}

/// `('asc'/'desc', [val_unit, ...])`; present (even with no keys) whenever ORDER BY was written.
#[derive(Debug, Clone, PartialEq)]
pub struct OrderBy {
    pub dir: Dir,
    pub units: Vec<ValUnit>,
}

/// `(isDistinct, [(agg_id, val_unit), ...])`; `distinct` is `None` under DISABLE_DISTINCT.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Select {
    pub distinct: Option<bool>,
    pub items: Vec<(Agg, ValUnit)>,
}

/// `{'table_units': [...], 'conds': condition}`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct From {
    pub table_units: Vec<TableUnit>,
    pub conds: Condition,
}

/// One parsed query; the empty value is what an unparsable prediction is scored as.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Sql {
    pub select: Select,
    pub from: From,
    pub where_: Condition,
    pub group_by: Vec<ColUnit>,
    pub having: Condition,
    pub order_by: Option<OrderBy>,
    pub limit: Option<i64>,
    pub intersect: Option<Box<Sql>>,
    pub except: Option<Box<Sql>>,
    pub union: Option<Box<Sql>>,
}

impl Sql {
    /// The official "empty SQL" (select `(False, [])`, nothing else).
    pub fn empty() -> Sql {
        Sql {
            select: Select {
                distinct: Some(false),
                items: Vec::new(),
            },
            ..Sql::default()
        }
    }
}
