"""MPBoost's stump search in NumPy: what the compiled kernels compute, while they are not built.

The functions mirror those of :mod:`rankviz.ltr.stump_sweep` that a fit
calls (:func:`pair_statistics`, :func:`split_sums`, and the gains of every
stump behind :meth:`rankviz.ltr.stump_search.StumpSearch.best` and
``sums``), for :mod:`rankviz.jit`: a fit whose compiled search is not built
runs these while a background thread builds it. The arithmetic is that of
:mod:`rankviz.ltr.stump_search`, vectorised another way:

* a round's weights, per document and grade, from the per-query sums
  ``grade_sums[q, h, g]``, with whole arrays instead of a loop over the
  documents;
* ``S2`` of every threshold of a feature as a difference array over its
  bins: a pair adds its weight from the lower of its two codes and takes it
  away at the higher, so a cumulative sum gives, at bin ``b``, the weight of
  the pairs with one document at or below ``b`` and the other above
  (``O(pairs + bins)`` per feature); ``S1`` as the cumulative sum of ``p``
  over the bins, ``S1(b) = -sum_{code <= b} p`` (``p`` sums to 0).

The sums are the kernels' up to rounding (they add in another order): the
same stumps but for gains within rounding of a tie (relative 1e-5 counts as
one), heights equal to about 1e-15 (tests/test_mpboost.py compares them).
"""

from __future__ import annotations

import numpy as np

__all__ = ["feature_gains", "feature_sums", "pair_statistics", "pair_weights", "split_sums", "stump_sums_table"]


def pair_statistics(scores: np.ndarray, grades: np.ndarray, queries: np.ndarray, distance_table: np.ndarray,
                    n_queries: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, float]:
    """A round's pair weights per document: ``(factors, weight, p, scale, total)``.

    As :func:`rankviz.ltr.stump_sweep.pair_statistics`, which
    :class:`rankviz.ltr.stump_search.RoundWeights` describes.
    """
    n_grades = distance_table.shape[0]
    lowest = np.full((n_queries, n_grades), np.inf)
    highest = np.full((n_queries, n_grades), -np.inf)
    np.minimum.at(lowest, (queries, grades), scores)
    np.maximum.at(highest, (queries, grades), scores)
    # the largest log weight of a query's pairs of grades g > h joins the lowest score of g to the highest of h
    g, h = np.tril_indices(n_grades, k=-1)
    both = np.isfinite(lowest[:, g]) & np.isfinite(highest[:, h])
    logs = -distance_table[g, h] * (lowest[:, g] - highest[:, h])
    top = float(logs[both].max()) if both.any() else 0.0

    partner = np.arange(n_grades)[None, :]
    own = grades[:, None]
    low = lowest[queries]  # (documents, grades): the lowest score of each grade in the document's query
    with np.errstate(invalid="ignore", over="ignore"):
        # m the more relevant document of the pair (h < g_m), or the less relevant one (h > g_m)
        more = np.exp(-distance_table[own, partner] * (scores - lowest[queries, grades])[:, None])
        less = np.exp(np.minimum(distance_table[partner, own] * (scores[:, None] - low) - top, 0.0))
    no_pair = ~np.isfinite(low) | (partner == own)
    factors = np.where(no_pair, 0.0, np.where(partner < own, more, less))

    grade_sums = np.zeros((n_queries, n_grades, n_grades))
    np.add.at(grade_sums, (queries, grades), factors)
    # the weight of m's pairs with the documents of grade h: factors[m, h] * grade_sums[q, h, g_m]
    w = factors * grade_sums[queries, :, grades]
    signed = np.where(partner < own, distance_table[own, partner], -distance_table[partner, own])
    weight = w.sum(axis=1)
    p = (w * signed).sum(axis=1)
    return factors, weight, p, top, float(weight.sum()) / 2.0


def pair_weights(first: np.ndarray, second: np.ndarray, grades: np.ndarray, factors: np.ndarray) -> np.ndarray:
    """Each pair's weight, the product of its two documents' factors."""
    return factors[first, grades[second]] * factors[second, grades[first]]


def split_sums(above: np.ndarray, first: np.ndarray, second: np.ndarray, distance: np.ndarray,
               grades: np.ndarray, factors: np.ndarray) -> tuple[float, float]:
    """``S1`` and ``S2`` of the stump that puts the documents ``above`` above its threshold (as the kernel)."""
    side = above[first].astype(float) - above[second].astype(float)
    w = pair_weights(first, second, grades, factors)
    return float(np.sum(w * distance * side)), float(np.sum(w * np.abs(side)))


def feature_sums(codes: np.ndarray, n_bins: int, first: np.ndarray, second: np.ndarray, w: np.ndarray,
                 p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``S1`` and ``S2`` of the stump ``code > b`` for every bin ``b < n_bins`` of one feature."""
    lower = np.minimum(codes[first], codes[second])
    upper = np.maximum(codes[first], codes[second])
    change = np.bincount(lower, w, minlength=n_bins + 1) - np.bincount(upper, w, minlength=n_bins + 1)
    s2 = np.cumsum(change)[:n_bins]
    s1 = -np.cumsum(np.bincount(codes, p, minlength=n_bins))[:n_bins]
    return s1, s2


def _gaps(codes: np.ndarray, n_bins: int) -> np.ndarray:
    """The bins that end a gap between two codes present: every present code but the highest."""
    present = np.flatnonzero(np.bincount(codes, minlength=n_bins))
    return present[:-1]


def feature_gains(codes: np.ndarray, n_bins: int, first: np.ndarray, second: np.ndarray, w: np.ndarray,
                  p: np.ndarray, floor: float) -> tuple[np.ndarray, np.ndarray]:
    """The bins a threshold of one feature can follow, and the gain ``S1^2 / max(S2, floor)`` of each."""
    s1, s2 = feature_sums(codes, n_bins, first, second, w, p)
    bins = _gaps(codes, n_bins)
    return bins, s1[bins] ** 2 / np.maximum(s2[bins], floor)


def stump_sums_table(codes: np.ndarray, width: int, first: np.ndarray, second: np.ndarray, w: np.ndarray,
                     p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``S1`` and ``S2`` of every stump, (features x width), 0 past a feature's last threshold (as the kernel)."""
    n_features = codes.shape[1]
    s1, s2 = np.zeros((n_features, width)), np.zeros((n_features, width))
    for k in range(n_features):
        column = codes[:, k]
        if not column.size:
            continue
        s1[k], s2[k] = feature_sums(column, width, first, second, w, p)
        beyond = np.arange(width) >= column.max()  # no document above the threshold: not a stump
        s1[k, beyond] = s2[k, beyond] = 0.0
    return s1, s2
