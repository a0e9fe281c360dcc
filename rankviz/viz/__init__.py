"""Drawings of the library's models and results, without Streamlit.

:mod:`rankviz.viz.dot` writes Graphviz DOT text: trees of every kind
(:func:`tree_to_dot`, one small drawer per kind on a shared core) and MPBoost
ensembles; :mod:`rankviz.viz.graphviz` lays that text out as SVG, PNG or PDF
(:func:`render`) with Graphviz's ``dot`` or the bundled ``graphviz-pure``;
:mod:`rankviz.viz.figures` builds the plotly figures of the app and of the
papers' experiments. Only :mod:`rankviz.viz.figures` imports plotly, so
drawing and exporting trees works without it.
"""

from .dot import tree_to_dot
from .graphviz import render

__all__ = ["render", "tree_to_dot"]
