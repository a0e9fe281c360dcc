"""The γ path: the ranking tree for every γ of stopping rule (6), from one maximal tree.

The best split of a node depends only on the node's rows, never on γ; γ only
decides whether that split is made. Rule (6) of Rebelo, Soares & Costa
(2008) makes the split of node ``i`` exactly when ``γ > b_i``, with
``b_i = (1 + S_i) / (1 + S_split,i)`` (see
:meth:`rankviz.tree.criteria.Criterion.gamma_breakpoint`). A node is split in
the tree grown with γ when it and all its ancestors pass, i.e. when γ exceeds

    e_i = max(b_j for j on the path from the root to i).

So one tree grown with ``gamma=np.inf`` holds every tree of the path: the
tree at γ keeps the splits with ``e_i < γ``, the leaf count is
``1 + #{i : e_i < γ}``, and the tree changes only at the distinct ``e_i``
(docs/design.md, "The γ path").
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .criteria import Criterion, get_criterion
from .structure import Tree, parent_array

__all__ = ["GammaPath"]


class GammaPath:
    """Every tree that rule (6) of Rebelo, Soares & Costa (2008) gives, for any γ.

    All of them are cut from one maximal tree; rule (6) is the stopping rule
    of Rebelo et al. [1]_.

    Parameters
    ----------
    tree : Tree
        A tree grown with ``gamma=np.inf`` (or with ``gamma_max``), e.g.
        ``RankingTree(gamma=np.inf).fit(X, Y).tree_``.
    criterion : str or Criterion, optional
        The criterion the tree was grown with; ``tree.criterion`` by default.
    gamma_max : float, default=np.inf
        The γ the tree was grown with. Above it the tree lacks splits that
        rule (6) would accept, so the path is only defined up to ``gamma_max``.

    Attributes
    ----------
    node_gamma : ndarray of shape (tree.node_count,)
        ``e_i``: node ``i`` is split for every γ above it (``inf`` for leaves).
    breakpoints : ndarray
        The sorted distinct γ at which the tree changes: just above each, one
        or more nodes gain their split.

    See Also
    --------
    rankviz.RankingTree.gamma_path : The path of a fitted tree.
    rankviz.experiments.gamma_curves : Cross-validated accuracy along the path.

    References
    ----------
    .. [1] C. Rebelo, C. Soares and J. Pinto da Costa, "Empirical evaluation of
           ranking trees on some metalearning problems", Proceedings of the 2nd
           Planning to Learn Workshop (PlanLearn) at ICML/COLT/UAI 2008, 2008.

    Examples
    --------
    >>> import numpy as np
    >>> from rankviz import RankingTree, load_sample
    >>> data = load_sample("toy")
    >>> model = RankingTree(gamma=np.inf, min_samples_leaf=3).fit(data.X, data.Y)
    >>> path = model.gamma_path()
    >>> int(path.n_leaves(0.9)), int(path.n_leaves(np.inf)) == model.tree_.n_leaves
    (3, True)
    """

    def __init__(self, tree: Tree, criterion: str | Criterion | None = None,
                 gamma_max: float = np.inf) -> None:
        self.tree = tree
        self.gamma_max = float(gamma_max)
        criterion = get_criterion(criterion if criterion is not None else tree.criterion)
        internal = ~tree.is_leaf
        own = np.full(tree.node_count, np.inf)
        own[internal] = criterion.gamma_breakpoint(tree.similarity[internal], tree.split_score[internal])
        # Children have larger ids than their parents in every Tree (level-wise
        # growth and keep_splits' depth-first renumbering both), so one pass per
        # depth, parents first, carries the ancestors' maximum down.
        parent = parent_array(tree.children_left, tree.children_right)
        node_gamma = own.copy()
        for level in range(1, tree.max_depth + 1):
            at_level = np.flatnonzero(tree.depth == level)
            node_gamma[at_level] = np.maximum(own[at_level], node_gamma[parent[at_level]])
        node_gamma[~internal] = np.inf
        self.node_gamma = node_gamma
        self._sorted = np.sort(node_gamma[internal])
        finite = self._sorted[np.isfinite(self._sorted)]
        self.breakpoints = np.unique(finite[finite < self.gamma_max])

    def distinct_gammas(self) -> np.ndarray:
        """Return one γ per distinct tree of the path, in increasing order (the smallest tree first).

        The first breakpoint (the tree before any breakpoint's splits; left
        out when it is 0, as γ must be positive), the midpoint between each
        two breakpoints, and ``gamma_max`` (the whole tree). Scoring these
        scores every tree the path holds (:class:`rankviz.RankingTreeCV`).

        Returns
        -------
        ndarray of float
            Increasing; as many values as the path has distinct trees.
        """
        b = self.breakpoints
        smallest = b[:1][b[:1] > 0]
        return np.r_[smallest, (b[:-1] + b[1:]) / 2, self.gamma_max]

    def same_tree(self, gamma: float, candidates: ArrayLike) -> np.ndarray:
        """Return which ``candidates`` give the tree that ``gamma`` gives.

        Two values give the same tree when the same breakpoints lie below
        them (a node is split for every γ above its breakpoint). A γ that a
        search chose off the path (:meth:`distinct_gammas`) can so be shown
        with a value of a slider's grid.

        Parameters
        ----------
        gamma : float
            A γ up to ``gamma_max``.
        candidates : array-like of float
            Values of γ to compare (above ``gamma_max`` they count as
            ``gamma_max``).

        Returns
        -------
        ndarray of bool
            One per candidate.

        Examples
        --------
        >>> import numpy as np
        >>> from rankviz import RankingTree, load_sample
        >>> data = load_sample("toy")
        >>> path = RankingTree(gamma=np.inf, min_samples_leaf=3).fit(data.X, data.Y).gamma_path()
        >>> path.same_tree(np.inf, [0.9, 1.0, 1.5]).tolist()
        [False, True, True]
        """
        self._check(gamma)
        candidates = np.minimum(np.asarray(candidates, dtype=float), self.gamma_max)
        below = np.searchsorted(self.breakpoints, candidates, side="left")
        return below == np.searchsorted(self.breakpoints, gamma, side="left")

    def expanded(self, gamma: float) -> np.ndarray:
        """Return the mask of the nodes split in the tree for ``gamma``.

        Parameters
        ----------
        gamma : float
            A γ up to ``gamma_max``.

        Returns
        -------
        ndarray of bool, shape (tree.node_count,)
            True for the nodes of the maximal tree that the tree at
            ``gamma`` splits (``node_gamma < gamma``).

        Raises
        ------
        ValueError
            If ``gamma`` exceeds ``gamma_max``.
        """
        self._check(gamma)
        return self.node_gamma < gamma

    def n_leaves(self, gamma: float | ArrayLike) -> np.ndarray:
        """Count the leaves of the tree at each γ (scalar or array), without cutting it.

        Parameters
        ----------
        gamma : float or array-like of float
            Values of γ up to ``gamma_max``.

        Returns
        -------
        ndarray of int
            The leaf count at each γ, of the shape of ``gamma`` (a 0-d array
            for a scalar).

        Raises
        ------
        ValueError
            If a γ exceeds ``gamma_max``.
        """
        gamma = np.asarray(gamma, dtype=float)
        self._check(gamma)
        # Strictly below γ: rule (6) stops at equality.
        return 1 + np.searchsorted(self._sorted, gamma, side="left")

    def tree_at(self, gamma: float) -> Tree:
        """Return the tree that growth with this γ gives, node for node.

        (Exactly at a breakpoint, within about 1e-15, growth may decide either
        way: it sums a node's rows in another order, so its similarities can
        differ from the maximal tree's in the last bit.)

        Parameters
        ----------
        gamma : float
            A γ up to ``gamma_max``.

        Returns
        -------
        Tree
            Nodes renumbered depth-first (see :meth:`Tree.keep_splits`). Its
            leaves were stopped by rule (6), so none is marked postponed.

        Raises
        ------
        ValueError
            If ``gamma`` exceeds ``gamma_max``.
        """
        tree, _ = self.tree.keep_splits(self.expanded(gamma))
        tree.extras.pop("postponed", None)
        return tree

    def apply(self, X_encoded: ArrayLike, gammas: float | ArrayLike) -> np.ndarray:
        """Return the leaf, in the maximal tree's ids, of every row at every γ.

        Parameters
        ----------
        X_encoded : ndarray of shape (n_rows, n_features)
            Features encoded as in training (``estimator.encoder_.transform(X)``).
        gammas : float or array-like of shape (n_gammas,)
            Values of γ up to ``gamma_max``.

        Returns
        -------
        ndarray of int, shape (n_rows, n_gammas)
            The node where each row stops at each γ: the first node on its
            path that the tree at γ does not split.

        Raises
        ------
        ValueError
            If a γ exceeds ``gamma_max``.
        """
        gammas = np.atleast_1d(np.asarray(gammas, dtype=float))
        self._check(gammas)
        path = self.tree.decision_paths(X_encoded)
        # e_i never decreases along a path, so the number of path nodes split
        # at γ is also the position of the node where the row stops.
        stop = (self.node_gamma[path][:, :, None] < gammas[None, None, :]).sum(axis=1)
        return np.take_along_axis(path, stop, axis=1)

    def predict(self, X_encoded: ArrayLike, gammas: float | ArrayLike) -> np.ndarray:
        """Predict the rank positions of every row at every γ, shape (n_rows, n_gammas, n_labels).

        Parameters
        ----------
        X_encoded : ndarray of shape (n_rows, n_features)
            Features encoded as in training (``estimator.encoder_.transform(X)``).
        gammas : float or array-like of shape (n_gammas,)
            Values of γ up to ``gamma_max``.

        Returns
        -------
        ndarray of float, shape (n_rows, n_gammas, n_labels)
            The ranking of the node where each row stops at each γ (see
            :meth:`apply`), as rank positions.

        Raises
        ------
        ValueError
            If a γ exceeds ``gamma_max``.
        """
        return self.tree.ranking[self.apply(X_encoded, gammas)]

    def _check(self, gamma):
        if np.any(np.asarray(gamma) > self.gamma_max):
            raise ValueError(
                f"the tree was grown with gamma = {self.gamma_max:g}; grow it with gamma=np.inf "
                f"to cut it for larger values (asked for {np.max(gamma):g})")

