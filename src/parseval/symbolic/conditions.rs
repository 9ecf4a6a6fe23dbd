//! The three-valued truth of a condition in a row: AND, OR, NOT, NULL tests, comparisons (with
//! SQLite's affinity rules between numbers and text), BETWEEN, IN lists, LIKE and `glob(..)`
//! over literal patterns, and EXISTS, IN and scalar subqueries.

use z3::ast::{Bool, Int, String as ZString};

use super::execute::Executor;
use super::expr_values::{is_zero, literal, real_literal, Env};
use super::speculative_text::{lift, literal_text};
use super::values::{cmp_terms, Cmp, SymVal, Term, Truth};
use super::z3_text::z3_string;
use crate::plan::{DataType, Expr, Literal, Op, Subquery, SubqueryKind};

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

/// `value LIKE pattern` for patterns of literal segments around `%` (no `_`); None otherwise.
fn like(s: &ZString, pattern: &str) -> Option<Bool> {
    wildcard_match(s, pattern, '%', &['_', '\\'])
}

/// `glob(pattern, value)` (SQLite's GLOB, which tells letter case apart, as Z3's strings do) for
/// patterns of literal segments around `*` (no `?` or `[`); None otherwise. The dialect
/// translation writes a case-sensitive LIKE this way (`parse::translate::string_case`).
fn glob(s: &ZString, pattern: &str) -> Option<Bool> {
    wildcard_match(s, pattern, '*', &['?', '[', ']'])
}

/// A pattern of literal segments around the wildcard `any` (which matches any text) as a
/// constraint on `s`; None for a pattern with one of the `other` special characters.
fn wildcard_match(s: &ZString, pattern: &str, any: char, other: &[char]) -> Option<Bool> {
    if pattern.contains(other) {
        return None;
    }
    let parts: Vec<&str> = pattern.split(any).collect();
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
                    // a predicate no rule above models (LIKE with an ESCAPE, an arity the rules
                    // do not take): its value asks for its truth, so it is left to execution
                    None if op.is_predicate() => Truth::unknown(),
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
            Op::Function(name) if name == "glob" && args.len() == 2 => {
                let Expr::Literal(Literal::Text(p)) = &args[0] else {
                    return None;
                };
                let v = self.value(&args[1], env);
                match &v.term {
                    Some(Term::Text(s)) if glob(s, p).is_some() => {
                        let c = lift(s, &mut |s| {
                            glob(s, p).unwrap_or_else(|| Bool::from_bool(false))
                        });
                        Truth::guarded(c, &v.null)
                    }
                    _ => return None,
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
        let operands: Vec<SymVal> = s.operands.iter().map(|o| self.value(o, env)).collect();
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
                if operands.is_empty() {
                    return Truth::unknown();
                }
                // a row value equals a subquery row when every pair of values is equal, and
                // differs from it when one pair differs (NULL otherwise)
                let items: Vec<Truth> = rel
                    .rows
                    .iter()
                    .map(|r| {
                        if r.vals.len() < operands.len() {
                            return Truth::unknown();
                        }
                        let pairs: Vec<Truth> = operands
                            .iter()
                            .zip(&r.vals)
                            .map(|(v, x)| self.compare(&Op::Eq, v, x))
                            .collect();
                        let c = Truth::and(&pairs);
                        Truth {
                            t: Bool::and(&[r.exists.clone(), c.t]),
                            f: Bool::or(&[r.exists.not(), c.f]),
                        }
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
