"""The look every page shares: a compact header (``assets/page.css``), set once per run by ``app.py``.

The style ships inside the package and reaches the page as an inline
``<style>`` element (``st.html`` puts style-only HTML out of the layout):
nothing is loaded from the network.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib.resources import files

import pandas as pd
import streamlit as st
from pandas.io.formats.style import Styler

__all__ = ["apply_page_style", "shade_rows"]

#: The background of a table's chosen rows (the tree's split, the tuned pair), alike on every page.
CHOSEN_ROW = "background-color: #fde2e2"


@cache
def _css() -> str:
    return files(__package__).joinpath("assets", "page.css").read_text(encoding="utf-8")


def apply_page_style() -> None:
    """Add the app's page style (a compact header) to the page."""
    st.html(f"<style>{_css()}</style>")


def shade_rows(table: pd.DataFrame, chosen: Callable[[pd.Series], bool]) -> Styler:
    """``table`` styled with the rows where ``chosen(row)`` holds shaded (:data:`CHOSEN_ROW`)."""
    return table.style.apply(lambda row: [CHOSEN_ROW if chosen(row) else ""] * len(row), axis=1)
