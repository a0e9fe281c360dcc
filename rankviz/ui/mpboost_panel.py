"""Widgets of the MPBoost page (Zhu et al. 2009): settings, the live-growing ensemble, the comparison.

References
----------
.. [1] C. Zhu, W. Chen, Z. A. Zhu, G. Wang, D. Wang and Z. Chen, "A general
       magnitude-preserving boosting algorithm for search ranking",
       Proceedings of the 18th ACM Conference on Information and Knowledge
       Management (CIKM '09), pp. 817-826, 2009.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import streamlit as st

from ..ltr.ddf import DDF_NAMES, DEFAULT_PARAMETERS, PARAMETER_SYMBOLS, TITLES, condition_9_note
from ..experiments.statistics import paired_comparison
from ..experiments.ltr_study import (BASELINES, GrowthCurves, RankerComparison, compare_rankers, iter_growth,
                                     method_title)
from ..safe_csv import safe_csv
from ..ltr.mpboost import MPBoost
from ..viz.figures.ltr import loss_bound_figure, ndcg_by_k_figure, rounds_figure
from ..viz.dot.stumps import additive_model_to_dot, stumps_to_dot
from ..viz.layout import TreeLayout, layout_dot
from .long_run import StopBar, background, take_stopped
from .ltr_data_picker import SPLIT_TITLES
from .export_panel import drawing_export
from .tree_view import tree_view
from .text import counted
from .url_state import UrlField, choice, number

if TYPE_CHECKING:
    from streamlit.delta_generator import DeltaGenerator

    from ..datasets.queries import QueryDataset

KEY = "mpb"
SHRINKAGES = (0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0)
FORMS = {"common": "common: 2^r − 1, 1/log2(1 + j)",
         "mpboost": "Zhu et al. (2009): no discount at j = 1, 1/log2(j) after"}
VIEWS = {"stumps": "Latest stumps", "additive": "Additive model per feature"}
PLAY_SECONDS = 0.5   # one animation tick
PLAY_TICKS = 40      # an animation takes about this many ticks, whatever the number of rounds
_RESULTS_KEPT = 4

DDF_HELP = (
    "How a pair of documents with grades r_i > r_j is labelled. BINARY: +1 (RankBoost-like, eq. 2). "
    "LDD: α (r_i − r_j) (eq. 6). LOGDD: log(1 + λ |r_i − r_j|) (eq. 7). "
    "LOGITDD: 1 / (1 + exp(−β |r_i − r_j|)) (eq. 8)."
)


@dataclass(frozen=True)
class BoostSettings:
    """What the page grows: labelling, its parameter, rounds, shrinkage; how NDCG is shown."""

    ddf: str
    parameter: float | None
    n_rounds: int
    shrinkage: float
    k: int
    form: str

    def estimator(self) -> MPBoost:
        """An unfitted :class:`rankviz.MPBoost` with these settings."""
        return MPBoost(ddf=self.ddf, parameter=self.parameter, n_rounds=self.n_rounds,
                       shrinkage=self.shrinkage)

    def describe(self) -> str:
        """One line such as ``MPBoost.LOGDD, λ = 1, 150 rounds``."""
        symbol = PARAMETER_SYMBOLS[self.ddf]
        parameter = "" if symbol is None else f", {symbol} = {self.parameter:g}"
        nu = "" if self.shrinkage == 1 else f", shrinkage ν = {self.shrinkage:g}"
        return f"MPBoost.{TITLES[self.ddf]}{parameter}, {counted(self.n_rounds, 'round')}{nu}"


def _parameter_key(ddf: str, key: str = KEY) -> str:
    return f"{key}_param_{ddf}"


def boost_settings(container: DeltaGenerator | None = None, key: str = KEY) -> BoostSettings:
    """Sidebar widgets: DDF and its parameter, rounds, shrinkage, NDCG cut-off and form.

    Defaults go into session state before the widgets are drawn, so values
    restored from a link (:func:`boost_url_fields`) win; every value (each
    labelling's own parameter too) is kept for the session, across the pages.
    """
    container = container or st.sidebar
    defaults = {"ddf": "logdd", "rounds": 150, "shrinkage": 1.0, "k": 5, "form": "common"}
    for name, value in defaults.items():
        st.session_state.setdefault(f"{key}_{name}", value)
    for ddf in DDF_NAMES[1:]:
        st.session_state.setdefault(_parameter_key(ddf, key), DEFAULT_PARAMETERS[ddf])
    container.subheader("MPBoost")
    ddf = container.selectbox("Directed distance (DDF)", DDF_NAMES, format_func=TITLES.__getitem__,
                              key=f"{key}_ddf", persist_state="session", help=DDF_HELP)
    parameter = None
    if ddf != "binary":
        parameter = container.number_input(
            f"{PARAMETER_SYMBOLS[ddf]} ({TITLES[ddf]} parameter)", min_value=0.01, max_value=20.0,
            step=0.05, format="%.2f", key=_parameter_key(ddf, key), persist_state="session",
            help="Pick it so that |dist| stays near 1 (condition 9). Defaults: α = 0.2 and β = 0.5 as in "
                 "Fig. 2 of Zhu et al.; λ = 1 rather than Fig. 2's 3, which breaks condition (9) on grades 0–4.")
    rounds = container.slider("Boosting rounds T", 10, 500, step=10, key=f"{key}_rounds",
                              persist_state="session", help="How many stumps the ensemble gets.")
    shrinkage = container.select_slider(
        "Shrinkage ν", SHRINKAGES, key=f"{key}_shrinkage", persist_state="session",
        help="Each stump's height is multiplied by ν. Zhu et al. use ν = 1; smaller steps help when "
             "distances are far above 1.")
    container.subheader("NDCG")
    k = container.slider("Cut-off k", 1, 10, key=f"{key}_k", persist_state="session",
                         help="NDCG@k counts the top k documents.")
    form = container.radio("Form", list(FORMS), format_func=FORMS.get, key=f"{key}_form",
                           persist_state="session",
                           help="The common form, or the form of Zhu et al., §5.2 (undiscounted at positions 1 and 2).")
    return BoostSettings(ddf, None if parameter is None else float(parameter), int(rounds),
                         float(shrinkage), int(k), form)


def boost_url_fields(key: str = KEY) -> list[UrlField]:
    """URL fields of :func:`boost_settings`."""
    fields = [
        UrlField("ddf", f"{key}_ddf", choice(DDF_NAMES)),
        UrlField("rounds", f"{key}_rounds", number(10, 500, integer=True)),
        UrlField("nu", f"{key}_shrinkage", choice(SHRINKAGES), show=lambda v: f"{v:g}"),
        UrlField("k", f"{key}_k", number(1, 10, integer=True)),
        UrlField("form", f"{key}_form", choice(FORMS)),
    ]
    fields += [UrlField(f"{ddf}_param", _parameter_key(ddf, key), number(0.01, 20.0, decimals=2),
                        show=lambda v: f"{v:g}") for ddf in DDF_NAMES[1:]]
    return fields


def condition_note(splits: dict[str, QueryDataset], settings: BoostSettings) -> None:
    """Condition (9) for the chosen labelling on the training grades, as a caption or a warning."""
    note = condition_9_note(splits["train"].relevance, settings.ddf, settings.parameter, settings.shrinkage)
    text = f"**Condition (9), |dist| ≈ 1:** {note}"
    if "overshoots" in note and settings.shrinkage >= 1.0:
        st.warning(text, icon=":material/warning:")
    else:
        st.caption(text)


# -- growing ------------------------------------------------------------------------

@dataclass
class Growth:
    """A fitted ensemble with its curves (what the player shows)."""

    model: MPBoost
    curves: GrowthCurves
    feature_names: list[str]
    seconds: float
    #: True when the user stopped the growth before its last round.
    stopped: bool = False
    #: The data and settings it was grown for (its key among the kept growths).
    signature: tuple | None = None


def _results(key: str) -> dict[Hashable, Growth]:
    return st.session_state.setdefault(f"{key}_growths", {})


def grow(splits: dict[str, QueryDataset], data_key: str, settings: BoostSettings, key: str = KEY) -> Growth:
    """The ensemble for these data and settings, grown live the first time.

    While it grows, the NDCG curves and the newest stumps are redrawn every
    few rounds, with a Stop button; afterwards it is kept in the session (the
    latest few). Stop keeps the rounds grown so far (``Growth.stopped``); any
    other interruption (a widget changed mid-growth) starts over next time.
    """
    signature = (data_key, settings.ddf, settings.parameter, settings.n_rounds, settings.shrinkage,
                 settings.form)
    results = _results(key)
    if signature in results:
        return results[signature]
    train = splits["train"]
    assert train.feature_names is not None  # filled in by QueryDataset
    model = settings.estimator()
    partial_key = f"{key}_partial"
    bar = StopBar(f"{key}_grow", text="Growing the ensemble…",
                  on_stop=lambda: _keep_partial(key, partial_key),
                  help="Stops growing and keeps the rounds grown so far.")
    chart_slot, drawing_slot = st.empty(), st.empty()
    stride = max(1, settings.n_rounds // 25)
    curves = None
    for curves in iter_growth(model, train, {SPLIT_TITLES[s]: splits[s] for s in ("train", "vali", "test")},
                              form=settings.form):
        rounds = model.n_rounds_
        if rounds % stride == 0 or rounds == settings.n_rounds:
            # Stored before the page is touched: Stop interrupts at the next Streamlit call.
            st.session_state[partial_key] = (signature, Growth(
                model.truncated(rounds), curves, list(train.feature_names), bar.elapsed, stopped=True,
                signature=signature))
            bar.update(rounds / settings.n_rounds, f"Round {rounds} of {settings.n_rounds}")
            chart_slot.plotly_chart(rounds_figure(curves.at_k(settings.k), settings.k, form=settings.form,
                                                  n_rounds=settings.n_rounds),
                                    key=f"{key}_live_chart_{rounds}")
            drawing_slot.graphviz_chart(stumps_to_dot(model, train.feature_names, last=6))
    bar.close()
    chart_slot.empty()
    drawing_slot.empty()
    st.session_state.pop(partial_key, None)
    if curves is None:
        raise ValueError("no stump could be fitted")
    growth = Growth(model, curves, list(train.feature_names), bar.elapsed, signature=signature)
    _store_growth(results, signature, growth)
    return growth


def _store_growth(results: dict[Hashable, Growth], signature: Hashable, growth: Growth) -> None:
    results.pop(signature, None)
    results[signature] = growth
    while len(results) > _RESULTS_KEPT:
        results.pop(next(iter(results)))


def _keep_partial(key: str, partial_key: str) -> None:
    """Stop's callback: the rounds grown so far become the result for these settings."""
    kept = st.session_state.pop(partial_key, None)
    if kept is not None:
        _store_growth(_results(key), *kept)


def _regrow(key: str, signature: Hashable) -> None:
    _results(key).pop(signature, None)


def growth_view(growth: Growth, settings: BoostSettings, key: str = KEY) -> None:
    """The grown ensemble at a chosen round: player, NDCG curves, Theorem 1, stump drawing, exports."""
    model = growth.model
    n = model.n_rounds_
    # The round on screen lives apart from the slider's own key: the
    # animation moves it, and the slider (drawn in the fragment) shows it.
    round_key, shown_key = f"{key}_round", f"{key}_at"
    playing_key, signature_key = f"{key}_playing", f"{key}_shown"
    state = st.session_state
    if state.get(signature_key) is not growth:
        state[signature_key] = growth
        state[shown_key] = n
        state[playing_key] = False
    state[shown_key] = min(max(1, state.get(shown_key, n)), n)
    stride = max(1, n // PLAY_TICKS)

    def toggle() -> None:
        if not state[playing_key] and state[shown_key] >= n:
            state[shown_key] = 1
        state[playing_key] = not state[playing_key]

    def slide() -> None:
        state[shown_key] = state[round_key]

    total = counted(settings.n_rounds, "round")
    stopped = "" if n == settings.n_rounds or growth.stopped else (
        f" It stopped after {n} of {total}: no stump could lower the loss further.")
    st.markdown(f"**{settings.describe()}** — grown in {growth.seconds:.1f} s on "
                f"{counted(model.n_pairs_, 'training pair')}.{stopped}")
    if growth.stopped:
        cols = st.columns([4, 1.4], vertical_alignment="center")
        cols[0].warning(f"Stopped after {n} of {total}: the ensemble below has "
                        f"{counted(n, 'stump')}.", icon=":material/pause_circle:")
        cols[1].button(f"Grow all {total}", key=f"{key}_regrow",
                       icon=":material/play_arrow:", on_click=_regrow,
                       args=(key, growth.signature), width="stretch")
    rising = int((model.normalizer_ > 1.0).sum())
    if rising:
        st.warning(f"In {rising} of {counted(n, 'round')} the exponential loss **rose** (Z_t > 1): the Newton step "
                   "assumes |dist| ≈ 1 (condition 9) and overshoots here. Lower the DDF parameter or the "
                   "shrinkage ν.", icon=":material/trending_down:")
    playing = state[playing_key]

    def controls() -> None:
        """Play/Pause and the round slider, drawn with the round in the timer's fragment: while playing they
        follow every tick."""
        now = state[playing_key]
        cols = st.columns([1.2, 5], vertical_alignment="bottom")
        cols[0].button("Pause" if now else "Play", on_click=toggle, key=f"{key}_play", type="primary",
                       icon=":material/pause:" if now else ":material/play_arrow:", width="stretch",
                       help="Replay the ensemble growing, round by round.")
        # While playing, a disabled slider of another key stands in: the timer's reruns carry the values the
        # browser holds, and one sent just as a play ends would otherwise "move" the real slider back to the
        # round the play started from.
        shown_at = round_key if not now else f"{round_key}_playing"
        state[shown_at] = state[shown_key]
        cols[1].slider("Show the ensemble after round", 1, n, key=shown_at, on_change=None if now else slide,
                       disabled=now)

    @st.fragment(run_every=PLAY_SECONDS if playing else None)
    def animated() -> None:
        if state[playing_key] != playing:
            st.rerun()  # played or paused from inside: the whole page, and the timer, follow
        if state[playing_key]:
            if state[shown_key] >= n:
                state[playing_key] = False
                st.rerun()
            state[shown_key] = min(n, state[shown_key] + stride)
        controls()
        _show_round(growth, settings, state[shown_key], key)

    animated()


@st.cache_data(show_spinner=False, max_entries=16)
def _layout(dot: str) -> TreeLayout:
    return layout_dot(dot)


def _show_round(growth: Growth, settings: BoostSettings, t: int, key: str) -> None:
    model, curves = growth.model, growth.curves
    at_k = curves.at_k(settings.k)
    best = int(np.nanargmax(at_k["validation"])) + 1 if np.isfinite(at_k["validation"]).any() else None
    # The drawing first: the stumps are on the first screen, the numbers and curves below them.
    cols = st.columns([2, 1], vertical_alignment="bottom")
    view = cols[0].radio("Drawing", list(VIEWS), format_func=VIEWS.get, horizontal=True, key=f"{key}_view",
                         persist_state="session")
    partial = model.truncated(t)
    if view == "stumps":
        # Bounded by the whole ensemble, not by the round shown: a play starts from round 2, and a bound of t
        # would cut the reader's choice down to 2 for good. Before round `last`, every stump is drawn.
        n = model.n_rounds_
        last = min(t, int(cols[1].number_input(
            "Stumps drawn", 1, n, min(6, n), key=f"{key}_last", persist_state="session",
            help="The newest stumps, up to every round grown so far.")))
        which = f"Stump {t}" if last == 1 else f"Stumps {t - last + 1}–{t}"
        dot = stumps_to_dot(partial, growth.feature_names, last=last,
                            title=f"{which} of {t} (newest outlined in red)")
    else:
        used = max(1, int(np.unique(model.feature_).size))  # by the whole ensemble, as the stumps above
        features = int(cols[1].number_input("Features drawn", 1, used, min(5, used), key=f"{key}_features",
                                            persist_state="session",
                                            help=f"The features of the largest total gain, up to all {used} "
                                                 "the stumps use."))
        dot = additive_model_to_dot(partial, growth.feature_names, max_features=features, max_steps=6,
                                    title=f"The score after {counted(t, 'round')}, feature by feature "
                                          "(newest stump's feature outlined)")
    tree_view(_layout(dot), key=f"{key}_drawing", layout_key=view,
              label="Zoom with the wheel or the buttons; drag to pan.")
    row = st.columns([4, 1], vertical_alignment="center")
    row[0].caption("Blue: the stump raises the score of documents above its threshold; orange: it lowers it. "
                   "Only differences of scores within a query matter, so a stump adds 0 below its threshold.")
    with row[1]:
        drawing_export(dot, key=f"{key}_export", basename=f"mpboost_{settings.ddf.lower()}_{view}_t{t}")
    metric_cols = st.columns(4)
    for col, split in zip(metric_cols, ("train", "validation", "test")):
        value = at_k[split][t - 1]
        col.metric(f"{split.capitalize()} NDCG@{settings.k}", f"{value:.3f}" if np.isfinite(value) else "—",
                   help=f"Mean over the {split} queries with a relevant document, after "
                        f"{counted(t, 'round')}." if np.isfinite(value) else
                        f"No {split} query has a relevant document, so NDCG is undefined on every one.")
    metric_cols[3].metric("Best validation round", "—" if best is None else f"{best}",
                   help="The round with the highest validation NDCG@k: Zhu et al. choose T this way.")
    shown = {split: values[:t] for split, values in at_k.items()}
    left, right = st.columns([3, 2])
    with left:
        fig = rounds_figure(shown, settings.k, form=settings.form, n_rounds=model.n_rounds_, best_round=best)
        st.plotly_chart(fig, key=f"{key}_rounds_chart")
    with right:
        st.plotly_chart(loss_bound_figure(curves.bound[:t], curves.misordering[:t], n_rounds=model.n_rounds_),
                        key=f"{key}_bound_chart")
    down = st.columns(2)
    down[0].download_button("Stumps (CSV)", safe_csv(model.stumps_frame(growth.feature_names)),
                            file_name="mpboost_stumps.csv", mime="text/csv", icon=":material/download:",
                            key=f"{key}_stumps_csv", on_click="ignore", width="stretch")
    down[1].download_button("Curves (CSV)", safe_csv(curves.frame()), file_name="mpboost_curves.csv",
                            mime="text/csv", icon=":material/download:", key=f"{key}_curves_csv",
                            on_click="ignore", width="stretch")


# -- comparing ----------------------------------------------------------------------

def _comparisons(key: str) -> dict[Hashable, RankerComparison]:
    return st.session_state.setdefault(f"{key}_comparisons", {})


def compare_panel(splits: dict[str, QueryDataset], data_key: str, settings: BoostSettings,
                  key: str = KEY) -> None:
    """The four labellings, tuned on validation, against the baselines on test (Figs. 3-5).

    The comparisons run are kept (by data and settings), and so are the
    panel's choices, for the session, across the pages.
    """
    st.markdown(
        "Each labelling's parameter and the number of rounds (up to T) are chosen on the validation "
        "queries by NDCG@5, as in Zhu et al. (2009), §5.3; then every method ranks the test queries. "
        "Baselines: ordering by the single best training feature, k-nearest-neighbour regression of "
        "the grade, and random order. Error bars are 95% confidence intervals (Student t) over test queries, as on the other pages.")
    tune = st.toggle("Tune on validation, as Zhu et al. do", value=True, key=f"{key}_tune", persist_state="session",
                     help="Off: the sidebar's T and the default parameters (α = 0.2, λ = 1, β = 0.5).")
    request = (data_key, settings.n_rounds, settings.shrinkage, settings.form, tune)
    comparisons = _comparisons(key)
    run = st.button("Run the comparison", key=f"{key}_compare", type="primary", icon=":material/play_arrow:",
                    disabled=request in comparisons)
    if run:
        def compare(progress: Callable[..., None]) -> RankerComparison:
            return compare_rankers(
                splits["train"], splits["vali"], splits["test"], n_rounds=settings.n_rounds,
                shrinkage=settings.shrinkage, tune=tune, form=settings.form, progress=progress)

        try:
            result = background(compare, key=f"{key}_compare_run", signature=("compare", request),
                                keep=False, restart=True, label="Comparing the labellings and baselines")
        except ValueError as error:
            st.error(f"The comparison could not be run on this data: {error}")
            return
        if result is not None:
            comparisons[request] = result
    elif take_stopped(f"{key}_compare_run"):
        st.warning("Stopped: the comparison was not finished; nothing is kept. Fewer rounds T are "
                   "quicker.", icon=":material/pause_circle:")
    if request not in comparisons:
        st.info(f"Press **Run the comparison**: {counted(len(DDF_NAMES), 'MPBoost fit')}"
                + (" per parameter value" if tune else "") + f" of up to {counted(settings.n_rounds, 'round')}, "
                f"and {counted(len(BASELINES), 'baseline')}.")
        return
    comparison = comparisons[request]
    summary = comparison.summary()
    st.plotly_chart(ndcg_by_k_figure(summary, form=settings.form), key=f"{key}_compare_chart")
    st.markdown("**Chosen on validation**" if tune else "**Settings used**")
    chosen = comparison.settings.drop(columns="method").rename(columns={
        "title": "method", "rounds": "rounds T", "vali_ndcg@5": "validation NDCG@5"})
    st.dataframe(chosen.style.format({"validation NDCG@5": "{:.3f}"}), hide_index=True)
    paired_table(comparison, settings.k, key)
    st.download_button("Per-query NDCG (CSV)", safe_csv(comparison.per_query.assign(
        method=comparison.per_query["method"].map(method_title))),
        file_name="mpboost_comparison.csv", mime="text/csv", icon=":material/download:",
        key=f"{key}_compare_csv", on_click="ignore")


def paired_table(comparison: RankerComparison, k: int, key: str = KEY) -> None:
    """Each method against a reference, per test query at NDCG@k: a paired test."""
    methods = comparison.methods
    reference = st.columns([2, 3])[0].selectbox("Compare each method with", methods, index=0,
                                                format_func=method_title, key=f"{key}_reference",
                                                persist_state="session")
    base = comparison.matrix(reference, k)
    rows = []
    for method in methods:
        if method == reference:
            continue
        other = comparison.matrix(method, k).reindex(base.index)
        result = paired_comparison(other.to_numpy(), base.to_numpy())
        rows.append({"method": method_title(method), f"mean NDCG@{k}": result.mean_a,
                     "difference": result.mean_difference,
                     "95% CI": f"{result.ci_low:+.3f} … {result.ci_high:+.3f}",
                     "Wilcoxon p": result.wilcoxon_pvalue,
                     "wins / ties / losses": f"{result.wins} / {result.ties} / {result.losses}"})
    if not len(base):
        st.info(f"No test query has a relevant document, so NDCG@{k} is undefined on every one and there "
                "is nothing to compare.")
        return
    queries = counted(len(base), "test query", "test queries")
    st.markdown(f"**Paired over {queries}, NDCG@{k}** (difference = method − {method_title(reference)})")
    st.dataframe(pd.DataFrame(rows).style.format({f"mean NDCG@{k}": "{:.3f}", "difference": "{:+.3f}",
                                                  "Wilcoxon p": "{:.3g}"}), hide_index=True)
