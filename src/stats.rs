//! Rank statistics for evaluating metrics against labels: ROC AUC, Spearman's rho, Kendall's tau-b.
//!
//! Pure functions over slices; ties are handled by average ranks (AUC is the Mann–Whitney U
//! statistic, so a tied positive/negative pair counts one half). Every function returns `None`
//! when the statistic is undefined (empty input, a single class, a constant variable, NaN).

/// Average ranks (1-based) of `values`: tied values all get the mean of the ranks they span.
///
/// ```
/// assert_eq!(sqlsim::stats::average_ranks(&[10.0, 20.0, 10.0]), vec![1.5, 3.0, 1.5]);
/// ```
pub fn average_ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; values.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && values[order[end]] == values[order[start]] {
            end += 1;
        }
        // Positions start..end hold ranks start+1 ..= end; their mean is (start + 1 + end) / 2.
        let rank = (start + 1 + end) as f64 / 2.0;
        for &i in &order[start..end] {
            ranks[i] = rank;
        }
        start = end;
    }
    ranks
}

fn has_nan(values: &[f64]) -> bool {
    values.iter().any(|v| v.is_nan())
}

/// ROC AUC of `scores` for the binary `labels` (true = positive): the probability that a random
/// positive scores above a random negative, ties counting one half. In [0, 1]; `None` when the
/// lengths differ, a class is missing or a score is NaN.
///
/// ```
/// let auc = sqlsim::stats::roc_auc(&[0.1, 0.4, 0.35, 0.8], &[false, false, true, true]);
/// assert_eq!(auc, Some(0.75));
/// ```
pub fn roc_auc(scores: &[f64], labels: &[bool]) -> Option<f64> {
    if scores.len() != labels.len() || has_nan(scores) {
        return None;
    }
    let positives = labels.iter().filter(|&&l| l).count();
    let negatives = labels.len() - positives;
    if positives == 0 || negatives == 0 {
        return None;
    }
    let ranks = average_ranks(scores);
    let rank_sum: f64 = ranks
        .iter()
        .zip(labels)
        .filter(|(_, &l)| l)
        .map(|(r, _)| r)
        .sum();
    let (p, n) = (positives as f64, negatives as f64);
    let u = rank_sum - p * (p + 1.0) / 2.0;
    Some(u / (p * n))
}

/// Pearson correlation of two equally long samples; `None` when undefined.
pub fn pearson(x: &[f64], y: &[f64]) -> Option<f64> {
    if x.len() != y.len() || x.len() < 2 || has_nan(x) || has_nan(y) {
        return None;
    }
    let n = x.len() as f64;
    let mx = x.iter().sum::<f64>() / n;
    let my = y.iter().sum::<f64>() / n;
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        let (dx, dy) = (a - mx, b - my);
        sxy += dx * dy;
        sxx += dx * dx;
        syy += dy * dy;
    }
    if sxx == 0.0 || syy == 0.0 {
        return None;
    }
    Some((sxy / (sxx * syy).sqrt()).clamp(-1.0, 1.0))
}

/// Spearman's rank correlation (Pearson correlation of average ranks), in [-1, 1]; `None` when
/// the lengths differ, fewer than two values are given, a sample is constant or holds NaN.
///
/// ```
/// let rho = sqlsim::stats::spearman(&[1.0, 2.0, 3.0, 4.0], &[10.0, 30.0, 20.0, 40.0]).unwrap();
/// assert!((rho - 0.8).abs() < 1e-12);
/// ```
pub fn spearman(x: &[f64], y: &[f64]) -> Option<f64> {
    if x.len() != y.len() || has_nan(x) || has_nan(y) {
        return None;
    }
    pearson(&average_ranks(x), &average_ranks(y))
}

