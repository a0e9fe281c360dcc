"""rankviz: an interactive workbench for ranking trees. Run with `make run`."""

import streamlit as st

from rankviz.ui.navigation import mark_app_navigation
from rankviz.ui.page_style import apply_page_style

st.set_page_config(page_title="rankviz", page_icon="🌳", layout="wide")
mark_app_navigation()
apply_page_style()
st.navigation([
    st.Page("pages/ranking_trees.py", title="Ranking trees", icon=":material/account_tree:", default=True),
    st.Page("pages/side_by_side.py", title="Side by side", icon=":material/compare:"),
    st.Page("pages/impurity_vs_gini.py", title="Ranking impurity vs Gini", icon=":material/stacked_bar_chart:"),
    st.Page("pages/mallows_trees.py", title="Mallows label ranking trees", icon=":material/park:"),
    st.Page("pages/mpboost.py", title="MPBoost", icon=":material/trending_up:"),
    st.Page("pages/benchmark.py", title="Benchmark", icon=":material/leaderboard:"),
]).run()
