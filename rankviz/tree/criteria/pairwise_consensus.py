"""The disagreements and distance criteria of the partial label ranking trees of Alfaro, Aledo & Gámez (2021).

Both judge a set of rankings (ties allowed) against its own consensus, the
bucket order of the pivot algorithm BPA-LIA-MP2
(:func:`rankviz.label_ranking.bucket_order.bucket_orders_from_pair_counts`). For
each pair of labels ``i < j`` the set holds ``a`` rankings with ``i`` before
``j``, ``t`` with the two tied and ``b`` with ``j`` before ``i`` (``T = a + t +
b``); the consensus orders the pair one of the three ways.

* *Disagreements*: the share of the rankings whose relation differs from the
  consensus', ``(t + b) / T``, ``(a + b) / T`` or ``(a + t) / T`` (consensus
  ``i`` before ``j``, tied, after), averaged over the pairs; in [0, 1].
* *Distance*: the mean L1 distance of the rankings' pair-order matrices
  (entries 1, 1/2, 0) from the consensus', summed over the pairs: a tie against
  an order costs 1, a reversal 2, so per pair ``(t + 2b) / T``, ``(a + b) / T``
  or ``(2a + t) / T``; in [0, L(L-1)].

A pair no ranking of the set holds both labels of costs 0. The statistics are
the precedence counts, additive over rows (:mod:`.pair_relations`); the
consensus is not, so every candidate subset of a split search gets its own
bucket order, all of them in one compiled call. The similarity that rule (6)
of Rebelo, Soares & Costa (2008) uses is 1 minus the impurity over its
maximum, and a split scores the size-weighted mean of its subsets'
similarities: the split of the largest weighted gain, as Alfaro et al. choose.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ...label_ranking.bucket_order import DEFAULT_BETA, bucket_orders_from_pair_counts, check_consensus, labels_of_pairs
from .pair_relations import PairRelationCriterion

#: Sets whose precedence tables are built at once (their labels x labels tables, a few of each).
_BLOCK_CELLS = 1 << 21

_REFERENCES = """
    References
    ----------
    .. [1] J. C. Alfaro, J. A. Aledo and J. A. Gámez, "Learning decision trees
           for the partial label ranking problem", International Journal of
           Intelligent Systems 36(2), pp. 890-918, 2021.
    .. [2] C. Rebelo, C. Soares and J. Pinto da Costa, "Empirical evaluation of
           ranking trees on some metalearning problems", Proceedings of the 2nd
           Planning to Learn Workshop (PlanLearn) at ICML/COLT/UAI 2008, 2008.
