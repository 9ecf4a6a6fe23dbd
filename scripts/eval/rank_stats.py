"""Rank statistics for scripts/eval/eval.py (no scipy in the venv): average ranks, Spearman,
Kendall tau-b, accuracy at a threshold. ROC AUC is python/sqlsim/roc.py's."""

import math


def average_ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start + 1
        while end < len(order) and values[order[end]] == values[order[start]]:
            end += 1
        rank = (start + 1 + end) / 2.0
        for i in order[start:end]:
            ranks[i] = rank
        start = end
    return ranks


def pearson(x, y):
    n = len(x)
    if n < 2:
        return None
    mx, my = sum(x) / n, sum(y) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    if sxx == 0 or syy == 0:
        return None
    return max(-1.0, min(1.0, sxy / math.sqrt(sxx * syy)))


def spearman(x, y):
    return pearson(average_ranks(x), average_ranks(y))


def kendall_tau_b(x, y):
    n = len(x)
    concordant = discordant = tied_x = tied_y = 0
    for i in range(n):
        xi, yi = x[i], y[i]
        for j in range(i + 1, n):
            dx = (x[j] > xi) - (x[j] < xi)
            dy = (y[j] > yi) - (y[j] < yi)
            if dx == 0:
                tied_x += 1
            if dy == 0:
                tied_y += 1
            s = dx * dy
            if s > 0:
                concordant += 1
            elif s < 0:
                discordant += 1
    pairs = n * (n - 1) // 2
    denominator = math.sqrt((pairs - tied_x) * (pairs - tied_y))
    return (concordant - discordant) / denominator if denominator else None


def accuracy(scores, labels, threshold=0.5):
    """Share of pairs where `score >= threshold` agrees with the label."""
    if not labels:
        return None
    return sum(1 for s, l in zip(scores, labels) if (s >= threshold) == bool(l)) / len(labels)


def self_test():
    assert average_ranks([3, 1, 3, 2, 3]) == [4.0, 1.0, 4.0, 2.0, 4.0]
    assert abs(spearman([1, 2, 3, 4], [1, 2, 2, 3]) - 4.5 / math.sqrt(5 * 4.5)) < 1e-12
    assert abs(kendall_tau_b([1, 2, 2, 3], [1, 3, 2, 3]) - 0.8) < 1e-12
    assert accuracy([0.2, 0.5, 0.7], [0, 0, 1]) == 2 / 3
