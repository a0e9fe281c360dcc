"""Comparing the tree with KNN and the default ranking, as in Rebelo, Soares & Costa (2008).

KNN's k is 1 by default (the paper's baseline), a number, or chosen by inner
cross-validation ("auto", as IBLR's). Every chart's whiskers are 95 %
Student-t intervals; a paired table tests the tree against each baseline
(:func:`paired_table`).

References
----------
.. [1] C. Rebelo, C. Soares and J. Pinto da Costa, "Empirical evaluation of
       ranking trees on some metalearning problems", Proceedings of the 2nd
       Planning to Learn Workshop (PlanLearn) at ICML/COLT/UAI 2008, 2008.
"""

from __future__ import annotations

import math

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import pandas as pd
import streamlit as st
from sklearn.base import BaseEstimator

from ..label_ranking.baselines import DefaultRanker, KNNRanker
from ..experiments.cross_validation import MEASURES, TIES_MEASURES, compare_methods, paired_scores, summarize
from ..safe_csv import safe_csv
from ..viz.figures.ranking_trees import metric_bars, metric_distribution
from .defaults import seed_defaults, user_set
from .long_run import run_jobs
from .stale import rerun_requested, settings_facts, stale_notice
from .text import counted, md_escape

if TYPE_CHECKING:
    from ..datasets.label_ranking import RankingDataset


class MethodSettings(Protocol):
    """A method's settings as the panel takes them: :class:`rankviz.ui.tree_panel.TreeSettings`, or
    others (the forest page's) that also say their facts (``facts(prefix)``) for the note on stale results."""

    @property
    def tie_tolerance(self) -> float | None: ...

    def estimator(self) -> BaseEstimator: ...

    def describe(self) -> str: ...


# Past this many examples leave-one-out means that many fits: k-fold is offered first.
LOO_LIMIT = 500
#: KNN's k on offer: 1 (Rebelo et al.'s baseline), a few numbers, or "auto" (inner 5-fold CV).
KNN_K_OPTIONS = [1, 3, 5, 7, 9, 11, 15, 21, "auto"]
# Rough share of the time of each method (the trees: any other name), for the progress bar.
_METHOD_WEIGHTS = {"Default ranking": 0.05}


def _job_weight(name: str, method: Any, n_features: int, knn_k: int | str) -> float:
    """A method's guessed time, one tree's = 1: it apportions the progress bar and the time left.

    A forest grows ``n_estimators`` trees, each searching a share of the
    features at a split (its ``split_features``). Counted as one tree, a
    forest of 100 made the bar promise the later methods its own pace: on
    leave-one-out of 153 rows, "about 3 min left" with 57 s to go.
    """
    if name in _METHOD_WEIGHTS:
        return _METHOD_WEIGHTS[name]
    if name.startswith("KNN"):
        return 3.0 if knn_k == "auto" else 0.3
    n_trees = getattr(method, "n_estimators", None)
    if isinstance(n_trees, int):
        split = getattr(method, "split_features", None)
        d = max(n_features, 1)
        searched = {"sqrt": math.sqrt(d), "log2": math.log2(max(d, 2))}.get(split, d) if isinstance(split, str) else d
        return n_trees * searched / d
    return 1.0


def knn_name(k: int | str) -> str:
    """The label of KNN with ``k`` neighbours in charts and tables: "KNN (k=1)", "KNN (k=auto)"."""
    return f"KNN (k={k})"


def knn_k_input(container: Any, key: str, disabled: bool = False) -> int | str:
    """The "KNN neighbours k" menu in ``container``: 1 (the default), a few numbers, or "auto".

    Returns the chosen k, or ``"auto"`` for inner 5-fold cross-validation on
    each training fold (:class:`rankviz.label_ranking.KNNRanker`).
    """
    return container.selectbox(
        "KNN neighbours k", KNN_K_OPTIONS, key=f"{key}_knn_k", persist_state="session", disabled=disabled,
        format_func=lambda k: "auto (inner 5-fold CV)" if k == "auto" else
        ("1, as Rebelo et al." if k == 1 else str(k)),
        help="1 is the baseline of Rebelo et al. (2008). auto picks k from 1…101 by 5-fold "
             "cross-validation on each training fold, maximising the mean Kendall tau, as IBLR does; "
             "it costs one inner cross-validation per fold.")


def default_protocol(n: int, loo_rows: int) -> str:
    """The protocol a panel starts on for ``n`` rows: ``"loo"`` up to ``loo_rows`` rows, else ``"kfold"``.

    Leave-one-out fits one model per row: on an upload of 40,000 rows that is
    40,000 fits, where 10-fold fits 10.
    """
    return "loo" if n <= loo_rows else "kfold"


