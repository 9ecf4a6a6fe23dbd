//! BIRD's other metrics on one database file: mini-dev Soft-F1 and R-VES (the reward from the time
//! ratio of gold and prediction). Executions as BIRD EX (text unmodified, invalid UTF-8 an error);
//! a gold query that fails gives no score (NULL), where the official code gives 0.
//!
//! R-VES is the one metric of sqlsim that depends on wall-clock time: the same pair can score
//! differently on a loaded machine. Everything else is a function of its arguments.

use std::time::Instant;

use super::compare::{Cell, Row};
use super::open::{cached_database, databases, open_database};
use super::options::{EvalOptions, Semantics};
use super::translated::{sqlite_pair, Untranslatable};
use super::verdict::{prepare, run_pair, set_eq, Ran};
use super::{run_with, TextMode};

/// Why a pair gets no score (NULL): the gold fails, or the database cannot be used.
#[derive(Debug, Clone, PartialEq)]
pub struct NoScore(pub String);

/// A score, or why there is none.
pub type Scored = std::result::Result<f64, NoScore>;

/// Gold rows and prediction rows.
type Results = (Vec<Row>, Vec<Row>);

/// Both results on the single database of `db_path` (BIRD execution); None when the prediction fails.
fn results(
    db_path: &str,
    gold: &str,
    pred: &str,
    opts: &EvalOptions,
) -> std::result::Result<Option<Results>, NoScore> {
    let files = databases(db_path).map_err(|e| NoScore(format!("database: {e}")))?;
    let [file] = files.as_slice() else {
        return Err(NoScore(format!(
            "database: '{db_path}' is a folder of {} databases; BIRD metrics take one file",
            files.len()
        )));
    };
    let conn = cached_database(file).map_err(|e| NoScore(format!("database {e}")))?;
    let (gold, pred) = match sqlite_pair(gold, pred) {
        Ok(texts) => texts,
        Err(Untranslatable::PredParse(_)) => return Ok(None),
        Err(u) => return Err(NoScore(u.describe())),
    };
    let prepared = prepare(&gold, &pred, opts);
    match run_pair(&conn, &prepared, opts) {
        Ran::GoldFailed(e) => Err(NoScore(format!("gold {}", e.describe()))),
        Ran::PredFailed(_) => Ok(None),
        Ran::Both(g, p) => Ok(Some((g, p))),
    }
}

fn bird_options(opts: &EvalOptions) -> EvalOptions {
    EvalOptions {
        semantics: Semantics::Bird,
        ..*opts
    }
}

/// BIRD mini-dev Soft-F1 (`evaluation_f1.py`); 0.0 when the prediction fails.
pub fn soft_f1(db_path: &str, gold: &str, pred: &str, opts: &EvalOptions) -> Scored {
    Ok(match results(db_path, gold, pred, &bird_options(opts))? {
        None => 0.0,
        Some((g, p)) => soft_f1_rows(&g, &p),
    })
}

/// Rows in first-occurrence order without repeats (`list(dict.fromkeys(rows))`).
fn distinct(rows: &[Row]) -> Vec<&Vec<Cell>> {
    let mut seen = std::collections::HashSet::new();
    rows.iter()
        .map(|r| &r.cells)
        .filter(|c| seen.insert(*c))
        .collect()
}

/// `calculate_f1_score(predicted, ground_truth)`: distinct rows paired by position; per pair the
/// share of prediction values found in the gold row (match), of the rest (pred only) and of gold
/// values missing from the prediction row (truth only), each over the gold row's width.
pub fn soft_f1_rows(gold: &[Row], pred: &[Row]) -> f64 {
    if gold.is_empty() && pred.is_empty() {
        return 1.0;
    }
    let (g, p) = (distinct(gold), distinct(pred));
    let (mut tp, mut fp, mut fn_) = (0.0, 0.0, 0.0);
    for (i, grow) in g.iter().enumerate() {
        let Some(prow) = p.get(i) else {
            fn_ += 1.0;
            continue;
        };
        let n = grow.len() as f64;
        let matches = prow.iter().filter(|v| grow.contains(v)).count() as f64;
        let pred_only = prow.len() as f64 - matches;
        let truth_only = grow.iter().filter(|v| !prow.contains(v)).count() as f64;
        tp += matches / n;
        fp += pred_only / n;
        fn_ += truth_only / n;
    }
    fp += p.len().saturating_sub(g.len()) as f64;
    let precision = if tp + fp > 0.0 { tp / (tp + fp) } else { 0.0 };
    let recall = if tp + fn_ > 0.0 { tp / (tp + fn_) } else { 0.0 };
    if precision + recall > 0.0 {
        2.0 * precision * recall / (precision + recall)
    } else {
        0.0
    }
}

