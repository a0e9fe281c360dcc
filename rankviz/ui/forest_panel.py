"""The ranking forest page's widgets: its settings, the fitted forest, one of its trees, the importance per label."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import streamlit as st

from ..ensemble import RankingForest
from ..label_ranking import IBLR
from ..label_ranking.inspection import held_out_importance
from ..safe_csv import safe_csv
from ..tree.criteria import CRITERIA, get_criterion
from ..viz.figures.forest import importance_heatmap
from ..viz.graphviz import export_basename
from .long_run import background, short_hash
from .stale import rerun_requested, stale_notice
from .text import counted
from .tree_panel import criterion_label, describe_ties, explore_tree, tie_input, tie_url_fields
from .url_state import UrlField, choice, number

if TYPE_CHECKING:
    from streamlit.delta_generator import DeltaGenerator

    from ..datasets.label_ranking import RankingDataset

KEY = "forest"
#: Features searched at each split: the choices of the sidebar, as RankingForest's split_features takes them.
FEATURE_CHOICES = {"all": None, "sqrt": "sqrt", "half": 0.5}
FEATURE_LABELS = {"all": "all (bagging)", "sqrt": "√ of them", "half": "half of them"}
#: The page starts with this many trees: a forest of the samples grows in about a second.
DEFAULT_TREES = 50
MAX_TREES = 300


@dataclass(frozen=True)
class ForestSettings:
    """What the user chose: everything that defines a fitted forest."""

    n_estimators: int
    criterion: str
    features: str  # a key of FEATURE_CHOICES: the features searched at each split
    min_samples_leaf: int
    max_depth: int | None
    tie_tolerance: float | None
    seed: int

    def estimator(self) -> RankingForest:
        """An unfitted :class:`rankviz.RankingForest` with these settings (out-of-bag scores on)."""
        return RankingForest(n_estimators=self.n_estimators, criterion=self.criterion,
                             split_features=FEATURE_CHOICES[self.features], min_samples_leaf=self.min_samples_leaf,
                             max_depth=self.max_depth, tie_tolerance=self.tie_tolerance, oob_score=True,
                             random_state=self.seed)

    def describe(self) -> str:
        """The settings in words."""
        depth = "no depth limit" if self.max_depth is None else f"depth ≤ {self.max_depth}"
        return (f"{counted(self.n_estimators, 'tree')} ({get_criterion(self.criterion).title}, features per split: "
                f"{FEATURE_LABELS[self.features]}, at least {self.min_samples_leaf} per leaf, {depth}), "
                f"Borda vote{describe_ties(self.tie_tolerance)}, seed {self.seed}")

    def facts(self, prefix: str = "") -> dict[str, str]:
        """The settings as readable facts, for the note on results of other settings."""
        return {f"{prefix}trees": str(self.n_estimators), f"{prefix}criterion": get_criterion(self.criterion).title,
                f"{prefix}features per split": FEATURE_LABELS[self.features],
                f"{prefix}minimum examples per leaf": str(self.min_samples_leaf),
                f"{prefix}maximum depth": "none" if self.max_depth is None else str(self.max_depth),
                f"{prefix}predicted ties": ("none" if self.tie_tolerance is None
                                            else f"within {self.tie_tolerance:g} positions"),
                f"{prefix}seed": str(self.seed)}


@dataclass(frozen=True)
class IBLRSettings:
    """IBLR with k chosen by inner cross-validation, tying labels as the forest does."""

    tie_tolerance: float | None

    def estimator(self) -> IBLR:
        """An unfitted :class:`rankviz.IBLR` (``n_neighbors="auto"``)."""
        return IBLR(n_neighbors="auto", tie_tolerance=self.tie_tolerance)

    def describe(self) -> str:
        """The settings in words."""
        return f"Mallows centre of the k nearest neighbours, k by inner 5-fold CV{describe_ties(self.tie_tolerance)}"

    def facts(self, prefix: str = "") -> dict[str, str]:
        """The settings as readable facts."""
        return {f"{prefix}k": "by inner 5-fold CV"}


def forest_settings(container: DeltaGenerator | None = None, key: str = KEY) -> ForestSettings:
    """The sidebar's forest settings, kept for the session (defaults in session state, so a link's values win)."""
    container = container or st.sidebar
    defaults = {"trees": DEFAULT_TREES, "criterion": next(iter(CRITERIA)), "features": "sqrt", "min_leaf": 1,
                "max_depth": 0, "seed": 0}
    for name, value in defaults.items():
        st.session_state.setdefault(f"{key}_{name}", value)
    container.subheader("Forest")
    n_estimators = container.slider("Trees", 1, MAX_TREES, step=1, key=f"{key}_trees", persist_state="session",
                                    help="More trees vote more steadily; the time grows with them.")
    criterion = container.selectbox("Splitting criterion", list(CRITERIA), key=f"{key}_criterion",
                                    format_func=criterion_label, persist_state="session",
                                    help="The criterion of every tree, as on the Ranking trees page.")
    features = container.radio("Features per split", list(FEATURE_CHOICES), key=f"{key}_features",
                               format_func=FEATURE_LABELS.get, horizontal=True, persist_state="session",
                               help="Each node of each tree is searched on a fresh random subset of the features "
                                    "(the random forest of Breiman 2001); every tree is grown on rows drawn with "
                                    "replacement (bagging, Breiman 1996). All features: bagging alone.")
    min_leaf = container.number_input("Minimum examples per leaf", 1, 1000, key=f"{key}_min_leaf",
                                      persist_state="session",
                                      help="The trees grow until their leaves are pure or this small (γ = ∞).")
    depth = container.number_input("Maximum depth (0 = no limit)", 0, 100, key=f"{key}_max_depth",
                                   persist_state="session")
    tie_tolerance = tie_input(container, key, "mean positions over the trees")
    seed = container.number_input("Seed", 0, 10_000, key=f"{key}_seed", persist_state="session",
                                  help="Seeds the rows and features each tree draws: the same seed, the same forest.")
    return ForestSettings(int(n_estimators), criterion, features, int(min_leaf), int(depth) or None, tie_tolerance,
                          int(seed))


def forest_url_fields(key: str = KEY) -> list[UrlField]:
    """The URL fields of :func:`forest_settings` (see :mod:`rankviz.ui.url_state`)."""
    return [UrlField("trees", f"{key}_trees", number(1, MAX_TREES, integer=True)),
            UrlField("criterion", f"{key}_criterion", choice(CRITERIA)),
            UrlField("features", f"{key}_features", choice(FEATURE_CHOICES)),
            UrlField("min_leaf", f"{key}_min_leaf", number(1, 1000, integer=True)),
            UrlField("max_depth", f"{key}_max_depth", number(0, 100, integer=True)),
            *tie_url_fields(key),
            UrlField("seed", f"{key}_seed", number(0, 10_000, integer=True))]


def fit_forest(dataset: RankingDataset, data_key: str, settings: ForestSettings) -> RankingForest:
    """The forest of ``settings`` on ``dataset``, grown in a worker thread and kept for these settings.

    After Stop the page ends with a note (``st.stop``); the growth goes on and is kept.
    """
    signature = ("forest", data_key, settings)

    def grow(progress: object) -> RankingForest:
        return settings.estimator().fit(dataset.X, pd.DataFrame(dataset.Y, columns=list(dataset.label_names)))

    forest = background(grow, key=f"forest_{short_hash(signature)}", signature=signature, cancel=False,
                        label=f"Growing {counted(settings.n_estimators, 'tree')}",
                        stopped_text="It goes on in the background and is kept for these settings; fewer trees "
                                     "or a larger minimum of examples per leaf grow sooner.")
    if forest is None:
        st.stop()
    return forest


def forest_summary(forest: RankingForest) -> None:
    """The out-of-bag Kendall tau and the size of the trees, in one row."""
    leaves = np.array([tree.tree_.n_leaves for tree in forest.estimators_])
    distinct = np.array([len(np.unique(rows)) for rows in forest.estimators_samples_])
    n = len(forest.oob_prediction_)
    scored = int(np.isfinite(forest.oob_prediction_[:, 0]).sum())
    cols = st.columns(4)
    cols[0].metric("Out-of-bag Kendall tau", f"{forest.oob_score_:.3f}" if np.isfinite(forest.oob_score_) else "–",
                   help="Each example ranked by the trees that did not draw it, against its true ranking "
                        f"({scored:,} of {n:,} examples have such trees).")
    cols[1].metric("Trees", f"{len(forest.estimators_):,}")
    cols[2].metric("Leaves per tree (median)", f"{np.median(leaves):.0f}",
                   help=f"From {leaves.min():,} to {leaves.max():,}.")
    cols[3].metric("Distinct examples per tree", f"{np.median(distinct):.0f} of {n:,}",
                   help="Rows drawn with replacement: about 63 % of them are distinct.")


def tree_of_forest(forest: RankingForest, dataset: RankingDataset, data_key: str, settings: ForestSettings,
                   key: str = KEY) -> None:
    """Pick one tree of the forest and explore it in the tree view (with its Export)."""
    n_trees = len(forest.estimators_)
    st.session_state.setdefault(f"{key}_tree", 1)
    if st.session_state[f"{key}_tree"] > n_trees:
        st.session_state[f"{key}_tree"] = 1
    cols = st.columns([1, 3], vertical_alignment="bottom")
    number = int(cols[0].number_input("Tree of the forest", 1, n_trees, key=f"{key}_tree",
                                      help="Each tree is a ranking tree of its own; the forest ranks the labels "
                                           "by their mean position over all the trees' predictions."))
    index = number - 1
    member = forest.estimators_[index]
    rows = forest.estimators_samples_[index]
    features = [forest.feature_names_[j] for j in forest.estimators_features_[index]]
    seen = "all" if len(features) == len(forest.feature_names_) else f"{len(features)} of {len(forest.feature_names_)}"
    per_split = member.max_features
    searched = "" if per_split is None else f", {FEATURE_LABELS[settings.features]} searched at each split"
    cols[1].caption(f"Tree {number}: {counted(member.tree_.n_leaves, 'leaf', 'leaves')}, grown on "
                    f"{len(np.unique(rows)):,} distinct of {len(rows):,} examples (drawn with replacement) and "
                    f"{seen} features{searched}.")
    explore_tree(member.tree_, key=f"{key}_view", tree_key=f"{data_key}|{short_hash(settings)}|{index}",
                 fold_key=(data_key, settings, index),
                 basename=f"{export_basename(dataset.name, settings.criterion)}_forest_tree{number}")


def importance_panel(settings: ForestSettings, dataset: RankingDataset, data_key: str,
                     key: str = f"{KEY}_importance") -> None:
    """Permutation importance per label, on held-out rows, on request; the heatmap and a CSV."""
    n_repeats = 5
    request = (data_key, settings)
    facts = {"data set": dataset.name, **settings.facts()}
    st.caption("A quarter of the examples is held out; a forest with these settings is grown on the rest, and "
               f"each feature's column of the held-out quarter is shuffled {n_repeats} times. The drop of each "
               "label's Kendall tau (over the pairs of that label with the others) is the feature's importance "
               "for that label; the drop of the mean Kendall tau is written beside the feature.")
    if st.button("Compute the importance per label", key=f"{key}_run", type="primary",
                 icon=":material/insights:") or rerun_requested(key):
        def compute(progress: object) -> object:
            return held_out_importance(settings.estimator().set_params(oob_score=False), dataset.X,
                                       dataset.Y, n_repeats=n_repeats, random_state=settings.seed)

        result = background(compute, key=f"{key}_{short_hash(request)}", signature=request, cancel=False,
                            label="Shuffling each feature")
        if result is None:
            st.stop()
        st.session_state[f"{key}_result"] = (request, facts, result)
    stored = st.session_state.get(f"{key}_result")
    if stored is None:
        return
    done_request, done_facts, result = stored
    if done_request != request:
        stale_notice("The importance", done_facts, facts, key=key, button="Compute it for the current settings")
        return
    st.plotly_chart(importance_heatmap(result.importances_mean, result.feature_names, list(dataset.label_names),
                                       overall=result.overall_mean, n_test=result.n_test), key=f"{key}_chart")
    table = pd.DataFrame(result.importances_mean, index=pd.Index(result.feature_names, name="feature"),
                         columns=list(dataset.label_names))
    table.insert(0, "mean Kendall tau", result.overall_mean)
    st.download_button("Download the importance (CSV)", safe_csv(table.reset_index()).encode(),
                       file_name="importance_per_label.csv", mime="text/csv", key=f"{key}_csv",
                       on_click="ignore", icon=":material/download:")
