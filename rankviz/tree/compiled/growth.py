"""Growing a ranking tree node by node in compiled code (Numba): the fast path of the builder.

The NumPy search (:mod:`rankviz.tree.builder`) grows one depth at a time and
pays a fixed cost per depth; a tree that is a deep chain (noisy rankings
peeled off a few rows at a time) pays it hundreds of times. Here every node
costs what its rows cost:

* Rows are sorted once per numeric attribute. Each node owns one segment
  ``[start, end)`` of every attribute's order, and splitting it partitions
  each segment stably into its children's, so no node sorts again (the
  presorting of early CART implementations [1]_).
* A node's thresholds are scored in one pass over each attribute's segment,
  keeping running sums of the criterion's row statistics (or, for complete
  rankings, a state that costs less per row: level counts for Gini, summed
  distances between rows for the ranking impurity, Borda orders and Kendall
  distances for Mallows) and scoring each candidate with the criterion's
  formula for one split (:mod:`rankviz.tree.compiled.kernels`).
* Nodes are split in breadth-first order, so they get the ids the level-wise
  search gives them, and every decision follows the NumPy search: ties
  within 1e-12 go to the widest margin (the gap a threshold lies in over the
  node's range of its attribute), then the lowest threshold and the earliest
  attribute,
  missing values go to the better side with "no" on ties, and rule (6) of
  Rebelo, Soares & Costa (2008) [2]_ decides with the same breakpoint.

Compiled code is cached on disk (``cache=True``, in a per-user folder:
:mod:`rankviz.numba_cache`), so only its first build compiles (tens of
seconds of CPU); :mod:`rankviz.jit` builds it in the background while fits
use the NumPy search, and ``rankviz warm-up``
(:func:`rankviz.tree.compiled.warm.warm_up`) builds it ahead.

References
----------
.. [1] M. Mehta, R. Agrawal and J. Rissanen, "SLIQ: A fast scalable classifier
       for data mining", EDBT 1996 (pre-sorted attribute lists).
.. [2] C. Rebelo, C. Soares and J. Pinto da Costa, "Empirical evaluation of
       ranking trees on some metalearning problems", PlanLearn workshop at
       ICML/COLT/UAI 2008.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .kernels import grow
from .specs import CriterionSpec

__all__ = ["GrownNodes", "grow_nodes"]

#: Nodes whose summed statistics the grower first keeps room for (a power of two); it doubles the room
#: when more wait to be searched.
FIRST_FRONTIER = 1024


@dataclass(frozen=True)
class GrownNodes:
    """The node columns of a grown tree (``size`` nodes) and the leaf of every row."""

    children_left: np.ndarray
    children_right: np.ndarray
    feature: np.ndarray
    threshold: np.ndarray
    missing_left: np.ndarray
    split_feature: np.ndarray
    split_threshold: np.ndarray
    split_score: np.ndarray
    similarity: np.ndarray
    depth: np.ndarray
    count: np.ndarray
    #: Mallows of complete rankings: each node's Kendall distance to its Borda centre (NaN otherwise)
    distance: np.ndarray
    node_of_row: np.ndarray


def grow_nodes(X: np.ndarray, nominal: np.ndarray, stats: np.ndarray, spec: CriterionSpec, *,
               gamma: float, min_samples_leaf: int, max_depth: float, capacity: int,
               max_features: int | None = None, feature_seed: int = 0) -> GrownNodes:
    """Grow the tree's nodes; the arguments are those of :func:`rankviz.tree.builder.grow_tree`.

    ``stats`` are the criterion's row statistics and ``spec`` its compiled
    form (:func:`rankviz.tree.compiled.specs.criterion_spec`).
    """
    n = X.shape[0]
    numeric = np.flatnonzero(~nominal)
    index_type = np.int32 if n < 2**31 - 1 else np.int64
    columns = np.ascontiguousarray(X.T, dtype=float)
    # One column at a time: sorting the whole table at once would hold an int64 copy of it and of X
    # (measured: a third of the peak memory on a million rows).
    order = np.empty((len(numeric), n), dtype=index_type)
    if n < QUICKSORT_FROM:  # small tables: one call for all columns, where a call per column costs more than its sort
        order[:] = np.argsort(columns[numeric], axis=1, kind="stable")
    else:
        for row, feature in enumerate(numeric):
            order[row] = stable_order(columns[feature])
    missing = np.isnan(X[:, numeric]).any(axis=0)
    depth_limit = -1 if not math.isfinite(max_depth) else int(max_depth)
    stats = np.ascontiguousarray(spec.augmented_statistics(np.asarray(stats, dtype=float)), dtype=float)
    arrays = grow(columns, nominal, numeric, missing, order, stats, spec.row_levels(stats), spec.row_codes(stats),
                  spec.kind, spec.ints, spec.floats, spec.table, spec.table_x, spec.score_bounds(),
                  spec.searches_other_score, float(gamma), int(min_samples_leaf), depth_limit, int(capacity),
                  FIRST_FRONTIER, 0 if max_features is None else int(max_features), int(feature_seed))
    size = int(arrays[-1])
    # The node columns trimmed to the nodes grown, then the last field, node_of_row (one per row).
    fields = [a[:size] for a in arrays[:-2]] + [arrays[-2]]
    return GrownNodes(*fields)


#: Rows from which :func:`stable_order` sorts by quicksort twice rather than by NumPy's merge sort.
QUICKSORT_FROM = 1_500


def stable_order(values: np.ndarray) -> np.ndarray:
    """``np.argsort(values, kind="stable")``: NaN last, equal values in row order, in a third of its time.

    The scans add a node's rows to their running sums in this order, as the
    NumPy builder does. NumPy's stable sort of floats is a merge sort; its
    quicksort is vectorised, but leaves equal values in any order. So the
    values are sorted by quicksort, numbered by distinct value (NaN all
    alike), and the (number, row) pairs, packed in one unsigned 64-bit key,
    sorted by quicksort again (16 columns of 40,000 rows with 1,000 values
    each: 35 -> 13 ms). Below :data:`QUICKSORT_FROM` rows the merge sort is
    the faster (1,000 rows: 15 against 25 µs; 2,000: 68 against 44 µs).
    """
    n = len(values)
    if n < QUICKSORT_FROM or n >= 2**32:
        return np.argsort(values, kind="stable")
    by_value = np.argsort(values)
    ordered = values[by_value]
    distinct = np.empty(n, dtype=np.uint64)
    distinct[0] = 0
    changes = ordered[1:] != ordered[:-1]
    changes[n - np.isnan(values).sum():] = False  # NaN (last) are one value, not each its own
    np.cumsum(changes, out=distinct[1:])
    keys = (distinct << np.uint64(32)) | by_value.astype(np.uint64)
    keys.sort()
    return (keys & np.uint64(0xFFFFFFFF)).astype(np.intp)

