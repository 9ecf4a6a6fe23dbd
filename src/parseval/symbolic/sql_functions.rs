//! SQL functions as Z3 terms: `length`, `substr`, `strftime` and the date functions (`dates`),
//! `abs`, `coalesce`/`ifnull` and `iif`; `lower`, `upper` and `trim` pass their argument
//! through (case mapping is not modelled); any other function is a speculative value.

use z3::ast::{Bool, Int, Real, String as ZString};

use super::execute::Executor;
use super::expr_values::Env;
use super::speculative_text::lift;
use super::values::{ite_val, SymVal, Term};
use crate::plan::{Expr, Literal};

impl Executor<'_> {
    pub(super) fn function(&mut self, name: &str, args: &[Expr], env: &Env) -> SymVal {
        let v: Vec<SymVal> = args.iter().map(|a| self.value(a, env)).collect();
        match (name, v.as_slice()) {
            ("length", [x]) => match &x.term {
                Some(Term::Text(s)) => SymVal {
                    term: Some(Term::Int(lift(s, &mut |s| s.length()))),
                    null: x.null.clone(),
                },
                _ => SymVal::unknown(),
            },
            ("substr" | "substring", [x, start, rest @ ..]) if rest.len() <= 1 => {
                let lit = |e: Option<&Expr>| match e {
                    Some(Expr::Literal(Literal::Integer(i))) => Some(*i),
                    _ => None,
                };
                let (from, len) = (lit(args.get(1)), lit(args.get(2)));
                match (&x.term, from) {
                    (Some(Term::Text(s)), Some(from)) if from >= 1 => {
                        let mut piece = |s: &ZString| {
                            let len = len.map_or_else(|| s.length(), Int::from_i64);
                            s.substr(Int::from_i64(from - 1), len)
                        };
                        SymVal {
                            term: Some(Term::Text(lift(s, &mut piece))),
                            null: Bool::or(&[x.null.clone(), start.null.clone()]),
                        }
                    }
                    _ => SymVal::unknown(),
                }
            }
            ("strftime", [_, x]) => {
                let format = match args.first() {
                    Some(Expr::Literal(Literal::Text(f))) => Some(f.as_str()),
                    _ => None,
                };
                match (&x.term, format) {
                    (Some(Term::Text(s)), Some(f)) => {
                        super::dates::strftime(f, s).map_or_else(SymVal::unknown, |(t, shaped)| {
                            SymVal {
                                term: Some(Term::Text(t)),
                                null: Bool::or(&[x.null.clone(), shaped.not()]),
                            }
                        })
                    }
                    _ => SymVal::unknown(),
                }
            }
            ("date" | "datetime" | "time", [x]) => match &x.term {
                Some(Term::Text(s)) => super::dates::date_function(name, s).map_or_else(
                    SymVal::unknown,
                    |(t, shaped)| SymVal {
                        term: Some(Term::Text(t)),
                        null: Bool::or(&[x.null.clone(), shaped.not()]),
                    },
                ),
                _ => SymVal::unknown(),
            },
            // case mapping is not modelled: the value itself is the speculation
            ("lower" | "upper" | "trim", [x]) => x.clone(),
            ("abs", [x]) => {
                let term = match &x.term {
                    Some(Term::Int(i)) => {
                        Some(Term::Int(i.lt(Int::from_i64(0)).ite(&i.unary_minus(), i)))
                    }
                    Some(Term::Real(r)) => Some(Term::Real(
                        r.lt(Real::from_rational(0, 1)).ite(&r.unary_minus(), r),
                    )),
                    _ => None,
                };
                SymVal {
                    term,
                    null: x.null.clone(),
                }
            }
            ("coalesce" | "ifnull", [first, rest @ ..]) if !rest.is_empty() => {
                let mut out = rest[rest.len() - 1].clone();
                for x in rest[..rest.len() - 1]
                    .iter()
                    .rev()
                    .chain(std::iter::once(first))
                {
                    out = ite_val(&x.null.not(), x, &out);
                }
                out
            }
            ("iif", [_, _, _]) => {
                let c = self.truth(&args[0], env);
                ite_val(&c.t, &v[1], &v[2])
            }
            _ => SymVal::unknown(),
        }
    }
}
