"""Label ranking trees on a page (Cheng, Hühn & Hüllermeier 2009): the Mallows tree, its leaves, §6's experiments.

For the "Mallows label ranking trees" page of Cheng, Hühn and Hüllermeier
(2009): sidebar controls for the missing-label rate and the tree, the tree
(LRT) grown with the ``mallows`` criterion and drawn with each leaf's centre
ranking, spread θ̂ and reliability, a table of its leaves, and three panels
reproducing §6: LRT against IBLR, CC and two baselines under k-fold
cross-validation (Table 2), Kendall tau against the rate of deleted labels
(Fig. 1), and the size of the LRT relative to a classification tree (Table 2).

The experiments run only when their button is pressed, one method (and rate)
at a time. Every finished piece is stored in ``st.session_state`` under the
settings that produced it before the progress bar moves on, so **Stop** (or
any other widget) keeps what is done, and coming back to earlier settings
shows their results again. A method that fails on the data (a message, never
a traceback) does not stop the others.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import streamlit as st
from numpy.typing import ArrayLike

from ..experiments.cross_validation import MEASURES, TIES_MEASURES, compare_methods, mean_intervals
from ..features import FeatureEncoder
from ..label_ranking.baselines import KNNRanker
from ..label_ranking.iblr import DEFAULT_K_GRID, IBLR
from ..label_ranking.incomplete import delete_labels
from ..experiments.label_ranking_study import (MEASURE_ORDER, label_ranking_methods,
                                                 missing_rate_curve, relative_tree_size)
from ..safe_csv import safe_csv
from ..tree.ranking_tree import RankingTree
from ..tree.structure import parent_array
from ..viz.figures.label_ranking import comparison_bars, missing_rate_figure
from .defaults import seed_defaults
from .evaluation_panel import knn_k_input, knn_name, paired_table
from .long_run import background, error_text, format_duration, run_jobs
from .text import counted
from .tree_panel import (GAMMA_RANGE, GAMMA_STEP, GROWTH_ORDERS, TreeSettings, describe_ties, fit_gamma_path,
                         limit_inputs, tie_input, tie_url_fields)
from .url_state import UrlField, choice, flag, number

if TYPE_CHECKING:
    from sklearn.base import BaseEstimator
    from streamlit.delta_generator import DeltaGenerator

    from ..datasets.label_ranking import RankingDataset
    from ..tree.structure import Tree

__all__ = [
    "KEY", "METHODS", "TrainingData", "Protocol", "missing_label_controls", "training_data",
    "lrt_settings", "lrt_url_fields", "fit_lrt", "describe_lrt", "leaf_table", "leaves_panel",
    "protocol_controls", "estimate_seconds", "compare_panel", "missing_rate_panel",
    "tree_size_panel",
    "tree_sizes", "LRT_EXPLANATION",
]

KEY = "lrt"
DEFAULT_MIN_LEAF = 10
RATE_MAX = 0.9
RATE_STEP = 0.05
#: The methods of Cheng et al. (§6) and this project's two baselines, in the order shown.
METHODS = ("LRT", "IBLR", "CC", "KNN", "Default")
METHOD_HELP = {
    "LRT": "label ranking tree (§5), this page's tree",
    "IBLR": "instance-based label ranking (§4): Mallows model of the k nearest neighbours",
    "CC": "constraint classification: a linear model per label trained by a perceptron",
    "KNN": "the mean-rank ranking of the k nearest training examples (k = 1: the nearest one's ranking)",
    "Default": "the mean-rank ranking of all training rankings, whatever the attributes",
}
MEASURE_HELP = ("Kendall tau: 1 − 2 × (share of discordant label pairs), the measure of Cheng et al. CS: "
                "Spearman's rank correlation. WRC: Spearman weighted towards the top of the "
                "ranking. LRA: log ranking accuracy (Soares 2004), weighting the top ranks "
                "strongly. All are 1 for the true ranking and −1 for its reverse.")
TIES_HELP = (" τx (Emond & Mason 2002), shown where the rankings tie labels: Kendall's tau with a tie as a "
             "relation of its own, so predicting the true ties scores 1; the measure of partial label ranking.")
LRT_CHOICES = {
    "drawn": "the tree drawn above",
    "unpruned": "Cheng et al.'s (≥ 2 rows per leaf, no γ)",
}
IBLR_K_OPTIONS: list[int | str] = ["auto", *DEFAULT_K_GRID]
RATE_OPTIONS = [round(0.1 * i, 1) for i in range(10)]
FIG1_DEFAULT_RATES = [0.0, 0.3, 0.6]
TABLE2_RATES = (0.0, 0.3, 0.6)
STOP_HELP = "Stops after the current fold; the finished methods (and rates) stay."
#: Above this estimate the panels warn before a run.
SLOW_SECONDS = 30.0
_RESULTS_KEPT = 8

#: Table 2 of Cheng et al. (Kendall tau of CC, IBLR, LRT and the LRT's relative tree
#: size at 0 %, 30 % and 60 % missing labels) for the two data sets that the
#: samples rebuild with the paper's own procedure (their copies: 270 and 314 rows).
PUBLISHED_TABLE2 = {
    "sample:iris_nb": ("iris", {0.0: (0.836, 0.966, 0.947, 1.5), 0.3: (0.807, 0.945, 0.909, 1.2),
                                0.6: (0.743, 0.882, 0.794, 1.5)}),
    "sample:wine_nb": ("wine", {0.0: (0.933, 0.949, 0.882, 0.8), 0.3: (0.911, 0.941, 0.862, 1.1),
                                0.6: (0.853, 0.789, 0.752, 0.8)}),
}

LRT_EXPLANATION = (
    "Every node fits a **Mallows model** $P(\\sigma) \\propto e^{-\\theta D(\\sigma, \\pi)}$ to "
    "its training rankings ($D$: Kendall distance, the number of discordant label pairs): the "
    "centre $\\hat\\pi$ (generalised Borda count refined by the approximate EM of §4.2, over "
    "the labels the node holds) and the spread $\\hat\\theta$, the larger the more the rankings "
    "agree with the centre ($\\hat\\theta = 0$: uniform, no agreement beyond chance). The split "
    "chosen minimises the size-weighted impurity $1/(1 + \\theta)$ (§5.1, \"a weighted "
    "average of the within-leaf variances\"), $(|T^+|/(1 + \\theta^+) + |T^-|/(1 + \\theta^-)) / |T|$, which "
    "lies between 0 (pure) and 1 (uniform); eq. (6) as printed maximises the weighted $\\theta$ instead, which "
    "peels near-pure rows off. A **pure** "
    "node, whose rankings agree on every pair of labels they share, has $\\hat\\theta = "
    "\\infty$ and is not split; nor is a node with fewer than $2|\\mathcal{Y}|$ label "
    "occurrences (§5.1). Each leaf shows its centre ranking (labels it lacks are filled in from "
    "its ancestors, §5.2), its rows $n$, $\\hat\\theta$ and its **reliability** rel $= "
    "\\hat\\theta \\times n / N$ (§6: $\\hat\\theta$ alone would favour the small pure leaves "
    "the split search makes), which its colour shows; pure leaves are the darkest.")


# -- sidebar: missing labels and the tree ------------------------------------------

@dataclass(frozen=True)
class TrainingData:
    """The rankings the drawn tree is grown on: the data set's, with labels deleted at rate p."""

    X: pd.DataFrame
    Y: np.ndarray
    label_names: tuple
    key: str
    rate: float
    seed: int
    #: Labels present before the deletion, and how many of them were deleted.
    present: int
    deleted: int
    #: Rankings left with fewer than two labels (they order no pair).
    short_rows: int

    def caption(self) -> str:
        if self.rate == 0:
            return "No labels deleted: the tree is grown on the complete rankings."
        share = self.deleted / self.present if self.present else 0.0
        text = (f"**{self.deleted:,} of {self.present:,} labels deleted** ({share:.1%}) at "
                f"p = {self.rate:g}, seed {self.seed}.")
        if self.short_rows:
            verbs = "keeps fewer than two labels and orders" if self.short_rows == 1 else \
                "keep fewer than two labels and order"
            text += f" {self.short_rows:,} of {counted(len(self.Y), 'ranking')} {verbs} no pair."
        return text


