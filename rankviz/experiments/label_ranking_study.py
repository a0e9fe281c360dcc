"""The experiments of Cheng, Hühn & Hüllermeier (2009), §6: methods, missing labels, tree sizes.

Cheng et al. [1]_ compare label ranking trees (LRT), instance-based label
ranking (IBLR) and constraint classification (CC) by Kendall's tau under
5 × 10-fold cross-validation, with labels deleted from the training
rankings at rates p (Table 2, Fig. 1), and report the LRT's size relative to
a classification tree grown on the top label. This module gives those pieces
to the app and to the benchmark script.

References
----------
.. [1] W. Cheng, J. Hühn and E. Hüllermeier, "Decision tree and
       instance-based learning for label ranking", Proceedings of the 26th
       International Conference on Machine Learning (ICML 2009),
       pp. 161-168, 2009.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator
from sklearn.tree import DecisionTreeClassifier

from ..features import FeatureEncoder
from ..label_ranking.baselines import DefaultRanker, KNNRanker
from ..label_ranking.constraint_classification import ConstraintClassifier
from ..label_ranking.iblr import IBLR
from ..label_ranking.incomplete import delete_labels
from ..tree.ranking_tree import RankingTree
from .cross_validation import MEASURES, compare_methods, mean_intervals
from .statistics import standard_error

__all__ = ["MEASURE_ORDER", "column_ranks", "label_ranking_methods", "method_summary", "missing_rate_curve",
           "top_label", "relative_tree_size"]

#: The measures of the comparison, in the order its tables and figures show them.
MEASURE_ORDER = ("Kendall tau", "CS", "WRC", "LRA")


def label_ranking_methods(lrt: BaseEstimator | None = None, iblr: IBLR | None = None,
                          cc: ConstraintClassifier | None = None,
                          tie_tolerance: float | None = None) -> dict[str, BaseEstimator]:
    """The methods compared by Cheng, Hühn & Hüllermeier (2009) plus this project's two baselines.

    Parameters
    ----------
    lrt, iblr, cc : estimators, optional
        Configured ``RankingTree(criterion="mallows")`` (or a tuned
        :class:`rankviz.RankingTreeCV`, as the command line's ``lrt``),
        ``IBLR`` and ``ConstraintClassifier``; defaults when None.
    tie_tolerance : float or None, default=None
        The tie tolerance of the default LRT and IBLR and of the two
        baselines (see :class:`rankviz.RankingTree`); None predicts strict
        rankings. Constraint classification always ranks strictly.

    Returns
    -------
    dict of str -> estimator
        ``LRT``, ``IBLR``, ``CC``, ``KNN (k=1)`` and ``Default`` (the mean-rank
        ranking of all training rankings), in this order.
    """
    return {
        "LRT": lrt if lrt is not None else RankingTree(criterion="mallows", gamma=np.inf,
                                                       min_samples_leaf=2, tie_tolerance=tie_tolerance),
        "IBLR": iblr if iblr is not None else IBLR(n_neighbors="auto", tie_tolerance=tie_tolerance),
        "CC": cc if cc is not None else ConstraintClassifier(),
        "KNN (k=1)": KNNRanker(n_neighbors=1, tie_tolerance=tie_tolerance),
        "Default": DefaultRanker(tie_tolerance=tie_tolerance),
    }


def missing_rate_curve(methods: Mapping[str, Any], X: pd.DataFrame | ArrayLike, Y: ArrayLike,
                       rates: Sequence[float], *, cv: str | int = 10, repetitions: int = 1,
                       seed: int = 0,
                       progress: Callable[[int, int], bool | None] | None = None) -> pd.DataFrame:
    """Scores of every method against the rate of labels deleted from training.

    Fig. 1 of Cheng, Hühn & Hüllermeier (2009) draws these curves.

    Parameters
    ----------
    methods : dict of str -> estimator
    X : DataFrame
    Y : ndarray of shape (n_samples, n_labels)
    rates : sequence of float in [0, 1)
        Missing-label rates p.
    cv, repetitions, seed :
        As for :func:`rankviz.experiments.cross_validation.compare_methods`; every rate uses the
        same folds, so the curves differ only by the deletions.
    progress : callable, optional
        ``progress(done, total)`` over all folds of all rates; returning False
        stops, and the rates finished so far are returned.

    Returns
    -------
    DataFrame
        One row per (missing_rate, method): the mean of each measure over all
        held-out rows, ``<measure> sd`` the standard deviation of the
        per-repetition means (NaN for one repetition), ``<measure> ci`` the
        half-width of the mean's 95% Student-t interval (over the
        per-repetition means with several repetitions, else over the held-out
        rows; :func:`rankviz.experiments.cross_validation.mean_intervals`),
        and ``n`` the number of held-out scores.
    """
    rates = [float(p) for p in rates]
    folds_per_rate = repetitions * (np.shape(Y)[0] if cv == "loo" else cv)
    total = folds_per_rate * len(rates)
    rows = []
    for k, rate in enumerate(rates):
        stopped = []

        def step(done, _total, offset=k * folds_per_rate):
            keep_going = progress(offset + done, total) if progress is not None else True
            if keep_going is False:
                stopped.append(True)
            return keep_going

        scores = compare_methods(methods, X, Y, cv=cv, seed=seed, progress=step,
                                repetitions=repetitions, missing_rate=rate)
        if stopped:  # a partly scored rate would not compare with the others
            break
        intervals = mean_intervals(scores, over="repetition" if repetitions > 1 else "example")
        for method, group in scores.groupby("method", sort=False):
            row = {"missing_rate": rate, "method": method, "n": len(group)}
            spread = _repetition_sd(group, MEASURES)
            for measure in MEASURES:
                row[measure] = group[measure].mean()
                row[f"{measure} sd"] = spread[measure] if repetitions > 1 else np.nan
                row[f"{measure} ci"] = intervals.loc[method, f"{measure} ci"]
            rows.append(row)
    return pd.DataFrame(rows)


def method_summary(scores: pd.DataFrame, repetitions: int = 1,
                   measures: Sequence[str] = MEASURE_ORDER) -> pd.DataFrame:
    """Mean of each measure per method, with its error.

    Parameters
    ----------
    scores : DataFrame
        Per-example scores of :func:`rankviz.experiments.cross_validation.compare_methods`.
    repetitions : int, default=1
        With 2 or more, the error is the standard deviation of the
        per-repetition means (how much a whole cross-validation varies, as
        Cheng et al. report it); with 1, the standard error of the mean over
        the held-out rankings (:func:`rankviz.experiments.statistics.standard_error`).
    measures : sequence of str, default=MEASURE_ORDER
        Columns of ``scores`` to summarise.

    Returns
    -------
    DataFrame
        Index: method (in order of appearance); columns: each measure, then
        ``<measure> sd`` or ``<measure> se``, then ``n`` (scored rows).
    """
    measures = list(measures)
    rows = {}
    for method, group in scores.groupby("method", sort=False):
        if repetitions > 1:
            errors = _repetition_sd(group, measures).add_suffix(" sd")
        else:
            errors = pd.Series(standard_error(group[measures].to_numpy()), index=[f"{m} se" for m in measures])
        rows[method] = {**group[measures].mean(), **errors, "n": len(group)}
    return pd.DataFrame.from_dict(rows, orient="index")


def _repetition_sd(group: pd.DataFrame, measures: Iterable[str]) -> pd.Series:
    """Standard deviation of the per-repetition means of each measure (NaN with one repetition)."""
    return group.groupby("repetition")[list(measures)].mean().std(ddof=1)


def top_label(Y: ArrayLike) -> np.ndarray:
    """Index of each ranking's most preferred present label (-1 for a row with none)."""
    Y = np.asarray(Y, dtype=float)
    filled = np.where(np.isnan(Y), np.inf, Y)
    top = np.argmin(filled, axis=1)
    return np.where(np.isfinite(filled.min(axis=1)), top, -1)


