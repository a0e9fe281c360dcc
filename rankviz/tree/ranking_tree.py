"""The ranking tree estimator (seed 001), with scikit-learn conventions."""

from dataclasses import replace

import numpy as np
from sklearn.base import BaseEstimator

from .builder import grow_tree
from .criteria import get_criterion
from ..datasets.label_ranking import validate_rank_matrix
from ..features import FeatureEncoder
from .gamma_path import GammaPath
from .mallows_nodes import node_models

__all__ = ["RankingTree", "check_growth_params", "check_rankings"]


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


def check_growth_params(gamma, min_samples_leaf, max_depth):
    """Raise ``ValueError`` naming the first invalid growth parameter of a tree estimator."""
    if not (isinstance(gamma, (int, float)) and gamma > 0):
        raise ValueError(f"gamma must be a positive number, got {gamma!r}")
    if not (isinstance(min_samples_leaf, (int, np.integer)) and min_samples_leaf >= 1):
        raise ValueError(f"min_samples_leaf must be an integer >= 1, got {min_samples_leaf!r}")
    if max_depth is not None and not (isinstance(max_depth, (int, np.integer)) and max_depth >= 0):
        raise ValueError(f"max_depth must be None or an integer >= 0, got {max_depth!r}")


def check_rankings(Y, n_rows=None):
    """Validate a rank-position matrix and return it as a 2-D float array.

    Every row must be a ranking of its present labels (positions ``1..m``,
    ties as average positions); the error names the first row that is not.
    Rows with fewer than two present labels are accepted: deleting labels at
    random (seed 003's protocol) makes them, and they simply order no pair.
    """
    Y = np.asarray(Y, dtype=float)
    if Y.ndim != 2:
        raise ValueError(f"Y must be a 2-D matrix of rank positions, got shape {Y.shape}")
    if n_rows is not None and len(Y) != n_rows:
        raise ValueError(f"X has {n_rows} rows but Y has {len(Y)}")
    if Y.shape[1] < 2:
        raise ValueError(f"Y must rank at least 2 labels, got {Y.shape[1]}")
    if len(Y) < 1:
        raise ValueError("Y has no rows")
    return validate_rank_matrix(Y, [f"label_{j + 1}" for j in range(Y.shape[1])], source="Y",
                                allow_short_rows=True)
