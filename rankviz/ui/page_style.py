"""The look every page shares: a compact header (``assets/page.css``), set once per run by ``app.py``.

The style ships inside the package and reaches the page as an inline
``<style>`` element (``st.html`` puts style-only HTML out of the layout):
nothing is loaded from the network.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files

import streamlit as st

__all__ = ["apply_page_style"]


@cache
def _css() -> str:
    return files(__package__).joinpath("assets", "page.css").read_text(encoding="utf-8")


def apply_page_style() -> None:
    """Add the app's page style (a compact header) to the page."""
    st.html(f"<style>{_css()}</style>")