def missing_label_controls(container: DeltaGenerator | None = None, key: str = KEY) -> tuple[float, int]:
    """Sidebar slider of the missing-label rate p and the random seed of the deletion; returns (p, seed)."""
    container = container or st.sidebar
    st.session_state.setdefault(f"{key}_p", 0.0)
    st.session_state.setdefault(f"{key}_p_seed", 0)
    container.subheader("Missing labels")
    p = container.slider(
        "Missing-label rate p", 0.0, RATE_MAX, step=RATE_STEP, format="%.2f", key=f"{key}_p", persist_state="session",
        help="The protocol of Cheng et al. (§6.2): every label of every ranking is deleted with probability "
             "p and the rest re-ranked. Here it applies to the rankings the tree above is grown "
             "on; the comparisons delete labels from their training folds only.")
    seed = container.number_input("Deletion seed", 0, 1_000_000, key=f"{key}_p_seed", persist_state="session",
                                  help="The coin flips of the deletion: the same seed deletes the "
                                       "same labels, and a larger p deletes a superset of them.")
    return float(p), int(seed)


def training_data(dataset: RankingDataset, data_key: str, rate: float, seed: int) -> TrainingData:
    """The data set with labels deleted at ``rate`` (:func:`rankviz.label_ranking.incomplete.delete_labels`).

    Returns
    -------
    TrainingData
        Its ``key`` identifies data and deletion, for the cached trees.
    """
    Y = np.asarray(dataset.Y, dtype=float)
    present = int(np.count_nonzero(~np.isnan(Y)))
    if rate > 0:
        Y = delete_labels(Y, rate, seed=seed)
        key = f"{data_key}|missing={rate:g}|seed={seed}"
    else:
        key = data_key
    left = np.count_nonzero(~np.isnan(Y), axis=1)
    return TrainingData(dataset.X, Y, tuple(dataset.label_names), key, float(rate), int(seed),
                        present, present - int(left.sum()), int(np.count_nonzero(left < 2)))


