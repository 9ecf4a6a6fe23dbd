//! Symbolic values of the generator: a Z3 term (Int, Real or String) plus a NULL flag per value, SQL's three-valued truth, and symbolic rows and relations.

use z3::ast::{Bool, Int, Real, String as ZString};

use super::speculative_text::{branch_count, lift_pair, lift_pair_counted};
use crate::plan::ColumnId;

/// A Z3 term of one of the three sorts the generator models.
#[derive(Debug, Clone)]
pub enum Term {
    Int(Int),
    Real(Real),
    Text(ZString),
}

/// The solver sort of a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sort {
    Int,
    Real,
    Text,
}

/// A symbolic SQL value: its term (None when the generator cannot model it: a speculative,
/// unconstrained value decided by execution) and whether it is NULL.
#[derive(Debug, Clone)]
pub struct SymVal {
    pub term: Option<Term>,
    pub null: Bool,
}

impl SymVal {
    /// The SQL NULL.
    pub fn null() -> SymVal {
        SymVal {
            term: None,
            null: Bool::from_bool(true),
        }
    }

    /// A value the generator does not model (a function it cannot encode, for example).
    pub fn unknown() -> SymVal {
        SymVal {
            term: None,
            null: Bool::fresh_const("unknown_null"),
        }
    }

    /// A non-NULL value.
    pub fn of(term: Term) -> SymVal {
        SymVal {
            term: Some(term),
            null: Bool::from_bool(false),
        }
    }
}

/// SQL's three-valued truth: `t` when TRUE, `f` when FALSE, neither when UNKNOWN (never both).
#[derive(Debug, Clone)]
pub struct Truth {
    pub t: Bool,
    pub f: Bool,
}

impl Truth {
    /// A constant truth value.
    pub fn constant(b: bool) -> Truth {
        Truth {
            t: Bool::from_bool(b),
            f: Bool::from_bool(!b),
        }
    }

    /// A condition the generator does not model: the solver may pick any of the three values;
    /// execution decides what it really is.
    pub fn unknown() -> Truth {
        let t = Bool::fresh_const("unknown_t");
        let f = Bool::fresh_const("unknown_f");
        let f = Bool::and(&[f, t.not()]);
        Truth { t, f }
    }

    /// UNKNOWN (NULL) as a formula.
    pub fn is_unknown(&self) -> Bool {
        Bool::and(&[self.t.not(), self.f.not()])
    }

    pub fn not(&self) -> Truth {
        Truth {
            t: self.f.clone(),
            f: self.t.clone(),
        }
    }

    pub fn and(items: &[Truth]) -> Truth {
        let ts: Vec<Bool> = items.iter().map(|x| x.t.clone()).collect();
        let fs: Vec<Bool> = items.iter().map(|x| x.f.clone()).collect();
        Truth {
            t: Bool::and(&ts),
            f: Bool::or(&fs),
        }
    }

    pub fn or(items: &[Truth]) -> Truth {
        let ts: Vec<Bool> = items.iter().map(|x| x.t.clone()).collect();
        let fs: Vec<Bool> = items.iter().map(|x| x.f.clone()).collect();
        Truth {
            t: Bool::or(&ts),
            f: Bool::and(&fs),
        }
    }

    /// A two-valued condition over non-NULL operands, UNKNOWN when `null` holds.
    pub fn guarded(cond: Bool, null: &Bool) -> Truth {
        let known = null.not();
        Truth {
            t: Bool::and(&[known.clone(), cond.clone()]),
            f: Bool::and(&[known, cond.not()]),
        }
    }
}

/// One symbolic row: it exists when `exists` holds; values in the relation's column order.
#[derive(Debug, Clone)]
pub struct SymRow {
    pub exists: Bool,
    pub vals: Vec<SymVal>,
}

/// A symbolic relation: the columns (plan ids) and candidate rows.
#[derive(Debug, Clone, Default)]
pub struct SymRel {
    pub cols: Vec<ColumnId>,
    pub rows: Vec<SymRow>,
}

impl SymRel {
    /// The position of column `id`.
    pub fn position(&self, id: ColumnId) -> Option<usize> {
        self.cols.iter().position(|&c| c == id)
    }
}

/// `a = b` over terms of compatible sorts (Int and Real compare as reals); None when the sorts
/// cannot be compared by the solver.
pub fn term_eq(a: &Term, b: &Term) -> Option<Bool> {
    cmp_terms(a, b, Cmp::Eq)
}

