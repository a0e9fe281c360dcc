"""γ tuning: leaf count and held-out scores against γ (leave-one-out, k-fold or repeated k-fold), best-γ buttons."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import pandas as pd
import streamlit as st

from ..experiments.cross_validation import TIES_MEASURES, best_gamma, gamma_curves
from ..safe_csv import safe_csv
from ..viz.figures.ranking_trees import gamma_curves as gamma_curves_figure
from ..viz.figures.ranking_trees import leaf_count_curve
from .defaults import seed_defaults, user_set
from .evaluation_panel import baseline_rankers, default_protocol, knn_k_input, knn_name
from .long_run import Cancelled, abandon, background, format_duration, take_stopped
from .stale import rerun_requested, settings_facts, stale_notice
from .text import counted
from .tree_panel import GAMMA_GRID, GAMMA_RANGE

if TYPE_CHECKING:
    from ..datasets.label_ranking import RankingDataset
    from ..tree.gamma_path import GammaPath
    from .tree_panel import TreeSettings

CURVE_MEASURES = ("CS", "WRC", "LRA")
#: Above this many rows the γ panel starts on 10-fold rather than leave-one-out (n growths).
LOO_ROWS = 2_000
PROTOCOLS = {"loo": "Leave-one-out", "kfold": "k-fold", "repeated": "Repeated k-fold"}
#: After Stop, how long the page waits for the fold under way before giving up on it.
STOP_WAIT_SECONDS = 120.0


def gamma_panel(dataset: RankingDataset, data_key: str, settings: TreeSettings, path: GammaPath,
                key: str = "gamma", slider_key: str = "tree_gamma") -> None:
    """The leaf-count curve, the held-out γ curves (on request) and best-γ buttons.

    The curves come from leave-one-out, k-fold or repeated k-fold (k-fold by
    default above :data:`LOO_ROWS` rows); one maximal tree per fold. Stop
    keeps the folds that finished and draws their curves, marked partial.

    Parameters
    ----------
    dataset : RankingDataset
        The data of the curves.
    data_key : str
        Identifies ``dataset``. Curves computed for other data or limits are
        not drawn; a note says what changed and offers to compute them again
        (:mod:`rankviz.ui.stale`).
    settings : TreeSettings
        The tree's settings; the best-γ table shows the curves at its γ
        (the figures are not marked with it, so a γ step leaves them as they are).
    path : GammaPath
        The maximal tree for ``settings`` (all but γ).
    key : str, default="gamma"
        Prefix of the widget and session-state keys.
    slider_key : str, default="tree_gamma"
        Session-state key of the γ slider that the best-γ buttons set.
    """
    # No mark of the current γ: an unchanged figure is not redrawn, so a γ step draws the tree
    # sooner (the row above the tree says where γ is: rankviz.ui.tree_panel.gamma_row).
    st.plotly_chart(leaf_count_curve(path, GAMMA_RANGE), key=f"{key}_leaves")
    inside = path.breakpoints[(path.breakpoints > GAMMA_RANGE[0]) & (path.breakpoints < GAMMA_RANGE[1])]
    st.caption(f"The maximal tree has {counted(path.tree.n_leaves, 'leaf', 'leaves')}; the tree changes at "
               f"{counted(len(inside), 'value')} of γ in {GAMMA_RANGE[0]:.2f}…{GAMMA_RANGE[1]:.2f}. "
               "Below the first breakpoint rule (6) stops at the root.")
    n = dataset.n_samples
    cv, repetitions, seed, knn_k = protocol_controls(n, key)
    state = st.session_state
    request = (data_key, settings.growth, cv, repetitions, seed, knn_k)
    abandon(f"{key}_loo", unless=_signature(request))  # curves under way for other inputs stop
    # What the curves depend on, in words: the data, the protocol, KNN's k and every setting but γ.
    facts = {"data set": dataset.name, "protocol": describe_protocol(cv, repetitions, seed),
             "KNN neighbours": str(knn_k), **settings_facts(settings, gamma=False)}
    growths = counted(cv * repetitions if isinstance(cv, int) else n, "growth")  # cv: "loo" or a number of folds
    if st.button(f"Compute the γ curves ({growths})", key=f"{key}_run", type="primary",
                 icon=":material/query_stats:",
                 help="One maximal tree per fold; every γ of the slider is read off its γ path. "
                      f"{knn_name(knn_k)} and the default ranking are scored on the same folds."
                 ) or rerun_requested(key):
        result = _run(dataset, data_key, settings, key, cv, repetitions, seed, knn_k, facts)
        if result is not None:
            state[f"{key}_result"] = (request, facts, result)
            st.rerun()  # the whole page: the row beside the γ slider reads the new curves too
    elif take_stopped(f"{key}_loo"):
        result = _kept_folds(key)
        if result is None:
            st.warning("Stopped before the first fold finished: no curves to show. A larger minimum of "
                       "examples per leaf, a maximum depth or fewer folds make each fold quicker.",
                       icon=":material/pause_circle:")
        else:
            state[f"{key}_result"] = (state[f"{key}_running"]["request"], state[f"{key}_running"]["facts"],
                                      result)
            st.rerun()
    stored = state.get(f"{key}_result")
    if stored is None:
        st.info("Press the button to see held-out CS, WRC and LRA (and τx where the rankings tie labels) for "
                f"every γ at once, with {knn_name(knn_k)} and the default ranking as references.")
        return
    done_request, done_facts, (curves, baselines) = stored
    if done_request != request:
        stale_notice("γ curves", done_facts, facts, key=key,
                     button=f"Compute the curves for the current settings ({growths})")
        return
    attrs = curves.attrs
    if attrs.get("partial"):
        st.warning(f"Stopped: partial curves from {attrs['folds_done']} of {attrs['folds_total']} folds "
                   f"({counted(attrs['n_examples'], 'held-out example')}).", icon=":material/pause_circle:")
    st.plotly_chart(gamma_curves_figure(curves, baselines, measures=_curve_measures(curves)), key=f"{key}_curves")
    st.caption(_timing_note(curves))
    _best_gamma_buttons(curves, baselines, key, slider_key)
    # The file is made in the run (not on click), so it belongs to this session: see
    # rankviz.ui.export_panel._buttons for why files made on click can arrive cancelled.
    st.download_button("Download the curves (CSV)", _curves_csv(done_request, curves),
                       file_name="gamma_curves.csv", mime="text/csv", key=f"{key}_csv",
                       on_click="ignore", icon=":material/download:")


@st.cache_data(show_spinner=False, max_entries=8)
def _curves_csv(request: tuple, _curves: pd.DataFrame) -> bytes:
    """The curves as CSV, made once per computed request (its data, settings and protocol)."""
    return safe_csv(_curves.reset_index()).encode()


def protocol_controls(n: int, key: str) -> tuple[str | int, int, int, int | str]:
    """Leave-one-out, k-fold or repeated k-fold and KNN's k; returns ``(cv, repetitions, seed, knn_k)``.

    k-fold (10 folds) is the default above :data:`LOO_ROWS` rows, since
    leave-one-out grows one tree per row.
    """
    cols = st.columns([3, 1, 1, 1, 1.4])
    # The default follows the data (an upload of 40,000 rows must not start on
    # 40,000 growths) until the user picks a protocol: then it is theirs.
    seed_defaults({f"{key}_protocol": default_protocol(n, LOO_ROWS)})
    choice = cols[0].radio(
        "Protocol", list(PROTOCOLS), format_func=PROTOCOLS.get, horizontal=True,
        key=f"{key}_protocol", persist_state="session", on_change=user_set, args=(f"{key}_protocol",))
    high = max(2, min(n, 50))
    folds = cols[1].number_input("Folds", 2, high, min(10, high), key=f"{key}_folds",
                                 persist_state="session", disabled=choice == "loo")
    repeats = cols[2].number_input("Repetitions", 2, 20, 5, key=f"{key}_repetitions", persist_state="session",
                                   disabled=choice != "repeated",
                                   help="Repeated k-fold: each repetition shuffles the folds anew (seed + r).")
    seed = cols[3].number_input("Seed", 0, 10_000, 0, key=f"{key}_seed", persist_state="session",
                                disabled=choice == "loo", help="Shuffle of the k-fold split.")
    knn_k = knn_k_input(cols[4], key)
    why = (f"{counted(n, 'row')}: k-fold is the default above {LOO_ROWS:,} rows, because leave-one-out "
           f"grows one tree per row ({counted(n, 'tree')} here) where 10-fold grows 10, each on 90 % of the rows."
           if n > LOO_ROWS else
           f"{counted(n, 'row')}: leave-one-out ({counted(n, 'tree')}), as Rebelo et al. (2008); "
           f"above {LOO_ROWS:,} rows k-fold is the default, because leave-one-out grows one tree per row.")
    st.caption(why)
    if choice == "loo":
        return "loo", 1, 0, knn_k
    return int(folds), int(repeats) if choice == "repeated" else 1, int(seed), knn_k


def describe_protocol(cv: str | int, repetitions: int, seed: int) -> str:
    """The protocol in words, e.g. "5 × 10-fold cross-validation (seed 0)"."""
    if cv == "loo":
        return "leave-one-out"
    times = f"{repetitions} × " if repetitions > 1 else ""
    return f"{times}{cv}-fold cross-validation (seed {seed})"


def _timing_note(curves: pd.DataFrame) -> str:
    """How long the folds took, and what the estimate after the first fold said."""
    attrs = curves.attrs
    seconds = attrs.get("seconds") or []
    protocol = describe_protocol(attrs.get("cv", "loo"), attrs.get("repetitions", 1), attrs.get("seed", 0))
    text = (f"{protocol[0].upper()}{protocol[1:]}: {counted(attrs.get('n_examples', 0), 'held-out example')} "
            f"from {attrs.get('folds_done', 0)} of {attrs.get('folds_total', 0)} folds. Bands: 95 % "
            "Student-t confidence interval of the mean over the held-out examples; the baselines' "
            "lines are their means on the same folds.")
    if seconds:
        estimate = seconds[0] * attrs["folds_total"]
        took = sum(seconds)
        text += (f" The folds took {_seconds(took)} ({_seconds(took / len(seconds))} each); "
                 f"the estimate after the first fold was {_seconds(estimate)} for all "
                 f"{attrs['folds_total']}.")
    return text


def _seconds(value: float) -> str:
    """A duration for the timing note: milliseconds below a second, else :func:`format_duration`."""
    return f"{value * 1000:.0f} ms" if value < 1 else format_duration(value)


def _kept_folds(key: str) -> tuple[pd.DataFrame, dict[str, dict[str, float]]] | None:
    """After Stop: the curves of the folds that finished (waits for the fold under way)."""
    running = st.session_state.get(f"{key}_running")
    if running is None:
        return None
    if not running["finished"].is_set():
        with st.spinner("Stopping after the fold under way; the finished folds are kept…"):
            running["finished"].wait(STOP_WAIT_SECONDS)
    kept = running.get("value")
    if kept is None or not kept[0].attrs.get("folds_done"):
        return None
    return _with_baselines(*kept)


def _signature(request: tuple) -> tuple:
    """The background job's signature of the curves for ``request`` (data, growth settings, protocol, k)."""
    return ("gamma_curves", *request)