def lrt_settings(container: DeltaGenerator | None = None, key: str = KEY,
                 suggested: Mapping[str, int] | None = None) -> TreeSettings:
    """Sidebar widgets of the label ranking tree: limits, an optional γ stop, growth order.

    The criterion is fixed to ``"mallows"``. Cheng et al. stop only at pure nodes
    and below ``2|Y|`` label occurrences, so γ (rule (6) of Rebelo et al.) is off
    until asked for; then it judges a node by the mean Kendall tau of its
    rankings to its centre.

    ``suggested`` holds the data set's starting limits, as for
    :func:`rankviz.ui.tree_panel.tree_settings`. Every value is kept for the
    session.

    Returns
    -------
    TreeSettings
        ``gamma`` is ``inf`` while the γ stop is off.
    """
    container = container or st.sidebar
    suggested = suggested or {}
    seed_defaults({f"{key}_min_leaf": suggested.get("min_samples_leaf", DEFAULT_MIN_LEAF),
                   f"{key}_max_depth": suggested.get("max_depth", 0)})
    defaults = {"use_gamma": False, "gamma": 0.995, "order": "depth"}
    for name, value in defaults.items():
        st.session_state.setdefault(f"{key}_{name}", value)
    container.subheader("Tree")
    min_leaf, depth = limit_inputs(
        container, key, "Cheng et al. have no such limit (its trees stop at pure nodes and below 2|Y| label "
                        "occurrences).", default_min_leaf=DEFAULT_MIN_LEAF)
    use_gamma = container.checkbox(
        "Stop early with γ", key=f"{key}_use_gamma", persist_state="session",
        help="Cheng et al. have no such rule. On: a node is split only if "
             "(1 + S_parent) < γ (1 + S_split), rule (6) of Rebelo et al. (2008), with S the mean Kendall tau "
             "of a set's rankings to its Mallows centre.")
    gamma = container.slider(
        "γ (stopping parameter)", min_value=GAMMA_RANGE[0], max_value=GAMMA_RANGE[1],
        step=GAMMA_STEP, format="%.3f", key=f"{key}_gamma", disabled=not use_gamma, persist_state="session",
        help="Lower γ stops earlier. Moving γ only re-cuts one maximal tree: no regrowth.")
    tie_tolerance = tie_input(container, key, "mean Borda positions")
    order = container.radio("Growth order", list(GROWTH_ORDERS), key=f"{key}_order", persist_state="session",
                            horizontal=True, format_func=GROWTH_ORDERS.get,
                            help="The order in which the player reveals the splits; level by level, Step and "
                                 "Play grow one whole depth level at a time.")
    return TreeSettings("mallows", float(gamma) if use_gamma else float("inf"), int(min_leaf),
                        int(depth) or None, order, tie_tolerance)


def lrt_url_fields(key: str = KEY) -> list[UrlField]:
    """The URL fields of :func:`missing_label_controls` and :func:`lrt_settings`."""
    return [
        UrlField("p", f"{key}_p", number(0.0, RATE_MAX, decimals=2), show=lambda p: f"{p:g}"),
        UrlField("p_seed", f"{key}_p_seed", number(0, 1_000_000, integer=True)),
        UrlField("min_leaf", f"{key}_min_leaf", number(1, 1000, integer=True)),
        UrlField("max_depth", f"{key}_max_depth", number(0, 100, integer=True)),
        UrlField("gamma_stop", f"{key}_use_gamma", flag, show=lambda on: "1" if on else None),
        UrlField("gamma", f"{key}_gamma", number(*GAMMA_RANGE, decimals=3),
                 show=lambda g: f"{g:.3f}"),
        *tie_url_fields(key),
        UrlField("order", f"{key}_order", choice(GROWTH_ORDERS)),
    ]


def describe_lrt(min_samples_leaf: int, max_depth: int | None, gamma: float,
                 tie_tolerance: float | None = None) -> str:
    depth = "no depth limit" if max_depth is None else f"depth ≤ {max_depth}"
    stop = "no γ stop" if np.isinf(gamma) else f"γ = {gamma:.3f}"
    return f"≥ {counted(min_samples_leaf, 'row')} per leaf, {depth}, {stop}{describe_ties(tie_tolerance)}"


def fit_lrt(training: TrainingData, settings: TreeSettings) -> Tree:
    """The tree for ``settings`` on ``training``, cut from the cached maximal tree."""
    data = SimpleNamespace(X=training.X, Y=training.Y, label_names=training.label_names)
    return fit_gamma_path(data, training.key, *settings.growth).tree_at(settings.gamma)


# -- the leaves ----------------------------------------------------------------------

def _rule(tree, parent, node):
    tests = []
    while parent[node] >= 0:
        up = parent[node]
        tests.append(tree.test_text(up, negate=tree.children_right[up] == node))
        node = up
    return " and ".join(reversed(tests)) or "(all rows)"


def leaf_table(tree: Tree, training: TrainingData | None = None) -> pd.DataFrame:
    """One row per leaf: id, rows, share, centre ranking, θ̂, reliability, mean tau, rule.

    With ``training`` (the rows the tree was grown on) and missing labels, also
    how many labels the leaf's rows hold (the rest of its ranking comes from
    its ancestors).
    """
    theta, reliability = tree.theta, tree.reliability
    assert theta is not None and reliability is not None  # a tree of the mallows criterion
    leaves = np.flatnonzero(tree.is_leaf)
    parent = parent_array(tree.children_left, tree.children_right)
    n = tree.n_samples[leaves]
    table = pd.DataFrame({
        "leaf": [f"#{tree.node_ids[i]}" for i in leaves],
        "n": n.astype(int),
        "share": n / tree.n_samples[0],
        "centre ranking": [tree.ranking_text(int(i)) for i in leaves],
        "θ̂": theta[leaves],
        "reliability": reliability[leaves],
        "mean τ to centre": tree.similarity[leaves],
        "rule": [_rule(tree, parent, i) for i in leaves],
    })
    if training is not None and np.isnan(training.Y).any():
        encoded = FeatureEncoder().fit(training.X).transform(training.X)
        leaf_of_row = tree.apply(encoded)
        held = [int(np.count_nonzero((~np.isnan(training.Y[leaf_of_row == i])).any(axis=0)))
                for i in leaves]
        table.insert(4, "labels observed", held)
    return table


