//! Drops, while the plan is built, the CASTs that change no value SQLite computes: a cast to the
//! type its operand already has, a float cast of a number inside AVG, and a float cast of a
//! number compared with a number.
//!
//! Calcite prints such casts (`AVG(CAST(age AS DOUBLE))`, `CAST(age AS DOUBLE) > 20.5`); the
//! plain spelling has none. Dropping them at build time, before any column label is derived from
//! the expression, gives both spellings one plan, labels included. Each case keeps the value:
//! - `CAST(x AS T)` where x is of T (INTEGER, REAL or TEXT): values of the declared type (as the
//!   generated databases hold) convert to themselves.
//! - `AVG(CAST(x AS REAL))` for a numeric x: SQLite's AVG sums in floating point already (up to
//!   integer sums beyond 2^53).
//! - `CAST(x AS REAL) < 3.5` for a numeric x against a number: SQLite compares numbers as numbers.
//!
//! Casts to INTEGER of a REAL or NUMERIC operand (truncation), casts between text and numbers,
//! and casts inside SUM or arithmetic are kept: they change values.

use super::expr::{cast_type, AggFunc, DataType, Expr, Literal, Op};
use super::Columns;

fn is_number(t: DataType) -> bool {
    matches!(t, DataType::Integer | DataType::Real | DataType::Numeric)
}

/// The operand and target type of `e` when it is a CAST.
fn cast_parts(e: &Expr) -> Option<(&Expr, DataType)> {
    match e {
        Expr::Call(Op::Cast(t), args) if args.len() == 1 => Some((&args[0], cast_type(t))),
        _ => None,
    }
}

/// A cast to a floating-point type of a numeric operand.
fn is_float_cast_of_number(e: &Expr, columns: &Columns) -> bool {
    cast_parts(e).is_some_and(|(x, target)| {
        matches!(target, DataType::Real | DataType::Numeric) && is_number(x.data_type(columns))
    })
}

fn strip_cast(e: Expr) -> Expr {
    match e {
        Expr::Call(Op::Cast(_), mut args) if args.len() == 1 => args.remove(0),
        other => other,
    }
}

/// `e` without a redundant cast at its root or among its direct operands (its operands were
/// rewritten already: the builder calls this for every expression it makes, innermost first).
pub fn without_redundant_cast(e: Expr, columns: &Columns) -> Expr {
    if let Some((x, target)) = cast_parts(&e) {
        let same = matches!(target, DataType::Integer | DataType::Real | DataType::Text)
            && x.data_type(columns) == target;
        return if same { strip_cast(e) } else { e };
    }
    let number = |a: &Expr| matches!(a, Expr::Literal(Literal::Integer(_) | Literal::Real(_)));
    match e {
        Expr::Call(Op::Aggregate(AggFunc::Avg, distinct), args)
            if args.len() == 1 && is_float_cast_of_number(&args[0], columns) =>
        {
            Expr::Call(
                Op::Aggregate(AggFunc::Avg, distinct),
                args.into_iter().map(strip_cast).collect(),
            )
        }
        Expr::Call(op, args)
            if op.is_comparison()
                && args.len() == 2
                && ((is_float_cast_of_number(&args[0], columns) && number(&args[1]))
                    || (is_float_cast_of_number(&args[1], columns) && number(&args[0]))) =>
        {
            Expr::Call(op, args.into_iter().map(strip_cast).collect())
        }
        other => other,
    }
}
