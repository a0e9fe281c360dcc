"""The attributes each node of a randomised tree is searched on (the split-level draws of random forests).

Attribute ``f`` of node ``i`` gets the key ``mix(mix(s + i g) + (f + 1) g)``
in 64-bit arithmetic (``s`` an integer drawn from the tree's ``random_state``,
``g`` the golden ratio :data:`GOLDEN`, ``mix`` the SplitMix64 finaliser of
Steele, Lea & Flood 2014, :func:`splitmix64`); a node searches the
attributes of its ``max_features`` smallest keys. The keys depend
on nothing but ``s``, the node and the attribute, so the NumPy builder
(:func:`drawn_features`, all nodes of a level at once) and the compiled grower
(``rankviz.tree.compiled.kernels.draw_features``, one node at a time, with
:func:`splitmix64` compiled) draw the same attributes whatever order they
grow their nodes in.

References
----------
.. [1] G. L. Steele, D. Lea and C. H. Flood, "Fast splittable pseudorandom
   number generators", OOPSLA 2014, pp. 453-472.
.. [2] L. Breiman, "Random forests", Machine Learning 45(1), pp. 5-32, 2001.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["GOLDEN", "drawn_features", "splitmix64"]

#: The 64-bit golden ratio, SplitMix64's increment.
GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def splitmix64(z: Any) -> Any:
    """The finaliser of SplitMix64: a bijection of 64-bit words that scrambles them.

    Plain arithmetic on ``np.uint64`` words or arrays, so that Numba compiles
    this very function for the compiled grower.

    Parameters
    ----------
    z : np.uint64 or ndarray of np.uint64

    Returns
    -------
    np.uint64 or ndarray of np.uint64
    """
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def drawn_features(seed: int, nodes: np.ndarray, n_features: int, max_features: int) -> np.ndarray:
    """The ``max_features`` attributes each of ``nodes`` is searched on (the module's keys).

    Parameters
    ----------
    seed : int
        The tree's seed (>= 0).
    nodes : ndarray of int
        Node ids.
    n_features, max_features : int
        Attributes in all, and drawn per node.

    Returns
    -------
    ndarray of bool, shape (len(nodes), n_features)
    """
    with np.errstate(over="ignore"):  # 64-bit words wrap, as they should
        base = splitmix64(np.uint64(seed) + np.asarray(nodes, dtype=np.uint64) * GOLDEN)
        keys = splitmix64(base[:, None] + (np.arange(n_features, dtype=np.uint64) + np.uint64(1)) * GOLDEN)
    order = np.argsort(keys, axis=1, kind="stable")
    drawn = np.zeros((len(nodes), n_features), dtype=bool)
    np.put_along_axis(drawn, order[:, :max_features], True, axis=1)
    return drawn
