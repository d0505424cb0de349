"""Expected values of RankingMetricsTest, computed independently of the Java code.

Average precision and ROC-AUC come from scikit-learn (what TGL uses); MRR is TGB's formula
(rank = 1 + 0.5 * (#negatives > positive + #negatives >= positive)). Run with Debian's
python3-sklearn and python3-numpy (RankingMetricsTest holds its output under scikit-learn 1.2.1, NumPy 1.24.2):

    /usr/bin/python3 src/test/resources/dev/depbloom/eval/ranking_metrics_reference.py

Random inputs come from the same 64-bit LCG as RankingMetricsTest.lcgScores, so both sides see
identical scores: level = (state >> 33) % levels, score = level / 16, exact in float32 and float64
(few levels give many ties between and within positives and negatives).
"""
import numpy as np
from sklearn.metrics import average_precision_score, roc_auc_score

MASK = (1 << 64) - 1


def lcg_scores(seed, count, levels):
    state = seed & MASK
    out = []
    for _ in range(count):
        state = (state * 6364136223846793005 + 1442695040888963407) & MASK
        out.append(((state >> 33) % levels) / 16.0)
    return np.array(out, dtype=np.float64)


def ap_auc(name, pos, neg):
    y = np.concatenate([np.ones(len(pos)), np.zeros(len(neg))])
    s = np.concatenate([np.asarray(pos, dtype=np.float64), np.asarray(neg, dtype=np.float64)])
    print(f"{name}: AP = {average_precision_score(y, s)!r}, AUC = {roc_auc_score(y, s)!r}")


def mrr(name, pos, neg):
    """neg is negative-major: neg[j * B + i] is negative j of positive i."""
    pos = np.asarray(pos, dtype=np.float64)
    b = len(pos)
    per_event = np.asarray(neg, dtype=np.float64).reshape(-1, b).T  # [B, k]
    optimistic = (per_event > pos[:, None]).sum(axis=1)
    pessimistic = (per_event >= pos[:, None]).sum(axis=1)
    rank = 0.5 * (optimistic + pessimistic) + 1
    print(f"{name}: MRR = {np.mean(1.0 / rank)!r}")


ap_auc("separated", [0.9, 0.8, 0.3], [0.7, 0.2, 0.1])
ap_auc("allTied", [0.5, 0.5], [0.5, 0.5, 0.5])
ap_auc("tiesAcross", [0.75, 0.5, 0.5, 0.25], [0.5, 0.25, 0.25, 0.0, 0.75])
ap_auc("reversed", [0.125, 0.25], [0.75, 0.875])
ap_auc("lcg(1, 50 | 50, 8 levels)", lcg_scores(1, 50, 8), lcg_scores(101, 50, 8))
ap_auc("lcg(2, 37 | 113, 1000 levels)", lcg_scores(2, 37, 1000), lcg_scores(102, 113, 1000))
ap_auc("lcg(3, 200 | 200, 3 levels)", lcg_scores(3, 200, 3), lcg_scores(103, 200, 3))

mrr("hand", [0.5, 0.25, 0.75], [0.5, 0.5, 0.0, 0.75, 0.25, 1.0])
mrr("lcg(4, 40 events, 49 negatives, 16 levels)", lcg_scores(4, 40, 16), lcg_scores(104, 40 * 49, 16))
mrr("lcg(5, 25 events, 7 negatives, 4 levels)", lcg_scores(5, 25, 4), lcg_scores(105, 25 * 7, 4))
