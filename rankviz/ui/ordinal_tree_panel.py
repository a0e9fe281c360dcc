"""Ordinal trees on a page: data controls, shared tree settings, and two trees fitted and drawn.

For the "Ranking impurity vs Gini" page (Xia, Zhang & Wang 2006): the synthetic generator of
§IV-A (with its thresholds checked), a hold-out split of an ordinal data set,
the tree settings both criteria share, and the two trees side by side with
the test rank loss of each and of the KNN and default baselines.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import streamlit as st

from ..ordinal.baselines import OrdinalDefault, OrdinalKNN
from ..features import FeatureEncoder
from ..experiments.monte_carlo import TREE_METHODS, HoldoutSource, SyntheticSource
from ..ordinal.levels import PREDICTION_RULES
from ..tree.ordinal_tree import OrdinalTree
from ..viz.graphviz import export_basename
from ..ordinal.synthetic import DEFAULT_THRESHOLDS, PRINTED_THRESHOLDS
from .evaluation_panel import paired_table
from .long_run import background, short_hash
from .tree_panel import TreeSettings, explore_tree, fit_tree
from .text import counted, md_escape
from .url_state import UrlField, choice, number

if TYPE_CHECKING:
    import plotly.graph_objects as go
    from streamlit.delta_generator import DeltaGenerator

    from ..datasets.label_ranking import RankingDataset
    from ..datasets.ordinal import OrdinalDataset
    from ..tree.structure import Tree

__all__ = [
    "DATA_KINDS", "OrdinalSettings", "impossible_ranks", "synthetic_controls", "holdout_controls",
    "draw_split", "ordinal_tree_settings", "ordinal_url_fields",
    "synthetic_url_fields", "holdout_url_fields", "fit_ordinal_trees", "ordinal_tree_pair",
    "ranking_tree_pair", "draw_pair", "tree_legend",
    "encoded_features",
]

DATA_KINDS = {
    "synthetic": "Synthetic (Xia et al., §IV-A)",
    "ordinal": "Ordinal CSV (sample or upload)",
    "ranking": "Label-ranking data set",
}
#: Criteria compared, in the order drawn (left, right).
CRITERIA_SHOWN = tuple(TREE_METHODS)
GAMMA_RANGE = (0.90, 1.05)
_THRESHOLD_KEYS = ("b2", "b3", "b4", "b5")
_SIZE_RANGE = (10, 200_000)


# -- synthetic data -----------------------------------------------------------

def impossible_ranks(thresholds: Sequence[float]) -> list[tuple[int, int]]:
    """Ranks ``r`` that ``max{r : v > b_r}`` can never give: those with ``b_r >= min(b_s, s > r)``.

    Rank ``r`` needs ``b_r < v <= b_s`` for every later ``s``; the last rank
    and (with ``b_1 = -inf``) the first are always possible.

    Returns
    -------
    list of (int, int)
        ``(r, s)``: rank ``r`` is impossible because ``b_r >= b_s``.
    """
    b = [float(v) for v in thresholds]
    found = []
    for r in range(1, len(b)):
        later = b[r:]
        s = r + int(np.argmin(later))  # 0-based index of the smallest later threshold
        if b[r - 1] >= b[s]:
            found.append((r, s + 1))
    return found


def synthetic_controls(container: DeltaGenerator | None = None, key: str = "syn") -> tuple[SyntheticSource, str, int]:
    """Sidebar controls of the §IV-A generator.

    Returns
    -------
    source : SyntheticSource
    source_key : str
        Identifies the source's settings (not the random seed), for caches and the Monte Carlo panels.
    seed : int
        The random seed of the one data set the drawn trees are fitted on.

    Notes
    -----
    Defaults go into session state before the widgets are drawn, so values
    restored from a link (:func:`synthetic_url_fields`) or set by the
    threshold buttons win. Every value is kept for the session, across the
    pages and while another kind of data is shown.
    """
    container = container or st.sidebar
    state = st.session_state
    defaults = {"n_train": 1000, "n_test": 1000, "noise_sd": 0.125, "label_noise": 0.0, "seed": 0,
                **dict(zip(_THRESHOLD_KEYS, DEFAULT_THRESHOLDS[1:]))}
    for name, value in defaults.items():
        state.setdefault(f"{key}_{name}", value)
    container.caption("Points uniform on the unit square; rank "
                      "y = max{r : 10(x₁ − 0.5)(x₂ − 0.5) + ε > b_r}, ε ~ N(0, sd²).")
    cols = container.columns(2)
    n_train = cols[0].number_input("Training rows", *_SIZE_RANGE, step=100, key=f"{key}_n_train",
                                   persist_state="session",
                                   help="Rows the two drawn trees are grown on (Xia et al.: 50,000 "
                                        "for Table I; 100, 1,000 and 10,000 for Fig. 3).")
    n_test = cols[1].number_input("Test rows", *_SIZE_RANGE, step=100, key=f"{key}_n_test",
                                  persist_state="session",
                                  help="Fresh rows for the test rank loss (Xia et al.: 1,000).")
    noise_sd = container.number_input(
        "ε standard deviation", 0.0, 5.0, step=0.025, format="%.3f", key=f"{key}_noise_sd",
        persist_state="session",
        help="Noise added to 10(x₁ − 0.5)(x₂ − 0.5) before thresholding (Xia et al.: 0.125).")
    label_noise = container.slider(
        "Label noise σ", 0.0, 1.0, step=0.01, key=f"{key}_label_noise", persist_state="session",
        help="Each label moves to an adjacent rank with probability σ (up or down at random; "
             "ranks 1 and 5 move inwards), in training and test rows alike (Xia et al., Fig. 3).")
    seed = container.number_input("Seed", 0, 1_000_000, key=f"{key}_seed", persist_state="session",
                                  help="The random stream of the data the two trees are drawn for.")

    container.markdown("**Thresholds** b₂ … b₅ (b₁ = −∞)")
    cols = container.columns(2)
    bounds = [-math.inf]
    for k, name in enumerate(_THRESHOLD_KEYS):
        bounds.append(float(cols[k % 2].number_input(
            f"b{name[1]}", -20.0, 20.0, step=0.05, format="%.3f", key=f"{key}_{name}",
            persist_state="session")))
    thresholds = tuple(bounds)

    def use(values: Sequence[float]) -> None:
        for name, value in zip(_THRESHOLD_KEYS, values[1:]):
            state[f"{key}_{name}"] = float(value)

    cols = container.columns(2)
    cols[0].button("As printed", key=f"{key}_printed", on_click=use, args=(PRINTED_THRESHOLDS,),
                   width="stretch", help="b = {−∞, −1, −0.1, −0.25, 1}, as printed in §IV-A.")
    cols[1].button("Corrected", key=f"{key}_corrected", on_click=use, args=(DEFAULT_THRESHOLDS,),
                   width="stretch", help="b = {−∞, −1, −0.1, 0.25, 1}, the thresholds of Herbrich "
                                         "et al. (2000), whose generator Xia et al. reuse.")
    container.caption("Xia et al. print b = {−∞, −1, −0.1, −0.25, 1}: not increasing, so rank 3 "
                      "(which needs −0.1 < v ≤ −0.25) never occurs. The default uses b₄ = 0.25, "
                      "as in the generator's source (Herbrich et al. 2000).")
    problems = impossible_ranks(thresholds)
    if problems:
        reasons = "; ".join(f"rank {r} (b{r} = {thresholds[r - 1]:g} ≥ b{s} = {thresholds[s - 1]:g})"
                            for r, s in problems)
        noise = (" Only label noise can move rows there." if label_noise > 0 else "")
        container.warning(f"Thresholds not increasing: no row can get {reasons}.{noise}",
                          icon=":material/warning:")
    source = SyntheticSource(n_train=int(n_train), n_test=int(n_test), noise_sd=float(noise_sd),
                             thresholds=thresholds, label_noise=float(label_noise))
    source_key = (f"synthetic:n={source.n_train}:t={source.n_test}:sd={source.noise_sd:g}:"
                  f"b={','.join(f'{b:g}' for b in thresholds)}:σ={source.label_noise:g}")
    return source, source_key, int(seed)


def synthetic_url_fields(key: str = "syn") -> list[UrlField]:
    """URL fields of :func:`synthetic_controls`."""
    fields = [
        UrlField("n_train", f"{key}_n_train", number(*_SIZE_RANGE, integer=True)),
        UrlField("n_test", f"{key}_n_test", number(*_SIZE_RANGE, integer=True)),
        UrlField("eps_sd", f"{key}_noise_sd", number(0.0, 5.0, decimals=3)),
        UrlField("label_noise", f"{key}_label_noise", number(0.0, 1.0, decimals=2)),
        UrlField("seed", f"{key}_seed", number(0, 1_000_000, integer=True)),
    ]
    fields += [UrlField(name, f"{key}_{name}", number(-20.0, 20.0, decimals=3), show=lambda v: f"{v:g}")
               for name in _THRESHOLD_KEYS]
    return fields


# -- hold-out splits of an ordinal data set ----------------------------------------

def holdout_controls(dataset: OrdinalDataset | None, data_key: str, container: DeltaGenerator | None = None,
                     key: str = "hold") -> tuple[HoldoutSource | None, str, int]:
    """Test share, label noise and seed of a hold-out split of an ordinal data set.

    Returns
    -------
    source : HoldoutSource or None
        None when the test share leaves no training or test rows (the problem is shown).
    source_key : str
    seed : int

    Notes
    -----
    As for :func:`synthetic_controls`: a link's values win over the
    defaults, and every value is kept for the session.
    """
    container = container or st.sidebar
    state = st.session_state
    for name, value in {"test_share": 0.3, "label_noise": 0.0, "seed": 0}.items():
        state.setdefault(f"{key}_{name}", value)
    test_share = container.slider(
        "Test share", 0.05, 0.95, step=0.05, key=f"{key}_test_share", persist_state="session",
        help="Share of the rows held out to measure the test rank loss (a fresh random split "
             "per Monte Carlo trial, as for Table II of Xia et al.).")
    label_noise = container.slider(
        "Label noise σ", 0.0, 1.0, step=0.01, key=f"{key}_label_noise", persist_state="session",
        help="Each label moves to an adjacent level with probability σ, in training and test rows "
             "alike (Xia et al., Fig. 3).")
    seed = container.number_input("Split seed", 0, 1_000_000, key=f"{key}_seed", persist_state="session",
                                  help="The random split the two drawn trees are grown on.")
    if dataset is None:
        return None, "", int(seed)
    try:
        source = HoldoutSource(dataset.X, np.asarray(dataset.y, dtype=object), list(dataset.levels),
                               test_fraction=float(test_share), label_noise=float(label_noise))
    except ValueError as error:
        st.error(f"**Test share.** {error}")
        return None, "", int(seed)
    return source, f"{data_key}:test={test_share:g}:σ={label_noise:g}", int(seed)


def holdout_url_fields(key: str = "hold") -> list[UrlField]:
    """URL fields of :func:`holdout_controls`."""
    return [
        UrlField("test_share", f"{key}_test_share", number(0.05, 0.95, decimals=2)),
        UrlField("holdout_noise", f"{key}_label_noise", number(0.0, 1.0, decimals=2)),
        UrlField("split_seed", f"{key}_seed", number(0, 1_000_000, integer=True)),
    ]


@st.cache_data(show_spinner="Drawing the data…", max_entries=16)
def draw_split(_source: SyntheticSource | HoldoutSource, source_key: str,
               seed: int) -> tuple[pd.DataFrame, np.ndarray, pd.DataFrame, np.ndarray]:
    """The training and test rows of one draw of ``source`` (cached by ``source_key`` and seed).

    Returns
    -------
    (X_train, y_train, X_test, y_test)
    """
    return _source.draw(np.random.default_rng(int(seed)))


# -- tree settings -----------------------------------------------------------------

@dataclass(frozen=True)
class OrdinalSettings:
    """The settings both drawn trees share."""

    max_depth: int | None
    min_samples_leaf: int
    prediction: str
    gamma: float
    #: Neighbours of the KNN baseline of the hold-out comparison (1: the nearest training row's level).
    knn_k: int = 1

    def estimator(self, criterion: str) -> OrdinalTree:
        return OrdinalTree(criterion, max_depth=self.max_depth, prediction=self.prediction,
                           min_samples_leaf=self.min_samples_leaf, gamma=self.gamma)

    def ranking_settings(self, criterion: str) -> TreeSettings:
        """The same limits for a label-ranking tree (:class:`TreeSettings`)."""
        return TreeSettings(criterion, self.gamma, self.min_samples_leaf, self.max_depth)

    def describe(self) -> str:
        """The settings in words, e.g. "depth ≤ 3, at least 1 row per leaf, median leaves, no rule (6)"."""
        depth = "no depth limit" if self.max_depth is None else f"depth ≤ {self.max_depth}"
        rule = "no rule (6)" if math.isinf(self.gamma) else f"rule (6) with γ = {self.gamma:.3f}"
        rows = counted(self.min_samples_leaf, "row")
        return f"{depth}, at least {rows} per leaf, {self.prediction} leaves, {rule}"


def ordinal_tree_settings(container: DeltaGenerator | None = None, key: str = "ivg",
                          label_ranking: bool = False) -> OrdinalSettings:
    """Widgets of the settings both trees share; ``label_ranking`` disables the leaf rule.

    Defaults go into session state before the widgets are drawn, so values
    restored from a link (:func:`ordinal_url_fields`) win; every value is kept
    for the session, across the pages.
    """
    container = container or st.sidebar
    state = st.session_state
    defaults = {"max_depth": 3, "min_leaf": 1, "prediction": "median", "rule6": False, "gamma": 1.0,
                "knn_k": 1}
    for name, value in defaults.items():
        state.setdefault(f"{key}_{name}", value)
    container.subheader("Trees (both)")
    depth = container.number_input(
        "Maximum depth (0 = no limit)", 0, 30, key=f"{key}_max_depth", persist_state="session",
        help="Depth limit of the two drawn trees (the root is depth 0). Both trees are cut at the "
             "same depth, so their losses compare trees of equal size limits.")
    container.caption("The drawings start at depth 3: the depth 9 of Xia et al. gives over a hundred "
                      "leaves on 1,000 rows (hundreds on more), too many to read. The Monte Carlo "
                      "tabs grow depth-9 trees without drawing them.")
    min_leaf = container.number_input("Minimum rows per leaf", 1, 10_000, key=f"{key}_min_leaf",
                                      persist_state="session",
                                      help="No split may leave fewer rows on either side.")
    prediction = container.radio(
        "Leaf prediction", list(PREDICTION_RULES), key=f"{key}_prediction", horizontal=True,
        disabled=label_ranking, persist_state="session",
        help=("Label-ranking trees predict the labels ordered by mean position." if label_ranking
              else "median: the middle level of the leaf's rows, which minimises the absolute rank "
                   "loss; mode: the most frequent level, which minimises the wrong levels."))
    rule6 = container.checkbox(
        "Stop by rule (6)", key=f"{key}_rule6", persist_state="session",
        help="Off (the default): the trees grow until their leaves are pure or the limits stop "
             "them, as the CART trees of Xia et al. do and as the Monte Carlo tabs grow them. On: a node "
             "splits only if (1 + S_parent) < γ (1 + S_split), rule (6) of Rebelo et al. (2008), S being the "
             "similarity 1 − impurity / its maximum and S_split the size-weighted similarity of "
             "the two subsets.")
    gamma = container.slider(
        "γ (stopping parameter)", *GAMMA_RANGE, step=0.001, format="%.3f", key=f"{key}_gamma",
        disabled=not rule6, persist_state="session",
        help="With rule (6) on: γ = 1 splits only where the subsets are, weighted by size, more "
             "homogeneous than their parent; lower γ asks for more, above 1 lets some splits "
             "that are not. Gini never lowers the weighted similarity, so for it γ ≥ 1 is the "
             "same as no rule.")
    knn_k = container.number_input(
        "KNN baseline: neighbours k", 1, 101, key=f"{key}_knn_k", persist_state="session",
        disabled=label_ranking,
        help=("The label-ranking evaluation below has its own choice of k." if label_ranking
              else "The hold-out baseline predicts the median (or mode) level of the k nearest training "
                   "rows; 1 is the nearest row's level. The Monte Carlo tabs have their own k."))
    return OrdinalSettings(int(depth) or None, int(min_leaf), str(prediction),
                           float(gamma) if rule6 else math.inf, int(knn_k))


def ordinal_url_fields(key: str = "ivg") -> list[UrlField]:
    """URL fields of :func:`ordinal_tree_settings`."""
    return [
        UrlField("max_depth", f"{key}_max_depth", number(0, 30, integer=True)),
        UrlField("min_leaf", f"{key}_min_leaf", number(1, 10_000, integer=True)),
        UrlField("prediction", f"{key}_prediction", choice(PREDICTION_RULES)),
        UrlField("rule6", f"{key}_rule6", _flag, show=lambda on: "1" if on else None),
        UrlField("gamma", f"{key}_gamma", number(*GAMMA_RANGE, decimals=3), show=lambda g: f"{g:.3f}"),
        UrlField("knn_k", f"{key}_knn_k", number(1, 101, integer=True), show=lambda k: None if k == 1 else str(k)),
    ]


def _flag(text):
    """URL parser of a switch: ``1`` or ``0``."""
    if text not in ("0", "1"):
        raise ValueError("expected 1 (on) or 0 (off)")
    return text == "1"


# -- fitting and drawing --------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class OrdinalComparison:
    """Both trees fitted on one training set, and every method's test rank loss."""

    models: dict  # criterion -> fitted OrdinalTree
    #: Per test row: method (display name), row and absolute rank loss.
    row_losses: pd.DataFrame
    n_train: int
    n_test: int

    @property
    def losses(self) -> dict[str, float]:
        """Display name -> mean absolute rank loss on the test rows, in the order the methods were fitted."""
        return self.row_losses.groupby("method", sort=False)["rank loss"].mean().to_dict()


