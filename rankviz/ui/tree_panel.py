"""Tree settings, growth player, graphviz drawing and image export for the pages."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import streamlit as st

from ..tree.replay import growth_step, split_sequence
from ..tree.criteria import CRITERIA
from ..tree.ranking_tree import RankingTree
from ..viz.dot import drawn_leaves, fitting_depth, tree_to_dot
from ..viz.graphviz import EXPORT_FORMATS, RenderError, available_engines, render
from ..viz.layout import TreeLayout, layout_tree
from .tree_view import tree_view
from .long_run import background, short_hash
from .text import md_escape
from .url_state import UrlField, choice, number

if TYPE_CHECKING:
    from types import SimpleNamespace

    from streamlit.delta_generator import DeltaGenerator

    from ..datasets.label_ranking import RankingDataset
    from ..tree.gamma_path import GammaPath
    from ..tree.replay import GrowthStep
    from ..tree.structure import Tree

SPEEDS = {"slow": 2.0, "normal": 1.0, "fast": 0.4}
DEFAULT_MIN_LEAF = 10
# Mean Spearman similarities of useful nodes lie in (0, 1): spend the colour
# scale there (lower values get the lightest colour).
SIMILARITY_RANGE = (0.0, 1.0)


#: Trees with more leaves than this get a "Draw to depth" control.
LEGIBLE_LEAVES = 16
#: Trees up to this many leaves are drawn whole at first (the view zooms);
#: larger ones are cut to the depth that ends at most CUT_LEAVES paths.
DRAWN_WHOLE_LEAVES = 200
CUT_LEAVES = 64

GAMMA_RANGE = (0.90, 1.05)
GAMMA_STEP = 0.001
GROWTH_ORDERS = {"depth": "depth-first", "best": "best-first"}


@dataclass(frozen=True)
class TreeSettings:
    """What the user chose: everything that defines a fitted tree."""

    criterion: str
    gamma: float
    min_samples_leaf: int
    max_depth: int | None
    # How the player replays the splits; it does not change the tree, so it
    # takes no part in comparisons (evaluation results stay current).
    order: str = field(default="depth", compare=False)

    def estimator(self) -> RankingTree:
        """An unfitted :class:`rankviz.RankingTree` with these settings."""
        return RankingTree(criterion=self.criterion, gamma=self.gamma,
                           min_samples_leaf=self.min_samples_leaf, max_depth=self.max_depth)

    @property
    def growth(self) -> tuple[str, int, int | None]:
        """The settings that change the maximal tree (all but γ and the order)."""
        return (self.criterion, self.min_samples_leaf, self.max_depth)

    def describe(self) -> str:
        depth = "no depth limit" if self.max_depth is None else f"depth ≤ {self.max_depth}"
        return (f"{self.criterion}, γ = {self.gamma:.3f}, at least {self.min_samples_leaf} "
                f"per leaf, {depth}")


def tree_settings(container: DeltaGenerator | None = None, key: str = "tree", order: bool = True,
                  title: str = "Tree", gamma: float = 0.995) -> TreeSettings:
    """Widgets for the criterion, γ, limits and (if ``order``) growth order.

    Defaults go into session state rather than the widgets, so values restored
    from the URL (:func:`tree_url_fields`) or set by a button (best γ) win;
    ``gamma`` is the starting γ.
    """
    container = container or st.sidebar
    defaults = {"criterion": next(iter(CRITERIA)), "gamma": gamma, "min_leaf": DEFAULT_MIN_LEAF,
                "max_depth": 0, "order": "depth"}
    for name, value in defaults.items():
        st.session_state.setdefault(f"{key}_{name}", value)
    if st.session_state[f"{key}_criterion"] not in CRITERIA:
        st.session_state[f"{key}_criterion"] = next(iter(CRITERIA))
    container.subheader(title)
    criterion = container.selectbox(
        "Splitting criterion", list(CRITERIA), key=f"{key}_criterion",
        help="mean_spearman: the size-weighted mean of the mean pairwise Spearman "
             "correlation in the two subsets (Rebelo, Soares & Costa 2008). ranking_impurity: each label's position "
             "as an ordinal target, the summed distance of all pairs of positions (Xia, Zhang & "
             "Wang 2006, Definition 2), split by the unweighted gain of eq. (1). gini: the Gini impurity of "
             "each label's position, weighted gain (Xia et al., Definition 1). mallows: the size-weighted Mallows spread θ of the two subsets (Cheng, Hühn & Hüllermeier 2009, eq. 6). Rule (6) judges every "
             "criterion by its similarity: for the two impurities, 1 − impurity / its maximum.")
    gamma = container.slider(
        "γ (stopping parameter)", min_value=GAMMA_RANGE[0], max_value=GAMMA_RANGE[1],
        step=GAMMA_STEP, format="%.3f", key=f"{key}_gamma",
        help="A node is split only if (1 + S_parent) < γ (1 + S_split), rule (6) of Rebelo et al. (2008). "
             "Lower γ stops earlier; above 1 even splits that lower the similarity are made. "
             "Moving γ only re-cuts one maximal tree: no regrowth.")
    min_leaf = container.number_input(
        "Minimum examples per leaf", 1, 1000, key=f"{key}_min_leaf",
        help="The page starts at 10 so that the tree fits the screen; the library's default is 2 "
             "(the similarity of a single example, a mean over no pairs, is undefined).")
    depth = container.number_input("Maximum depth (0 = no limit)", 0, 100, key=f"{key}_max_depth")
    growth_order = "depth"
    if order:
        growth_order = container.radio(
            "Growth order", list(GROWTH_ORDERS), key=f"{key}_order", horizontal=True,
            format_func=GROWTH_ORDERS.get,
            help="The order in which the player reveals the splits. The final tree is the same.")
    return TreeSettings(criterion, float(gamma), int(min_leaf), int(depth) or None, growth_order)


def tree_url_fields(key: str = "tree", prefix: str = "", order: bool = True) -> list[UrlField]:
    """The URL fields of :func:`tree_settings` (see :mod:`rankviz.ui.url_state`)."""
    fields = [
        UrlField(f"{prefix}criterion", f"{key}_criterion", choice(CRITERIA)),
        UrlField(f"{prefix}gamma", f"{key}_gamma", number(*GAMMA_RANGE, decimals=3),
                 show=lambda g: f"{g:.3f}"),
        UrlField(f"{prefix}min_leaf", f"{key}_min_leaf", number(1, 1000, integer=True)),
        UrlField(f"{prefix}max_depth", f"{key}_max_depth", number(0, 100, integer=True)),
    ]
    if order:
        fields.append(UrlField(f"{prefix}order", f"{key}_order", choice(GROWTH_ORDERS)))
    return fields


def fit_gamma_path(dataset: RankingDataset | SimpleNamespace, data_key: str, criterion: str,
                   min_samples_leaf: int, max_depth: int | None) -> GammaPath:
    """Grow the maximal tree once per data set and limits; every γ is cut from it.

    The tree grows in a worker thread (:func:`rankviz.ui.long_run.background`):
    past a moment the page shows the time spent and a Stop button, and the
    finished path is kept for these settings (the latest few of the process).
    After Stop the page shows a note and ends there (``st.stop``).

    Parameters
    ----------
    dataset : RankingDataset or SimpleNamespace
        The data: anything with ``X``, ``Y`` and ``label_names``.
    data_key : str
        Identifies ``dataset``, for the kept paths.
    criterion : str
    min_samples_leaf : int
    max_depth : int or None

    Returns
    -------
    GammaPath
    """
    signature = ("gamma_path", data_key, criterion, min_samples_leaf, max_depth)

    def grow(progress: Callable[..., None]) -> GammaPath:
        model = RankingTree(criterion=criterion, gamma=np.inf, min_samples_leaf=min_samples_leaf,
                            max_depth=max_depth)
        model.fit(dataset.X, dataset.Y, label_names=dataset.label_names)
        return model.gamma_path()

    path = background(
        grow, key=f"grow_{short_hash(signature)}", signature=signature, cancel=False,
        label=f"Growing the maximal {criterion} tree",
        stopped_text="It goes on in the background and is kept for these settings; a larger "
                     "minimum of examples per leaf or a maximum depth grows a smaller tree sooner.")
    if path is None:
        st.stop()
    return path


def fit_tree(dataset: RankingDataset, data_key: str, settings: TreeSettings) -> Tree:
    """The tree for ``settings``, cut from the kept maximal tree (no regrowth on γ)."""
    return fit_gamma_path(dataset, data_key, *settings.growth).tree_at(settings.gamma)


def growth_player(tree: Tree, settings: TreeSettings, data_key: str, key: str = "tree",
                  inspected: int | None = None, on_select: Callable[[int], None] | None = None,
                  trace: Trace | None = None, label: str = "", basename: str = "ranking_tree") -> GrowthStep:
    """Play/pause, step and speed controls and the explorable drawing of the tree as it grows.

    The tree is grown once and laid out once, whole; the player replays its
    splits on that fixed drawing, the nodes not grown yet faded, so no node
    moves between steps. ``data_key`` and ``settings`` identify the tree:
    when they change the player starts over from the full tree. ``inspected``
    (a node id, see :attr:`Tree.node_ids`) is outlined; ``on_select`` is
    called with the id of a clicked node; ``trace`` lights up one example's
    path. ``basename`` names the exported files (see
    :func:`rankviz.viz.graphviz.export_basename`). Returns the step on screen.
    """
    sequence = split_sequence(tree, settings.order)
    n_steps = len(sequence)
    state = st.session_state
    step_key, playing_key, signature_key = f"{key}_step", f"{key}_playing", f"{key}_signature"
    hold_key = f"{key}_hold"  # set: the next tick shows the current step instead of advancing
    signature = (data_key, settings, settings.order)
    if state.get(signature_key) != signature:
        # New tree or order: show the whole tree, stop playing.
        state[signature_key] = signature
        state[step_key] = n_steps
        state[playing_key] = False
    state[step_key] = min(state[step_key], n_steps)

    def go(to: int) -> None:
        state[step_key] = max(0, min(n_steps, to))
        state[playing_key] = False

    def toggle() -> None:
        if not state[playing_key] and state[step_key] >= n_steps:
            state[step_key] = 0  # play from the start, showing the root alone first
            state[hold_key] = True
        state[playing_key] = not state[playing_key] and n_steps > 0

    cols = st.columns([1, 1, 1.2, 1, 1, 1.6, 1.6], vertical_alignment="bottom")
    cols[0].button("Start", on_click=go, args=(0,), key=f"{key}_first", width="stretch",
                   icon=":material/first_page:", help="Back to the root alone")
    cols[1].button("Back", on_click=lambda: go(state[step_key] - 1), key=f"{key}_back",
                   icon=":material/chevron_left:", width="stretch", help="Undo the last split")
    playing = state[playing_key]
    cols[2].button("Pause" if playing else "Play", on_click=toggle, key=f"{key}_play",
                   icon=":material/pause:" if playing else ":material/play_arrow:",
                   type="primary", width="stretch", help="Replay the splits one at a time")
    cols[3].button("Step", on_click=lambda: go(state[step_key] + 1), key=f"{key}_forward",
                   icon=":material/chevron_right:", width="stretch", help="Make the next split")
    cols[4].button("End", on_click=go, args=(n_steps,), key=f"{key}_last", width="stretch",
                   icon=":material/last_page:", help="The fully grown tree")
    speed = cols[5].select_slider("Speed", list(SPEEDS), value="normal", key=f"{key}_speed")
    shown = cols[6].number_input("Labels per leaf", 1, len(tree.label_names),
                                 min(4, len(tree.label_names)), key=f"{key}_labels",
                                 help="How many labels of each leaf's ranking to write, best first. "
                                      "Hovering a node shows its whole ranking.")
    depth = depth_control(tree, f"{key}_draw", signature)

    picked_key = f"{key}_picked"  # set by a click on a node: the whole page follows

    def picked(node_id: int) -> None:
        state[picked_key] = True
        on_select(node_id)

    @st.fragment(run_every=SPEEDS[speed] if state[playing_key] else None)
    def animated() -> GrowthStep:
        if state.pop(picked_key, False):
            st.rerun()  # a click in the drawing reran this fragment only; the inspector follows
        if state[playing_key]:
            if state[step_key] >= n_steps:
                state[playing_key] = False
                st.rerun()  # whole page: the Play button and the timer follow
            if state.pop(hold_key, False) is False:
                state[step_key] += 1
        current = growth_step(tree, sequence, state[step_key])
        st.markdown(_step_caption(current, n_steps))
        grown = current.step < n_steps
        just_split = int(current.tree.node_ids[current.node]) if current.step > 0 else None
        show_tree(tree, key=f"{key}_view", layout_key=repr(signature), fold_key=(data_key, settings.growth),
                  max_labels=shown, max_depth=depth, selected=inspected, current=just_split,
                  revealed=current.tree.node_ids if grown else None,
                  on_select=picked if on_select is not None else None,
                  trace=trace, label=label)
        # The export is the finished tree as the settings define it: no
        # outline of the step, the inspected node or a trace.
        export_buttons(tree_to_dot(tree, similarity_range=SIMILARITY_RANGE, show_ids=True,
                                   max_labels=shown if shown < len(tree.label_names) else None),
                       basename=basename, key=f"{key}_export")
        return current

    return animated()


def _step_caption(current: GrowthStep, n_steps: int) -> str:
    tree = current.tree
    if current.step == 0:
        caption = f"Step 0 of {n_steps}: the root alone."
    else:
        caption = (f"Step {current.step} of {n_steps}: split node #{tree.node_ids[current.node]} on "
                   f"**{md_escape(tree.test_text(current.node))}**.")
    leaves = "1 leaf" if tree.n_leaves == 1 else f"{tree.n_leaves} leaves"
    return f"{caption} {leaves}, depth {tree.max_depth}."


def depth_control(tree: Tree, key: str, signature: Hashable | None = None, *,
                  whole_leaves: int | None = None, cut_leaves: int | None = None) -> int | None:
    """A "Draw to depth" slider for a large tree; returns the depth or None for the whole tree.

    A tree of more than :data:`LEGIBLE_LEAVES` leaves gets the slider. It
    starts at the whole tree up to :data:`DRAWN_WHOLE_LEAVES` leaves (the view
    zooms), else at the largest depth that ends at most :data:`CUT_LEAVES`
    paths (:func:`rankviz.viz.dot.fitting_depth`). ``signature`` identifies
    the tree for the slider: while it stays the same (e.g. a growth player's
    tree, step after step) the user's depth is kept; by default the tree's
    shape. ``whole_leaves`` and ``cut_leaves`` replace those two limits (a
    drawing that cannot zoom wants :data:`LEGIBLE_LEAVES` for both).
    Returns None when the whole tree is drawn.
    """
    if tree.n_leaves <= LEGIBLE_LEAVES:
        return None
    full = tree.max_depth
    whole_leaves = DRAWN_WHOLE_LEAVES if whole_leaves is None else whole_leaves
    cut_leaves = CUT_LEAVES if cut_leaves is None else cut_leaves
    default = full if tree.n_leaves <= whole_leaves else fitting_depth(tree, cut_leaves)
    state = st.session_state
    depth_key, for_key = f"{key}_depth", f"{key}_depth_for"
    signature = signature if signature is not None else (tree.node_count, tree.n_leaves, full)
    if state.get(for_key) != signature or depth_key not in state:
        state[for_key] = signature
        state[depth_key] = default
    state[depth_key] = min(max(1, int(state[depth_key])), full)
    cols = st.columns([1, 2], vertical_alignment="bottom")
    depth = int(cols[0].slider(
        "Draw to depth", 1, full, key=depth_key,
        help="Nodes below this depth are left out; a dashed box says how many. Each node's "
             "own −/+ button folds or opens one subtree."))
    if depth >= full:
        cols[1].caption(f"Drawn in full: {tree.n_leaves} leaves, depth {full}. Zoom with the "
                        "wheel or the buttons; fold a subtree with its − button.")
        return None
    shown = drawn_leaves(tree, depth)
    cols[1].caption(f"**Drawn to depth {depth} of {full}** ({shown} of {tree.n_leaves} leaves or "
                    "dashed cut nodes).")
    return depth


@dataclass(frozen=True)
class Trace:
    """One example followed through a tree: its path and the card beside its leaf."""

    path: tuple[int, ...]
    leaf: int
    lines: tuple[str, ...]
    scores: dict[str, float] = field(default_factory=dict, compare=False)


def collapsed_nodes(key: str, fold_key: Hashable) -> set[int]:
    """The ids of the nodes folded in the view ``key``, kept while ``fold_key`` stays the same.

    Node ids are stable while γ moves or the player steps (:attr:`Tree.node_ids`),
    so ``fold_key`` names the maximal tree (data and growth settings), not γ.
    """
    state = st.session_state
    folds_key = f"{key}_collapsed"
    kept = state.get(folds_key)
    if not kept or kept[0] != fold_key:
        state[folds_key] = (fold_key, set())
    return state[folds_key][1]


@st.cache_data(show_spinner=False, max_entries=64)
def _layout(_tree: Tree, tree_key: str, collapsed: tuple[int, ...], max_depth: int | None,
            options: tuple[tuple[str, Any], ...]) -> TreeLayout:
    return layout_tree(_tree, collapsed=collapsed, max_depth=max_depth, **dict(options))


def show_tree(tree: Tree, *, key: str, layout_key: str, fold_key: Hashable, max_labels: int | None = 4,
              max_depth: int | None = None, selected: int | None = None, current: int | None = None,
              revealed: Any = None, on_select: Callable[[int], None] | None = None,
              trace: Trace | None = None, label: str = "", group: str | None = None,
              direction: str = "TB", legend: bool = True, max_height: int = 560) -> TreeLayout:
    """Draw a tree in the explorable view (:func:`rankviz.ui.tree_view.tree_view`).

    Folds made with the nodes' −/+ buttons are kept under ``key`` while
    ``fold_key`` stays the same; the layout is cached per ``layout_key``
    (the tree's identity), folds, depth and options. Returns the layout shown.
    """
    folded = collapsed_nodes(key, fold_key)
    present = {int(i) for i in tree.node_ids}
    options = dict(similarity_range=SIMILARITY_RANGE, show_ids=True, direction=direction, legend=legend,
                   max_labels=max_labels if max_labels and max_labels < len(tree.label_names) else None)
    layout = _layout(tree, layout_key, tuple(sorted(folded & present)), max_depth,
                     tuple(sorted(options.items())))

    def toggle(node_id: int) -> None:
        folded.symmetric_difference_update({node_id})

    tree_view(layout, key=key, layout_key=layout_key, label=label, selected=selected, current=current,
              revealed=revealed, path=trace.path if trace else None,
              trace={"node": trace.leaf, "lines": list(trace.lines)} if trace else None,
              on_select=on_select, on_toggle=toggle, group=group, direction=direction,
              max_height=max_height)
    return layout


def export_buttons(dot: str, basename: str = "ranking_tree", key: str = "export", compact: bool = False) -> None:
    """Download buttons for the DOT text and the SVG, PNG and PDF images of a tree.

    Images are made only when a button is pressed, with the real Graphviz
    ``dot`` when it is installed and the bundled pure renderer otherwise.
    ``compact`` puts the label above the buttons, for narrow columns.
    """
    engines = available_engines()
    engine = "dot" if "dot" in engines else "pure"
    label = f"**Export** <small>({'Graphviz dot' if engine == 'dot' else 'graphviz-pure'})</small>"
    if compact:
        st.markdown(label, unsafe_allow_html=True)
        cols = st.columns(len(EXPORT_FORMATS))
    else:
        head, *cols = st.columns(len(EXPORT_FORMATS) + 1)
        head.markdown(label, unsafe_allow_html=True)
    for col, (fmt, (mime, extension)) in zip(cols, EXPORT_FORMATS.items()):
        col.download_button(
            f"{fmt.upper()}", data=_deferred(dot, fmt, engine), file_name=f"{basename}{extension}",
            mime=mime, key=f"{key}_{fmt}", on_click="ignore", icon=":material/download:",
            width="stretch",
        )


@st.cache_data(show_spinner=False, max_entries=32)
def _render_cached(dot, fmt, engine):
    return render(dot, fmt, engine=engine)


def _deferred(dot, fmt, engine):
    if fmt == "dot":
        return dot.encode("utf-8")

    def make():
        try:
            return _render_cached(dot, fmt, engine)
        except RenderError:
            # Fall back to the other engine rather than hand the user nothing.
            return _render_cached(dot, fmt, "pure" if engine == "dot" else "dot")
    return make
