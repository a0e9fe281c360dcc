"""Monte Carlo comparisons of ordinal trees and baselines (Xia, Zhang & Wang 2006, Tables I–II).

Each trial draws a training and a test set (fresh synthetic data, or a random
hold-out split of a given data set), fits every method and records the
average rank loss ``1/T sum |y_hat - y|`` on the test set. Trials are
generators, one record list per unit of work, so a caller can show progress,
stop early and keep what was done. Trial ``t`` always uses the random stream
``seed, t``: results do not depend on how many trials run or in which order.

The trials follow Tables I–II and Figs. 2–3 of Xia et al. [1]_.
Summaries give the mean and the half-width of the Student-t 95% confidence
interval over trials, as the tables of Xia et al. do.

Where this differs from the paper: Xia et al. pick depths by cross-validation
and draw Fig. 2–3 from 5-fold cross-validation; here the depth is either
the user's or chosen by 5-fold cross-validation on the training set
(``depth_selection="cv"``), and losses come from independent test sets per
trial (fresh data, or a fresh hold-out split). Both estimate the same
expected loss; fresh test sets make the trials independent, so the t
interval is valid.

References
----------
.. [1] F. Xia, W. Zhang and J. Wang, "An effective tree-based algorithm for
       ordinal regression", IEEE Intelligent Informatics Bulletin, vol. 7,
       no. 1, pp. 22-26, 2006.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, clone

from ..ordinal.baselines import OrdinalDefault, OrdinalKNN
from ..ordinal.levels import OrdinalLevels, mean_rank_loss
from ..tree.ordinal_tree import OrdinalTree
from ..ordinal.synthetic import DEFAULT_THRESHOLDS, add_label_noise, make_ordinal_square
from .statistics import t_interval

__all__ = ["TREE_METHODS", "SyntheticSource", "HoldoutSource", "ordinal_methods", "run_trials",
           "noise_trials", "loss_summary", "select_depth"]

#: Display name of the tree of each ordinal criterion.
TREE_METHODS = {"ranking_impurity": "Ranking impurity", "gini": "Gini"}


@dataclass(frozen=True)
class SyntheticSource:
    """Fresh synthetic data of Xia, Zhang & Wang (2006), §IV-A, for every trial.

    Label noise (probability ``label_noise`` of moving to an adjacent rank)
    hits training and test labels alike, as in the cross-validation of Xia et al.
    """

    n_train: int = 1000
    n_test: int = 1000
    noise_sd: float = 0.125
    thresholds: tuple[float, ...] = DEFAULT_THRESHOLDS
    label_noise: float = 0.0

    @property
    def levels(self) -> list[int]:
        return list(range(1, len(self.thresholds) + 1))

    def draw(self, rng: np.random.Generator) -> tuple[pd.DataFrame, np.ndarray, pd.DataFrame, np.ndarray]:
        """(X_train, y_train, X_test, y_test) of one trial; y as ranks 1..K."""
        X, y = make_ordinal_square(self.n_train + self.n_test, noise_sd=self.noise_sd,
                                   thresholds=self.thresholds, label_noise=self.label_noise,
                                   seed=rng)
        return (X.iloc[:self.n_train], y[:self.n_train],
                X.iloc[self.n_train:].reset_index(drop=True), y[self.n_train:])


@dataclass(frozen=True)
class HoldoutSource:
    """Random hold-out splits of one data set (the protocol of Xia, Zhang & Wang 2006, Table II).

    ``y`` holds the levels (names or numbers), ``levels`` all of them, lowest
    first. Losses count level steps: positions are ``1..K``. Label noise, if
    any, hits both sides.
    """

    X: pd.DataFrame
    y: np.ndarray
    levels: list[Any] = field(default_factory=list)
    test_fraction: float = 0.3
    label_noise: float = 0.0

    def __post_init__(self) -> None:
        if len(self.levels) < 2:
            raise ValueError("HoldoutSource needs the target's levels, lowest first "
                             f"(at least 2), got {list(self.levels)}")
        if not 0.0 < self.test_fraction < 1.0:
            raise ValueError(f"test_fraction must be between 0 and 1, got {self.test_fraction}")
        n_test = int(round(self.test_fraction * len(self.y)))
        if n_test < 1 or n_test >= len(self.y):
            raise ValueError(f"a test share of {self.test_fraction:.0%} of {len(self.y)} rows "
                             "leaves no training or no test rows")

    @property
    def n_train(self) -> int:
        return len(self.y) - int(round(self.test_fraction * len(self.y)))

    def draw(self, rng: np.random.Generator) -> tuple[pd.DataFrame, np.ndarray, pd.DataFrame, np.ndarray]:
        order = rng.permutation(len(self.y))
        y = np.asarray(self.y, dtype=object)
        if self.label_noise > 0:
            codes = _levels(self.levels).encode(y)
            moved = add_label_noise(codes + 1, self.label_noise, len(self.levels), rng) - 1
            y = np.asarray(self.levels, dtype=object)[moved]
        train, test = order[:self.n_train], order[self.n_train:]
        return (self.X.iloc[train].reset_index(drop=True), y[train],
                self.X.iloc[test].reset_index(drop=True), y[test])


def ordinal_methods(max_depth: int | None = 9, prediction: str = "median", n_neighbors: int = 1,
                    min_samples_leaf: int = 1, baselines: bool = True) -> dict[str, BaseEstimator]:
    """The unfitted methods compared: one tree per criterion, KNN and the default.

    Returns
    -------
    dict of str -> estimator
        Trees under :data:`TREE_METHODS` names, then ``"KNN (k=…)"`` and
        ``"Default (median)"`` (or mode).
    """
    methods = {
        name: OrdinalTree(criterion, max_depth=max_depth, prediction=prediction,
                          min_samples_leaf=min_samples_leaf)
        for criterion, name in TREE_METHODS.items()
    }
    if baselines:
        methods[f"KNN (k={n_neighbors})"] = OrdinalKNN(n_neighbors=n_neighbors, prediction=prediction)
        methods[f"Default ({prediction})"] = OrdinalDefault(prediction=prediction)
    return methods


def select_depth(tree: OrdinalTree, X: pd.DataFrame, y: ArrayLike, levels: Sequence[Any], *,
                 folds: int = 5,
                 rng: np.random.Generator | None = None) -> tuple[int, np.ndarray]:
    """The depth, up to ``tree.max_depth``, with the least ``folds``-fold cross-validated loss.

    Xia, Zhang & Wang (2006) pick their trees' depths so (§IV-A). One fit
    per fold covers every depth (:meth:`OrdinalTree.predict_by_depth`); ties
    go to the shallower tree.

    Returns
    -------
    depth : int
    losses : ndarray
        Cross-validated loss at each depth 0..max_depth reached.
    """
    y = np.asarray(y)
    order = (rng or np.random.default_rng(0)).permutation(len(y))
    totals: np.ndarray | None = None
    for test in np.array_split(order, min(folds, len(y))):
        train = np.setdiff1d(order, test)
        model = clone(tree).set_params(levels=levels).fit(X.iloc[train], y[train])
        errors = np.abs(model.predict_by_depth(X.iloc[test]) - model.positions_[
            model.level_index(y[test])][:, None]).sum(axis=0)
        limit = tree.max_depth if tree.max_depth is not None else len(errors) - 1
        # A tree that stopped early predicts alike at every deeper cut.
        errors = np.concatenate([errors, np.repeat(errors[-1], max(0, limit + 1 - len(errors)))])
        totals = errors if totals is None else totals + errors
    assert totals is not None  # array_split gave at least one fold
    losses = totals / len(y)
    return int(np.argmin(losses)), losses


def run_trials(source: SyntheticSource | HoldoutSource, methods: Mapping[str, BaseEstimator],
               n_trials: int, seed: int | Sequence[int] = 0, *, depth_selection: str = "fixed",
               folds: int = 5) -> Iterator[list[dict[str, Any]]]:
    """Monte Carlo trials of every method on ``source``, one trial at a time.

    Trees also report the loss of the tree cut at every depth up to theirs
    (:meth:`OrdinalTree.predict_by_depth`): one fit gives Table I and Fig. 2.

    Parameters
    ----------
    source : SyntheticSource or HoldoutSource
    methods : dict of str -> estimator
        E.g. :func:`ordinal_methods`; fitted afresh in every trial.
    n_trials : int
    seed : int or list of int
        Trial ``t`` draws from ``numpy.random.default_rng([*seed, t])``.
    depth_selection : {"fixed", "cv"}, default="fixed"
        A tree's own prediction is at its ``max_depth`` (``"fixed"``) or at
        the depth up to it with the least ``folds``-fold cross-validated
        training loss (``"cv"``, the protocol of Xia, Zhang & Wang 2006;
        :func:`select_depth`).

    Yields
    ------
    list of dict
        Records of one trial: ``trial``, ``method``, ``depth`` (the cut depth
        for trees, NaN for baselines), ``final`` (True for the method's own
        prediction: its chosen depth) and ``loss``.
    """
    if depth_selection not in ("fixed", "cv"):
        raise ValueError(f"depth_selection must be 'fixed' or 'cv', got {depth_selection!r}")
    seed = [int(s) for s in np.atleast_1d(seed)]
    for trial in range(int(n_trials)):
        rng = np.random.default_rng(seed + [trial])
        X_train, y_train, X_test, y_test = source.draw(rng)
        y_test = _levels(source.levels).position_of(y_test)
        records = []
        for name, method in methods.items():
            model = clone(method).set_params(levels=source.levels).fit(X_train, y_train)
            if not isinstance(model, OrdinalTree):
                prediction = model.positions_[model.predict_index(X_test)]
                records.append({"trial": trial, "method": name, "depth": np.nan, "final": True,
                                "loss": mean_rank_loss(y_test, prediction)})
                continue
            losses = np.abs(model.predict_by_depth(X_test) - y_test[:, None]).mean(axis=0)
            limit = model.max_depth if model.max_depth is not None else len(losses) - 1
            # A tree that stopped early predicts alike at every deeper cut.
            losses = np.concatenate([losses, np.repeat(losses[-1], max(0, limit + 1 - len(losses)))])
            chosen = limit
            if depth_selection == "cv":
                # The same folds for every tree of the trial: a paired comparison,
                # and one method's choice does not depend on which others run.
                chosen, _ = select_depth(method, X_train, y_train, source.levels, folds=folds,
                                         rng=np.random.default_rng(seed + [trial, 1]))
            records += [{"trial": trial, "method": name, "depth": d, "final": d == chosen,
                         "loss": float(loss)} for d, loss in enumerate(losses)]
        yield records


def noise_trials(source: SyntheticSource | HoldoutSource, noise_levels: Sequence[float],
                 n_trials: int, *, train_sizes: Iterable[int] | None = None,
                 max_depth: int | None = 9, prediction: str = "median", min_samples_leaf: int = 1,
                 depth_selection: str = "cv", seed: int = 0) -> Iterator[list[dict[str, Any]]]:
    """Loss of both criteria against label noise, for several training sizes.

    Fig. 3 of Xia, Zhang & Wang (2006) draws this.

    Parameters
    ----------
    source : SyntheticSource or HoldoutSource
        The data; its ``label_noise`` (and, for synthetic data, ``n_train``)
        is replaced by each level below.
    noise_levels : sequence of float
        Probabilities σ of moving a label to an adjacent level.
    n_trials : int
    train_sizes : sequence of int, optional
        Training sizes (synthetic data only); the source's own by default.
    max_depth, prediction, min_samples_leaf : tree settings
    depth_selection : {"cv", "fixed"}, default="cv"
        As in :func:`run_trials`; cross-validation by default, as Xia et al.
        do: a fixed deep tree overfits noisy labels.
    seed : int

    Yields
    ------
    list of dict
        Records of one (size, noise, trial) unit, both criteria on the same
        data: ``n_train``, ``noise``, ``trial``, ``method``, ``depth`` and
        ``loss``. There are ``len(train_sizes) * len(noise_levels) * n_trials``
        units.
    """
    if train_sizes is not None and not isinstance(source, SyntheticSource):
        raise ValueError("training sizes can only vary for synthetic data")
    methods = ordinal_methods(max_depth=max_depth, prediction=prediction,
                              min_samples_leaf=min_samples_leaf, baselines=False)
    for size in (train_sizes if train_sizes is not None else [source.n_train]):
        for noise in noise_levels:
            cell = replace(source, label_noise=float(noise))
            if train_sizes is not None and isinstance(cell, SyntheticSource):  # always synthetic (above)
                cell = replace(cell, n_train=int(size))
            # Each cell draws its own data: its random stream includes size and noise level.
            cell_seed = [seed, int(size), int(round(noise * 1e6))]
            for records in run_trials(cell, methods, n_trials, seed=cell_seed,
                                      depth_selection=depth_selection):
                yield [{"n_train": int(size), "noise": float(noise), "trial": r["trial"],
                        "method": r["method"], "depth": r["depth"], "loss": r["loss"]}
                       for r in records if r["final"]]


def loss_summary(records: pd.DataFrame | Iterable[Mapping[str, Any]], by: Sequence[str] = ("method",),
                 confidence: float = 0.95) -> pd.DataFrame:
    """Mean loss, CI half-width and trial count per group of records.

    Parameters
    ----------
    records : DataFrame or list of dict
        As yielded by :func:`run_trials` / :func:`noise_trials`.
    by : sequence of str
        Grouping columns, e.g. ``("method",)`` or ``("method", "depth")``.

    Returns
    -------
    DataFrame
        ``by`` columns, then ``mean``, ``ci`` (half-width) and ``trials``,
        in the order groups first appear.
    """
    frame = pd.DataFrame(records)
    rows = []
    for key, group in frame.groupby(list(by), sort=False, dropna=False):
        mean, half = t_interval(group["loss"], confidence)
        key = key if isinstance(key, tuple) else (key,)
        rows.append({**dict(zip(by, key)), "mean": mean, "ci": half, "trials": len(group)})
    return pd.DataFrame(rows, columns=[*by, "mean", "ci", "trials"])


def _levels(levels):
    """Level positions ``1..K`` of the given levels: losses count level steps."""
    return OrdinalLevels(levels, np.arange(1.0, len(levels) + 1))
