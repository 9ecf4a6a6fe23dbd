//! The symbolic value of a scalar expression in a row: columns, literals, arithmetic, `||`,
//! CASE, CAST, scalar subqueries (with their row-count branches) and conditions used as values;
//! anything else becomes a speculative (unconstrained) value that execution decides.

use z3::ast::{Bool, Int, Real, String as ZString};

use super::execute::Executor;
use super::values::{as_real, ite_val, SymVal, Term};
use super::z3_text::z3_string;
use crate::plan::{Expr, Literal, Op, SubqueryKind};

pub(super) type Env = [(u32, SymVal)];

pub(super) fn literal(l: &Literal) -> SymVal {
    match l {
        Literal::Null => SymVal::null(),
        Literal::Integer(i) => SymVal::of(Term::Int(Int::from_i64(*i))),
        Literal::Boolean(b) => SymVal::of(Term::Int(Int::from_i64(*b as i64))),
        Literal::Real(f) => real_literal(*f).map_or_else(SymVal::unknown, SymVal::of),
        Literal::Text(s) => {
            z3_string(s).map_or_else(SymVal::unknown, |t| SymVal::of(Term::Text(t)))
        }
    }
}

pub(super) fn real_literal(f: f64) -> Option<Term> {
    if !f.is_finite() {
        return None;
    }
    let text = format!("{f:.12}");
    let (int, frac) = text.split_once('.')?;
    let den = 10i64.checked_pow(frac.len() as u32)?;
    let num: i64 = format!("{int}{frac}").parse().ok()?;
    Some(Term::Real(Real::from_rational(num, den)))
}

fn arith(op: &Op, a: &Term, b: &Term) -> Option<Term> {
    Some(match (a, b) {
        (Term::Int(x), Term::Int(y)) => Term::Int(match op {
            Op::Plus => Int::add(&[x, y]),
            Op::Minus => Int::sub(&[x, y]),
            Op::Multiply => Int::mul(&[x, y]),
            Op::Divide => x.div(y),
            Op::Modulo => x.rem(y),
            _ => return None,
        }),
        _ => {
            let (x, y) = (as_real(a)?, as_real(b)?);
            Term::Real(match op {
                Op::Plus => Real::add(&[x, y]),
                Op::Minus => Real::sub(&[x, y]),
                Op::Multiply => Real::mul(&[x, y]),
                Op::Divide => x.div(&y),
                _ => return None,
            })
        }
    })
}

pub(super) fn is_zero(t: &Term) -> Bool {
    match t {
        Term::Int(x) => x.eq(Int::from_i64(0)),
        Term::Real(x) => x.eq(Real::from_rational(0, 1)),
        Term::Text(_) => Bool::from_bool(false),
    }
}

