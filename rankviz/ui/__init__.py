"""Streamlit widgets shared by the app's pages: the only part of rankviz that imports streamlit."""
