"""Pairwise entropy, the default criterion of the partial label ranking trees of Alfaro, Aledo & Gámez (2021).

A set of rankings (ties allowed) puts each pair of labels ``i, j`` in one of
three relations: ``i`` before ``j``, tied, ``j`` before ``i``. The impurity is
the mean over the pairs of the Shannon entropy (in bits) of the shares of the
three, ``H = -sum_k p_k log2 p_k`` (shares below 1e-5 count as none, as the
reference implementation does); a pair that no ranking of the set holds both
labels of has entropy 0. It needs no consensus, so the statistics are
additive: per row, three indicators per pair (before, tied, after; all 0 where
a label is missing). The similarity used by rule (6) of Rebelo, Soares &
Costa (2008) is ``1 - impurity / log2(3)``: 1 for a set whose rankings agree on
every pair. A split scores the size-weighted mean of its subsets'
similarities, so the best split is the one of the largest weighted gain in
impurity, the choice of Alfaro et al.

The arithmetic is that of counts: with a pair's relations counted ``c_k``
out of ``n``, ``H = log2 n - sum_k c_k log2 c_k / n``, the terms ``c log2 c``
and ``log2 n`` read from tables of the whole numbers up to the rows fitted
(:func:`entropy_tables`). When every row holds every label, every pair's
``n`` is the set's rows, and the mean over the pairs is ``log2 n - (sum of
their c log2 c) / (n n_pairs)``: one logarithm and one division per set
instead of one per pair, and the compiled scan keeps each side's counts of
each pair as whole numbers (wisconsin's 120 pairs: maximal trees 10.0x ->
3.3x CART). The compiled search (:mod:`rankviz.tree.compiled`) reads the same
tables and sums in the same order, pair after pair, so both engines grow the
same tree; it needs no logarithm per candidate.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .pair_relations import PairRelationCriterion

__all__ = ["PairwiseEntropy", "SMALLEST_SHARE", "NO_SHARE_CUT", "MAX_ENTROPY", "entropy_tables"]

#: Shares below this count as none (the reference implementation's cut, which keeps log2 finite).
SMALLEST_SHARE = 1e-5
#: Sets of at most this many rows cut no share (a count of 1 in 100,000 is SMALLEST_SHARE exactly).
NO_SHARE_CUT = 100_000

#: The largest entropy of three relations, log2(3): the impurity of every pair split evenly.
MAX_ENTROPY = float(np.log2(3.0))


def entropy_tables(largest: int) -> tuple[np.ndarray, np.ndarray]:
    """``c log2 c`` and ``log2 c`` for the whole numbers ``c = 0 .. largest`` (0 at ``c = 0``).

    Parameters
    ----------
    largest : int
        The largest count the tables serve (a fit's number of rows).

    Returns
    -------
    xlogx, log_count : ndarray of float, shape (largest + 1,)

    Examples
    --------
    >>> xlogx, log_count = entropy_tables(4)
    >>> xlogx.tolist(), log_count.tolist()
    ([0.0, 0.0, 2.0, 4.754887502163468, 8.0], [0.0, 0.0, 1.0, 1.584962500721156, 2.0])
    """
    counts = np.arange(max(int(largest), 1) + 1, dtype=float)
    log_count = np.zeros_like(counts)
    np.log2(counts[1:], out=log_count[1:])
    return counts * log_count, log_count


def _pair_entropies(ahead: np.ndarray, tie: np.ndarray, behind: np.ndarray,
                    tables: tuple[np.ndarray, np.ndarray] | None) -> np.ndarray:
    """Each pair's entropy (bits) from its three counts, by the arithmetic the compiled search repeats.

    ``H = (kept / n) log2 n - (sum of the kept c log2 c) / n``, the shares below
    :data:`SMALLEST_SHARE` left out (``kept`` the counts kept); 0 where no
    row holds the pair. ``tables`` (:func:`entropy_tables`, for counts that are
    whole numbers within them) give the logarithms; without them they are
    computed.
    """
    total = (ahead + tie) + behind
    with np.errstate(invalid="ignore", divide="ignore"):
        kept_count = np.zeros(total.shape)
        kept_xlogx = np.zeros(total.shape)
        for count in (ahead, tie, behind):  # in this order, as the compiled code adds them
            kept = count / total >= SMALLEST_SHARE  # False where no row holds the pair (NaN)
            if tables is not None:
                xlogx = tables[0][count.astype(np.intp)]
            else:
                xlogx = np.where(count > 0, count * np.log2(count), 0.0)
            kept_count = kept_count + np.where(kept, count, 0.0)
            kept_xlogx = kept_xlogx + np.where(kept, xlogx, 0.0)
        log_total = tables[1][total.astype(np.intp)] if tables is not None else np.log2(total)
        entropy = kept_count / total * log_total - kept_xlogx / total
    return np.where(total > 0, entropy, 0.0)


class PairwiseEntropy(PairRelationCriterion):
    """Similarity = 1 - mean over label pairs of the entropy of (before, tied, after), over its maximum.

    The entropy criterion of the partial label ranking trees of Alfaro, Aledo
    & Gámez (2021) [1]_; the similarity serves stopping rule (6) of Rebelo,
    Soares & Costa (2008) [2]_. Rankings may tie labels and lack labels.

    Attributes
    ----------
    n_labels_ : int
        Labels of the rankings (set by ``row_statistics``).
    tables_ : tuple of ndarray
        :func:`entropy_tables` up to the number of rows (set by ``row_statistics``).
    complete_ : bool
        Whether every row holds every label (set by ``row_statistics``): then
        each pair's relations add up to a set's rows, and a set's impurity
        takes one logarithm instead of one per pair.
    ties_ : bool
        Whether some row ties a pair (set by ``row_statistics``).

    References
    ----------
    .. [1] J. C. Alfaro, J. A. Aledo and J. A. Gámez, "Learning decision trees
           for the partial label ranking problem", International Journal of
           Intelligent Systems 36(2), pp. 890-918, 2021.
    .. [2] C. Rebelo, C. Soares and J. Pinto da Costa, "Empirical evaluation of
           ranking trees on some metalearning problems", Proceedings of the 2nd
           Planning to Learn Workshop (PlanLearn) at ICML/COLT/UAI 2008, 2008.

    Examples
    --------
    Three rankings of three labels: the pair (a, b) is once before, once
    tied, once after (entropy log2 3), (a, c) always before (0), (b, c) twice
    before and once tied (0.918):

    >>> import numpy as np
    >>> from rankviz.tree import get_criterion
    >>> criterion = get_criterion("pairwise_entropy")
    >>> stats = criterion.row_statistics(np.array([[1, 2, 2], [1, 1, 2], [2, 1, 3]]))
    >>> round(float(criterion.impurity(3, stats.sum(axis=0))), 6)
    0.834419
    """

    #: :func:`entropy_tables` up to the rows of the last ``row_statistics`` (None before).
    tables_: tuple[np.ndarray, np.ndarray] | None = None
    complete_: bool = False
    ties_: bool = True

    name = "pairwise_entropy"
    title = "Pairwise entropy"
    similarity_label = "1 - mean pairwise entropy / log2(3)"

    def impurity(self, count: ArrayLike, stat_sum: ArrayLike) -> np.ndarray:
        """Mean over the label pairs of the entropy (bits) of the three relations, of sets with these sums.

        Parameters
        ----------
        count : array-like of int
            Rows of each set (any shape; the pairs' own totals are used).
        stat_sum : array-like of float
            Summed :meth:`row_statistics`, the shape of ``count`` plus the statistics.

        Returns
        -------
        ndarray of float
            In ``[0, log2(3)]``, of the shape of ``count``.
        """
        sums = np.asarray(stat_sum, dtype=float)
        n_pairs = sums.shape[-1] // 3
        if not n_pairs:
            return np.zeros(np.shape(count))
        tables = self.tables_
        if tables is not None and not (np.all((sums >= 0) & (sums < len(tables[0])))
                                       and np.array_equal(sums, np.floor(sums))):
            tables = None  # counts the tables do not hold (fractions, or more than the rows fitted)
        ahead, tie, behind = sums[..., :n_pairs], sums[..., n_pairs:2 * n_pairs], sums[..., 2 * n_pairs:]
        rows = ahead[..., 0] + tie[..., 0] + behind[..., 0]
        if tables is None or not self.complete_ or not np.all(rows < len(tables[1])):
            return self._mean_of_pairs(ahead, tie, behind, tables)
        # Every row holds every label, so each pair's relations add up to the set's rows n:
        # log2 n - (sum of the pairs' c log2 c) / (n n_pairs), one logarithm and one division per set, as the
        # compiled search computes it (the same bits). Sets above NO_SHARE_CUT rows cut small shares.
        xlogx, log_count = tables
        terms = (xlogx[ahead.astype(np.intp)] + xlogx[tie.astype(np.intp)]) + xlogx[behind.astype(np.intp)]
        whole = (log_count[rows.astype(np.intp)]
                 - np.add.accumulate(terms, axis=-1)[..., -1] / (np.maximum(rows, 1.0) * n_pairs))
        if np.all(rows <= NO_SHARE_CUT):
            return whole
        return np.where(rows <= NO_SHARE_CUT, whole, self._mean_of_pairs(ahead, tie, behind, tables))

    @staticmethod
    def _mean_of_pairs(ahead, tie, behind, tables):
        """The mean of the pairs' entropies (:func:`_pair_entropies`), each from its own total."""
        # the pairs summed one after another (an accumulation; a sum's pairwise order would differ from the
        # compiled code's in the last bits)
        return np.add.accumulate(_pair_entropies(ahead, tie, behind, tables), axis=-1)[..., -1] / ahead.shape[-1]

    def node_similarity(self, count: ArrayLike, stat_sum: ArrayLike) -> np.ndarray:
        return 1.0 - self.impurity(count, stat_sum) / MAX_ENTROPY

    def row_statistics(self, Y: ArrayLike) -> np.ndarray:
        stats = super().row_statistics(Y)
        self.tables_ = entropy_tables(len(stats))  # a set's counts are at most the rows
        n_pairs = stats.shape[1] // 3
        # every row holds every label (its relations add up to 1 in each pair); some row ties a pair
        self.complete_ = bool(np.all(stats[:, :n_pairs] + stats[:, n_pairs:2 * n_pairs] + stats[:, 2 * n_pairs:]
                                     == 1.0))
        self.ties_ = bool(stats[:, n_pairs:2 * n_pairs].any())
        return stats
