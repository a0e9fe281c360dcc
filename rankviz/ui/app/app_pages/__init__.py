"""The app's pages: scripts that Streamlit runs (``st.Page``), not modules to import."""
