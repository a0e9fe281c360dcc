"""The ranking tree estimator (seed 001), with scikit-learn conventions."""

from dataclasses import replace

from sklearn.base import BaseEstimator

from .builder import grow_tree
from .criteria import get_criterion
from .._validation import check_growth_params, check_rankings
from ..features import FeatureEncoder
from .gamma_path import GammaPath
from .mallows_nodes import node_models

__all__ = ["RankingTree"]


class RankingTree(BaseEstimator):
    """Ranking tree: a decision tree whose leaves predict a ranking of labels.

    Grown top-down (TDIDT). Each binary split tests one attribute: a numeric
    attribute against a threshold halfway between two consecutive distinct
    values (``x <= t``), or a nominal attribute against one value
    (``A = v`` versus the rest, seed 001 Table 2). The split chosen maximises
    the criterion; a node is split only while stopping rule (6),
    ``(1 + S_parent) >= gamma * (1 + S_split)``, does not hold and the
    limits allow. A leaf predicts the mean-rank ranking of its training
    rankings (seed 001 Table 3; ties broken by label order), except with
    ``criterion="mallows"``: the label ranking tree of seed 003, whose leaves
    predict the centre of a Mallows model fitted to their rankings (completed
    from ancestors where a leaf lacks labels) and expose its spread
    ``tree_.theta`` and the reliability ``tree_.reliability``.

    Parameters
    ----------
    criterion : str or Criterion, default="mean_spearman"
        Splitting criterion; see ``rankviz.tree.criteria.CRITERIA``.
    gamma : float, default=0.995
        The γ of rule (6). Smaller values stop earlier; values above 1 accept
        splits that make the subsets less homogeneous.
    min_samples_leaf : int, default=2
        Minimum number of training examples in each leaf. The default is 2
        because the similarity of a single example, a mean over no pairs, is
        undefined in seed 001; with 1, a singleton counts as similarity 1 and
        peeling off single examples becomes attractive (the tree overfits).
    max_depth : int or None, default=None
        Maximum depth; None for no limit.

    Attributes
    ----------
    tree_ : Tree
        The fitted tree as parallel arrays.
    feature_names_in_ : list of str
    encoder_ : FeatureEncoder
        How ``X`` was encoded (nominal values as codes); ``encoder_.transform(X)``
        gives the matrix that ``tree_.apply`` and the γ path take.
    label_names_ : list of str
    n_labels_ : int

    Examples
    --------
    >>> import numpy as np
    >>> from rankviz import RankingTree
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> Y = np.array([[1, 2, 3], [1, 2, 3], [3, 2, 1], [3, 2, 1]])
    >>> RankingTree().fit(X, Y).predict([[0.5], [2.5]])
    array([[1., 2., 3.],
           [3., 2., 1.]])
    """

    def __init__(self, criterion="mean_spearman", gamma=0.995, min_samples_leaf=2, max_depth=None):
        self.criterion = criterion
        self.gamma = gamma
        self.min_samples_leaf = min_samples_leaf
        self.max_depth = max_depth

    def fit(self, X, Y, label_names=None):
        """Grow the tree on features ``X`` and rank positions ``Y``.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Numeric and nominal (string, category, bool) attributes.
        Y : array-like of shape (n_samples, n_labels)
            Rank positions, 1 = most preferred.
        label_names : list of str, optional
            Names shown in the tree; ``label_1..`` by default.

        Returns
        -------
        self
        """
        criterion = get_criterion(self.criterion)
        self._check_params()
        self.encoder_ = FeatureEncoder().fit(X)
        X_encoded = self.encoder_.transform(X)
        Y = check_rankings(Y, n_rows=len(X_encoded))
        criterion.check_targets(Y)
        self.label_names_ = list(label_names) if label_names is not None else [
            f"label_{j + 1}" for j in range(Y.shape[1])]
        self.tree_ = grow_tree(
            X_encoded, self.encoder_.nominal, Y, criterion,
            gamma=self.gamma, min_samples_leaf=self.min_samples_leaf, max_depth=self.max_depth,
            feature_names=self.encoder_.feature_names, categories=self.encoder_.categories,
            label_names=self.label_names_,
        )
        if criterion.name == "mallows":
            # Label ranking trees (seed 003) predict each leaf's Mallows centre.
            ranking, theta = node_models(self.tree_, X_encoded, Y)
            self.tree_ = replace(self.tree_, ranking=ranking, theta=theta)
        self.feature_names_in_ = self.encoder_.feature_names
        self.n_labels_ = Y.shape[1]
        return self

    def apply(self, X):
        """Leaf id of each row of ``X``."""
        return self.tree_.apply(self.encoder_.transform(X))

    def predict(self, X):
        """Predicted rank positions, shape (n_samples, n_labels); each row a permutation."""
        return self.tree_.ranking[self.apply(X)]

    def gamma_path(self):
        """The trees of every γ up to the fitted one, cut from this tree without regrowth.

        Fit with ``gamma=np.inf`` to get the whole path: the γ breakpoints, the
        leaf count and the tree at any γ (see :class:`rankviz.tree.gamma_path.GammaPath`).

        Returns
        -------
        GammaPath
        """
        return GammaPath(self.tree_, get_criterion(self.criterion), gamma_max=self.gamma)

    def predict_at(self, X, gammas):
        """Predicted rank positions at several γ at once, shape (n_samples, n_gammas, n_labels).

        Equals ``predict`` of a tree fitted with each γ, from this one tree.
        """
        return self.gamma_path().predict(self.encoder_.transform(X), gammas)

    def _check_params(self):
        check_growth_params(self.gamma, self.min_samples_leaf, self.max_depth)
