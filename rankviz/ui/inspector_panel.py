"""The node inspector: why a node splits where it does, or why it stops (Rebelo, Soares & Costa 2008).

The candidate table follows Table 2 of Rebelo et al. and the stop follows
their rule (6).

References
----------
.. [1] C. Rebelo, C. Soares and J. Pinto da Costa, "Empirical evaluation of
       ranking trees on some metalearning problems", Proceedings of the 2nd
       Planning to Learn Workshop (PlanLearn) at ICML/COLT/UAI 2008, 2008.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import streamlit as st

from ..safe_csv import safe_csv
from ..tree.criteria import get_criterion
from ..features import FeatureEncoder
from ..tree.node_inspection import inspect_node, leaf_reason, ordered_rows
from ..viz.figures.ranking_trees import rank_heatmap, threshold_curve
from .page_style import shade_rows
from .text import counted, md_escape

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd
    import plotly.graph_objects as go

    from ..datasets.label_ranking import RankingDataset
    from ..tree.node_inspection import NodeInspection, NodeRows
    from ..tree.structure import Tree
    from .tree_panel import TreeSettings

#: The heat map of a node's rankings draws at most this many rows (evenly spaced
#: in its order beyond that): more would be thinner than a pixel.
HEATMAP_ROWS = 300
#: The inspector's sections (tabs below rule (6)), in order; the first is open at first.
SECTIONS = ("Candidate splits", "Threshold curve", "Rankings in the node")
#: Session-state key of the inspected node (an id of :attr:`Tree.node_ids`,
#: stable while γ moves), read by the tree drawing to outline it.
INSPECTED_KEY = "inspect_node"
# Table 2's columns (condition and negated condition, each with its
# similarity), then the weighted score and rule (6). The attribute's name is
# part of the condition, so it gets no column of its own.
_TABLE_COLUMNS = {
    "condition": "Condition", "n_meet": "n (yes)", "similarity_meet": "S (yes)",
    "negated": "Negated condition", "n_rest": "n (no)", "similarity_rest": "S (no)",
    "score": "S_split", "search_score": "Search score", "accepted": "Rule (6)",
    "gamma_breakpoint": "Splits for γ >", "margin": "Margin",
}


@st.cache_resource(show_spinner=False, max_entries=8)
def feature_encoder(_dataset: RankingDataset, data_key: str) -> FeatureEncoder:
    """The encoder the tree learns from the training features (read only)."""
    return FeatureEncoder().fit(_dataset.X)


@st.cache_data(show_spinner=False, max_entries=8)
def encoded_features(_dataset: RankingDataset, data_key: str) -> np.ndarray:
    """The training features as the tree sees them (the encoding is deterministic)."""
    return feature_encoder(_dataset, data_key).transform(_dataset.X)


def inspector_panel(dataset: RankingDataset, data_key: str, tree: Tree, settings: TreeSettings,
                    key: str = "inspect", on_trace: Callable[[int], None] | None = None) -> None:
    """Pick a node; show rule (6), and its candidate splits, threshold curve or rankings in tabs.

    Parameters
    ----------
    dataset : RankingDataset
        The training data of ``tree``.
    data_key : str
        Identifies ``dataset`` (for caching its encoded features).
    tree : Tree
        The fitted tree structure on the page (at the settings' γ).
    settings : TreeSettings
        The tree's settings: minimum leaf size and γ of the inspection.
    key : str, default="inspect"
        Prefix of the widget keys.
    on_trace : callable, optional
        Called with a training row's index (0-based) when the user asks to
        follow one of the heat map's rows through the tree.
    """
    state = st.session_state
    ids = [int(i) for i in tree.node_ids]
    if state.get(INSPECTED_KEY) not in ids:
        if state.get(INSPECTED_KEY) is not None:
            st.caption(f"Node #{state[INSPECTED_KEY]} is not in the tree at γ = {settings.gamma:.3f}; "
                       "showing the root.")
        state[INSPECTED_KEY] = 0
    titles = _node_titles(tree, (data_key, settings))
    chosen_id = st.selectbox(
        "Node", ids, key=INSPECTED_KEY, format_func=titles.__getitem__, persist_state="page",
        help="Node ids are written in the tree above (#id). They stay the same while γ moves.")
    node = ids.index(chosen_id)
    tree_key = (data_key, settings)
    inspection = _inspection(tree, dataset, tree_key, node)

    _rule_6(tree, node, inspection, settings)
    # Only the open section is computed and drawn: a click on a node waits for what the
    # reader sees, not for charts in hidden tabs (each plotly chart costs the browser 30-80 ms
    # per redraw; docs/design.md). The open section stays open from node to node.
    table, curve, rankings = st.tabs(list(SECTIONS), key=f"{key}_section", on_change="rerun")
    if table.open:
        with table:
            _candidate_table(inspection, settings, key, tree_key)
    if curve.open:
        with curve:
            _threshold_curves(tree, node, inspection, settings, key, tree_key)
    if rankings.open:
        with rankings:
            _rankings(dataset, tree_key, tree, node, inspection, key, on_trace)


# What a node costs is kept per (tree, node): going back to a node answers at once. The
# values are read only (shared between sessions, as st.cache_resource keeps them), and
# ``tree_key`` (data and settings, γ included) stands for the tree and its data.

@st.cache_resource(show_spinner=False, max_entries=64)
def _inspection(_tree: Tree, _dataset: RankingDataset, tree_key: tuple[str, TreeSettings], node: int) -> NodeInspection:
    data_key, settings = tree_key
    return inspect_node(_tree, encoded_features(_dataset, data_key), _dataset.Y, node,
                        min_samples_leaf=settings.min_samples_leaf, gamma=settings.gamma)


@st.cache_resource(show_spinner=False, max_entries=64)
def _heatmap(_tree: Tree, _dataset: RankingDataset, _inspection: NodeInspection, tree_key: tuple[str, TreeSettings],
             node: int) -> tuple[go.Figure, NodeRows, list[str]]:
    """The node's heat map, the rows it draws and the leaf of each row (``#id``)."""
    data_key, _ = tree_key
    listed = ordered_rows(_tree, encoded_features(_dataset, data_key), _dataset.Y, _inspection,
                          max_rows=HEATMAP_ROWS)
    leaf_ids = [f"#{_tree.node_ids[leaf]}" for leaf in listed.leaves]
    figure = rank_heatmap(_dataset.Y[listed.rows], _tree.label_names, _inspection.ranking, _inspection.mean_rank,
                          example_ids=[str(i + 1) for i in listed.rows], groups=leaf_ids,
                          n_examples=listed.n_rows)
    return figure, listed, leaf_ids


@st.cache_resource(show_spinner=False, max_entries=64)
def _threshold_figure(_tree: Tree, _inspection: NodeInspection, tree_key: tuple[str, TreeSettings], node: int,
                      feature: int) -> go.Figure:
    _, settings = tree_key
    chosen = float(_tree.split_threshold[node]) if _tree.split_feature[node] == feature else None
    return threshold_curve(_inspection.candidates, feature, chosen_threshold=chosen,
                           similarity_parent=_inspection.similarity, gamma=settings.gamma,
                           similarity_label=_tree.similarity_label)


def _rankings(dataset: RankingDataset, tree_key: tuple[str, TreeSettings], tree: Tree, node: int,
              inspection: NodeInspection, key: str, on_trace: Callable[[int], None] | None = None) -> None:
    """The heat map of the node's rankings, sorted (and thinned past :data:`HEATMAP_ROWS`), and its caption."""
    figure, listed, leaf_ids = _heatmap(tree, dataset, inspection, tree_key, node)
    st.plotly_chart(figure, key=f"{key}_heatmap")
    bands = len(set(leaf_ids))
    order = ("Rows in bands by the leaf they reach (left to right in the tree, named at the right), "
             "each band closest to this node's ranking first"
             if bands > 1 else "Rows closest to this node's ranking first")
    thinned = (f"; {counted(len(listed.rows), 'row')} of {listed.n_rows:,}, evenly spaced in this order"
               if listed.thinned else "")
    if on_trace is not None:
        # The heat map's rows, in its order: one of them followed through the tree.
        band = dict(zip(listed.rows, leaf_ids))
        cols = st.columns([3, 1], vertical_alignment="bottom")
        row = cols[0].selectbox(
            "A row of this heat map", [int(r) for r in listed.rows], key=f"{key}_trace_pick",
            format_func=lambda r: f"row {r + 1} (leaf {band[r]})",
            help="In the heat map's order, top first; hover a cell to read its row.")
        cols[1].button("Trace it", key=f"{key}_trace_it", on_click=on_trace, args=(row,),
                       icon=":material/route:", width="stretch",
                       help="Light up this row's path in the tree (tab Trace an example).")
    st.caption(f"{order}{thinned}. Hover a cell for the example's row number, which **Trace an example** "
               f"follows through the tree. Predicted ranking of node #{tree.node_ids[node]}: "
               f"**{md_escape(tree.ranking_text(node))}**, the labels sorted by their mean position over "
               "the node's rows (ties by label order).")


@st.cache_data(show_spinner=False, max_entries=16)
def _node_titles(_tree: Tree, tree_key: tuple[str, TreeSettings]) -> dict[int, str]:
    """Every node's title for the Node menu, by node id; kept per tree (``tree_key``: data and settings).

    Thousands of nodes (a large upload) take a ranking text each: worth
    computing once per tree rather than on every click.
    """
    return {int(node_id): _node_title(_tree, k) for k, node_id in enumerate(_tree.node_ids)}


def _node_title(tree: Tree, node: int) -> str:
    kind = tree.test_text(node) if not tree.is_leaf[node] else f"leaf: {tree.ranking_text(node)}"
    if len(kind) > 60:
        kind = kind[:57] + "…"
    return f"#{tree.node_ids[node]} · {kind} (n = {tree.n_samples[node]})"


def _rule_6(tree: Tree, node: int, inspection: NodeInspection, settings: TreeSettings) -> None:
    """Rule (6) with the node's own numbers, and what the tree did."""
    gamma = settings.gamma
    s_parent = inspection.similarity
    cols = st.columns(4)
    cols[0].metric("Examples", inspection.n_samples)
    cols[1].metric("S_parent", f"{s_parent:z.4f}", help=tree.similarity_label)
    # Why a leaf is one, unless rule (6) itself stopped it: its arithmetic below says so.
    stop = leaf_text(tree, inspection, settings) if _leaf_reason(tree, inspection, settings) != "rule_6" else None
    if inspection.best is None:
        cols[2].metric("Best S_split", "—")
        cols[3].metric("Splits for γ >", "—")
        st.info(f"Node #{tree.node_ids[node]} has no candidate split, so it is a leaf for every γ: "
                f"{stop or 'no test of an attribute leaves enough examples on each side'}.")
        return
    best = inspection.best
    s_split = inspection.best_score
    cols[2].metric("Best S_split", f"{s_split:z.4f}", help=f"{md_escape(best['condition'])}: the weighted mean "
                   "similarity of the two subsets")
    cols[3].metric("Splits for γ >", _format_gamma(inspection.breakpoint),
                   help="(1 + S_parent) / (1 + S_split): rule (6) solved for γ")
    left, right = inspection.parent_side, inspection.split_side()
    makes = inspection.splits
    st.markdown(
        f"**Rule (6)** stops when $(1 + S_{{parent}}) \\ge \\gamma\\,(1 + S_{{split}})$. Here "
        f"$(1 + {s_parent:z.4f}) = {left:.4f}$ and "
        f"${gamma:.3f} \\times (1 + {s_split:z.4f}) = {right:.4f}$, so "
        + (f"${left:.4f} < {right:.4f}$: the best split, **{md_escape(best['condition'])}**, is made."
           if makes else
           f"${left:.4f} \\ge {right:.4f}$: the rule stops; the node stays a leaf."))
    if stop:
        st.info(f"Node #{tree.node_ids[node]} is a leaf: {stop}.")


def leaf_text(tree: Tree, inspection: NodeInspection, settings: TreeSettings) -> str | None:
    """Why the inspected node is a leaf, as a phrase (:func:`rankviz.tree.node_inspection.leaf_reason`).

    None for a node that is split (or when the reason cannot be told: a tree
    grown with other settings).
    """
    reason = _leaf_reason(tree, inspection, settings)
    m = inspection.min_samples_leaf
    if reason == "max_depth":
        return f"the maximum depth, {settings.max_depth}, stops it"
    if reason == "pure":
        return "all its rankings agree"
    if reason == "criterion":
        return ("the splitting criterion does not split so few rankings (the Mallows criterion needs at "
                "least 2|Y| label occurrences, Cheng et al.)")
    if reason == "min_samples_leaf":
        return (f"with {counted(inspection.n_samples, 'example')} it cannot make two leaves of at least "
                f"{m} (the minimum examples per leaf)")
    if reason == "no_valid_split":
        return f"no test of an attribute leaves at least {counted(m, 'example')} on each side"
    if reason == "rule_6":
        best_split = inspection.best
        assert best_split is not None  # rule (6) judged the node's best split
        best = md_escape(best_split["condition"])
        if not math.isfinite(inspection.breakpoint):
            return f"rule (6) stops it for every γ: its best split, **{best}**, has S_split = −1"
        return (f"rule (6) stops it at γ = {settings.gamma:.3f}: its best split, **{best}**, is made only "
                f"for γ > {inspection.breakpoint:.4f}")
    return None


def _leaf_reason(tree, inspection, settings):
    try:
        return leaf_reason(tree, inspection, max_depth=settings.max_depth)
    except ValueError:  # a tree of other settings: say nothing rather than something wrong
        return None


def single_leaf_note(dataset: RankingDataset, data_key: str, tree: Tree, settings: TreeSettings) -> str | None:
    """Why a tree is a single leaf, as a sentence for a caption; None when it has more leaves."""
    if tree.n_leaves > 1:
        return None
    inspection = inspect_node(tree, encoded_features(dataset, data_key), dataset.Y, 0,
                              min_samples_leaf=settings.min_samples_leaf, gamma=settings.gamma)
    why = leaf_text(tree, inspection, settings)
    return f"The tree is its root alone: {why}." if why else None


def _candidate_table(inspection: NodeInspection, settings: TreeSettings, key: str,
                     tree_key: tuple[str, TreeSettings]) -> None:
    table = inspection.candidates
    view = st.radio("Show", ["per_attribute", "all"], horizontal=True, key=f"{key}_view",
                    persist_state="session",
                    format_func={"per_attribute": "best threshold per numeric attribute (Table 2 style)",
                                 "all": f"all {counted(len(table), 'candidate')}"}.get)
    if view == "per_attribute":
        # Nominal attributes keep every value (as Table 2 does); numeric ones their best threshold.
        nominal = table["kind"] == "nominal"
        best_numeric = table[~nominal].drop_duplicates("feature")  # table is best first
        table = table[nominal | table.index.isin(best_numeric.index)]
    shown = table[[c for c in _TABLE_COLUMNS if c in table]].rename(columns=_TABLE_COLUMNS)
    if "Rule (6)" in shown:
        shown["Rule (6)"] = shown["Rule (6)"].map({True: "split", False: "stop"})
    chosen = inspection.chosen

    st.dataframe(
        shade_rows(shown, lambda row: row.name == chosen).format(
            {"S (yes)": "{:z.4f}", "S (no)": "{:z.4f}", "S_split": "{:z.4f}", "Search score": "{:z.4f}",
             "Margin": "{:.3g}", "Splits for γ >": _format_gamma}),
        hide_index=True, height=min(400, 38 + 35 * len(shown)),
        # the condition stays in view while the table scrolls to rule (6), its γ and the margin (1280 px)
        column_config={"Condition": st.column_config.TextColumn(pinned=True),
                       "Margin": st.column_config.NumberColumn(
                           help="The gap the threshold lies in over the node's range of its attribute (0 for "
                                "a nominal test). Of splits that score alike, the tree takes the widest margin.")})
    search = get_criterion(settings.criterion).search_label
    st.caption("Best first. n and S: examples and similarity of those that meet the condition (the "
               "tree's \"yes\" branch) and of the rest (\"no\"); S_split is their size-weighted mean. "
               + (f"The search picks the highest search score, {search}; rule (6) judges its S_split. "
                  if search else "")
               + f"Rule (6) at γ = {settings.gamma:.3f}: split or stop. Of splits that score alike, the "
               "widest margin (the gap a threshold lies in, over the node's range) goes first. "
               + ("The tree's split is shaded." if chosen is not None else ""))
    # Made in the run, once per (tree, node): a file made on click can arrive cancelled when
    # other sessions run (rankviz.ui.export_panel._buttons). In a popover, because the browser
    # fetches a drawn download button's whole file each time its address changes (every node and
    # γ here, ~40 ms of the server's event loop to compress it), and a closed popover draws nothing.
    with st.popover("Download", icon=":material/download:"):
        st.download_button(f"All {counted(len(inspection.candidates), 'candidate')} (CSV)",
                           _candidates_csv(tree_key, inspection.node, inspection),
                           file_name=f"node_{inspection.node}_candidates.csv", mime="text/csv",
                           key=f"{key}_csv", on_click="ignore", icon=":material/download:")


@st.cache_data(show_spinner=False, max_entries=64)
def _candidates_csv(tree_key: tuple[str, TreeSettings], node: int, _inspection: NodeInspection) -> bytes:
    return safe_csv(_inspection.candidates).encode()


def _format_gamma(value: float) -> str:
    return "never" if not math.isfinite(value) else f"{value:.4f}"


def _threshold_curves(tree: Tree, node: int, inspection: NodeInspection, settings: TreeSettings,
                      key: str, tree_key: tuple[str, TreeSettings]) -> None:
    numeric = inspection.candidates[inspection.candidates["kind"] == "numeric"]
    if numeric.empty:
        st.caption("No numeric attribute has a threshold to plot in this node.")
        return
    # Attributes in the order of their best threshold, so the node's own split comes first.
    attributes = list(dict.fromkeys(numeric["attribute"]))
    # Keyed by node: another node opens on its own best attribute.
    attribute = st.selectbox("Threshold curve of", attributes, key=f"{key}_attribute_{tree.node_ids[node]}",
                             help="Every threshold of one numeric attribute, scored as a split of this node.")
    feature = int(numeric.loc[numeric["attribute"] == attribute, "feature"].iloc[0])
    chosen = float(tree.split_threshold[node]) if tree.split_feature[node] == feature else None
    st.plotly_chart(_threshold_figure(tree, inspection, tree_key, node, feature), key=f"{key}_curve")

    search = get_criterion(settings.criterion).search_label
    if search and chosen is not None:
        st.caption(f"This criterion picks the threshold with the highest search score ({search}), "
                   "so the chosen threshold need not be where S_split peaks; the candidate table "
                   "lists both.")
