"""Shared statistics of the ordinal criteria (Xia, Zhang & Wang 2006): cumulative indicators.

Each label's rank position is treated as an ordinal target whose levels are the
distinct positions found in the training data, ``v_1 < ... < v_K``. A row's
statistics are, per label, the indicators ``[y <= v_m]`` for ``m = 1..K-1``
(and, only when some position is missing, an indicator that the label is
present). Summed over a set they give ``A_m``, the number of rows at or below
level ``m``, from which both impurities follow without a loop over
candidates:

- ranking impurity (Definition 2), ``sum_{i<j} (v_j - v_i) N_i N_j``: a pair
  of rows on either side of the gap between ``v_m`` and ``v_{m+1}`` adds that
  gap to its distance, so ``I_rank = sum_m (v_{m+1} - v_m) A_m (n - A_m)``;
- the Gini impurity (Definition 1) needs the level counts
  ``N_m = A_m - A_{m-1}``.

Why cumulative indicators and not one-hot counts: the ranking impurity then
needs no cumulative sum over levels, and the search keeps K - 1 running sums
per label instead of K.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .base import Criterion


class OrdinalLevelCriterion(Criterion):
    """Base of criteria that see each label's rank position as an ordinal level.

    The ranking impurity (Definition 2) and the Gini impurity (Definition 1)
    of Xia, Zhang & Wang (2006) [1]_ both follow from its statistics.

    References
    ----------
    .. [1] F. Xia, W. Zhang and J. Wang, "An effective tree-based algorithm for
           ordinal regression", IEEE Intelligent Informatics Bulletin, vol. 7,
           no. 1, pp. 22-26, 2006.
    """

    #: The builder may pass summed statistics as transposed views of
    #: (statistics, candidates) arrays, the layout these formulas run fastest on.
    columnwise_sums = True

    statistics_note = "an indicator per label and rank level"

    def statistics_width(self, Y: np.ndarray) -> int:
        present = ~np.isnan(Y)
        levels = len(np.unique(Y[present]))
        return Y.shape[1] * max(levels - 1 + (not present.all()), 1)

    def statistics_width_for(self, n_labels: int, complete: bool = False) -> int:
        # rank positions 1..L: L - 1 levels, and a "present" column with missing labels
        return n_labels * (n_labels - complete)

    def row_statistics(self, Y: ArrayLike) -> np.ndarray:
        Y = np.asarray(Y, dtype=float)
        present = ~np.isnan(Y)
        levels = np.unique(Y[present])
        if not len(levels):
            raise ValueError(f"criterion {self.name!r} needs at least one rank position")
        self.levels_ = levels
        self.gaps_ = np.diff(levels)
        self.n_labels_ = Y.shape[1]
        self.complete_ = bool(present.all())
        # (n, L, K-1): is the label at or below each level but the last?
        if self.complete_:  # written as numbers at once (a boolean table converted after cost twice the time)
            stats = np.empty((len(Y), Y.shape[1], len(levels) - 1))
            np.less_equal(Y[:, :, None], levels[None, None, :-1], out=stats)
            return stats.reshape(len(Y), -1)
        below = (Y[:, :, None] <= levels[None, None, :-1]) & present[:, :, None]
        if not self.complete_:
            below = np.concatenate([present[:, :, None], below], axis=2)
        return below.reshape(len(Y), -1).astype(float)

    def _unpack(self, count, stat_sum):
        """Per-label present counts ``n`` and cumulative counts ``A``, labels first.

        ``A`` has shape ``(L, K-1, ...)``; ``n`` has shape ``(L, ...)``, or
        for complete rankings is the set's count (``(...)``), which
        broadcasts against each label's ``(L, ...)`` arrays.

        Why labels and levels first: the statistics axis moves to the front as
        a free view, and for the builder's transposed sums each statistic is
        then one contiguous vector over the candidates. The formulas below work
        level by level on such vectors; ``einsum``, ``concatenate`` and
        ``diff`` over short trailing (L, K-1) axes cost several times more.
        """
        stat_sum = np.asarray(stat_sum, dtype=float)
        # `.T` is moveaxis(-1, 0) for the usual one or two axes, and cheaper.
        stat_sum = stat_sum.T if stat_sum.ndim <= 2 else np.moveaxis(stat_sum, -1, 0)
        width = len(self.levels_) - 1 + (not self.complete_)
        parts = stat_sum.reshape((self.n_labels_, width) + stat_sum.shape[1:])
        if self.complete_:
            return np.asarray(count, dtype=float), parts
        return parts[:, 0], parts[:, 1:]

    def level_counts(self, count: ArrayLike, stat_sum: ArrayLike) -> np.ndarray:
        """Rows at each level per label, shape ``(..., n_labels, K)``, from summed statistics."""
        n_label, below = self._unpack(count, stat_sum)
        n_label = np.broadcast_to(n_label, _label_shape(below))
        upto = np.concatenate([below, n_label[:, None]], axis=1)
        return np.moveaxis(np.diff(upto, axis=1, prepend=0.0), (0, 1), (-2, -1))

    def _rank_impurity(self, n_label, below):
        """``I_rank`` summed over labels, shape ``(...)``.

        ``sum_m (v_{m+1} - v_m) A_m (n - A_m)``, one level at a time. The
        counts are whole numbers, so each ``A_m (n - A_m)`` is exact (below
        2**53), and with whole-number gaps (ranks 1..K) so is every sum: the
        order of summation cannot change the result.
        """
        total = np.zeros(_label_shape(below))
        for m, gap in enumerate(self.gaps_):
            term = n_label - below[:, m]
            term *= below[:, m]
            if gap != 1.0:
                term *= gap
            total += term
        return total.sum(axis=0)

    def _max_rank_impurity(self, n_label):
        """The largest ``I_rank`` of sets with these label counts: every pair at the
        widest distance ``v_K - v_1``; the normaliser of the similarity."""
        span = self.levels_[-1] - self.levels_[0]
        pairs = n_label * (n_label - 1.0) / 2.0
        if self.complete_:  # n_label is the set's count, the same for every label
            return span * (self.n_labels_ * pairs)
        return span * pairs.sum(axis=0)

    def _gini(self, n_label, below):
        """Gini impurity ``1 - sum_m p_m^2`` of each label, shape ``(L, ...)``.

        The level counts are the steps of the cumulative counts, squared and
        summed one level at a time (whole numbers again: exact in any order).
        """
        squares = np.zeros(_label_shape(below))
        previous = 0.0
        for m in range(below.shape[1]):
            step = below[:, m] - previous
            step *= step
            squares += step
            previous = below[:, m]
        step = n_label - previous
        step *= step
        squares += step
        with np.errstate(invalid="ignore", divide="ignore"):
            share_sq = squares / (n_label * n_label)
        return np.where(n_label > 0, 1.0 - share_sq, 0.0)


def _label_shape(below):
    """Shape ``(L, ...)`` of one level's counts in the ``(L, K-1, ...)`` array ``below``."""
    return below.shape[:1] + below.shape[2:]
