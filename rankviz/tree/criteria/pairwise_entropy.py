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
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .pair_relations import PairRelationCriterion

#: Shares below this count as none (the reference implementation's cut, which keeps log2 finite).
_SMALLEST_SHARE = 1e-5
_MAX_ENTROPY = float(np.log2(3.0))


class PairwiseEntropy(PairRelationCriterion):
    """Similarity = 1 - mean over label pairs of the entropy of (before, tied, after), over its maximum.

    The entropy criterion of the partial label ranking trees of Alfaro, Aledo
    & Gámez (2021) [1]_; the similarity serves stopping rule (6) of Rebelo,
    Soares & Costa (2008) [2]_. Rankings may tie labels and lack labels.

    Attributes
    ----------
    n_labels_ : int
        Labels of the rankings (set by ``row_statistics``).

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
        relations = sums.reshape(*sums.shape[:-1], 3, n_pairs)
        total = relations.sum(axis=-2, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            share = relations / total
        kept = share >= _SMALLEST_SHARE  # False for NaN (a pair the set never holds): entropy 0
        safe = np.where(kept, share, 1.0)
        entropy = -np.where(kept, safe * np.log2(safe), 0.0).sum(axis=-2)
        return entropy.mean(axis=-1) if n_pairs else np.zeros(np.shape(count))

    def node_similarity(self, count: ArrayLike, stat_sum: ArrayLike) -> np.ndarray:
        return 1.0 - self.impurity(count, stat_sum) / _MAX_ENTROPY
