"""ROC AUC with a bootstrap confidence interval, ROC curves and their plot (numpy; matplotlib for the
PNG). Used by `sqlsim roc` and by the repository's scripts/eval/eval.py (`make eval`): one implementation.

- AUC is the Mann-Whitney statistic: the share of (positive, negative) pairs the score orders
  correctly, ties counting one half.
- The interval is a stratified percentile bootstrap (positives and negatives resampled separately,
  keeping their counts, as pROC's default does), `resamples` times with a fixed seed, so the same
  input gives the same interval. Each resample's AUC is computed in O(n) from the negatives' counts
  at each distinct score, so 2,000 resamples of a few thousand pairs take well under a second.
- The curve has one point per distinct score (threshold `score >= t`), from (0, 0) to (1, 1).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

RESAMPLES = 2000
LEVEL = 0.95
SEED = 20261126


def _split(scores, labels):
    s = np.asarray(scores, dtype=float)
    y = np.asarray(labels).astype(bool)
    if s.shape != y.shape or s.ndim != 1:
        raise ValueError("scores and labels must be 1-D and of the same length")
    if np.isnan(s).any():
        raise ValueError("scores contain NaN: map NULL scores to a number first")
    return s[y], s[~y]


def _auc_from_counts(pos_counts, neg_counts, less_idx, eq_idx, n_pos, n_neg):
    """AUC for count vectors (rows = resamples) over fixed positive values and distinct negative values.

    less_idx[i]: number of distinct negative values below positive i; eq_idx[i]: index of the distinct
    negative value equal to positive i, or -1."""
    cum = np.concatenate([np.zeros((neg_counts.shape[0], 1)), np.cumsum(neg_counts, axis=1)], axis=1)
    below = cum[:, less_idx]
    equal = np.where(eq_idx >= 0, neg_counts[:, np.maximum(eq_idx, 0)], 0.0)
    return (pos_counts * (below + 0.5 * equal)).sum(axis=1) / (n_pos * n_neg)


def _setup(pos, neg):
    values, neg_inverse = np.unique(neg, return_inverse=True)
    less_idx = np.searchsorted(values, pos, side="left")
    at = np.minimum(less_idx, len(values) - 1)
    eq_idx = np.where(values[at] == pos, at, -1)
    return values, neg_inverse, less_idx, eq_idx


def roc_auc(scores, labels) -> float | None:
    """Mann-Whitney AUC, ties one half; None when a class is empty."""
    pos, neg = _split(scores, labels)
    if len(pos) == 0 or len(neg) == 0:
        return None
    values, inverse, less_idx, eq_idx = _setup(pos, neg)
    neg_counts = np.bincount(inverse, minlength=len(values)).astype(float)[None, :]
    return float(_auc_from_counts(np.ones((1, len(pos))), neg_counts, less_idx, eq_idx, len(pos), len(neg))[0])


def bootstrap_auc(scores, labels, resamples: int = RESAMPLES, level: float = LEVEL, seed: int = SEED):
    """(low, high) percentile interval of the AUC under a stratified bootstrap; None when a class is empty."""
    pos, neg = _split(scores, labels)
    if len(pos) == 0 or len(neg) == 0:
        return None
    rng = np.random.default_rng(seed)
    values, inverse, less_idx, eq_idx = _setup(pos, neg)
    aucs = []
    # in batches, so that memory stays at a few MB per batch whatever the set size
    batch = max(1, min(resamples, 4_000_000 // (len(pos) + len(neg))))
    done = 0
    while done < resamples:
        b = min(batch, resamples - done)
        pos_counts = rng.multinomial(len(pos), np.full(len(pos), 1.0 / len(pos)), size=b).astype(float)
        neg_draws = rng.multinomial(len(neg), np.full(len(neg), 1.0 / len(neg)), size=b)
        neg_counts = np.zeros((b, len(values)))
        np.add.at(neg_counts, (slice(None), inverse), neg_draws)
        aucs.append(_auc_from_counts(pos_counts, neg_counts, less_idx, eq_idx, len(pos), len(neg)))
        done += b
    aucs = np.concatenate(aucs)
    tail = (1.0 - level) / 2.0
    return float(np.quantile(aucs, tail)), float(np.quantile(aucs, 1.0 - tail))


def roc_curve(scores, labels):
    """(fpr, tpr, thresholds): one point per distinct score, predicting positive when score >= t."""
    s = np.asarray(scores, dtype=float)
    y = np.asarray(labels).astype(bool)
    order = np.argsort(-s, kind="mergesort")
    s, y = s[order], y[order]
    last = np.r_[np.nonzero(np.diff(s))[0], len(s) - 1]  # last index of each distinct score
    tp = np.cumsum(y)[last]
    fp = np.cumsum(~y)[last]
    n_pos, n_neg = max(int(y.sum()), 1), max(int((~y).sum()), 1)
    return np.r_[0.0, fp / n_neg], np.r_[0.0, tp / n_pos], np.r_[np.inf, s[last]]


@dataclass
class Curve:
    name: str
    auc: float | None
    interval: tuple | None
    fpr: np.ndarray
    tpr: np.ndarray

    def label(self) -> str:
        if self.auc is None:
            return f"{self.name} (AUC -)"
        ci = f" [{self.interval[0]:.3f}, {self.interval[1]:.3f}]" if self.interval else ""
        return f"{self.name} (AUC {self.auc:.3f}{ci})"


def curve(name, scores, labels, resamples: int = RESAMPLES, seed: int = SEED) -> Curve:
    fpr, tpr, _ = roc_curve(scores, labels)
    return Curve(name, roc_auc(scores, labels), bootstrap_auc(scores, labels, resamples, seed=seed), fpr, tpr)


def plot(curves, path, title: str):
    """Writes one PNG with every curve on it (matplotlib's Agg backend: no display needed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 5.6), dpi=110)
    ax.plot([0, 1], [0, 1], linestyle=":", color="grey", linewidth=1)
    for c in sorted(curves, key=lambda c: -(c.auc if c.auc is not None else -1)):
        ax.plot(c.fpr, c.tpr, linewidth=1.4, label=c.label())  # ties: the diagonal between points
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.01)
    ax.set_xlabel("false positive rate")
    ax.set_ylabel("true positive rate")
    ax.set_title(title, fontsize=10)
    ax.legend(loc="lower right", fontsize=7.5)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)


def self_test():
    assert roc_auc([0.5, 0.5, 0.1, 0.9, 0.7], [1, 0, 0, 1, 0]) == 0.75
    assert roc_auc([1, 2, 3], [0, 1, 1]) == 1.0
    assert roc_auc([1, 1], [0, 1]) == 0.5
    assert roc_auc([1, 2], [1, 1]) is None
    fpr, tpr, _ = roc_curve([0.9, 0.8, 0.8, 0.1], [1, 0, 1, 0])
    assert list(fpr) == [0.0, 0.0, 0.5, 1.0] and list(tpr) == [0.0, 0.5, 1.0, 1.0]
    lo, hi = bootstrap_auc([0.5, 0.5, 0.1, 0.9, 0.7, 0.3, 0.8], [1, 0, 0, 1, 0, 1, 1], resamples=500)
    assert 0.0 <= lo <= hi <= 1.0