def column_ranks(values: ArrayLike) -> np.ndarray:
    """Each column's values replaced by their dense rank 0, 1, ...; NaN stays NaN.

    Parameters
    ----------
    values : array-like of shape (n_rows, n_columns)
        Numbers, NaN for missing.

    Returns
    -------
    ndarray of shape (n_rows, n_columns)
        Floats in the same order within each column, exact in float32 up to
        2^24 distinct values.

    Examples
    --------
    >>> column_ranks([[1.7e308, 0.5], [-1.7e308, float("nan")], [3.0, 0.5]]).tolist()
    [[2.0, 0.0], [0.0, nan], [1.0, 0.0]]
    """
    values = np.asarray(values, dtype=float)
    ranked = np.full(values.shape, np.nan)
    for j in range(values.shape[1]):
        present = ~np.isnan(values[:, j])
        ranked[present, j] = np.unique(values[present, j], return_inverse=True)[1]
    return ranked


def relative_tree_size(X: pd.DataFrame | ArrayLike, Y: ArrayLike, lrt: RankingTree, *,
                       missing_rate: float = 0.0, seed: int = 0) -> dict[str, float]:
    """Leaves of the label ranking tree over leaves of a classification tree on the top label.

    Cheng, Hühn & Hüllermeier (2009), Table 2, divide the LRT's leaf count by
    that of WEKA's J48 on the classification data made by keeping each
    ranking's top label. J48 is not available here; the reference is scikit-learn's
    ``DecisionTreeClassifier`` with the entropy criterion and at least 2 rows
    per leaf (J48's default minimum), unpruned (J48 also prunes, so its trees
    are smaller and the ratios of Cheng et al. larger than these).

    The classification tree is grown on each feature's ranks
    (:func:`column_ranks`): a tree's splits depend only on the order of each
    feature, and scikit-learn's trees compute in float32, which would turn a
    finite value beyond ±3.4e38 (such as 1.7e308) into infinity and refuse it.

    Parameters
    ----------
    X : DataFrame
    Y : ndarray
    lrt : RankingTree
        Configured label ranking tree (cloned).
    missing_rate : float, default=0.0
        Labels deleted from the LRT's rankings first, as in the protocol of
        Cheng et al. The classification tree always learns each row's true top
        label: it is the fixed reference size of the data set. (On the top
        *remaining* label the class gets noisy as labels go, and an unpruned
        tree balloons: on wine_nb 9 leaves at p = 0, 36 at p = 0.3.)
    seed : int, default=0

    Returns
    -------
    dict
        ``lrt_leaves``, ``classification_leaves`` and ``ratio``.
    """
    from sklearn.base import clone

    Y = np.asarray(Y, dtype=float)
    Y_lrt = delete_labels(Y, missing_rate, seed=seed) if missing_rate > 0 else Y
    model = clone(lrt).fit(X, Y_lrt)
    top = top_label(Y)
    labelled = top >= 0
    encoded = column_ranks(FeatureEncoder().fit(X).transform(X))
    classifier = DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2, random_state=seed)
    classifier.fit(encoded[labelled], top[labelled])
    lrt_leaves, ct_leaves = model.tree_.n_leaves, classifier.get_n_leaves()
    return {"lrt_leaves": int(lrt_leaves), "classification_leaves": int(ct_leaves),
            "ratio": lrt_leaves / ct_leaves}