def _run(dataset: RankingDataset, data_key: str, settings: TreeSettings, key: str, cv: str | int,
         repetitions: int, seed: int, knn_k: int | str,
         facts: dict[str, str]) -> tuple[pd.DataFrame, dict[str, dict[str, float]]] | None:
    """The curves and the baselines' means, computed beside the page with progress and Stop.

    The worker also leaves its result in ``st.session_state[f"{key}_running"]``
    (a plain dict: the worker calls no Streamlit), so that after Stop the
    folds that finished are shown.
    """
    running = st.session_state[f"{key}_running"] = {
        "request": (data_key, settings.growth, cv, repetitions, seed, knn_k), "finished": threading.Event(),
        "value": None, "facts": facts}

    def compute(progress: Callable[..., None]) -> tuple[pd.DataFrame, pd.DataFrame]:
        started = time.perf_counter()

        def fold_done(done: int, total: int) -> bool:
            per_fold = (time.perf_counter() - started) / done
            try:  # the bar's time left is measured from the finished folds
                progress(done / total, f"fold {done} of {total}, {format_duration(per_fold)} per fold "
                                       f"so far, about {format_duration(per_fold * (total - done))} left")
            except Cancelled:
                return False  # keep the finished folds
            return True

        try:
            curves = gamma_curves(
                dataset.X, dataset.Y, GAMMA_GRID, cv=cv, repetitions=repetitions, seed=seed,
                criterion=settings.criterion, min_samples_leaf=settings.min_samples_leaf,
                max_depth=settings.max_depth, tie_tolerance=settings.tie_tolerance,
                baselines=baseline_rankers([settings], n_neighbors=knn_k), progress=fold_done)
            curves.attrs["seed"] = seed
            running["value"] = (curves, curves.attrs["baselines"])
        finally:
            running["finished"].set()
        if curves.attrs["partial"]:
            raise Cancelled()  # the page shows the kept folds from `running`
        return running["value"]

    try:
        computed = background(compute, key=f"{key}_loo", keep=False, restart=True,
                              signature=_signature(running["request"]),
                              label="γ curves")
    except ValueError as error:  # e.g. rankings the criterion cannot use
        st.error(f"The curves could not be computed: {error}")
        return None
    if computed is None:
        return None
    return _with_baselines(*computed)