def _fmt_spread(value):
    return "∞" if np.isposinf(value) else f"{value:.3f}"


def leaves_panel(tree: Tree, training: TrainingData | None, key: str = f"{KEY}_leaves") -> None:
    """The leaf table, sorted by reliability, with a CSV download."""
    table = leaf_table(tree, training).sort_values("reliability", ascending=False, kind="stable")
    pure = int(np.isinf(table["θ̂"]).sum())
    st.caption(f"{counted(len(table), 'leaf', 'leaves')}, most reliable first; {pure} pure (θ̂ = ∞). *share* = n / N "
               f"(N = {int(tree.n_samples[0]):,} rows); *mean τ to centre* is the mean Kendall tau "
               "of the leaf's rankings to its centre (the similarity γ judges)."
               + (" *labels observed*: labels present in the leaf's rows; the others are "
                  "ranked by the leaf's ancestors (§5.2)." if "labels observed" in table else ""))
    # A Styler shows ∞ for pure leaves while the columns stay numbers (sorting, CSV).
    shown = table.style.format({"share": "{:.3f}", "θ̂": _fmt_spread, "reliability": _fmt_spread,
                                "mean τ to centre": "{:.3f}"})
    st.dataframe(
        shown, hide_index=True, key=f"{key}_table",
        column_config={
            "θ̂": st.column_config.Column(help="Mallows spread of the leaf's rankings; ∞ = pure"),
            "reliability": st.column_config.Column(help="θ̂ × share (Cheng et al., §6)"),
            "rule": st.column_config.Column(width="large"),
        })
    st.download_button("Download the leaves (CSV)", safe_csv(table).encode(),
                       file_name="label_ranking_tree_leaves.csv", mime="text/csv",
                       key=f"{key}_csv", on_click="ignore", icon=":material/download:")


# -- comparisons: protocol, estimate, figures ----------------------------------------

@dataclass(frozen=True)
class Protocol:
    """What a comparison runs: methods, IBLR's k, folds, repetitions, seed and the LRT."""

    methods: tuple
    iblr_k: int | str  # "auto" or int
    folds: int
    repetitions: int
    seed: int
    #: The LRT's (min_samples_leaf, max_depth, gamma, tie_tolerance); the tie
    #: tolerance applies to IBLR and the baselines too.
    lrt: tuple
    #: KNN's k: an int or "auto".
    knn_k: int | str = 1

    def name(self, method: str) -> str:
        """The name shown for a method of :data:`METHODS`: KNN with its k, e.g. "KNN (k=1)"."""
        return knn_name(self.knn_k) if method == "KNN" else method

    def names(self) -> tuple[str, ...]:
        """The chosen methods' shown names, in :data:`METHODS` order."""
        return tuple(self.name(m) for m in METHODS if m in self.methods)

    def estimators(self) -> dict[str, BaseEstimator]:
        """The chosen methods, configured, in :data:`METHODS` order, by shown name."""
        min_leaf, depth, gamma, ties = self.lrt
        every = label_ranking_methods(
            lrt=RankingTree(criterion="mallows", gamma=gamma, min_samples_leaf=min_leaf,
                            max_depth=depth, tie_tolerance=ties),
            iblr=IBLR(n_neighbors=self.iblr_k, tie_tolerance=ties), tie_tolerance=ties)
        every["KNN"] = KNNRanker(n_neighbors=self.knn_k, tie_tolerance=ties)
        return {self.name(name): every[name] for name in METHODS if name in self.methods}

    def describe(self) -> str:
        repeated = (f"{self.repetitions} × {self.folds}-fold" if self.repetitions > 1
                    else f"{self.folds}-fold")
        k = "k by inner 5-fold CV" if self.iblr_k == "auto" else f"k = {self.iblr_k}"
        knn = "k by inner 5-fold CV" if self.knn_k == "auto" else f"k = {self.knn_k}"
        return (f"{repeated} cross-validation (seed {self.seed}); LRT: {describe_lrt(*self.lrt)}; "
                f"IBLR: {k}; KNN: {knn}")


def _lrt_parameters(choice_, settings):
    if choice_ == "unpruned":
        return (2, None, float("inf"), settings.tie_tolerance)
    return (settings.min_samples_leaf, settings.max_depth, settings.gamma, settings.tie_tolerance)


