"""A ranking tree whose leaf size and γ are chosen by inner cross-validation.

Rebelo, Soares & Costa (2008) grow ranking trees with a minimum leaf size and
the stopping parameter γ of their rule (6); Cheng, Hühn & Hüllermeier (2009)
tune their trees on the training data. :class:`RankingTreeCV` does both in
the manner of scikit-learn's ``LassoCV``: per leaf size, one maximal tree per
fold gives every γ at once (its γ path, :meth:`RankingTree.predict_at`), so
the γ grid costs no regrowth; the leaf-size grid extends itself while its
largest value wins.

References
----------
.. [1] C. Rebelo, C. Soares and J. Pinto da Costa, "Empirical evaluation of
       ranking trees on some metalearning problems", Proceedings of the 2nd
       Planning to Learn Workshop (PlanLearn) at ICML/COLT/UAI 2008, 2008.
.. [2] W. Cheng, J. Hühn and E. Hüllermeier, "Decision tree and
       instance-based learning for label ranking", Proceedings of the 26th
       International Conference on Machine Learning (ICML), pp. 161-168, 2009.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from typing import Any, Self

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy.stats import rankdata
from sklearn.base import BaseEstimator
from sklearn.model_selection import KFold, check_cv
from sklearn.utils.validation import check_is_fitted

from .._validation import check_feature_input
from ..label_ranking.base import LabelRankerMixin
from ..label_ranking.bucket_order import DEFAULT_BETA, is_partial
from ..label_ranking.metrics import MEASURES_BY_NAME
from .criteria import Criterion, get_criterion
from .ranking_tree import RankingTree

__all__ = ["RankingTreeCV", "best_index", "largest_within_one_se"]

# Scores closer than this are ties, won by the simpler tree.
_TIE = 1e-12
_SELECTIONS = ("auto", "largest_within_se", "best")


class RankingTreeCV(LabelRankerMixin, BaseEstimator):
    """Ranking tree with ``min_samples_leaf`` and γ chosen by cross-validation.

    For each leaf size of the grid and each training fold one maximal tree
    (``gamma=inf``) is grown; every γ that gives a distinct tree on the full
    data's γ path is read off it without regrowth. The best pair has the
    highest mean score over the folds; ties go to the simpler tree (the
    larger leaf size, then the smaller γ). For the Mallows criterion the
    search then keeps the largest tree whose score is within one standard
    error of the best (``selection``). While the best leaf size is the grid's largest, the
    grid grows (1.5 and 2 times it, up to a tenth of the rows): a search
    capped by its grid would pick the cap. The tree is then grown on all the
    data with the chosen pair.

    Parameters
    ----------
    criterion : str or Criterion, default="mean_spearman"
        As :class:`RankingTree` (every criterion; incomplete rankings too).
    leaf_grid : sequence of int, default=(1, 2, 3, 5, 8)
        Minimum leaf sizes to try first.
    extend_grid : bool, default=True
        Grow the leaf-size grid while its largest value wins.
    cv : int or cross-validation splitter, default=10
        Inner folds; an int means shuffled ``KFold`` seeded by
        ``random_state`` (leave-one-out when there are fewer rows). Ten
        rather than scikit-learn's five: a tree's best leaf size and γ
        depend on how many rows it grows on, and ten folds train on 90% of
        the rows instead of 80%. On the 13 label-ranking benchmark files
        below 10,000 rows (5 × 10-fold, Kendall tau) ten inner folds chose
        better trees than five on 11 of them (wine +0.021, glass +0.010),
        for about 1.8 times the time (the speed guide, "Ten inner folds").
    scoring : str or callable, default="auto"
        ``"kendall_tau"``, ``"cs"``, ``"wrc"``, ``"lra"`` or ``"tau_x"``
        (for partial rankings), or a function ``measure(Y_true, Y_pred)``
        giving one value per row; higher is better. ``"auto"``: τx for
        partial rankings (:func:`rankviz.label_ranking.bucket_order.is_partial`),
        Kendall tau otherwise (equal for strict rankings). A fold's score is the
        mean over its rows, NaN values (fewer than two labels ranked) left
        out.
    max_depth : int, optional
        As :class:`RankingTree`, fixed.
    tie_tolerance : float, optional
        As :class:`RankingTree`, fixed.
    consensus : {"auto", "aggregate", "bucket_order"}, default="auto"
        As :class:`RankingTree`, fixed.
    beta : float, default=0.25
        As :class:`RankingTree`, fixed.
    max_bins : int, optional
        As :class:`RankingTree`, fixed.
    random_state : int, default=0
        Seeds the shuffle of the folds when ``cv`` is an int.
    selection : {"auto", "largest_within_se", "best"}, default="auto"
        ``"best"``: the pair of the highest mean score. ``"largest_within_se"``:
        of the pairs whose mean score is within one standard error of the
        best one's (the standard deviation over the folds of their paired
        differences, over the square root of the folds), the one with the
        smallest leaf size, then the largest γ: the tree least pruned. This
        is the one-standard-error rule of Breiman et al. (1984) turned
        toward the unpruned tree, the label ranking tree of Cheng et al.
        [2]_ and of scikit-lr: it prunes only where the inner CV finds
        pruning better by more than its noise. The best of many settings
        scored on the same folds is biased upward (on wine, with the
        impurity's former floor, 0.902 inner against 0.878 held out,
        5 × 10-fold); on 16 label-ranking files
        (5 × 10-fold, Kendall tau) the rule kept the mean of ``"best"``
        (+0.0002) and lifted glass, wine and iris by 0.003-0.006, where
        the trees grown to purity were best (docs/design.md, "Choosing the
        leaf size and γ"). ``"auto"``: ``"largest_within_se"`` for the
        Mallows criterion, whose trees Cheng et al. and scikit-lr grow
        unpruned, ``"best"`` for the others; Rebelo et al. [1]_ prune their
        mean-Spearman trees by γ, and on their metalearning data the rule
        cost that tree 0.015 (Kendall tau, 5 × 10-fold; Mallows 0.002).

    Attributes
    ----------
    best_params_ : dict
        ``{"min_samples_leaf": ..., "gamma": ...}`` chosen (by ``selection``).
    best_score_ : float
        Their mean score over the folds.
    best_index_ : int
        Their index in :attr:`cv_results_`.
    best_estimator_ : RankingTree
        The tree grown on all the data with ``best_params_``.
    cv_results_ : dict of ndarray
        One entry per (leaf size, γ) tried, as in scikit-learn's search
        estimators: ``params``, ``param_min_samples_leaf``, ``param_gamma``,
        ``split{k}_test_score``, ``mean_test_score``, ``std_test_score``,
        ``rank_test_score`` and ``n_leaves`` (of the tree on all the data).
    leaf_grid_ : list of int
        The leaf sizes tried, the extensions included.
    gamma_path_ : GammaPath
        The γ path of the maximal tree on all the data at the chosen leaf
        size: every γ of the search, and which γ give the chosen tree
        (:meth:`GammaPath.same_tree`).
    tree_ : Tree
        The structure of ``best_estimator_``.
    n_features_in_ : int
        Number of features seen in ``fit``.

    See Also
    --------
    RankingTree : The tree with fixed settings; its ``gamma_path``.
    sklearn.model_selection.GridSearchCV : The same search, regrowing each γ.

    References
    ----------
    .. [1] C. Rebelo, C. Soares and J. Pinto da Costa, "Empirical evaluation
           of ranking trees on some metalearning problems", PlanLearn at
           ICML/COLT/UAI 2008, 2008.
    .. [2] W. Cheng, J. Hühn and E. Hüllermeier, "Decision tree and
           instance-based learning for label ranking", ICML 2009, pp. 161-168.
    .. [3] L. Breiman, J. H. Friedman, R. A. Olshen and C. J. Stone,
           "Classification and Regression Trees", Wadsworth, 1984, §3.4.3.

    Examples
    --------
    >>> from rankviz import RankingTreeCV, load_sample
    >>> data = load_sample("metalearning")
    >>> model = RankingTreeCV(leaf_grid=(5, 10, 20), cv=3).fit(data.X, data.Y)
    >>> sorted(model.best_params_)
    ['gamma', 'min_samples_leaf']
    >>> model.best_estimator_.min_samples_leaf == model.best_params_["min_samples_leaf"]
    True
    """

    def __init__(self, criterion: str | Criterion = "mean_spearman", leaf_grid: Sequence[int] = (1, 2, 3, 5, 8),
                 extend_grid: bool = True, cv: Any = 10, scoring: str | Callable[..., Any] = "auto",
                 max_depth: int | None = None, tie_tolerance: float | None = None, consensus: str = "auto",
                 beta: float = DEFAULT_BETA, max_bins: int | None = None, random_state: int = 0,
                 selection: str = "auto") -> None:
        self.criterion = criterion
        self.leaf_grid = leaf_grid
        self.extend_grid = extend_grid
        self.cv = cv
        self.scoring = scoring
        self.max_depth = max_depth
        self.tie_tolerance = tie_tolerance
        self.consensus = consensus
        self.beta = beta
        self.max_bins = max_bins
        self.random_state = random_state
        self.selection = selection

    def fit(self, X: Any, Y: ArrayLike, label_names: Sequence[str] | None = None) -> Self:
        """Choose the leaf size and γ by cross-validation, then grow the tree on all of ``X`` and ``Y``.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Features, as for :meth:`RankingTree.fit`.
        Y : array-like of shape (n_samples, n_labels)
            Rank positions (1 = first, equal = tied, NaN = missing label).
        label_names : sequence of str, optional
            Names of the labels.

        Returns
        -------
        self : RankingTreeCV
            Fitted.

        Raises
        ------
        ValueError
            For a leaf size below 1, an unknown ``scoring``, too few rows
            for the folds, or what :meth:`RankingTree.fit` refuses.
        """
        self._measure(None)  # an unknown scoring is named before anything grows
        if self.selection not in _SELECTIONS:
            raise ValueError(f"selection must be one of {', '.join(map(repr, _SELECTIONS))}; "
                             f"got {self.selection!r}.")
        grid = sorted({int(leaf) for leaf in self.leaf_grid})
        if not grid or any(not isinstance(leaf, numbers.Integral) or leaf < 1 for leaf in self.leaf_grid):
            raise ValueError(f"leaf_grid must hold whole numbers >= 1; got {self.leaf_grid!r}.")
        # X as every estimator checks it (and names this one); Y as the tree on all the data checks it
        X = check_feature_input(self, X, Y, reset=True)
        first = self._tree(grid[0], np.inf).fit(X, Y, label_names)
        Y = np.asarray(Y, dtype=float)  # checked by the fit above
        measure = self._measure(Y)
        n = len(Y)
        rows = X if isinstance(X, pd.DataFrame) else pd.DataFrame(X)  # .iloc for the folds
        if isinstance(self.cv, numbers.Integral):
            if self.cv < 2 or n < 2:
                raise ValueError(f"cross-validation needs cv >= 2 folds and at least 2 samples; got cv={self.cv!r} "
                                 f"and {n} sample{'' if n == 1 else 's'}.")
            # fewer rows than folds: one row per fold (leave-one-out)
            splitter = KFold(min(int(self.cv), n), shuffle=True, random_state=self.random_state)
        else:
            splitter = check_cv(self.cv)
        folds = list(splitter.split(np.zeros((n, 1))))
        searched: dict[int, tuple[np.ndarray, np.ndarray, RankingTree]] = {}

        def search(leaves: Sequence[int]) -> None:
            for leaf in leaves:
                full = first if leaf == grid[0] else self._tree(leaf, np.inf).fit(X, Y, label_names)
                gammas = full.gamma_path().distinct_gammas()
                scores = np.empty((len(folds), len(gammas)))
                for k, (train, test) in enumerate(folds):
                    inner = self._tree(leaf, np.inf).fit(rows.iloc[train], Y[train], label_names)
                    predicted = inner.predict_at(rows.iloc[test], gammas)  # (rows, γ, labels)
                    scores[k] = _finite_mean(_scores_along_path(measure, Y[test], predicted))
                searched[leaf] = (gammas, scores, full)

        search(grid)
        results = _results(searched)
        cap = max(n // 10, 1)
        # the best pair, not the chosen one, says whether the grid is too short
        while (self.extend_grid and max(searched) < cap
               and results["param_min_samples_leaf"][best_index(results)] == max(searched)):
            top = max(searched)
            search(sorted({min(int(np.ceil(top * 1.5)), cap), min(2 * top, cap)} - set(searched)))
            results = _results(searched)
        self.cv_results_ = results
        index = self._chosen(results)
        leaf = int(results["param_min_samples_leaf"][index])
        gamma = float(results["param_gamma"][index])
        self.leaf_grid_ = sorted(searched)
        self.gamma_path_ = searched[leaf][2].gamma_path()
        self.best_params_ = {"min_samples_leaf": leaf, "gamma": gamma}
        self.best_index_ = index
        self.best_score_ = float(results["mean_test_score"][index])
        self.best_estimator_ = self._tree(leaf, gamma).fit(X, Y, label_names)
        self.tree_ = self.best_estimator_.tree_
        return self

    def predict(self, X: Any) -> np.ndarray:
        """Predict rank positions with :attr:`best_estimator_`.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Features with the columns of ``fit``.

        Returns
        -------
        ndarray of shape (n_samples, n_labels)
            Rank positions, 1 = first.
        """
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.predict(check_feature_input(self, X, reset=False))

    def score_at(self, gammas: ArrayLike) -> np.ndarray:
        """Mean cross-validated score of the tree each γ gives at the chosen leaf size.

        Every γ gives one of the trees of :attr:`gamma_path_` whose scores the
        search computed; this reads them off, e.g. for the values of a slider.

        Parameters
        ----------
        gammas : array-like of float
            Values of γ (> 0).

        Returns
        -------
        ndarray of float
            One mean score per γ (NaN where the folds scored no row).

        Examples
        --------
        >>> from rankviz import RankingTreeCV, load_sample
        >>> data = load_sample("metalearning")
        >>> search = RankingTreeCV(leaf_grid=(5, 10), cv=3).fit(data.X, data.Y)
        >>> bool(search.score_at([search.best_params_["gamma"]])[0] == search.best_score_)
        True
        """
        check_is_fitted(self, "gamma_path_")
        leaf = self.best_params_["min_samples_leaf"]
        at_leaf = self.cv_results_["param_min_samples_leaf"] == leaf
        tried = self.cv_results_["param_gamma"][at_leaf]
        means = self.cv_results_["mean_test_score"][at_leaf]
        gammas = np.asarray(gammas, dtype=float)
        scores = np.full(gammas.shape, np.nan)
        for gamma, mean in zip(tried, means):  # one per distinct tree of the path, not per γ asked
            scores[self.gamma_path_.same_tree(gamma, gammas)] = mean
        return scores

    def _tree(self, leaf: int, gamma: float) -> RankingTree:
        return RankingTree(criterion=self.criterion, gamma=gamma, min_samples_leaf=leaf, max_depth=self.max_depth,
                           tie_tolerance=self.tie_tolerance, consensus=self.consensus, beta=self.beta,
                           max_bins=self.max_bins)

    def _measure(self, Y: np.ndarray | None) -> Callable[[ArrayLike, ArrayLike], Any]:
        """The measure of ``scoring`` for the rankings ``Y`` (None: only check the name)."""
        if callable(self.scoring):
            return self.scoring
        if self.scoring == "auto":
            return MEASURES_BY_NAME["tau_x" if Y is not None and is_partial(Y) else "kendall_tau"]
        if self.scoring not in MEASURES_BY_NAME:
            raise ValueError(f"scoring must be 'auto', one of {', '.join(MEASURES_BY_NAME)} or a function "
                             f"measure(Y_true, Y_pred); got {self.scoring!r}.")
        return MEASURES_BY_NAME[self.scoring]

    def _chosen(self, results: dict[str, np.ndarray]) -> int:
        """The index in ``results`` of the pair ``selection`` chooses."""
        best = best_index(results)
        selection = self.selection
        if selection == "auto":
            selection = "largest_within_se" if get_criterion(self.criterion).name == "mallows" else "best"
        if selection == "best":
            return best
        return largest_within_one_se(results, best)


def best_index(results: dict[str, np.ndarray]) -> int:
    """The pair of the highest mean score in ``cv_results_``; ties to the larger leaf, then the smaller γ.

    Parameters
    ----------
    results : dict of ndarray
        ``cv_results_`` of :class:`RankingTreeCV` (or of ``GridSearchCV`` over
        ``min_samples_leaf`` and ``gamma``).

    Returns
    -------
    int
        The index of the pair.
    """
    mean = np.where(np.isfinite(results["mean_test_score"]), results["mean_test_score"], -np.inf)
    leaf, gamma = _pairs(results)
    tied = np.flatnonzero(mean >= mean.max() - _TIE)  # every pair when no fold scored a row
    return int(tied[np.lexsort((gamma[tied], -leaf[tied]))[0]])


def largest_within_one_se(results: dict[str, np.ndarray], best: int) -> int:
    """The least pruned pair whose mean score is within one standard error of pair ``best``'s.

    A pair's standard error is the standard deviation over the folds of its
    scores' differences from ``best``'s (paired: the folds are shared), over
    the square root of the folds. Of the pairs within it, the smallest leaf
    size, then the largest γ.

    Parameters
    ----------
    results : dict of ndarray
        ``cv_results_`` with ``split{k}_test_score``.
    best : int
        The index of the best pair (:func:`best_index`).

    Returns
    -------
    int
        The index of the pair chosen (``best`` itself when no other is close).

    References
    ----------
    .. [1] L. Breiman, J. H. Friedman, R. A. Olshen and C. J. Stone,
           "Classification and Regression Trees", Wadsworth, 1984, §3.4.3
           (the simplest tree within one standard error; here the largest).
    """
    splits = np.array([results[key] for key in results if key.startswith("split") and key.endswith("_test_score")])
    gap = splits[:, [best]] - splits  # (folds, pairs); NaN where a fold scored no row
    finite = np.isfinite(gap)
    count = finite.sum(axis=0)
    mean_gap = results["mean_test_score"][best] - results["mean_test_score"]
    centred = np.where(finite, gap - _finite_mean(gap), 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        se = np.sqrt((centred ** 2).sum(axis=0) / (count - 1) / count)
    close = np.isfinite(mean_gap) & (mean_gap <= np.nan_to_num(se, nan=0.0) + _TIE)
    close[best] = True  # also when no fold scored a row
    close = np.flatnonzero(close)
    leaf, gamma = _pairs(results)
    return int(close[np.lexsort((-gamma[close], leaf[close]))[0]])


def _pairs(results: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The leaf sizes and γ of ``cv_results_``, as floats (GridSearchCV's are object arrays)."""
    return (np.asarray(results["param_min_samples_leaf"], dtype=float),
            np.asarray(results["param_gamma"], dtype=float))


def _scores_along_path(measure: Callable[[np.ndarray, np.ndarray], Any], truth: np.ndarray,
                       predicted: np.ndarray) -> np.ndarray:
    """``measure`` of each row's prediction at each γ, shape (rows, γ), in one call of the measure.

    A row's prediction changes only at the γ of the nodes on its path, a few
    of the path's many distinct γ: each run of equal predictions is scored
    once and its score repeated along the run (the measures score row by
    row). letter-partial, 26 labels: τx of 1,800 rows at every γ of the path
    was the tuned tree's whole time.
    """
    n_rows, n_gammas = predicted.shape[:2]
    new = np.ones((n_rows, n_gammas), dtype=bool)
    new[:, 1:] = (predicted[:, 1:] != predicted[:, :-1]).any(axis=2)  # NaN != NaN: scored again, no harm
    row, gamma = np.nonzero(new)
    values = np.empty((n_rows, n_gammas))
    values[row, gamma] = np.asarray(measure(truth[row], predicted[row, gamma]), dtype=float)
    last = np.where(new, np.arange(n_gammas), 0)
    np.maximum.accumulate(last, axis=1, out=last)  # each γ's run start: the last new prediction at or before it
    return np.take_along_axis(values, last, axis=1)


def _finite_mean(values: np.ndarray) -> np.ndarray:
    """Column means of the finite values; NaN for a column with none (no warning)."""
    finite = np.isfinite(values)
    counts = finite.sum(axis=0)
    totals = np.where(finite, values, 0.0).sum(axis=0)
    return np.divide(totals, counts, out=np.full(counts.shape, np.nan), where=counts > 0)


def _results(searched: dict[int, tuple[np.ndarray, np.ndarray, RankingTree]]) -> dict[str, np.ndarray]:
    """``cv_results_``: one entry per (leaf size, γ), in the order of the leaf sizes and then of γ."""
    leaves, gammas, splits, n_leaves = [], [], [], []
    for leaf in sorted(searched):
        path_gammas, scores, full = searched[leaf]
        path = full.gamma_path()
        leaves += [leaf] * len(path_gammas)
        gammas += list(path_gammas)
        splits.append(scores)
        n_leaves += [int(path.n_leaves(g)) for g in path_gammas]
    split = np.concatenate(splits, axis=1)
    mean = _finite_mean(split)
    results = {"params": np.array([{"min_samples_leaf": leaf, "gamma": gamma} for leaf, gamma in zip(leaves, gammas)],
                                  dtype=object),
               "param_min_samples_leaf": np.array(leaves), "param_gamma": np.array(gammas),
               **{f"split{k}_test_score": split[k] for k in range(split.shape[0])},
               "mean_test_score": mean, "std_test_score": np.sqrt(_finite_mean((split - mean) ** 2)),
               "rank_test_score": rankdata(-np.nan_to_num(mean, nan=-np.inf), method="min").astype(np.int32),
               "n_leaves": np.array(n_leaves)}
    return results
