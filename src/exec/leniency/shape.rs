//! The shape leniencies: two results match with the prediction's columns in another order
//! (`any_column_order`), with columns the gold lacks (`extra_columns`, each gold column one of the
//! prediction's) or with numbers within `tolerance`; [`Leniencies::matches`] says which it needed.

use std::cmp::Ordering;

use super::{Leniencies, Leniency};
use crate::exec::compare::{Cell, Row};

/// Most column mappings tried per comparison before giving up (counted as not matching).
const MAX_MAPPINGS: usize = 200_000;

impl Leniencies {
    /// Whether `pred` matches `gold` under these leniencies, where `same` is the semantics' own
    /// rule for two results of equal width and `rows` how its rows compare (for the tolerance).
    /// None: no match. Some(used): a match, `used` the shape leniencies it needed (empty when
    /// `same` accepts the results as they are). `order_free`: the semantics itself lets columns
    /// come in any order (test-suite), so a permutation alone needs no leniency.
    pub fn matches(
        &self,
        gold: &[Row],
        pred: &[Row],
        rows: RowRule,
        order_free: bool,
        same: &mut dyn FnMut(&[Row], &[Row]) -> bool,
    ) -> Option<Vec<Leniency>> {
        if same(gold, pred) {
            return Some(vec![]);
        }
        if self.strict_shape() {
            return None;
        }
        let (Some(g), Some(p)) = (gold.first(), pred.first()) else {
            return None;
        };
        let (n, m) = (g.cells.len(), p.cells.len());
        if m < n || (m > n && !self.extra_columns) {
            return None;
        }
        let any_order = self.any_column_order || order_free;
        let tolerance = self.tolerance();
        // the semantics' own equality takes numbers within 1e-9 relative: never prune those
        let close = |a: &Cell, b: &Cell| match (tolerance, number(a), number(b)) {
            (Some(t), _, _) => cells_close(a, b, t),
            (None, Some(x), Some(y)) => (x - y).abs() <= 1e-9 * x.abs().max(y.abs()),
            _ => a == b,
        };
        let gold_values: Vec<Vec<&Cell>> = (0..n).map(|i| column(gold, i)).collect();
        let pred_values: Vec<Vec<&Cell>> = (0..m).map(|j| column(pred, j)).collect();
        let candidates: Vec<Vec<usize>> = (0..n)
            .map(|i| {
                (0..m)
                    .filter(|&j| same_values(&gold_values[i], &pred_values[j], &close))
                    .collect()
            })
            .collect();
        let mut found = None;
        let mut budget = MAX_MAPPINGS;
        let mut check = |mapping: &[usize]| {
            let projected: Vec<Row> = pred.iter().map(|r| project(r, mapping)).collect();
            let increasing = mapping.windows(2).all(|w| w[0] < w[1]);
            let mut used = Vec::new();
            if !increasing && !order_free {
                used.push(Leniency::AnyColumnOrder);
            }
            if m > n {
                used.push(Leniency::ExtraColumns);
            }
            // the results as they are were compared first
            let tried = m == n && mapping.iter().enumerate().all(|(i, &j)| i == j);
            if !tried && same(gold, &projected) {
                found = Some(used);
                return true;
            }
            if let Some(t) = tolerance {
                if rows_close(gold, &projected, &rows, t) {
                    used.push(Leniency::Tolerance);
                    found = Some(used);
                    return true;
                }
            }
            false
        };
        mappings(&candidates, m, any_order, &mut budget, &mut check);
        found
    }
}

/// How the rows of two results compare, for the numeric tolerance (which the semantics' own
/// rule does not know): as sets, bags, lists, or as runs of equal sort keys at these positions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RowRule {
    Set,
    Bag,
    List,
    Sorted(Vec<usize>),
}

