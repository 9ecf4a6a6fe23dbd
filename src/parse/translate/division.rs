//! Rule `division`: `/` divides as reals where the dialect says so, and the integer divisions
//! `DIV` (MySQL) and `//` (DuckDB) truncate.
//!
//! ```sql
//! -- before (mysql)
//! SELECT COUNT(a) / COUNT(*), 7 DIV 2 FROM t
//! -- after
//! SELECT CAST(COUNT(a) AS REAL) / COUNT(*), CAST(7 / 2 AS INTEGER) FROM t
//! ```
//!
//! SQLite, PostgreSQL and standard SQL (as Calcite runs it) divide two integers as integers;
//! MySQL, DuckDB, Snowflake and BigQuery return a fraction. For those four, the left operand is
//! cast to REAL unless it is one already (a decimal literal, or a cast to REAL), which is also
//! how sqlglot spells MySQL's division in SQLite. A division by zero is NULL in SQLite, MySQL and
//! BigQuery's `SAFE_DIVIDE`, and an error in PostgreSQL: generated databases avoid zero divisors
//! only as far as the queries' own conditions do.

use std::ops::ControlFlow;

use sqlparser::ast::{
    BinaryOperator, CastKind, DataType, Expr, Statement, Value, VisitMut, VisitorMut,
};

use super::Rule;
use crate::parse::dialect::Dialect;

/// See the module documentation.
pub struct Division;

/// True where `/` of two integers gives a fraction.
fn divides_as_reals(dialect: Dialect) -> bool {
    matches!(
        dialect,
        Dialect::Mysql | Dialect::Duckdb | Dialect::Snowflake | Dialect::Bigquery
    )
}

/// True when `e` is a real already: a decimal or exponent literal, or a cast to a
/// floating-point type.
fn is_real(e: &Expr) -> bool {
    match e {
        Expr::Value(v) => matches!(&v.value, Value::Number(n, _) if n.contains(['.', 'e', 'E'])),
        Expr::Cast { data_type, .. } => {
            let name = data_type.to_string().to_ascii_uppercase();
            ["REAL", "DOUBLE", "FLOAT"]
                .iter()
                .any(|t| name.starts_with(t))
        }
        Expr::Nested(inner) => is_real(inner),
        _ => false,
    }
}

fn cast(expr: Expr, data_type: DataType) -> Expr {
    Expr::Cast {
        kind: CastKind::Cast,
        expr: Box::new(expr),
        data_type,
        format: None,
    }
}

struct Rewrite(Dialect);

impl VisitorMut for Rewrite {
    type Break = ();

    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        let Expr::BinaryOp { left, op, right } = e else {
            return ControlFlow::Continue(());
        };
        match op {
            BinaryOperator::Divide if divides_as_reals(self.0) && !is_real(left) => {
                let l = std::mem::replace(left.as_mut(), Expr::value(Value::Null));
                **left = cast(l, DataType::Real);
            }
            BinaryOperator::MyIntegerDivide | BinaryOperator::DuckIntegerDivide => {
                let quotient = Expr::BinaryOp {
                    left: left.clone(),
                    op: BinaryOperator::Divide,
                    right: right.clone(),
                };
                *e = cast(quotient, DataType::Integer(None));
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }
}

impl Rule for Division {
    fn name(&self) -> &'static str {
        "division"
    }

    fn applies_to(&self, dialect: Dialect) -> bool {
        dialect != Dialect::Sqlite
    }

    fn apply(&self, statement: &mut Statement, dialect: Dialect) {
        let _ = statement.visit(&mut Rewrite(dialect));
    }
}
