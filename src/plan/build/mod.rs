//! Parsed AST → plan: name resolution, `*` expansion, aggregation, ordering and set operations,
//! following the order of SQL's logical evaluation (FROM, WHERE, GROUP BY, HAVING, SELECT,
//! DISTINCT, ORDER BY, LIMIT), as Calcite's SqlToRelConverter does.

mod aggregate;
mod count;
mod expr;
mod from;
mod scope;
mod select;
mod subquery;
mod window;

pub use scope::{Relation, Scope};

use super::columns::{ColumnId, Columns};
use super::expr::{Expr, Literal};
use super::node::{Plan, SetKind, SetOp, Sort, SortKey, Values};
pub use super::PlanError;
use crate::schema::Schema;
use sqlparser::ast::{
    LimitClause, OrderByExpr, OrderByKind, Query, SetExpr, SetOperator, SetQuantifier, Statement,
};

/// Deepest nesting of queries and expressions the builder follows: the guard must fire before a
/// 1 MiB host thread's stack runs out, and one level of a chain of CTEs referencing each other
/// (which the parser's recursion limit does not see) costs two units and about 14 KiB.
pub const MAX_BUILD_DEPTH: usize = 100;
/// Most tables in one FROM clause, SQLite's own limit on a join.
pub const MAX_JOIN_TABLES: usize = 64;
/// Most terms in a select list, GROUP BY or ORDER BY: SQLite's default SQLITE_MAX_COLUMN (name
/// resolution is linear per term, so tens of thousands of terms took seconds).
pub const MAX_LIST_TERMS: usize = 2_000;
/// Largest number of columns one plan may define (bounds `*` over wide self-joins).
pub const MAX_PLAN_COLUMNS: usize = 20_000;
/// Most expression nodes the builder plans for one query (a literal, a column, each operator
/// and function call): every later stage, ParSEval's terms and constraints most of all, grows
/// with them, and a 100,000-item IN list held a verdict for minutes before Z3 ran out of memory.
/// The largest of the 7,881 queries of `../shared/data` (with their schemas) has 248.
pub const MAX_PLAN_EXPRESSIONS: usize = 5_000;

/// A step of planning, or why the query could not be planned.
pub type BuildResult<T> = Result<T, PlanError>;

/// Builds plans against one schema, owning the column arena.
pub struct Builder<'a> {
    pub schema: &'a Schema,
    pub columns: Columns,
    /// Common table expressions in scope, innermost last: (lower-case name, definition).
    ctes: Vec<(String, Query)>,
    /// Positions in `ctes` of the CTEs whose definitions are being planned (cycle detection).
    expanding: Vec<usize>,
    depth: usize,
    /// Expression nodes planned so far (at most [`MAX_PLAN_EXPRESSIONS`]).
    expressions: usize,
    /// Window calls of the SELECT block being planned ([`window::PendingWindows`]).
    windows: window::PendingWindows,
}

/// Runs `f` one nesting level deeper, failing past [`MAX_BUILD_DEPTH`].
macro_rules! deeper {
    ($b:expr, $body:expr) => {{
        $b.depth += 1;
        if $b.depth > $crate::plan::build::MAX_BUILD_DEPTH {
            $b.depth -= 1;
            return Err($crate::plan::PlanError::Limit(
                "query nests too deeply to plan".to_string(),
            ));
        }
        let r = $body;
        $b.depth -= 1;
        r
    }};
}
pub(crate) use deeper;

impl<'a> Builder<'a> {
    /// A builder resolving table names against `schema`.
    pub fn new(schema: &'a Schema) -> Self {
        Builder {
            schema,
            columns: Columns::default(),
            ctes: Vec::new(),
            expanding: Vec::new(),
            depth: 0,
            expressions: 0,
            windows: window::PendingWindows::default(),
        }
    }

    /// The plan of one statement (only queries can be planned).
    pub fn statement(&mut self, statement: &Statement) -> BuildResult<Plan> {
        match statement {
            Statement::Query(q) => self.query(q, None),
            other => {
                let text = other.to_string();
                let kind = text.split_whitespace().next().unwrap_or("statement");
                Err(PlanError::Unsupported(format!(
                    "only queries can be planned, not {kind}"
                )))
            }
        }
    }

