"""Graphviz DOT text of the library's models, laid out by :func:`rankviz.viz.graphviz.render`.

:func:`tree_to_dot` draws a fitted tree of any kind, choosing one small drawer
per kind: mean-rank ranking trees of Rebelo, Soares & Costa (2008) coloured
by similarity (:mod:`~rankviz.viz.dot.ranking_tree`), Mallows label ranking
trees of Cheng, Hühn & Hüllermeier (2009) with θ̂ and reliability
(:mod:`~rankviz.viz.dot.mallows_tree`), and ordinal trees of Xia, Zhang &
Wang (2006) with level cells (:mod:`~rankviz.viz.dot.ordinal_tree`), all built
on the shared core of :mod:`~rankviz.viz.dot.common` (palettes, escaping of
user text, labels, legends and depth cuts such as :func:`fitting_depth`);
:func:`stumps_to_dot` and :func:`additive_model_to_dot` draw an MPBoost
ensemble of Zhu et al. (2009). Everything here is text: no Streamlit and no
plotly is imported.
"""

from .common import drawn_leaves, fitting_depth, node_id
from .stumps import additive_model_to_dot, stumps_to_dot
from .trees import tree_to_dot

__all__ = ["additive_model_to_dot", "drawn_leaves", "fitting_depth", "node_id", "stumps_to_dot", "tree_to_dot"]
