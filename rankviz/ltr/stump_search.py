"""Exhaustive decision-stump search for pairwise boosting (Zhu et al. 2009, appendix).

A stump ``f(x) = a [x_k > t]`` changes the score difference of a pair only
when the threshold separates its two documents. For the weighted squared
loss of Algorithm 1 (step 5) of Zhu et al. [1]_ the best height is
``a = S1 / S2`` and the loss falls by ``S1^2 / S2``, where, over the pairs
``(i, j)`` (``r_i > r_j``, same query) with weights ``w`` and directed
distances ``d``,

* ``S1 = sum_{i above, j below} w d - sum_{i below, j above} w d``, and
* ``S2 = sum_{pairs split} w``.

Every feature and every threshold is scored at once, without a loop over
pairs or thresholds (docs/design.md, "MPBoost stump search"):

* ``S1`` decomposes per document. With
  ``p_m = sum_{pairs (m, .)} w d - sum_{pairs (., m)} w d``,
  ``S1(t) = sum_{m above t} p_m``: one histogram of ``p`` per feature and a
  cumulative sum over its bins.
* ``S2`` does not decompose, but ``[split] = [i below] + [j below] -
  2 [both below]``. The first two terms are per-document sums again. A pair
  is "both below" from the bin of its later document on, so assigning each
  pair's weight to that document -- a sparse ``documents x pairs`` matrix
  times the fixed ``pairs x features`` table of which document is later --
  gives per-document, per-feature amounts whose histograms and cumulative
  sums give the term for every threshold. (This is the difference-array
  idea of docs/design.md with the pair's lower end folded into the
  per-document sums.)

Feature values are binned once per fit: by default every distinct value is
its own bin (the appendix's exhaustive search over all thresholds);
``max_bins`` caps the bins at quantiles, as histogram gradient boosting does,
for large data. Thresholds lie midway between neighbouring values, as in
scikit-learn's trees, so that the stump separates the training documents as
the appendix's ``x <= x_m`` would but generalises symmetrically.

References
----------
.. [1] C. Zhu, W. Chen, Z. A. Zhu, G. Wang, D. Wang and Z. Chen, "A general
       magnitude-preserving boosting algorithm for search ranking",
       Proceedings of the 18th ACM Conference on Information and Knowledge
       Management (CIKM '09), pp. 817-826, 2009.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from numpy.typing import ArrayLike

__all__ = ["FeatureBins", "PairLayout", "StumpSearch", "stump_sums"]

# Relative difference of gains that counts as a tie (float32 sums).
_GAIN_TIE = 1e-5

# Histograms wider than this many bins per feature are filled feature by
# feature (see PairLayout).
_WIDE_HISTOGRAM = 1024

# Above this many pair x feature cells (float32), the table of which document
# of a pair comes later is recomputed per block of features each round
# instead of being kept (about 200 MB).
_PAIR_FEATURE_CELLS = 50_000_000


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
    """

    def __init__(self, X: ArrayLike, max_bins: int | None = None) -> None:
        X = np.asarray(X, dtype=float)
        if max_bins is not None and int(max_bins) < 2:
            raise ValueError(f"max_bins must be None or an integer of at least 2; got {max_bins!r}.")
        self.max_bins = None if max_bins is None else int(max_bins)
        self.thresholds = [self._feature_thresholds(X[:, k]) for k in range(X.shape[1])]
        self.n_bins = np.array([len(t) + 1 for t in self.thresholds], dtype=np.intp)
        self.codes = np.empty(X.shape, dtype=np.int32)
        for k, thresholds in enumerate(self.thresholds):
            self.codes[:, k] = np.searchsorted(thresholds, X[:, k], side="left")
        # A missing value is below every threshold, as ``NaN > t`` is False
        # when the model predicts.
        self.codes[np.isnan(X)] = 0

    def _feature_thresholds(self, column):
        column = column[~np.isnan(column)]
        values = np.unique(column)
        midpoints = values[:-1] / 2.0 + values[1:] / 2.0  # the sum can overflow
        if self.max_bins is None or values.size <= self.max_bins:
            return midpoints
        # Quantile cuts of the data, moved to the nearest midpoint so that no
        # threshold sits on a value (a cut must separate documents).
        quantiles = np.quantile(column, np.linspace(0.0, 1.0, self.max_bins + 1)[1:-1])
        nearest = np.clip(np.searchsorted(midpoints, quantiles), 0, midpoints.size - 1)
        return np.unique(midpoints[nearest])


