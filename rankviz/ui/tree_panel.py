"""Tree settings, growth player, graphviz drawing and image export for the pages."""

from dataclasses import dataclass

import streamlit as st

from ..builder import growth_step, split_sequence
from ..criteria import CRITERIA
from ..ranking_tree import RankingTree
from ..render import EXPORT_FORMATS, RenderError, available_engines, render, tree_to_dot

SPEEDS = {"slow": 2.0, "normal": 1.0, "fast": 0.4}
DEFAULT_MIN_LEAF = 10
# Mean Spearman similarities of useful nodes lie in (0, 1): spend the colour
# scale there (lower values get the lightest colour).
SIMILARITY_RANGE = (0.0, 1.0)


@dataclass(frozen=True)
class TreeSettings:
    """What the user chose in the sidebar: everything that defines a fitted tree."""

    criterion: str
    gamma: float
    min_samples_leaf: int
    max_depth: int | None
    order: str

    def estimator(self):
        return RankingTree(criterion=self.criterion, gamma=self.gamma,
                           min_samples_leaf=self.min_samples_leaf, max_depth=self.max_depth)


def tree_settings(container=None, key="tree"):
    """Sidebar widgets for the criterion, γ, limits and growth order."""
    container = container or st.sidebar
    container.subheader("Tree")
    criterion = container.selectbox(
        "Splitting criterion", list(CRITERIA), key=f"{key}_criterion",
        help="mean_spearman: the size-weighted mean of the mean pairwise Spearman "
             "correlation in the two subsets (seed 001).")
    gamma = container.slider(
        "γ (stopping parameter)", min_value=0.90, max_value=1.05, value=0.995, step=0.001,
        format="%.3f", key=f"{key}_gamma",
        help="A node is split only if (1 + S_parent) < γ (1 + S_split), rule (6) of seed 001. "
             "Lower γ stops earlier; above 1 even splits that lower the similarity are made.")
    min_leaf = container.number_input(
        "Minimum examples per leaf", 1, 1000, DEFAULT_MIN_LEAF, key=f"{key}_min_leaf",
        help="The page starts at 10 so that the tree fits the screen; the library's default is 2 "
             "(the similarity of a single example, a mean over no pairs, is undefined).")
    depth = container.number_input("Maximum depth (0 = no limit)", 0, 100, 0, key=f"{key}_max_depth")
    order = container.radio(
        "Growth order", ["depth", "best"], key=f"{key}_order", horizontal=True,
        format_func={"depth": "depth-first", "best": "best-first"}.get,
        help="The order in which the player reveals the splits. The final tree is the same.")
    return TreeSettings(criterion, float(gamma), int(min_leaf), int(depth) or None, order)


@st.cache_data(show_spinner="Growing the tree…", max_entries=64)
def fit_tree(_dataset, data_key, settings):
    """Fit (cached per data set and settings) and return the fitted Tree."""
    model = settings.estimator().fit(_dataset.X, _dataset.Y, label_names=_dataset.label_names)
    return model.tree_


def growth_player(tree, settings, data_key, key="tree"):
    """Play/pause, step and speed controls and the drawing of the tree as it grows.

    The tree is grown once; the player replays its splits one at a time.
    ``data_key`` and ``settings`` identify the tree: when they change the
    player starts over from the full tree. Returns the step on screen.
    """
    sequence = split_sequence(tree, settings.order)
    n_steps = len(sequence)
    state = st.session_state
    step_key, playing_key, signature_key = f"{key}_step", f"{key}_playing", f"{key}_signature"
    hold_key = f"{key}_hold"  # set: the next tick shows the current step instead of advancing
    signature = (data_key, settings)
    if state.get(signature_key) != signature:
        # New tree or order: show the whole tree, stop playing.
        state[signature_key] = signature
        state[step_key] = n_steps
        state[playing_key] = False
    state[step_key] = min(state[step_key], n_steps)

    def go(to):
        state[step_key] = max(0, min(n_steps, to))
        state[playing_key] = False

    def toggle():
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
                                 help="How many labels of each leaf's ranking to write, best first.")

    @st.fragment(run_every=SPEEDS[speed] if state[playing_key] else None)
    def animated():
        if state[playing_key]:
            if state[step_key] >= n_steps:
                state[playing_key] = False
                st.rerun()  # whole page: the Play button and the timer follow
            if state.pop(hold_key, False) is False:
                state[step_key] += 1
        current = growth_step(tree, sequence, state[step_key])
        dot = _draw(current, n_steps, shown)
        export_buttons(dot, key=f"{key}_export")
        return current

    return animated()


def _draw(current, n_steps, max_labels):
    tree = current.tree
    if current.step == 0:
        caption = f"Step 0 of {n_steps}: the root alone."
    else:
        caption = (f"Step {current.step} of {n_steps}: split node {current.node} on "
                   f"**{tree.test_text(current.node)}**.")
    leaves = "1 leaf" if tree.n_leaves == 1 else f"{tree.n_leaves} leaves"
    st.markdown(f"{caption} {leaves}, depth {tree.max_depth}.")
    # Highlight the node just split while the tree is growing, not on the finished tree.
    growing = 0 < current.step < n_steps
    dot = tree_to_dot(tree, highlight=current.node if growing else None,
                      max_labels=max_labels if max_labels < len(tree.label_names) else None,
                      similarity_range=SIMILARITY_RANGE)
    st.graphviz_chart(dot, width="stretch")
    if tree.n_leaves > 25:
        st.caption("A large tree is drawn small: raise the minimum examples per leaf or lower γ, "
                   "or export it as SVG or PDF and zoom there.")
    return dot


def export_buttons(dot, basename="ranking_tree", key="export"):
    """Download buttons for the DOT text and the SVG, PNG and PDF images of a tree.

    Images are made only when a button is pressed, with the real Graphviz
    ``dot`` when it is installed and the bundled pure renderer otherwise.
    """
    engines = available_engines()
    engine = "dot" if "dot" in engines else "pure"
    cols = st.columns(len(EXPORT_FORMATS) + 1)
    cols[0].markdown(f"**Export** <small>({'Graphviz dot' if engine == 'dot' else 'graphviz-pure'})</small>",
                     unsafe_allow_html=True)
    for col, (fmt, (mime, extension)) in zip(cols[1:], EXPORT_FORMATS.items()):
        col.download_button(
            f"{fmt.upper()}", data=_deferred(dot, fmt, engine), file_name=f"{basename}.{extension}",
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