def protocol_controls(n_samples: int, settings: TreeSettings, key: str) -> Protocol:
    """Widgets of a comparison's protocol; returns a :class:`Protocol`."""
    cols = st.columns([3, 2])
    methods = cols[0].multiselect(
        "Methods", list(METHODS), default=list(METHODS), key=f"{key}_methods", persist_state="session", wrap=True,
        help=" · ".join(f"{name}: {text}" for name, text in METHOD_HELP.items()))
    lrt = cols[1].radio("LRT", list(LRT_CHOICES), format_func=LRT_CHOICES.get, key=f"{key}_lrt",
                        persist_state="session",
                        help="The tree of the comparison: the one drawn above (the sidebar's "
                             "settings), or the LRT of Cheng et al., which has no depth limit or γ and "
                             "stops only at pure nodes and below 2|Y| label occurrences "
                             "(bigger, slower).")
    cols = st.columns([2, 1.4, 1, 1.3, 1])
    iblr_k = cols[0].selectbox(
        "IBLR neighbours k", IBLR_K_OPTIONS, key=f"{key}_iblr_k", persist_state="session",
        format_func=lambda k: "auto: inner 5-fold CV, as Cheng et al." if k == "auto" else str(k),
        help=f"auto picks k from {', '.join(map(str, DEFAULT_K_GRID))} by cross-validation on "
             "each training fold (§6): about 50 inner fits per fold. A fixed k is quicker.")
    knn_k = knn_k_input(cols[1], key)
    high = max(2, min(n_samples, 20))
    folds = cols[2].number_input("Folds", 2, high, min(10, high), key=f"{key}_folds", persist_state="session",
                                 help="k of the k-fold cross-validation (Cheng et al.: 10).")
    # A short label: the column is 130 px at 1440x900 (the longer one was cut to "5 repetitions, as in C…").
    repeated = cols[3].checkbox("5 repetitions", key=f"{key}_repeat", persist_state="session",
                                help="Repeat the cross-validation with 5 different shuffles, as Cheng et al. "
                                     "(2009) do; the whiskers are then 95% intervals over the 5 repetitions' means.")
    seed = cols[4].number_input("Seed", 0, 1_000_000, 0, key=f"{key}_seed", persist_state="session",
                                help="Shuffle of the folds (repetition r uses seed + r) and the "
                                     "coin flips deleting training labels.")
    return Protocol(tuple(methods), iblr_k, int(folds), 5 if repeated else 1, int(seed),
                    _lrt_parameters(lrt, settings), knn_k)


def estimate_seconds(n: int, d: int, L: int, protocol: Protocol, *, rates: Sequence[float] = (0.0,),
                     methods: Sequence[str] | None = None) -> float:
    """Rough wall time of a comparison, from timings of this code (within a factor of 2 or 3).

    Per fit on ``n`` rows of ``d`` attributes and ``L`` labels: the LRT about
    5e-8 n d L s; IBLR with k chosen by inner CV about 2e-6 n L² s, five times
    less with a fixed k, and four times more with missing labels (its EM
    completes rankings); CC about 3e-5 n L s; KNN 1e-8 n² s, six times more
    with k chosen by inner CV. The LRT's and IBLR's were measured on seven
    files of 160-9,900 rows (2026-11-27: 2.4e-8-1.9e-7 and 0.6e-6-2.7e-6
    beyond the fixed costs); the LRT's was 4e-7 n d L² before the compiled
    growth, 3-4 times too much on yeast-partial. ``methods`` (default: the protocol's; names of
    :data:`METHODS` or shown names such as "KNN (k=3)") narrows the estimate
    to some methods.
    """
    n_train = n * (protocol.folds - 1) / protocol.folds
    per_fold = {
        "LRT": 0.002 + 5e-8 * n_train * max(d, 1) * L,
        "IBLR": 0.02 + (2e-6 if protocol.iblr_k == "auto" else 4e-7) * n_train * L * L,
        "CC": 0.01 + 3e-5 * n_train * L,
        "KNN": (0.005 + 1e-8 * n * n_train) * (6.0 if protocol.knn_k == "auto" else 1.0),
        "Default": 0.002,
    }
    total = 0.0
    for rate in rates:
        for name in protocol.methods if methods is None else methods:
            name = "KNN" if name.startswith("KNN") else name
            cost = per_fold.get(name, 0.01) * (4.0 if name == "IBLR" and rate > 0 else 1.0)
            total += cost * protocol.folds * protocol.repetitions
    return total


# -- running: stored pieces, progress, Stop ------------------------------------------

def _results(key):
    return st.session_state.setdefault(f"{key}_results", {})


def _store(key, request, result):
    results = _results(key)
    results.pop(request, None)
    results[request] = result  # the newest last
    while len(results) > _RESULTS_KEPT:
        results.pop(next(iter(results)))
    st.session_state[f"{key}_latest"] = request


def _shown_result(key, request):
    """The result of ``request`` if one is stored, else the latest (flagged as stale)."""
    results = _results(key)
    if request in results:
        return results[request], False
    latest = st.session_state.get(f"{key}_latest")
    if latest in results:
        return results[latest], True
    return None, False


def _finished(key, request):
    """The stored result of exactly this request (not an older one shown in its place), or None."""
    result, stale = _shown_result(key, request)
    return None if stale else result


def _job_seconds(dataset, protocol, method, rate):
    return estimate_seconds(dataset.n_samples, len(dataset.feature_names), dataset.n_labels,
                            protocol, rates=(rate,), methods=(method,))


def _estimate_note(place, seconds, what, done=None):
    """Write into ``place`` (an ``st.empty``) what a run holds and its estimated time; once this very run is
    done (``done``, its result), only what it holds: the result's caption says what it took. The page calls
    it again when a run it started ends, so the note above the button no longer promises a time."""
    with place.container():
        if done is not None and done["complete"]:
            st.caption(what)
            return
        st.caption(f"{what} Estimated time: about {format_duration(seconds)} (rough).")
        if seconds > SLOW_SECONDS:
            st.warning(f"This run will take roughly {format_duration(seconds)}. IBLR with k chosen "
                       "automatically takes most of it; a fixed k, fewer folds or no repetitions are "
                       "quicker, and **Stop** keeps what is finished.", icon=":material/hourglass_top:")


