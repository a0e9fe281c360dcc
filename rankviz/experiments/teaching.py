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

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ..tree.criteria import Gini, RankingImpurity
from ..tree.ordinal_tree import OrdinalTree
from ..tree.structure import Tree

__all__ = ["impurities_of_counts", "figure1_splits", "three_ratings_splits", "NodeLevels",
           "ordinal_node_levels", "label_ranking_node_levels", "node_impurities"]

#: The ratings of Fig. 1 of Xia et al.
RATINGS = (1, 2, 3, 4)


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


def three_ratings_splits(counts: ArrayLike) -> pd.DataFrame:
    """The three splits of a node with ratings 1, 2, 3 (§III of Xia et al.): both criteria's scores and choices.

    Parameters
    ----------
    counts : array-like of shape (3,)
        ``N1, N2, N3``: the node's rows at each rating.

    Returns
    -------
    DataFrame
        One row per split ``{1} | {2, 3}``, ``{2} | {1, 3}``, ``{1, 2} | {3}``:
        the children's summed ranking impurity, the unweighted ranking gain
        (eq. 1), the weighted Gini and its gain, and whether each criterion
        picks the split (``True`` for every split tied at the best; never for
        a split with an empty side), rounded to 4 decimals.
    """
    counts = np.asarray(counts, dtype=float)
    parent = impurities_of_counts(counts[None, :]).iloc[0]
    rows = []
    for left in ((1,), (2,), (1, 2)):
        right = tuple(r for r in (1, 2, 3) if r not in left)
        sides = np.array([[counts[r - 1] if r in side else 0.0 for r in (1, 2, 3)]
                          for side in (left, right)])
        child = impurities_of_counts(sides)
        n = child["n"].to_numpy()
        weighted = float((n * child["gini"]).sum() / n.sum())
        rank_sum = float(child["ranking_impurity"].sum())
        rows.append({"split": f"{rating_set(left)} | {rating_set(right)}",
                     "I_rank(T_L) + I_rank(T_R)": rank_sum,
                     "ranking gain (eq. 1)": float(parent["ranking_impurity"]) - rank_sum,
                     "weighted Gini": weighted,
                     "Gini gain": float(parent["gini"]) - weighted})
    table = pd.DataFrame(rows)
    # A split with an empty side is no split at all.
    sent_left = [sum(counts[r - 1] for r in left) for left in ((1,), (2,), (1, 2))]
    valid = [0 < k < counts.sum() for k in sent_left]
    for column, best_of in (("ranking impurity picks", "ranking gain (eq. 1)"),
                            ("Gini picks", "Gini gain")):
        gains = table[best_of].where(valid)
        best = gains.max()
        table[column] = [bool(ok and np.isclose(g, best)) for ok, g in zip(valid, gains)]
    return table.round(4)


@dataclass(frozen=True, eq=False)
class NodeLevels:
    """What the node table needs of a fitted tree.

    ``counts[i, l, k]`` is the number of training rows of node ``i`` at level
    ``k`` of label ``l``: one label (the target) for an ordinal tree, one per
    label for a label-ranking tree, whose levels are the rank positions.
    """

    tree: Tree
    counts: np.ndarray
    positions: np.ndarray
    level_names: list[str]
    label_names: list[str]

    @property
    def ordinal(self) -> bool:
        """True for an ordinal tree's one target (no per-label rows in the node table)."""
        return len(self.label_names) == 1 and self.tree.is_ordinal


def ordinal_node_levels(model: OrdinalTree) -> NodeLevels:
    """:class:`NodeLevels` of a fitted :class:`rankviz.OrdinalTree`."""
    tree = model.tree_
    names = [str(c) for c in model.classes_]
    numbered = all(is_number(n) for n in names)
    return NodeLevels(tree, np.asarray(tree.class_counts, dtype=float)[:, None, :],
                      np.asarray(model.positions_, dtype=float),
                      [f"rank {n}" if numbered else n for n in names], list(tree.label_names))


