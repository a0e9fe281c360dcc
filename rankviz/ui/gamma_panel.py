"""γ tuning: leaf count and leave-one-out scores against γ, and a button to the best γ."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import streamlit as st

from ..experiments.cross_validation import best_gamma, cross_validate, loo_gamma_curves
from ..safe_csv import safe_csv
from ..viz.figures.ranking_trees import gamma_curves, leaf_count_curve
from .evaluation_panel import baseline_rankers
from .long_run import background, take_stopped
from .stale import rerun_requested, settings_facts, stale_notice
from .text import counted
from .tree_panel import GAMMA_RANGE, GAMMA_STEP

if TYPE_CHECKING:
    from ..datasets.label_ranking import RankingDataset
    from ..tree.gamma_path import GammaPath
    from .tree_panel import TreeSettings

CURVE_MEASURES = ("CS", "WRC", "LRA")
#: The curves are computed on the slider's own grid, so "best γ" is a slider value.
GAMMA_GRID = np.round(np.arange(GAMMA_RANGE[0], GAMMA_RANGE[1] + GAMMA_STEP / 2, GAMMA_STEP), 3)


def gamma_panel(dataset: RankingDataset, data_key: str, settings: TreeSettings, path: GammaPath,
                key: str = "gamma", slider_key: str = "tree_gamma") -> None:
    """The leaf-count curve, the leave-one-out curves (on request) and best-γ buttons.

    Parameters
    ----------
    dataset : RankingDataset
        The data of the leave-one-out curves.
    data_key : str
        Identifies ``dataset``. Curves computed for other data or limits are
        not drawn; a note says what changed and offers to compute them again
        (:mod:`rankviz.ui.stale`).
    settings : TreeSettings
        The tree's settings; γ is marked on the curves.
    path : GammaPath
        The maximal tree for ``settings`` (all but γ).
    key : str, default="gamma"
        Prefix of the widget and session-state keys.
    slider_key : str, default="tree_gamma"
        Session-state key of the γ slider that the best-γ buttons set.
    """
    st.plotly_chart(leaf_count_curve(path, GAMMA_RANGE, current=settings.gamma), key=f"{key}_leaves")
    inside = path.breakpoints[(path.breakpoints > GAMMA_RANGE[0]) & (path.breakpoints < GAMMA_RANGE[1])]
    st.caption(f"The maximal tree has {counted(path.tree.n_leaves, 'leaf', 'leaves')}; the tree changes at "
               f"{counted(len(inside), 'value')} of γ in {GAMMA_RANGE[0]:.2f}…{GAMMA_RANGE[1]:.2f}. "
               "Below the first breakpoint rule (6) stops at the root.")

    state = st.session_state
    request = (data_key, settings.growth)
    # What the curves depend on, in words: the data and every setting but γ.
    facts = {"data set": dataset.name, **settings_facts(settings, gamma=False)}
    n = dataset.n_samples
    if st.button(f"Compute leave-one-out curves ({counted(n, 'growth')})", key=f"{key}_run", type="primary",
                 icon=":material/query_stats:",
                 help="One maximal tree per held-out example; every γ of the slider is read off "
                      "its γ path. KNN (k=1) and the default ranking are evaluated the same way."
                 ) or rerun_requested(key):
        result = _run(dataset, data_key, settings, key)
        if result is None:
            return
        state[f"{key}_result"] = (request, facts, result)
    elif take_stopped(f"{key}_loo"):
        st.warning("Stopped: the leave-one-out curves were not computed. A larger minimum of "
                   "examples per leaf or a maximum depth makes each growth quicker.",
                   icon=":material/pause_circle:")
    stored = state.get(f"{key}_result")
    if stored is None:
        st.info("Press the button to see leave-one-out CS, WRC and LRA for every γ at once, "
                "with KNN (k=1) and the default ranking as references.")
        return
    done_request, done_facts, (curves, baselines) = stored
    if done_request != request:
        stale_notice("Leave-one-out curves", done_facts, facts, key=key,
                     button=f"Compute the curves for the current settings ({counted(n, 'growth')})")
        return
    st.plotly_chart(gamma_curves(curves, baselines, current=settings.gamma, measures=CURVE_MEASURES),
                    key=f"{key}_curves")
    _best_gamma_buttons(curves, baselines, key, slider_key)
    table = curves.reset_index()
    st.download_button("Download the curves (CSV)", safe_csv(table).encode(),
                       file_name="gamma_curves.csv", mime="text/csv", key=f"{key}_csv",
                       on_click="ignore", icon=":material/download:")


def _run(dataset: RankingDataset, data_key: str, settings: TreeSettings,
         key: str) -> tuple[pd.DataFrame, dict[str, dict[str, float]]] | None:
    """The curves and the baselines' means, computed beside the page with progress and Stop."""
    n = dataset.n_samples

    def compute(progress: Callable[..., None]) -> tuple[pd.DataFrame, pd.DataFrame]:
        curves = loo_gamma_curves(
            dataset.X, dataset.Y, GAMMA_GRID, criterion=settings.criterion,
            min_samples_leaf=settings.min_samples_leaf, max_depth=settings.max_depth,
            tie_tolerance=settings.tie_tolerance, progress=lambda done, total: progress(
                done / (total + 2), f"ranking tree: held-out example {done} of {total}"))
        progress(n / (n + 2), "KNN (k=1) and the default ranking")
        scores = cross_validate(baseline_rankers([settings]), dataset.X, dataset.Y, cv="loo")
        return curves, scores

    try:
        computed = background(compute, key=f"{key}_loo", keep=False, restart=True,
                              signature=("loo_gamma", data_key, settings.growth),
                              label="Leave-one-out curves")
    except ValueError as error:  # e.g. rankings the criterion cannot use
        st.error(f"The curves could not be computed: {error}")
        return None
    if computed is None:
        return None
    curves, scores = computed
    baselines = {method: group[list(CURVE_MEASURES)].mean().to_dict()
                 for method, group in scores.groupby("method", sort=False)}
    return curves, baselines


def _best_gamma_buttons(curves: pd.DataFrame, baselines: dict[str, dict[str, float]], key: str,
                        slider_key: str) -> None:
    rows, cols = [], st.columns(len(CURVE_MEASURES))
    for col, measure in zip(cols, CURVE_MEASURES):
        gamma, score = best_gamma(curves, measure)
        rows.append({"measure": measure, "best γ": gamma, "tree": score,
                     **{method: values[measure] for method, values in baselines.items()}})
        col.button(f"Set γ = {gamma:.3f} (best {measure})", key=f"{key}_best_{measure}",
                   on_click=_set_state, args=(slider_key, gamma),
                   width="stretch", icon=":material/tune:",
                   help=f"Leave-one-out {measure} {score:.3f} at γ = {gamma:.3f} (the smallest "
                        "γ reaching the best value, i.e. the simplest such tree).")
    st.dataframe(pd.DataFrame(rows).set_index("measure").style.format(
        {"best γ": "{:.3f}", "tree": "{:z.3f}", **{m: "{:z.3f}" for m in baselines}}))


def _set_state(state_key: str, value: object) -> None:
    st.session_state[state_key] = value
