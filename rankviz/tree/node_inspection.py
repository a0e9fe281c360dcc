"""The node inspector: every candidate split of one node (Rebelo, Soares & Costa 2008, Table 2).

The builder keeps only the best split of each node. To show a student *why*
that split won, and why stopping rule (6) of Rebelo et al. [1]_ did or did
not make it, this module scores all the binary tests of a node again: every
threshold of every numeric attribute and every ``A = v`` test of every
nominal one, with the similarity of both sides, the weighted score
``S_split`` and the γ above which rule (6) accepts the split. No Streamlit
here; :mod:`rankviz.viz.figures.ranking_trees` draws the results.

References
----------
.. [1] C. Rebelo, C. Soares and J. Pinto da Costa, "Empirical evaluation of
       ranking trees on some metalearning problems", Proceedings of the 2nd
       Planning to Learn Workshop (PlanLearn) at ICML/COLT/UAI 2008, 2008.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ..label_ranking.aggregation import mean_ranks
from ..label_ranking.metrics import cs
from .builder import PURE_SIMILARITY, split_margins
from .criteria import Criterion, get_criterion
from .structure import Tree, test_text

__all__ = ["CANDIDATE_COLUMNS", "LEAF_REASONS", "NodeInspection", "NodeRows", "candidate_splits", "inspect_node",
           "leaf_reason", "node_mask", "ordered_rows"]

#: Columns of the table :func:`candidate_splits` returns (``accepted`` only with a γ).
CANDIDATE_COLUMNS = ["feature", "attribute", "kind", "threshold", "condition", "negated",
                     "missing_meet", "n_meet", "similarity_meet", "n_rest", "similarity_rest",
                     "score", "margin", "gamma_breakpoint"]

# Scores this close count as equal, as in the builder: the same split scored
# from other running sums differs in the last bits, and such a tie must go to
# the earlier attribute and the lower threshold, not to rounding.
_TIE = 1e-12


def node_mask(tree: Tree, X_encoded: ArrayLike, node: int) -> np.ndarray:
    """Which rows reach a node of the tree.

    Parameters
    ----------
    tree : Tree
    X_encoded : ndarray of shape (n_rows, n_features)
        Rows encoded as in the fit (see :class:`rankviz.features.FeatureEncoder`).
    node : int
        Node id in ``tree``.

    Returns
    -------
    ndarray of bool, shape (n_rows,)
        True for the rows that meet every test on the path from the root to ``node``.
    """
    # Column k of the decision paths is each row's node at depth k, so the
    # rows through `node` are those whose path holds it at its own depth.
    return tree.decision_paths(X_encoded)[:, tree.depth[node]] == node


def candidate_splits(X_encoded: ArrayLike, nominal: ArrayLike, Y: ArrayLike, rows: ArrayLike,
                     criterion: str | Criterion, *, min_samples_leaf: int = 2,
                     feature_names: Sequence[str], categories: Sequence[Sequence[Any] | None],
                     gamma: float | None = None) -> pd.DataFrame:
    """Every binary split of a set of rows, scored by a criterion.

    The candidates are listed as in Table 2 of Rebelo, Soares & Costa (2008).

    Parameters
    ----------
    X_encoded : ndarray of shape (n_rows, n_features)
        The encoded training features.
    nominal : array-like of bool, shape (n_features,)
        Which columns are nominal codes.
    Y : ndarray of shape (n_rows, n_labels)
        All the training rank positions, not only the node's: some criteria
        fix the layout of their statistics from the whole training set.
    rows : array-like of bool (n_rows,) or of int
        The rows of the node.
    criterion : Criterion or str
    min_samples_leaf : int, default=2
        Candidates leaving fewer rows on either side are left out, as in the fit.
    feature_names : list of str
    categories : list of (list of str or None)
        Category names of each nominal attribute, None for numeric ones.
    gamma : float, optional
        If given, the table gets an ``accepted`` column: rule (6) at this γ.

    Returns
    -------
    DataFrame
        One row per candidate, best first (score descending; within rounding
        ties the widest margin, then the earlier attribute, then the lower
        threshold, so row 0 is the split the builder picks). Columns: ``feature``, ``attribute``,
        ``kind`` ("numeric" or "nominal"), ``threshold`` (the category code
        for a nominal test), ``condition`` (``A2 <= 4.5``, ``A1 = c``),
        ``negated`` (``A2 > 4.5``, ``A1 ≠ c``), ``n_meet``,
        ``similarity_meet``, ``n_rest``, ``similarity_rest``, ``score``
        (``S_split``, the size-weighted mean similarity), ``margin`` (the gap
        a threshold lies in over the node's range of its attribute,
        :func:`rankviz.tree.builder.split_margins`; 0 for a nominal test),
        ``gamma_breakpoint``
        (rule (6) accepts the split for γ above it) and, with ``gamma``,
        ``accepted``. A criterion that searches by another score than
        ``S_split`` (its ``search_label`` is set, e.g. the ranking impurity's
        unweighted gain) adds ``search_score``, and the rows are ordered by
        it. Empty, with these columns, if no test leaves ``min_samples_leaf``
        rows on both sides.
    """
    criterion = get_criterion(criterion)
    stats = criterion.row_statistics(Y)  # first, on all of Y: it fixes the layout
    X_encoded = np.asarray(X_encoded, dtype=float)
    is_nominal = np.asarray(nominal, dtype=bool)
    rows = np.asarray(rows)
    rows = np.flatnonzero(rows) if rows.dtype == bool else rows.astype(np.intp)
    node_stats = stats[rows]
    n = len(rows)
    node_sum = node_stats.sum(axis=0)

    parts = []
    for f in range(X_encoded.shape[1]):
        x = X_encoded[rows, f]
        if is_nominal[f]:
            # One test per value present: "A = v" against the rest.
            codes, inverse = np.unique(x, return_inverse=True)
            one_hot = (inverse[:, None] == np.arange(len(codes))).astype(float)
            meet_count, meet_sum, threshold = one_hot.sum(axis=0), one_hot.T @ node_stats, codes
            margin = np.zeros(len(codes))  # a nominal test has no margin
        else:
            # Sorted by x, the first k rows are the "x <= t" side of a threshold
            # between positions k-1 and k: prefix sums give every side at once.
            # Missing values sort last, so they are on the "rest" side; as in
            # the builder, each threshold also appears with them moved over.
            order = np.argsort(x, kind="stable")
            x = x[order]
            cut = np.flatnonzero(x[1:] > x[:-1])  # last position of each left side
            meet_count = (cut + 1).astype(float)
            meet_sum = np.cumsum(node_stats[order], axis=0)[cut]
            low, high = x[cut], x[cut + 1]
            mid = low / 2.0 + high / 2.0  # as the builder: no overflow
            threshold = np.where(mid < high, mid, low)  # as the builder: never round up to `high`
            present = x[~np.isnan(x)]  # sorted: the node's range is its first and last present value
            margin = split_margins(low, high, present[0], present[-1]) if len(cut) else np.zeros(0)
            missing = np.isnan(x)
            if missing.any() and len(cut):
                moved_sum = node_stats[order][missing].sum(axis=0)
                meet_count = np.concatenate([meet_count, meet_count + missing.sum()])
                meet_sum = np.concatenate([meet_sum, meet_sum + moved_sum])
                threshold = np.concatenate([threshold, threshold])
                margin = np.concatenate([margin, margin])
                missing_meet = np.repeat([False, True], len(cut))
            else:
                missing_meet = np.zeros(len(cut), dtype=bool)
        if is_nominal[f]:
            missing_meet = np.zeros(len(threshold), dtype=bool)
        rest_count = n - meet_count
        keep = (meet_count >= min_samples_leaf) & (rest_count >= min_samples_leaf)
        if not keep.any():
            continue
        meet_count, meet_sum, rest_count = meet_count[keep], meet_sum[keep], rest_count[keep]
        rest_sum = node_sum - meet_sum
        parts.append(pd.DataFrame({
            "feature": f,
            "threshold": threshold[keep],
            "missing_meet": missing_meet[keep],
            "n_meet": meet_count.astype(int),
            "similarity_meet": criterion.node_similarity(meet_count, meet_sum),
            "n_rest": rest_count.astype(int),
            "similarity_rest": criterion.node_similarity(rest_count, rest_sum),
            "score": criterion.split_similarity(meet_count, meet_sum, rest_count, rest_sum),
            "margin": margin[keep],
            **({"search_score": criterion.split_score(meet_count, meet_sum, rest_count, rest_sum)}
               if criterion.search_label else {}),
        }))
    if not parts:
        return _empty_candidates(gamma is not None)

    table = pd.concat(parts, ignore_index=True)
    names = [feature_names[f] for f in table["feature"]]
    kinds = ["nominal" if is_nominal[f] else "numeric" for f in table["feature"]]
    # The tree's own wording, so a row reads exactly as the node it becomes.
    tests = list(zip(table["feature"], table["threshold"]))
    table.insert(1, "attribute", names)
    table.insert(2, "kind", kinds)
    has_missing = np.isnan(X_encoded[rows]).any(axis=0) & ~is_nominal
    suffix = np.where(has_missing[table["feature"].to_numpy()], " or missing", "")
    meet = table["missing_meet"].to_numpy()
    table.insert(4, "condition", [test_text(feature_names, categories, f, t, False) + (x if m else "")
                                  for (f, t), x, m in zip(tests, suffix, meet)])
    table.insert(5, "negated", [test_text(feature_names, categories, f, t, True) + ("" if m else x)
                                for (f, t), x, m in zip(tests, suffix, meet)])

    similarity = criterion.node_similarity(n, node_sum)
    table["gamma_breakpoint"] = criterion.gamma_breakpoint(similarity, table["score"].to_numpy())
    if gamma is not None:
        table["accepted"] = criterion.accepts_split(similarity, table["score"].to_numpy(), gamma)

    # Best first. Scores within rounding of the best one count as the best,
    # so the builder's tie-break (widest margin, earlier attribute, lower
    # threshold) decides row 0; NaN scores (undefined similarity) go last.
    score = table["search_score" if criterion.search_label else "score"].to_numpy()
    best = np.nanmax(score) if np.isfinite(score).any() else np.nan
    key = np.where(score >= best - _TIE * (1.0 + abs(best)), best, score)
    key = np.where(np.isnan(key), -np.inf, key)
    # (missing values stay on the "rest" side unless moving them scores better)
    order = np.lexsort((table["missing_meet"].to_numpy(), table["threshold"].to_numpy(),
                        table["feature"].to_numpy(), -table["margin"].to_numpy(), -key))
    return table.iloc[order].reset_index(drop=True)


def _empty_candidates(with_accepted):
    dtypes = dict(feature=int, attribute=object, kind=object, threshold=float, condition=object,
                  negated=object, missing_meet=bool, n_meet=int, similarity_meet=float, n_rest=int,
                  similarity_rest=float, score=float, margin=float, gamma_breakpoint=float)
    if with_accepted:
        dtypes["accepted"] = bool
    return pd.DataFrame({column: pd.Series(dtype=dtype) for column, dtype in dtypes.items()})


@dataclass(frozen=True, eq=False)
class NodeInspection:
    """One node of a fitted tree, its candidate splits and rule (6) arithmetic.

    Rule (6) is the stopping rule of Rebelo, Soares & Costa (2008) [1]_.

    Attributes
    ----------
    node : int
    rows : ndarray of int
        Indices of the training rows in the node.
    n_samples : int
    similarity : float
        ``S_parent`` of rule (6), recomputed from the rows.
    candidates : DataFrame
        :func:`candidate_splits` of the node, best first.
    mean_rank : ndarray (n_labels,)
        Mean position of each label over the node's rankings.
    ranking : ndarray (n_labels,)
        The node's prediction, as the tree holds it: by the mean-rank rule
        (Rebelo et al., Table 3), tied within the tree's tolerance, the
        Mallows centre, or the bucket order of rankings with ties.
    chosen : int or None
        Row of ``candidates`` holding the tree's best split of the node
        (``split_feature``/``split_threshold``); None if the tree kept none.
    gamma : float or None
        The γ the ``accepted`` column and :attr:`splits` use.
    min_samples_leaf : int
        The smallest leaf the candidates allow.
    can_split : bool
        Whether the criterion lets a node of these rankings be split at all
        (:meth:`Criterion.can_split`; e.g. the Mallows criterion wants at
        least ``2 |Y|`` label occurrences).

    References
    ----------
    .. [1] C. Rebelo, C. Soares and J. Pinto da Costa, "Empirical evaluation of
           ranking trees on some metalearning problems", Proceedings of the 2nd
           Planning to Learn Workshop (PlanLearn) at ICML/COLT/UAI 2008, 2008.
    """

    node: int
    rows: np.ndarray
    n_samples: int
    similarity: float
    candidates: pd.DataFrame
    mean_rank: np.ndarray
    ranking: np.ndarray
    chosen: int | None
    gamma: float | None
    min_samples_leaf: int = 2
    can_split: bool = True

    @property
    def best(self) -> pd.Series | None:
        """The best candidate (row 0 of ``candidates``) as a Series, or None."""
        return None if self.candidates.empty else self.candidates.iloc[0]

    @property
    def best_score(self) -> float:
        """``S_split`` of the best candidate; NaN if the node has none."""
        return np.nan if self.candidates.empty else float(self.candidates["score"].iloc[0])

    @property
    def parent_side(self) -> float:
        """Left side of rule (6): ``1 + S_parent``."""
        return 1.0 + self.similarity

    def split_side(self, gamma: float | None = None) -> float:
        """Right side of rule (6): ``gamma * (1 + S_split)`` of the best split."""
        return self._gamma(gamma) * (1.0 + self.best_score)

    @property
    def breakpoint(self) -> float:
        """The γ above which rule (6) makes the best split (``inf`` if none)."""
        return np.inf if self.candidates.empty else float(self.candidates["gamma_breakpoint"].iloc[0])

    @property
    def splits(self) -> bool:
        """Whether rule (6) at ``gamma`` makes the best split.

        Rule (6) alone: the builder also leaves a node whole when it is pure,
        too small or at ``max_depth``.
        """
        return bool(self._gamma(None) > self.breakpoint)

    def _gamma(self, gamma):
        gamma = self.gamma if gamma is None else gamma
        if gamma is None:
            raise ValueError("no γ: pass gamma here or to inspect_node")
        return gamma


def inspect_node(tree: Tree, X_encoded: ArrayLike, Y: ArrayLike, node: int, *,
                 criterion: str | Criterion | None = None, min_samples_leaf: int = 2,
                 gamma: float | None = None) -> NodeInspection:
    """Inspect one node of a fitted tree: everything the node inspector shows.

    The node's training rows are found again by passing the training data
    down the tree; every binary test of every attribute is scored on them
    (:func:`candidate_splits`), and the node's similarity and mean ranks are
    recomputed (its ranking is the tree's), so a student can see why the tree's
    split won and why rule (6) of Rebelo, Soares & Costa (2008) did or did
    not make it.

    Parameters
    ----------
    tree : Tree
        A fitted tree, ``estimator.tree_``.
    X_encoded : ndarray of shape (n_rows, n_features)
        The encoded training features the tree was fitted on
        (``estimator.encoder_.transform(X)``).
    Y : ndarray of shape (n_rows, n_labels)
        The training rank positions.
    node : int
        Node id in ``tree`` (0 is the root), internal or leaf.
    criterion : Criterion or str, optional
        Defaults to the tree's criterion (by name).
    min_samples_leaf : int, default=2
        Must be the value of the fit for the candidates to match the tree's.
    gamma : float, optional
        The γ of rule (6) to judge the candidates with.

    Returns
    -------
    NodeInspection
        The node's rows, similarity, mean ranks and ranking, its candidate
        splits best first, and which of them is the tree's.

    See Also
    --------
    candidate_splits : The table of candidates alone, for any set of rows.
    leaf_reason : Why a node is a leaf.

    Examples
    --------
    >>> from rankviz import RankingTree, load_sample
    >>> from rankviz.tree import inspect_node
    >>> data = load_sample("toy")
    >>> model = RankingTree().fit(data.X, data.Y)
    >>> root = inspect_node(model.tree_, model.encoder_.transform(data.X), data.Y, 0, gamma=0.995)
    >>> root.n_samples, root.candidates.loc[root.chosen, "condition"]
    (16, 'A1 = c')
    >>> root.candidates[["condition", "n_meet", "n_rest", "accepted"]].head(3)
       condition  n_meet  n_rest  accepted
    0     A1 = c       5      11      True
    1     A1 = b       5      11      True
    2  A2 <= 4.5       8       8      True
    """
    criterion = get_criterion(criterion if criterion is not None else tree.criterion)
    Y = np.asarray(Y, dtype=float)
    rows = np.flatnonzero(node_mask(tree, X_encoded, node))
    candidates = candidate_splits(
        X_encoded, tree.nominal_features, Y, rows, criterion, min_samples_leaf=min_samples_leaf,
        feature_names=tree.feature_names, categories=tree.categories, gamma=gamma)
    # S_parent from the same statistics, on all of Y, that scored the candidates.
    stats = criterion.row_statistics(Y)
    chosen = None
    if tree.split_feature[node] >= 0:
        assert tree.missing_left is not None  # filled in by Tree.__post_init__
        match = np.flatnonzero((candidates["feature"].to_numpy() == tree.split_feature[node])
                               & (candidates["threshold"].to_numpy() == tree.split_threshold[node])
                               & (candidates["missing_meet"].to_numpy() == tree.missing_left[node]))
        chosen = int(match[0]) if len(match) else None
    mean_rank = mean_ranks(Y[rows])
    node_sum = stats[rows].sum(axis=0)
    return NodeInspection(
        node=int(node), rows=rows, n_samples=len(rows),
        similarity=float(criterion.node_similarity(len(rows), node_sum)),
        # the node's own prediction: the mean-rank rule, tied by a tolerance, or the bucket order of rankings
        # with ties (Alfaro et al. 2021), whichever the tree predicts
        candidates=candidates, mean_rank=mean_rank, ranking=np.asarray(tree.ranking[node], dtype=float),
        chosen=chosen, gamma=gamma, min_samples_leaf=int(min_samples_leaf),
        can_split=bool(criterion.can_split(len(rows), node_sum)),
    )


#: Why a node is a leaf (:func:`leaf_reason`), in the order the builder asks:
#: the depth limit, a pure node, a node the criterion will not split, too few
#: examples for two leaves, no test leaving enough on each side, rule (6).
LEAF_REASONS = ("max_depth", "pure", "criterion", "min_samples_leaf", "no_valid_split", "rule_6")


def leaf_reason(tree: Tree, inspection: NodeInspection, *, max_depth: int | None = None) -> str | None:
    """Why a node of a fitted tree is a leaf, as the builder decided it.

    Parameters
    ----------
    tree : Tree
        The tree, grown (or cut from its γ path) with the inspection's γ and
        ``min_samples_leaf``.
    inspection : NodeInspection
        :func:`inspect_node` of the node, with the γ of the tree.
    max_depth : int or None, default=None
        The depth limit of the fit.

    Returns
    -------
    str or None
        One of :data:`LEAF_REASONS`: ``"max_depth"`` (the node is at the
        depth limit), ``"pure"`` (all its rankings agree), ``"criterion"``
        (the criterion does not split such a node), ``"min_samples_leaf"``
        (fewer than twice the minimum leaf size), ``"no_valid_split"`` (no
        test leaves the minimum on both sides), ``"rule_6"`` (rule (6) of
        Rebelo, Soares & Costa 2008 stops it at this γ); None if the node is
        split.

    Raises
    ------
    ValueError
        If the inspection has no γ, or none of these stops the node (the
        tree was grown with other settings than those given).
    """
    node = inspection.node
    if not tree.is_leaf[node]:
        return None
    n = inspection.n_samples
    if max_depth is not None and tree.depth[node] >= max_depth:
        return "max_depth"
    if inspection.similarity >= PURE_SIMILARITY:
        return "pure"
    if not inspection.can_split:
        return "criterion"
    if n < max(2, 2 * inspection.min_samples_leaf):
        return "min_samples_leaf"
    if inspection.best is None:
        return "no_valid_split"
    if not inspection.splits:
        return "rule_6"
    raise ValueError(f"node {node} is a leaf although its best split passes rule (6) at γ = "
                     f"{inspection.gamma}; was the tree grown with max_depth={max_depth!r} and "
                     f"min_samples_leaf={inspection.min_samples_leaf}?")


@dataclass(frozen=True, eq=False)
class NodeRows:
    """A node's training rows in an order that shows its structure (:func:`ordered_rows`).

    Attributes
    ----------
    rows : ndarray of int
        Training row indices, grouped by the leaf they reach (leaves from
        left to right, the "yes" branch first) and, within a leaf, closest
        to the node's predicted ranking first; every ``k``-th of that order
        when the node has more than ``max_rows`` rows.
    leaves : ndarray of int
        The leaf (node index of the tree) each row reaches.
    distance : ndarray of float
        ``1 - `` the Spearman correlation of each row's ranking with the
        node's prediction (0 = the same order, 2 = reversed; NaN when fewer
        than two labels are ranked).
    n_rows : int
        Rows in the node, before thinning.
    """

    rows: np.ndarray
    leaves: np.ndarray
    distance: np.ndarray
    n_rows: int

    @property
    def thinned(self) -> bool:
        """Whether only some of the node's rows are listed."""
        return len(self.rows) < self.n_rows


