"""The explorable tree view: one JavaScript front end for the app, notebooks and HTML files.

A tree laid out once by Graphviz (:func:`rankviz.viz.layout.layout_tree`) is
shown by one JavaScript module, ``static/tree_view.js``, with its CSS and
markup: zoom and pan, an overview map, fit and 100 %, fold and unfold,
hover cards, the keyboard, a traced path and the growth player's faded
nodes. Three hosts run it:

- the app, as a Streamlit component (:func:`rankviz.ui.tree_view.tree_view`);
- a notebook, as an anywidget (:class:`TreeView`, and the display of every
  fitted tree);
- a single HTML file with everything inlined (:func:`tree_page`, and
  ``export_tree(tree, "html")``).

This module never imports Streamlit; :class:`TreeView` needs ``anywidget``
(``pip install "rankviz[notebook]"``) and is imported on first use.
"""

from __future__ import annotations

from typing import Any

from .assets import view_css, view_html, view_script
from .data import trace_card, view_data
from .page import tree_page

__all__ = ["TreeView", "trace_card", "tree_page", "view_css", "view_data", "view_html", "view_script"]


def __getattr__(name: str) -> Any:
    # The widget needs anywidget, an optional dependency: load it only when asked for.
    if name == "TreeView":
        from .widget import TreeView
        return TreeView
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
