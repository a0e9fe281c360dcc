"""The fitted ranking tree, stored as parallel arrays (like scikit-learn's ``Tree``).

Node 0 is the root. For node ``i``:

- ``children_left[i]`` / ``children_right[i]``: child ids, -1 for a leaf.
  Rows that *meet* the test go left ("yes"), the others right ("no").
- ``feature[i]``: the attribute tested (-1 for a leaf). For a numeric
  attribute the test is ``x <= threshold[i]``; for a nominal one it is
  ``x = categories[feature[i]][int(threshold[i])]`` (the threshold holds the
  category's code).
- ``missing_left[i]``: where rows missing the tested numeric attribute go:
  True for the left ("yes") child. The split search tries both sides and
  keeps the better (ties: right); ``extras["missing_features"]`` marks the
  attributes that had missing values in training. A missing nominal value is
  a category of its own (see :mod:`rankviz.features`).
- ``n_samples[i]``, ``similarity[i]`` (the criterion's similarity of the
  node's rankings, ``S_parent`` of rule 6), ``mean_rank[i]`` (mean position
  of each label) and ``ranking[i]`` (the mean-rank rule's prediction).
- ``split_score[i]``: ``S_split`` of the best split found for the node, NaN
  when it has none. It is kept for leaves too, so a leaf shows why it stopped
  and a tree can be re-cut for another γ without new split searches.
- ``split_feature[i]`` / ``split_threshold[i]``: that best split, kept even
  when the node is a leaf (where ``feature[i]`` is -1).
- ``class_counts[i]`` (ordinal trees only, else None): the training rows of
  node ``i`` at each level of ``class_names`` (lowest first); the leaf's
  predicted level follows by ``prediction`` ("median" or "mode"), see
  :attr:`Tree.predicted_level`. Their ``mean_rank`` is the mean position of
  the node's levels and ``ranking`` is trivial (one "label").
- ``theta[i]`` (trees of the ``mallows`` criterion only, else None): the
  Mallows spread θ̂ of node ``i``'s rankings (Cheng, Hühn & Hüllermeier
  2009; ``inf`` when pure);
  ``ranking[i]`` is then the Mallows centre, completed from the ancestors
  where the node lacks labels, and :attr:`Tree.reliability` is θ̂ times the
  node's share of the training rows.
- ``extras["postponed"]`` (only on trees made by :meth:`Tree.keep_splits`):
  leaves whose split the full tree makes, i.e. not stopped, just not yet shown;
  ``extras["node_ids"]``: each node's id in the tree it was cut from
  (:attr:`Tree.node_ids`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..ordinal.levels import predict_level

__all__ = ["Tree", "TREE_LEAF", "parent_array", "ranking_order", "ranking_text"]

TREE_LEAF = -1


def parent_array(children_left: np.ndarray, children_right: np.ndarray) -> np.ndarray:
    """Parent id of every node (-1 for the root) from the child arrays."""
    parent = np.full(len(children_left), -1)
    internal = np.flatnonzero(children_left != TREE_LEAF)
    parent[children_left[internal]] = internal
    parent[children_right[internal]] = internal
    return parent


@dataclass(frozen=True, eq=False)
class Tree:
    """A fitted tree as parallel arrays, one entry per node (as scikit-learn's ``Tree``).

    Node 0 is the root, and a child's id is larger than its parent's. The
    estimators build it (``RankingTree().fit(X, Y).tree_``,
    ``OrdinalTree().fit(X, y).tree_``); drawings, the γ path and the app
    read it. It is frozen: :meth:`keep_splits` and
    :meth:`rankviz.tree.GammaPath.tree_at` return new trees.

    Parameters
    ----------
    children_left, children_right : ndarray of int, shape (node_count,)
        Child ids, -1 (:data:`TREE_LEAF`) for a leaf. Rows that meet the
        node's test go left ("yes"), the others right ("no").
    feature : ndarray of int, shape (node_count,)
        The attribute tested, as a column of the encoded matrix; -1 for a
        leaf.
    threshold : ndarray of float, shape (node_count,)
        For a numeric attribute the test is ``x <= threshold``; for a
        nominal one it is ``x = categories[feature][int(threshold)]`` (the
        category's code). NaN for a leaf.
    n_samples : ndarray of int, shape (node_count,)
        Training rows that reach the node.
    similarity : ndarray of float, shape (node_count,)
        The criterion's similarity of the node's rankings (``S_parent`` of
        rule 6 of Rebelo, Soares & Costa 2008).
    split_score : ndarray of float, shape (node_count,)
        ``S_split`` of the best split found for the node, kept for leaves
        too; NaN when the node has none.
    split_feature, split_threshold : ndarray, shape (node_count,)
        That best split, kept even when the node is a leaf (where
        ``feature`` is -1); ``split_feature`` is -1 when there is none.
    mean_rank : ndarray of float, shape (node_count, n_labels)
        Mean position of each label over the node's training rankings (for
        an ordinal tree, the mean position of the node's levels).
    ranking : ndarray of float, shape (node_count, n_labels)
        The ranking each node predicts, as rank positions (1 = first): the
        mean-rank rule, or the Mallows centre with the ``mallows``
        criterion.
    depth : ndarray of int, shape (node_count,)
        Depth of each node, 0 for the root.
    feature_names : list of str
        Names of the attributes, in the columns of the encoded matrix.
    categories : list of (list or None)
        Category names of each nominal attribute, None for numeric ones.
    label_names : list of str
        Names of the labels, in the columns of ``ranking``.
    criterion : str, default=""
        Name of the splitting criterion the tree was grown with.
    similarity_label : str, default="similarity"
        What ``similarity`` is called in drawings (e.g. "mean pairwise
        Spearman correlation").
    extras : dict, default={}
        Further per-node arrays: ``"missing_features"`` (the attributes
        with missing values in training), and on trees cut by
        :meth:`keep_splits`, ``"postponed"`` (leaves whose split the full
        tree makes) and ``"node_ids"`` (see :attr:`node_ids`).
    class_counts : ndarray of int, shape (node_count, n_levels), optional
        Ordinal trees only: the node's training rows at each level of
        ``class_names``, lowest first. None for ranking trees.
    class_names : list, optional
        Ordinal trees only: the levels, lowest first.
    prediction : str, default=""
        Ordinal trees only: the leaf rule, ``"median"`` or ``"mode"``.
    theta : ndarray of float, shape (node_count,), optional
        Trees of the ``mallows`` criterion only: the Mallows spread of each
        node's rankings (``inf`` when pure).
    missing_left : ndarray of bool, shape (node_count,), optional
        Where rows missing the tested numeric attribute go: True for the
        left ("yes") child; by default (None) all go right.

    See Also
    --------
    rankviz.RankingTree, rankviz.OrdinalTree : The estimators that grow it.
    rankviz.tree.GammaPath : The trees of every γ, cut from one tree.

    Notes
    -----
    Instances compare by identity (``eq=False``).

    Examples
    --------
    >>> from rankviz import RankingTree, load_sample
    >>> data = load_sample("toy")
    >>> tree = RankingTree().fit(data.X, data.rankings).tree_
    >>> tree.node_count, tree.n_leaves, tree.max_depth
    (9, 5, 3)
    >>> tree.children_left, tree.children_right
    (array([ 1, -1,  3,  5,  7, -1, -1, -1, -1]), array([ 2, -1,  4,  6,  8, -1, -1, -1, -1]))
    >>> tree.test_text(0), tree.ranking_text(1)
    ('A1 = c', 'a3 > a4 > a2 > a1')
    """

    children_left: np.ndarray
    children_right: np.ndarray
    feature: np.ndarray
    threshold: np.ndarray
    n_samples: np.ndarray
    similarity: np.ndarray
    split_score: np.ndarray
    split_feature: np.ndarray
    split_threshold: np.ndarray
    mean_rank: np.ndarray
    ranking: np.ndarray
    depth: np.ndarray
    feature_names: list[str]
    categories: list[Sequence[Any] | None]
    label_names: list[str]
    criterion: str = ""
    similarity_label: str = "similarity"
    extras: dict[str, Any] = field(default_factory=dict)
    class_counts: np.ndarray | None = None
    class_names: list[Any] | None = None
    prediction: str = ""
    theta: np.ndarray | None = None
    missing_left: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.missing_left is None:  # trees made before missing values were handled
            object.__setattr__(self, "missing_left", np.zeros(len(self.children_left), dtype=bool))

    # -- shape -----------------------------------------------------------
    @property
    def node_count(self) -> int:
        """Number of nodes, internal ones and leaves."""
        return len(self.children_left)

    @property
    def is_leaf(self) -> np.ndarray:
        """Boolean mask of the leaves."""
        return self.children_left == TREE_LEAF

    @property
    def n_leaves(self) -> int:
        """Number of leaves."""
        return int(self.is_leaf.sum())

    @property
    def nominal_features(self) -> np.ndarray:
        """Boolean mask of the nominal attributes."""
        return np.array([c is not None for c in self.categories], dtype=bool)

    @property
    def node_ids(self) -> np.ndarray:
        """Each node's id in the tree it was cut from (see :meth:`keep_splits`).

        Ids stay the same as a tree is cut for another γ or shown part-grown,
        so the app can name a node across those views; for a grown tree they
        are ``0..node_count-1``.
        """
        ids = self.extras.get("node_ids")
        return np.arange(self.node_count) if ids is None else ids

    @property
    def max_depth(self) -> int:
        """Depth of the deepest node (0 for a tree of one leaf)."""
        return int(self.depth.max())

    @property
    def is_ordinal(self) -> bool:
        """True for a tree of an ordinal target (:class:`rankviz.OrdinalTree`)."""
        return self.class_counts is not None

    @property
    def reliability(self) -> np.ndarray | None:
        """The reliability of each node's ranking (``mallows`` trees only, else None).

        As in Cheng, Hühn & Hüllermeier (2009), §6: the spread θ̂ times the
        node's share of the training rows.
        """
        if self.theta is None:
            return None
        return self.theta * self.n_samples / self.n_samples[0]

    # -- prediction ------------------------------------------------------
    @property
    def predicted_level(self) -> np.ndarray:
        """Level index each node predicts (ordinal trees only), by ``prediction``."""
        if self.class_counts is None:  # not self.is_ordinal
            raise ValueError("predicted_level needs an ordinal tree (class_counts)")
        return predict_level(self.class_counts, self.prediction)

    def apply(self, X_encoded: ArrayLike) -> np.ndarray:
        """Return the leaf id of every row of an encoded feature matrix.

        One pass per tree level over the rows still above their leaf, so the
        work is the rows' path lengths, not rows x depth as for
        :meth:`decision_paths` (a chain hundreds deep holds few rows at depth).

        Parameters
        ----------
        X_encoded : array-like of shape (n_rows, n_features)
            Features encoded as in training (``estimator.encoder_.transform(X)``:
            numeric values, NaN when missing, and category codes).

        Returns
        -------
        ndarray of int, shape (n_rows,)
            The leaf each row reaches.
        """
        X_encoded = np.asarray(X_encoded, dtype=float)
        node = np.zeros(len(X_encoded), dtype=np.intp)
        is_leaf = self.is_leaf
        rows = np.flatnonzero(~is_leaf[node])
        while len(rows):
            n = node[rows]
            node[rows] = self._children_of(X_encoded[rows, self.feature[n]], n)
            rows = rows[~is_leaf[node[rows]]]
        return node

    def _children_of(self, x: np.ndarray, node: np.ndarray) -> np.ndarray:
        """The child each internal ``node`` sends a row with value ``x`` of its attribute to."""
        nominal = self.nominal_features[self.feature[node]]
        assert self.missing_left is not None  # filled in by __post_init__
        goes_left = np.where(nominal, x == self.threshold[node],
                             np.where(np.isnan(x), self.missing_left[node], x <= self.threshold[node]))
        return np.where(goes_left, self.children_left[node], self.children_right[node])

    def decision_paths(self, X_encoded: ArrayLike) -> np.ndarray:
        """Return the nodes on each row's path from the root, shape (n_rows, max_depth + 1).

        Column ``k`` holds the node at depth ``k``; a row that reaches its leaf
        earlier repeats the leaf to the end. Vectorised over rows: one pass per
        tree level, not per row.

        Parameters
        ----------
        X_encoded : array-like of shape (n_rows, n_features)
            Features encoded as in training, as :meth:`apply` takes them.

        Returns
        -------
        ndarray of int, shape (n_rows, max_depth + 1)
            Node ids, the root in column 0.
        """
        X_encoded = np.asarray(X_encoded, dtype=float)
        node = np.zeros(len(X_encoded), dtype=np.intp)
        rows = np.arange(len(X_encoded))
        is_leaf = self.is_leaf
        path = [node.copy()]
        for _ in range(self.max_depth):
            active = ~is_leaf[node]
            r, n = rows[active], node[active]
            node[r] = self._children_of(X_encoded[r, self.feature[n]], n)
            path.append(node.copy())
        return np.column_stack(path)

    # -- text ------------------------------------------------------------
    def test_text(self, node: int, negate: bool = False) -> str:
        """Return the test of an internal node as text, e.g. ``A2 <= 4.5`` or ``A1 = c``.

        Parameters
        ----------
        node : int
            An internal node.
        negate : bool, default=False
            Give the test of the right ("no") branch instead: ``A2 > 4.5``,
            ``A1 ≠ c``.

        Returns
        -------
        str
            The test, thresholds to 4 significant digits, followed by
            ``" or missing"`` when rows missing the attribute take that
            branch.
        """
        text = test_text(self.feature_names, self.categories,
                          self.feature[node], self.threshold[node], negate)
        missing = self.extras.get("missing_features")
        assert self.missing_left is not None  # filled in by __post_init__
        if missing is not None and missing[self.feature[node]] and self.missing_left[node] != negate:
            text += " or missing"
        return text

    def best_split_text(self, node: int) -> str:
        """Return the best split found for a node (internal or leaf), or '' if none.

        Parameters
        ----------
        node : int
            Any node; a leaf keeps the best split it was not given.

        Returns
        -------
        str
            The split's test as :meth:`test_text` writes it (without the
            missing side), or an empty string.
        """
        if self.split_feature[node] < 0:
            return ""
        return test_text(self.feature_names, self.categories,
                          self.split_feature[node], self.split_threshold[node], False)

    def ranking_text(self, node: int, separator: str = " > ") -> str:
        """Return the node's predicted ranking as ordered label names, ``a3 > a1 > a2`` (ties ``a1 = a2``).

        Parameters
        ----------
        node : int
            Any node.
        separator : str, default=" > "
            Written between labels that are not tied.

        Returns
        -------
        str
            The label names, most preferred first.
        """
        return ranking_text(self.ranking[node], self.label_names, separator)

    def subtree_sizes(self) -> tuple[np.ndarray, np.ndarray]:
        """Count the nodes and leaves strictly below each node (a leaf has none of either).

        Vectorised over each level, from the deepest up.

        Returns
        -------
        nodes, leaves : ndarray of int, shape (node_count,)
            For each node, the number of its descendants and of the leaves
            among them; 0 and 0 for a leaf.
        """
        is_leaf, depth = self.is_leaf, np.asarray(self.depth)
        nodes, leaves = np.zeros(self.node_count, dtype=np.intp), is_leaf.astype(np.intp)
        internal = np.flatnonzero(~is_leaf)
        left, right = self.children_left, self.children_right
        for level in range(self.max_depth - 1, -1, -1):
            at = internal[depth[internal] == level]
            nodes[at] = nodes[left[at]] + nodes[right[at]] + 2
            leaves[at] = leaves[left[at]] + leaves[right[at]]
        return nodes, np.where(is_leaf, 0, leaves)

    # -- sub-trees -------------------------------------------------------
    def keep_splits(self, expanded: Iterable[int] | np.ndarray) -> tuple[Tree, np.ndarray]:
        """Return the tree in which only the nodes in ``expanded`` keep their split.

        Every other node becomes a leaf and its descendants are dropped; node
        ids are renumbered in depth-first order. Used to show a tree part-way
        through its growth and to cut the maximal tree for a given γ.

        Parameters
        ----------
        expanded : iterable of int or ndarray of bool
            Internal nodes that stay split, as ids or as a mask over the nodes
            (nodes unreachable through them are ignored).

        Returns
        -------
        tree : Tree
            The cut tree, with ``extras["postponed"]`` and
            ``extras["node_ids"]``.
        node_map : ndarray of int
            ``node_map[new_id]`` is the node's id in this tree.
        """
        mask = np.zeros(self.node_count, dtype=bool)
        if np.asarray(expanded).dtype == bool:
            mask[:] = expanded
        else:
            mask[np.fromiter(expanded, dtype=np.intp)] = True
        mask &= ~self.is_leaf
        kept, stack = [], [0]
        while stack:  # depth-first, left child first: O(number of kept nodes)
            node = stack.pop()
            kept.append(node)
            if mask[node]:
                stack.append(self.children_right[node])
                stack.append(self.children_left[node])
        keep = np.asarray(kept, dtype=np.intp)
        new_id = np.full(self.node_count, TREE_LEAF)
        new_id[keep] = np.arange(len(keep))
        split = mask[keep]
        left = np.where(split, new_id[self.children_left[keep]], TREE_LEAF)
        right = np.where(split, new_id[self.children_right[keep]], TREE_LEAF)
        arrays = {
            name: getattr(self, name)[keep]
            for name in ("threshold", "n_samples", "similarity", "split_score", "split_feature",
                         "split_threshold", "mean_rank", "ranking", "depth", "missing_left")
        }
        if self.class_counts is not None:
            arrays["class_counts"] = self.class_counts[keep]
        if self.theta is not None:
            arrays["theta"] = self.theta[keep]
        # Leaves here that are split in this tree: their split is only postponed.
        postponed = ~self.is_leaf[keep] & ~split
        sub = replace(
            self, children_left=left, children_right=right,
            feature=np.where(split, self.feature[keep], TREE_LEAF),
            extras={**self.extras, "postponed": postponed, "node_ids": self.node_ids[keep]},
            **arrays,
        )
        sub = replace(sub, threshold=np.where(split, sub.threshold, np.nan))
        return sub, keep


def ranking_order(ranks: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Labels from most to least preferred, and which of them tie with the one before.

    Parameters
    ----------
    ranks : array-like of shape (n_labels,)
        Each label's position (1 = best); equal positions are a tie, kept
        in label order; missing labels (NaN) are left out.

    Returns
    -------
    order : ndarray of int
        Label indices, best first.
    tied : ndarray of bool, same length
        ``tied[k]``: label ``order[k]`` shares its position with ``order[k - 1]``.
    """
    ranks = np.asarray(ranks, dtype=float)
    order = np.argsort(ranks, kind="stable")
    order = order[~np.isnan(ranks[order])]
    tied = np.zeros(len(order), dtype=bool)
    tied[1:] = np.abs(np.diff(ranks[order])) <= 1e-9
    return order, tied


def ranking_text(ranks: ArrayLike, label_names: Sequence[Any], separator: str = " > ",
                 tie: str = " = ") -> str:
    """Label names from most to least preferred, ``a3 > a1 = a2``.

    Parameters
    ----------
    ranks : array-like of shape (n_labels,)
        Each label's position (1 = best); tied labels (equal positions,
        e.g. ``2.5, 2.5``) are joined by ``tie`` in label order, and
        missing labels (NaN) are left out.
    label_names : sequence
    separator : str, default=" > "
    tie : str, default=" = "

    Returns
    -------
    str
    """
    order, tied = ranking_order(ranks)
    return "".join((tie if t else separator) * (k > 0) + str(label_names[j])
                   for k, (j, t) in enumerate(zip(order, tied)))


def test_text(feature_names: Sequence[str], categories: Sequence[Sequence[Any] | None],
              feature: int, threshold: float, negate: bool) -> str:
    name = feature_names[feature]
    cats = categories[feature]
    if cats is not None:
        return f"{name} {'≠' if negate else '='} {cats[int(threshold)]}"
    return f"{name} {'>' if negate else '<='} {threshold:.4g}"
