"""Mallows label ranking trees (Cheng, Hühn & Hüllermeier 2009): the LRT grown live, its leaves, and §6's experiments."""

import math

import streamlit as st

from rankviz.ui.data_picker import data_table, dataset_picker, dataset_url_field, picked_tree_defaults
from rankviz.ui.mallows_panel import (
    KEY, LRT_EXPLANATION, compare_panel, describe_lrt, fit_lrt, leaves_panel, lrt_settings,
    lrt_url_fields, missing_label_controls, missing_rate_panel, training_data, tree_size_panel,
)
from rankviz.ui.tree_panel import growth_player
from rankviz.ui.url_state import publish_to_url, restore_from_url
from rankviz.viz.graphviz import export_basename


st.title("Mallows label ranking trees")
st.caption("Cheng, Hühn & Hüllermeier (2009): a decision tree whose nodes fit a Mallows "
           "model to their rankings, split to make the subsets' rankings agree (small weighted impurity 1/(1 + θ), §5.1), with "
           "rankings that may lack labels; compared with instance-based label ranking (IBLR) and "
           "constraint classification (CC).")

url_fields = [dataset_url_field(), *lrt_url_fields()]
restore_from_url(url_fields, page="mallows_trees")
dataset, data_key = dataset_picker()
rate, deletion_seed = missing_label_controls()
caption_slot = st.sidebar.empty()
settings = lrt_settings(suggested=picked_tree_defaults())
publish_to_url(url_fields)
if dataset is None:
    st.info("Choose a sample data set, or finish the upload in the sidebar.")
    st.stop()
assert data_key is not None  # dataset_picker gives a key with every data set

training = training_data(dataset, data_key, rate, deletion_seed)
caption_slot.caption(training.caption())

try:
    tree = fit_lrt(training, settings)
except ValueError as error:
    st.error(f"The label ranking tree cannot be grown on this data: {error}")
    data_table(dataset)
    st.stop()

grown_on = ("the complete rankings" if rate == 0 else
            f"rankings with {training.deleted:,} of {training.present:,} labels deleted "
            f"(p = {rate:g})")
limits = describe_lrt(settings.min_samples_leaf, settings.max_depth, settings.gamma, settings.tie_tolerance)
st.markdown(f"**Label ranking tree** ({limits}) grown on {grown_on}.")
st.fragment(growth_player)(tree, settings, training.key, key=KEY,  # folds and steps redraw the tree alone
                          basename=export_basename(dataset.name, "mallows",
                                                   settings.gamma if math.isfinite(settings.gamma) else None))
st.caption(LRT_EXPLANATION)
data_table(dataset)

# Only the open tab is computed and drawn; its key keeps the reader's tab across reruns.
tab_leaves, tab_compare, tab_curve, tab_size = st.tabs(
    ["Leaves", "Compare methods", "Missing labels (Fig. 1)", "Tree size (Table 2)"],
    key=f"{KEY}_tab", on_change="rerun")
if tab_leaves.open:
    with tab_leaves:
        leaves_panel(tree, training)
if tab_compare.open:
    with tab_compare:
        compare_panel(dataset, data_key, settings, rate)
if tab_curve.open:
    with tab_curve:
        missing_rate_panel(dataset, data_key, settings)
if tab_size.open:
    with tab_size:
        tree_size_panel(dataset, data_key, settings, training)
