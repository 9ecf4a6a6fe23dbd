//! Result comparison of test-suite-sql-eval's `result_eq`: bag (or list) equality up to a permutation of columns.
//!
//! Values compare as Python's `==` does on sqlite3 results (`1 == 1.0`, text never equals a blob).
//! Kept from the original: rows are first compared as bags of sorted values (sorted by Python's
//! `str(value) + str(type(value))`); then a column permutation is searched, pruned by column value sets.
//! The original prunes with 20 random rows; this prunes with all rows, which only removes
//! permutations that could never match, so the verdict is the same and deterministic.

use std::collections::{HashMap, HashSet};

/// One result cell, canonicalized so that equal Python values are equal (integral reals become Int).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cell {
    Null,
    Int(i64),
    /// A non-integral (or out-of-range) real, by its bits (sqlite never yields NaN).
    Real(u64),
    Text(String),
    Blob(Vec<u8>),
}

impl Cell {
    /// A real value, normalized to `Int` when Python would find it equal to an int.
    pub fn real(f: f64) -> Cell {
        if f.is_finite() && f.fract() == 0.0 && f.abs() < 9.2e18 {
            return Cell::Int(f as i64);
        }
        Cell::Real(f.to_bits())
    }

    /// Python's `str(x) + str(type(x))`, the in-row sort key of `unorder_row`.
    fn sort_key(&self, was_real: bool) -> String {
        match self {
            Cell::Null => "None<class 'NoneType'>".into(),
            Cell::Int(i) if was_real => format!("{i}.0<class 'float'>"),
            Cell::Int(i) => format!("{i}<class 'int'>"),
            Cell::Real(b) => format!("{:?}<class 'float'>", f64::from_bits(*b)),
            Cell::Text(s) => format!("{s}<class 'str'>"),
            Cell::Blob(b) => format!("b{:?}<class 'bytes'>", String::from_utf8_lossy(b)),
        }
    }
}

/// A row with, per cell, whether it came from a REAL (only used for the in-row sort key).
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub cells: Vec<Cell>,
    pub real: Vec<bool>,
}

fn unorder(row: &Row) -> Vec<Cell> {
    let mut v: Vec<(String, &Cell)> = row
        .cells
        .iter()
        .zip(&row.real)
        .map(|(c, &r)| (c.sort_key(r), c))
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v.into_iter().map(|(_, c)| c.clone()).collect()
}

fn multiset(rows: &[Vec<Cell>]) -> HashMap<&Vec<Cell>, usize> {
    let mut m = HashMap::new();
    for r in rows {
        *m.entry(r).or_insert(0) += 1;
    }
    m
}

/// Most column permutations tried before giving up (counted as not equal).
pub const MAX_PERMUTATIONS: usize = 200_000;

/// `result_eq(result1, result2, order_matters)` of test-suite-sql-eval's exec_eval.py.
pub fn result_eq(r1: &[Row], r2: &[Row], order_matters: bool) -> bool {
    if r1.is_empty() && r2.is_empty() {
        return true;
    }
    if r1.len() != r2.len() {
        return false;
    }
    let n = r1[0].cells.len();
    if r2[0].cells.len() != n {
        return false;
    }
    // quick rejection on rows as sorted bags of values
    let s1: Vec<Vec<Cell>> = r1.iter().map(unorder).collect();
    let s2: Vec<Vec<Cell>> = r2.iter().map(unorder).collect();
    let quick = if order_matters {
        s1 == s2
    } else {
        s1.iter().collect::<HashSet<_>>() == s2.iter().collect::<HashSet<_>>()
    };
    if !quick {
        return false;
    }
    let a: Vec<&Vec<Cell>> = r1.iter().map(|r| &r.cells).collect();
    let col_sets: Vec<HashSet<&Cell>> = (0..n).map(|i| a.iter().map(|r| &r[i]).collect()).collect();
    // candidates[i]: columns j of r2 whose every value occurs in column i of r1
    let candidates: Vec<Vec<usize>> = (0..n)
        .map(|i| {
            (0..n)
                .filter(|&j| r2.iter().all(|r| col_sets[i].contains(&r.cells[j])))
                .collect()
        })
        .collect();
    let a_owned: Vec<Vec<Cell>> = a.iter().map(|r| (*r).clone()).collect();
    let a_set: HashSet<&Vec<Cell>> = a_owned.iter().collect();
    let a_bag = multiset(&a_owned);
    any_permutation(&candidates, &mut |p: &[usize]| {
        let permuted: Vec<Vec<Cell>> = r2
            .iter()
            .map(|r| p.iter().map(|&j| r.cells[j].clone()).collect())
            .collect();
        if order_matters {
            permuted == a_owned
        } else {
            permuted.iter().collect::<HashSet<_>>() == a_set && multiset(&permuted) == a_bag
        }
    })
}

/// Whether `check` accepts some permutation `p` of the columns (`p[i]`: the column of the second
/// result that goes to position `i`), trying for position `i` only the columns in
/// `candidates[i]`, at most [`MAX_PERMUTATIONS`] of them (then: false). `result_eq`'s search,
/// shared with ParSEval's `test-suite` comparison.
pub(crate) fn any_permutation(
    candidates: &[Vec<usize>],
    check: &mut dyn FnMut(&[usize]) -> bool,
) -> bool {
    let n = candidates.len();
    let mut perm = Vec::with_capacity(n);
    let mut used = vec![false; n];
    let mut budget = MAX_PERMUTATIONS;
    search(candidates, &mut perm, &mut used, &mut budget, check)
}

fn search(
    cand: &[Vec<usize>],
    perm: &mut Vec<usize>,
    used: &mut [bool],
    budget: &mut usize,
    check: &mut dyn FnMut(&[usize]) -> bool,
) -> bool {
    if perm.len() == cand.len() {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        return check(perm);
    }
    for &j in &cand[perm.len()] {
        if used[j] {
            continue;
        }
        used[j] = true;
        perm.push(j);
        let ok = search(cand, perm, used, budget, check);
        perm.pop();
        used[j] = false;
        if ok {
            return true;
        }
        if *budget == 0 {
            return false;
        }
    }
    false
}

/// Rows of integer cells, for the tests of the comparison rules here and in `bird.rs`.
#[cfg(test)]
pub(crate) fn int_rows(v: &[&[i64]]) -> Vec<Row> {
    v.iter()
        .map(|r| Row {
            cells: r.iter().map(|&x| Cell::Int(x)).collect(),
            real: vec![false; r.len()],
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(v: &[&[i64]]) -> Vec<Row> {
        int_rows(v)
    }

    #[test]
    fn bag_and_order_and_permutation() {
        assert!(result_eq(
            &rows(&[&[1, 2], &[3, 4]]),
            &rows(&[&[4, 3], &[2, 1]]),
            false
        ));
        assert!(!result_eq(
            &rows(&[&[1, 2], &[3, 4]]),
            &rows(&[&[4, 3], &[2, 1]]),
            true
        ));
        assert!(result_eq(
            &rows(&[&[1, 2], &[3, 4]]),
            &rows(&[&[2, 1], &[4, 3]]),
            true
        ));
        assert!(!result_eq(
            &rows(&[&[1], &[1], &[2]]),
            &rows(&[&[1], &[2], &[2]]),
            false
        ));
        assert!(result_eq(&[], &[], true));
        assert_eq!(Cell::real(2.0), Cell::Int(2));
    }
}