def _report_problems(result, what):
    for method, message in result["errors"].items():
        hint = (" A fixed k (no inner cross-validation) may work."
                if method == "IBLR" and result["protocol"].iblr_k == "auto" else "")
        st.error(f"**{method}** could not be evaluated on this data: {message.rstrip('.')}.{hint}",
                 icon=":material/error:")
    if not result["complete"]:
        st.warning(f"Stopped: the results below are partial ({what}).",
                   icon=":material/pause_circle:")


def _published_reference(data_key, rates):
    """The Table 2 values of Cheng et al. for this sample, as one sentence (empty if none)."""
    if data_key not in PUBLISHED_TABLE2:
        return ""
    name, table = PUBLISHED_TABLE2[data_key]
    parts = []
    for rate in rates:
        if rate in table:
            cc, iblr, lrt, _ = table[rate]
            parts.append(f"p = {rate:g}: CC {cc:.3f}, IBLR {iblr:.3f}, LRT {lrt:.3f}")
    if not parts:
        return ""
    return (f"Cheng et al., Table 2, *{name}* (their copy of the data, 5 × 10-fold CV, Kendall tau): "
            + "; ".join(parts) + ".")


# -- the panels --------------------------------------------------------------------

def compare_panel(dataset: RankingDataset, data_key: str, settings: TreeSettings, missing_rate: float,
                  key: str = f"{KEY}_cmp") -> pd.DataFrame | None:
    """LRT, IBLR, CC, KNN and the default ranking under k-fold cross-validation (Table 2).

    Labels are deleted from the training folds at the sidebar's rate; the
    held-out rankings stay complete. Returns the per-example scores shown, or None.
    """
    st.markdown("All methods are trained and tested on the same folds; training rankings lose "
                f"each label with probability **p = {missing_rate:g}** (the sidebar's rate), the "
                "held-out rankings stay complete.")
    protocol = protocol_controls(dataset.n_samples, settings, key)
    request = ("compare", data_key, protocol, float(missing_rate))
    note, seconds = st.empty(), estimate_seconds(dataset.n_samples, len(dataset.feature_names), dataset.n_labels,
                                                 protocol, rates=(missing_rate,))
    what = f"{counted(len(protocol.methods), 'method')} × {counted(protocol.folds * protocol.repetitions, 'fit')}."
    if protocol.methods:
        _estimate_note(note, seconds, what, _finished(key, request))
    if st.button("Run comparison", type="primary", key=f"{key}_run", icon=":material/play_arrow:",
                 disabled=not protocol.methods):
        result: dict[str, Any] = {"scores": [], "errors": {}, "complete": False, "seconds": 0.0,
                  "protocol": protocol, "missing_rate": float(missing_rate), "data_key": data_key}
        _store(key, request, result)
        jobs = []
        for name, method in protocol.estimators().items():
            def run(progress: Callable[[int, int], None], name: str = name,
                    method: BaseEstimator = method) -> None:
                scores = compare_methods({name: method}, dataset.X, dataset.Y, cv=protocol.folds,
                                        seed=protocol.seed, progress=progress,
                                        repetitions=protocol.repetitions,
                                        missing_rate=float(missing_rate))
                result["scores"].append(scores)
            jobs.append((name, name, _job_seconds(dataset, protocol, name, missing_rate), run))
        run_jobs(jobs, result, key, help=STOP_HELP)
        _estimate_note(note, seconds, what, result)

    result, stale = _shown_result(key, request)
    if result is None:
        if protocol.methods:
            st.info("Press **Run comparison** to score the methods on held-out rankings.")
        else:
            st.info("Choose at least one method.")
        return None
    if stale:
        st.warning("The results below are for earlier settings; press **Run comparison** to "
                   "update them.")
    done = [s["method"].iloc[0] for s in result["scores"] if len(s)]
    missing = [m for m in result["protocol"].names() if m not in done and m not in result["errors"]]
    _report_problems(result, f"{', '.join(missing)} not run" if missing else "all methods done")
    if not result["scores"]:
        return None
    scores = pd.concat(result["scores"], ignore_index=True)
    repetitions = result["protocol"].repetitions
    over = "repetition" if repetitions > 1 else "example"
    ties = [m for m in TIES_MEASURES if m in scores.columns]  # τx, where the rankings tie labels
    measures = [*MEASURE_ORDER, *ties]
    summary = mean_intervals(scores, measures, over=over)
    error = (f"95% CI over the {repetitions} repetitions' means" if repetitions > 1
             else "95% CI of the mean over held-out rankings")
    st.caption(f"{result['protocol'].describe()}; p = {result['missing_rate']:g}. "
               f"{scores['example'].nunique():,} held-out rankings per method, "
               f"{result['seconds']:.1f} s.")
    st.plotly_chart(comparison_bars(summary, f"Mean score per method (whiskers: {error}, Student t)", measures),
                    key=f"{key}_bars")
    st.caption(MEASURE_HELP + (TIES_HELP if ties else ""))
    reference = _published_reference(result["data_key"], [result["missing_rate"]])
    if reference:
        st.caption(reference)
    shown = summary.drop(columns="n")
    shown.columns = [f"{c} mean" if c in measures else c.replace(" ci", " 95% CI ±") for c in shown.columns]
    order = [c for m in measures for c in (f"{m} mean", f"{m} 95% CI ±")]
    st.dataframe(shown[order].style.format("{:.3f}"), key=f"{key}_table")
    methods = list(dict.fromkeys(scores["method"]))
    paired_table(scores, ["LRT", *[m for m in methods if m != "LRT"]] if "LRT" in methods else methods,
                 key=key, measures=[*MEASURES, *ties])  # CS first, as on the other pages
    cols = st.columns(2)
    cols[0].download_button("Download per-example scores (CSV)", safe_csv(scores).encode(),
                            file_name="label_ranking_comparison.csv", mime="text/csv",
                            key=f"{key}_csv", on_click="ignore", icon=":material/download:")
    cols[1].download_button("Download the summary (CSV)", safe_csv(summary, index=True).encode(),
                            file_name="label_ranking_comparison_summary.csv", mime="text/csv",
                            key=f"{key}_summary_csv", on_click="ignore", icon=":material/download:")
    return scores