def fit_ordinal_trees(split: tuple[pd.DataFrame, np.ndarray, pd.DataFrame, np.ndarray], split_key: str,
                      levels: Sequence[Any], settings: OrdinalSettings, target_name: str = "rank") -> OrdinalComparison:
    """Both criteria's trees and the baselines on one split, with their test rank losses.

    Computed in a worker thread (:func:`rankviz.ui.long_run.background`, which
    shows progress and Stop past a moment and keeps the result for
    ``split_key`` (the data and its seed), the levels and the settings). After
    Stop the page shows a note and ends there.

    Raises
    ------
    ValueError
        What the library finds wrong with the data or the settings.
    """
    signature = ("ordinal_trees", split_key, tuple(levels), settings, target_name)

    def fit(progress: Callable[..., None]) -> OrdinalComparison:
        return _fit_ordinal_trees(split, levels, settings, target_name, progress)

    comparison = background(
        fit, key=f"ordinal_fit_{short_hash(signature)}", signature=signature, cancel=False,
        label="Growing the two trees and the baselines",
        stopped_text="It goes on in the background and is kept for these settings; fewer rows "
                     "(the KNN baseline compares every test row with every training row) or a "
                     "depth limit are quicker.")
    if comparison is None:
        st.stop()
    return comparison


def _fit_ordinal_trees(split, levels, settings, target_name, progress):
    X_train, y_train, X_test, y_test = split
    levels = list(levels)
    models, per_row = {}, {}
    steps = len(CRITERIA_SHOWN) + 2
    for step, criterion in enumerate(CRITERIA_SHOWN):
        progress(step / steps, f"· {TREE_METHODS[criterion]} tree")
        model = settings.estimator(criterion).set_params(levels=levels).fit(
            X_train, pd.Series(y_train, name=target_name))
        models[criterion] = model
        per_row[TREE_METHODS[criterion]] = model.rank_losses(X_test, y_test)
    for step, (name, baseline) in enumerate(
            ((f"KNN (k={settings.knn_k})", OrdinalKNN(settings.knn_k, prediction=settings.prediction,
                                                      levels=levels)),
             (f"Default ({settings.prediction})", OrdinalDefault(prediction=settings.prediction, levels=levels))),
            start=len(CRITERIA_SHOWN)):
        progress(step / steps, f"· {name}")
        baseline.fit(X_train, y_train)
        per_row[name] = baseline.rank_losses(X_test, y_test)
    row_losses = pd.concat([pd.DataFrame({"method": name, "example": np.arange(len(values)), "rank loss": values})
                            for name, values in per_row.items()], ignore_index=True)
    return OrdinalComparison(models, row_losses, len(y_train), len(y_test))


