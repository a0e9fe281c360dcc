"""Replaying the growth of a fitted tree one split at a time (the app's growth player).

The tree found does not depend on the order in which nodes are expanded, so
any order of its splits rebuilds it: depth-first, as TDIDT's recursion, or
best-first, the split that adds most to the summed similarity first.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from .structure import Tree

__all__ = ["split_sequence", "level_stops", "GrowthStep", "growth_step", "iter_growth"]


def split_sequence(tree: Tree, order: str = "depth") -> np.ndarray:
    """The internal nodes of a fitted tree in the order they are split.

    Parameters
    ----------
    tree : Tree
    order : {"depth", "best", "level"}
        ``"depth"``: depth-first, left ("yes") branch first, as TDIDT's
        recursion. ``"best"``: best-first, always the open node whose split
        adds most to the summed similarity, ``n * (S_split - S_node)``.
        ``"level"``: breadth-first, one depth level after the other, each
        from left to right (see :func:`level_stops`).

    Returns
    -------
    ndarray of int
    """
    if order not in ("depth", "best", "level"):
        raise ValueError(f"order must be 'depth', 'best' or 'level', got {order!r}")
    if order == "level":
        # Depth-first order lists each level's nodes from left to right: a
        # stable sort by depth keeps that order within every level.
        depth_first = split_sequence(tree, "depth")
        return depth_first[np.argsort(np.asarray(tree.depth)[depth_first], kind="stable")]
    gain = tree.n_samples * (tree.split_score - tree.similarity)
    sequence, heap, counter = [], [], 0
    if not tree.is_leaf[0]:
        heap.append((0.0, 0, 0))
    while heap:
        if order == "best":
            _, _, node = heapq.heappop(heap)
        else:
            _, _, node = heap.pop()
        sequence.append(node)
        # Depth-first pops from the end: push right first so left comes next.
        for child in (tree.children_right[node], tree.children_left[node]):
            if not tree.is_leaf[child]:
                counter += 1
                item = (-gain[child], counter, child)
                if order == "best":
                    heapq.heappush(heap, item)
                else:
                    heap.append(item)
    return np.asarray(sequence, dtype=np.intp)


def level_stops(tree: Tree, sequence: Sequence[int] | np.ndarray) -> np.ndarray:
    """The steps of ``sequence`` (a :func:`split_sequence` of order ``"level"``) at which a depth level is complete.

    Step ``stops[d]`` is the tree grown to depth ``d``: ``stops[0] == 0`` (the
    root alone), the last is ``len(sequence)`` (the whole tree).

    Returns
    -------
    ndarray of int, shape (max_depth + 1,)
    """
    depths = np.asarray(tree.depth)[np.asarray(sequence, dtype=np.intp)]
    if np.any(np.diff(depths) < 0):
        raise ValueError("level_stops needs the splits level by level (split_sequence(tree, 'level'))")
    return np.r_[0, np.searchsorted(depths, np.arange(int(depths.max()) + 1 if len(depths) else 0), side="right")]


@dataclass(frozen=True)
class GrowthStep:
    """One step of growth: the tree after ``step`` splits.

    ``node`` is the id, in ``tree``, of the node split last (-1 at step 0).
    """

    step: int
    tree: Tree
    node: int


def growth_step(tree: Tree, sequence: Sequence[int] | np.ndarray, step: int) -> GrowthStep:
    """The tree after the first ``step`` splits of ``sequence``."""
    partial, node_map = tree.keep_splits(sequence[:step])
    last = -1
    if step > 0:
        last = int(np.flatnonzero(node_map == sequence[step - 1])[0])
    return GrowthStep(step=step, tree=partial, node=last)


def iter_growth(tree: Tree, order: str = "depth") -> Iterator[GrowthStep]:
    """Yield the tree one split at a time, from the root alone to the full tree.

    Yields
    ------
    GrowthStep
    """
    sequence = split_sequence(tree, order)
    for step in range(len(sequence) + 1):
        yield growth_step(tree, sequence, step)