def missing_rate_panel(dataset: RankingDataset, data_key: str, settings: TreeSettings,
                       key: str = f"{KEY}_fig1") -> pd.DataFrame | None:
    """Kendall tau (or another measure) against the rate of deleted training labels (Fig. 1).

    Returns the curve shown (one row per rate and method), or None.
    """
    st.markdown("Cheng et al., Fig. 1: the methods' scores as more and more labels are deleted from "
                "the training rankings. Every rate uses the same folds, so the curves differ "
                "only by the deletions. Cheng et al. found CC's curves flat and those of the local "
                "methods, IBLR and LRT, steeper.")
    rates = sorted(st.multiselect(
        "Missing-label rates p", RATE_OPTIONS, FIG1_DEFAULT_RATES, key=f"{key}_rates", persist_state="session",
        help="Table 2 of Cheng et al. uses 0, 0.3 and 0.6; its Fig. 1 runs from 0 to 0.7 in steps "
             "of 0.1. Each rate is a full cross-validation."))
    protocol = protocol_controls(dataset.n_samples, settings, key)
    request = ("curve", data_key, protocol, tuple(rates))
    ready = bool(protocol.methods and rates)
    note = st.empty()
    seconds = estimate_seconds(dataset.n_samples, len(dataset.feature_names), dataset.n_labels, protocol,
                               rates=rates) if rates else 0.0
    what = (f"{counted(len(rates), 'rate')} × {counted(len(protocol.methods), 'method')} × "
            f"{counted(protocol.folds * protocol.repetitions, 'fit')}.")
    if ready:
        _estimate_note(note, seconds, what, _finished(key, request))
    if st.button("Run curve", type="primary", key=f"{key}_run", icon=":material/play_arrow:",
                 disabled=not ready):
        result: dict[str, Any] = {"rows": [], "errors": {}, "complete": False, "seconds": 0.0,
                  "protocol": protocol, "rates": tuple(rates), "data_key": data_key}
        _store(key, request, result)
        estimators = protocol.estimators()
        jobs = []
        # Rate by rate: a stopped run still has whole curves up to some rate.
        for rate in rates:
            for name, method in estimators.items():
                def run(progress: Callable[[int, int], None], name: str = name,
                        method: BaseEstimator = method, rate: float = rate) -> None:
                    curve = missing_rate_curve({name: method}, dataset.X, dataset.Y, [rate],
                                               cv=protocol.folds, repetitions=protocol.repetitions,
                                               seed=protocol.seed, progress=progress)
                    result["rows"].extend(curve.to_dict("records"))
                jobs.append((name, f"p = {rate:g} · {name}", _job_seconds(dataset, protocol, name, rate),
                             run))
        run_jobs(jobs, result, key, help=STOP_HELP)
        _estimate_note(note, seconds, what, result)

    result, stale = _shown_result(key, request)
    if result is None:
        if ready:
            st.info("Press **Run curve** to score the methods at each rate.")
        else:
            st.info("Choose at least one rate and one method.")
        return None
    if stale:
        st.warning("The results below are for earlier settings; press **Run curve** to update them.")
    _report_problems(result, _curve_done(result))
    if not result["rows"]:
        return None
    curve = pd.DataFrame(result["rows"])
    repetitions = result["protocol"].repetitions
    measure = st.selectbox("Measure", list(MEASURE_ORDER), key=f"{key}_measure", persist_state="session",
                           help=MEASURE_HELP)
    st.plotly_chart(missing_rate_figure(curve, measure, repetitions), key=f"{key}_chart")
    knn = (" KNN (k=1) copies the nearest training ranking as it is, its deleted labels last: "
           "it suffers most from missing labels." if knn_name(1) in set(curve["method"]) else "")
    st.caption(f"{result['protocol'].describe()}; {result['seconds']:.1f} s.{knn} "
               + _published_reference(result["data_key"], result["rates"]))
    table = curve.pivot(index="missing_rate", columns="method", values=measure)
    table = table[[m for m in result["protocol"].names() if m in table.columns]]
    table.index = [f"p = {p:g}" for p in table.index]
    st.dataframe(table.style.format("{:.3f}"), key=f"{key}_table")
    st.download_button("Download the curve (CSV)", safe_csv(curve).encode(),
                       file_name="missing_label_curve.csv", mime="text/csv", key=f"{key}_csv",
                       on_click="ignore", icon=":material/download:")
    return curve


