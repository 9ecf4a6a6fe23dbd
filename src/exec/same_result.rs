//! When two results on a generated database are the same: cells equal with numbers within 1e-9
//! relative, rows compared as bags or as runs of equal ORDER BY keys, under each semantics
//! (bag, BIRD's sets, test-suite-sql-eval's column permutations).

use std::cmp::Ordering;

use super::compare::{any_permutation, Cell, Row};
use super::options::Semantics;

/// Relative tolerance of number comparisons.
pub const REL_TOLERANCE: f64 = 1e-9;

fn num(c: &Cell) -> Option<f64> {
    match c {
        Cell::Int(i) => Some(*i as f64),
        Cell::Real(b) => Some(f64::from_bits(*b)),
        _ => None,
    }
}

fn rank(c: &Cell) -> u8 {
    match c {
        Cell::Null => 0,
        Cell::Int(_) | Cell::Real(_) => 1,
        Cell::Text(_) => 2,
        Cell::Blob(_) => 3,
    }
}

fn cell_cmp(a: &Cell, b: &Cell) -> Ordering {
    match (num(a), num(b)) {
        (Some(x), Some(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
        _ => rank(a).cmp(&rank(b)).then_with(|| a.cmp(b)),
    }
}

/// Equal cells: numbers within [`REL_TOLERANCE`] relative (exactly for integers that fit), the
/// rest exactly.
pub fn cell_eq(a: &Cell, b: &Cell) -> bool {
    match (a, b) {
        (Cell::Int(x), Cell::Int(y)) => x == y,
        _ => match (num(a), num(b)) {
            (Some(x), Some(y)) => x == y || (x - y).abs() <= REL_TOLERANCE * x.abs().max(y.abs()),
            _ => a == b,
        },
    }
}

pub(crate) fn row_eq(a: &Row, b: &Row) -> bool {
    a.cells.len() == b.cells.len() && a.cells.iter().zip(&b.cells).all(|(x, y)| cell_eq(x, y))
}

fn row_cmp(a: &Row, b: &Row) -> Ordering {
    for (x, y) in a.cells.iter().zip(&b.cells) {
        let o = cell_cmp(x, y);
        if o != Ordering::Equal {
            return o;
        }
    }
    a.cells.len().cmp(&b.cells.len())
}

/// How the rows of a result are compared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RowOrder {
    /// As bags (the outer query does not order its rows).
    Bag,
    /// As lists up to ties: the rows come in order of the output columns at these positions
    /// (the outer ORDER BY keys); rows with equal keys may come in any order.
    Sorted(Vec<usize>),
}

/// Same rows as bags; columns by position; two empty results are equal whatever their columns.
pub fn same_bag(a: &[Row], b: &[Row]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut x: Vec<&Row> = a.iter().collect();
    let mut y: Vec<&Row> = b.iter().collect();
    x.sort_by(|p, q| row_cmp(p, q));
    y.sort_by(|p, q| row_cmp(p, q));
    x.iter().zip(&y).all(|(p, q)| row_eq(p, q))
}

/// Same rows under `order`: bags, or runs of equal sort keys (taken from `a`) that hold the
/// same bags at the same places.
pub fn same_rows(a: &[Row], b: &[Row], order: &RowOrder) -> bool {
    let keys = match order {
        RowOrder::Bag => return same_bag(a, b),
        RowOrder::Sorted(keys) => keys,
    };
    if a.len() != b.len() {
        return false;
    }
    let key_eq = |x: &Row, y: &Row| {
        keys.iter()
            .all(|&k| match (x.cells.get(k), y.cells.get(k)) {
                (Some(p), Some(q)) => cell_eq(p, q),
                _ => true,
            })
    };
    let mut start = 0;
    while start < a.len() {
        let mut end = start + 1;
        while end < a.len() && key_eq(&a[start], &a[end]) {
            end += 1;
        }
        if !same_bag(&a[start..end], &b[start..end]) {
            return false;
        }
        start = end;
    }
    true
}

/// `rows` without repeated rows (equal as [`row_eq`] says): the first of each, in their order.
pub fn distinct(rows: &[Row]) -> Vec<Row> {
    let mut sorted: Vec<usize> = (0..rows.len()).collect();
    sorted.sort_by(|&p, &q| row_cmp(&rows[p], &rows[q]).then(p.cmp(&q)));
    sorted.dedup_by(|later, first| row_eq(&rows[*later], &rows[*first]));
    sorted.sort_unstable();
    sorted.into_iter().map(|i| rows[i].clone()).collect()
}

/// Same results under `semantics` (the gold's rows `a`, the prediction's `b`), numbers within
/// [`REL_TOLERANCE`]:
/// - `Bag` (and `List`): [`same_rows`] under `order`, columns by position;
/// - `Bird`: BIRD EX, the rows as sets of tuples (order and duplicates ignored), columns by position;
/// - `TestSuite`: test-suite-sql-eval's `result_eq`: [`same_rows`] under `order` up to a
///   permutation of `b`'s columns (the exec module's search, its candidates pruned by value).
pub fn same_result(a: &[Row], b: &[Row], order: &RowOrder, semantics: Semantics) -> bool {
    match semantics {
        Semantics::Bag | Semantics::List => same_rows(a, b, order),
        Semantics::Bird => same_bag(&distinct(a), &distinct(b)),
        Semantics::TestSuite => {
            if same_rows(a, b, order) {
                return true;
            }
            let n = a.first().map_or(0, |r| r.cells.len());
            if a.len() != b.len() || b.iter().chain(a).any(|r| r.cells.len() != n) {
                return false;
            }
            // column j of b may go to position i only if each of its values occurs in a's column i
            let candidates: Vec<Vec<usize>> = (0..n)
                .map(|i| {
                    (0..n)
                        .filter(|&j| {
                            b.iter()
                                .all(|y| a.iter().any(|x| cell_eq(&x.cells[i], &y.cells[j])))
                        })
                        .collect()
                })
                .collect();
            any_permutation(&candidates, &mut |p: &[usize]| {
                let permuted: Vec<Row> = b
                    .iter()
                    .map(|r| Row {
                        cells: p.iter().map(|&j| r.cells[j].clone()).collect(),
                        real: p.iter().map(|&j| r.real[j]).collect(),
                    })
                    .collect();
                same_rows(a, &permuted, order)
            })
        }
    }
}