    /// Checks the column budget.
    fn check_columns(&self) -> BuildResult<()> {
        if self.columns.len() > MAX_PLAN_COLUMNS {
            Err(PlanError::Limit(format!(
                "query defines more than {MAX_PLAN_COLUMNS} columns"
            )))
        } else {
            Ok(())
        }
    }

    /// The plan of a query (WITH, body, ORDER BY, LIMIT), nested in `outer` when correlated.
    pub fn query(&mut self, q: &Query, outer: Option<&Scope>) -> BuildResult<Plan> {
        deeper!(self, {
            let pushed = self.push_ctes(q)?;
            let result = self.query_body(q, outer);
            self.ctes.truncate(self.ctes.len() - pushed);
            result
        })
    }

    fn push_ctes(&mut self, q: &Query) -> BuildResult<usize> {
        let Some(with) = &q.with else { return Ok(0) };
        if with.recursive {
            return Err(PlanError::Unsupported(
                "recursive common table expressions are not supported".into(),
            ));
        }
        for cte in &with.cte_tables {
            let mut body = (*cte.query).clone();
            if !cte.alias.columns.is_empty() {
                // Column renames become aliases of the CTE's output (applied when referenced).
                body = rename_outputs(body, &cte.alias.columns)?;
            }
            self.ctes.push((cte.alias.name.value.to_lowercase(), body));
        }
        Ok(with.cte_tables.len())
    }

    /// The definition of the CTE called `name`, innermost first, with its position in `ctes`.
    fn cte(&self, name: &str) -> Option<(usize, Query)> {
        self.ctes
            .iter()
            .enumerate()
            .rev()
            .find(|(_, (n, _))| n == name)
            .map(|(i, (_, q))| (i, q.clone()))
    }

    /// The plan of a reference to the CTE at position `index` of `ctes`, defined by `q`. Every CTE
    /// of a WITH list is visible in every definition (as in SQLite), so a definition that reaches
    /// itself is SQLite's "circular reference" error rather than an endless expansion.
    fn cte_reference(
        &mut self,
        index: usize,
        q: &Query,
        outer: Option<&Scope>,
    ) -> BuildResult<Plan> {
        if self.expanding.contains(&index) {
            return Err(PlanError::Invalid(format!(
                "circular reference: {}",
                self.ctes[index].0
            )));
        }
        self.expanding.push(index);
        let plan = self.query(q, outer);
        self.expanding.pop();
        plan
    }

    fn query_body(&mut self, q: &Query, outer: Option<&Scope>) -> BuildResult<Plan> {
        let (limit, offset) = limit_offset(q)?;
        let order: Vec<OrderByExpr> = match q.order_by.as_ref().map(|o| &o.kind) {
            Some(OrderByKind::Expressions(items)) => items.clone(),
            Some(OrderByKind::All(_)) => {
                return Err(PlanError::Unsupported(
                    "ORDER BY ALL is not supported".into(),
                ))
            }
            None => Vec::new(),
        };
        match &*q.body {
            SetExpr::Select(s) => self.select(s, &order, limit, offset, outer),
            SetExpr::Query(inner) if order.is_empty() && limit.is_none() && offset.is_none() => {
                self.query(inner, outer)
            }
            body => {
                let plan = self.set_expr(body, outer)?;
                self.order_outputs(plan, &order, limit, offset)
            }
        }
    }

    /// A set-expression (UNION, a parenthesized query, VALUES) without its own ORDER BY.
    fn set_expr(&mut self, body: &SetExpr, outer: Option<&Scope>) -> BuildResult<Plan> {
        deeper!(self, {
            match body {
                SetExpr::Select(s) => self.select(s, &[], None, None, outer),
                SetExpr::Query(q) => self.query(q, outer),
                SetExpr::SetOperation {
                    op,
                    set_quantifier,
                    left,
                    right,
                } => {
                    let kind = match op {
                        SetOperator::Union => SetKind::Union,
                        SetOperator::Intersect => SetKind::Intersect,
                        SetOperator::Except | SetOperator::Minus => SetKind::Except,
                    };
                    let all = matches!(set_quantifier, SetQuantifier::All);
                    if !matches!(
                        set_quantifier,
                        SetQuantifier::All | SetQuantifier::Distinct | SetQuantifier::None
                    ) {
                        return Err(PlanError::Unsupported(format!(
                            "{set_quantifier} set operations are not supported"
                        )));
                    }
                    let l = self.set_expr(left, outer)?;
                    let r = self.set_expr(right, outer)?;
                    self.set_op(kind, all, l, r)
                }
                SetExpr::Values(v) => self.values(v, outer),
                other => Err(PlanError::Unsupported(format!(
                    "unsupported query body: {}",
                    other.to_string().chars().take(40).collect::<String>()
                ))),
            }
        })
    }

