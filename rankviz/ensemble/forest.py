"""A bagged, randomised forest of ranking trees whose trees vote by the Borda count.

Each tree is a :class:`rankviz.RankingTree` grown on a bootstrap sample of
the rows and a random subset of the features (bagging, Breiman 1996, with
the random subspaces of Ho 1998, as scikit-learn's ``BaggingRegressor``
with ``max_features``), and, with ``split_features``, searched at each node
on a fresh random subset of them (the random forest of Breiman 2001, as
scikit-learn's ``RandomForestRegressor`` with its ``max_features``). The
forest predicts the ranking of the trees' mean rank positions: for complete rankings the Borda count of their rankings,
the aggregation of the label ranking forests of de Sá, Soares, Knobbe &
Cortez (2017); a tie tolerance makes it a partial ranking. As each
mean-Spearman tree ranks by the mean positions of the in-bag rankings in
the leaf a row reaches, this is the two-step aggregation of Zhou & Qiu
(2018): the Borda count within each tree's leaf, then across the trees
(their trees split on the distinct rankings as classes; these on the
criterion). A Mallows tree's leaf centre is the Borda count too (Cheng,
Hühn & Hüllermeier 2009, Proposition 2), so a Mallows vote of complete
rankings would be this vote.

References
----------
.. [1] L. Breiman, "Bagging predictors", Machine Learning 24(2),
       pp. 123-140, 1996.
.. [2] T. K. Ho, "The random subspace method for constructing decision
       forests", IEEE Transactions on Pattern Analysis and Machine
       Intelligence 20(8), pp. 832-844, 1998.
.. [3] C. R. de Sá, C. Soares, A. Knobbe and P. Cortez, "Label ranking
       forests", Expert Systems 34(1), e12166, 2017.
.. [4] Y. Zhou and G. Qiu, "Random forest for label ranking", Expert
       Systems with Applications 112, pp. 99-109, 2018.
.. [5] L. Breiman, "Random forests", Machine Learning 45(1), pp. 5-32, 2001.
.. [6] W. Cheng, J. Hühn and E. Hüllermeier, "Decision tree and
       instance-based learning for label ranking", ICML 2009, pp. 161-168.
"""

from __future__ import annotations

import numbers
import warnings
from typing import Any, Self

import joblib
import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from .._validation import check_feature_input, check_growth_params, check_n_jobs, check_rankings, features_drawn
from ..label_ranking.aggregation import check_tie_tolerance, rank_by_mean
from ..label_ranking.base import LabelRankerMixin
from ..label_ranking.bucket_order import DEFAULT_BETA, bucket_orders, check_consensus, chosen_consensus
from ..label_ranking.metrics import kendall_tau, tau_x
from ..tree import Criterion, RankingTree, get_criterion

__all__ = ["RankingForest"]