/// Numbers within `tolerance` of each other, the rest equal as cells are.
fn cells_close(a: &Cell, b: &Cell, tolerance: f64) -> bool {
    match (number(a), number(b)) {
        (Some(x), Some(y)) => (x - y).abs() <= tolerance,
        _ => a == b,
    }
}

fn number(c: &Cell) -> Option<f64> {
    match c {
        Cell::Int(i) => Some(*i as f64),
        Cell::Real(bits) => Some(f64::from_bits(*bits)),
        _ => None,
    }
}

/// NULL, then numbers by value, then text, then blobs.
fn cell_order(a: &Cell, b: &Cell) -> Ordering {
    let rank = |c: &Cell| match c {
        Cell::Null => 0,
        Cell::Int(_) | Cell::Real(_) => 1,
        Cell::Text(_) => 2,
        Cell::Blob(_) => 3,
    };
    match (number(a), number(b)) {
        (Some(x), Some(y)) => x.total_cmp(&y),
        _ => rank(a).cmp(&rank(b)).then_with(|| a.cmp(b)),
    }
}

fn row_order(a: &Row, b: &Row) -> Ordering {
    a.cells
        .iter()
        .zip(&b.cells)
        .map(|(x, y)| cell_order(x, y))
        .find(|o| o.is_ne())
        .unwrap_or_else(|| a.cells.len().cmp(&b.cells.len()))
}

/// The values of column `i`, sorted.
fn column(rows: &[Row], i: usize) -> Vec<&Cell> {
    let mut v: Vec<&Cell> = rows.iter().filter_map(|r| r.cells.get(i)).collect();
    v.sort_by(|a, b| cell_order(a, b));
    v
}

/// Every value of each sorted column is close to a value of the other: what any mapping of one
/// column onto the other needs, under every row rule.
fn same_values(a: &[&Cell], b: &[&Cell], close: &dyn Fn(&Cell, &Cell) -> bool) -> bool {
    let covered = |xs: &[&Cell], ys: &[&Cell]| {
        xs.iter().all(|x| {
            // the nearest values are the last one below and the first one from it on
            let at = ys.partition_point(|y| cell_order(y, x).is_lt());
            [at.checked_sub(1), Some(at)]
                .into_iter()
                .flatten()
                .filter_map(|k| ys.get(k))
                .any(|y| close(x, y))
        })
    };
    covered(a, b) && covered(b, a)
}

fn project(row: &Row, mapping: &[usize]) -> Row {
    Row {
        cells: mapping.iter().map(|&j| row.cells[j].clone()).collect(),
        real: mapping
            .iter()
            .map(|&j| row.real.get(j).copied().unwrap_or(false))
            .collect(),
    }
}

/// Rows equal under `rule` with numbers within `tolerance`: sorted and compared pair by pair
/// (sets first without their repeats), as Spider 2.0 compares sorted columns.
fn rows_close(gold: &[Row], pred: &[Row], rule: &RowRule, tolerance: f64) -> bool {
    let row_close = |a: &Row, b: &Row| {
        a.cells.len() == b.cells.len()
            && a.cells
                .iter()
                .zip(&b.cells)
                .all(|(x, y)| cells_close(x, y, tolerance))
    };
    fn sorted(rows: &[Row], dedup: bool) -> Vec<&Row> {
        let mut v: Vec<&Row> = rows.iter().collect();
        v.sort_by(|a, b| row_order(a, b));
        if dedup {
            v.dedup_by(|a, b| row_order(a, b).is_eq());
        }
        v
    }
    let pairwise = |a: &[&Row], b: &[&Row]| {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| row_close(x, y))
    };
    match rule {
        RowRule::Set => pairwise(&sorted(gold, true), &sorted(pred, true)),
        RowRule::Bag => pairwise(&sorted(gold, false), &sorted(pred, false)),
        RowRule::List => {
            let (a, b): (Vec<&Row>, Vec<&Row>) = (gold.iter().collect(), pred.iter().collect());
            pairwise(&a, &b)
        }
        RowRule::Sorted(keys) => {
            if gold.len() != pred.len() {
                return false;
            }
            // runs of equal keys in the gold hold the same rows, in any order, at the same places
            let key_eq = |x: &Row, y: &Row| {
                keys.iter()
                    .all(|&k| match (x.cells.get(k), y.cells.get(k)) {
                        (Some(p), Some(q)) => cells_close(p, q, tolerance),
                        _ => true,
                    })
            };
            let mut start = 0;
            while start < gold.len() {
                let mut end = start + 1;
                while end < gold.len() && key_eq(&gold[start], &gold[end]) {
                    end += 1;
                }
                let (a, b) = (&gold[start..end], &pred[start..end]);
                if !pairwise(&sorted(a, false), &sorted(b, false)) {
                    return false;
                }
                start = end;
            }
            true
        }
    }
}