    fn set_op(&mut self, kind: SetKind, all: bool, l: Plan, r: Plan) -> BuildResult<Plan> {
        let (lo, ro) = (l.output(), r.output());
        if lo.len() != ro.len() {
            return Err(PlanError::Invalid(format!(
                "{} inputs have {} and {} columns",
                kind.name().to_uppercase(),
                lo.len(),
                ro.len()
            )));
        }
        let columns = lo
            .iter()
            .zip(&ro)
            .map(|(a, b)| {
                let (ma, mb) = (self.columns.meta(*a).clone(), self.columns.meta(*b).clone());
                let label = format!("{}({},{})", kind.name(), ma.label, mb.label);
                self.columns
                    .derived(&ma.name, ma.ty, label, ma.not_null && mb.not_null)
            })
            .collect();
        // Unions of the same kind flatten into one n-ary operator, as Calcite's plans show.
        let mut inputs = Vec::new();
        for side in [l, r] {
            match side {
                Plan::SetOp(s) if kind == SetKind::Union && s.kind == kind && s.all == all => {
                    // Set operations match columns by position, so the inner inputs feed the
                    // new columns directly.
                    inputs.extend(s.inputs);
                }
                other => inputs.push(other),
            }
        }
        Ok(Plan::SetOp(SetOp {
            kind,
            all,
            inputs,
            columns,
        }))
    }

    fn values(&mut self, v: &sqlparser::ast::Values, outer: Option<&Scope>) -> BuildResult<Plan> {
        let scope = Scope::nested(outer);
        let pending_windows = self.pending_windows();
        let mut rows = Vec::new();
        for row in &v.rows {
            let mut out = Vec::new();
            for e in &row.content {
                out.push(self.expr(e, &scope, &[])?);
            }
            rows.push(out);
        }
        if self.pending_windows() > pending_windows {
            return Err(PlanError::Invalid(
                "misuse of window function in VALUES".into(),
            ));
        }
        let width = rows.first().map_or(0, Vec::len);
        if rows.iter().any(|r| r.len() != width) {
            return Err(PlanError::Invalid(
                "VALUES rows have different lengths".into(),
            ));
        }
        let columns = (0..width)
            .map(|i| {
                let ty = rows[0][i].data_type(&self.columns);
                self.columns
                    .derived(&format!("EXPR${i}"), ty, format!("values{i}"), false)
            })
            .collect();
        Ok(Plan::Values(Values { columns, rows }))
    }

    /// ORDER BY / LIMIT over the outputs of a set operation (keys by output name or position).
    fn order_outputs(
        &mut self,
        plan: Plan,
        order: &[OrderByExpr],
        limit: Option<Expr>,
        offset: Option<Expr>,
    ) -> BuildResult<Plan> {
        if order.is_empty() && limit.is_none() && offset.is_none() {
            return Ok(plan);
        }
        let output = plan.output();
        let mut keys = Vec::new();
        for item in order {
            let column = match &item.expr {
                sqlparser::ast::Expr::Value(v) => match &v.value {
                    sqlparser::ast::Value::Number(n, _) => {
                        let k: usize = n
                            .parse()
                            .map_err(|_| PlanError::Invalid(format!("bad ORDER BY term {n}")))?;
                        *output.get(k.wrapping_sub(1)).ok_or_else(|| {
                            PlanError::Invalid(format!("ORDER BY term {k} out of range"))
                        })?
                    }
                    _ => {
                        return Err(PlanError::Unsupported(
                            "ORDER BY a constant is not supported here".into(),
                        ))
                    }
                },
                e => {
                    let name = expr::last_identifier(e).ok_or_else(|| {
                        PlanError::Invalid(
                            "ORDER BY of a compound query must name an output column".into(),
                        )
                    })?;
                    *output
                        .iter()
                        .find(|c| self.columns.name(**c).eq_ignore_ascii_case(&name))
                        .ok_or_else(|| {
                            PlanError::Invalid(format!(
                                "ORDER BY term {name} is not an output column"
                            ))
                        })?
                }
            };
            keys.push(sort_key(column, item));
        }
        Ok(Plan::Sort(Sort {
            input: Box::new(plan),
            keys,
            offset,
            fetch: limit,
        }))
    }
}

