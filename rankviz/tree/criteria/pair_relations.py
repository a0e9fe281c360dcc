"""How each ranking orders each pair of labels: the statistics of the criteria for rankings with ties.

A ranking with ties puts a pair of labels ``i < j`` in one of three
relations: ``i`` before ``j``, tied, ``j`` before ``i`` (none if it lacks
either label). Per row, one indicator per relation and pair; summed over a
set they are the set's precedence counts, all the partial label ranking
criteria of Alfaro, Aledo & Gámez (2021) need.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .base import Criterion

__all__ = ["PairRelationCriterion", "pair_relations"]


def pair_relations(Y: ArrayLike) -> np.ndarray:
    """Indicators of the three relations of every pair of labels, per ranking.

    Parameters
    ----------
    Y : array-like of shape (n_rows, n_labels)
        Rank positions (lower = preferred, equal = tied, NaN = missing).

    Returns
    -------
    ndarray of float, shape (n_rows, 3 * n_pairs)
        The pairs ``i < j`` in :func:`numpy.triu_indices` order, three
        blocks: before, tied, after (all 0 where a label is missing).

    Examples
    --------
    >>> pair_relations([[1, 2, 2]]).tolist()  # pairs (a, b), (a, c), (b, c)
    [[1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]]
    """
    Y = np.asarray(Y, dtype=float)
    first, second = np.triu_indices(Y.shape[1], k=1)
    difference = Y[:, first] - Y[:, second]  # NaN where a label is missing: no relation
    n_pairs = len(first)
    # written into one table (a stack and a conversion copied it twice)
    relations = np.empty((len(Y), 3 * n_pairs))
    np.less(difference, 0, out=relations[:, :n_pairs])
    np.equal(difference, 0, out=relations[:, n_pairs:2 * n_pairs])
    np.greater(difference, 0, out=relations[:, 2 * n_pairs:])
    return relations


class PairRelationCriterion(Criterion):
    """Base of the criteria of Alfaro, Aledo & Gámez (2021): rows of :func:`pair_relations` as statistics.

    Subclasses give the similarity (and the impurity) of a set from its
    summed relations, its precedence counts.

    References
    ----------
    .. [1] J. C. Alfaro, J. A. Aledo and J. A. Gámez, "Learning decision trees
           for the partial label ranking problem", International Journal of
           Intelligent Systems 36(2), pp. 890-918, 2021.
    """

    authors = "Alfaro, Aledo & Gámez"
    year = 2021
    statistics_note = "three indicators per pair of labels"

    def statistics_width_for(self, n_labels: int, complete: bool = False) -> int:
        return 3 * n_labels * (n_labels - 1) // 2

    def row_statistics(self, Y: ArrayLike) -> np.ndarray:
        Y = np.asarray(Y, dtype=float)
        self.n_labels_ = Y.shape[1]
        return pair_relations(Y)
