//! Boundary branches: a row whose compared value sits exactly on the other operand of an inequality (and, for integers, just across the edge; for texts, just above it), where `>` and `>=`, `<` and `<=`, BETWEEN and strict bounds part.

use z3::ast::{Bool, Int};

use super::execute::{any, Executor};
use super::speculative_text::lift_pair;
use super::values::{cmp_terms, Cmp, SymRel, SymVal, Term};
use crate::plan::{Expr, Literal, Op};

/// One edge of an inequality: the compared operand, the bound, and the integer offsets of the
/// two values on either side of the edge (the bound itself is always one of them).
struct Edge<'e> {
    value: &'e Expr,
    bound: &'e Expr,
    /// 1: the edge lies between `bound` and `bound + 1` (`v > b`, `v <= b`); -1: between
    /// `bound - 1` and `bound` (`v < b`, `v >= b`).
    side: i64,
}

/// The edges of a comparison atom. `=` and `<>` have none of their own: their true and false
/// branches already put the value on the constant and off it.
fn edges(atom: &Expr) -> Vec<Edge<'_>> {
    match atom {
        Expr::Call(op, args) if args.len() == 2 => {
            let (value, bound) = (&args[0], &args[1]);
            let side = match op {
                Op::Gt | Op::LtEq => 1,
                Op::Lt | Op::GtEq => -1,
                _ => return Vec::new(),
            };
            vec![Edge { value, bound, side }]
        }
        Expr::Call(Op::Between, args) if args.len() == 3 => vec![
            Edge {
                value: &args[0],
                bound: &args[1],
                side: -1,
            },
            Edge {
                value: &args[0],
                bound: &args[2],
                side: 1,
            },
        ],
        _ => Vec::new(),
    }
}

/// `e` with its `k`-th atom (in [`super::execute::atoms`] order) replaced by the constant `with`.
fn replace_atom(e: &Expr, k: &mut usize, with: bool) -> Expr {
    match e {
        Expr::Call(op @ (Op::And | Op::Or), args) => Expr::Call(
            op.clone(),
            args.iter().map(|a| replace_atom(a, k, with)).collect(),
        ),
        Expr::Call(Op::Not, args) if args.len() == 1 => {
            Expr::Call(Op::Not, vec![replace_atom(&args[0], k, with)])
        }
        leaf => {
            let out = if *k == 0 {
                Expr::Literal(Literal::Boolean(with))
            } else {
                leaf.clone()
            };
            *k = k.wrapping_sub(1);
            out
        }
    }
}

/// `v = b + offset` when both are non-NULL; for texts just above the bound (offset 1), `v`
/// extends `b` (`'1998-12-31 12:00:00'` against `'1998-12-31'`); None when the solver cannot
/// compare them or the offset has no text form.
fn at(v: &SymVal, b: &SymVal, offset: i64) -> Option<Bool> {
    let (Some(x), Some(y)) = (&v.term, &b.term) else {
        return None;
    };
    let eq = match (x, y, offset) {
        (_, _, 0) => cmp_terms(x, y, Cmp::Eq)?,
        (Term::Int(x), Term::Int(y), _) => x.eq(Int::add(&[y, &Int::from_i64(offset)])),
        (Term::Text(x), Term::Text(y), 1) => Bool::and(&[
            x.eq(y).not(),
            lift_pair(y, x, &|y, x| y.prefix(x), &|b, v| v.starts_with(b)),
        ]),
        _ => return None,
    };
    Some(Bool::and(&[v.null.not(), b.null.not(), eq]))
}

impl Executor<'_> {
    /// Branches putting a row of `input` on each edge of `atom`, the `k`-th atom of the filter
    /// condition `cond`, with the other atoms letting the row through (for one value of atom
    /// `k`), so the row's fate depends on the edge alone: `age > 0` and `age >= 0` part on a row
    /// with `age = 0`, which the ordinary true/false branches need not produce.
    pub(super) fn boundary_branches(
        &mut self,
        op: usize,
        (k, atom): (usize, &Expr),
        cond: &Expr,
        input: &SymRel,
        outer: &[(u32, SymVal)],
    ) {
        if self.quiet > 0 {
            return;
        }
        let edges = edges(atom);
        if edges.is_empty() {
            return;
        }
        let mut on_t = k;
        let when_true = replace_atom(cond, &mut on_t, true);
        let mut on_f = k;
        let when_false = replace_atom(cond, &mut on_f, false);
        for (e, edge) in edges.iter().enumerate() {
            let mut hits: [Vec<Bool>; 2] = [Vec::new(), Vec::new()];
            for row in &input.rows {
                let env = self.env(&input.cols, &row.vals, outer);
                let v = self.value(edge.value, &env);
                let b = self.value(edge.bound, &env);
                let rest = Bool::or(&[
                    self.truth(&when_true, &env).t,
                    self.truth(&when_false, &env).t,
                ]);
                for (h, offset) in [0, edge.side].into_iter().enumerate() {
                    if let Some(c) = at(&v, &b, offset) {
                        hits[h].push(Bool::and(&[row.exists.clone(), rest.clone(), c]));
                    }
                }
            }
            let [on, across] = hits;
            if !on.is_empty() {
                self.branch(format!("Filter#{op} term {k} edge {e} on"), false, any(on));
            }
            if !across.is_empty() {
                self.branch(
                    format!("Filter#{op} term {k} edge {e} across"),
                    false,
                    any(across),
                );
            }
        }
    }
}
