"""Tree settings, growth player, graphviz drawing and image export for the pages."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import pandas as pd
import streamlit as st

from ..tree.replay import growth_step, level_stops, split_sequence
from ..tree.criteria import CRITERIA, get_criterion
from ..tree.structure import parent_array
from ..tree.ranking_tree import RankingTree
from ..viz.dot import drawn_leaves, fitting_depth
from ..viz.layout import TreeLayout, layout_tree
from .export_panel import ScreenView, tree_export
from .tree_view import tree_view
from .defaults import seed_defaults, user_set
from .long_run import background, short_hash
from .text import counted, md_escape
from .url_state import UrlField, choice, flag, number

if TYPE_CHECKING:
    from collections.abc import Mapping
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
#: The slider's values: the γ curves are computed on them, so "best γ" is a slider value.
GAMMA_GRID = np.round(np.arange(GAMMA_RANGE[0], GAMMA_RANGE[1] + GAMMA_STEP / 2, GAMMA_STEP), 3)
GROWTH_ORDERS = {"depth": "depth-first", "best": "best-first", "level": "level by level"}


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
    #: Predict partial rankings: labels whose aggregated positions are this close tie.
    tie_tolerance: float | None = None

    def estimator(self) -> RankingTree:
        """An unfitted :class:`rankviz.RankingTree` with these settings."""
        return RankingTree(criterion=self.criterion, gamma=self.gamma,
                           min_samples_leaf=self.min_samples_leaf, max_depth=self.max_depth,
                           tie_tolerance=self.tie_tolerance)

    @property
    def growth(self) -> tuple[str, int, int | None, float | None]:
        """The settings of the maximal tree and its leaves' rankings (all but γ and the order)."""
        return (self.criterion, self.min_samples_leaf, self.max_depth, self.tie_tolerance)

    def describe(self) -> str:
        """The settings in words: criterion (its readable name), γ, limits and ties."""
        depth = "no depth limit" if self.max_depth is None else f"depth ≤ {self.max_depth}"
        return (f"{get_criterion(self.criterion).title}, γ = {self.gamma:.3f}, at least "
                f"{self.min_samples_leaf} per leaf, {depth}{describe_ties(self.tie_tolerance)}")


def describe_ties(tie_tolerance: float | None) -> str:
    """``", ties within 0.1 positions"``, or ``""`` for strict rankings."""
    return "" if tie_tolerance is None else f", ties within {tie_tolerance:g} positions"


