//! Logical plans in the style of Apache Calcite's RelNode: operators over column ids, built from
//! the parsed query with name resolution, then rewritten by equivalence-preserving rules to a
//! canonical, optimized form (`sql_plan` shows it; RelPM, the GMN graphs and ParSEval read it).

pub(crate) mod affinity;
pub(crate) mod build;
pub mod cached;
pub(crate) mod casts;
pub(crate) mod columns;
pub(crate) mod display;
mod error;
pub(crate) mod expr;
pub(crate) mod match_tree;
pub(crate) mod node;
pub mod rules;
pub mod to_sql;

pub use columns::{ColumnId, ColumnMeta, Columns};
pub use error::PlanError;
pub use expr::{AggFunc, DataType, Expr, Literal, Op, Subquery, SubqueryKind};
pub use node::{
    AggCall, Aggregate, Filter, Join, JoinKind, Plan, Project, SetKind, SetOp, Sort, SortKey,
    TableScan, Values, Window, WindowCall, WindowOrder,
};

use crate::schema::Schema;

/// A plan with the arena describing its columns.
#[derive(Debug, Clone)]
pub struct QueryPlan {
    pub root: Plan,
    pub columns: Columns,
}

impl QueryPlan {
    /// The Calcite-style EXPLAIN text.
    pub fn explain(&self) -> String {
        display::explain(&self.root, &self.columns)
    }
}

/// The statements of `sql`, or why it cannot be planned (over sqlsim's input limit, or the
/// parser's message).
pub fn parse_query(sql: &str) -> Result<Vec<sqlparser::ast::Statement>, PlanError> {
    if sql.len() > crate::parse::MAX_SQL_BYTES {
        return Err(PlanError::Limit(format!(
            "query is {} bytes, over sqlsim's limit of {}",
            sql.len(),
            crate::parse::MAX_SQL_BYTES
        )));
    }
    crate::parse::parse_sql(sql).map_err(|e| PlanError::Parse(e.to_string()))
}

/// Builds the unoptimized plan of `sql` (one query) against `schema`.
pub fn build_plan(sql: &str, schema: &Schema) -> Result<QueryPlan, PlanError> {
    build_parsed(&parse_query(sql)?, schema)
}

/// Builds the unoptimized plan of already parsed statements (exactly one query).
pub fn build_parsed(
    statements: &[sqlparser::ast::Statement],
    schema: &Schema,
) -> Result<QueryPlan, PlanError> {
    let statement = match statements {
        [one] => one,
        [] => return Err(PlanError::Invalid("no statement to plan".into())),
        _ => {
            return Err(PlanError::Unsupported(
                "several statements; plan one query at a time".into(),
            ))
        }
    };
    let mut builder = build::Builder::new(schema);
    let root = builder.statement(statement)?;
    Ok(QueryPlan {
        root,
        columns: builder.columns,
    })
}

/// Builds and optimizes the plan of `sql` against `schema` (what `sql_plan` shows and RelPM reads).
pub fn plan_sql(sql: &str, schema: &Schema) -> Result<QueryPlan, PlanError> {
    optimized(build_plan(sql, schema)?)
}

/// Builds and optimizes the plan of already parsed statements.
pub fn plan_parsed(
    statements: &[sqlparser::ast::Statement],
    schema: &Schema,
) -> Result<QueryPlan, PlanError> {
    optimized(build_parsed(statements, schema)?)
}

/// `plan` after the rewrite rules, or an internal error when a rule broke its output columns.
fn optimized(mut plan: QueryPlan) -> Result<QueryPlan, PlanError> {
    let report = rules::optimize(&mut plan);
    if let Some(rule) = report.rejected.first() {
        return Err(PlanError::Internal(format!(
            "rule {rule} changed the output columns"
        )));
    }
    Ok(plan)
}
