"""Plotly figures of the app and of the papers' experiments; no Streamlit here.

One module per subject: :mod:`~rankviz.viz.figures.ranking_trees` (evaluation,
γ curves and the node inspector of Rebelo, Soares & Costa 2008),
:mod:`~rankviz.viz.figures.label_ranking` (the comparisons of Cheng, Hühn &
Hüllermeier 2009), :mod:`~rankviz.viz.figures.ordinal` (the level counts and
Monte Carlo figures of Xia, Zhang & Wang 2006) and
:mod:`~rankviz.viz.figures.ltr` (MPBoost of Zhu et al. 2009), with the
colours and helpers they share in :mod:`~rankviz.viz.figures.style`. Every
function returns a ``plotly.graph_objects.Figure`` (or a display table) and
escapes the user text it shows; the app's widgets in :mod:`rankviz.ui` only
place them on a page.
"""
