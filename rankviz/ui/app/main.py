"""rankviz's Streamlit app: the entry script. Start it with ``rankviz app`` (or ``make run``).

Its pages are the scripts in ``app_pages/`` (not ``pages/``: a ``pages/``
folder beside the entry would make Streamlit run a page's URL as a page of
its own on a fresh server, without this navigation); its settings are
``.streamlit/config.toml`` beside it, read by Streamlit for this script.
"""

import streamlit as st

from rankviz.ui.page_style import apply_page_style
from rankviz.ui.session_memory import limit_session_memory

st.set_page_config(page_title="rankviz", page_icon="🌳", layout="wide")
apply_page_style()
limit_session_memory()
st.navigation([
    st.Page("app_pages/ranking_trees.py", title="Ranking trees", icon=":material/account_tree:", default=True),
    st.Page("app_pages/side_by_side.py", title="Side by side", icon=":material/compare:"),
    st.Page("app_pages/impurity_vs_gini.py", title="Ranking impurity vs Gini", icon=":material/stacked_bar_chart:"),
    st.Page("app_pages/mallows_trees.py", title="Mallows label ranking trees", icon=":material/park:"),
    st.Page("app_pages/ranking_forest.py", title="Ranking forest", icon=":material/forest:"),
    st.Page("app_pages/mpboost.py", title="MPBoost", icon=":material/trending_up:"),
    st.Page("app_pages/benchmark.py", title="Benchmark", icon=":material/leaderboard:"),
]).run()
