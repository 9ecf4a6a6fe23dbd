//! A row value IN a subquery (`(a, b) IN (SELECT x, y ..)`) plans as one IN of the row's
//! values, in order, and needs a subquery of as many columns.

use sqlsim::plan::build_plan;
use sqlsim::plan::to_sql::to_sql;
use sqlsim::plan::{Expr, QueryPlan, SubqueryKind};
use sqlsim::schema::Schema;

fn row_schema() -> Schema {
    Schema::from_ddl("CREATE TABLE t (a INT, b INT, c INT); CREATE TABLE u (x INT, y INT);")
        .unwrap()
}

/// The operands of the IN subqueries in `plan`'s expressions.
fn in_operands(plan: &QueryPlan) -> Vec<Expr> {
    fn walk(e: &Expr, found: &mut Vec<Expr>) {
        match e {
            Expr::Subquery(s) if s.kind == SubqueryKind::In => {
                found.extend(s.operands.iter().cloned())
            }
            Expr::Call(_, args) => args.iter().for_each(|a| walk(a, found)),
            _ => {}
        }
    }
    let mut found = Vec::new();
    plan.root
        .visit(&mut |p| p.exprs().into_iter().for_each(|e| walk(e, &mut found)));
    found
}

#[test]
fn a_row_value_in_a_subquery_keeps_each_value_in_order() {
    let sql = "SELECT c FROM t WHERE (a, b) NOT IN (SELECT x, y FROM u)";
    let plan = build_plan(sql, &row_schema()).unwrap();
    let operands = in_operands(&plan);
    assert_eq!(operands.len(), 2, "{plan:?}");
    let text = to_sql(&plan.root, &plan.columns);
    assert!(text.contains("NOT ((c0, c1) IN (SELECT"), "{text}");
    let swapped = build_plan(
        "SELECT c FROM t WHERE (b, a) NOT IN (SELECT x, y FROM u)",
        &row_schema(),
    )
    .unwrap();
    let mut reversed = in_operands(&swapped);
    reversed.reverse();
    assert_eq!(operands, reversed);
}

#[test]
fn a_row_value_needs_as_many_subquery_columns() {
    for sql in [
        "SELECT c FROM t WHERE (a, b) IN (SELECT x FROM u)",
        "SELECT c FROM t WHERE a IN (SELECT x, y FROM u)",
    ] {
        let err = build_plan(sql, &row_schema()).expect_err(sql);
        assert!(err.to_string().contains("IN subquery must return"), "{err}");
    }
}
