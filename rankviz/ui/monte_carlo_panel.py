"""Monte Carlo comparisons of the two ordinal criteria (Xia, Zhang & Wang 2006: Table I, Figs. 2–3).

Two panels for the "Ranking impurity vs Gini" page. Each runs trials one at
a time from the generators of :mod:`rankviz.experiments.monte_carlo`, appending every
finished trial to ``st.session_state`` before the progress bar moves on.
Pressing **Stop** (or any other widget) makes Streamlit interrupt the script
at its next call, the progress update; what was appended stays, and the
rerun shows it as a partial result. The panels' controls keep their values
for the session, across the pages.

References
----------
.. [1] F. Xia, W. Zhang and J. Wang, "An effective tree-based algorithm for
       ordinal regression", IEEE Intelligent Informatics Bulletin, vol. 7,
       no. 1, pp. 22-26, 2006.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pandas as pd
import streamlit as st

from ..experiments.monte_carlo import (HoldoutSource, SyntheticSource, TREE_METHODS, loss_summary, noise_trials,
                           ordinal_methods, run_trials)
from ..safe_csv import safe_csv
from ..viz.figures.ordinal import loss_by_depth, loss_by_noise, method_table, noise_table
from .long_run import StopBar, format_duration
from .text import counted

__all__ = ["monte_carlo_panel", "noise_panel", "estimate_seconds", "format_duration"]

SELECTIONS = {
    "fixed": "fixed: trees at the max depth",
    "cv": "chosen by 5-fold cross-validation, as in Xia et al.",
}
NOISE_OPTIONS = [round(0.05 * i, 2) for i in range(11)]
NOISE_DEFAULT = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5]
SIZE_OPTIONS = [100, 1000, 10000]
SIZE_DEFAULT = [100, 1000]
#: Above this estimate the panel says how long a run will take before it starts.
SLOW_SECONDS = 30.0


def estimate_seconds(n_train: float, n_test: float, units: int, *, cv: bool = False,
                     knn: bool = True) -> float:
    """Rough wall time of ``units`` trials of both trees (and KNN), from timings of this code.

    A tree fit costs about 6 ms plus 2 µs per training row (50,000 rows, depth
    9: 0.1 s); cross-validation adds five fits on 80% of the rows per tree.
    KNN compares every test row with every training row, about 8 ns per pair
    (50,000 × 1,000: 0.4 s). Within a factor of two or so on a 2-core machine.

    Parameters
    ----------
    n_train, n_test : int
        Training and test rows of one trial.
    units : int
        Number of trials.
    cv : bool, default=False
        Whether each tree's depth is chosen by 5-fold cross-validation.
    knn : bool, default=True
        Whether the KNN baseline runs too.

    Returns
    -------
    float
        Seconds.
    """
    def fit(rows: float) -> float:
        return 0.006 + 2e-6 * rows

    per_trial = 0.01 + 2 * fit(n_train) + (10 * fit(0.8 * n_train) if cv else 0.0)
    if knn:
        per_trial += 8e-9 * n_train * n_test
    return units * per_trial


def _sizes(source: SyntheticSource | HoldoutSource) -> tuple[int, int]:
    """(training rows, test rows) of one trial."""
    if isinstance(source, SyntheticSource):
        return source.n_train, source.n_test
    return source.n_train, len(source.y) - source.n_train


def _stop_note(done: int, total: int, unit: str) -> None:
    if done < total:
        st.warning(f"Stopped after {done} of {counted(total, unit)}: the results below are partial.",
                   icon=":material/pause_circle:")


def monte_carlo_panel(source: SyntheticSource | HoldoutSource, source_key: str, *, prediction: str = "median",
                      min_samples_leaf: int = 1, key: str = "mc") -> pd.DataFrame | None:
    """Table I and Fig. 2 of Xia, Zhang & Wang (2006): Monte Carlo trials of both trees and the baselines.

    Parameters
    ----------
    source : SyntheticSource or HoldoutSource
        The data of every trial (fresh synthetic data or a fresh hold-out split).
    source_key : str
        Identifies the data settings behind ``source``: results computed for
        another key are flagged as being for earlier settings.
    prediction : {"median", "mode"}, default="median"
        Leaf (and baseline) prediction rule.
    min_samples_leaf : int, default=1
    key : str, default="mc"
        Prefix of the widget and session-state keys.

    Returns
    -------
    DataFrame or None
        The per-trial records shown (possibly of earlier settings), None before any run.
    """
    n_train, n_test = _sizes(source)
    cols = st.columns([1, 1, 2, 1, 1])
    n_trials = int(cols[0].number_input("Trials", 1, 500, 20, key=f"{key}_trials", persist_state="session",
                                        help="Monte Carlo trials, each on fresh data (Xia et al. run 20)."))
    max_depth = int(cols[1].number_input("Max depth", 1, 20, 9, key=f"{key}_depth", persist_state="session",
                                         help="The curves show every depth from 0 (the root) to this."))
    selection = cols[2].radio("Depth of each tree's own prediction", list(SELECTIONS),
                              format_func=SELECTIONS.get, key=f"{key}_selection", persist_state="session",
                              help="Fig. 2 shows every depth either way; this picks the depth "
                                   "of the table's tree rows. Cross-validation fits five more "
                                   "trees per criterion and trial.")
    k = int(cols[3].number_input("KNN k", 1, 50, 1, key=f"{key}_k", persist_state="session",
                                 help="Neighbours of the KNN baseline (median/mode of their levels)."))
    seed = int(cols[4].number_input("Seed", 0, 1_000_000, 0, key=f"{key}_seed", persist_state="session",
                                    help="Trial t draws from the stream (seed, t): the same trial "
                                         "gives the same data whatever the number of trials."))
    knn = st.checkbox("Include the KNN baseline", True, key=f"{key}_knn", persist_state="session",
                      help="KNN compares every test row with every training row: with tens of "
                           "thousands of training rows it takes most of the time.")
    request = (source_key, prediction, min_samples_leaf, n_trials, max_depth, selection, k, seed, knn)
    estimate = estimate_seconds(n_train, n_test, n_trials, cv=selection == "cv", knn=knn)
    st.caption(f"Each trial: {counted(n_train, 'training row')} and {counted(n_test, 'test row')}. "
               f"Estimated time: about {format_duration(estimate)}.")
    if estimate > SLOW_SECONDS:
        st.warning(f"This run will take roughly {format_duration(estimate)} "
                   f"({format_duration(estimate / n_trials)} per trial"
                   + (", mostly KNN" if knn and 8e-9 * n_train * n_test > 2 * (0.006 + 2e-6 * n_train) else "")
                   + "). Fewer trials or training rows are quicker; **Stop** keeps the finished trials.",
                   icon=":material/hourglass_top:")

    state = st.session_state
    result: dict[str, Any] | None
    if st.button("Run", type="primary", key=f"{key}_run", icon=":material/play_arrow:"):
        methods = ordinal_methods(max_depth=max_depth, prediction=prediction, n_neighbors=k,
                                  min_samples_leaf=min_samples_leaf)
        if not knn:
            methods = {name: m for name, m in methods.items() if not name.startswith("KNN")}
        # Stored before the first trial and filled in place: an interrupted run keeps its trials.
        result = state[f"{key}_result"] = {"request": request, "records": [], "done": 0,
                                           "total": n_trials, "seconds": 0.0,
                                           "max_depth": max_depth, "selection": selection}
        _run(run_trials(source, methods, n_trials, seed=seed, depth_selection=selection),
             result, key, lambda done: f"Trial {done} of {n_trials}")

    result = state.get(f"{key}_result")
    if result is None:
        st.info(f"Press **Run** for {counted(n_trials, 'trial')} of the ranking-impurity and Gini trees "
                "with KNN and the default prediction as baselines.")
        return None
    if result["request"] != request:
        st.warning("The results below are for earlier settings; press **Run** to update them.")
    _stop_note(result["done"], result["total"], "trial")
    if not result["records"]:
        return None
    records = pd.DataFrame(result["records"])
    done_depth = result["max_depth"]
    st.caption(f"{counted(result['done'], 'trial')} in {result['seconds']:.1f} s; trees grown to depth "
               f"{done_depth}, each tree's own depth "
               + ("chosen by 5-fold cross-validation on its training set."
                  if result["selection"] == "cv" else "the max depth."))
    st.dataframe(method_table(records), hide_index=True, key=f"{key}_table",
                 column_config={"mean": st.column_config.NumberColumn("mean", format="%.4f"),
                                "ci": st.column_config.NumberColumn("± 95% CI", format="%.4f")})
    trees = records[records["method"].isin(TREE_METHODS.values())]
    baselines = records[~records["method"].isin(TREE_METHODS.values())]
    by_depth = loss_summary(trees, by=("method", "depth"))
    st.plotly_chart(loss_by_depth(by_depth, loss_summary(baselines) if len(baselines) else None),
                    key=f"{key}_chart")
    st.caption("In Fig. 2 of Xia et al. (50,000 training rows, losses by 5-fold cross-validation), the "
               "ranking-impurity tree's loss falls faster, ahead of Gini at depths 2–6, and both "
               "reach about 0.16 at depth 9 (Table I: 0.16 ± 0.01 and 0.17 ± 0.01). Here losses "
               "are on each trial's own test set; with few training rows the deep trees are "
               "noisier. A training size like the paper's is slow: about "
               f"{format_duration(estimate_seconds(50_000, 1_000, 20, knn=knn))} for 20 trials.")
    st.download_button("Download per-trial records (CSV)", safe_csv(records).encode(),
                       file_name="monte_carlo_trials.csv", mime="text/csv", key=f"{key}_csv",
                       on_click="ignore", icon=":material/download:")
    return records


def noise_panel(source: SyntheticSource | HoldoutSource, source_key: str, *, prediction: str = "median",
                min_samples_leaf: int = 1, key: str = "noise") -> pd.DataFrame | None:
    """Fig. 3 of Xia, Zhang & Wang (2006): loss of both trees against label noise, per training size.

    Parameters
    ----------
    source : SyntheticSource or HoldoutSource
        The data; its label noise is replaced by each chosen level. Synthetic
        data can also vary the training size; a hold-out split keeps the data's own.
    source_key : str
        Identifies the data settings behind ``source`` (see :func:`monte_carlo_panel`).
    prediction : {"median", "mode"}, default="median"
    min_samples_leaf : int, default=1
    key : str, default="noise"
        Prefix of the widget and session-state keys.

    Returns
    -------
    DataFrame or None
        The per-trial records shown (possibly of earlier settings), None before any run.
    """
    noise_levels = sorted(st.multiselect(
        "Label noise levels σ", NOISE_OPTIONS, NOISE_DEFAULT, key=f"{key}_levels", persist_state="session",
        help="Probability that a label moves to an adjacent level, in training and test data alike."))
    synthetic = isinstance(source, SyntheticSource)
    if isinstance(source, SyntheticSource):  # synthetic, narrowing source
        sizes = sorted(st.multiselect(
            "Training sizes", SIZE_OPTIONS, SIZE_DEFAULT, key=f"{key}_sizes", persist_state="session",
            format_func=lambda size: f"{size:,}", help="One panel each, as in Fig. 3 (a)–(c) of Xia et al.; "
                                            f"every trial tests on {counted(source.n_test, 'fresh row')}."))
    else:
        sizes = [source.n_train]
        st.caption(f"Training size: this data's own, {counted(source.n_train, 'row')} per hold-out split "
                   f"({source.test_fraction:.0%} of the rows test). Only synthetic data can vary "
                   "the training size.")
    cols = st.columns([1, 1, 2, 1])
    n_trials = int(cols[0].number_input("Trials", 1, 500, 10, key=f"{key}_trials", persist_state="session",
                                        help="Trials per training size and noise level (Xia et al. run 20)."))
    max_depth = int(cols[1].number_input("Max depth", 1, 20, 9, key=f"{key}_depth", persist_state="session"))
    selection = cols[2].radio("Tree depth", list(SELECTIONS), index=1, format_func=SELECTIONS.get,
                              key=f"{key}_selection", persist_state="session",
                              help="Xia et al. pick depths by cross-validation: a fixed deep tree "
                                   "overfits noisy labels.")
    seed = int(cols[3].number_input("Seed", 0, 1_000_000, 0, key=f"{key}_seed", persist_state="session"))
    request = (source_key, prediction, min_samples_leaf, tuple(noise_levels), tuple(sizes),
               n_trials, max_depth, selection, seed)
    units = len(sizes) * len(noise_levels) * n_trials
    n_test = _sizes(source)[1]
    estimate = sum(estimate_seconds(size, n_test, len(noise_levels) * n_trials,
                                    cv=selection == "cv", knn=False) for size in sizes)
    ready = bool(noise_levels and sizes)
    if ready:
        st.caption(f"{counted(units, 'fit')} of both trees ({counted(len(sizes), 'training size')} × "
                   f"{counted(len(noise_levels), 'noise level')} × {counted(n_trials, 'trial')}); estimated "
                   f"time about {format_duration(estimate)}.")
        if estimate > SLOW_SECONDS:
            st.warning(f"This run will take roughly {format_duration(estimate)}. **Stop** keeps what is "
                       "done: trials run round by round over all cells, so a stopped run still "
                       "fills the whole figure, with fewer trials.", icon=":material/hourglass_top:")
    else:
        st.info("Pick at least one noise level" + (" and one training size." if synthetic else "."))

    state = st.session_state
    result: dict[str, Any] | None
    if st.button("Run", type="primary", key=f"{key}_run", icon=":material/play_arrow:",
                 disabled=not ready):
        result = state[f"{key}_result"] = {"request": request, "records": [], "done": 0,
                                           "total": units, "seconds": 0.0}
        # One generator per (size, noise) cell, taken in turn: a stopped run has
        # about as many trials in every cell. Each cell's data depend only on
        # (seed, size, noise, trial), so the order changes nothing else.
        cells = [((size, noise), noise_trials(
            source, [noise], n_trials, train_sizes=[size] if synthetic else None,
            max_depth=max_depth, prediction=prediction, min_samples_leaf=min_samples_leaf,
            depth_selection=selection, seed=seed)) for size in sizes for noise in noise_levels]
        labels = []

        def units_in_turn() -> Iterator[list[dict[str, Any]]]:
            for trial in range(n_trials):
                for (size, noise), cell in cells:
                    labels.append(f"Trial {trial + 1} of {n_trials} · n = {size:,}, σ = {noise:g}")
                    yield next(cell)

        _run(units_in_turn(), result, key, lambda done: f"{labels[-1]} · run {done} of {units}")

    result = state.get(f"{key}_result")
    if result is None:
        if ready:
            st.info("Press **Run** to compare the criteria's losses as labels get noisier.")
        return None
    if result["request"] != request:
        st.warning("The results below are for earlier settings; press **Run** to update them.")
    _stop_note(result["done"], result["total"], "run")
    if not result["records"]:
        return None
    records = pd.DataFrame(result["records"])
    summary = loss_summary(records, by=("n_train", "noise", "method"))
    st.plotly_chart(loss_by_noise(summary), key=f"{key}_chart")
    st.caption("In Fig. 3 of Xia et al. (20 trials), the ranking-impurity tree has the lower loss and "
               "the tighter intervals in every panel, most clearly with 100 training rows and "
               f"high noise. Done: {counted(result['done'], 'run')} in {result['seconds']:.1f} s.")
    st.dataframe(noise_table(records), hide_index=True, key=f"{key}_table")
    st.download_button("Download per-trial records (CSV)", safe_csv(records).encode(),
                       file_name="noise_trials.csv", mime="text/csv", key=f"{key}_csv",
                       on_click="ignore", icon=":material/download:")
    return records


def _run(units: Iterable[list[dict[str, Any]]], result: dict[str, Any], key: str,
         label: Callable[[int], str]) -> None:
    """Consume ``units`` (lists of records), storing each in ``result`` before showing progress.

    The Stop button only has to exist: clicking it reruns the script, and
    Streamlit raises in this one at its next call (the progress update), after
    the finished unit has been stored.
    """
    bar = StopBar(key, help="Stops after the current trial and keeps the trials finished so far.")
    total = result["total"]
    try:
        for records in units:
            result["records"].extend(records)
            result["done"] += 1
            result["seconds"] = bar.elapsed
            bar.update(result["done"] / total, label(result["done"]))
    except ValueError as error:  # e.g. levels the data does not hold
        st.error(f"The trials could not run: {error}")
    bar.close()