LAYOUTS = {"side": "side by side", "stacked": "one above the other"}


def ordinal_tree_pair(comparison: OrdinalComparison, data_chart: go.Figure | None = None, key: str = "ivg") -> None:
    """The two trees, then the data's level counts and the test rank losses in one row.

    The trees come first so that they are on the first screen. ``data_chart``
    (e.g. :func:`rankviz.viz.figures.ordinal.level_count_chart`) goes left of the losses.
    """
    trees = {TREE_METHODS[c]: (comparison.models[c].tree_, f"ordinal_tree_{c}") for c in CRITERIA_SHOWN}
    names = [md_escape(c) for c in comparison.models[CRITERIA_SHOWN[0]].classes_]
    draw_pair(trees, key=key,
              levels=f"{names[0]} … {names[-1]}" if len(names) > 2 else " and ".join(names))
    if data_chart is not None:
        chart_column, loss_column = st.columns([1, 1.6], gap="medium")
        chart_column.plotly_chart(data_chart, key=f"{key}_levels", config={"displayModeBar": False})
    else:
        loss_column = st.container()
    with loss_column:
        st.markdown(f"**Test rank loss**: mean |ŷ − y| over the {counted(comparison.n_test, 'test row')}, "
                    "in levels (0 = every row right). Trees and baselines are fitted on the same "
                    f"{counted(comparison.n_train, 'training row')}.")
        items = list(comparison.losses.items())
        for row in (items[:2], items[2:]):
            for column, (name, loss) in zip(st.columns(2), row):
                column.metric(name + (" tree" if name in TREE_METHODS.values() else " baseline"),
                              f"{loss:.3f}", border=True)
    with st.expander("Test rank loss paired per test row: is a difference more than chance?"):  # full width
        paired_table(comparison.row_losses, [TREE_METHODS[c] for c in CRITERIA_SHOWN], key=key,
                     measures=["rank loss"], losses=["rank loss"])