"""


class _ConsensusCriterion(PairRelationCriterion):
    """A set's cost against its bucket-order consensus, per pair of labels; subclasses give the costs."""

    #: The cost of each of the rankings' relations (before, tied, after) when the consensus puts the
    #: pair before, tied or after: rows the consensus' relation, columns the rankings'.
    costs = np.zeros((3, 3))
    #: The most a pair can cost.
    worst_pair_cost = 1.0
    #: The impurity sums the pairs' costs (the distance) rather than averaging them (the disagreements).
    summed_over_pairs = False

    def __init__(self, beta: float = DEFAULT_BETA) -> None:
        check_consensus("bucket_order", beta)
        self.beta = beta

    def pair_costs(self, count: ArrayLike, stat_sum: ArrayLike) -> np.ndarray:
        """The cost of each pair of labels, of sets with these sums, against each set's consensus.

        Parameters
        ----------
        count : array-like of int
            Rows of each set (any shape; the pairs' own totals are used).
        stat_sum : array-like of float
            Summed :meth:`row_statistics`, the shape of ``count`` plus the statistics.

        Returns
        -------
        ndarray of float
            The shape of ``count`` plus one axis of the pairs (``numpy.triu_indices`` order).
        """
        sums = np.asarray(stat_sum, dtype=float)
        shape, width = sums.shape[:-1], sums.shape[-1]
        n_pairs = width // 3
        n_labels = labels_of_pairs(n_pairs)
        flat = sums.reshape(-1, width)
        costs = np.zeros((len(flat), n_pairs))
        if not n_pairs:
            return costs.reshape(*shape, 0)
        first, second = np.triu_indices(n_labels, k=1)
        block = max(1, _BLOCK_CELLS // (n_labels * n_labels))
        for start in range(0, len(flat), block):  # a block of sets at a time
            part = flat[start:start + block]
            ahead, tie, behind = np.split(part, 3, axis=1)
            consensus = bucket_orders_from_pair_counts(ahead, tie, behind, self.beta)
            # the consensus' relation of each pair: 0 before, 1 tied, 2 after
            relation = 1 + np.sign(consensus[:, first] - consensus[:, second]).astype(int)
            relations = part.reshape(len(part), 3, n_pairs)
            total = relations.sum(axis=1)
            paid = np.einsum("spk,skp->sp", self.costs[relation], relations)
            with np.errstate(invalid="ignore", divide="ignore"):
                costs[start:start + block] = np.where(total > 0, paid / total, 0.0)
        return costs.reshape(*shape, n_pairs)

    def impurity(self, count: ArrayLike, stat_sum: ArrayLike) -> np.ndarray:
        """The pairs' costs of sets with these sums, averaged (or summed, for the distance) over the pairs.

        Parameters
        ----------
        count : array-like of int
            Rows of each set (any shape).
        stat_sum : array-like of float
            Summed :meth:`row_statistics`, the shape of ``count`` plus the statistics.

        Returns
        -------
        ndarray of float
            Of the shape of ``count``: in [0, 1] for the disagreements, [0, L(L-1)] for the distance.
        """
        costs = self.pair_costs(count, stat_sum)
        if not costs.shape[-1]:
            return np.zeros(np.shape(count))
        return costs.sum(axis=-1) if self.summed_over_pairs else costs.mean(axis=-1)

    def node_similarity(self, count: ArrayLike, stat_sum: ArrayLike) -> np.ndarray:
        costs = self.pair_costs(count, stat_sum)
        if not costs.shape[-1]:
            return np.ones(np.shape(count))
        return 1.0 - costs.mean(axis=-1) / self.worst_pair_cost


class PairwiseDisagreements(_ConsensusCriterion):
    __doc__ = """Similarity = 1 - the share of the rankings that disagree with the set's bucket order, per pair.

    The disagreements criterion of the partial label ranking trees of Alfaro,
    Aledo & Gámez (2021) [1]_, against the bucket order of BPA-LIA-MP2; the
    similarity serves stopping rule (6) of Rebelo, Soares & Costa (2008) [2]_.
    Rankings may tie labels and lack labels.

    Parameters
    ----------
    beta : float, default=0.25
        The tie threshold of the consensus (fixed at 0.25 by Alfaro et al.).
""" + _REFERENCES + """
    Examples
    --------
    The worked node of three rankings: the consensus ties ``a`` and ``b``
    ahead of ``c``; two of three rankings disagree on (a, b), none on (a, c),
    one on (b, c):

    >>> import numpy as np
    >>> from rankviz.tree import get_criterion
    >>> criterion = get_criterion("pairwise_disagreements")
    >>> stats = criterion.row_statistics(np.array([[1, 2, 2], [1, 1, 2], [2, 1, 3]]))
    >>> round(float(criterion.impurity(3, stats.sum(axis=0))), 6)
    0.333333
    """

    name = "pairwise_disagreements"
    title = "Disagreements"
    similarity_label = "1 - mean share of rankings disagreeing with the bucket order, per pair"
    # the consensus before/tied/after (rows) against the rankings' before/tied/after (columns)
    costs = np.array([[0.0, 1.0, 1.0], [1.0, 0.0, 1.0], [1.0, 1.0, 0.0]])



class PairwiseDistance(_ConsensusCriterion):
    __doc__ = """Similarity = 1 - the mean distance of the rankings from the set's bucket order, over its maximum.

    The distance criterion of the partial label ranking trees of Alfaro,
    Aledo & Gámez (2021) [1]_: the L1 distance of pair-order matrices, a tie
    against an order costing 1 and a reversal 2; the similarity (the
    impurity over its maximum ``L(L-1)``, taken from 1) serves stopping rule
    (6) of Rebelo, Soares & Costa (2008) [2]_. Rankings may tie labels and
    lack labels.

    Parameters
    ----------
    beta : float, default=0.25
        The tie threshold of the consensus (fixed at 0.25 by Alfaro et al.).
""" + _REFERENCES + """
    Examples
    --------
    The worked node of three rankings (consensus ``a ~ b > c``): (a, b) costs
    2/3, (a, c) nothing, (b, c) 1/3:

    >>> import numpy as np
    >>> from rankviz.tree import get_criterion
    >>> criterion = get_criterion("pairwise_distance")
    >>> stats = criterion.row_statistics(np.array([[1, 2, 2], [1, 1, 2], [2, 1, 3]]))
    >>> round(float(criterion.impurity(3, stats.sum(axis=0))), 6)
    1.0
    """

    name = "pairwise_distance"
    title = "Distance"
    similarity_label = "1 - mean L1 distance of pair-order matrices from the bucket order, over L(L-1)"
    costs = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 1.0], [2.0, 1.0, 0.0]])
    worst_pair_cost = 2.0
    summed_over_pairs = True