class RankingForest(LabelRankerMixin, BaseEstimator):
    """Forest of ranking trees: bagging with random feature subsets, trees voting by the Borda count.

    Every tree is a :class:`rankviz.RankingTree` (any criterion, incomplete
    rankings too) grown on ``n_samples`` rows drawn with replacement and on
    ``max_features`` features drawn without replacement, both from its own
    seed. A prediction ranks the labels by their mean position over the
    trees' predictions; with ``tie_tolerance`` labels whose mean positions
    differ by at most that much are tied. On partial rankings
    (:func:`rankviz.label_ranking.bucket_order.is_partial`) every tree's
    nodes predict bucket orders.

    Parameters
    ----------
    n_estimators : int, default=100
        Number of trees.
    criterion : str or Criterion, default="mean_spearman"
        Splitting criterion of the trees, as :class:`rankviz.RankingTree`.
    gamma : float, default=inf
        The γ of stopping rule (6) of the trees; by default they grow until
        the other limits stop them, as the trees of a forest do.
    min_samples_leaf : int, default=1
        Minimum number of (drawn) rows in each leaf of a tree.
    max_depth : int or None, default=None
        Maximum depth of the trees.
    max_features : int, float, {"sqrt", "log2"} or None, default=None
        Features each tree sees: an int, a fraction of them (at least one),
        the square root or base-2 logarithm of their number, or all (None).
    split_features : int, float, {"sqrt", "log2"} or None, default="sqrt"
        Features each node of a tree is searched on, drawn afresh at every
        node from the tree's features (the random forest of Breiman 2001,
        and of Zhou & Qiu 2018 for label ranking; the trees'
        ``max_features``), in the same forms; None searches all of them
        (bagging only). The square root, the usual default of random
        forests for classes, decorrelates the trees: against None, on eight
        label-ranking files (10 folds, 100 trees), Kendall tau rose on six
        (wine .918 -> .959, vowel .873 -> .898, iris .969 -> .982, bodyfat
        .204 -> .215) and stayed within .003 on the others (vehicle, wisconsin).
    bootstrap : bool, default=True
        Draw each tree's rows with replacement; False grows every tree on
        all the rows.
    oob_score : bool, default=False
        Score each row by the trees that did not draw it (needs
        ``bootstrap``): ``oob_score_`` and ``oob_prediction_``.
    tie_tolerance : float or None, default=None
        None: strict rankings (equal mean positions in label order). A number
        >= 0: neighbouring labels whose mean positions differ by at most this
        much are tied and share the average of their positions
        (:func:`rankviz.label_ranking.aggregation.tie_close_labels`).
    consensus : {"auto", "aggregate", "bucket_order"}, default="auto"
        ``"aggregate"``: the trees' nodes predict their criterion's ranking and
        the forest the Borda count of the trees. ``"bucket_order"``: the
        nodes and the forest predict the bucket order of Alfaro, Aledo &
        Gámez (2021) of their rankings, the forest's of the trees' predictions
        (:func:`rankviz.label_ranking.bucket_order.bucket_orders`), which ties
        labels. ``"auto"``: the bucket order on partial rankings without a
        ``tie_tolerance``, as :class:`rankviz.RankingTree`.
    beta : float, default=0.25
        The tie threshold of the bucket orders, in [0, 0.5].
    n_jobs : int or None, default=None
        Trees grown and predicting in parallel (threads): None for 1, -1 for
        every CPU. The result does not depend on it.
    random_state : int, RandomState or None, default=None
        Seeds the trees' draws.

    Attributes
    ----------
    estimators_ : list of RankingTree
        The fitted trees; tree ``t`` was grown on the columns
        ``estimators_features_[t]`` (named, so ``estimators_[t]`` shows them).
    estimators_features_ : list of ndarray of int
        The feature indices each tree was grown on.
    estimators_samples_ : list of ndarray of int
        The rows each tree drew (with repetitions under ``bootstrap``).
    oob_score_ : float
        Mean Kendall tau (τx when the forest votes bucket orders) of the
        out-of-bag predictions over the rows that have one (only with
        ``oob_score``).
    oob_prediction_ : ndarray of shape (n_samples, n_labels)
        The out-of-bag prediction of each training row; NaN for a row every
        tree drew (only with ``oob_score``).
    consensus_ : str
        ``"bucket_order"`` or ``"aggregate"``, the choice of ``consensus="auto"``.
    label_names_ : list of str
        The columns of a DataFrame ``Y``, else ``label_1..label_L``.
    feature_names_ : list of str
        The feature names the trees show: the columns of a DataFrame ``X``,
        else ``x1..xd``.
    n_labels_ : int
        Number of labels.
    n_features_in_ : int
        Number of features seen in ``fit``.

    See Also
    --------
    rankviz.RankingTree : One tree.
    rankviz.label_ranking.permutation_importance : Each feature's importance per label.

    References
    ----------
    .. [1] L. Breiman, "Bagging predictors", Machine Learning 24(2),
           pp. 123-140, 1996.
    .. [2] T. K. Ho, "The random subspace method for constructing decision
           forests", IEEE TPAMI 20(8), pp. 832-844, 1998.
    .. [3] C. R. de Sá, C. Soares, A. Knobbe and P. Cortez, "Label ranking
           forests", Expert Systems 34(1), e12166, 2017.

    Examples
    --------
    >>> from rankviz import RankingForest, load_sample
    >>> data = load_sample("metalearning")
    >>> forest = RankingForest(n_estimators=40, oob_score=True, random_state=0).fit(data.X, data.Y)
    >>> len(forest.estimators_), forest.predict(data.X[:1]).shape
    (40, (1, 10))
    >>> bool(-1 <= forest.oob_score_ <= 1)
    True
    """

    def __init__(self, n_estimators: int = 100, criterion: str | Criterion = "mean_spearman", gamma: float = np.inf,
                 min_samples_leaf: int = 1, max_depth: int | None = None, max_features: int | float | str | None = None,
                 split_features: int | float | str | None = "sqrt", bootstrap: bool = True, oob_score: bool = False,
                 tie_tolerance: float | None = None, consensus: str = "auto", beta: float = DEFAULT_BETA,
                 n_jobs: int | None = None, random_state: Any = None) -> None:
        self.n_estimators = n_estimators
        self.criterion = criterion
        self.gamma = gamma
        self.min_samples_leaf = min_samples_leaf
        self.max_depth = max_depth
        self.max_features = max_features
        self.split_features = split_features
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.tie_tolerance = tie_tolerance
        self.consensus = consensus
        self.beta = beta
        self.n_jobs = n_jobs
        self.random_state = random_state

    def fit(self, X: Any, Y: ArrayLike) -> Self:
        """Grow the trees on bootstrap samples of ``X`` and ``Y``.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Numeric and nominal attributes, NaN for a missing value, as for
            :meth:`rankviz.RankingTree.fit`.
        Y : DataFrame or array-like of shape (n_samples, n_labels)
            Rank positions (lower = preferred, equal = tied, NaN = missing);
            a DataFrame's columns name the labels.

        Returns
        -------
        self : RankingForest
            The fitted forest.

        Raises
        ------
        ValueError
            For an invalid parameter, ``oob_score`` without ``bootstrap``,
            or what :meth:`rankviz.RankingTree.fit` refuses.
        """
        self._check_params()
        X = check_feature_input(self, X, Y, reset=True)
        label_names = [str(c) for c in Y.columns] if isinstance(Y, pd.DataFrame) else None
        Y = check_rankings(Y, n_rows=X.shape[0])
        n, n_labels = Y.shape
        frame = _named_frame(X)
        self.feature_names_ = [str(c) for c in frame.columns]
        self.label_names_ = label_names or [f"label_{j + 1}" for j in range(n_labels)]
        self.n_labels_ = n_labels
        n_features = frame.shape[1]
        chosen = features_drawn(self.max_features, n_features)
        # One seed per tree, drawn up front (as scikit-learn's forests): the trees do not depend on n_jobs.
        seeds = check_random_state(self.random_state).randint(np.iinfo(np.int32).max, size=self.n_estimators)
        draws = [_draw(seed, n, n_features, chosen, self.bootstrap) for seed in seeds]
        self.estimators_samples_ = [rows for rows, _ in draws]
        self.estimators_features_ = [features for _, features in draws]
        ranked = pd.DataFrame(Y, columns=pd.Index(self.label_names_))
        # what the nodes and the vote predict, decided once on all the rows (a bootstrap sample ties more or less)
        self.consensus_ = chosen_consensus(self.consensus, self.tie_tolerance, Y)
        self.estimators_ = self._parallel(joblib.delayed(_grow)(self._tree(seed), frame, ranked, rows, features)
                                          for seed, (rows, features) in zip(seeds, draws))
        if self.oob_score:
            self._score_out_of_bag(frame, Y)
        return self

    def predict(self, X: Any) -> np.ndarray:
        """Predict rank positions: the ranking of the trees' mean positions (or their bucket order).

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Features with the columns of ``fit``.

        Returns
        -------
        ndarray of shape (n_samples, n_labels)
            A permutation of ``1..n_labels`` per row (1 = first); with
            ``tie_tolerance`` or bucket orders, tied labels share the average
            of their positions.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the forest is not fitted.
        ValueError
            If ``X`` has other features than in ``fit``.
        """
        return self._vote(self._tree_predictions(X))

    def predict_mean_positions(self, X: Any) -> np.ndarray:
        """Mean rank position of every label over the trees' predictions (their Borda scores).

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Features with the columns of ``fit``.

        Returns
        -------
        ndarray of shape (n_samples, n_labels)
            In ``[1, n_labels]``; lower = preferred. ``predict`` ranks them.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the forest is not fitted.
        ValueError
            If ``X`` has other features than in ``fit``.
        """
        return self._tree_predictions(X).mean(axis=0)

    def _tree_predictions(self, X: Any) -> np.ndarray:
        """Every tree's predictions, shape (n_estimators, n_samples, n_labels)."""
        check_is_fitted(self, "estimators_")
        frame = _named_frame(check_feature_input(self, X, reset=False), self.feature_names_)
        return self._predictions_of(frame)

    def _predictions_of(self, frame: pd.DataFrame) -> np.ndarray:
        predictions = self._parallel(joblib.delayed(_predict)(tree, frame, features)
                                     for tree, features in zip(self.estimators_, self.estimators_features_))
        return np.stack(predictions)

    def _vote(self, predictions: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
        """The forest's rankings from the trees' (trees x rows x labels), each tree weighted per row."""
        if self.consensus_ == "bucket_order":
            return bucket_orders(np.swapaxes(predictions, 0, 1), weights, beta=self.beta)
        tree_weights = np.ones(predictions.shape[:2]) if weights is None else weights.T
        mean = np.einsum("tr,trl->rl", tree_weights, predictions) / tree_weights.sum(axis=0)[:, None]
        return rank_by_mean(mean, self.tie_tolerance)

    def _score_out_of_bag(self, frame: pd.DataFrame, Y: np.ndarray) -> None:
        n = len(frame)
        # weight 1 for the trees that did not draw the row
        unseen = np.stack([np.bincount(rows, minlength=n) == 0 for rows in self.estimators_samples_], axis=1)
        scored = unseen.any(axis=1)
        if not scored.all():
            warnings.warn(f"{n - int(scored.sum())} of {n} rows were drawn by every tree and have no out-of-bag "
                          "prediction; more trees give every row one.", UserWarning, stacklevel=3)
        self.oob_prediction_ = np.full(Y.shape, np.nan)
        if scored.any():
            predictions = self._predictions_of(frame.iloc[np.flatnonzero(scored)])
            self.oob_prediction_[scored] = self._vote(predictions, unseen[scored].astype(float))
        measure = tau_x if self.consensus_ == "bucket_order" else kendall_tau  # as score() measures
        tau = np.atleast_1d(measure(Y[scored], self.oob_prediction_[scored])) if scored.any() else np.array([])
        finite = np.isfinite(tau)
        self.oob_score_ = float(tau[finite].mean()) if finite.any() else float("nan")

    def _tree(self, seed: int) -> RankingTree:
        return RankingTree(criterion=self.criterion, gamma=self.gamma, min_samples_leaf=self.min_samples_leaf,
                           max_depth=self.max_depth, consensus=self.consensus_, beta=self.beta,
                           max_features=self.split_features, random_state=seed)

    def _parallel(self, calls: Any) -> list[Any]:
        # Threads: the compiled growth releases the GIL, and the trees need not be pickled.
        return joblib.Parallel(n_jobs=check_n_jobs(self.n_jobs), prefer="threads")(calls)

    def _check_params(self) -> None:
        if isinstance(self.n_estimators, bool) or not isinstance(self.n_estimators, numbers.Integral) \
                or self.n_estimators < 1:
            raise ValueError(f"n_estimators must be an integer >= 1; got {self.n_estimators!r}.")
        get_criterion(self.criterion)
        check_growth_params(self.gamma, self.min_samples_leaf, self.max_depth)
        features_drawn(self.max_features, 1)  # both checked before any tree grows, each by its own name
        features_drawn(self.split_features, 1, "split_features")
        check_tie_tolerance(self.tie_tolerance)
        check_n_jobs(self.n_jobs)
        check_consensus(self.consensus, self.beta)
        if self.oob_score and not self.bootstrap:
            raise ValueError("oob_score needs bootstrap=True: without it every tree sees every row.")


def _named_frame(X: np.ndarray | pd.DataFrame, names: list[str] | None = None) -> pd.DataFrame:
    """``X`` as a DataFrame with string column names (``x1..xd`` for an array), so column subsets keep them."""
    if isinstance(X, pd.DataFrame):
        frame = X.copy(deep=False)
        frame.columns = pd.Index([str(c) for c in X.columns])
        return frame
    return pd.DataFrame(X, columns=pd.Index(names or [f"x{j + 1}" for j in range(X.shape[1])]))


def _draw(seed: int, n: int, n_features: int, chosen: int, bootstrap: bool) -> tuple[np.ndarray, np.ndarray]:
    """The rows (with replacement under ``bootstrap``) and the sorted features of one tree."""
    rng = np.random.RandomState(seed)
    rows = rng.randint(0, n, n) if bootstrap else np.arange(n)
    features = np.sort(rng.choice(n_features, chosen, replace=False)) if chosen < n_features else np.arange(n_features)
    return rows, features


def _grow(tree: RankingTree, frame: pd.DataFrame, Y: pd.DataFrame, rows: np.ndarray,
          features: np.ndarray) -> RankingTree:
    return tree.fit(frame.iloc[rows, features], Y.iloc[rows])


def _predict(tree: RankingTree, frame: pd.DataFrame, features: np.ndarray) -> np.ndarray:
    return tree.predict(frame.iloc[:, features])
