//! Logical plans in the style of Apache Calcite's RelNode: operators over column ids, built from
//! the parsed query with name resolution, then rewritten by equivalence-preserving rules to a
//! canonical, optimized form (`sql_plan` shows it; RelPM, the GMN graphs and ParSEval read it).

pub mod build;
pub mod columns;
pub mod display;
pub mod expr;
pub mod match_tree;
pub mod node;
pub mod prepared;
pub mod rules;
pub mod to_sql;

pub use columns::{ColumnId, ColumnMeta, Columns};
pub use expr::{AggFunc, DataType, Expr, Literal, Op, Subquery, SubqueryKind};
pub use node::{
    AggCall, Aggregate, Filter, Join, JoinKind, Plan, Project, SetKind, SetOp, Sort, SortKey,
    TableScan, Values,
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

    /// The names of the output columns, in order.
    pub fn output_names(&self) -> Vec<String> {
        self.root
            .output()
            .iter()
            .map(|c| self.columns.name(*c).to_string())
            .collect()
    }
}

/// Builds the unoptimized plan of `sql` (one query) against `schema`.
pub fn build_plan(sql: &str, schema: &Schema) -> Result<QueryPlan, String> {
    let statements = crate::parse::parse_sql(sql).map_err(|e| e.to_string())?;
    let statement = match statements.as_slice() {
        [one] => one,
        [] => return Err("no statement to plan".into()),
        _ => return Err("several statements; plan one query at a time".into()),
    };
    let mut builder = build::Builder::new(schema);
    let root = builder.statement(statement)?;
    Ok(QueryPlan {
        root,
        columns: builder.columns,
    })
}

/// Builds and optimizes the plan of `sql` against `schema` (what `sql_plan` shows and RelPM reads).
pub fn plan_sql(sql: &str, schema: &Schema) -> Result<QueryPlan, String> {
    let mut plan = build_plan(sql, schema)?;
    let report = rules::optimize(&mut plan);
    if let Some(rule) = report.rejected.first() {
        return Err(format!(
            "internal error: rule {rule} changed the output columns"
        ));
    }
    Ok(plan)
}
