"""rankviz: an interactive workbench for ranking trees. Run with `make run`."""

import streamlit as st

st.set_page_config(page_title="rankviz", page_icon="🌳", layout="wide")
st.navigation([
    st.Page("pages/ranking_trees.py", title="Ranking trees", icon=":material/account_tree:", default=True),
    st.Page("pages/side_by_side.py", title="Side by side", icon=":material/compare:"),
]).run()