def evaluation_panel(dataset: RankingDataset, data_key: str, trees: Mapping[str, MethodSettings],
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
    trees : dict of str -> TreeSettings or MethodSettings
        The ranking trees (or other methods) to evaluate, by the name shown in the charts; KNN
        (k chosen here, 1 by default) and the default ranking are always added.
    key : str, default="eval"
        Prefix of the widget and session-state keys.

    Returns
    -------
    DataFrame or None
        The per-example scores shown; None when none are (nothing evaluated
        yet, or only for earlier settings).
    """
    n = dataset.n_samples
    cols = st.columns([2, 1, 1, 1])
    # The default follows the data until the user picks a protocol (see rankviz.ui.defaults).
    seed_defaults({f"{key}_protocol": default_protocol(n, LOO_LIMIT)})
    protocol = cols[0].radio(
        "Protocol", ["loo", "kfold"], horizontal=True, key=f"{key}_protocol", persist_state="session",
        on_change=user_set, args=(f"{key}_protocol",),
        format_func={"loo": f"Leave-one-out ({counted(n, 'fit')} per method), as in Rebelo et al. (2008)",
                     "kfold": "k-fold cross-validation"}.get)
    folds = cols[1].number_input("Folds", 2, min(n, 50), min(10, n), key=f"{key}_folds", persist_state="session",
                                 disabled=protocol == "loo")
    seed = cols[2].number_input("Shuffle seed", 0, 10_000, 0, key=f"{key}_seed", persist_state="session",
                                disabled=protocol == "loo")
    knn_k = knn_k_input(cols[3], key)
    cv = "loo" if protocol == "loo" else int(folds)
    request = (data_key, tuple(trees.items()), cv, int(seed), knn_k)
    facts = _facts(dataset, trees, cv, int(seed), knn_k)
    state = st.session_state
    if st.button("Run evaluation", type="primary", key=f"{key}_run") or rerun_requested(key):
        methods = {name: tree.estimator() for name, tree in trees.items()}
        methods.update(baseline_rankers(trees.values(), n_neighbors=knn_k))
        # One job per method: Stop keeps the methods already evaluated.
        running: dict[str, Any] = {"request": request, "facts": facts, "scores": [], "errors": {},
                                   "complete": False, "seconds": 0.0}
        state[f"{key}_result"] = running
        jobs = []
        for name, method in methods.items():
            def run(progress: Callable[[int, int], None], name: str = name, method: Any = method) -> None:
                running["scores"].append(compare_methods({name: method}, dataset.X, dataset.Y, cv=cv,
                                                       seed=int(seed), progress=progress))
            jobs.append((name, name, _job_weight(name, method, dataset.X.shape[1], knn_k), run))
        run_jobs(jobs, running, f"{key}_jobs",
                 help="Stops after the current fold; the methods evaluated so far stay.")
    result = state.get(f"{key}_result")
    if result is None:
        st.info(f"Press **Run evaluation** to compare {' and '.join(trees)} with {knn_name(knn_k)} and "
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
    # τx where the rankings tie labels: the measure of partial rankings (compare_methods adds it there)
    measures = [m for m in (*MEASURES, *TIES_MEASURES) if m in scores.columns]
    bars = [m for m in measures if m in TIES_MEASURES or m in ("CS", "WRC", "LRA")]
    st.plotly_chart(metric_bars(scores, bars), key=f"{key}_bars")
    tree_names = [name for name, _ in done_request[1] if name in set(scores["method"])]
    if tree_names:
        paired_table(scores, tree_names, key=key, measures=measures)
    if st.session_state.get(f"{key}_measure") not in measures:
        st.session_state.pop(f"{key}_measure", None)  # τx of earlier data with ties: start from the first
    measure = st.selectbox("Per-example distribution of", measures, key=f"{key}_measure",
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


def paired_table(scores: pd.DataFrame, references: Sequence[str], key: str, measures: Sequence[str] = tuple(MEASURES),
                 losses: Sequence[str] = ()) -> pd.DataFrame | None:
    """A reference method (a tree) against every other, paired per held-out example, with a CSV download.

    Parameters
    ----------
    scores : DataFrame
        Per-example scores (:func:`rankviz.experiments.cross_validation.compare_methods`).
    references : sequence of str
        Methods that may be the reference (the first is the default).
    measures : sequence of str, default=MEASURES
        Columns of ``scores`` to compare by.
    losses : sequence of str, default=()
        Those of ``measures`` where lower is better (a win is a lower value).
    key : str
        Prefix of the widget keys: ``f"{key}_paired_measure"``,
        ``f"{key}_paired_reference"``, ``f"{key}_paired"`` (the table) and
        ``f"{key}_paired_csv"``.

    Returns
    -------
    DataFrame or None
        The numbers shown (:func:`rankviz.experiments.cross_validation.paired_scores`),
        None when there is nothing to compare.
    """
    if len(set(scores["method"])) < 2:
        return None
    if len(measures) > 1:
        cols = st.columns([1, 1, 2])
        if st.session_state.get(f"{key}_paired_measure") not in measures:
            st.session_state.pop(f"{key}_paired_measure", None)  # a measure of earlier data (τx)
        measure = cols[0].selectbox("Paired comparison by", list(measures), key=f"{key}_paired_measure",
                                    persist_state="session")
        reference_column = cols[1]
    else:
        measure, reference_column = measures[0], st.columns([1, 1])[0]
    reference = (reference_column.selectbox("Reference", list(references), key=f"{key}_paired_reference",
                                            persist_state="session") if len(references) > 1 else references[0])
    lower = measure in losses
    table = paired_scores(scores, reference, measure, lower_is_better=lower)
    if table.empty:
        return None
    better = "lower" if lower else "higher"
    st.markdown(f"**{md_escape(reference)} against each method, paired per held-out example ({measure}, "
                f"{better} is better)** — difference = {md_escape(reference)} − method; 95% CI: Student-t "
                "interval of the mean difference; p: two-sided Wilcoxon signed-rank test; wins / ties / losses: "
                f"examples where {md_escape(reference)} scores {better} / the same / "
                f"{'higher' if lower else 'lower'}.")
    shown = pd.DataFrame({
        "method": table["method"], "examples": table["examples"],
        f"mean {reference}": table["mean reference"], "mean method": table["mean other"],
        "difference": table["difference"],
        "95% CI": [f"{low:+.3f} … {high:+.3f}" for low, high in zip(table["ci low"], table["ci high"])],
        "Wilcoxon p": table["Wilcoxon p"],
        "wins / ties / losses": [f"{w} / {t} / {l}" for w, t, l in
                                 zip(table["wins"], table["ties"], table["losses"])]})
    st.dataframe(shown.style.format({f"mean {reference}": "{:.3f}", "mean method": "{:.3f}",
                                     "difference": "{:+.3f}", "Wilcoxon p": "{:.3g}"}),
                 hide_index=True, key=f"{key}_paired")
    st.download_button("Download the paired comparison (CSV)",
                       safe_csv(table.assign(reference=reference, measure=measure)).encode(),
                       file_name="paired_comparison.csv", mime="text/csv", key=f"{key}_paired_csv",
                       on_click="ignore", icon=":material/download:")
    return table


def baseline_rankers(trees: Iterable[MethodSettings], n_neighbors: int | str = 1) -> dict[str, BaseEstimator]:
    """KNN and the default ranking, predicting ties as the trees do (strictly if they differ).

    Parameters
    ----------
    trees : iterable of TreeSettings or MethodSettings
        Their common tie tolerance, if any, is the baselines'.
    n_neighbors : int or "auto", default=1
        KNN's k (1: the baseline of Rebelo et al.); "auto" chooses it by
        inner 5-fold cross-validation (:class:`rankviz.KNNRanker`).

    Returns
    -------
    dict of str -> estimator
        ``knn_name(n_neighbors)`` and ``"Default ranking"``.
    """
    tolerances = {tree.tie_tolerance for tree in trees}
    ties = tolerances.pop() if len(tolerances) == 1 else None
    return {knn_name(n_neighbors): KNNRanker(n_neighbors=n_neighbors, tie_tolerance=ties),
            "Default ranking": DefaultRanker(tie_tolerance=ties)}


def _facts(dataset: RankingDataset, trees: Mapping[str, MethodSettings], cv: int | str, seed: int,
           knn_k: int | str = 1) -> dict[str, str]:
    """What the results depend on, in words, for the note on results of earlier settings."""
    facts = {"data set": dataset.name,
             "protocol": "leave-one-out" if cv == "loo" else f"{cv}-fold cross-validation, seed {seed}",
             "KNN neighbours": str(knn_k)}
    for name, tree in trees.items():
        prefix = f"{name} " if len(trees) > 1 else ""
        # a tree's settings, or another method's (the forest page's) that say their facts themselves
        said = getattr(tree, "facts", None)
        facts.update(said(prefix) if said is not None else settings_facts(tree, prefix=prefix))  # type: ignore[arg-type]
    return facts