/// The R-VES reward of mini-dev `evaluation_ves.py`: 0 unless BIRD EX holds; else `repeats` timed
/// runs of each query (fresh connection, run, fetch all, close), the ratios gold time / pred time
/// outside 3 standard deviations dropped, and the mean ratio r mapped to 1.25 (r ≥ 2), 1 (r ≥ 1),
/// 0.75 (r ≥ 0.5), 0.5 (r ≥ 0.25) or 0.25. The whole timing loop has `timeout × repeats` (official
/// `meta_time_out * iterate_num`); past it, 0.
pub fn ves_reward(db_path: &str, gold: &str, pred: &str, opts: &EvalOptions) -> Scored {
    let opts = bird_options(opts);
    let Some((g, p)) = results(db_path, gold, pred, &opts)? else {
        return Ok(0.0);
    };
    // both translate: `results` ran them
    let (gold, pred) = sqlite_pair(gold, pred).map_err(|u| NoScore(u.describe()))?;
    let (gold, pred) = (gold.as_ref(), pred.as_ref());
    if !set_eq(&g, &p) {
        return Ok(0.0);
    }
    let budget = opts.exec.timeout * opts.repeats;
    let start = Instant::now();
    let mut ratios = Vec::with_capacity(opts.repeats as usize);
    for _ in 0..opts.repeats {
        let (Some(tp), Some(tg)) = (timed(db_path, pred, &opts), timed(db_path, gold, &opts))
        else {
            return Ok(0.0);
        };
        if start.elapsed() > budget {
            return Ok(0.0);
        }
        ratios.push(tg / tp.max(1e-9));
    }
    Ok(reward(mean_without_outliers(&ratios)))
}

/// Seconds to open the file, run `sql`, fetch every row and close; None when it fails.
fn timed(db_path: &str, sql: &str, opts: &EvalOptions) -> Option<f64> {
    let t = Instant::now();
    let conn = open_database(std::path::Path::new(db_path)).ok()?;
    run_with(&conn, sql, &opts.exec, TextMode::Strict).ok()?;
    drop(conn);
    Some(t.elapsed().as_secs_f64())
}

/// `clean_abnormal` then the mean: values strictly within mean ± 3σ (population σ). When none is
/// (all ratios equal, σ = 0), the official code divides by zero and scores 0; this keeps the mean.
pub fn mean_without_outliers(x: &[f64]) -> f64 {
    if x.is_empty() {
        return 0.0;
    }
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    let sd = (x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n).sqrt();
    let kept: Vec<f64> = x
        .iter()
        .copied()
        .filter(|v| *v < mean + 3.0 * sd && *v > mean - 3.0 * sd)
        .collect();
    if kept.is_empty() {
        mean
    } else {
        kept.iter().sum::<f64>() / kept.len() as f64
    }
}

/// The reward of a mean time ratio.
pub fn reward(ratio: f64) -> f64 {
    match ratio {
        0.0 => 0.0,
        r if r >= 2.0 => 1.25,
        r if r >= 1.0 => 1.0,
        r if r >= 0.5 => 0.75,
        r if r >= 0.25 => 0.5,
        _ => 0.25,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(v: &[&[i64]]) -> Vec<Row> {
        super::super::compare::int_rows(v)
    }

    #[test]
    fn soft_f1_as_mini_dev() {
        assert_eq!(soft_f1_rows(&[], &[]), 1.0);
        assert_eq!(soft_f1_rows(&rows(&[&[1, 2]]), &rows(&[&[2, 1]])), 1.0);
        assert_eq!(soft_f1_rows(&rows(&[&[1]]), &[]), 0.0);
        // row order matters: distinct rows are paired by position
        assert_eq!(
            soft_f1_rows(&rows(&[&[1], &[2]]), &rows(&[&[2], &[1]])),
            0.0
        );
        // duplicates dropped first
        assert_eq!(soft_f1_rows(&rows(&[&[1], &[1]]), &rows(&[&[1]])), 1.0);
        // (a, a) against (a, b): match 2/2, truth only 1/2 -> P 1, R 2/3
        let f = soft_f1_rows(&rows(&[&[1, 2]]), &rows(&[&[1, 1]]));
        assert!((f - 0.8).abs() < 1e-12, "{f}");
        // an extra prediction row: tp 1, fp 1 -> P 0.5, R 1
        let f = soft_f1_rows(&rows(&[&[1]]), &rows(&[&[1], &[2]]));
        assert!((f - 2.0 / 3.0).abs() < 1e-12, "{f}");
    }

    #[test]
    fn rewards_and_outliers() {
        assert_eq!(
            [0.0, 0.1, 0.25, 0.5, 0.99, 1.0, 1.99, 2.0].map(reward),
            [0.0, 0.25, 0.5, 0.75, 0.75, 1.0, 1.0, 1.25]
        );
        let mut x = vec![1.0; 20];
        x.push(100.0);
        assert_eq!(mean_without_outliers(&x), 1.0);
        assert_eq!(mean_without_outliers(&[2.0, 2.0]), 2.0);
    }
}