class PairLayout:
    """Preference pairs and the fixed structures the search reuses each round.

    Parameters
    ----------
    first, second : ndarray of int
        Document indices of each pair; ``first`` is the more relevant one.
    distance : ndarray of float
        ``dist(r_first, r_second) > 0`` per pair.
    bins : FeatureBins
    """

    def __init__(self, first: ArrayLike, second: ArrayLike, distance: ArrayLike,
                 bins: FeatureBins) -> None:
        self.first = np.asarray(first, dtype=np.intp)
        self.second = np.asarray(second, dtype=np.intp)
        self.distance = np.asarray(distance, dtype=float)
        self.bins = bins
        n_documents, n_features = bins.codes.shape
        self.n_documents, self.n_features = n_documents, n_features
        self.n_pairs = self.first.size
        self.width = int(bins.n_bins.max())
        # flat histogram index of (document m, feature k): k * width + code
        offsets = np.arange(n_features, dtype=np.intp) * self.width
        self.flat_codes = (bins.codes + offsets).ravel()
        # With wide histograms (every distinct value a bin) scattering a
        # documents x features table row by row touches every feature's
        # histogram per document; feature by feature stays in cache and pays
        # for the transposed copy twice over.
        self._by_feature = self.width > _WIDE_HISTOGRAM
        if self._by_feature:
            self.flat_codes_by_feature = (bins.codes.T + offsets[:, None]).ravel()
        # the same as a (features * width) x documents 0/1 matrix: histograms of
        # per-document amounts for every feature in one sparse product
        self.bin_members = sp.csr_matrix(
            (np.ones(self.flat_codes.size), (self.flat_codes, np.repeat(np.arange(n_documents), n_features))),
            shape=(n_features * self.width, n_documents),
        )
        # documents x pairs, +w at the first document and -w at the second;
        # the values are refreshed each round through ``_data_order``.
        rows = np.concatenate([self.first, self.second])
        cols = np.concatenate([np.arange(self.n_pairs)] * 2)
        self._data_order = np.argsort(rows, kind="stable")
        indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=n_documents))])
        self._signed = sp.csr_matrix(
            (np.ones(2 * self.n_pairs, dtype=np.float32), cols[self._data_order], indptr),
            shape=(n_documents, self.n_pairs),
        )
        self._blocks = self._feature_blocks()
        self._first_later = None
        if len(self._blocks) == 1:
            self._first_later = self._later_table(self._blocks[0])

    def _feature_blocks(self):
        per_block = max(1, _PAIR_FEATURE_CELLS // max(self.n_pairs, 1))
        return [slice(k, min(k + per_block, self.n_features)) for k in range(0, self.n_features, per_block)]

    def _later_table(self, features):
        """pairs x features float32: 1 where the first document's bin is not below the second's.

        A pair is "both below" a threshold from the bin of its later document
        on; ties go to the first document (any document of that bin would do).
        """
        codes = self.bins.codes[:, features]
        return (codes[self.first] >= codes[self.second]).astype(np.float32)

    def later_weights(self, weights: np.ndarray) -> np.ndarray:
        """Per document and feature: the weight of pairs in which it is the later document.

        Returns ``g`` of shape (n_documents, n_features) minus the part every
        pair gives its second document, i.e. ``(A_first - A_second) @ later``;
        see :meth:`StumpSearch.sums`.
        """
        signed = np.concatenate([weights, -weights]).astype(np.float32)
        self._signed.data = signed[self._data_order]
        if self._first_later is not None:
            return self._signed @ self._first_later
        out = np.empty((self.n_documents, self.n_features), dtype=np.float32)
        for features in self._blocks:
            out[:, features] = self._signed @ self._later_table(features)
        return out


class StumpSearch:
    """Score every (feature, threshold) stump for given pair weights.

    Parameters
    ----------
    layout : PairLayout
    """

    def __init__(self, layout: PairLayout) -> None:
        self.layout = layout
        bins = layout.bins
        # thresholds b = 0 .. n_bins - 2 exist; the last bin has none above it
        self._valid = np.arange(layout.width)[None, :] < (bins.n_bins[:, None] - 1)

    def _prefix_tables(self, weights):
        """Running sums over each feature's bins: ``(-S1, S2)`` of every stump, unmasked.

        Entries past a feature's last threshold hold the totals over all
        documents, which are 0 up to rounding (no pair is split).
        """
        layout = self.layout
        n, n_features, width = layout.n_documents, layout.n_features, layout.width
        weighted_distance = weights * layout.distance
        p = (np.bincount(layout.first, weighted_distance, minlength=n)
             - np.bincount(layout.second, weighted_distance, minlength=n))
        # [split] = [first below] + [second below] - 2 [both below]; the
        # per-document part of "both below" that every pair gives its second
        # document cancels one of the first two terms.
        first_minus_second = (np.bincount(layout.first, weights, minlength=n)
                              - np.bincount(layout.second, weights, minlength=n))
        # histograms of the per-document amounts (one sparse product for
        # both) and of the per-document, per-feature "later" weights
        per_document = layout.bin_members @ np.column_stack([p, first_minus_second])
        later = layout.later_weights(weights)
        if layout._by_feature:
            later_hist = np.bincount(layout.flat_codes_by_feature, np.ascontiguousarray(later.T).ravel(),
                                     minlength=n_features * width)
        else:
            later_hist = np.bincount(layout.flat_codes, later.ravel(), minlength=n_features * width)
        below_hist = per_document[:, 1] - 2.0 * later_hist
        # p sums to 0 over all documents, so the sum above a threshold is
        # minus the sum below it.
        minus_s1 = np.cumsum(per_document[:, 0].reshape(n_features, width), axis=1)
        s2 = np.cumsum(below_hist.reshape(n_features, width), axis=1)
        return minus_s1, s2

    def sums(self, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``S1`` and ``S2`` of every stump, shape (n_features, width).

        Entry ``[k, b]`` is the stump ``x_k > thresholds[k][b]``; entries past
        a feature's last threshold are 0.
        """
        minus_s1, s2 = self._prefix_tables(weights)
        s1 = np.where(self._valid, -minus_s1, 0.0)
        return s1, np.where(self._valid, s2, 0.0)

    def best(self, weights: np.ndarray) -> tuple[int, int, float]:
        """The stump with the largest loss reduction ``S1^2 / S2``.

        Returns
        -------
        feature, bin : int
            The stump is ``x_feature > thresholds[feature][bin]``; ties go
            to the lowest feature, then the lowest threshold.
        gain : float
            ``S1^2 / S2`` from the search (0 when no stump separates a pair).
        """
        minus_s1, s2 = self._prefix_tables(weights)
        # Where no pair is split (past a feature's last threshold, or a
        # threshold separating nothing) S1 and S2 are 0 up to rounding, S2's
        # float32 rounding being ~1e-7 of the total weight. A floor well above
        # that keeps their ratio ~0 without masking every entry.
        floor = 1e-6 * weights.sum()
        gain = np.square(minus_s1, out=minus_s1)
        gain /= np.maximum(s2, floor, out=s2)
        # Gains within rounding (S2 is summed in float32) of the largest are
        # ties: the first, i.e. the lowest feature and threshold, wins, so the
        # choice does not depend on the order of the rows.
        top = gain.max()
        best = int(np.argmax(gain >= top - _GAIN_TIE * top))
        feature, bin_ = divmod(best, gain.shape[1])
        if not self._valid[feature, bin_]:
            return feature, bin_, 0.0
        return int(feature), int(bin_), float(gain[feature, bin_])


def stump_sums(codes_column: np.ndarray, bin_: int, first: np.ndarray, second: np.ndarray,
               distance: np.ndarray, weights: np.ndarray) -> tuple[float, float]:
    """Exact ``S1`` and ``S2`` of one stump, straight from the pairs.

    Used to set the chosen stump's height in float64 and as the reference in
    tests.
    """
    above = codes_column > bin_
    first_above, second_above = above[first], above[second]
    forward = first_above & ~second_above     # A1 of the appendix
    backward = ~first_above & second_above    # B2
    wd = weights * distance
    s1 = wd[forward].sum() - wd[backward].sum()
    s2 = weights[forward].sum() + weights[backward].sum()
    return float(s1), float(s2)
