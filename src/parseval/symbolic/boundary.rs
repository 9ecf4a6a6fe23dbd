//! Boundary branches: a row whose compared value sits exactly on the other operand of an inequality (and, for integers, just across the edge; for texts, just above it), where `>` and `>=`, `<` and `<=`, BETWEEN and strict bounds part; and an aggregate just above and just below the number a HAVING compares it with by `=` or `<>`, where `COUNT(x) = 4` and `COUNT(x) > 3` part.

use std::collections::HashSet;

use z3::ast::{Bool, Int, Real};

use super::execute::{any, Executor};
use super::speculative_text::lift_pair;
use super::values::{as_real, cmp_terms, Cmp, SymRel, SymVal, Term};
use crate::plan::{ColumnId, Expr, Literal, Op};

/// The points of an inequality's edge: the value on the bound, and the value just across.
/// (1: the edge lies between `bound` and `bound + 1`, `v > b`, `v <= b`; -1: between
/// `bound - 1` and `bound`, `v < b`, `v >= b`.)
const ABOVE_EDGE: &[(&str, i64)] = &[("on", 0), ("across", 1)];
const BELOW_EDGE: &[(&str, i64)] = &[("on", 0), ("across", -1)];
/// The points around the number an aggregate is compared with by `=` or `<>`: the value on it
/// is that atom's own true (false) branch, while only a value above parts `COUNT(x) = 4` from
/// `COUNT(x) >= 4` (a group of 5) and only one below parts it from `COUNT(x) <= 4`.
const AROUND: &[(&str, i64)] = &[("above", 1), ("below", -1)];

/// One edge of a comparison: the compared operand, the bound, and the integer offsets from the
/// bound of the values that a branch each puts the operand on.
struct Edge<'e> {
    value: &'e Expr,
    bound: &'e Expr,
    points: &'static [(&'static str, i64)],
    /// The offsets apply to real values too (an aggregate's edge: `AVG(x) = 4` parts from
    /// `AVG(x) >= 4` at 5 as well as at 4.5).
    real: bool,
}

/// True when `e` reads an aggregate output (one of `aggregates`) and no subquery.
fn reads_aggregate(e: &Expr, aggregates: &HashSet<ColumnId>) -> bool {
    match e {
        Expr::Column(c) => aggregates.contains(c),
        Expr::Call(_, args) => {
            args.iter().any(|a| reads_aggregate(a, aggregates))
                && !args.iter().any(|a| matches!(a, Expr::Subquery(_)))
        }
        _ => false,
    }
}

/// The edges of a comparison atom. `=` and `<>` have none of their own (their true and false
/// branches already put the value on the constant and off it), except for an aggregate
/// (a column of `aggregates`) compared with a number: one above it and one below.
fn edges<'e>(atom: &'e Expr, aggregates: &HashSet<ColumnId>) -> Vec<Edge<'e>> {
    match atom {
        Expr::Call(Op::Eq | Op::NotEq, args) if args.len() == 2 => {
            let number =
                |e: &Expr| matches!(e, Expr::Literal(Literal::Integer(_) | Literal::Real(_)));
            let (value, bound) = match (&args[0], &args[1]) {
                (v, b) if number(b) => (v, b),
                (b, v) if number(b) => (v, b),
                _ => return Vec::new(),
            };
            if !reads_aggregate(value, aggregates) {
                return Vec::new();
            }
            vec![Edge {
                value,
                bound,
                points: AROUND,
                real: true,
            }]
        }
        Expr::Call(op, args) if args.len() == 2 => {
            let (value, bound) = (&args[0], &args[1]);
            let points = match op {
                Op::Gt | Op::LtEq => ABOVE_EDGE,
                Op::Lt | Op::GtEq => BELOW_EDGE,
                _ => return Vec::new(),
            };
            vec![Edge {
                value,
                bound,
                points,
                real: false,
            }]
        }
        Expr::Call(Op::Between, args) if args.len() == 3 => vec![
            Edge {
                value: &args[0],
                bound: &args[1],
                points: BELOW_EDGE,
                real: false,
            },
            Edge {
                value: &args[0],
                bound: &args[2],
                points: ABOVE_EDGE,
                real: false,
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
/// extends `b` (`'1998-12-31 12:00:00'` against `'1998-12-31'`); for a real (when `real`),
/// `v = b + offset` as reals; None when the solver cannot compare them or the offset has no
/// text form.
fn at(v: &SymVal, b: &SymVal, offset: i64, real: bool) -> Option<Bool> {
    let (Some(x), Some(y)) = (&v.term, &b.term) else {
        return None;
    };
    let eq = match (x, y, offset) {
        (_, _, 0) => cmp_terms(x, y, Cmp::Eq)?,
        (Term::Int(x), Term::Int(y), _) => x.eq(Int::add(&[y, &Int::from_i64(offset)])),
        (Term::Real(_), _, _) | (_, Term::Real(_), _) if real => {
            let (x, y) = (as_real(x)?, as_real(y)?);
            x.eq(Real::add(&[&y, &Real::from_rational(offset, 1)]))
        }
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
        let edges = edges(atom, &self.aggregates);
        if edges.is_empty() {
            return;
        }
        let mut on_t = k;
        let when_true = replace_atom(cond, &mut on_t, true);
        let mut on_f = k;
        let when_false = replace_atom(cond, &mut on_f, false);
        for (e, edge) in edges.iter().enumerate() {
            let mut hits: Vec<Vec<Bool>> = vec![Vec::new(); edge.points.len()];
            for row in &input.rows {
                let env = self.env(&input.cols, &row.vals, outer);
                let v = self.value(edge.value, &env);
                let b = self.value(edge.bound, &env);
                let rest = Bool::or(&[
                    self.truth(&when_true, &env).t,
                    self.truth(&when_false, &env).t,
                ]);
                for (h, &(_, offset)) in edge.points.iter().enumerate() {
                    if let Some(c) = at(&v, &b, offset, edge.real) {
                        hits[h].push(Bool::and(&[row.exists.clone(), rest.clone(), c]));
                    }
                }
            }
            for (&(name, _), hit) in edge.points.iter().zip(hits) {
                if !hit.is_empty() {
                    self.branch(
                        format!("Filter#{op} term {k} edge {e} {name}"),
                        false,
                        any(hit),
                    );
                }
            }
        }
    }
}
