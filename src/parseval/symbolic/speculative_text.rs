//! Speculative text values as Z3 terms: in the search's first pass a generated text value is
//! one of a few constants (`search::text_domains`), chosen by an integer, so Z3 picks among
//! constants instead of solving string constraints. Its string theory gives up on a substring
//! compared between two bounds (`SUBSTR(date, 1, 7) BETWEEN '2008-08' AND '2008-10'`) even with
//! nothing else asserted; over constants the same check takes milliseconds. A function of such
//! a text is pushed through the choice (`lift`), so the rewriter decides each constant.

use z3::ast::{Ast, Bool, Int, String as ZString};
use z3::DeclKind;

use super::z3_text::{unescape_z3_text, z3_string};

/// A text term equal to `domain[k]` for the integer `k` (the last entry for any other `k`, so
/// no range needs asserting); None for an empty domain or a text Z3 cannot hold.
pub fn choice(domain: &[String], k: &Int) -> Option<ZString> {
    let (last, rest) = domain.split_last()?;
    let mut term = z3_string(last)?;
    for (i, t) in rest.iter().enumerate().rev() {
        let value = z3_string(t)?;
        term = k.eq(Int::from_i64(i as i64)).ite(&value, &term);
    }
    Some(term)
}

/// Most branches a text is split into by [`lift`] (a domain of a few dozen texts fits; an
/// if-then-else chain built over many rows, such as MAX of a text column, does not).
const MAX_LIFTED: usize = 256;

/// `f` pushed through a speculative text: for an if-then-else over texts (a [`choice`], or what
/// a lifted function made of one) the same if-then-else over `f` of each branch, simplified;
/// `f(s)` for any other text, or when `s` splits into more than [`MAX_LIFTED`] branches. Z3's
/// string theory is slow on an ordering, a substring or a regular expression of an
/// if-then-else, even of constants, when it sits under a disjunction; over constants the
/// rewriter decides each branch.
pub fn lift<T: Ast>(s: &ZString, f: &mut dyn FnMut(&ZString) -> T) -> T {
    match branch_count(s) {
        Some(_) => Branches::read(s).map(&mut |s, _| f(s).simplify()),
        None => f(s),
    }
}

/// A comparison of two texts pushed through both, as [`lift`], while the pairs of branches stay
/// within [`MAX_LIFTED`]: `on_texts` decides a pair of constants in Rust (no rewriter call: MIN
/// and MAX compare every row with every other), `f` any other pair. Else `f(x, y)` whole.
pub fn lift_pair(
    x: &ZString,
    y: &ZString,
    f: &dyn Fn(&ZString, &ZString) -> Bool,
    on_texts: &dyn Fn(&str, &str) -> bool,
) -> Bool {
    lift_pair_counted((x, branch_count(x)), (y, branch_count(y)), f, on_texts)
}

/// [`lift_pair`] on texts whose branch counts ([`branch_count`]) the caller already knows: a
/// running MIN or MAX is an if-then-else over every row's text, and counting it again at each
/// row walks up to [`MAX_LIFTED`] leaves per comparison, work the solver's units never see.
pub fn lift_pair_counted(
    (x, x_branches): (&ZString, Option<usize>),
    (y, y_branches): (&ZString, Option<usize>),
    f: &dyn Fn(&ZString, &ZString) -> Bool,
    on_texts: &dyn Fn(&str, &str) -> bool,
) -> Bool {
    match (x_branches, y_branches) {
        (Some(a), Some(b)) if a * b <= MAX_LIFTED => {
            let ys = Branches::read(y);
            Branches::read(x).map(&mut |x, x_text| {
                ys.map(&mut |y, y_text| match (x_text, y_text) {
                    (Some(a), Some(b)) => Bool::from_bool(on_texts(a, b)),
                    _ => f(x, y),
                })
            })
        }
        _ => f(x, y),
    }
}

/// A text's if-then-else structure, read from Z3 once: lifting a pair maps the second text's
/// branches once for every branch of the first, and reading them from Z3 again each time was
/// most of the cost of a MIN or MAX over texts.
enum Branches {
    Ite(Bool, Box<Branches>, Box<Branches>),
    /// A branch's text and, when it is a literal, its value.
    Leaf(ZString, Option<String>),
}

impl Branches {
    fn read(s: &ZString) -> Branches {
        match as_ite(s) {
            Some((c, a, b)) => Branches::Ite(
                c,
                Box::new(Branches::read(&a)),
                Box::new(Branches::read(&b)),
            ),
            None => Branches::Leaf(s.clone(), literal_text(s)),
        }
    }

    /// The same if-then-else over `f` of each branch.
    fn map<T: Ast>(&self, f: &mut dyn FnMut(&ZString, Option<&str>) -> T) -> T {
        match self {
            Branches::Ite(c, a, b) => {
                let (a, b) = (a.map(f), b.map(f));
                c.ite(&a, &b)
            }
            Branches::Leaf(s, text) => f(s, text.as_deref()),
        }
    }
}