def ranking_tree_pair(dataset: RankingDataset, data_key: str, settings: OrdinalSettings,
                      key: str = "ivg") -> dict[str, tuple[TreeSettings, Tree]]:
    """Both criteria's label-ranking trees (cut from the cached γ paths), drawn as a pair.

    Returns
    -------
    dict of str -> (TreeSettings, Tree)
        The trees that could be grown, by display name.
    """
    fitted, problems = {}, []
    for criterion in CRITERIA_SHOWN:
        name = TREE_METHODS[criterion]
        tree_settings = settings.ranking_settings(criterion)
        try:
            fitted[name] = (tree_settings, fit_tree(dataset, data_key, tree_settings))
        except ValueError as error:
            problems.append(f"The {name} tree cannot be grown: {error}")
    for problem in problems:
        st.error(problem)
    if fitted:
        # Leaves write rankings of label names: too wide for half the page, so
        # these trees start one above the other (own widget key, own default).
        draw_pair({name: (tree, export_basename(dataset.name, tree_settings.criterion, tree_settings.gamma))
                   for name, (tree_settings, tree) in fitted.items()}, key=f"{key}_ranking", layout="stacked")
    return fitted


def draw_pair(trees: dict[str, tuple[Tree, str]], key: str = "ivg", levels: str | None = None,
              layout: str = "side") -> None:
    """The trees side by side (left to right, legend in one caption) or one above the other.

    Parameters
    ----------
    trees : dict of str -> (Tree, str)
        Each tree and the file name of its exports, by display name.
    levels : str, optional
        The levels of ordinal trees for the caption, e.g. ``"1 … 5"``; None
        for label-ranking trees.
    layout : {"side", "stacked"}, default="side"
        The layout shown first; the user's choice is kept for the session.
    """
    st.session_state.setdefault(f"{key}_layout", layout)
    layout = st.radio("Tree layout", list(LAYOUTS), format_func=LAYOUTS.get, horizontal=True,
                      key=f"{key}_layout", persist_state="session",
                      help="Side by side, each tree is drawn left to right to fit half the page; "
                           "one above the other, each gets the full width, top-down with its "
                           "legend. Zoom each drawing with the wheel or its buttons.")
    side = layout == "side"
    columns = st.columns(2, gap="medium") if side else [st.container() for _ in trees]
    for i, (column, (name, (tree, basename))) in enumerate(zip(columns, trees.items())):
        with column:
            _tree_summary(name, tree)
            signature = _tree_signature(tree)
            # Keys per layout: each layout starts in its own direction. Both
            # trees share one scale (group), so their sizes compare as drawn.
            explore_tree(tree, key=f"{key}_{layout}_{i}", tree_key=f"{key}|{i}|{signature}",
                         fold_key=(key, i, signature), basename=basename, group=f"{key}_{layout}",
                         legend=not side, left_to_right=side)
    if side:
        tree_legend(ordinal=levels is not None, levels=levels)


