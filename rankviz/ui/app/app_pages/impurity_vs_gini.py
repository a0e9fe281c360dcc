"""Ranking impurity vs Gini (Xia, Zhang & Wang 2006): two trees on the same data, Monte Carlo runs, Fig. 1 taught."""

import streamlit as st

from rankviz.ui.data_picker import dataset_picker, dataset_url_field
from rankviz.ui.evaluation_panel import evaluation_panel
from rankviz.ui.monte_carlo_panel import monte_carlo_panel, noise_panel
from rankviz.ui.ordinal_data_picker import ordinal_data_picker
from rankviz.ui.ordinal_tree_panel import (
    DATA_KINDS, draw_split, encoded_features, fit_ordinal_trees, holdout_controls, holdout_url_fields,
    ordinal_tree_pair, ordinal_tree_settings, ordinal_url_fields, ranking_tree_pair,
    synthetic_controls, synthetic_url_fields,
)
from rankviz.experiments.monte_carlo import HoldoutSource, SyntheticSource
from rankviz.experiments.teaching import label_ranking_node_levels, ordinal_node_levels
from rankviz.ui.teaching_panel import teaching_panel
from rankviz.ui.text import counted, md_escape
from rankviz.ui.url_state import UrlField, choice, publish_to_url, restore_from_url
from rankviz.viz.figures.ordinal import level_count_chart


st.title("Ranking impurity vs Gini")
st.caption("Xia, Zhang & Wang (2006): a tree for ordinal targets split by the **ranking "
           "impurity** $\\sum_{i<j} (j - i) N_i N_j$ (Definition 2; unweighted gain, eq. 1) against "
           "the classification tree's **Gini** impurity $1 - \\sum_i p_i^2$ (Definition 1; gain "
           "weighted by the children's shares). Both trees are grown on the same rows with the "
           "same limits.")

kind_field = UrlField("kind", "ivg_kind", choice(DATA_KINDS))
fields = {"synthetic": synthetic_url_fields(), "ordinal": holdout_url_fields(),
          "ranking": [dataset_url_field()]}
tree_fields = ordinal_url_fields()
restore_from_url([kind_field, *fields["synthetic"], *fields["ordinal"], *fields["ranking"],
                  *tree_fields], page="impurity_vs_gini")

st.session_state.setdefault("ivg_kind", "synthetic")
kind = st.sidebar.radio("Data", list(DATA_KINDS), format_func=DATA_KINDS.get, key="ivg_kind",
                        persist_state="session")
split = None
source: SyntheticSource | HoldoutSource | None = None
data_key: str | None
if kind == "synthetic":
    source, source_key, seed = synthetic_controls()
    levels, target = source.levels, "rank"
elif kind == "ordinal":
    ordinal, data_key = ordinal_data_picker(st.sidebar)
    source, source_key, seed = holdout_controls(ordinal, data_key)
    if ordinal is not None:
        levels, target = list(ordinal.levels), ordinal.target
else:
    dataset, data_key = dataset_picker()
if source is not None:
    split = draw_split(source, source_key, seed)
settings = ordinal_tree_settings(label_ranking=kind == "ranking")
publish_to_url([kind_field, *fields[kind], *tree_fields])

if kind == "ranking":
    if dataset is None:
        st.info("Choose a sample data set, or finish the upload in the sidebar.")
        st.stop()
    assert data_key is not None  # dataset_picker gives a key with every data set
    st.markdown(f"**{md_escape(dataset.name)}**: {counted(dataset.n_samples, 'example')}, "
                f"{counted(dataset.n_labels, 'label')}. "
                "Each label's rank position is an ordinal target; both impurities are summed "
                "over the labels, and leaves predict the labels ordered by mean position.")
    fitted = ranking_tree_pair(dataset, data_key, settings)
    # Only the open tab is computed and drawn; its key keeps the reader's tab across reruns.
    tab_eval, tab_teach = st.tabs(["Evaluation (CS, WRC, LRA)", "Teaching: Fig. 1"], key="ivg_ranking_tab",
                                  on_change="rerun")
    if tab_eval.open and fitted:
        with tab_eval:
            evaluation_panel(dataset, data_key, {name: s for name, (s, _) in fitted.items()},
                             key="ivg_eval")
    if tab_teach.open:
        with tab_teach:
            features = encoded_features(dataset.X, data_key)
            teaching_panel({name: label_ranking_node_levels(tree, features, dataset.Y)
                            for name, (_, tree) in fitted.items()}, key="ivg_teach")
    st.stop()

if split is None:
    st.info("Choose a sample data set, or finish the upload in the sidebar.")
    st.stop()
assert source is not None  # split was drawn from it
try:
    comparison = fit_ordinal_trees(split, f"{source_key}:seed={seed}", tuple(levels), settings,
                                   target_name=target)
except ValueError as error:
    st.error(f"The trees cannot be grown: {error}")
    st.stop()
axis = "rank" if kind == "synthetic" else target
ordinal_tree_pair(comparison, level_count_chart(split[1], split[3], levels, axis=axis,
                                                title=f"Rows per {axis} in the drawn data"))

# Only the open tab is computed and drawn; its key keeps the reader's tab across reruns.
tab_mc, tab_noise, tab_teach = st.tabs(["Monte Carlo (Table I, Fig. 2)", "Label noise (Fig. 3)",
                                        "Teaching: Fig. 1"], key="ivg_tab", on_change="rerun")
if tab_mc.open:
    with tab_mc:
        monte_carlo_panel(source, source_key, key="ivg_mc", prediction=settings.prediction,
                          min_samples_leaf=settings.min_samples_leaf)
if tab_noise.open:
    with tab_noise:
        noise_panel(source, source_key, key="ivg_noise", prediction=settings.prediction,
                    min_samples_leaf=settings.min_samples_leaf)
if tab_teach.open:
    with tab_teach:
        teaching_panel({name: ordinal_node_levels(comparison.models[criterion])
                        for criterion, name in (("ranking_impurity", "Ranking impurity"),
                                                ("gini", "Gini"))}, key="ivg_teach")
