"""Plotly figures for MPBoost (Zhu et al. 2009); no Streamlit here.

* :func:`rounds_figure` -- NDCG@k of train, validation and test against the
  number of rounds (the paper's Fig. 6).
* :func:`loss_bound_figure` -- Theorem 1: the product of the normalisers
  ``Z_t`` and the training mis-ordering loss it bounds.
* :func:`ndcg_by_k_figure` -- NDCG@1..10 per method with error bars
  (Figs. 3-5).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np
import plotly.graph_objects as go
from numpy.typing import ArrayLike

from ...ltr.metrics import FORM_TITLES
from .style import translucent

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["SPLIT_COLOURS", "METHOD_STYLES", "rounds_figure", "loss_bound_figure", "ndcg_by_k_figure"]

SPLIT_COLOURS = {"train": "#1f77b4", "validation": "#ff7f0e", "test": "#2ca02c"}

#: MPBoost labellings solid, baselines dashed/dotted in greys, so the two
#: families read apart at a glance.
METHOD_STYLES = {
    "binary": ("#7f7f7f", "solid", "circle"),
    "ldd": ("#1f77b4", "solid", "square"),
    "logdd": ("#d62728", "solid", "diamond"),
    "logitdd": ("#2ca02c", "solid", "triangle-up"),
    "best_feature": ("#8c564b", "dash", "x"),
    "knn": ("#9467bd", "dash", "cross"),
    "random": ("#bcbcbc", "dot", "circle-open"),
}

_LAYOUT = dict(template="plotly_white", height=400, margin=dict(t=60, l=60, r=20, b=50))


def rounds_figure(curves: Mapping[str, ArrayLike], k: int, *, form: str = "common",
                  n_rounds: int | None = None, best_round: int | None = None) -> go.Figure:
    """NDCG@k against rounds for each data split.

    Parameters
    ----------
    curves : mapping of str -> array-like
        Split name -> 1-D array of mean NDCG@k after rounds 1, 2, ...
    k : int
    form : {"common", "mpboost"}, default="common"
    n_rounds : int, optional
        Fix the x-axis to this many rounds, so a growing curve does not
        rescale the chart every update.
    best_round : int, optional
        Marked with a vertical line (e.g. the best validation round).

    Returns
    -------
    plotly.graph_objects.Figure
    """
    fig = go.Figure()
    for split, values in curves.items():
        values = np.asarray(values, dtype=float)
        fig.add_scatter(
            x=np.arange(1, values.size + 1), y=values, mode="lines", name=split,
            line=dict(color=SPLIT_COLOURS.get(split), width=2),
            hovertemplate="round %{x}: %{y:.3f}<extra>" + split + "</extra>",
        )
    if best_round is not None:
        fig.add_vline(x=best_round, line=dict(color="#ff7f0e", dash="dot", width=1),
                      annotation_text=f"best validation: round {best_round}",
                      annotation_position="bottom right")
    fig.update_layout(
        title=f"Mean NDCG@{k} over queries after each round ({FORM_TITLES.get(form, form)} form)",
        xaxis_title="Boosting rounds (stumps)", yaxis_title=f"Mean NDCG@{k}",
        legend_title="Queries", **_LAYOUT,
    )
    if n_rounds:
        fig.update_xaxes(range=[0.5, n_rounds + 0.5])
    return fig


def loss_bound_figure(bound: ArrayLike, misordering: ArrayLike, n_rounds: int | None = None) -> go.Figure:
    """Theorem 1: ``prod Z_t`` and the training mis-ordering loss it bounds, per round.

    Parameters
    ----------
    bound : array-like of shape (n_rounds_shown,)
        ``prod_{s <= t} Z_s`` after each round ``t``.
    misordering : array-like of shape (n_rounds_shown,)
        Share of mis-ordered training pairs after each round.
    n_rounds : int, optional
        Fix the x-axis to this many rounds.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    bound = np.asarray(bound, dtype=float)
    rounds = np.arange(1, len(bound) + 1)
    above_one = np.flatnonzero(~(bound <= 1.0))  # NaN and inf too
    fig = go.Figure()
    fig.add_scatter(x=rounds, y=np.where(np.isfinite(bound), bound, np.nan), mode="lines",
                    name="bound: product of Z_t",
                    line=dict(color="#222222", width=2),
                    hovertemplate="round %{x}: %{y:.4f}<extra>bound</extra>")
    fig.add_scatter(x=rounds, y=misordering, mode="lines", name="mis-ordered training pairs",
                    line=dict(color="#d62728", width=2), fill="tozeroy", fillcolor=translucent("#d62728", 0.12),
                    hovertemplate="round %{x}: %{y:.4f}<extra>mis-ordering</extra>")
    fig.update_layout(
        title="Theorem 1: mis-ordered pairs ≤ ∏ Z_t",
        xaxis_title="Boosting rounds (stumps)", yaxis_title="Share of training pairs",
        yaxis=dict(rangemode="tozero"), **_LAYOUT,
    )
    fig.update_layout(legend=dict(yanchor="top", y=0.98, xanchor="right", x=0.98,
                                  bgcolor="rgba(255,255,255,0.8)"))
    if above_one.size:
        # A bound above 1 says nothing about a share; keep the share readable.
        fig.update_yaxes(range=[0, 1.05])
        fig.add_annotation(x=rounds[above_one[0]], y=1.0, text=f"bound above 1 from round {above_one[0] + 1}",
                           showarrow=True, arrowhead=2, ax=40, ay=30, font=dict(size=11))
    if n_rounds:
        fig.update_xaxes(range=[0.5, n_rounds + 0.5])
    return fig


def ndcg_by_k_figure(summary: pd.DataFrame, *, form: str = "common",
                     confidence_label: str = "95% CI over test queries (Student t)") -> go.Figure:
    """Mean NDCG@1..10 per method, error bars from the per-query spread.

    Parameters
    ----------
    summary : DataFrame
        :meth:`rankviz.experiments.ltr_study.RankerComparison.summary`: ``method``,
        ``title``, ``k``, ``mean``, ``ci`` (half-width of the 95% interval).
    form : {"common", "mpboost"}, default="common"
    confidence_label : str, default="95% CI over test queries (Student t)"
        What the error bars show, for the title.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    fig = go.Figure()
    methods = list(dict.fromkeys(summary["method"]))
    # nudge methods sideways so their error bars do not sit on top of each other
    offsets = np.linspace(-0.2, 0.2, len(methods)) if len(methods) > 1 else [0.0]
    for offset, method in zip(offsets, methods):
        rows = summary[summary["method"] == method].sort_values("k")
        colour, dash, symbol = METHOD_STYLES.get(method, ("#333333", "solid", "circle"))
        title = rows["title"].iloc[0]
        fig.add_scatter(
            x=rows["k"] + offset, y=rows["mean"], mode="lines+markers", name=title,
            line=dict(color=colour, dash=dash, width=2), marker=dict(symbol=symbol, size=7, color=colour),
            error_y=dict(type="data", array=rows["ci"].fillna(0), visible=True, thickness=1, width=3),
            customdata=rows["k"], hovertemplate="NDCG@%{customdata}: %{y:.3f} ± %{error_y.array:.3f}<extra>"
            + title + "</extra>",
        )
    fig.update_layout(
        title=f"Test NDCG@k per method ({FORM_TITLES.get(form, form)} form; bars: {confidence_label})",
        xaxis=dict(title="Cut-off k (top documents counted)", tickmode="linear", dtick=1),
        yaxis_title="Mean NDCG@k over test queries", legend_title="Method", **_LAYOUT,
    )
    fig.update_layout(height=460)
    return fig
