"""Brute-force references written from the text of Rebelo, Soares & Costa (2008), shared by the tests.

Explicit loops and pairwise correlations: slow, but each line can be checked
against the paper, which is the point.
"""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import rankdata


def mean_pairwise_spearman(Y):
    """Similarity of a set, straight from the definition (singleton = 1)."""
    if len(Y) == 1:
        return 1.0
    # Spearman = Pearson correlation of the rank vectors (Rebelo et al., eq. 2).
    with np.errstate(invalid="ignore", divide="ignore"):
        corr = np.corrcoef(Y)
    corr = np.nan_to_num(corr)  # correlation with an all-tied ranking taken as 0
    pairs = np.triu_indices(len(Y), k=1)
    return float(corr[pairs].mean())


def candidate_tests(X, nominal, min_samples_leaf):
    """Every binary test of Rebelo et al. (Table 2) on the rows of X, as (feature, threshold, mask).

    Nominal: ``x = v`` against the rest; numeric: ``x <= t`` with ``t`` halfway
    between consecutive distinct values. Tests leaving fewer than
    ``min_samples_leaf`` rows on a side are skipped.
    """
    for f in range(X.shape[1]):
        values = np.unique(X[:, f])
        if nominal[f]:
            tests = [(v, X[:, f] == v) for v in values]
        else:
            tests = [((lo + hi) / 2, X[:, f] <= (lo + hi) / 2) for lo, hi in zip(values[:-1], values[1:])]
        for threshold, mask in tests:
            if min(mask.sum(), (~mask).sum()) >= min_samples_leaf:
                yield f, threshold, mask


def margin(x, threshold):
    """The gap ``threshold`` lies in, between the values of ``x`` around it, over their range (the
    tie-break of rankviz's search: of splits scoring alike, the widest margin, then the first)."""
    values = np.unique(x[~np.isnan(x)])
    return (values[values > threshold].min() - values[values <= threshold].max()) / (values[-1] - values[0])


def widest_of_the_best(candidates, tolerance):
    """Of ``(score, margin, payload)`` in search order: the best score, ties (within ``tolerance``) to
    the widest margin, then to the first. None if there are none."""
    if not candidates:
        return None
    top = max(score for score, _, _ in candidates)
    tied = [c for c in candidates if c[0] >= top - tolerance]
    widest = max(m for _, m, _ in tied)
    return next(c for c in tied if c[1] == widest)


def brute_force_tree(X, Y, nominal, gamma, min_samples_leaf, max_depth, depth=0):
    """Recursive TDIDT: every candidate split scored by explicit loops."""
    n = len(Y)
    node = {"n": n, "similarity": mean_pairwise_spearman(Y),
            "mean_rank": Y.mean(axis=0), "split": None}
    if depth == max_depth or n < 2 * min_samples_leaf or node["similarity"] >= 1 - 1e-12:
        return node
    candidates = []
    for f, threshold, left in candidate_tests(X, nominal, min_samples_leaf):
        score = (left.sum() * mean_pairwise_spearman(Y[left])
                 + (~left).sum() * mean_pairwise_spearman(Y[~left])) / n
        candidates.append((score, 0.0 if nominal[f] else margin(X[:, f].astype(float), threshold),
                           (f, threshold, left)))
    best = widest_of_the_best(candidates, 1e-12)
    if best is None:
        return node
    score, _, (f, threshold, left) = best
    node["split_score"] = score
    if (1 + node["similarity"]) >= gamma * (1 + score) - 1e-12:  # rule (6): stop (equal within rounding)
        return node
    node["split"] = (f, threshold)
    node["children"] = [
        brute_force_tree(X[mask], Y[mask], nominal, gamma, min_samples_leaf, max_depth, depth + 1)
        for mask in (left, ~left)
    ]
    return node


def assert_same_tree(tree, node, reference):
    assert tree.n_samples[node] == reference["n"]
    assert tree.similarity[node] == pytest.approx(reference["similarity"], abs=1e-9)
    np.testing.assert_allclose(tree.mean_rank[node], reference["mean_rank"])
    if reference["split"] is None:
        assert tree.is_leaf[node]
        return
    assert tree.split_score[node] == pytest.approx(reference["split_score"], abs=1e-9)
    f, threshold = reference["split"]
    assert tree.feature[node] == f
    assert tree.threshold[node] == pytest.approx(threshold)
    assert_same_tree(tree, tree.children_left[node], reference["children"][0])
    assert_same_tree(tree, tree.children_right[node], reference["children"][1])


def random_problem(seed, n=40, n_labels=4, ties=False):
    rng = np.random.default_rng(seed)
    x_num = rng.integers(0, 8, size=n).astype(float)  # repeated values: ties in x
    x_nom = rng.choice(["a", "b", "c"], size=n)
    x_cont = rng.normal(size=n).round(2)
    # Rankings that depend on the attributes, plus noise, so the tree has structure.
    utility = np.outer(x_num, np.arange(n_labels)) / 4 + (x_nom == "c")[:, None] * np.arange(n_labels)[::-1]
    utility = utility + rng.normal(scale=1.5, size=(n, n_labels))
    if ties:
        utility = utility.round(0)
    Y = rankdata(-utility, axis=1)
    X = pd.DataFrame({"num": x_num, "nom": x_nom, "cont": x_cont})
    return X, Y
