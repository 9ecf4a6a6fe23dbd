//! Scalar expressions as Z3 terms: columns, literals, arithmetic, comparisons, LIKE patterns, CASE, a few functions and subqueries; anything else becomes a speculative (unconstrained) value that execution decides.

use z3::ast::{Bool, Int, Real, String as ZString};

use super::execute::Executor;
use super::speculative_text::{lift, literal_text};
use super::values::{as_real, cmp_terms, ite_val, Cmp, SymVal, Term, Truth};
use super::z3_text::z3_string;
use crate::plan::{DataType, Expr, Literal, Op, Subquery, SubqueryKind};

type Env = [(u32, SymVal)];

fn literal(l: &Literal) -> SymVal {
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

fn real_literal(f: f64) -> Option<Term> {
    if !f.is_finite() {
        return None;
    }
    let text = format!("{f:.12}");
    let (int, frac) = text.split_once('.')?;
    let den = 10i64.checked_pow(frac.len() as u32)?;
    let num: i64 = format!("{int}{frac}").parse().ok()?;
    Some(Term::Real(Real::from_rational(num, den)))
}

/// A text literal compared with a number: SQLite converts it when it looks like a number.
fn numeric_text(t: &Term, other: &Term) -> Option<Term> {
    let Term::Text(_) = t else { return None };
    if matches!(other, Term::Text(_)) {
        return None;
    }
    let s = t.as_text_literal()?;
    if let Ok(i) = s.trim().parse::<i64>() {
        return Some(Term::Int(Int::from_i64(i)));
    }
    s.trim().parse::<f64>().ok().and_then(real_literal)
}

trait TextLiteral {
    fn as_text_literal(&self) -> Option<String>;
}

impl TextLiteral for Term {
    fn as_text_literal(&self) -> Option<String> {
        match self {
            Term::Text(s) => literal_text(s),
            _ => None,
        }
    }
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

fn is_zero(t: &Term) -> Bool {
    match t {
        Term::Int(x) => x.eq(Int::from_i64(0)),
        Term::Real(x) => x.eq(Real::from_rational(0, 1)),
        Term::Text(_) => Bool::from_bool(false),
    }
}

/// `value LIKE pattern` for patterns of literal segments around `%` (no `_`); None otherwise.
fn like(s: &ZString, pattern: &str) -> Option<Bool> {
    if pattern.contains('_') || pattern.contains('\\') {
        return None;
    }
    let parts: Vec<&str> = pattern.split('%').collect();
    let lit = z3_string;
    Some(match parts.as_slice() {
        [exact] => s.eq(lit(exact)?),
        [pre, post] => {
            let mut c = Vec::new();
            if !pre.is_empty() {
                c.push(lit(pre)?.prefix(s));
            }
            if !post.is_empty() {
                c.push(lit(post)?.suffix(s));
            }
            c.push(s.length().ge(Int::from_i64(
                (pre.chars().count() + post.chars().count()) as i64,
            )));
            Bool::and(&c)
        }
        _ => {
            let (first, last) = (parts[0], parts[parts.len() - 1]);
            let mut c = Vec::new();
            if !first.is_empty() {
                c.push(lit(first)?.prefix(s));
            }
            if !last.is_empty() {
                c.push(lit(last)?.suffix(s));
            }
            for mid in &parts[1..parts.len() - 1] {
                if !mid.is_empty() {
                    c.push(s.contains(lit(mid)?));
                }
            }
            Bool::and(&c)
        }
    })
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

    fn function(&mut self, name: &str, args: &[Expr], env: &Env) -> SymVal {
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

    /// The three-valued truth of condition `e` in the row `env`.
    pub fn truth(&mut self, e: &Expr, env: &Env) -> Truth {
        match e {
            Expr::Literal(Literal::Boolean(b)) => Truth::constant(*b),
            Expr::Literal(Literal::Null) => Truth {
                t: Bool::from_bool(false),
                f: Bool::from_bool(false),
            },
            Expr::Call(Op::And, args) => {
                let ts: Vec<Truth> = args.iter().map(|a| self.truth(a, env)).collect();
                Truth::and(&ts)
            }
            Expr::Call(Op::Or, args) => {
                let ts: Vec<Truth> = args.iter().map(|a| self.truth(a, env)).collect();
                Truth::or(&ts)
            }
            Expr::Call(Op::Not, args) if args.len() == 1 => self.truth(&args[0], env).not(),
            Expr::Call(op, args) => {
                let t = self
                    .null_test_truth(op, args, env)
                    .or_else(|| self.comparison_truth(op, args, env));
                match t {
                    Some(t) => t,
                    None => {
                        let v = self.value(e, env);
                        self.nonzero(&v)
                    }
                }
            }
            Expr::Subquery(s) => self.subquery_truth(s, e, env),
            _ => {
                let v = self.value(e, env);
                self.nonzero(&v)
            }
        }
    }

    /// `IS [NOT] NULL` and `IS [NOT] DISTINCT FROM`: never unknown. None for any other call.
    fn null_test_truth(&mut self, op: &Op, args: &[Expr], env: &Env) -> Option<Truth> {
        Some(match op {
            Op::IsNull | Op::IsNotNull if args.len() == 1 => {
                let v = self.value(&args[0], env);
                let t = Truth {
                    t: v.null.clone(),
                    f: v.null.not(),
                };
                if *op == Op::IsNull {
                    t
                } else {
                    t.not()
                }
            }
            Op::IsDistinctFrom | Op::IsNotDistinctFrom if args.len() == 2 => {
                let (a, b) = (self.value(&args[0], env), self.value(&args[1], env));
                let same = super::values::same_value(&a, &b);
                let t = Truth {
                    t: same.clone(),
                    f: same.not(),
                };
                if *op == Op::IsNotDistinctFrom {
                    t
                } else {
                    t.not()
                }
            }
            _ => return None,
        })
    }

    /// The value of `e` compared with `other`, after SQLite's affinity rule for comparisons: a
    /// number literal (no affinity) met by a table column of TEXT affinity compares as text, as
    /// SQLite renders the number (`week < 8` on a TEXT `week` is `week < '8'`: '10' is not below
    /// it). The reverse case, a text literal met by a numeric column, is [`numeric_text`]'s.
    fn operand(&mut self, e: &Expr, other: &Expr, env: &Env) -> SymVal {
        use crate::plan::affinity::{column_affinity, sqlite_number_text};
        if let Expr::Literal(l) = e {
            if column_affinity(other, self.columns) == Some(DataType::Text) {
                if let Some(text) = sqlite_number_text(l) {
                    return literal(&Literal::Text(text));
                }
            }
        }
        self.value(e, env)
    }

    /// Comparisons, BETWEEN, IN (list) and LIKE (a literal pattern over a text term; otherwise
    /// unknown). None for any other call.
    fn comparison_truth(&mut self, op: &Op, args: &[Expr], env: &Env) -> Option<Truth> {
        Some(match op {
            op if op.is_comparison() && args.len() == 2 => {
                let (a, b) = (
                    self.operand(&args[0], &args[1], env),
                    self.operand(&args[1], &args[0], env),
                );
                self.compare(op, &a, &b)
            }
            Op::Between if args.len() == 3 => {
                let (v, lo, hi) = (
                    self.value(&args[0], env),
                    self.operand(&args[1], &args[0], env),
                    self.operand(&args[2], &args[0], env),
                );
                Truth::and(&[
                    self.compare(&Op::GtEq, &v, &lo),
                    self.compare(&Op::LtEq, &v, &hi),
                ])
            }
            Op::InList if !args.is_empty() => {
                let v = self.value(&args[0], env);
                let items: Vec<Truth> = args[1..]
                    .iter()
                    .map(|a| {
                        let x = self.operand(a, &args[0], env);
                        self.compare(&Op::Eq, &v, &x)
                    })
                    .collect();
                Truth::or(&items)
            }
            Op::Like if args.len() == 2 => {
                let v = self.value(&args[0], env);
                let pattern = match &args[1] {
                    Expr::Literal(Literal::Text(p)) => Some(p.clone()),
                    _ => None,
                };
                match (&v.term, pattern) {
                    (Some(Term::Text(s)), Some(p)) if like(s, &p).is_some() => {
                        let c = lift(s, &mut |s| {
                            like(s, &p).unwrap_or_else(|| Bool::from_bool(false))
                        });
                        Truth::guarded(c, &v.null)
                    }
                    _ => Truth::unknown(),
                }
            }
            _ => return None,
        })
    }

    /// EXISTS, IN and scalar subqueries, run quietly (no branches) for this row; a subquery that
    /// cannot be run is unknown.
    fn subquery_truth(&mut self, s: &Subquery, e: &Expr, env: &Env) -> Truth {
        self.quiet += 1;
        let rel = self.run(&s.plan, env);
        let operand = s.operand.as_ref().map(|o| self.value(o, env));
        self.quiet -= 1;
        let Ok(rel) = rel else {
            return Truth::unknown();
        };
        match s.kind {
            SubqueryKind::Exists => {
                let any: Vec<Bool> = rel.rows.iter().map(|r| r.exists.clone()).collect();
                let t = if any.is_empty() {
                    Bool::from_bool(false)
                } else {
                    Bool::or(&any)
                };
                Truth { f: t.not(), t }
            }
            SubqueryKind::In => {
                let Some(v) = operand else {
                    return Truth::unknown();
                };
                let items: Vec<Truth> = rel
                    .rows
                    .iter()
                    .filter_map(|r| {
                        let x = r.vals.first()?;
                        let c = self.compare(&Op::Eq, &v, x);
                        Some(Truth {
                            t: Bool::and(&[r.exists.clone(), c.t]),
                            f: Bool::or(&[r.exists.not(), c.f]),
                        })
                    })
                    .collect();
                if items.is_empty() {
                    Truth::constant(false)
                } else {
                    Truth::or(&items)
                }
            }
            SubqueryKind::Scalar => {
                let v = self.value(e, env);
                self.nonzero(&v)
            }
        }
    }

    fn nonzero(&mut self, v: &SymVal) -> Truth {
        match &v.term {
            Some(t @ (Term::Int(_) | Term::Real(_))) => Truth::guarded(is_zero(t).not(), &v.null),
            _ => Truth::unknown(),
        }
    }

    /// `a <op> b` with SQL's NULL rule; text literals compared with numbers are converted the
    /// way SQLite's affinity does; other mixed sorts are speculative.
    pub(super) fn compare(&mut self, op: &Op, a: &SymVal, b: &SymVal) -> Truth {
        let null = Bool::or(&[a.null.clone(), b.null.clone()]);
        let (Some(x), Some(y)) = (&a.term, &b.term) else {
            return Truth::unknown();
        };
        let x2 = numeric_text(x, y);
        let y2 = numeric_text(y, x);
        let (x, y) = (x2.as_ref().unwrap_or(x), y2.as_ref().unwrap_or(y));
        let cond = match op {
            Op::Eq => cmp_terms(x, y, Cmp::Eq),
            Op::NotEq => cmp_terms(x, y, Cmp::Eq).map(|c| c.not()),
            Op::Lt => cmp_terms(x, y, Cmp::Lt),
            Op::LtEq => cmp_terms(x, y, Cmp::Le),
            Op::Gt => cmp_terms(y, x, Cmp::Lt),
            Op::GtEq => cmp_terms(y, x, Cmp::Le),
            _ => None,
        };
        match cond {
            Some(c) => Truth::guarded(c, &null),
            None => Truth::unknown(),
        }
    }
}