def tree_settings(container: DeltaGenerator | None = None, key: str = "tree", order: bool = True,
                  title: str = "Tree", gamma: float = 0.995,
                  suggested: Mapping[str, int] | None = None, gamma_control: bool = True) -> TreeSettings:
    """Widgets for the criterion, γ, limits and (if ``order``) growth order.

    Defaults go into session state rather than the widgets, so values restored
    from the URL (:func:`tree_url_fields`) or set by a button (best γ) win;
    ``gamma`` is the starting γ. ``suggested`` holds the data set's own
    starting limits (:func:`rankviz.ui.data_picker.picked_tree_defaults`:
    ``min_samples_leaf``, ``max_depth``) in place of :data:`DEFAULT_MIN_LEAF`
    and no depth limit; limits the user has not set follow them when the data
    set changes (:mod:`rankviz.ui.defaults`). Every value is kept for the
    session, across the pages. With ``gamma_control=False`` the γ slider is
    left to the caller (:func:`gamma_slider`, for example inside the fragment
    that draws the tree, so that a γ step reruns only that) and the settings
    hold the γ it last had.
    """
    container = container or st.sidebar
    suggested = suggested or {}
    seed_defaults({f"{key}_min_leaf": suggested.get("min_samples_leaf", DEFAULT_MIN_LEAF),
                   f"{key}_max_depth": suggested.get("max_depth", 0)})
    defaults = {"criterion": next(iter(CRITERIA)), "gamma": gamma, "order": "depth"}
    for name, value in defaults.items():
        st.session_state.setdefault(f"{key}_{name}", value)
    if st.session_state[f"{key}_criterion"] not in CRITERIA:
        st.session_state[f"{key}_criterion"] = next(iter(CRITERIA))
    container.subheader(title)
    criterion = container.selectbox(
        "Splitting criterion", list(CRITERIA), key=f"{key}_criterion", persist_state="session",
        format_func=criterion_label,
        help="Mean pairwise Spearman correlation: the size-weighted mean of the mean pairwise Spearman "
             "correlation in the two subsets (Rebelo, Soares & Costa 2008). Ranking impurity: each label's "
             "position as an ordinal target, the summed distance of all pairs of positions (Xia, Zhang & "
             "Wang 2006, Definition 2), split by the unweighted gain of eq. (1). Gini impurity: the Gini "
             "impurity of each label's position, weighted gain (Xia et al., Definition 1). Mallows spread θ: "
             "the size-weighted Mallows impurity 1/(1 + θ) of the two subsets, minimised (Cheng, Hühn & "
             "Hüllermeier 2009, §5.1). "
             "Pairwise entropy: the mean over label pairs of the entropy of before / tied / after, the criterion "
             "of the partial label ranking trees of Alfaro, Aledo & Gámez (2021), for rankings with ties; "
             "Disagreements and Distance, their other two: the share of rankings that "
             "order a pair otherwise than the set's bucket order, and the distance of their pair-order "
             "matrices from it (a tie against an order costs 1, a reversal 2). "
             "Rule (6) judges every criterion by its similarity: for the two impurities, "
             "1 − impurity / its maximum. Links and the Python API use the short names (mean_spearman, "
             "ranking_impurity, gini, mallows, pairwise_entropy, pairwise_disagreements, pairwise_distance).")
    gamma = gamma_slider(container, key) if gamma_control else st.session_state[f"{key}_gamma"]
    min_leaf, depth = limit_inputs(
        container, key, "The library's default is 2 (the similarity of a single example, a mean over no "
                        "pairs, is undefined).")
    tie_tolerance = tie_input(container, key, "mean ranks")
    growth_order = "depth"
    if order:
        growth_order = container.radio(
            "Growth order", list(GROWTH_ORDERS), key=f"{key}_order", horizontal=True,
            format_func=GROWTH_ORDERS.get, persist_state="session",
            help="The order in which the player reveals the splits: depth-first, best-first, or level by level "
                 "(Step and Play then grow one whole depth level at a time). The final tree is the same.")
    return TreeSettings(criterion, float(gamma), int(min_leaf), int(depth) or None, growth_order, tie_tolerance)


#: What γ does, for the slider's help.
GAMMA_HELP = ("A node is split only if (1 + S_parent) < γ (1 + S_split), rule (6) of Rebelo et al. (2008). "
              "Lower γ stops earlier; above 1 even splits that lower the similarity are made. "
              "Moving γ only re-cuts one maximal tree: no regrowth.")


def gamma_slider(container: DeltaGenerator, key: str = "tree",
                 label_visibility: Literal["visible", "collapsed"] = "visible",
                 width: int | Literal["stretch"] = "stretch") -> float:
    """The γ slider of :func:`tree_settings` (session-state key ``f"{key}_gamma"``); returns γ."""
    return float(container.slider(
        "γ (stopping parameter)", min_value=GAMMA_RANGE[0], max_value=GAMMA_RANGE[1], step=GAMMA_STEP,
        format="%.3f", key=f"{key}_gamma", persist_state="session", label_visibility=label_visibility,
        width=width, help=GAMMA_HELP if label_visibility == "visible" else None))