/// The text of `s` when it is a string literal (Z3's INTERNAL declaration kind), None for
/// anything else: `ZString::as_string` answers "" for a variable (Z3 reports the misuse and
/// returns an empty string), and an unconstrained text must never decide a comparison as "".
pub fn literal_text(s: &ZString) -> Option<String> {
    let literal = s.safe_decl().ok()?.kind() == DeclKind::Internal && s.children().is_empty();
    literal
        .then(|| s.as_string())
        .flatten()
        .map(|t| unescape_z3_text(&t))
}

/// How many branches `s` splits into, None above [`MAX_LIFTED`].
pub fn branch_count(s: &ZString) -> Option<usize> {
    let mut left = MAX_LIFTED;
    count_branches(s, &mut left).then_some(MAX_LIFTED - left)
}

/// The branch count of an if-then-else whose two texts have `a` and `b` branches.
pub fn ite_branch_count(a: Option<usize>, b: Option<usize>) -> Option<usize> {
    a?.checked_add(b?).filter(|&n| n <= MAX_LIFTED)
}

/// An if-then-else over texts: its condition and both branches.
fn as_ite(s: &ZString) -> Option<(Bool, ZString, ZString)> {
    if s.safe_decl().ok()?.kind() != DeclKind::Ite {
        return None;
    }
    match s.children().as_slice() {
        [c, a, b] => Some((c.as_bool()?, a.as_string()?, b.as_string()?)),
        _ => None,
    }
}

/// Whether `s` splits into at most `left` branches (counting them down).
fn count_branches(s: &ZString, left: &mut usize) -> bool {
    match as_ite(s) {
        Some((_, a, b)) => count_branches(&a, left) && count_branches(&b, left),
        None if *left > 0 => {
            *left -= 1;
            true
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    #[test]
    fn only_literals_decide_a_comparison_in_rust() {
        assert_eq!(
            literal_text(&ZString::from_str("8").unwrap()).as_deref(),
            Some("8")
        );
        let x = ZString::new_const("x");
        assert_eq!(literal_text(&x), None);
        // a variable against a literal is Z3's to decide, not "" < "8" (true)
        let lt = lift_pair(
            &x,
            &ZString::from_str("8").unwrap(),
            &|a, b| a.str_lt(b),
            &|a, b| a < b,
        );
        assert_eq!(lt.as_bool(), None, "{lt}");
    }

    #[test]
    fn branch_counts_add_up_through_an_if_then_else_and_stop_at_the_limit() {
        let domain: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let x = choice(&domain, &Int::new_const("i")).unwrap();
        let y = choice(&domain[..2], &Int::new_const("j")).unwrap();
        let both = Bool::new_const("c").ite(&x, &y);
        assert_eq!(branch_count(&x), Some(3));
        assert_eq!(branch_count(&both), Some(5));
        assert_eq!(
            ite_branch_count(branch_count(&x), branch_count(&y)),
            branch_count(&both)
        );
        assert_eq!(ite_branch_count(Some(MAX_LIFTED), Some(1)), None);
        assert_eq!(ite_branch_count(None, Some(1)), None);
    }

    #[test]
    fn a_pair_lifted_with_known_counts_is_the_pair_lifted() {
        let domain: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let x = choice(&domain, &Int::new_const("i")).unwrap();
        let y = Bool::new_const("c").ite(&ZString::new_const("free"), &x);
        let lt = |x: &ZString, y: &ZString| x.str_lt(y);
        let plain = lift_pair(&x, &y, &lt, &|a, b| a < b);
        let counted = lift_pair_counted(
            (&x, branch_count(&x)),
            (&y, branch_count(&y)),
            &lt,
            &|a, b| a < b,
        );
        assert_eq!(plain, counted);
        // 3 x 4 branches: the constant pairs are decided in Rust, the free text stays a comparison
        let text = format!("{plain:?}");
        assert!(text.contains("(str.< \"a\" free)"), "{text}");
        assert!(!text.contains("(str.< \"a\" \""), "{text}");
        // reading a text's branches and rebuilding them gives the same term
        let read = Branches::read(&y).map(&mut |s, _| s.clone());
        assert_eq!(read, y);
    }

    #[test]
    fn choice_picks_the_indexed_text() {
        use z3::{SatResult, Solver};
        let domain: Vec<String> = ["a", "2008-09-01", "v1"].map(String::from).to_vec();
        let k = Int::new_const("k");
        let term = choice(&domain, &k).unwrap();
        let solver = Solver::new();
        let sub = term.substr(Int::from_i64(0), Int::from_i64(7));
        solver.assert(ZString::from_str("2008-08").unwrap().str_le(&sub));
        solver.assert(sub.str_le(ZString::from_str("2008-10").unwrap()));
        assert_eq!(solver.check(), SatResult::Sat);
        let model = solver.get_model().unwrap();
        let value = model.eval(&term, true).and_then(|t| t.as_string());
        assert_eq!(value.as_deref(), Some("2008-09-01"));
    }
}
