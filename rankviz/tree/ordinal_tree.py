"""The ordinal regression tree of seed 002, with scikit-learn conventions."""

from dataclasses import replace

import numpy as np
from sklearn.base import BaseEstimator

from .builder import grow_tree
from .criteria import get_criterion
from .criteria.ordinal_levels import OrdinalLevelCriterion
from ..features import FeatureEncoder
from .gamma_path import GammaPath
from ..ordinal.levels import PREDICTION_RULES, OrdinalLevels, level_array, mean_rank_loss
from .._validation import check_growth_params
from .structure import parent_array

__all__ = ["OrdinalTree"]


class OrdinalTree(BaseEstimator):
    """Decision tree for an ordinal target, split by ranking impurity or Gini (seed 002).

    The tree is grown top-down like :class:`rankviz.RankingTree`, with one
    ordered label per row. Splits maximise the criterion's gain: the
    unweighted ranking-impurity gain of eq. (1) or the weighted Gini gain.
    Each leaf predicts one level of its training rows.

    Parameters
    ----------
    criterion : {"ranking_impurity", "gini"}, default="ranking_impurity"
    max_depth : int or None, default=None
        Maximum depth; None for no limit.
    prediction : {"median", "mode"}, default="median"
        The leaf's level: the median minimises the absolute rank loss, the
        mode the number of wrong levels.
    min_samples_leaf : int, default=1
    gamma : float, default=np.inf
        Stopping rule (6) of seed 001 on the criterion's similarity (one
        minus normalised impurity; see :mod:`rankviz.tree.criteria.ranking_impurity`):
        a node splits only if ``(1 + S_parent) < gamma * (1 + S_split)``.
        The default ``np.inf`` turns the rule off, so the tree grows until its
        leaves are pure or the limits stop it, like the seed's CART trees
        (and scikit-learn's); ``gamma=1`` splits only where the subsets are
        more homogeneous than their parent, smaller γ asks for more.

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
    feature_names_in_ : list of str

    Examples
    --------
    >>> import numpy as np
    >>> from rankviz import OrdinalTree
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]])
    >>> y = np.array([1, 1, 2, 2, 5, 5])
    >>> OrdinalTree(max_depth=2).fit(X, y).predict([[0.5], [2.5], [4.5]])
    array([1, 2, 5])
    """

    def __init__(self, criterion="ranking_impurity", max_depth=None, prediction="median",
                 min_samples_leaf=1, gamma=np.inf):
        self.criterion = criterion
        self.max_depth = max_depth
        self.prediction = prediction
        self.min_samples_leaf = min_samples_leaf
        self.gamma = gamma

    def fit(self, X, y, levels=None, target_name="y"):
        """Grow the tree on features ``X`` and ordinal target ``y``.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Numeric ratings, an ordered pandas categorical, or names listed
            in ``levels``.
        levels : list, optional
            The level names, lowest first; required when ``y`` holds names.
        target_name : str, default="y"
            Shown in the tree and in error messages.

        Returns
        -------
        self
        """
        criterion = self._check_params()
        self.encoder_ = FeatureEncoder().fit(X)
        X_encoded = self.encoder_.transform(X)
        if np.ndim(y) != 1 or len(y) != len(X_encoded):
            raise ValueError(f"y must be one column with one level per row of X "
                             f"({len(X_encoded)}), got shape {np.shape(y)}")
        ordinal = OrdinalLevels.from_target(y, levels, source=target_name)
        codes = ordinal.encode(y, source=target_name)
        self.classes_ = ordinal.names
        self.positions_ = ordinal.positions
        tree = grow_tree(
            X_encoded, self.encoder_.nominal, self.positions_[codes][:, None], criterion,
            gamma=self.gamma, min_samples_leaf=self.min_samples_leaf, max_depth=self.max_depth,
            feature_names=self.encoder_.feature_names, categories=self.encoder_.categories,
            label_names=[target_name])
        self.tree_ = replace(tree, class_counts=_node_level_counts(tree, X_encoded, codes,
                                                                    len(ordinal)),
                             class_names=[str(c) for c in self.classes_],
                             prediction=self.prediction)
        self.feature_names_in_ = self.encoder_.feature_names
        return self

    def apply(self, X):
        """Leaf id of each row of ``X``."""
        return self.tree_.apply(self.encoder_.transform(X))

    def predict_index(self, X):
        """Predicted level index (0 = lowest level) of each row."""
        return self.tree_.predicted_level[self.apply(X)]

    def predict(self, X):
        """Predicted level of each row (one of ``classes_``)."""
        return level_array(self.classes_)[self.predict_index(X)]

    def predict_by_depth(self, X):
        """Predicted positions of the tree cut at every depth, shape (n_rows, max_depth + 1).

        Column ``d`` equals ``predict`` of this tree refitted with
        ``max_depth=d`` (mapped to positions): the best split of a node does
        not depend on the depth limit, so one deep tree holds every shallower
        one (seed 002, Fig. 2).
        """
        paths = self.tree_.decision_paths(self.encoder_.transform(X))
        return self.positions_[self.tree_.predicted_level[paths]]

    def level_index(self, y):
        """Index (0 = lowest) of each of the levels ``y``; an unknown level is an error."""
        return OrdinalLevels(self.classes_, self.positions_).encode(y)

    def rank_loss(self, X, y):
        """Mean absolute rank loss of the predictions for ``X`` against levels ``y``."""
        truth = self.positions_[self.level_index(y)]
        return mean_rank_loss(truth, self.positions_[self.predict_index(X)])

    def gamma_path(self):
        """The trees of every γ up to the fitted one; see :class:`rankviz.tree.gamma_path.GammaPath`."""
        return GammaPath(self.tree_, self._check_params(), gamma_max=self.gamma)

    def _check_params(self):
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
