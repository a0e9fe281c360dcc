"""Mallows models in the nodes of a label ranking tree (Cheng, Hühn & Hüllermeier 2009, §5).

After the ``mallows`` criterion has grown a tree, every node gets the
estimate of Cheng et al. of a Mallows model of its training rankings: the
centre and spread θ by the approximate EM of §4.2 over the labels the node
holds (:func:`rankviz.label_ranking.mallows.fit_mallows_groups`). A node
that lacks labels (rows with missing labels can leave a label out of a whole
subset) borrows them from its ancestors as in §5.2: the first ancestor
holding more labels extends the node's ranking by Proposition 1, the next
one extends it further, and so on up to the root.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from . import compiled
from .builder import ENGINES, node_pair_counts, use_compiled
from ..label_ranking.mallows import fit_mallows_groups, label_pairs, most_probable_extension, theta_from_mean_distance
from .structure import Tree, parent_array

__all__ = ["node_models", "complete_from_ancestors"]


def node_models(tree: Tree, X_encoded: ArrayLike, Y: np.ndarray, leaf_of_row: np.ndarray | None = None,
                engine: str = "auto") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Centre rankings (completed from ancestors), θ and Borda positions of every node of ``tree``.

    Parameters
    ----------
    tree : Tree
        A tree grown on ``X_encoded`` and ``Y``.
    X_encoded : ndarray of shape (n_samples, n_features)
    Y : ndarray of shape (n_samples, n_labels)
        Rank positions, NaN = missing.
    leaf_of_row : ndarray of int, shape (n_samples,), optional
        Each row's leaf, as growth left it
        (:func:`rankviz.tree.builder.grow_tree` with ``return_leaves``);
        ``tree.apply(X_encoded)`` when not given.
    engine : {"auto", "compiled", "numpy"}, default="auto"
        Who sums complete rankings over the nodes (as for
        :func:`rankviz.tree.builder.grow_tree`): the same sums either way,
        whole numbers, so the same models.

    Returns
    -------
    ranking : ndarray of shape (node_count, n_labels)
        Each node's predicted ranking, a permutation of ``1..n_labels``.
    theta : ndarray of shape (node_count,)
        The spread MLE of each node's rankings (``inf`` for a pure node).
    mean_position : ndarray of shape (node_count, n_labels)
        The mean Borda position the node's own centre sorts its labels by
        (:attr:`rankviz.label_ranking.mallows.GroupFits.mean_position`);
        NaN for a label the node borrows from an ancestor.
    """
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    if not np.isnan(Y).any():
        # The Borda count of complete rankings sorts by the plain mean position.
        if leaf_of_row is None:
            leaf_of_row = tree.apply(X_encoded)
        return (*_complete_node_models(tree, leaf_of_row, Y, use_compiled(None, engine)), tree.mean_rank)
    parent = parent_array(tree.children_left, tree.children_right)
    paths = tree.decision_paths(X_encoded)
    # Each row belongs to every node on its path; a path repeats its leaf to
    # the end, so keep a node only where it first appears.
    new = np.ones(paths.shape, dtype=bool)
    new[:, 1:] = paths[:, 1:] != paths[:, :-1]
    row = np.broadcast_to(np.arange(len(paths))[:, None], paths.shape)[new]
    fits = fit_mallows_groups(Y[row], paths[new], tree.node_count, only_present=True)
    return complete_from_ancestors(fits.center, parent), fits.theta, fits.mean_position


def _complete_node_models(tree, leaf_of_row, Y, in_compiled_code):
    """Complete rankings: no EM rounds, so every node's model follows from its rows' pair orders, in
    O(rows x depth) work instead of a fit over every (row, ancestor) pair.

    A node's Borda centre is the mean-rank ranking the growth gave it. Without
    ties its distance to the centre is the one the compiled grower summed
    (``tree.extras["node_distance"]``), or is counted row by row as bits
    (:func:`rankviz.tree.compiled.distances_to_centres`); with ties from the
    node's counts of the rows putting either label of a pair first. ``in_compiled_code``
    chooses the compiled counts or their NumPy twins (:func:`rankviz.tree.builder.node_pair_counts`,
    :func:`_distances_to_centres`), which give the same whole numbers.
    """
    n_labels = Y.shape[1]
    a, b = label_pairs(n_labels)
    # Positions compared in float32 (exact for the halves of average positions): half the bytes to copy
    compact = Y.astype(np.float32)
    a_first, b_first = compact[:, a] < compact[:, b], compact[:, b] < compact[:, a]
    count = tree.n_samples.astype(float)
    # A row gives label l the Borda votes L + 1 - Y[l] (ties or not), so a node's votes are (L + 1) * count
    # less its position sums, and ordering by decreasing votes (ties by label order) is ordering by
    # increasing mean position: the mean-rank ranking the growth already gave every node (sums of whole
    # or half numbers, so exactly that order).
    centre = np.array(tree.ranking)
    if not (a_first | b_first).all():
        # With ties a row orders no pair it ties: a node's distance counts, per pair, its rows putting
        # b first where the centre puts a first, else those putting a first (Mallows.total_distance)
        a_ahead, _, b_ahead = node_pair_counts(tree, leaf_of_row, Y, "compiled" if in_compiled_code else "numpy")
        distance = np.where(centre[:, a] < centre[:, b], b_ahead, a_ahead).sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            return centre, theta_from_mean_distance(distance / count, n_labels)
    distance = tree.extras.get("node_distance")
    if distance is None or len(distance) != tree.node_count:
        positions = centre.astype(np.int32)
        parent = parent_array(tree.children_left, tree.children_right)
        distance_of = compiled.distances_to_centres if in_compiled_code else _distances_to_centres
        distance = distance_of(leaf_of_row, _pair_bits(a_first), _pair_bits(positions[:, a] < positions[:, b]),
                               parent)
    with np.errstate(invalid="ignore", divide="ignore"):
        return centre, theta_from_mean_distance(distance / count, n_labels)


