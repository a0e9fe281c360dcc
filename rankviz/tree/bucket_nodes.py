"""The bucket orders of the nodes of a tree grown on rankings with ties (Alfaro, Aledo & Gámez 2021).

Every node gets the consensus of its training rankings that the partial label
ranking trees of Alfaro et al. predict: the bucket order of the pivot
algorithm BPA-LIA-MP2 (:func:`rankviz.label_ranking.bucket_order.bucket_orders_from_pair_counts`,
all nodes in one compiled call), from the node's counts of the rankings that
order and that tie each pair of labels. The counts are summed over each
leaf's rows and then up the tree, so the rows are visited once.
"""

from __future__ import annotations

import numpy as np

from ..label_ranking.bucket_order import bucket_orders_from_pair_counts
from ..memory import check_memory
from .builder import node_pair_counts
from .structure import Tree

__all__ = ["node_bucket_orders"]


def node_bucket_orders(tree: Tree, Y: np.ndarray, leaf_of_row: np.ndarray, beta: float) -> np.ndarray:
    """The bucket order of every node's training rankings.

    Parameters
    ----------
    tree : Tree
        A tree grown on ``Y``.
    Y : ndarray of shape (n_samples, n_labels)
        Rank positions (equal = tied, NaN = missing).
    leaf_of_row : ndarray of int, shape (n_samples,)
        Each row's leaf.
    beta : float
        The tie threshold of the consensus, in [0, 0.5].

    Returns
    -------
    ndarray of shape (node_count, n_labels)
        Rank positions, tied labels sharing the average of their positions.

    Raises
    ------
    rankviz.exceptions.MemoryLimitError
        If the pair counts of the rows or of the nodes would exceed ``max_memory``.
    """
    n, n_labels = Y.shape
    n_pairs = n_labels * (n_labels - 1) // 2
    # 3 counts per pair for every node (and every row, and two labels x labels tables per node, where the
    # compiled code is not ready)
    check_memory(8 * (3 * n_pairs * (n + tree.node_count) + 2 * n_labels * n_labels * tree.node_count),
                 f"the bucket orders of {tree.node_count:,} nodes count 3 numbers per pair of labels "
                 f"({n_pairs:,} pairs) for every row and node")
    return bucket_orders_from_pair_counts(*node_pair_counts(tree, leaf_of_row, Y), beta)
