"""A ranking forest: bagged, randomised ranking trees voting by the Borda count; any tree of it, importance per label."""

import streamlit as st

from rankviz.ui.data_picker import data_table, dataset_picker, dataset_url_field
from rankviz.ui.evaluation_panel import evaluation_panel
from rankviz.ui.forest_panel import (IBLRSettings, fit_forest, forest_settings, forest_summary, forest_url_fields,
                                     importance_panel, tree_of_forest)
from rankviz.ui.tree_panel import TreeSettings
from rankviz.ui.url_state import publish_to_url, restore_from_url

st.title("Ranking forest")
st.caption("A random forest of ranking trees: each grown on rows drawn with replacement (bagging, Breiman 1996), "
           "each node searched on a fresh random subset of the features (Breiman 2001), ranking the labels by "
           "their mean position over the trees' predictions: the Borda count of the label ranking forests of "
           "de Sá, Soares, Knobbe & Cortez (2017). "
           "On rankings with ties the trees and their vote give bucket orders (Alfaro, Aledo & Gámez 2021).")

url_fields = [dataset_url_field(), *forest_url_fields()]
restore_from_url(url_fields, page="ranking_forest")
dataset, data_key = dataset_picker()
settings = forest_settings()
publish_to_url(url_fields)
if dataset is None:
    st.info("Choose a sample data set, or finish the upload in the sidebar.")
    st.stop()
assert data_key is not None  # dataset_picker gives a key with every data set

try:
    forest = fit_forest(dataset, data_key, settings)
except ValueError as error:
    st.error(f"The forest cannot be grown on this data: {error}")
    data_table(dataset)
    st.stop()

forest_summary(forest)
tree_of_forest(forest, dataset, data_key, settings)
data_table(dataset)

# Only the open tab is computed and drawn; its key keeps the reader's tab across reruns.
tab_importance, tab_compare = st.tabs(["Importance per label", "Forest against one tree, IBLR and the baselines"],
                                      key="forest_tab", on_change="rerun")
if tab_importance.open:
    with tab_importance:
        importance_panel(settings, dataset, data_key)
if tab_compare.open:
    with tab_compare:
        single = TreeSettings(settings.criterion, 0.995, 2, settings.max_depth, tie_tolerance=settings.tie_tolerance)
        st.caption(f"One tree: {single.describe()} (the library's defaults). IBLR: {IBLRSettings(None).describe()}.")
        evaluation_panel(dataset, data_key, {"Forest": settings, "One tree": single,
                                             "IBLR": IBLRSettings(settings.tie_tolerance)}, key="forest_eval")