/// Kendall's tau-b, in [-1, 1]: (concordant − discordant) / sqrt((n0 − ties_x)(n0 − ties_y)),
/// where pairs tied in both variables count in both tie terms. `None` when undefined.
/// Quadratic in the length (fine up to tens of thousands of values).
///
/// ```
/// let tau = sqlsim::stats::kendall_tau_b(&[1.0, 2.0, 3.0], &[1.0, 3.0, 2.0]).unwrap();
/// assert!((tau - 1.0 / 3.0).abs() < 1e-12);
/// ```
pub fn kendall_tau_b(x: &[f64], y: &[f64]) -> Option<f64> {
    if x.len() != y.len() || x.len() < 2 || has_nan(x) || has_nan(y) {
        return None;
    }
    let (mut concordant, mut discordant) = (0i64, 0i64);
    let (mut tied_x, mut tied_y) = (0i64, 0i64);
    let mut pairs = 0i64;
    for i in 0..x.len() {
        for j in (i + 1)..x.len() {
            pairs += 1;
            let dx = x[i].total_cmp(&x[j]) as i64;
            let dy = y[i].total_cmp(&y[j]) as i64;
            if dx == 0 {
                tied_x += 1;
            }
            if dy == 0 {
                tied_y += 1;
            }
            match dx * dy {
                1 => concordant += 1,
                -1 => discordant += 1,
                _ => {}
            }
        }
    }
    let denominator = (((pairs - tied_x) as f64) * ((pairs - tied_y) as f64)).sqrt();
    if denominator == 0.0 {
        return None;
    }
    Some(((concordant - discordant) as f64 / denominator).clamp(-1.0, 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Option<f64>, b: f64) -> bool {
        a.is_some_and(|a| (a - b).abs() < 1e-12)
    }

    #[test]
    fn ranks_average_ties() {
        assert_eq!(
            average_ranks(&[3.0, 1.0, 3.0, 2.0, 3.0]),
            vec![4.0, 1.0, 4.0, 2.0, 4.0]
        );
        assert!(average_ranks(&[]).is_empty());
    }

    #[test]
    fn auc_perfect_inverse_and_ties() {
        assert!(close(
            roc_auc(&[0.1, 0.2, 0.8, 0.9], &[false, false, true, true]),
            1.0
        ));
        assert!(close(
            roc_auc(&[0.9, 0.8, 0.2, 0.1], &[false, false, true, true]),
            0.0
        ));
        // All scores equal: every positive/negative pair is a tie, AUC one half.
        assert!(close(roc_auc(&[0.5; 4], &[false, true, false, true]), 0.5));
        // Hand count: positives {0.5, 0.9}, negatives {0.5, 0.1, 0.7}.
        // 0.5 vs (0.5 tie .5, 0.1 win, 0.7 loss) = 1.5; 0.9 beats all three = 3; U = 4.5 of 6.
        let scores = [0.5, 0.5, 0.1, 0.9, 0.7];
        let labels = [true, false, false, true, false];
        assert!(close(roc_auc(&scores, &labels), 0.75));
    }

    #[test]
    fn auc_undefined() {
        assert_eq!(roc_auc(&[0.1, 0.2], &[true, true]), None);
        assert_eq!(roc_auc(&[], &[]), None);
        assert_eq!(roc_auc(&[0.1], &[true, false]), None);
        assert_eq!(roc_auc(&[f64::NAN, 0.2], &[true, false]), None);
    }

    #[test]
    fn spearman_hand_computed() {
        assert!(close(spearman(&[1.0, 2.0, 3.0], &[5.0, 6.0, 7.0]), 1.0));
        assert!(close(spearman(&[1.0, 2.0, 3.0], &[7.0, 6.0, 5.0]), -1.0));
        // x ranks 1 2 3 4, y ranks 1 2.5 2.5 4: cross 4.5, sums of squares 5 and 4.5.
        let rho = spearman(&[1.0, 2.0, 3.0, 4.0], &[1.0, 2.0, 2.0, 3.0]);
        assert!(close(rho, 4.5 / (5.0f64 * 4.5).sqrt()));
        assert_eq!(spearman(&[1.0, 1.0, 1.0], &[1.0, 2.0, 3.0]), None);
        assert_eq!(spearman(&[1.0], &[1.0]), None);
    }

    #[test]
    fn spearman_with_binary_labels() {
        // Scores 0.1 0.4 0.35 0.8 → ranks 1 3 2 4; labels 0 0 1 1 → ranks 1.5 1.5 3.5 3.5.
        // Centered: (-1.5, .5, -.5, 1.5) · (-1, -1, 1, 1) = 1.5 - .5 - .5 + 1.5 = 2;
        // sums of squares 5 and 4: rho = 2 / sqrt(20).
        let rho = spearman(&[0.1, 0.4, 0.35, 0.8], &[0.0, 0.0, 1.0, 1.0]);
        assert!(close(rho, 2.0 / 20f64.sqrt()));
    }

    #[test]
    fn kendall_hand_computed() {
        assert!(close(
            kendall_tau_b(&[1.0, 2.0, 3.0, 4.0], &[1.0, 2.0, 3.0, 4.0]),
            1.0
        ));
        assert!(close(
            kendall_tau_b(&[1.0, 2.0, 3.0, 4.0], &[4.0, 3.0, 2.0, 1.0]),
            -1.0
        ));
        // x = 1 2 2 3, y = 1 3 2 3. Pairs: (0,1) C, (0,2) C, (0,3) C, (1,2) tie x, (1,3) tie y,
        // (2,3) C. C = 4, D = 0, n0 = 6, ties_x = 1, ties_y = 1: tau_b = 4 / sqrt(5 * 5) = 0.8.
        let tau = kendall_tau_b(&[1.0, 2.0, 2.0, 3.0], &[1.0, 3.0, 2.0, 3.0]);
        assert!(close(tau, 0.8));
        // A pair tied in both counts in both tie terms: x = 1 1 2, y = 5 5 6.
        // Pairs: (0,1) tie both, (0,2) C, (1,2) C: tau_b = 2 / sqrt(2 * 2) = 1.
        assert!(close(
            kendall_tau_b(&[1.0, 1.0, 2.0], &[5.0, 5.0, 6.0]),
            1.0
        ));
        assert_eq!(kendall_tau_b(&[1.0, 1.0], &[1.0, 2.0]), None);
    }

    #[test]
    fn pearson_basic() {
        assert!(close(pearson(&[1.0, 2.0, 3.0], &[2.0, 4.0, 6.0]), 1.0));
        assert_eq!(pearson(&[1.0, 2.0], &[3.0]), None);
    }
}