def _with_baselines(curves: pd.DataFrame, scores: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, dict[str, float]]]:
    baselines = {method: group[_curve_measures(curves)].mean().to_dict()
                 for method, group in scores.groupby("method", sort=False)}
    return curves, baselines


def _curve_measures(curves: pd.DataFrame) -> list[str]:
    """CS, WRC and LRA, and τx where the rankings tie labels (the curves then hold it)."""
    return list(CURVE_MEASURES) + [m for m in TIES_MEASURES if m in curves.columns]


def _best_gamma_buttons(curves: pd.DataFrame, baselines: dict[str, dict[str, float]], key: str,
                        slider_key: str) -> None:
    """A "Set γ" button per measure, and a table: the best γ, the tree there, the baselines."""
    measures = _curve_measures(curves)
    rows, cols = [], st.columns(len(measures))
    clicked = False
    for col, measure in zip(cols, measures):
        gamma, score = best_gamma(curves, measure)
        rows.append({"measure": measure, "best γ": gamma, "tree": score,
                     **{method: values[measure] for method, values in baselines.items()}})
        clicked |= col.button(f"Set γ = {gamma:.3f} (best {measure})", key=f"{key}_best_{measure}",
                              on_click=_set_state, args=(slider_key, gamma),
                              width="stretch", icon=":material/tune:",
                              help=f"Held-out {measure} {score:.3f} at γ = {gamma:.3f} (the smallest "
                                   "γ reaching the best value, i.e. the simplest such tree).")
    if clicked:
        st.rerun()  # the whole page: the slider and the tree are outside this panel's fragment
    st.dataframe(pd.DataFrame(rows).set_index("measure").style.format(
        {"best γ": "{:.3f}", "tree": "{:z.3f}", **{m: "{:z.3f}" for m in baselines}}, na_rep="–"))


def held_out_note(gamma: float, data_key: str, growth: tuple, key: str = "gamma") -> str:
    """The computed γ curves at ``gamma`` in words, for the row beside the slider; "" if none apply.

    The curves apply while the data and the growth settings are those they
    were computed for (the protocol is named, so a later change of protocol
    does not hide them).
    """
    stored = st.session_state.get(f"{key}_result")
    if stored is None:
        return ""
    (done_key, done_growth, cv, repetitions, seed, _), _, (curves, _) = stored
    if (done_key, done_growth) != (data_key, growth):
        return ""
    # The curves are on the slider's grid; γ off the grid has no row (NaN).
    at = curves.reindex([gamma], method="nearest", tolerance=1e-9)
    measures = _curve_measures(curves)
    if at[measures].isna().all(axis=None):
        return ""
    values = ", ".join(f"{measure} {at[measure].iloc[0]:z.3f}" for measure in measures)
    partial = ", partial" if curves.attrs.get("partial") else ""
    return f"held-out {values} ({describe_protocol(cv, repetitions, seed)}{partial})"


def _set_state(state_key: str, value: object) -> None:
    st.session_state[state_key] = value
