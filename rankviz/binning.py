"""Quantile bins of numeric features: the thresholds a search may try, at most ``max_bins`` per feature.

Shared by MPBoost's stump search (:mod:`rankviz.ltr.stump_search`) and the
ranking trees' ``max_bins`` (:class:`rankviz.tree.RankingTree`). As in
histogram gradient boosting (LightGBM [1]_, scikit-learn's
``HistGradientBoosting``), a feature with more distinct values than bins is
cut at quantiles of its values; one with fewer keeps every threshold, so the
search there is exact.

References
----------
.. [1] G. Ke, Q. Meng, T. Finley, T. Wang, W. Chen, W. Ma, Q. Ye and T.-Y. Liu,
       "LightGBM: A highly efficient gradient boosting decision tree",
       Advances in Neural Information Processing Systems 30 (NIPS 2017).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike
from scipy import sparse

__all__ = ["FeatureBins", "FeatureEntries", "SparseFeatureBins", "bin_columns", "thresholds_from_codes"]


class FeatureEntries(NamedTuple):
    """Each feature's documents outside one of its bins (its *default* bin), in the order of their codes.

    What a search of sparse features reads (MPBoost's, :class:`rankviz.ltr.stump_search.StumpSearch`):
    the default bin is a feature's most frequent one, or the bin of its implicit zeros in a sparse matrix
    (:class:`SparseFeatureBins`).
    """

    #: where each feature's entries start, and the end (n_features + 1)
    ptr: np.ndarray
    #: the documents (uint32), feature by feature; among equal codes in increasing order (MPBoost's search
    #: regroups a copy by query: :func:`rankviz.ltr.stump_search.entries_by_query`)
    docs: np.ndarray
    #: their bin codes (int32)
    codes: np.ndarray
    #: each feature's default bin (int32)
    default_bin: np.ndarray
    #: the documents of the table
    n_documents: int

    @property
    def share(self) -> float:
        """The share of all values that lie in their feature's default bin."""
        n_values = self.default_bin.size * self.n_documents
        return 0.0 if n_values == 0 else 1.0 - self.docs.size / n_values


class FeatureBins:
    """Per-feature bin codes and the thresholds between bins.

    ``codes[m, k]`` is the number of thresholds of feature ``k`` below
    ``X[m, k]``, so ``X[m, k] > thresholds[k][b]`` exactly when
    ``codes[m, k] > b``.

    Parameters
    ----------
    X : ndarray of shape (n_documents, n_features)
    max_bins : int or None
        None: one bin per distinct value (every threshold). An int >= 2:
        at most that many bins per feature, cut at quantiles of the values.

    Attributes
    ----------
    n_documents : int
    thresholds : list of ndarray
        Each feature's thresholds, increasing.
    n_bins : ndarray of int
    codes : ndarray of int32, shape (n_documents, n_features)
        0 for a missing value.
    exact : ndarray of bool
        Features with at most ``max_bins`` distinct values: every midpoint
        between two values is a threshold.
    """

    def __init__(self, X: ArrayLike, max_bins: int | None = None) -> None:
        X = np.asarray(X, dtype=float)
        if max_bins is not None and int(max_bins) < 2:
            raise ValueError(f"max_bins must be None or an integer of at least 2; got {max_bins!r}.")
        self.max_bins = None if max_bins is None else int(max_bins)
        self.n_documents = X.shape[0]
        self.exact = np.ones(X.shape[1], dtype=bool)
        self.thresholds = [self._feature_thresholds(X[:, k], k) for k in range(X.shape[1])]
        self.n_bins = np.array([len(t) + 1 for t in self.thresholds], dtype=np.intp)
        self.codes: np.ndarray = np.empty(X.shape, dtype=np.int32)
        for k, thresholds in enumerate(self.thresholds):
            self.codes[:, k] = np.searchsorted(thresholds, X[:, k], side="left")
        # A missing value is below every threshold, as ``NaN > t`` is False
        # when the model predicts.
        self.codes[np.isnan(X)] = 0

    def above(self, feature: int, bin_: int) -> np.ndarray:
        """Whether each document lies above threshold ``bin_`` of ``feature`` (``codes[:, feature] > bin_``)."""
        return self.codes[:, feature] > bin_

    def _feature_thresholds(self, column, k, values=None):
        if values is None:
            values = np.unique(column[~np.isnan(column)])
        midpoints = values[:-1] / 2.0 + values[1:] / 2.0  # the sum can overflow
        if self.max_bins is None or values.size <= self.max_bins:
            return midpoints
        self.exact[k] = False
        # Quantile cuts of the data, moved to the nearest midpoint so that no
        # threshold sits on a value (a cut must separate documents).
        quantiles = np.quantile(column[~np.isnan(column)], np.linspace(0.0, 1.0, self.max_bins + 1)[1:-1])
        nearest = np.clip(np.searchsorted(midpoints, quantiles), 0, midpoints.size - 1)
        return np.unique(midpoints[nearest])


class SparseFeatureBins(FeatureBins):
    """:class:`FeatureBins` of a sparse matrix, held without a dense table of codes.

    The thresholds are those :class:`FeatureBins` finds for the dense matrix
    (a column's implicit zeros are values). Each feature keeps only its
    *entries*, the documents outside the bin of 0 (or of its first value,
    for a column without implicit zeros), with their codes: memory in
    proportion to the values the matrix holds.

    Parameters
    ----------
    X : sparse matrix of shape (n_documents, n_features)
        Finite values, or NaN for a missing one.
    max_bins : int or None

    Attributes
    ----------
    n_documents, thresholds, n_bins, exact
        As :class:`FeatureBins`.
    entries : FeatureEntries
        Each feature's documents outside its default bin: the bin of 0 (of
        its first value, for a column without implicit zeros).
    """

    def __init__(self, X: sparse.spmatrix | sparse.sparray, max_bins: int | None = None) -> None:
        if max_bins is not None and int(max_bins) < 2:
            raise ValueError(f"max_bins must be None or an integer of at least 2; got {max_bins!r}.")
        X = sparse.csc_matrix(X, dtype=float)
        X.sum_duplicates()
        X.sort_indices()
        self.max_bins = None if max_bins is None else int(max_bins)
        self.n_documents, n_features = X.shape
        self.exact = np.ones(n_features, dtype=bool)
        self.thresholds, defaults, rows, codes = [], [], [], []
        for k in range(n_features):
            data = X.data[X.indptr[k]:X.indptr[k + 1]]
            index = X.indices[X.indptr[k]:X.indptr[k + 1]]
            implicit = data.size < self.n_documents
            values = np.unique(data[~np.isnan(data)])
            if implicit:
                values = np.union1d(values, [0.0])
            binned = self.max_bins is not None and values.size > self.max_bins  # quantiles of every value
            column = np.concatenate([data, np.zeros(self.n_documents - data.size)]) if binned else data
            thresholds = self._feature_thresholds(column, k, values)
            self.thresholds.append(thresholds)
            code = np.searchsorted(thresholds, data, side="left").astype(np.int32)
            code[np.isnan(data)] = 0  # a missing value is below every threshold
            default = int(np.searchsorted(thresholds, 0.0, side="left")) if implicit else (int(code[0]) if code.size
                                                                                             else 0)
            kept = code != default
            order = np.lexsort((index[kept], code[kept]))
            defaults.append(default)
            rows.append(index[kept][order])
            codes.append(code[kept][order])
        self.n_bins = np.array([len(t) + 1 for t in self.thresholds], dtype=np.intp)
        self.entries = FeatureEntries(
            np.r_[0, np.cumsum([r.size for r in rows])].astype(np.intp),
            np.concatenate(rows).astype(np.uint32) if rows else np.empty(0, dtype=np.uint32),
            np.concatenate(codes).astype(np.int32) if codes else np.empty(0, dtype=np.int32),
            np.array(defaults, dtype=np.int32), self.n_documents)

    @property
    def codes(self) -> np.ndarray:  # type: ignore[override]
        """The dense table of codes, built on every access (``n_documents x n_features`` int32)."""
        entries = self.entries
        codes = np.repeat(entries.default_bin[None, :], self.n_documents, axis=0)
        feature = np.repeat(np.arange(len(self.thresholds)), np.diff(entries.ptr))
        codes[entries.docs, feature] = entries.codes
        return codes

    def above(self, feature: int, bin_: int) -> np.ndarray:
        """Whether each document lies above threshold ``bin_`` of ``feature``, from its entries."""
        entries = self.entries
        above = np.full(self.n_documents, entries.default_bin[feature] > bin_)
        part = slice(entries.ptr[feature], entries.ptr[feature + 1])
        above[entries.docs[part]] = entries.codes[part] > bin_
        return above


def bin_columns(X: np.ndarray, columns: ArrayLike, max_bins: int) -> tuple[np.ndarray, dict[int, np.ndarray]]:
    """A copy of ``X`` whose ``columns`` with more than ``max_bins`` distinct values hold bin codes.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    columns : array-like of int
        The numeric columns that may be binned.
    max_bins : int
        At least 2.

    Returns
    -------
    X_binned : ndarray of shape (n_samples, n_features)
        Float codes ``0 .. n_bins - 1`` in the binned columns (the number of
        thresholds below the value), NaN where ``X`` is NaN; every other
        column as it was, so a search over them stays exact.
    thresholds : dict of int to ndarray
        The thresholds of each binned column: code ``<= b`` exactly when the
        value is ``<= thresholds[b]``.
    """
    X_binned = np.array(X, dtype=float)
    columns = np.asarray(columns, dtype=np.intp)
    bins = FeatureBins(X_binned[:, columns], max_bins)
    thresholds = {}
    for j in np.flatnonzero(~bins.exact):
        k = int(columns[j])
        missing = np.isnan(X_binned[:, k])
        X_binned[:, k] = np.where(missing, np.nan, bins.codes[:, j])
        thresholds[k] = bins.thresholds[j]
    return X_binned, thresholds


def thresholds_from_codes(values: np.ndarray, features: np.ndarray,
                          thresholds: dict[int, np.ndarray]) -> np.ndarray:
    """Thresholds a search placed between bin codes, as thresholds of the values (see :func:`bin_columns`).

    A split ``code <= t`` with ``b <= t < b + 1`` is ``value <= thresholds[b]``:
    the same rows on each side, since no value lies on a threshold. Entries of
    other features, and NaN, are kept.
    """
    out = np.array(values, dtype=float)
    for k, cuts in thresholds.items():
        at = (features == k) & np.isfinite(out)
        out[at] = cuts[np.floor(out[at]).astype(np.intp)]
    return out