def _distances_to_centres(leaf_of_row, row_pairs, centre_pairs, parent):
    """:func:`rankviz.tree.compiled.distances_to_centres` with NumPy: one pass over the rows per depth,
    each row moving from its node to the node's parent (whole numbers: the same sums in any order)."""
    distance = np.zeros(len(parent))
    rows, node = np.arange(len(leaf_of_row)), np.asarray(leaf_of_row, dtype=np.intp)
    while len(rows):
        disagree = _set_bits(row_pairs[rows] ^ centre_pairs[node]).sum(axis=1)
        distance += np.bincount(node, weights=disagree, minlength=len(parent))
        node = parent[node]
        rows, node = rows[node >= 0], node[node >= 0]
    return distance


def _set_bits(words):
    """The number of set bits of each 64-bit word (``np.bitwise_count`` from NumPy 2.0)."""
    if hasattr(np, "bitwise_count"):
        return np.bitwise_count(words)
    return np.unpackbits(words.view(np.uint8), axis=-1).reshape(*words.shape, 64).sum(axis=-1)


def complete_from_ancestors(center: ArrayLike, parent: np.ndarray) -> np.ndarray:
    """Complete partial node rankings from their ancestors (§5.2).

    Parameters
    ----------
    center : ndarray of shape (n_nodes, n_labels)
        Each node's centre over the labels it holds, NaN for the others.
    parent : ndarray of shape (n_nodes,)
        Parent ids, -1 for the root.

    Returns
    -------
    ndarray of shape (n_nodes, n_labels)
        Complete rankings. Labels that not even the root holds (never
        observed in training) go last, in label order.
    """
    completed = np.array(center, dtype=float)
    centers = np.asarray(center)
    for node in np.flatnonzero(np.isnan(completed).any(axis=1)):
        sigma = completed[node]
        ancestor = parent[node]
        while np.isnan(sigma).any() and ancestor >= 0:
            pi = centers[ancestor]
            held = ~np.isnan(pi)
            # Only an ancestor with more label information helps; the node's
            # labels are a subset of its ancestors' (its rows are theirs).
            if held.sum() > (~np.isnan(sigma)).sum():
                extended = most_probable_extension(_rerank(sigma[held]), _rerank(pi[held]))
                sigma = np.full_like(sigma, np.nan)
                sigma[held] = extended
            ancestor = parent[ancestor]
        completed[node] = _append_unseen(sigma)
    return completed


def _rerank(positions):
    """Positions of the present entries as 1..m (order kept), NaN elsewhere."""
    out = np.full(positions.shape, np.nan)
    present = np.flatnonzero(~np.isnan(positions))
    out[present[np.argsort(positions[present], kind="stable")]] = np.arange(1.0, len(present) + 1)
    return out


def _append_unseen(sigma):
    """Put the labels still missing after every other label, in label order."""
    missing = np.isnan(sigma)
    if not missing.any():
        return sigma
    out = _rerank(sigma)
    out[missing] = (~missing).sum() + np.arange(1.0, missing.sum() + 1)
    return out


def _pair_bits(first):
    """Pair indicators (rows x pairs, bool) as bits: rows x 64-bit words, bit k of word k // 64 for pair k."""
    n_rows, n_pairs = first.shape
    bits = np.zeros((n_rows, 64 * -(-n_pairs // 64)), dtype=bool)
    bits[:, :n_pairs] = first
    return np.packbits(bits, axis=1, bitorder="little").view("<u8").astype(np.uint64)
