"""Ranking trees lab (Rebelo, Soares & Costa 2008): grow a tree, sweep γ, inspect nodes, compare with baselines."""

from dataclasses import replace

import streamlit as st

from rankviz.ui.data_picker import data_table, dataset_picker, dataset_url_field, picked_tree_defaults
from rankviz.ui.evaluation_panel import evaluation_panel
from rankviz.ui.gamma_panel import gamma_panel, held_out_note
from rankviz.ui.inspector_panel import INSPECTED_KEY, inspector_panel
from rankviz.ui.trace_panel import follow_row, holds_typed_values, trace_controls, trace_from_state
from rankviz.ui.tuning_panel import leaf_and_gamma_panel
from rankviz.ui.tree_panel import (TreeSettings, criterion_subtitle, fit_gamma_path, gamma_row, growth_player,
                                   tree_settings, tree_url_fields)
from rankviz.tree import Tree
from rankviz.ui.url_state import publish_to_url, restore_from_url
from rankviz.viz.graphviz import export_basename


st.title("Ranking trees")
subtitle = st.empty()  # names the criterion chosen in the sidebar

url_fields = [dataset_url_field(), *tree_url_fields()]
restore_from_url(url_fields, page="ranking_trees")
picked, picked_key = dataset_picker()
# γ has its slider above the tree, in the fragment below: a γ step reruns only what follows γ.
settings = tree_settings(suggested=picked_tree_defaults(), gamma_control=False)
subtitle.caption(criterion_subtitle(settings.criterion))
publish_to_url(url_fields)
if picked is None:
    st.info("Choose a sample data set, or finish the upload in the sidebar.")
    st.stop()
assert picked_key is not None  # dataset_picker gives a key with every data set
# Named anew once narrowed, for explore() below too: a type checker does not narrow globals in functions.
dataset, data_key = picked, picked_key


try:
    path = fit_gamma_path(dataset, data_key, *settings.growth)
except ValueError as error:  # e.g. a criterion that needs complete rankings
    st.error(str(error))
    data_table(dataset)
    st.stop()


def inspect(node_id: int) -> None:
    st.session_state[INSPECTED_KEY] = node_id


@st.fragment
def explore(tree: Tree, settings: TreeSettings) -> None:
    """The tree and what reads the tree at this γ: a click or a tab reruns only this."""
    trace = trace_from_state(dataset, data_key, tree)
    growth_player(tree, settings, data_key, selected_key=INSPECTED_KEY, on_select=inspect, trace=trace,
                  label="Click a node to open it in the Node inspector below; hover a node for its details. "
                        "Trace an example: the tab below.",
                  basename=export_basename(dataset.name, settings.criterion, settings.gamma))
    # Only the open tab is computed and drawn: a γ step or a click waits for what the reader sees.
    tab_inspect, tab_trace, tab_eval = st.tabs(["Node inspector", "Trace an example", "Evaluation"],
                                               key="explore_tab", on_change="rerun")
    if tab_inspect.open:
        with tab_inspect:
            inspector_panel(dataset, data_key, tree, settings, on_trace=follow_row)
    if tab_trace.open or holds_typed_values():
        with tab_trace:
            trace_controls(dataset, data_key, tree, trace)
    if tab_eval.open:
        with tab_eval:
            evaluation_panel(dataset, data_key, {"Ranking tree": settings})


@st.fragment
def study() -> None:
    """γ and the tree at γ: a γ step reruns this, not the data picker, the γ path or the data table."""
    gamma = gamma_row(path, also=lambda gamma: held_out_note(gamma, data_key, settings.growth))
    at_gamma = replace(settings, gamma=gamma)
    publish_to_url(url_fields)
    explore(path.tree_at(at_gamma.gamma), at_gamma)


@st.fragment
def tune() -> None:
    """The γ path: all of γ at once, so a γ step leaves it as it is (its own controls rerun only it)."""
    st.subheader("γ path", anchor=False)
    gamma_panel(dataset, data_key, settings, path)
    st.subheader("Leaf size and γ together", anchor=False)
    leaf_and_gamma_panel(dataset, data_key, settings)


study()
tune()
data_table(dataset)
