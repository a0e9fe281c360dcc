"""Compile every function of the tree builder's compiled code, for every kind of argument a fit passes.

Numba compiles a function the first time it is called with a new
combination of argument types, and only then. A warm-up must therefore call
each compiled function the way fits do: the grower (one signature serves all
criteria: the criterion's kind is an argument, not a type), the Mallows
helpers (:func:`~rankviz.tree.compiled.kernels.augmented_pair_statistics`,
:func:`~rankviz.tree.compiled.kernels.pair_codes` and
:func:`~rankviz.tree.compiled.kernels.theta_bounds` with
:func:`~rankviz.tree.compiled.kernels.spread_bounds`), and the sums of the
Mallows node models (:func:`~rankviz.tree.compiled.kernels.node_sums`,
:func:`~rankviz.tree.compiled.kernels.distances_to_centres`) and the nodes' rankings
(:func:`~rankviz.tree.compiled.kernels.node_rankings`). Tiny trees of
every criterion, on complete, tied and incomplete rankings, with a missing
value and a nominal attribute, take all of those paths.
"""

from __future__ import annotations

import numpy as np

__all__ = ["warm_up"]


def warm_up() -> float:
    """Grow tiny trees of every criterion with the compiled engine; returns the seconds taken.

    The first call with an empty cache compiles (tens of seconds of CPU);
    later ones, and later processes, load the code from Numba's cache
    (:mod:`rankviz.numba_cache`) in a fraction of a second.
    ``rankviz warm-up`` and :meth:`rankviz.jit.LazyKernels.build` call it.

    Returns
    -------
    float
        Wall seconds.
    """
    import time

    from ..builder import grow_tree
    from ..criteria import get_criterion
    from ..mallows_nodes import node_models

    start = time.perf_counter()
    rng = np.random.default_rng(0)
    n = 16
    X = np.column_stack([rng.normal(size=n), rng.integers(0, 3, size=n).astype(float)])
    X[3, 0] = np.nan  # a missing value: the scan that places them
    nominal = np.array([False, True])
    strict = np.argsort(np.argsort(rng.normal(size=(n, 4)), axis=1), axis=1) + 1.0
    tied = strict.copy()
    tied[:4, 1] = tied[:4, 0] = 1.5  # (1, 2) -> (1.5, 1.5): positions tie
    tied[:4, 2:] = np.where(tied[:4, 2:] > 2, tied[:4, 2:], 3.0)
    incomplete = strict.copy()
    incomplete[::3, 2] = np.nan
    shapes = {"mean_spearman": [strict, tied], "ranking_impurity": [strict, incomplete],
              "gini": [strict, incomplete], "mallows": [strict, tied, incomplete], "pairwise_entropy": [tied]}
    for name, targets in shapes.items():
        for Y in targets:
            tree, leaves = grow_tree(X, nominal, Y, get_criterion(name), gamma=np.inf, min_samples_leaf=1,
                                     engine="compiled", return_leaves=True)
            if name == "mallows":
                node_models(tree, X, Y, leaves, engine="compiled")
                tree.extras.pop("node_distance", None)  # and as a tree the NumPy growth made: counted by rows
                node_models(tree, X, Y, leaves, engine="compiled")
    # the nodes' rankings (the builder sorts them in compiled code once the code is ready: not yet, here)
    from . import kernels
    kernels.node_rankings(np.array([[1.0, np.nan, 2.0, 0.0]]))
    return time.perf_counter() - start
