"""MPBoost (Zhu et al. 2009): magnitude-preserving pairwise boosting of stumps, grown round by round."""

import streamlit as st

from rankviz.ui.ltr_data_picker import describe_splits, ltr_data_picker
from rankviz.ui.mpboost_panel import boost_settings, boost_url_fields, compare_panel, condition_note, grow, growth_view
from rankviz.ui.text import counted, md_escape
from rankviz.ui.url_state import UrlField, choice, publish_to_url, restore_from_url
from rankviz.datasets.samples import list_samples


st.title("MPBoost: boosting for ranking")
st.caption("Zhu et al. (2009): pairwise boosting of decision stumps in which each pair of "
           "documents of a query is labelled by a directed distance between their grades instead of ±1, "
           "so that mis-ordering a 4 and a 0 costs more than a 2 and a 1. Each round adds the stump that "
           "best fits the weighted pairs (a GentleBoost step) and re-weights the pairs it still gets wrong.")

url_fields = [UrlField("data", "ltr_dataset", choice(list_samples("query"))), *boost_url_fields()]
restore_from_url(url_fields, page="mpboost")
splits, data_key = ltr_data_picker()
settings = boost_settings()
publish_to_url(url_fields)
if splits is None:
    st.info("Choose the sample data set, or finish the upload in the sidebar.")
    st.stop()
assert data_key is not None  # ltr_data_picker gives a key with every data set

# Only the open tab is computed and drawn; its key keeps the reader's tab across reruns.
tab_grow, tab_compare = st.tabs(["Grow the ensemble (Fig. 6)", "Compare labellings and baselines (Figs. 3–5)"],
                                key="mpb_tab", on_change="rerun")
if tab_grow.open:
    with tab_grow:
        try:
            growth = grow(splits, data_key, settings)
        except ValueError as error:
            st.error(f"MPBoost cannot be fitted on this data: {error}")
        else:
            growth_view(growth, settings)
if tab_compare.open:
    with tab_compare:
        compare_panel(splits, data_key, settings)

# The data and condition (9) below the ensemble, so that its stumps are on the first screen.
train = splits["train"]
with st.expander(f"Data: {md_escape(train.name.split(':')[0]) or 'uploaded'} — "
                 f"{counted(sum(s.n_queries for s in splits.values()), 'query', 'queries')}, "
                 f"{counted(sum(s.n_docs for s in splits.values()), 'document')}, "
                 f"{counted(train.n_features, 'feature')}"):
    if train.description:
        st.write(train.description)
    st.dataframe(describe_splits(splits), hide_index=True)
    st.dataframe(train.to_frame().head(200), height=220)

condition_note(splits, settings)
