"""Drawings of the library's models and results, without Streamlit.

:mod:`rankviz.viz.dot` writes Graphviz DOT text: trees of every kind
(:func:`tree_to_dot`, one small drawer per kind on a shared core) and MPBoost
ensembles; :mod:`rankviz.viz.graphviz` lays that text out as SVG, PNG or PDF
(:func:`render`) with Graphviz's ``dot`` or the bundled ``graphviz-pure``;
:mod:`rankviz.viz.export` makes a tree a figure for a paper in one call
(:func:`export_tree`: width in cm or inches, DPI, depth cut, rules as text);
:mod:`rankviz.viz.figures` builds the plotly figures of the app and of the
papers' experiments. Only :mod:`rankviz.viz.figures` imports plotly, so
drawing and exporting trees works without it.
"""

from .dot import tree_to_dot
from .export import export_tree
from .graphviz import render

__all__ = ["export_tree", "render", "tree_to_dot"]