/// An ORDER BY item's direction and NULL order (SQLite: NULLs sort first ascending).
fn sort_key(column: ColumnId, item: &OrderByExpr) -> SortKey {
    let descending = matches!(item.options.sort, Some(sqlparser::ast::OrderBySort::Desc));
    SortKey {
        column,
        descending,
        nulls_first: item.options.nulls_first.unwrap_or(!descending),
    }
}

/// A LIMIT or OFFSET integer literal, negative ones included (`LIMIT -1`).
fn integer_literal(e: &sqlparser::ast::Expr) -> BuildResult<i64> {
    match e {
        sqlparser::ast::Expr::Value(v) => match &v.value {
            sqlparser::ast::Value::Number(n, _) => n
                .parse::<i64>()
                .map_err(|_| PlanError::Invalid(format!("LIMIT/OFFSET {n} is not an integer"))),
            _ => Err(PlanError::Invalid("LIMIT/OFFSET must be an integer".into())),
        },
        sqlparser::ast::Expr::UnaryOp {
            op: sqlparser::ast::UnaryOperator::Minus,
            expr,
        } if matches!(**expr, sqlparser::ast::Expr::Value(_)) => integer_literal(expr).map(|i| -i),
        _ => Err(PlanError::Unsupported(
            "LIMIT/OFFSET expressions are not supported".into(),
        )),
    }
}

/// LIMIT and OFFSET as literal expressions. A negative one is none, as in SQLite (a negative
/// LIMIT keeps every row, a negative OFFSET skips none): `LIMIT -1 OFFSET n` is how SQLite
/// (and the dialect translation) spells an OFFSET alone.
fn limit_offset(q: &Query) -> BuildResult<(Option<Expr>, Option<Expr>)> {
    let constant = |e: &sqlparser::ast::Expr| -> BuildResult<Option<Expr>> {
        let i = integer_literal(e)?;
        Ok((i >= 0).then_some(Expr::Literal(Literal::Integer(i))))
    };
    let (limit, offset) = match &q.limit_clause {
        None => (None, None),
        Some(LimitClause::LimitOffset { limit, offset, .. }) => (
            limit.as_ref().map(constant).transpose()?.flatten(),
            offset
                .as_ref()
                .map(|o| constant(&o.value))
                .transpose()?
                .flatten(),
        ),
        Some(LimitClause::OffsetCommaLimit { offset, limit }) => {
            (constant(limit)?, constant(offset)?)
        }
    };
    // standard SQL's `[OFFSET n ROWS] FETCH {FIRST | NEXT} [m] {ROW | ROWS} ONLY` (Calcite's
    // default dialect) is LIMIT m (1 without a count)
    match &q.fetch {
        None => Ok((limit, offset)),
        Some(_) if limit.is_some() => Err(PlanError::Unsupported(
            "LIMIT together with FETCH is not supported".into(),
        )),
        Some(f) if f.with_ties || f.percent => Err(PlanError::Unsupported(
            "FETCH ... PERCENT or WITH TIES is not supported".into(),
        )),
        Some(f) => {
            let count = match &f.quantity {
                Some(e) => constant(e)?,
                None => Some(Expr::Literal(Literal::Integer(1))),
            };
            Ok((count, offset))
        }
    }
}

/// Wraps a CTE body so its outputs carry the names of `WITH name(a, b) AS (...)`.
fn rename_outputs(
    body: Query,
    names: &[sqlparser::ast::TableAliasColumnDef],
) -> BuildResult<Query> {
    let sql = format!(
        "SELECT * FROM ({body}) AS __cte({})",
        names
            .iter()
            .map(|c| format!("\"{}\"", c.name.value.replace('"', "\"\"")))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let parsed = crate::parse::parse_sql(&sql).map_err(|e| PlanError::Parse(e.to_string()))?;
    match parsed.into_iter().next() {
        Some(Statement::Query(q)) => Ok(*q),
        _ => Err(PlanError::Unsupported(
            "could not rename CTE columns".into(),
        )),
    }
}
