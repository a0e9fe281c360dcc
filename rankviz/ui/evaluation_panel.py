"""Comparing the tree with KNN (k=1) and the default ranking, as in Rebelo, Soares & Costa (2008).

References
----------
.. [1] C. Rebelo, C. Soares and J. Pinto da Costa, "Empirical evaluation of
       ranking trees on some metalearning problems", Proceedings of the 2nd
       Planning to Learn Workshop (PlanLearn) at ICML/COLT/UAI 2008, 2008.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import pandas as pd
import streamlit as st
from sklearn.base import BaseEstimator

from ..label_ranking.baselines import DefaultRanker, KNNRanker
from ..experiments.cross_validation import MEASURES, cross_validate, summarize
from ..safe_csv import safe_csv
from ..viz.figures.ranking_trees import metric_bars, metric_distribution
from .long_run import run_jobs
from .stale import rerun_requested, settings_facts, stale_notice
from .text import counted

if TYPE_CHECKING:
    from ..datasets.label_ranking import RankingDataset
    from .tree_panel import TreeSettings

# Past this many examples leave-one-out means that many fits: k-fold is offered first.
LOO_LIMIT = 500
# Rough share of the time of each method (the trees: any other name), for the progress bar.
_METHOD_WEIGHTS = {"KNN (k=1)": 0.3, "Default ranking": 0.05}


def evaluation_panel(dataset: RankingDataset, data_key: str, trees: dict[str, TreeSettings],
                     key: str = "eval") -> pd.DataFrame | None:
    """Cross-validation controls, a progress bar, charts, a table and a CSV download.

    Parameters
    ----------
    dataset : RankingDataset
        The data the methods are evaluated on.
    data_key : str
        Identifies ``dataset``. Results computed for other data, trees or
        protocol are not drawn; a note says what changed and offers to run
        the evaluation again (:mod:`rankviz.ui.stale`).
    trees : dict of str -> TreeSettings
        The ranking trees to evaluate, by the name shown in the charts; KNN
        (k=1) and the default ranking are always added.
    key : str, default="eval"
        Prefix of the widget and session-state keys.

    Returns
    -------
    DataFrame or None
        The per-example scores shown; None when none are (nothing evaluated
        yet, or only for earlier settings).
    """
    n = dataset.n_samples
    cols = st.columns([2, 1, 1])
    protocol = cols[0].radio(
        "Protocol", ["loo", "kfold"], horizontal=True, key=f"{key}_protocol", persist_state="session",
        index=0 if n <= LOO_LIMIT else 1,
        format_func={"loo": f"Leave-one-out ({counted(n, 'fit')} per method), as in Rebelo et al. (2008)",
                     "kfold": "k-fold cross-validation"}.get)
    folds = cols[1].number_input("Folds", 2, min(n, 50), min(10, n), key=f"{key}_folds", persist_state="session",
                                 disabled=protocol == "loo")
    seed = cols[2].number_input("Shuffle seed", 0, 10_000, 0, key=f"{key}_seed", persist_state="session",
                                disabled=protocol == "loo")
    cv = "loo" if protocol == "loo" else int(folds)
    request = (data_key, tuple(trees.items()), cv, int(seed))
    facts = _facts(dataset, trees, cv, int(seed))
    state = st.session_state
    if st.button("Run evaluation", type="primary", key=f"{key}_run") or rerun_requested(key):
        methods = {name: tree.estimator() for name, tree in trees.items()}
        methods.update(baseline_rankers(trees.values()))
        # One job per method: Stop keeps the methods already evaluated.
        result = state[f"{key}_result"] = {"request": request, "facts": facts, "scores": [], "errors": {},
                                           "complete": False, "seconds": 0.0}
        jobs = []
        for name, method in methods.items():
            def run(progress: Callable[[int, int], None], name: str = name, method: Any = method) -> None:
                result["scores"].append(cross_validate({name: method}, dataset.X, dataset.Y, cv=cv,
                                                       seed=int(seed), progress=progress))
            jobs.append((name, name, _METHOD_WEIGHTS.get(name, 1.0), run))
        run_jobs(jobs, result, f"{key}_jobs",
                 help="Stops after the current fold; the methods evaluated so far stay.")
    result = state.get(f"{key}_result")
    if result is None:
        st.info(f"Press **Run evaluation** to compare {' and '.join(trees)} with KNN (k=1) and "
                "the default ranking on held-out examples.")
        return None
    done_request = result["request"]
    if done_request != request:
        stale_notice("Evaluation results", result["facts"], facts, key=key,
                     button="Run the evaluation for the current settings")
        return None
    for method, message in result["errors"].items():  # e.g. rankings the criterion cannot use
        st.error(f"**{method}** could not be evaluated: {message}")
    if not result["complete"]:
        done = [frame["method"].iloc[0] for frame in result["scores"] if len(frame)]
        st.warning(f"Stopped: the results below are partial ({', '.join(done) or 'no method'} "
                   "done).", icon=":material/pause_circle:")
    if not result["scores"]:
        return None
    scores = pd.concat(result["scores"], ignore_index=True)
    done_cv = done_request[2]
    protocol = ("Leave-one-out" if done_cv == "loo"
                else f"{done_cv}-fold cross-validation (seed {done_request[3]})")
    described = "; ".join(f"{name}: {tree.describe()}" for name, tree in done_request[1])
    st.caption(f"{protocol} over {counted(scores['example'].nunique(), 'example')}. {described}.")
    st.plotly_chart(metric_bars(scores), key=f"{key}_bars")
    measure = st.selectbox("Per-example distribution of", list(MEASURES), key=f"{key}_measure",
                           persist_state="session")
    st.plotly_chart(metric_distribution(scores, measure), key=f"{key}_dist")
    # Measures as rows, methods as columns: fits the page whatever the number of measures.
    table = summarize(scores).drop(columns="count", level=1).T
    table.index = [f"{m} {s}" for m, s in table.index]
    st.dataframe(table.style.format("{:z.3f}"))
    st.download_button("Download per-example scores (CSV)", safe_csv(scores).encode(),
                       file_name="ranking_tree_evaluation.csv", mime="text/csv", key=f"{key}_csv",
                       on_click="ignore", icon=":material/download:")
    return scores


def baseline_rankers(trees: Iterable[TreeSettings]) -> dict[str, BaseEstimator]:
    """KNN (k=1) and the default ranking, predicting ties as the trees do (strictly if they differ)."""
    tolerances = {tree.tie_tolerance for tree in trees}
    ties = tolerances.pop() if len(tolerances) == 1 else None
    return {"KNN (k=1)": KNNRanker(n_neighbors=1, tie_tolerance=ties),
            "Default ranking": DefaultRanker(tie_tolerance=ties)}


def _facts(dataset: RankingDataset, trees: dict[str, TreeSettings], cv: int | str, seed: int) -> dict[str, str]:
    """What the results depend on, in words, for the note on results of earlier settings."""
    facts = {"data set": dataset.name,
             "protocol": "leave-one-out" if cv == "loo" else f"{cv}-fold cross-validation, seed {seed}"}
    for name, tree in trees.items():
        facts.update(settings_facts(tree, prefix=f"{name} " if len(trees) > 1 else ""))
    return facts