impl Executor<'_> {
    /// The symbolic value of `e` in the row `env`.
    pub fn value(&mut self, e: &Expr, env: &Env) -> SymVal {
        match e {
            Expr::Column(id) => env
                .iter()
                .find(|(c, _)| c == id)
                .map_or_else(SymVal::unknown, |(_, v)| v.clone()),
            Expr::Literal(l) => literal(l),
            Expr::Subquery(s) if s.kind == SubqueryKind::Scalar => {
                self.quiet += 1;
                let rel = self.run(&s.plan, env);
                self.quiet -= 1;
                let Ok(rel) = rel else {
                    return SymVal::unknown();
                };
                self.scalar_row_count_branches(&s.plan, &rel);
                // the first existing row's first column, NULL when there is none
                let mut out = SymVal::null();
                for row in rel.rows.iter().rev() {
                    if let Some(v) = row.vals.first() {
                        out = ite_val(&row.exists, v, &out);
                    }
                }
                out
            }
            Expr::Call(op, args) => self.call_value(op, args, env),
            Expr::Subquery(_) => self.truth_value(e, env),
        }
    }

    /// The row-count branches of a scalar subquery, on its first evaluation: it returns no row
    /// (the value is NULL), or several (SQLite takes the first: against a join or IN, the
    /// others are lost).
    fn scalar_row_count_branches(&mut self, plan: &crate::plan::Plan, rel: &super::values::SymRel) {
        let address = plan as *const crate::plan::Plan as usize;
        if self.quiet > 0 || self.scalar_subqueries.contains(&address) {
            return;
        }
        self.scalar_subqueries.push(address);
        let k = self.scalar_subqueries.len();
        let live: Vec<Bool> = rel.rows.iter().map(|r| r.exists.clone()).collect();
        let n = super::aggregate::count(&live);
        self.branch(
            format!("Scalar subquery {k} returns no row"),
            false,
            n.eq(Int::from_i64(0)),
        );
        self.branch(
            format!("Scalar subquery {k} returns several rows"),
            false,
            n.ge(Int::from_i64(2)),
        );
    }

    /// A condition used as a value: 1, 0 or NULL.
    fn truth_value(&mut self, e: &Expr, env: &Env) -> SymVal {
        let t = self.truth(e, env);
        SymVal {
            term: Some(Term::Int(t.t.ite(&Int::from_i64(1), &Int::from_i64(0)))),
            null: t.is_unknown(),
        }
    }

    fn call_value(&mut self, op: &Op, args: &[Expr], env: &Env) -> SymVal {
        let vals =
            |me: &mut Self| -> Vec<SymVal> { args.iter().map(|a| me.value(a, env)).collect() };
        match op {
            Op::Plus | Op::Minus | Op::Multiply | Op::Divide | Op::Modulo if args.len() == 2 => {
                let v = vals(self);
                let (a, b) = (&v[0], &v[1]);
                let null = Bool::or(&[a.null.clone(), b.null.clone()]);
                let (Some(x), Some(y)) = (&a.term, &b.term) else {
                    return SymVal { term: None, null };
                };
                let term = arith(op, x, y);
                let null = if matches!(op, Op::Divide | Op::Modulo) {
                    Bool::or(&[null, is_zero(y)])
                } else {
                    null
                };
                SymVal { term, null }
            }
            Op::Negate if args.len() == 1 => {
                let v = self.value(&args[0], env);
                let term = match &v.term {
                    Some(Term::Int(x)) => Some(Term::Int(x.unary_minus())),
                    Some(Term::Real(x)) => Some(Term::Real(x.unary_minus())),
                    _ => None,
                };
                SymVal { term, null: v.null }
            }
            Op::Concat => {
                let v = vals(self);
                let nulls: Vec<Bool> = v.iter().map(|x| x.null.clone()).collect();
                let texts: Option<Vec<ZString>> = v
                    .iter()
                    .map(|x| match &x.term {
                        Some(Term::Text(s)) => Some(s.clone()),
                        _ => None,
                    })
                    .collect();
                SymVal {
                    term: texts
                        .filter(|t| !t.is_empty())
                        .map(|t| Term::Text(ZString::concat(&t))),
                    null: Bool::or(&nulls),
                }
            }
            Op::Case => {
                // when, then, ..., else
                let mut out = match args.len() % 2 {
                    1 => self.value(&args[args.len() - 1], env),
                    _ => SymVal::null(),
                };
                let pairs = args.len() / 2;
                for k in (0..pairs).rev() {
                    let cond = self.truth(&args[2 * k], env);
                    let then = self.value(&args[2 * k + 1], env);
                    out = ite_val(&cond.t, &then, &out);
                }
                out
            }
            Op::Cast(ty) if args.len() == 1 => {
                let v = self.value(&args[0], env);
                let ty = ty.to_lowercase();
                let term = match (&v.term, ty.as_str()) {
                    (Some(Term::Int(x)), t)
                        if t.contains("real") || t.contains("float") || t.contains("double") =>
                    {
                        Some(Term::Real(x.to_real()))
                    }
                    (Some(Term::Real(x)), t) if t.contains("int") => Some(Term::Int(x.to_int())),
                    (Some(t @ (Term::Int(_) | Term::Real(_))), ty)
                        if !ty.contains("char") && !ty.contains("text") =>
                    {
                        Some(t.clone())
                    }
                    (Some(t @ Term::Text(_)), ty) if ty.contains("char") || ty.contains("text") => {
                        Some(t.clone())
                    }
                    _ => None,
                };
                SymVal { term, null: v.null }
            }
            Op::Function(name) => self.function(name, args, env),
            op if op.is_predicate() => {
                self.truth_value(&Expr::Call(op.clone(), args.to_vec()), env)
            }
            _ => SymVal::unknown(),
        }
    }
}
