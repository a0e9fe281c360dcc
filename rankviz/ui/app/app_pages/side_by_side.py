"""Two tree settings on the same data: both trees drawn, their scores in one chart."""

import streamlit as st

from rankviz.ui.data_picker import dataset_picker, dataset_url_field, picked_tree_defaults
from rankviz.ui.evaluation_panel import evaluation_panel
from rankviz.ui.inspector_panel import single_leaf_note
from rankviz.ui.text import counted, md_escape
from rankviz.ui.tree_panel import explore_tree, fit_tree, tree_settings, tree_url_fields
from rankviz.viz.graphviz import export_basename
from rankviz.ui.url_state import publish_to_url, restore_from_url


# Tree B starts with a smaller γ, so the two trees differ from the first look.
SIDES = {"Tree A": ("a", 0.995), "Tree B": ("b", 0.985)}

st.title("Side by side")
st.caption("Two settings — criterion, γ and limits — on the same data: both trees, and their "
           "held-out scores with KNN (k = 1 by default, or chosen by inner cross-validation) and the default "
           "ranking in one chart, and a paired test of each tree against them.")

url_fields = [dataset_url_field()]
for side, (key, _) in SIDES.items():
    url_fields += tree_url_fields(key, prefix=f"{key}_", order=False)
restore_from_url(url_fields, page="side_by_side")
dataset, data_key = dataset_picker()
columns = dict(zip(SIDES, st.columns(2, gap="large")))
# Settings folded above each tree, so that both trees start on the first screen.
settings = {side: tree_settings(columns[side].expander(f"{side} settings"), key=key, order=False,
                                title=side, gamma=gamma, suggested=picked_tree_defaults())
            for side, (key, gamma) in SIDES.items()}
publish_to_url(url_fields)
if dataset is None:
    st.info("Choose a sample data set, or finish the upload in the sidebar.")
    st.stop()
assert data_key is not None  # dataset_picker gives a key with every data set

fitted = {}
for side, column in columns.items():
    with column:
        try:
            tree = fit_tree(dataset, data_key, settings[side])
        except ValueError as error:  # e.g. a criterion that needs complete rankings
            st.error(f"{side} cannot be grown: {error}")
            continue
        fitted[side] = settings[side]
        st.markdown(f"**{side}:** {counted(tree.n_leaves, 'leaf', 'leaves')}, depth {tree.max_depth}. {md_escape(settings[side].describe())}.")
        if note := single_leaf_note(dataset, data_key, tree, settings[side]):  # which rule stopped the root
            st.info(note, icon=":material/info:")
        name = SIDES[side][0]
        explore_tree(tree, key=name, tree_key=repr((data_key, settings[side])),
                     fold_key=(data_key, settings[side].growth), basename=export_basename(dataset.name, settings[side].criterion, settings[side].gamma),
                     group="side_by_side", legend=False)

st.divider()
st.header("Held-out scores")  # h2 under the page title (axe heading-order)
if fitted:
    evaluation_panel(dataset, data_key, fitted, key="compare_eval")
