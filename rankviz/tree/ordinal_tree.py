"""The ordinal regression tree of Xia, Zhang & Wang (2006), with scikit-learn conventions."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Self

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

from .builder import grow_tree
from .criteria import get_criterion
from .criteria.ordinal_levels import OrdinalLevelCriterion
from ..features import FeatureEncoder
from .display import TreeDisplayMixin
from .gamma_path import GammaPath
from ..ordinal.base import OrdinalRegressorMixin
from ..ordinal.levels import PREDICTION_RULES, OrdinalLevels
from .._validation import check_feature_input, check_growth_params, moved_fit_keyword
from .structure import parent_array

__all__ = ["OrdinalTree"]


class OrdinalTree(TreeDisplayMixin, OrdinalRegressorMixin, BaseEstimator):
    """Decision tree for an ordinal target, split by ranking impurity or Gini (Xia, Zhang & Wang 2006).

    The tree is grown top-down like :class:`rankviz.RankingTree`, with one
    ordered label per row. Splits maximise the criterion's gain: the
    unweighted ranking-impurity gain of eq. (1) of Xia et al. or the
    weighted Gini gain. Each leaf predicts one level of its training rows.

    Parameters
    ----------
    criterion : {"ranking_impurity", "gini"}, default="ranking_impurity"
        Splitting criterion: the ranking impurity of Xia et al., which counts
        the pairs of rows at different levels weighted by how far apart the
        levels are, or the Gini impurity, which ignores the order.
    max_depth : int or None, default=None
        Maximum depth; None for no limit.
    prediction : {"median", "mode"}, default="median"
        The leaf's level: the median minimises the absolute rank loss, the
        mode the number of wrong levels.
    min_samples_leaf : int, default=1
        Minimum number of training rows in each leaf.
    gamma : float, default=np.inf
        Stopping rule (6) of Rebelo, Soares & Costa (2008) on the
        criterion's similarity (one minus normalised impurity; see
        :mod:`rankviz.tree.criteria.ranking_impurity`): a node splits only if
        ``(1 + S_parent) < gamma * (1 + S_split)``. The default ``np.inf``
        turns the rule off, so the tree grows until its leaves are pure or
        the limits stop it, like the CART trees of Xia et al. (and
        scikit-learn's); ``gamma=1`` splits only where the subsets are more
        homogeneous than their parent, smaller γ asks for more.
    levels : list, optional
        The level names, lowest first; needed when ``y`` holds names that
        are not an ordered pandas categorical (numeric ratings order
        themselves).

    Attributes
    ----------
    tree_ : Tree
        The fitted tree; ``tree_.class_counts`` holds each node's rows per level.
    classes_ : list
        The levels, lowest first.
    positions_ : ndarray
        Their positions, used for distances and the rank loss: the values of
        numeric ratings, ``1..K`` for named levels.
    encoder_ : FeatureEncoder
        How ``X`` was encoded; ``encoder_.feature_names`` are the names the
        tree shows (the column names of a DataFrame, ``x1..xd`` for an array).
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of str, shape (``n_features_in_``,)
        Names of the features seen in ``fit``; only when ``X`` was a
        DataFrame with string column names.

    See Also
    --------
    rankviz.RankingTree : The tree for label rankings.
    rankviz.OrdinalDefault, rankviz.OrdinalKNN : Ordinal baselines to compare with.
    rankviz.ordinal.make_ordinal_square : The synthetic data of Xia et al.

    References
    ----------
    .. [1] F. Xia, W. Zhang and J. Wang, "An effective tree-based algorithm for
       ordinal regression", IEEE Intelligent Informatics Bulletin, vol. 7,
       no. 1, pp. 22-26, 2006.
    .. [2] C. Rebelo, C. Soares and J. Pinto da Costa, "Empirical evaluation of
       ranking trees on some metalearning problems", Proceedings of the 2nd
       Planning to Learn Workshop (PlanLearn) at ICML/COLT/UAI 2008, 2008.

    Examples
    --------
    >>> import numpy as np
    >>> from rankviz import OrdinalTree
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]])
    >>> y = np.array([1, 1, 2, 2, 5, 5])
    >>> OrdinalTree(max_depth=2).fit(X, y).predict([[0.5], [2.5], [4.5]])
    array([1, 2, 5])

    Named levels need their order:

    >>> from rankviz.datasets import load_ordinal_sample
    >>> data = load_ordinal_sample("diabetes_ordinal")
    >>> tree = OrdinalTree(max_depth=3, min_samples_leaf=20, levels=data.levels)
    >>> tree = tree.fit(data.X, data.target_series)  # a named Series names the target
    >>> tree.tree_.n_leaves, tree.tree_.test_text(0)
    (8, 'ltg <= 4.6')
    >>> tree.predict(data.X[:3])
    array(['very high', 'very low', 'high'], dtype=object)
    >>> tree.predict_by_depth(data.X[:1])  # positions of the tree cut at depth 0, 1, 2, 3
    array([[3., 4., 5., 5.]])
    """

    def __init__(self, criterion: str = "ranking_impurity", max_depth: int | None = None,
                 prediction: str = "median", min_samples_leaf: int = 1, gamma: float = np.inf,
                 levels: list | None = None) -> None:
        self.criterion = criterion
        self.max_depth = max_depth
        self.prediction = prediction
        self.min_samples_leaf = min_samples_leaf
        self.gamma = gamma
        self.levels = levels

    def fit(self, X: Any, y: ArrayLike, levels: list | None = None, target_name: str | None = None) -> Self:
        """Grow the tree on features ``X`` and ordinal target ``y``.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Numeric and nominal (string, category, bool) attributes; NaN
            (or None) marks a missing value.
        y : array-like of shape (n_samples,)
            Numeric ratings, an ordered pandas categorical, or names listed
            in the ``levels`` parameter. A named Series gives the name the
            tree and error messages show (``y`` otherwise).
        levels : list, optional
            Deprecated since 0.2, removed in 0.3: set the ``levels``
            parameter (``OrdinalTree(levels=...)``), which ``clone`` and grid
            searches keep.
        target_name : str, optional
            Deprecated since 0.2, removed in 0.3: pass ``y`` as a named Series.

        Returns
        -------
        self : OrdinalTree
            The fitted tree.

        Raises
        ------
        ValueError
            If a parameter is invalid, ``X`` is not a 2-D table of at least
            one row and one feature, or ``y`` is not one level per row of
            ``X`` (a missing or unknown level, or names without ``levels``).
        TypeError
            If ``X`` is sparse.
        """
        criterion = self._check_params()
        X = check_feature_input(self, X, y, reset=True)
        self.encoder_ = FeatureEncoder().fit(X)
        X_encoded = self.encoder_.transform(X)
        if np.ndim(y) != 1 or np.shape(y)[0] != len(X_encoded):
            raise ValueError(f"y must be one column with one level per row of X "
                             f"({len(X_encoded)}), got shape {np.shape(y)}")
        if levels is not None:
            moved_fit_keyword(self, "levels", "set the levels parameter, OrdinalTree(levels=...)")
        if target_name is not None:
            moved_fit_keyword(self, "target_name", "pass y as a pandas Series with that name")
        else:
            target_name = str(y.name) if isinstance(y, pd.Series) and y.name is not None else "y"
        ordinal = OrdinalLevels.from_target(y, self.levels if levels is None else levels, source=target_name)
        codes = ordinal.encode(y, source=target_name)
        self.classes_ = ordinal.names
        self.positions_ = ordinal.positions
        target = self.positions_[codes][:, None]
        criterion.check_memory(target, n_features=X_encoded.shape[1])  # one statistic per level and row
        tree = grow_tree(
            X_encoded, self.encoder_.nominal, target, criterion,
            gamma=self.gamma, min_samples_leaf=self.min_samples_leaf, max_depth=self.max_depth,
            feature_names=self.encoder_.feature_names, categories=self.encoder_.categories,
            label_names=[target_name])
        self.tree_ = replace(tree, class_counts=_node_level_counts(tree, X_encoded, codes,
                                                                    len(ordinal)),
                             class_names=[str(c) for c in self.classes_],
                             prediction=self.prediction)
        return self

    def apply(self, X: Any) -> np.ndarray:
        """Return the leaf id of each row of ``X``.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Features with the columns of ``fit``; NaN (or None) marks a
            missing value.

        Returns
        -------
        ndarray of int, shape (n_samples,)
            Node ids into the arrays of ``tree_``.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the tree is not fitted.
        ValueError
            If ``X`` has other features than in ``fit``.
        """
        encoded = self._encode(X)
        return self.tree_.apply(encoded)

    def predict_index(self, X: Any) -> np.ndarray:
        """Predict the level index (0 = lowest level) of each row.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Features with the columns of ``fit``.

        Returns
        -------
        ndarray of int, shape (n_samples,)
            Index into ``classes_`` of the level of the leaf each row falls
            in (its median or mode, by ``prediction``).

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the tree is not fitted.
        ValueError
            If ``X`` has other features than in ``fit``.
        """
        leaves = self.apply(X)
        return self.tree_.predicted_level[leaves]

    def predict_by_depth(self, X: Any) -> np.ndarray:
        """Predict the positions given by the tree cut at every depth.

        Column ``d`` equals ``predict`` of this tree refitted with
        ``max_depth=d`` (mapped to positions): the best split of a node does
        not depend on the depth limit, so one deep tree holds every shallower
        one (Fig. 2 of Xia, Zhang & Wang 2006).

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Features with the columns of ``fit``.

        Returns
        -------
        ndarray of shape (n_samples, ``tree_.max_depth`` + 1)
            Positions (``positions_``, not level names) of the predicted
            levels; column 0 is the root's prediction.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the tree is not fitted.
        ValueError
            If ``X`` has other features than in ``fit``.
        """
        encoded = self._encode(X)
        paths = self.tree_.decision_paths(encoded)
        return self.positions_[self.tree_.predicted_level[paths]]

    def gamma_path(self) -> GammaPath:
        """Return the trees of every γ up to the fitted one; see :class:`rankviz.tree.gamma_path.GammaPath`.

        Returns
        -------
        GammaPath
            The path of ``tree_``, defined for γ up to the fitted ``gamma``
            (all of them with the default ``gamma=np.inf``).

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the tree is not fitted.
        """
        check_is_fitted(self)
        return GammaPath(self.tree_, self._check_params(), gamma_max=self.gamma)

    def _encode(self, X: Any) -> np.ndarray:
        """``X`` checked against the fit and encoded as the tree's matrix."""
        X = check_feature_input(self, X, reset=False)
        return self.encoder_.transform(X)

    def _check_params(self) -> OrdinalLevelCriterion:
        criterion = get_criterion(self.criterion)
        if not isinstance(criterion, OrdinalLevelCriterion):
            raise ValueError(f"OrdinalTree needs an ordinal criterion ('ranking_impurity' or "
                             f"'gini'), got {self.criterion!r}")
        if self.prediction not in PREDICTION_RULES:
            raise ValueError(f"prediction must be one of {PREDICTION_RULES}, got {self.prediction!r}")
        check_growth_params(self.gamma, self.min_samples_leaf, self.max_depth)
        return criterion


def _node_level_counts(tree, X_encoded, codes, n_levels):
    """Training rows of every node at every level, shape (node_count, n_levels).

    Leaves count their rows with one bincount; then each depth, deepest
    first, adds into its parents (as the builder sums rankings up).
    """
    leaf = tree.apply(X_encoded)
    counts = np.bincount(leaf * n_levels + codes, minlength=tree.node_count * n_levels).reshape(
        tree.node_count, n_levels).astype(float)
    parent = parent_array(tree.children_left, tree.children_right)
    for level in range(tree.max_depth, 0, -1):
        at_level = np.flatnonzero(tree.depth == level)
        # Siblings share a parent, so accumulate with add.at, not fancy assignment.
        np.add.at(counts, parent[at_level], counts[at_level])
    return counts
