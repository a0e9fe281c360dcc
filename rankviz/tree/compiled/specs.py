"""What the compiled search needs of a fitted criterion, packed into plain arrays.

:func:`criterion_spec` reads a criterion after ``row_statistics`` (which
fixes its labels, levels and layout) and returns the kind and arrays that
:mod:`rankviz.tree.compiled.kernels` reads; None for a criterion it has no
compiled formulas for (a user's own subclass), which then grows with the
NumPy search.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ...label_ranking.mallows import label_pairs, theta_inverse_table
from ..criteria import Criterion, Gini, Mallows, MeanSpearman, RankingImpurity
from ..criteria.mallows import THETA_FLOOR
from ..criteria.pairwise_entropy import MAX_ENTROPY, NO_SHARE_CUT, PairwiseEntropy
from . import kernels

__all__ = ["CriterionSpec", "DISTANCE_SCAN_CELLS", "criterion_spec"]


@dataclass(frozen=True)
class CriterionSpec:
    """A criterion for the compiled search: its kind and packed parameters (see :mod:`.kernels`)."""

    kind: int
    ints: np.ndarray
    floats: np.ndarray
    table: np.ndarray
    table_x: np.ndarray
    #: The search maximises another score than ``S_split`` (the criterion's ``search_label``); rule (6)
    #: then judges the chosen split by ``S_split``.
    searches_other_score: bool = False

    def augmented_statistics(self, stats: np.ndarray) -> np.ndarray:
        """The criterion's row statistics with what the compiled formulas add to them.

        Mallows with complete rankings: each row's pair indicators ``A_k``
        are followed by each label's wins (``sum_k [a_k = l] A_k + [b_k = l]
        (1 - A_k)``, its Borda votes) and by ``sum_k A_k``. Summed over a set
        these are the votes and the first term of the Kendall distance that
        the NumPy formulas derive from the pair counts (O(L²) per candidate);
        read off running sums they cost O(L), and as whole numbers they are
        exact, so the scores are the same.
        """
        if self.kind != kernels.MALLOWS or not self.ints[0]:
            return stats
        n_labels, n_pairs = int(self.ints[1]), int(self.ints[2])
        return kernels.augmented_pair_statistics(np.ascontiguousarray(stats, dtype=float), self.ints[3:3 + n_pairs],
                                                 self.ints[3 + n_pairs:3 + 2 * n_pairs], n_labels)

    def row_levels(self, stats: np.ndarray) -> np.ndarray:
        """Each row's level index per label, for the scans of complete rankings by Gini and the ranking
        impurity; else empty.

        Complete rankings' statistics are the cumulative indicators
        ``[level <= m]``, so a row's level is ``K - 1 - sum_m``. Gini's scan
        then changes one level count per label and row: O(labels) per row
        instead of O(labels x levels); the ranking impurity's adds the row's
        distance to the rows on each side, O(labels x levels) per row and
        O(1) per candidate.
        """
        none = np.zeros((0, 0), dtype=np.uint8)
        if self.kind not in (kernels.GINI, kernels.RANKING_IMPURITY) or not self.ints[0] or self.ints[3] < 2:
            return none
        if self.kind == kernels.RANKING_IMPURITY and self.ints[1] * self.ints[3] < DISTANCE_SCAN_CELLS:
            return none
        n_labels, width, n_levels = int(self.ints[1]), int(self.ints[2]), int(self.ints[3])
        if n_levels > 256:
            return none
        below = stats.reshape(len(stats), n_labels, width).sum(axis=2)
        # One byte per label: a quarter of int32's memory (640 kB for 16 labels x 40,000 rows), read
        # at random by the scans; the time did not change measurably.
        return (n_levels - 1 - below).astype(np.uint8)

    def row_codes(self, stats: np.ndarray) -> np.ndarray:
        """Each row's vote margin of every pair, ``wins[a_k] - wins[b_k]``, for Mallows' scans of rankings
        without missing labels (rows x pairs, int16); for the pairwise entropy's scan of such rankings (at most
        :data:`rankviz.tree.criteria.pairwise_entropy.NO_SHARE_CUT` rows) its sign, 1, 0 or -1; else empty.

        Positive when the row puts ``a_k`` first, so the codes hold both the
        pair indicators ``A_k`` and, summed, the Borda votes' margins: the
        scans read one row of small integers per row. Rankings with ties
        (the criterion's full statistics: both pair indicators, the Borda
        votes, the labels present) have twice the votes' margin, a whole
        number, 0 where the row ties the pair.
        """
        none = np.zeros((0, 0), dtype=np.int16)
        if self.kind == kernels.PAIRWISE_ENTROPY:
            # rankings holding every label (ints[3]), of sets that cut no share: 1, 0, -1 per pair
            n_pairs = int(self.ints[0])
            if not self.ints[3] or len(stats) > NO_SHARE_CUT or not n_pairs:
                return none
            return (stats[:, :n_pairs] - stats[:, 2 * n_pairs:]).astype(np.int16)
        if self.kind != kernels.MALLOWS:
            return none
        n_labels, n_pairs = int(self.ints[1]), int(self.ints[2])
        if len(stats) * n_pairs >= 2**31:  # the scans sum them, and a side's distance, in int32: exact below
            return none  # (the criterion's memory limit keeps them far below)
        pair_a, pair_b = self.ints[3:3 + n_pairs], self.ints[3 + n_pairs:3 + 2 * n_pairs]
        if self.ints[0]:
            return kernels.pair_codes(stats[:, n_pairs:n_pairs + n_labels], pair_a, pair_b)
        votes, present = stats[:, 2 * n_pairs:2 * n_pairs + n_labels], stats[:, 2 * n_pairs + n_labels:]
        if not (present == 1.0).all():
            return none  # labels missing: the full statistics' scan
        return kernels.pair_codes(2.0 * votes, pair_a, pair_b)

    def theta_bounds(self) -> tuple[np.ndarray, np.ndarray, int]:
        """The θ bound tables of the scans of :meth:`row_codes`
        (:func:`rankviz.tree.compiled.kernels.theta_bounds`); empty tables for any other scan."""
        if self.kind != kernels.MALLOWS:
            return _theta_bound_tables(0)
        return _theta_bound_tables(int(self.ints[1]))

    def score_bounds(self) -> tuple[np.ndarray, np.ndarray, int]:
        """The bounds of a side's score term the scans of :meth:`row_codes` prune candidates with: those of
        :meth:`theta_bounds` in the form of the score (:func:`rankviz.tree.compiled.kernels.spread_bounds`)."""
        if self.kind != kernels.MALLOWS:
            return _score_bound_tables(0, 0.0)
        return _score_bound_tables(int(self.ints[1]), float(self.floats[0]))


#: Labels x levels from which the ranking impurity scans distances between rows rather than running sums:
#: both cost O(labels x levels) per row, but the sums vectorise better when they are few
#: (benchmarks/bench_tree_growth.py, maximal trees against CART: 16 labels 4.3x -> 2.0x, 10 labels 2.0x ->
#: 1.5x, 9 labels 1.9x -> 1.5x with distances; 6 labels 1.9x -> 2.0x, 3-5 labels up to 1.2 times slower).
DISTANCE_SCAN_CELLS = 64

_NO_TABLE = (np.zeros((1, 1, 4)), np.zeros((1, 3)))


def _theta_bound_tables(n_labels: int) -> tuple[np.ndarray, np.ndarray, int]:
    """θ bounds for ``n_labels`` labels (θ at about 215,000 mean distances, 8,192 an octave: 10 ms).

    The grower takes them as score terms (:func:`_score_bound_tables`, kept once per process); these
    float64 tables are not kept (3.4 MB).
    """
    table, table_x = _NO_TABLE
    if n_labels >= 2:
        x_first, inverse_step, coefficients = theta_inverse_table(n_labels)
        table = coefficients[None]
        table_x = np.zeros((n_labels + 1, 3))
        table_x[n_labels] = (x_first, inverse_step, 0)
    upper, lower, first_key = kernels.theta_bounds(n_labels, table, table_x)
    return upper, lower, int(first_key)


@lru_cache(maxsize=8)
def _score_bound_tables(n_labels: int, form: float) -> tuple[np.ndarray, np.ndarray, int]:
    """:func:`_theta_bound_tables` as bounds of the score term of ``form`` (``floats[0]``), computed once
    per process: they depend on nothing else, and computing them takes longer than a Mallows fit on a
    small file (12 ms). In float32, each rounded away from the value it bounds (so still a bound):
    0.9 MB a table, and at most 8 numbers of labels and forms kept.

    The grower only reads them. They stay writeable, as every other array it takes: Numba compiles
    a read-only array as another type, so a second version of the grower.
    """
    upper, lower, first_key = _theta_bound_tables(n_labels)
    spread_upper, spread_lower = kernels.spread_bounds(upper, lower, form)
    return _rounded(spread_upper, np.inf), _rounded(spread_lower, -np.inf), first_key


def _rounded(values: np.ndarray, towards: float) -> np.ndarray:
    """``values`` in float32, each rounded towards ``towards`` where float32 cannot hold it."""
    narrow = values.astype(np.float32)
    off = narrow < values if towards > 0 else narrow > values
    narrow[off] = np.nextafter(narrow[off], np.float32(towards))
    return narrow


def criterion_spec(criterion: Criterion) -> CriterionSpec | None:
    """The compiled form of a fitted criterion, or None when there is none.

    Only the library's own classes qualify (``type(criterion) is ...``): a
    subclass may change a formula the compiled code would not know about.
    """
    # `type(criterion) is ...` each time, not a variable: the type checker then narrows `criterion`.
    if type(criterion) is MeanSpearman:
        ints = np.array([int(criterion.all_unit_), criterion.n_labels_], dtype=np.int64)
        return CriterionSpec(kernels.MEAN_SPEARMAN, ints, np.array([criterion.scale_]), *_NO_TABLE)
    if type(criterion) is Mallows:
        return _mallows_spec(bool(criterion.complete_), int(criterion.n_labels_), criterion.split)
    if type(criterion) is RankingImpurity or type(criterion) is Gini:
        n_levels = len(criterion.levels_)
        complete = criterion.complete_
        ints = np.array([int(complete), criterion.n_labels_, n_levels - 1 + (not complete), n_levels],
                        dtype=np.int64)
        span = float(criterion.levels_[-1] - criterion.levels_[0])
        per_statistic = np.tile(criterion.gaps_, criterion.n_labels_) if complete else np.zeros(0)
        floats = np.concatenate([[span], criterion.gaps_, per_statistic]).astype(float)
        impurity = type(criterion) is RankingImpurity
        return CriterionSpec(kernels.RANKING_IMPURITY if impurity else kernels.GINI, ints, floats,
                             *_NO_TABLE, searches_other_score=impurity)
    if type(criterion) is PairwiseEntropy and criterion.tables_ is not None:
        xlogx, log_count = criterion.tables_
        n_labels = int(criterion.n_labels_)
        ints = np.array([n_labels * (n_labels - 1) // 2, n_labels, len(xlogx), int(criterion.complete_),
                         int(criterion.ties_)], dtype=np.int64)
        return CriterionSpec(kernels.PAIRWISE_ENTROPY, ints, np.concatenate([[MAX_ENTROPY], xlogx, log_count]),
                             *_NO_TABLE)
    return None


@lru_cache(maxsize=64)
def _mallows_spec(complete: bool, n_labels: int, split: str) -> CriterionSpec:
    """The Mallows criterion's compiled form, which depends on nothing else: built once per process
    (its θ tables, one per number of labels a set can hold, took 8 µs of a 250 µs fit on 150 rows).
    The grower only reads its arrays."""
    a, b = label_pairs(n_labels)
    ints = np.concatenate([[int(complete), n_labels, len(a)], a, b]).astype(np.int64)
    # θ tables for every number of labels a set can hold (only n_labels for complete rankings):
    # table_x[m] = (x_first, 1 / step, the row of m's pieces in `table`).
    held = [n_labels] if complete else list(range(2, n_labels + 1))
    first = theta_inverse_table(n_labels)[2]
    table = np.zeros((len(held),) + first.shape)
    table_x = np.zeros((n_labels + 1, 3))
    for row, m in enumerate(held):
        x_first, inverse_step, coefficients = theta_inverse_table(m)
        table[row], table_x[m] = coefficients, (x_first, inverse_step, row)
    # floats[0]: the form of the score (kernels._spread_term): the θ floor of the variance, 0 for
    # eq. (6)'s spread, MALLOWS_IMPURITY for the impurity.
    form = {"variance": THETA_FLOOR, "spread": 0.0, "impurity": kernels.MALLOWS_IMPURITY}[split]
    return CriterionSpec(kernels.MALLOWS, ints, np.array([form]), table, table_x, searches_other_score=True)