def tree_legend(ordinal: bool = True, levels: str | None = None) -> None:
    """One caption explaining both drawings (their legend is left out on screen)."""
    colour = ("**Node colour**: S = 1 − the tree's own impurity / its maximum, from white (0) to "
              "dark blue (1), so colours compare nodes within a tree, not across the two; "
              "**#id · n** = node id and training rows; **yes** = the test holds.")
    if ordinal:
        cells = (f"**Cells**: training rows at each level ({levels}), low to high, darker for a "
                 "larger share; the **boxed** cell is the level the node predicts.")
    else:
        cells = "**Leaves**: the labels ordered by their mean position, best first."
    st.caption(f"{colour} {cells} Exported images include a legend.")


def _tree_signature(tree: Tree) -> str:
    """A digest of a tree's shape, tests and sizes: a new tree is fitted to its view, its folds reset."""
    digest = hashlib.blake2b(digest_size=8)
    for values in (tree.children_left, tree.feature, tree.threshold, tree.n_samples):
        digest.update(np.ascontiguousarray(values).tobytes())
    return digest.hexdigest()


def _tree_summary(name, tree):
    st.markdown(f"**{name}:** {counted(tree.n_leaves, 'leaf', 'leaves')}, depth {tree.max_depth}.")


@st.cache_data(show_spinner=False, max_entries=8)
def encoded_features(_X: pd.DataFrame, data_key: str) -> np.ndarray:
    """A feature table as the trees see it (the encoding is deterministic)."""
    return FeatureEncoder().fit(_X).transform(_X)
