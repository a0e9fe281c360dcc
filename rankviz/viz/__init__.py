"""Drawings of the library's models and results, without Streamlit.

:mod:`rankviz.viz.dot` writes Graphviz DOT text: trees of every kind
(:func:`tree_to_dot`, one small drawer per kind on a shared core) and MPBoost
ensembles; :mod:`rankviz.viz.graphviz` lays that text out as SVG, PNG or PDF
(:func:`render`) with Graphviz's ``dot`` or the bundled ``graphviz-pure``;
:mod:`rankviz.viz.export` makes a tree a figure for a paper in one call
(:func:`export_tree`: width in cm or inches, DPI, depth cut, rules as text);
:mod:`rankviz.viz.tree_view` is the explorable view of the app, also as a
notebook widget (:class:`TreeView`, which needs ``anywidget``: ``pip install
"rankviz[notebook]"``) and as one HTML file (``export_tree(tree, "html")``);
:mod:`rankviz.viz.figures` builds the plotly figures of the app and of the
papers' experiments. Only :mod:`rankviz.viz.figures` imports plotly, so
drawing and exporting trees works without it.
"""

from typing import Any

from .dot import tree_to_dot
from .export import export_tree
from .graphviz import render

__all__ = ["TreeView", "export_tree", "render", "tree_to_dot"]


def __getattr__(name: str) -> Any:
    # TreeView needs anywidget, an optional dependency: imported on first use.
    if name == "TreeView":
        from .tree_view.widget import TreeView
        return TreeView
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