def gamma_row(path: GammaPath, key: str = "tree", also: Callable[[float], str] | None = None) -> float:
    """γ in one row above a tree: label, slider and what the tree at γ is; returns γ.

    About half the height of a labelled slider. Beside it, the leaf count and
    the slider's γ range over which the tree stays the same, so a reader sees
    where the next change is without a chart (the γ path section draws the
    whole curve); ``also(γ)``, if given, adds to that note (e.g. the held-out
    scores at γ, :func:`rankviz.ui.gamma_panel.held_out_note`).
    """
    row = st.container(horizontal=True, vertical_alignment="center", gap="small")
    row.markdown("**γ (stopping parameter)**", width="content", help=GAMMA_HELP)
    gamma = gamma_slider(row, key, label_visibility="collapsed", width=420)
    note, extra = gamma_note(path, gamma), also(gamma) if also is not None else ""
    row.markdown(f"{note}; {extra}" if extra else note, width="stretch")
    return gamma


def gamma_note(path: GammaPath, gamma: float) -> str:
    """The tree at ``gamma`` in words: its leaves and the slider's γ values that give the same tree.

    Along a γ path every change adds a split, so an equal leaf count is the
    same tree.
    """
    grid = GAMMA_GRID[GAMMA_GRID <= path.gamma_max]
    counts = path.n_leaves(grid)
    leaves = int(path.n_leaves(gamma))
    same = grid[counts == leaves]
    text = counted(leaves, "leaf", "leaves")
    if len(same) > 1:
        text += f"; the same tree for γ from {same[0]:.3f} to {same[-1]:.3f}"
    elif len(same) == 1:
        text += f"; this tree for γ = {same[0]:.3f} only"
    return text


def criterion_label(name: str) -> str:
    """A criterion's name for menus, e.g. "Ranking impurity (Xia et al. 2006)"."""
    return get_criterion(name).label


def criterion_subtitle(name: str) -> str:
    """The Ranking trees page's subtitle: Rebelo et al.'s trees, and the criterion they are split by."""
    criterion = get_criterion(name)
    origin = "the paper's own" if criterion.name == "mean_spearman" else f"from {criterion.source}"
    return ("Rebelo, Soares & Costa (2008): a decision tree whose leaves predict a ranking of the labels, "
            f"stopped by rule (6) with γ. Splitting criterion: **{criterion.title}**, {origin}.")


def limit_inputs(container: DeltaGenerator, key: str, note: str,
                 default_min_leaf: int = DEFAULT_MIN_LEAF) -> tuple[int, int]:
    """The "Minimum examples per leaf" and "Maximum depth" inputs of a tree's settings.

    Kept for the session; a value the user sets stays when the data set
    changes (:func:`rankviz.ui.defaults.user_set`). ``note`` ends the leaf
    size's help: what the paper or the library does.

    Returns
    -------
    (int, int)
        The leaf size, and the depth (0 = no limit).
    """
    min_leaf = container.number_input(
        "Minimum examples per leaf", 1, 1000, key=f"{key}_min_leaf", persist_state="session",
        on_change=user_set, args=(f"{key}_min_leaf",),
        help=f"Starts where the data set suggests so that the tree fits the screen: {default_min_leaf} "
             f"unless the sample says otherwise (2 for the 16 rows of the toy set). {note}")
    depth = container.number_input("Maximum depth (0 = no limit)", 0, 100, key=f"{key}_max_depth",
                                   persist_state="session", on_change=user_set, args=(f"{key}_max_depth",))
    return int(min_leaf), int(depth)


#: The tie tolerance a user starts from: a tenth of a position.
DEFAULT_TIE_TOLERANCE = 0.1


