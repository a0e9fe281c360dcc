"""Ranking trees lab (seed 001): grow a tree node by node, export it, compare it with baselines."""

import streamlit as st

from rankviz.ui.data_picker import dataset_picker
from rankviz.ui.evaluation_panel import evaluation_panel
from rankviz.ui.tree_panel import fit_tree, growth_player, tree_settings

st.title("Ranking trees")
st.caption("Rebelo, Soares & Costa (2008): a decision tree whose leaves predict a ranking of the "
           "labels, split by the mean Spearman correlation and stopped by rule (6) with γ.")

dataset, data_key = dataset_picker()
settings = tree_settings()
if dataset is None:
    st.info("Choose a sample data set, or finish the upload in the sidebar.")
    st.stop()

with st.expander(f"Data: {dataset.name} — {dataset.n_samples} examples, "
                 f"{len(dataset.feature_names)} attributes, {dataset.n_labels} labels"):
    st.write(dataset.description)
    st.dataframe(dataset.to_frame(), height=240)

try:
    tree = fit_tree(dataset, data_key, settings)
except ValueError as error:  # e.g. a criterion that needs complete rankings
    st.error(str(error))
    st.stop()

tab_tree, tab_eval = st.tabs(["Tree", "Evaluation"])
with tab_tree:
    growth_player(tree, settings, data_key)
with tab_eval:
    evaluation_panel(dataset, data_key, settings)
