//! Constant folding and boolean simplification: NOT pushed through AND/OR/comparisons
//! (De Morgan, exact in three-valued logic), AND/OR flattened with TRUE/FALSE absorbed and
//! repeated terms dropped, comparisons with a NULL literal folded to NULL, arithmetic and
//! comparisons of literals folded (integers with overflow checks; no mixed-type folding, whose
//! result depends on SQLite's affinities). A Filter on TRUE disappears; a Filter on FALSE or
//! NULL becomes an empty Values with the same columns.

use super::{bottom_up, map_expr_bottom_up, Rule, RuleContext};
use crate::plan::expr::{Expr, Literal, Op};
use crate::plan::node::{Plan, Values};
use std::cmp::Ordering;

pub struct Simplify;

impl Rule for Simplify {
    fn name(&self) -> &'static str {
        "simplify"
    }

    fn apply(&self, plan: Plan, _cx: &mut RuleContext) -> Plan {
        bottom_up(plan, &mut |mut node| {
            for e in node.exprs_mut() {
                let taken = std::mem::replace(e, Expr::TRUE);
                *e = map_expr_bottom_up(taken, &mut simplify);
            }
            match node {
                Plan::Filter(f) if f.condition.is_true() => *f.input,
                Plan::Filter(f)
                    if matches!(
                        f.condition,
                        Expr::Literal(Literal::Boolean(false) | Literal::Null)
                    ) =>
                {
                    Plan::Values(Values {
                        columns: f.input.output(),
                        rows: vec![],
                    })
                }
                other => other,
            }
        })
    }
}

/// One simplification step at the root of `e` (its arguments are already simplified).
pub fn simplify(e: Expr) -> Expr {
    match e {
        Expr::Call(Op::Not, mut args) if args.len() == 1 => negate(args.remove(0)),
        Expr::Call(Op::And, args) => and(args),
        Expr::Call(Op::Or, args) => or(args),
        Expr::Call(op, args) if op.is_comparison() && args.len() == 2 => compare(op, args),
        Expr::Call(op, args)
            if matches!(op, Op::Plus | Op::Minus | Op::Multiply) && args.len() == 2 =>
        {
            arithmetic(op, args)
        }
        Expr::Call(Op::IsNull, args) if matches!(args.as_slice(), [Expr::Literal(_)]) => {
            Expr::Literal(Literal::Boolean(args[0] == Expr::Literal(Literal::Null)))
        }
        Expr::Call(Op::IsNotNull, args) if matches!(args.as_slice(), [Expr::Literal(_)]) => {
            Expr::Literal(Literal::Boolean(args[0] != Expr::Literal(Literal::Null)))
        }
        other => other,
    }
}

fn negate(x: Expr) -> Expr {
    match x {
        Expr::Literal(Literal::Boolean(b)) => Expr::Literal(Literal::Boolean(!b)),
        Expr::Literal(Literal::Null) => Expr::Literal(Literal::Null),
        Expr::Call(Op::Not, mut inner) if inner.len() == 1 => inner.remove(0),
        Expr::Call(Op::And, terms) => or(terms.into_iter().map(negate).collect()),
        Expr::Call(Op::Or, terms) => and(terms.into_iter().map(negate).collect()),
        Expr::Call(op, args) if op.negated().is_some() && (args.len() == 2 || args.len() == 1) => {
            let n = op.negated().unwrap_or(op);
            Expr::Call(n, args)
        }
        other => Expr::negation(other),
    }
}

fn and(args: Vec<Expr>) -> Expr {
    junction(Op::And, args)
}

fn or(args: Vec<Expr>) -> Expr {
    junction(Op::Or, args)
}

/// AND (`absorbing` FALSE) or OR (`absorbing` TRUE), flattened, with the neutral literal dropped,
/// the absorbing one deciding, and repeated terms dropped.
fn junction(op: Op, args: Vec<Expr>) -> Expr {
    let absorbing = op == Op::Or;
    let mut out: Vec<Expr> = Vec::new();
    for a in Expr::flattened(&op, args) {
        match a {
            Expr::Literal(Literal::Boolean(b)) if b == absorbing => {
                return Expr::Literal(Literal::Boolean(b))
            }
            Expr::Literal(Literal::Boolean(_)) => {}
            a if out.contains(&a) => {}
            a => out.push(a),
        }
    }
    if absorbing {
        Expr::or(out)
    } else {
        Expr::and(out)
    }
}

fn literal_order(a: &Literal, b: &Literal) -> Option<Ordering> {
    match (a, b) {
        (Literal::Integer(x), Literal::Integer(y)) => Some(x.cmp(y)),
        (Literal::Real(x), Literal::Real(y)) => x.partial_cmp(y),
        (Literal::Integer(x), Literal::Real(y)) => (*x as f64).partial_cmp(y),
        (Literal::Real(x), Literal::Integer(y)) => x.partial_cmp(&(*y as f64)),
        (Literal::Text(x), Literal::Text(y)) => Some(x.as_bytes().cmp(y.as_bytes())),
        _ => None,
    }
}

fn compare(op: Op, args: Vec<Expr>) -> Expr {
    if args.contains(&Expr::Literal(Literal::Null)) {
        return Expr::Literal(Literal::Null);
    }
    if let [Expr::Literal(a), Expr::Literal(b)] = args.as_slice() {
        if let Some(o) = literal_order(a, b) {
            let v = match op {
                Op::Eq => o == Ordering::Equal,
                Op::NotEq => o != Ordering::Equal,
                Op::Lt => o == Ordering::Less,
                Op::LtEq => o != Ordering::Greater,
                Op::Gt => o == Ordering::Greater,
                Op::GtEq => o != Ordering::Less,
                _ => return Expr::Call(op, args),
            };
            return Expr::Literal(Literal::Boolean(v));
        }
    }
    Expr::Call(op, args)
}

fn arithmetic(op: Op, args: Vec<Expr>) -> Expr {
    let folded = match args.as_slice() {
        [Expr::Literal(Literal::Integer(a)), Expr::Literal(Literal::Integer(b))] => match op {
            Op::Plus => a.checked_add(*b),
            Op::Minus => a.checked_sub(*b),
            Op::Multiply => a.checked_mul(*b),
            _ => None,
        }
        .map(Literal::Integer),
        [Expr::Literal(Literal::Real(a)), Expr::Literal(Literal::Real(b))] => {
            Some(Literal::Real(match op {
                Op::Plus => a + b,
                Op::Minus => a - b,
                _ => a * b,
            }))
        }
        [Expr::Literal(Literal::Null), Expr::Literal(_)]
        | [Expr::Literal(_), Expr::Literal(Literal::Null)] => Some(Literal::Null),
        _ => None,
    };
    match folded {
        Some(l) => Expr::Literal(l),
        None => Expr::Call(op, args),
    }
}