def tie_input(container: DeltaGenerator, key: str, aggregate: str) -> float | None:
    """The "Predict ties" switch and its tolerance; None while off (strict rankings, or bucket orders on partial ones).

    ``aggregate`` names what the leaves sort their labels by, for the help
    text (``"mean ranks"``, ``"mean Borda positions"``).
    """
    st.session_state.setdefault(f"{key}_ties", False)
    st.session_state.setdefault(f"{key}_tie_tolerance", DEFAULT_TIE_TOLERANCE)
    on = container.checkbox(
        "Predict ties (partial rankings)", key=f"{key}_ties", persist_state="session",
        help=f"Off: on strict rankings every leaf ranks all labels strictly, as the papers do (equal {aggregate} "
             "in label order); on partial rankings (most training rankings tie labels) every leaf predicts the "
             "bucket order of Alfaro, Aledo & Gámez (2021), ties included. "
             f"On: labels next to each other whose {aggregate} differ by at most the tolerance are tied, "
             "shown a > b = c, and scored as ties (Spearman's coefficient as Pearson's correlation of the "
             "positions, eq. 2 of Rebelo et al. 2008; Kendall's tau-b). The baselines tie the same way.")
    tolerance = container.number_input(
        "Tie tolerance (positions)", 0.0, 100.0, step=0.05, format="%.2f", key=f"{key}_tie_tolerance",
        persist_state="session", disabled=not on,
        help=f"Largest difference of {aggregate} of two neighbouring labels that still ties them; "
             "0 ties only equal ones. Ties chain: a ~ b and b ~ c tie all three.")
    return float(tolerance) if on else None


def tree_url_fields(key: str = "tree", prefix: str = "", order: bool = True) -> list[UrlField]:
    """The URL fields of :func:`tree_settings` (see :mod:`rankviz.ui.url_state`)."""
    fields = [
        UrlField(f"{prefix}criterion", f"{key}_criterion", choice(CRITERIA)),
        UrlField(f"{prefix}gamma", f"{key}_gamma", number(*GAMMA_RANGE, decimals=3),
                 show=lambda g: f"{g:.3f}"),
        UrlField(f"{prefix}min_leaf", f"{key}_min_leaf", number(1, 1000, integer=True)),
        UrlField(f"{prefix}max_depth", f"{key}_max_depth", number(0, 100, integer=True)),
        *tie_url_fields(key, prefix),
    ]
    if order:
        fields.append(UrlField(f"{prefix}order", f"{key}_order", choice(GROWTH_ORDERS)))
    return fields


def tie_url_fields(key: str, prefix: str = "") -> list[UrlField]:
    """The URL fields of :func:`tie_input`: ``ties=0.1`` while ties are predicted."""
    return [UrlField(f"{prefix}ties", f"{key}_ties", flag, show=lambda on: "1" if on else None),
            UrlField(f"{prefix}tie_tol", f"{key}_tie_tolerance", number(0.0, 100.0, decimals=2),
                     show=lambda t: None if t == DEFAULT_TIE_TOLERANCE else f"{t:g}")]


