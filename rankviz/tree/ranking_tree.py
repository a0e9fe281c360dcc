"""The ranking tree estimator of Rebelo, Soares & Costa (2008), with scikit-learn conventions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Self

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from ..binning import bin_columns, thresholds_from_codes
from .builder import grow_tree
from .criteria import Criterion, get_criterion
from .._validation import check_feature_input, check_growth_params, check_rankings, features_drawn, moved_fit_keyword
from ..features import FeatureEncoder
from ..label_ranking.aggregation import check_tie_tolerance, tie_close_labels
from ..label_ranking.base import LabelRankerMixin
from ..label_ranking.bucket_order import DEFAULT_BETA, check_consensus, chosen_consensus
from .bucket_nodes import node_bucket_orders
from .display import TreeDisplayMixin
from .gamma_path import GammaPath
from .mallows_nodes import node_models

__all__ = ["RankingTree"]


class RankingTree(TreeDisplayMixin, LabelRankerMixin, BaseEstimator):
    """Ranking tree: a decision tree whose leaves predict a ranking of labels.

    Grown top-down (TDIDT). Each binary split tests one attribute: a numeric
    attribute against a threshold halfway between two consecutive distinct
    values (``x <= t``), or a nominal attribute against one value
    (``A = v`` versus the rest, Table 2 of Rebelo, Soares & Costa 2008).
    The split chosen maximises the criterion; a node is split only while
    stopping rule (6), ``(1 + S_parent) >= gamma * (1 + S_split)``, does not
    hold and the limits allow. A leaf predicts the mean-rank ranking of its
    training rankings (Table 3 of Rebelo et al.; ties broken by label
    order), except with ``criterion="mallows"``: the label ranking tree of
    Cheng, Hühn & Hüllermeier (2009), whose leaves predict the centre of a
    Mallows model fitted to their rankings (completed from ancestors where a
    leaf lacks labels) and expose its spread ``tree_.theta`` and the
    reliability ``tree_.reliability``.

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
        undefined in Rebelo et al.; with 1, a singleton counts as similarity
        1 and peeling off single examples becomes attractive (the tree
        overfits).
    max_depth : int or None, default=None
        Maximum depth; None for no limit.
    tie_tolerance : float or None, default=None
        None: every leaf predicts a strict ranking (labels with equal mean
        positions in label order), as both papers do. A number >= 0: leaves
        predict partial rankings, in which neighbouring labels whose
        aggregated positions differ by at most this much are tied and share
        the average of their positions (``a > b = c`` is ``1, 2.5, 2.5``;
        :func:`rankviz.label_ranking.aggregation.tie_close_labels`). The
        aggregated position is the leaf's mean rank, and with
        ``criterion="mallows"`` the mean Borda position its centre is
        sorted by (a label a leaf borrows from an ancestor ties with none).
        It changes the leaves' rankings, never the splits.
    consensus : {"auto", "aggregate", "bucket_order"}, default="auto"
        What ranking a node predicts. ``"aggregate"``: the criterion's own
        (the mean-rank rule; the Mallows centre for ``criterion="mallows"``),
        strict or tied by ``tie_tolerance``. ``"bucket_order"``: the bucket
        order of the partial label ranking trees of Alfaro, Aledo & Gámez
        (2021), which ties labels by their rankings' pair orders (the pivot
        algorithm BPA-LIA-MP2 with tie threshold ``beta``,
        :func:`rankviz.label_ranking.bucket_order.bucket_order`).
        ``"auto"``: the bucket order when the training rankings are partial
        rankings (at least a tenth of them tie labels,
        :func:`rankviz.label_ranking.bucket_order.is_partial`) and no
        ``tie_tolerance`` is given, the aggregate otherwise; so partial
        rankings are predicted with ties by default, while a few equal scores
        in complete rankings change nothing.
    beta : float, default=0.25
        The tie threshold of the bucket order, in [0, 0.5] (0.25 as Alfaro et
        al.); larger values tie more.
    max_bins : int or None, default=None
        None: every threshold between two distinct values is tried, as the
        papers do. An int >= 2: a numeric attribute with more distinct
        values is cut into at most ``max_bins`` bins at quantiles of its
        values, and only the thresholds between bins are tried (histogram
        trees, as LightGBM and scikit-learn's ``HistGradientBoosting``); an
        attribute with fewer values is searched exactly. It does not make
        this builder faster: it sorts each attribute once and scans rows, not
        thresholds, so binning costs more than it saves (255 bins: 1.1-2.2
        times the fit time on 11,000-40,000 rows; ``benchmarks/bench_tree_growth.py``,
        part (c), which also measures the accuracy it costs: at 255 bins
        within 0.005 of Kendall tau but for Gini on calhousing, -0.013).
    max_features : int, float, {"sqrt", "log2"} or None, default=None
        None searches every attribute at every node, as the papers do.
        Otherwise each node is searched on that many attributes only (an
        int, a fraction of them, their square root or base-2 logarithm; at
        least one), drawn afresh at each node: the trees of a random forest
        (Breiman 2001; :class:`rankviz.RankingForest`'s ``split_features``).
        A node whose drawn attributes allow no split is a leaf.
    random_state : int, RandomState or None, default=None
        Seeds the draws of ``max_features`` (unused without them).

    Attributes
    ----------
    tree_ : Tree
        The fitted tree as parallel arrays.
    encoder_ : FeatureEncoder
        How ``X`` was encoded (nominal values as codes); ``encoder_.transform(X)``
        gives the matrix that ``tree_.apply`` and the γ path take, and
        ``encoder_.feature_names`` the names the tree shows (the column
        names of a DataFrame, ``x1..xd`` for an array).
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of str, shape (``n_features_in_``,)
        Names of the features seen in ``fit``; only when ``X`` was a
        DataFrame with string column names.
    label_names_ : list of str
        The label names the tree shows: the columns of a DataFrame ``Y``,
        else ``label_1..label_L``.
    n_labels_ : int
        Number of labels (columns of the training ``Y``).
    consensus_ : str
        ``"bucket_order"`` or ``"aggregate"``: what the nodes predict (the
        choice of ``consensus="auto"``).

    See Also
    --------
    rankviz.OrdinalTree : The tree for an ordinal target.
    rankviz.tree.GammaPath : The trees of every γ, cut from one tree.
    rankviz.IBLR, rankviz.KNNRanker : Label rankers to compare with.
    rankviz.viz.export_tree : Draw the fitted tree for a paper.

    References
    ----------
    .. [1] C. Rebelo, C. Soares and J. Pinto da Costa, "Empirical evaluation of
       ranking trees on some metalearning problems", Proceedings of the 2nd
       Planning to Learn Workshop (PlanLearn) at ICML/COLT/UAI 2008, 2008.
    .. [2] W. Cheng, J. Hühn and E. Hüllermeier, "Decision tree and
       instance-based learning for label ranking", Proceedings of the 26th
       International Conference on Machine Learning (ICML 2009),
       pp. 161-168, 2009.
    .. [3] J. C. Alfaro, J. A. Aledo and J. A. Gámez, "Learning decision trees
       for the partial label ranking problem", International Journal of
       Intelligent Systems 36(2), pp. 890-918, 2021.

    Examples
    --------
    >>> import numpy as np
    >>> from rankviz import RankingTree
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> Y = np.array([[1, 2, 3], [1, 2, 3], [3, 2, 1], [3, 2, 1]])
    >>> RankingTree().fit(X, Y).predict([[0.5], [2.5]])
    array([[1., 2., 3.],
           [3., 2., 1.]])

    On the toy sample of Rebelo et al.'s kind, a nominal and a numeric
    attribute:

    >>> from rankviz import load_sample
    >>> data = load_sample("toy")
    >>> tree = RankingTree(min_samples_leaf=2).fit(data.X, data.rankings)
    >>> tree.tree_.n_leaves, tree.tree_.test_text(0), tree.tree_.ranking_text(0)
    (5, 'A1 = c', 'a2 > a3 > a1 > a4')
    >>> tree.predict(data.X[:2])
    array([[1., 2., 3., 4.],
           [1., 2., 3., 4.]])
    """

    def __init__(self, criterion: str | Criterion = "mean_spearman", gamma: float = 0.995,
                 min_samples_leaf: int = 2, max_depth: int | None = None,
                 tie_tolerance: float | None = None, consensus: str = "auto", beta: float = DEFAULT_BETA,
                 max_bins: int | None = None, max_features: int | float | str | None = None,
                 random_state: Any = None) -> None:
        self.criterion = criterion
        self.gamma = gamma
        self.min_samples_leaf = min_samples_leaf
        self.max_depth = max_depth
        self.tie_tolerance = tie_tolerance
        self.consensus = consensus
        self.beta = beta
        self.max_bins = max_bins
        self.max_features = max_features
        self.random_state = random_state

    def fit(self, X: Any, Y: ArrayLike, label_names: Sequence[str] | None = None) -> Self:
        """Grow the tree on features ``X`` and rank positions ``Y``.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Numeric and nominal (string, category, bool) attributes; NaN
            (or None) marks a missing value.
        Y : DataFrame or array-like of shape (n_samples, n_labels)
            Rank positions, lower = preferred, equal = tied: average
            positions (``1, 2.5, 2.5, 4``), dense or competition ranks, or any
            finite numbers; only each row's order is used
            (:func:`rankviz.utils.check_rankings` converts them). A
            DataFrame's column names are the label names the tree shows
            (``label_1..`` otherwise; :attr:`RankingDataset.rankings
            <rankviz.datasets.RankingDataset.rankings>` is one).
        label_names : list of str, optional
            Deprecated since 0.2, removed in 0.3: pass ``Y`` as a DataFrame
            whose columns are the label names (``fit`` keywords are lost by
            ``clone`` and grid searches).

        Returns
        -------
        self : RankingTree
            The fitted tree.

        Raises
        ------
        ValueError
            If a parameter is invalid, ``X`` is not a 2-D table of at least
            one row and one feature (see
            :func:`rankviz._validation.check_feature_input`), or ``Y`` is not
            a rank matrix with one row per row of ``X`` (or not one the
            criterion takes).
        TypeError
            If ``X`` is sparse.

        Notes
        -----
        The library's criteria grow in compiled code (Numba), cached per
        user (:mod:`rankviz.numba_cache`). Building that code costs tens of
        seconds of CPU, once; the fits of a process that finds it neither
        built nor in the cache grow with NumPy, which grows the same tree
        (20-45 ms of CPU for 300 rows, but several times slower than the
        compiled code on large or deep trees), while a background thread
        builds it; later fits use it. ``rankviz warm-up`` builds it ahead, and
        :func:`rankviz.jit.set_compile_mode` chooses otherwise ("wait":
        compiled always, the first fit compiling; "never": NumPy always).
        """
        criterion = get_criterion(self.criterion)
        self._check_params()
        X = check_feature_input(self, X, Y, reset=True)
        named = [str(column) for column in Y.columns] if isinstance(Y, pd.DataFrame) else None
        if label_names is not None:
            moved_fit_keyword(self, "label_names", "pass Y as a DataFrame whose columns are the label names")
            named = list(label_names)
        Y = check_rankings(Y, n_rows=X.shape[0])
        criterion.check_targets(Y)
        criterion.check_memory(Y, n_features=X.shape[1])  # before anything grows with it
        self.encoder_ = FeatureEncoder().fit(X)
        X_encoded = self.encoder_.transform(X)
        if named is not None and len(named) != Y.shape[1]:
            raise ValueError(f"{len(named)} label names for {Y.shape[1]} labels")
        self.label_names_ = named if named is not None else [f"label_{j + 1}" for j in range(Y.shape[1])]
        bin_thresholds: dict[int, np.ndarray] = {}
        X_grown = X_encoded
        if self.max_bins is not None:
            X_grown, bin_thresholds = bin_columns(X_encoded, np.flatnonzero(~self.encoder_.nominal), self.max_bins)
        n_drawn: int | None = features_drawn(self.max_features, X_grown.shape[1])
        seed = 0
        if n_drawn == X_grown.shape[1]:
            n_drawn = None  # every attribute searched: no draws, and no seed taken from random_state
        else:
            seed = int(check_random_state(self.random_state).randint(np.iinfo(np.int64).max, dtype=np.int64))
        self.tree_, leaf_of_row = grow_tree(
            X_grown, self.encoder_.nominal, Y, criterion,
            gamma=self.gamma, min_samples_leaf=self.min_samples_leaf, max_depth=self.max_depth,
            feature_names=self.encoder_.feature_names, categories=self.encoder_.categories,
            label_names=self.label_names_, return_leaves=True,
            max_features=n_drawn, feature_seed=seed,
        )
        if bin_thresholds:
            # the splits were searched on bin codes: state them on the attributes' values
            tree = self.tree_
            self.tree_ = replace(
                tree, threshold=thresholds_from_codes(tree.threshold, tree.feature, bin_thresholds),
                split_threshold=thresholds_from_codes(tree.split_threshold, tree.split_feature, bin_thresholds))
        if criterion.name == "mallows":
            # Label ranking trees (Cheng, Hühn & Hüllermeier 2009) predict each leaf's Mallows centre.
            ranking, theta, mean_position = node_models(self.tree_, X_encoded, Y, leaf_of_row)
            self.tree_ = replace(self.tree_, ranking=ranking, theta=theta)
        else:
            mean_position = self.tree_.mean_rank
        # the grower's node distances serve the node models only (a cut of the tree would not match them)
        self.tree_.extras.pop("node_distance", None)
        self.consensus_ = chosen_consensus(self.consensus, self.tie_tolerance, Y)
        if self.consensus_ == "bucket_order":
            # Partial label ranking trees (Alfaro, Aledo & Gámez 2021) predict each node's bucket order.
            self.tree_ = replace(self.tree_, ranking=node_bucket_orders(self.tree_, Y, leaf_of_row, self.beta))
        elif self.tie_tolerance is not None:
            self.tree_ = replace(self.tree_, ranking=tie_close_labels(self.tree_.ranking, mean_position,
                                                                      self.tie_tolerance))
        self.n_labels_ = Y.shape[1]
        return self

    def apply(self, X: Any) -> np.ndarray:
        """Return the leaf id of each row of ``X``.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Features with the columns of ``fit``; NaN (or None) marks a
            missing value, sent to the side each split chose for missing
            values in training.

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

    def predict(self, X: Any) -> np.ndarray:
        """Predict rank positions: the ranking of the leaf each row falls in.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Features with the columns of ``fit``; NaN (or None) marks a
            missing value.

        Returns
        -------
        ndarray of shape (n_samples, n_labels)
            Each row a permutation of ``1..n_labels`` (1 = first); with
            ``tie_tolerance``, tied labels share the average of their positions.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the tree is not fitted.
        ValueError
            If ``X`` has other features than in ``fit``.
        """
        leaves = self.apply(X)
        return self.tree_.ranking[leaves]

    def gamma_path(self) -> GammaPath:
        """Return the trees of every γ up to the fitted one, cut from this tree without regrowth.

        Fit with ``gamma=np.inf`` to get the whole path: the γ breakpoints, the
        leaf count and the tree at any γ (see :class:`rankviz.tree.gamma_path.GammaPath`).

        Returns
        -------
        GammaPath
            The path of ``tree_``, defined for γ up to the fitted ``gamma``.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the tree is not fitted.
        """
        check_is_fitted(self)
        return GammaPath(self.tree_, get_criterion(self.criterion), gamma_max=self.gamma)

    def predict_at(self, X: Any, gammas: ArrayLike) -> np.ndarray:
        """Predict rank positions at several γ at once.

        Equals ``predict`` of a tree fitted with each γ, from this one tree.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Features with the columns of ``fit``.
        gammas : array-like of float, shape (n_gammas,)
            Values of γ up to the fitted ``gamma``.

        Returns
        -------
        ndarray of shape (n_samples, n_gammas, n_labels)
            ``result[i, g]`` is the ranking predicted for row ``i`` by the
            tree at ``gammas[g]`` (rank positions, 1 = first).

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the tree is not fitted.
        ValueError
            If ``X`` has other features than in ``fit``, or a γ exceeds the
            fitted one.
        """
        path = self.gamma_path()
        return path.predict(self._encode(X), gammas)

    def _encode(self, X: Any) -> np.ndarray:
        """``X`` checked against the fit and encoded as the tree's matrix."""
        X = check_feature_input(self, X, reset=False)
        return self.encoder_.transform(X)

    def _check_params(self) -> None:
        check_growth_params(self.gamma, self.min_samples_leaf, self.max_depth)
        check_tie_tolerance(self.tie_tolerance)
        check_consensus(self.consensus, self.beta)
        if self.max_bins is not None and not (isinstance(self.max_bins, (int, np.integer))
                                              and not isinstance(self.max_bins, bool) and self.max_bins >= 2):
            raise ValueError(f"max_bins must be None or an integer >= 2, got {self.max_bins!r}")