/// Calls `check` on each injective mapping of the gold's columns (`candidates[i]`: the
/// prediction's columns gold column `i` may take) onto the prediction's `width` columns, in
/// increasing order unless `any_order`, until it returns true or `budget` runs out.
fn mappings(
    candidates: &[Vec<usize>],
    width: usize,
    any_order: bool,
    budget: &mut usize,
    check: &mut dyn FnMut(&[usize]) -> bool,
) -> bool {
    fn go(
        cand: &[Vec<usize>],
        any_order: bool,
        used: &mut [bool],
        chosen: &mut Vec<usize>,
        budget: &mut usize,
        check: &mut dyn FnMut(&[usize]) -> bool,
    ) -> bool {
        if chosen.len() == cand.len() {
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            return check(chosen);
        }
        for &j in &cand[chosen.len()] {
            let after = chosen.last().is_none_or(|&last| j > last);
            if used[j] || !(any_order || after) {
                continue;
            }
            used[j] = true;
            chosen.push(j);
            let ok = go(cand, any_order, used, chosen, budget, check);
            chosen.pop();
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
    let mut used = vec![false; width];
    go(
        candidates,
        any_order,
        &mut used,
        &mut Vec::new(),
        budget,
        check,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(v: &[&[Cell]]) -> Vec<Row> {
        v.iter()
            .map(|r| Row {
                cells: r.to_vec(),
                real: vec![false; r.len()],
            })
            .collect()
    }

    fn int(i: i64) -> Cell {
        Cell::Int(i)
    }

    fn text(s: &str) -> Cell {
        Cell::Text(s.into())
    }

    fn real(f: f64) -> Cell {
        Cell::real(f)
    }

    /// Rows as sets, columns by position: BIRD's own rule.
    fn set_eq(a: &[Row], b: &[Row]) -> bool {
        crate::exec::verdict::set_eq(a, b)
    }

    fn matches(l: &Leniencies, g: &[Row], p: &[Row], rule: RowRule) -> Option<Vec<Leniency>> {
        l.matches(g, p, rule, false, &mut |a, b| set_eq(a, b))
    }

    #[test]
    fn extra_columns_need_every_gold_column_among_the_prediction_s() {
        let gold = rows(&[&[text("a")], &[text("b")]]);
        let wider = rows(&[&[int(1), text("a")], &[int(2), text("b")]]);
        let strict = Leniencies::default();
        assert_eq!(matches(&strict, &gold, &wider, RowRule::Set), None);
        let extra = Leniencies {
            extra_columns: true,
            ..Leniencies::default()
        };
        assert_eq!(
            matches(&extra, &gold, &wider, RowRule::Set),
            Some(vec![Leniency::ExtraColumns])
        );
        // the gold's column is missing: no match
        let other = rows(&[&[int(1), text("a")], &[int(2), text("c")]]);
        assert_eq!(matches(&extra, &gold, &other, RowRule::Set), None);
        // the prediction may not drop a gold column
        assert_eq!(matches(&extra, &wider, &gold, RowRule::Set), None);
        // equal results need no leniency
        assert_eq!(matches(&extra, &gold, &gold, RowRule::Set), Some(vec![]));
    }

    #[test]
    fn column_order_is_free_only_when_asked() {
        let gold = rows(&[&[int(1), text("a")], &[int(2), text("b")]]);
        let swapped = rows(&[&[text("b"), int(2)], &[text("a"), int(1)]]);
        let strict = Leniencies::default();
        assert_eq!(matches(&strict, &gold, &swapped, RowRule::Set), None);
        let any = Leniencies {
            any_column_order: true,
            ..Leniencies::default()
        };
        assert_eq!(
            matches(&any, &gold, &swapped, RowRule::Set),
            Some(vec![Leniency::AnyColumnOrder])
        );
        // extra columns alone keep the gold's order among the prediction's columns
        let extra = Leniencies {
            extra_columns: true,
            ..Leniencies::default()
        };
        let wider = rows(&[&[text("b"), int(0), int(2)], &[text("a"), int(0), int(1)]]);
        assert_eq!(matches(&extra, &gold, &wider, RowRule::Set), None);
        let both = Leniencies {
            extra_columns: true,
            any_column_order: true,
            ..Leniencies::default()
        };
        assert_eq!(
            matches(&both, &gold, &wider, RowRule::Set),
            Some(vec![Leniency::AnyColumnOrder, Leniency::ExtraColumns])
        );
        // a semantics whose columns are free (test-suite) needs no leniency for a permutation
        let free = any.matches(&gold, &swapped, RowRule::Bag, true, &mut |a, b| {
            set_eq(a, b)
        });
        assert_eq!(free, Some(vec![]));
    }

    #[test]
    fn tolerance_is_absolute_and_follows_the_row_rule() {
        let gold = rows(&[&[real(0.3333333)], &[int(2)]]);
        let rounded = rows(&[&[int(2)], &[real(0.33)]]);
        let tol = |t: f64| Leniencies {
            tolerance_bits: Some(t.to_bits()),
            ..Leniencies::default()
        };
        assert_eq!(
            matches(&tol(0.01), &gold, &rounded, RowRule::Set),
            Some(vec![Leniency::Tolerance])
        );
        assert_eq!(matches(&tol(0.001), &gold, &rounded, RowRule::Set), None);
        assert_eq!(matches(&tol(0.01), &gold, &rounded, RowRule::List), None);
        // bags count repeats, sets do not
        let twice = rows(&[&[int(2)], &[real(0.33)], &[real(0.33)]]);
        assert!(matches(&tol(0.01), &gold, &twice, RowRule::Set).is_some());
        assert_eq!(matches(&tol(0.01), &gold, &twice, RowRule::Bag), None);
        // text never matches a number, whatever the tolerance
        let texts = rows(&[&[text("0.33")], &[int(2)]]);
        assert_eq!(matches(&tol(1.0), &gold, &texts, RowRule::Bag), None);
        // within runs of equal sort keys rows may come in any order
        let keyed = rows(&[
            &[int(1), real(0.5)],
            &[int(1), real(0.25)],
            &[int(2), int(0)],
        ]);
        let other = rows(&[
            &[int(1), real(0.251)],
            &[int(1), real(0.499)],
            &[int(2), int(0)],
        ]);
        let sorted = RowRule::Sorted(vec![0]);
        assert!(matches(&tol(0.01), &keyed, &other, sorted.clone()).is_some());
        let moved = rows(&[
            &[int(2), int(0)],
            &[int(1), real(0.25)],
            &[int(1), real(0.5)],
        ]);
        // the semantics' own rule keeps the order here (a list), so only the tolerance can match
        let list = |a: &[Row], b: &[Row]| a == b;
        let ordered = tol(0.01).matches(&keyed, &moved, sorted, false, &mut |a, b| list(a, b));
        assert_eq!(ordered, None);
    }
}