/// The comparisons the solver models.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Lt,
    Le,
}

/// `a <cmp> b`; None when the sorts do not compare.
pub fn cmp_terms(a: &Term, b: &Term, cmp: Cmp) -> Option<Bool> {
    Some(match (a, b) {
        (Term::Int(x), Term::Int(y)) => match cmp {
            Cmp::Eq => x.eq(y),
            Cmp::Lt => x.lt(y),
            Cmp::Le => x.le(y),
        },
        // an ordering of speculative texts is decided per pair of constants (speculative_text.rs)
        (Term::Text(x), Term::Text(y)) => match cmp {
            Cmp::Eq => x.eq(y),
            Cmp::Lt => text_lt((x, branch_count(x)), (y, branch_count(y))),
            Cmp::Le => lift_pair(x, y, &|x, y| x.str_le(y), &|a, b| a <= b),
        },
        (Term::Int(_) | Term::Real(_), Term::Int(_) | Term::Real(_)) => {
            let (x, y) = (as_real(a)?, as_real(b)?);
            match cmp {
                Cmp::Eq => x.eq(&y),
                Cmp::Lt => x.lt(&y),
                Cmp::Le => x.le(&y),
            }
        }
        _ => return None,
    })
}

/// `a < b` as [`cmp_terms`], with the branch count of each text term known to the caller
/// ([`branch_count`]; what a running MIN or MAX tracks instead of recounting it at every row).
pub fn lt_counted(a: (&Term, Option<usize>), b: (&Term, Option<usize>)) -> Option<Bool> {
    match (a, b) {
        ((Term::Text(x), x_branches), (Term::Text(y), y_branches)) => {
            Some(text_lt((x, x_branches), (y, y_branches)))
        }
        ((a, _), (b, _)) => cmp_terms(a, b, Cmp::Lt),
    }
}

/// The branch count of a text term, None for any other term or above the lifting limit.
pub fn term_branches(t: &Term) -> Option<usize> {
    match t {
        Term::Text(x) => branch_count(x),
        _ => None,
    }
}

fn text_lt(x: (&ZString, Option<usize>), y: (&ZString, Option<usize>)) -> Bool {
    lift_pair_counted(x, y, &|x, y| x.str_lt(y), &|a, b| a < b)
}

/// A numeric term as a real.
pub fn as_real(t: &Term) -> Option<Real> {
    match t {
        Term::Int(i) => Some(i.to_real()),
        Term::Real(r) => Some(r.clone()),
        Term::Text(_) => None,
    }
}

/// `a IS NOT DISTINCT FROM b`: both NULL, or both non-NULL and equal (a fresh condition when
/// the sorts do not compare).
pub fn same_value(a: &SymVal, b: &SymVal) -> Bool {
    let both_null = Bool::and(&[a.null.clone(), b.null.clone()]);
    let eq = match (&a.term, &b.term) {
        (Some(x), Some(y)) => term_eq(x, y).unwrap_or_else(|| Bool::fresh_const("same")),
        _ => Bool::fresh_const("same"),
    };
    let both_equal = Bool::and(&[a.null.not(), b.null.not(), eq]);
    Bool::or(&[both_null, both_equal])
}

/// `ite(cond, a, b)` over terms of the same sort (None otherwise).
pub fn ite_term(cond: &Bool, a: &Term, b: &Term) -> Option<Term> {
    Some(match (a, b) {
        (Term::Int(x), Term::Int(y)) => Term::Int(cond.ite(x, y)),
        (Term::Text(x), Term::Text(y)) => Term::Text(cond.ite(x, y)),
        (Term::Int(_) | Term::Real(_), Term::Int(_) | Term::Real(_)) => {
            Term::Real(cond.ite(&as_real(a)?, &as_real(b)?))
        }
        _ => return None,
    })
}

/// A CASE-like choice between two values.
pub fn ite_val(cond: &Bool, a: &SymVal, b: &SymVal) -> SymVal {
    let null = cond.ite(&a.null, &b.null);
    let term = match (&a.term, &b.term) {
        (Some(x), Some(y)) => ite_term(cond, x, y),
        // one side is always NULL (a literal NULL): keep the other side's term
        (Some(x), None) => Some(x.clone()),
        (None, Some(y)) => Some(y.clone()),
        (None, None) => None,
    };
    SymVal { term, null }
}