def ordered_rows(tree: Tree, X_encoded: ArrayLike, Y: ArrayLike, inspection: NodeInspection, *,
                 max_rows: int | None = None) -> NodeRows:
    """A node's rows by the leaf they reach, then by distance to the node's ranking.

    Listed in this order, the rankings of a node show its subtrees as bands
    and, within each, how far the rows stray from the node's prediction. A
    node of more than ``max_rows`` rows keeps every ``k``-th row of that
    order (evenly spaced, the first and the last included): deterministic,
    and each leaf keeps its share.

    Parameters
    ----------
    tree : Tree
    X_encoded : ndarray of shape (n_rows, n_features)
        The encoded training features the tree was fitted on.
    Y : ndarray of shape (n_rows, n_labels)
        The training rank positions.
    inspection : NodeInspection
        :func:`inspect_node` of the node.
    max_rows : int, optional
        At most this many rows; all of them by default.

    Returns
    -------
    NodeRows
    """
    if max_rows is not None and max_rows < 2:
        raise ValueError(f"max_rows must be at least 2, got {max_rows!r}")
    rows = inspection.rows
    Y_node = np.asarray(Y, dtype=float)[rows]
    leaves = tree.apply(np.asarray(X_encoded, dtype=float)[rows])
    # The subtree's leaves from left to right: depth first, "yes" branch first.
    position = np.zeros(tree.node_count, dtype=np.intp)
    stack, k = [inspection.node], 0
    while stack:
        node = stack.pop()
        if tree.is_leaf[node]:
            position[node], k = k, k + 1
        else:
            stack += [tree.children_right[node], tree.children_left[node]]
    if Y_node.shape[1] >= 2 and len(rows):
        distance = 1.0 - np.asarray(cs(Y_node, np.broadcast_to(inspection.ranking, Y_node.shape)))  # 2-D: an array
    else:
        distance = np.zeros(len(rows))
    order = np.lexsort((rows, np.where(np.isnan(distance), np.inf, distance), position[leaves]))
    if max_rows is not None and len(order) > max_rows:
        order = order[np.unique(np.round(np.linspace(0, len(order) - 1, max_rows)).astype(np.intp))]
    return NodeRows(rows=rows[order], leaves=leaves[order], distance=distance[order], n_rows=len(rows))