def label_ranking_node_levels(tree: Tree, X_encoded: ArrayLike, Y: ArrayLike) -> NodeLevels:
    """:class:`NodeLevels` of a ranking tree: each node's rows per rank position, per label.

    ``X_encoded`` are the training features as the tree sees them and ``Y``
    the training rank positions (NaN = missing; those rows count for no level
    of that label). Each row counts in every node on its path.
    """
    Y = np.asarray(Y, dtype=float)
    present = ~np.isnan(Y)
    positions = np.unique(Y[present])
    codes = np.searchsorted(positions, np.where(present, Y, positions[0]))
    paths = tree.decision_paths(X_encoded)
    first = np.ones(paths.shape, dtype=bool)  # a row that stopped early repeats its leaf
    first[:, 1:] = paths[:, 1:] != paths[:, :-1]
    row, step = np.nonzero(first)
    node = paths[row, step]
    n_labels, n_levels = Y.shape[1], len(positions)
    counts = np.zeros((tree.node_count, n_labels, n_levels))
    for label in range(n_labels):
        keep = present[row, label]
        np.add.at(counts[:, label, :], (node[keep], codes[row[keep], label]), 1.0)
    names = [f"pos {p:.2f}".rstrip("0").rstrip(".") for p in positions]
    return NodeLevels(tree, counts, positions, names, [str(n) for n in tree.label_names])


def node_impurities(levels: NodeLevels, node: int) -> tuple[pd.DataFrame, dict[str, Any] | None]:
    """Both impurities of a node and, if it is split, of its two children.

    Returns
    -------
    table : DataFrame
        One row per node (and label, for label rankings, with an "all labels"
        row of sums): ``node``, ``label``, ``n``, the level counts, ``Gini``
        and ``ranking impurity``.
    gains : dict or None
        None for a leaf; else ``n`` (parent, left, right), ``gini`` and
        ``rank`` (impurities summed over labels, same order), ``gini_gain``
        (weighted by the children's shares of rows) and ``rank_gain``
        (unweighted, eq. 1).
    """
    tree = levels.tree
    split = not tree.is_leaf[node]
    nodes = [(node, "node")]
    if split:
        nodes += [(int(tree.children_left[node]), "yes-child"),
                  (int(tree.children_right[node]), "no-child")]
    rows: list[dict[str, Any]] = []
    totals: list[tuple[float, float, float]] = []
    for position, role in nodes:
        counts = levels.counts[position]  # (L, K)
        values = impurities_of_counts(counts, levels.positions)
        title = f"#{tree.node_ids[position]} ({role})"
        n_rows = float(tree.n_samples[position])
        for label, (count_row, (_, value)) in enumerate(zip(counts, values.iterrows())):
            row: dict[str, Any] = {"node": title}
            if not levels.ordinal:
                row["label"] = levels.label_names[label]
            row["n"] = int(round(value["n"]))
            row.update({name: int(round(c)) for name, c in zip(levels.level_names, count_row)})
            row.update({"Gini": float(value["gini"]),
                        "ranking impurity": float(value["ranking_impurity"])})
            rows.append(row)
        gini, rank = float(values["gini"].sum()), float(values["ranking_impurity"].sum())
        if not levels.ordinal:
            rows.append({"node": title, "label": "all labels (sum)", "n": int(n_rows),
                         **{name: None for name in levels.level_names},
                         "Gini": gini, "ranking impurity": rank})
        totals.append((n_rows, gini, rank))
    table = pd.DataFrame(rows)
    if not split:
        return table, None
    n, ginis, ranks = (np.array(v) for v in zip(*totals))
    gains = {"n": n, "gini": ginis, "rank": ranks,
             "gini_gain": float(ginis[0] - (n[1] * ginis[1] + n[2] * ginis[2]) / n[0]),
             "rank_gain": float(ranks[0] - ranks[1] - ranks[2])}
    return table, gains


def rating_set(ratings: Iterable[int]) -> str:
    """``{1, 3}``: a set of ratings as the figures and tables write it."""
    return "{" + ", ".join(map(str, ratings)) + "}"


def is_number(text: Any) -> bool:
    """Whether a level name is a finite number (``"3"``), so that it reads as ``rank 3``."""
    try:
        return bool(np.isfinite(float(text)))
    except (TypeError, ValueError):
        return False
