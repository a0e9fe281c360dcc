"""Worked examples of the impurities of Xia, Zhang & Wang (2006), for the teaching panel.

Everything is computed with the library's own criteria
(:mod:`rankviz.tree.criteria`), so the numbers shown are the ones the trees use.
Definitions 1 and 2, eq. (1) and Fig. 1 are those of Xia et al. [1]_.

References
----------
.. [1] F. Xia, W. Zhang and J. Wang, "An effective tree-based algorithm for
       ordinal regression", IEEE Intelligent Informatics Bulletin, vol. 7,
       no. 1, pp. 22-26, 2006.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ..tree.criteria import Gini, RankingImpurity

__all__ = ["impurities_of_counts", "figure1_splits"]


def impurities_of_counts(counts: ArrayLike, positions: ArrayLike | None = None) -> pd.DataFrame:
    """Both impurities, and the similarities of rule (6), of sets given by level counts.

    Rule (6) is the stopping rule of Rebelo, Soares & Costa (2008).

    Parameters
    ----------
    counts : array-like of shape (n_sets, K) or (K,)
        Rows of each set at each level, lowest level first.
    positions : array-like of shape (K,), optional
        The levels' positions (distances between levels); ``1..K`` by default.

    Returns
    -------
    DataFrame
        One row per set: ``n``, ``gini`` (Definition 1), ``ranking_impurity``
        (Definition 2), ``gini_similarity``, ``ranking_similarity``.
    """
    counts = np.atleast_2d(np.asarray(counts, dtype=float))
    positions = (np.arange(1.0, counts.shape[1] + 1) if positions is None
                 else np.asarray(positions, dtype=float))
    if counts.shape[1] != len(positions):
        raise ValueError(f"counts have {counts.shape[1]} levels but positions {len(positions)}")
    # One row per level, repeated by the largest count, lets the criteria fix
    # the level layout; each set's statistics are then its counts' sums.
    rows = positions[:, None]
    table = {"n": counts.sum(axis=1)}
    for criterion, key in ((Gini(), "gini"), (RankingImpurity(), "ranking")):
        per_level = criterion.row_statistics(rows)
        sums = counts @ per_level
        table["gini" if key == "gini" else "ranking_impurity"] = criterion.impurity(table["n"], sums)
        table[f"{key}_similarity"] = criterion.node_similarity(table["n"], sums)
    return pd.DataFrame(table)[["n", "gini", "ranking_impurity", "gini_similarity",
                                "ranking_similarity"]]


def figure1_splits(a: int) -> pd.DataFrame:
    """The two splits of Xia, Zhang & Wang (2006), Fig. 1, with ``a`` rows at each rating 1..4.

    The left split sends ratings {1, 2} left and {3, 4} right, the right split
    {1, 3} left and {2, 4} right. Weighted Gini is the same (1/2) for both;
    the summed ranking impurity of the children is ``2a^2`` versus ``4a^2``.

    Returns
    -------
    DataFrame
        One row per split: ``split``, ``left``, ``right`` (ratings sent each
        way), ``gini_left``, ``gini_right``, ``weighted_gini``,
        ``rank_left``, ``rank_right``, ``rank_sum``, ``gini_gain`` and
        ``rank_gain`` (eq. 1, unweighted).
    """
    if not (isinstance(a, (int, np.integer)) and a >= 1):
        raise ValueError(f"a must be a whole number of rows >= 1, got {a!r}")
    parent = impurities_of_counts([[a, a, a, a]]).iloc[0]
    rows = []
    for name, left in (("left tree", (1, 2)), ("right tree", (1, 3))):
        right = tuple(r for r in (1, 2, 3, 4) if r not in left)
        counts = np.array([[a if r in side else 0 for r in (1, 2, 3, 4)] for side in (left, right)])
        child = impurities_of_counts(counts)
        weighted = float((child["n"] * child["gini"]).sum() / child["n"].sum())
        rank_sum = float(child["ranking_impurity"].sum())
        rows.append({
            "split": name, "left": left, "right": right,
            "gini_left": float(child["gini"][0]), "gini_right": float(child["gini"][1]),
            "weighted_gini": weighted,
            "rank_left": float(child["ranking_impurity"][0]),
            "rank_right": float(child["ranking_impurity"][1]), "rank_sum": rank_sum,
            "gini_gain": float(parent["gini"]) - weighted,
            "rank_gain": float(parent["ranking_impurity"]) - rank_sum,
        })
    return pd.DataFrame(rows)
