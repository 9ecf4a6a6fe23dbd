//! Pass `avg_casts`: a cast to a floating-point type inside AVG, as Calcite prints it, is dropped.
//!
//! ```sql
//! -- before
//! SELECT AVG(CAST(age AS DOUBLE)) FROM singer
//! -- after
//! SELECT AVG(age) FROM singer
//! ```
//!
//! SQLite's AVG converts every value to a floating-point number before it sums (a text the way
//! CAST does, its numeric prefix), so `AVG(CAST(x AS DOUBLE))` and `AVG(x)` agree, up to integer
//! sums beyond 2^53, which AVG of integers keeps exact. Casts to DOUBLE, DOUBLE PRECISION, REAL
//! and FLOAT go, written `CAST(x AS T)` or `x::T`, with or without DISTINCT; any other cast or
//! aggregate stays (SUM of a REAL cast returns a REAL, SUM of integers an INTEGER).

use super::Pass;
use sqlparser::ast::{
    CastKind, Expr, FunctionArg, FunctionArgExpr, FunctionArguments, Statement, VisitMut,
    VisitorMut,
};
use std::ops::ControlFlow;

/// See the module documentation.
pub struct AvgCasts;

struct Rewrite;

/// True for the name of a floating-point type, however the dialect spells it.
pub(super) fn is_float_type(name: &str) -> bool {
    let n = name.to_ascii_uppercase();
    n.starts_with("DOUBLE") || n.starts_with("REAL") || n.starts_with("FLOAT")
}

/// The operand of `e` when it is a floating-point cast.
pub(super) fn float_cast_operand(e: &Expr) -> Option<Expr> {
    match e {
        Expr::Cast {
            kind: CastKind::Cast | CastKind::DoubleColon,
            expr,
            data_type,
            format: None,
            ..
        } if is_float_type(&data_type.to_string()) => Some((**expr).clone()),
        _ => None,
    }
}

impl VisitorMut for Rewrite {
    type Break = ();
    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        let Expr::Function(f) = e else {
            return ControlFlow::Continue(());
        };
        if !f.name.to_string().eq_ignore_ascii_case("avg") || f.filter.is_some() {
            return ControlFlow::Continue(());
        }
        let FunctionArguments::List(list) = &mut f.args else {
            return ControlFlow::Continue(());
        };
        if let [FunctionArg::Unnamed(FunctionArgExpr::Expr(arg))] = list.args.as_mut_slice() {
            if let Some(operand) = float_cast_operand(arg) {
                *arg = operand;
            }
        }
        ControlFlow::Continue(())
    }
}

impl Pass for AvgCasts {
    fn name(&self) -> &'static str {
        "avg_casts"
    }
    fn apply(&self, mut statement: Statement) -> Statement {
        let _ = statement.visit(&mut Rewrite);
        statement
    }
}