def _curve_done(result):
    """Which rates a stopped curve has, as a phrase: 'done: p = 0; at p = 0.3 only LRT'."""
    expected = [m for m in result["protocol"].names() if m not in result["errors"]]
    done = {}
    for row in result["rows"]:
        done.setdefault(row["missing_rate"], []).append(row["method"])
    full = [rate for rate in result["rates"] if set(done.get(rate, ())) >= set(expected)]
    parts = [f"done: p = {', '.join(f'{r:g}' for r in full)}" if full else "no rate done"]
    parts += [f"at p = {rate:g} only {', '.join(methods)}" for rate, methods in done.items()
              if rate not in full]
    return "; ".join(parts)


def tree_sizes(X: pd.DataFrame, Y: ArrayLike, data_key: str, lrt: tuple[int, int | None, float, float | None],
               rates: Sequence[float], seed: int, key: str = f"{KEY}_size") -> pd.DataFrame | None:
    """:func:`relative_tree_size` at each rate, one row each, or None if the user stopped it.

    Grown in a worker thread with progress and Stop past a moment
    (:func:`rankviz.ui.long_run.background`); kept by data key and settings.
    """
    min_leaf, depth, gamma, _ = lrt  # the size of a tree does not depend on its leaves' ties
    signature = ("tree_sizes", data_key, lrt[:3], tuple(rates), seed)

    def grow(progress: Callable[..., None]) -> pd.DataFrame:
        model = RankingTree(criterion="mallows", gamma=gamma, min_samples_leaf=min_leaf,
                            max_depth=depth)
        rows = []
        for done, rate in enumerate(rates):
            progress(done / len(rates), f"p = {rate:g}")
            size = relative_tree_size(X, Y, model, missing_rate=rate, seed=seed)
            rows.append({"p": rate, "LRT leaves": size["lrt_leaves"],
                         "classification-tree leaves": size["classification_leaves"],
                         "ratio": float(size["ratio"])})
        return pd.DataFrame(rows)

    return background(grow, key=f"{key}_grow", signature=signature,
                      label="Growing the trees for the size table",
                      stopped_text="A larger minimum of rows per leaf (the drawn tree) is quicker.")


def tree_size_panel(dataset: RankingDataset, data_key: str, settings: TreeSettings, training: TrainingData,
                    key: str = f"{KEY}_size") -> pd.DataFrame | None:
    """The LRT's leaves over a classification tree's on the top label (Table 2's size column).

    Returns the table shown, or None.
    """
    st.markdown("Cheng et al., Table 2 (number to the right of LRT's tau): the label ranking tree's "
                "leaves divided by the leaves of a classification tree grown on the same rows "
                "with only each ranking's **top label** as the class. Cheng et al. found no dramatic "
                "difference: ratios between 0.2 and 6.2, often near 1.")
    choice_ = st.radio("LRT", list(LRT_CHOICES), format_func=LRT_CHOICES.get, key=f"{key}_lrt",
                       index=1, horizontal=True, persist_state="session",
                       help="The LRT of Cheng et al. has at least 2 rows per leaf, like the classification "
                            "tree here: the fair comparison. The drawn tree's limits make it smaller.")
    lrt = _lrt_parameters(choice_, settings)
    rates = tuple(sorted({*TABLE2_RATES, training.rate}))
    try:
        table = tree_sizes(dataset.X, dataset.Y, data_key, lrt, rates, training.seed, key=key)
    except Exception as error:  # noqa: BLE001 — a message, never a traceback
        st.error(f"The trees could not be grown: {error_text(error)}")
        return None
    if table is None:  # stopped: background() said so
        return None
    shown = table.copy()
    if data_key in PUBLISHED_TABLE2:
        name, reference = PUBLISHED_TABLE2[data_key]
        shown[f"Cheng et al. ({name}, J48)"] = [reference[p][3] if p in reference else np.nan
                                            for p in shown["p"]]
    shown["p"] = [f"{p:g}" + (" (sidebar)" if p == training.rate and p not in TABLE2_RATES else "")
                  for p in shown["p"]]
    st.dataframe(shown, hide_index=True, key=f"{key}_table", column_config={
        "classification-tree leaves": st.column_config.NumberColumn(
            help="Leaves of the classification tree on each ranking's true top label"),
        "ratio": st.column_config.NumberColumn(format="%.2f", help="LRT leaves / classification-tree leaves"),
    })
    st.caption(
        f"LRT: {describe_lrt(*lrt[:3])}; labels deleted from all rows with the sidebar's deletion seed "
        f"({training.seed}), so the row p = {training.rate:g} is grown on the rankings of the tree "
        "above. Classification tree: scikit-learn's DecisionTreeClassifier (entropy, ≥ 2 rows per "
        "leaf, unpruned) on each ranking's true top label, the same tree at every p: a fixed "
        "reference size (on the top *remaining* label the class gets noisy and an unpruned tree "
        "balloons). Cheng et al. used WEKA's J48, which also **prunes**: its trees are smaller, so their ratios are larger "
        "than these.")
    st.download_button("Download the table (CSV)", safe_csv(table).encode(),
                       file_name="relative_tree_size.csv", mime="text/csv", key=f"{key}_csv",
                       on_click="ignore", icon=":material/download:")
    return table