def fit_gamma_path(dataset: RankingDataset | SimpleNamespace, data_key: str, criterion: str,
                   min_samples_leaf: int, max_depth: int | None,
                   tie_tolerance: float | None = None) -> GammaPath:
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
    tie_tolerance : float or None, default=None
        The leaves' tie tolerance (:class:`rankviz.RankingTree`).

    Returns
    -------
    GammaPath
    """
    signature = ("gamma_path", data_key, criterion, min_samples_leaf, max_depth, tie_tolerance)

    def grow(progress: Callable[..., None]) -> GammaPath:
        model = RankingTree(criterion=criterion, gamma=np.inf, min_samples_leaf=min_samples_leaf,
                            max_depth=max_depth, tie_tolerance=tie_tolerance)
        model.fit(dataset.X, pd.DataFrame(dataset.Y, columns=list(dataset.label_names)))  # named labels
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
                  selected_key: str | None = None, on_select: Callable[[int], None] | None = None,
                  trace: Trace | None = None, label: str = "", basename: str = "ranking_tree") -> GrowthStep:
    """Play/pause, step and speed controls and the explorable drawing of the tree as it grows.

    The tree is grown once and laid out once, whole; the player replays its
    splits on that fixed drawing, the nodes not grown yet faded, so no node
    moves between steps. ``data_key`` and ``settings`` identify the tree:
    when they change the player starts over from the full tree. The node
    whose id (see :attr:`Tree.node_ids`) is in ``st.session_state[selected_key]``
    is outlined; ``on_select`` is called with the id of a clicked node;
    ``trace`` lights up one example's path. ``basename`` names the exported
    files (see :func:`rankviz.viz.graphviz.export_basename`). Returns the step
    on screen.

    While paused the drawing belongs to the caller's scope, so a page that
    calls the player inside an ``st.fragment`` together with the panels that
    follow the selected node reruns only that fragment on a click. While
    playing, the drawing runs in a fragment of its own that advances the
    step on a timer.
    """
    sequence = split_sequence(tree, settings.order)
    n_steps = len(sequence)
    # The steps the controls move between: every split, or (order "level") the
    # end of each depth level, so a tree of thousands of splits replays in
    # as many steps as it has levels.
    stops = level_stops(tree, sequence) if settings.order == "level" else np.arange(n_steps + 1)
    state = st.session_state
    step_key, playing_key, signature_key = f"{key}_step", f"{key}_playing", f"{key}_signature"
    hold_key = f"{key}_hold"  # set: the next tick shows the current step instead of advancing
    scrub_key = f"{key}_scrub"
    signature = (data_key, settings, settings.order)
    if state.get(signature_key) != signature:
        # New tree or order: show the whole tree, stop playing.
        state[signature_key] = signature
        state[step_key] = n_steps
        state[playing_key] = False
    state[step_key] = min(state[step_key], n_steps)

    def stop_index(step: int) -> int:
        """The index in ``stops`` of the last stop at or before ``step``."""
        return int(np.searchsorted(stops, step, side="right")) - 1

    def stop_after(step: int, by: int) -> int:
        """The stop ``by`` stops after (before, if negative) ``step``; a step between stops counts as its lower one."""
        here = stop_index(step)
        target = here + by if by > 0 or stops[here] == step else here
        return int(stops[max(0, min(len(stops) - 1, target))])

    def go(to: int) -> None:
        state[step_key] = max(0, min(n_steps, int(to)))
        state[playing_key] = False

    def move(by: int) -> None:
        go(stop_after(state[step_key], by))

    def toggle() -> None:
        if not state[playing_key] and state[step_key] >= n_steps:
            state[step_key] = 0  # play from the start, showing the root alone first
            state[hold_key] = True
        state[playing_key] = not state[playing_key] and n_steps > 0

    def to_selected() -> None:
        node = _split_step(tree, sequence, state.get(selected_key) if selected_key else None)
        if node is not None:
            go(node)

    level = settings.order == "level"
    unit = "level" if level else "split"
    speed_key, retime_key = f"{key}_speed", f"{key}_retime"

    def retime() -> None:
        if state[playing_key]:
            state[retime_key] = True  # the timer's period is the fragment's: the page reruns to change it

    def controls() -> int | None:
        """The player's row and the depth to draw to. Drawn with the tree, in the timer's fragment while
        playing: the scrub slider and the Pause button then follow every step."""
        playing = state[playing_key]
        # One row: the buttons as wide as their labels, the scrub slider takes the rest.
        row = st.container(horizontal=True, vertical_alignment="bottom", gap="small")
        row.button("Start", on_click=go, args=(0,), key=f"{key}_first", icon=":material/first_page:",
                   help="Back to the root alone")
        row.button("Back", on_click=move, args=(-1,), key=f"{key}_back", icon=":material/chevron_left:",
                   help=f"Undo the last {unit}")
        row.button("Pause" if playing else "Play", on_click=toggle, key=f"{key}_play",
                   icon=":material/pause:" if playing else ":material/play_arrow:", type="primary",
                   help=f"Replay the tree one {unit} at a time")
        row.button("Step", on_click=move, args=(1,), key=f"{key}_forward", icon=":material/chevron_right:",
                   help="Grow the next depth level" if level else "Make the next split")
        row.button("End", on_click=go, args=(n_steps,), key=f"{key}_last", icon=":material/last_page:",
                   help="The fully grown tree")
        # The scrub slider shows the step the other controls set; dragging it jumps there. While playing it
        # has another key: the timer's reruns carry the values the browser holds, and one sent just as a play
        # ends would otherwise drag the slider back to where the play started.
        scrubbed = scrub_key if not playing else f"{scrub_key}_playing"
        state[scrubbed] = stop_index(state[step_key])
        row.slider(
            "Depth level" if level else "Split", 0, max(1, len(stops) - 1), key=scrubbed, width="stretch",
            disabled=len(stops) < 2, on_change=lambda: go(stops[min(state[scrubbed], len(stops) - 1)]),
            help="Drag to any step of the growth: the tree up to that depth level." if level else
                 "Drag to any step of the growth: the tree after that many splits (in the growth order).")
        row.select_slider("Speed", list(SPEEDS), value="normal", key=speed_key, width=110, on_change=retime)
        return depth_control(tree, f"{key}_draw", signature)

    picked_key = f"{key}_picked"  # set by a click on a node while playing: the page follows

    def picked(node_id: int) -> None:
        state[picked_key] = True
        if on_select is not None:  # always: picked is handed on only with on_select
            on_select(node_id)

    def draw() -> GrowthStep:
        depth = controls()
        current = growth_step(tree, sequence, state[step_key])
        # (one line, cut with an ellipsis by the page style: a second line would move the tree between steps)
        status = st.container(horizontal=True, vertical_alignment="center", gap="small", key=f"{key}_growth_status")
        caption = _step_caption(current, n_steps)
        status.markdown(caption, width="stretch", help=caption)
        if selected_key is not None:
            # Shown while playing too (disabled), so that the row keeps its height and the tree does not move.
            chosen = state.get(selected_key)
            target = _split_step(tree, sequence, chosen)
            status.button(f"Grow to the split of #{chosen}" if target is not None else "Grow to the selected split",
                          on_click=to_selected, key=f"{key}_to_selected",
                          disabled=target is None or state[playing_key],
                          icon=":material/my_location:", type="tertiary",
                          help="Replay the growth up to the step that splits the selected node (for a leaf: "
                               "the split that made it).")
        grown = current.step < n_steps
        just_split = int(current.tree.node_ids[current.node]) if current.step > 0 else None
        fold_key = (data_key, settings.growth)
        _view_with_export(
            tree, key=key, tree_key=repr(signature), fold_key=fold_key, basename=basename, max_depth=depth,
            max_labels=None, ask_labels=True, partial=current if grown else None, n_steps=n_steps,
            selected=state.get(selected_key) if selected_key else None,
            current=just_split if grown else None,  # the whole tree opens on its root
            revealed=current.tree.node_ids if grown else None,
            on_select=(picked if state[playing_key] else on_select) if on_select is not None else None,
            trace=trace, label=label)
        return current

    if not state[playing_key]:
        # Drawn in the caller's scope: a click reruns the caller's fragment (the
        # view with its inspector, see pages/ranking_trees.py), not the page.
        return draw()

    @st.fragment(run_every=SPEEDS[state.get(speed_key, "normal")])
    def animated() -> GrowthStep:
        if state.pop(picked_key, False):
            state[playing_key] = False
            st.rerun()  # a click while playing pauses; the page and its inspector follow
        if not state[playing_key] or state.pop(retime_key, False):
            st.rerun()  # paused, stopped or a new speed: the whole page, and the timer, follow
        if state[step_key] >= n_steps:
            state[playing_key] = False
            st.rerun()  # whole page: the Play button and the timer follow
        if state.pop(hold_key, False) is False:
            state[step_key] = stop_after(state[step_key], 1)
        return draw()

    return animated()


def _split_step(tree: Tree, sequence: np.ndarray, node_id: int | None) -> int | None:
    """The step of ``sequence`` after which the node ``node_id`` (a stable id) is split; for a leaf, created.

    None when there is no such node, or for the root leaf of a tree without splits.
    """
    if node_id is None:
        return None
    found = np.flatnonzero(tree.node_ids == node_id)
    if not len(found):
        return None
    node = int(found[0])
    if tree.is_leaf[node]:
        node = int(parent_array(tree.children_left, tree.children_right)[node])
        if node < 0:
            return None
    return int(np.flatnonzero(sequence == node)[0]) + 1


def _step_caption(current: GrowthStep, n_steps: int) -> str:
    tree = current.tree
    if current.step == 0:
        caption = f"Step 0 of {n_steps}: the root alone."
    else:
        caption = (f"Step {current.step} of {n_steps}: split node #{tree.node_ids[current.node]} on "
                   f"**{md_escape(tree.test_text(current.node))}**.")
    return f"{caption} {counted(tree.n_leaves, 'leaf', 'leaves')}, depth {tree.max_depth}."


def explore_tree(tree: Tree, *, key: str, tree_key: str, fold_key: Hashable, basename: str,
                 group: str | None = None, legend: bool = True, max_labels: int | None = 4,
                 whole_leaves: int | None = None, cut_leaves: int | None = None,
                 left_to_right: bool = False) -> None:
    """A finished tree to explore: depth control, the view, its toggles and the Export button.

    Parameters
    ----------
    tree : Tree
    key : str
        Widget keys start with it.
    tree_key : str
        Identifies the tree (data and settings): a new one is fitted to the view.
    fold_key : hashable
        Folds are kept while it stays the same (:func:`collapsed_nodes`).
    basename : str
        File name of exports (:func:`rankviz.viz.graphviz.export_basename`).
    group, legend, max_labels
        As for :func:`show_tree`.
    whole_leaves, cut_leaves
        As for :func:`depth_control`.
    left_to_right : bool, default=False
        Start drawn left to right (the reader can switch).
    """
    @st.fragment
    def explore() -> None:
        # Its own scope: folding, a depth or a direction redraws this tree, not the page.
        depth = depth_control(tree, f"{key}_draw", whole_leaves=whole_leaves, cut_leaves=cut_leaves)
        _view_with_export(tree, key=key, tree_key=tree_key, fold_key=fold_key, basename=basename,
                          max_depth=depth, max_labels=max_labels, left_to_right=left_to_right, group=group,
                          legend=legend)

    explore()


def _view_with_export(tree: Tree, *, key: str, tree_key: str, fold_key: Hashable, basename: str,
                      max_depth: int | None, max_labels: int | None, left_to_right: bool = False,
                      ask_labels: bool = False, partial: GrowthStep | None = None, n_steps: int | None = None,
                      **view: Any) -> None:
    """The view (:func:`show_tree` with ``**view``), then its toggles and the Export button in one row.

    The export offers what the view shows (depth cut, folds, direction,
    strips, the inspected node and traced path) and, with ``partial`` (the
    player's step when it is not at the end), the tree at that step.
    ``ask_labels`` puts a "Labels per leaf" input in that row in place of ``max_labels``.
    """
    view_slot = st.container()  # above the row, though drawn after the toggles are read
    row = st.container(horizontal=True, vertical_alignment="center", gap="medium")
    strips, direction = view_options(tree, key, row, left_to_right=left_to_right)
    if ask_labels:
        max_labels = int(row.number_input(
            "Labels per leaf", 1, len(tree.label_names), min(4, len(tree.label_names)), key=f"{key}_labels",
            width=130, help="How many labels of each leaf's ranking to write, best first. Hovering a node "
                            "shows its whole ranking."))
    with view_slot:
        show_tree(tree, key=f"{key}_view", layout_key=tree_key, fold_key=fold_key, max_depth=max_depth,
                  max_labels=max_labels, rank_strips=strips, direction=direction, **view)
    trace = view.get("trace")
    screen = ScreenView(max_depth=max_depth, collapsed=present_folds(tree, f"{key}_view", fold_key),
                        direction=direction, rank_strips=strips, max_labels=_labels_shown(tree, max_labels),
                        selected=view.get("selected"), path=trace.path if trace else (),
                        step=partial.step if partial else None, n_steps=n_steps if partial else None)
    with row:
        tree_export(tree, key=f"{key}_export", tree_key=tree_key, basename=basename, view=screen,
                    partial=partial.tree if partial else None,
                    draw_options={"similarity_range": SIMILARITY_RANGE}, ordinal=tree.is_ordinal)


def _labels_shown(tree: Tree, max_labels: int | None) -> int | None:
    """``max_labels`` for the drawers: None when every label is written anyway."""
    return max_labels if max_labels and max_labels < len(tree.label_names) else None


def view_options(tree: Tree, key: str, container: DeltaGenerator | None = None, *,
                 left_to_right: bool = False) -> tuple[bool, str]:
    """Toggles of how the view draws a tree: mean-rank strips in the leaves, left to right.

    ``container``: where the toggles go (default: the page), e.g. a
    horizontal container they share with an Export button;
    ``left_to_right``: the direction it starts with.

    Returns
    -------
    (bool, str)
        Whether leaves show their strip, and the direction ``"TB"`` or ``"LR"``.
    """
    place = container if container is not None else st.container(horizontal=True)
    strips = not tree.is_ordinal and place.toggle(
        "Rank strips", key=f"{key}_strips",
        help="A strip in each leaf: every label's mean rank, labels in their own order, darkest first; "
             "leaves compare at a glance.")
    across = place.toggle("Left to right", value=left_to_right, key=f"{key}_lr",
                            help="Draw the tree from left to right.")
    return bool(strips), "LR" if across else "TB"


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


def present_folds(tree: Tree, key: str, fold_key: Hashable) -> tuple[int, ...]:
    """The folds of the view ``key`` that are nodes of ``tree`` (another γ may lack some), sorted."""
    return tuple(sorted(collapsed_nodes(key, fold_key) & {int(i) for i in tree.node_ids}))


@st.cache_data(show_spinner=False, max_entries=64)
def _layout(_tree: Tree, tree_key: str, collapsed: tuple[int, ...], max_depth: int | None,
            options: tuple[tuple[str, Any], ...]) -> TreeLayout:
    return layout_tree(_tree, collapsed=collapsed, max_depth=max_depth, **dict(options))


def show_tree(tree: Tree, *, key: str, layout_key: str, fold_key: Hashable, max_labels: int | None = 4,
              max_depth: int | None = None, selected: int | None = None, current: int | None = None,
              revealed: Any = None, on_select: Callable[[int], None] | None = None,
              trace: Trace | None = None, label: str = "", group: str | None = None,
              direction: str = "TB", legend: bool = True, rank_strips: bool = False) -> TreeLayout:
    """Draw a tree in the explorable view (:func:`rankviz.ui.tree_view.tree_view`).

    Folds made with the nodes' −/+ buttons are kept under ``key`` while
    ``fold_key`` stays the same; the layout is cached per ``layout_key``
    (the tree's identity), folds, depth and options. Returns the layout shown.
    """
    options = dict(similarity_range=SIMILARITY_RANGE, show_ids=True, direction=direction, legend=legend,
                   max_labels=_labels_shown(tree, max_labels))
    if not tree.is_ordinal:
        options["rank_strips"] = rank_strips
    layout = _layout(tree, layout_key, present_folds(tree, key, fold_key), max_depth,
                     tuple(sorted(options.items())))

    def toggle(node_id: int) -> None:
        collapsed_nodes(key, fold_key).symmetric_difference_update({node_id})

    # Another direction is another drawing: the view fits it anew.
    tree_view(layout, key=key, layout_key=f"{layout_key}|{direction}", label=label, selected=selected,
              current=current, revealed=revealed, path=trace.path if trace else None,
              trace={"node": trace.leaf, "lines": list(trace.lines)} if trace else None,
              on_select=on_select, on_toggle=toggle, group=group, direction=direction)
    return layout
