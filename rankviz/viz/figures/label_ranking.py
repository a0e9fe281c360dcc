"""Plotly figures of the label ranking experiments of Cheng, Hühn & Hüllermeier (2009), §6.

* :func:`comparison_bars` -- mean Kendall tau, CS, WRC and LRA per method
  under cross-validation (the comparison of Table 2), with error whiskers;
* :func:`missing_rate_figure` -- a measure against the rate of labels
  deleted from the training rankings, one line per method (Fig. 1).

The inputs are computed elsewhere (per-method summaries, the curve of
:func:`rankviz.experiments.label_ranking_study.missing_rate_curve`); no
Streamlit here.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ...experiments.label_ranking_study import MEASURE_ORDER

__all__ = ["BAR_COLOURS", "LINE_STYLES", "comparison_bars", "missing_rate_figure"]

# Bars: LRT in the orange of the tree's reliability scale; the default ranking
# white, as in the figures of Rebelo, Soares & Costa (2008). Lines cannot be
# white: the default is dark, dotted.
BAR_COLOURS = {"LRT": "#e6550d", "IBLR": "#3182bd", "CC": "#31a354", "KNN (k=1)": "#9a9a9a",
               "Default": "#ffffff"}
#: Colour, dash and marker of each method's line, in the order the lines are drawn.
LINE_STYLES = {"LRT": ("#e6550d", "solid", "circle"), "IBLR": ("#3182bd", "solid", "square"),
               "CC": ("#31a354", "solid", "diamond"), "KNN (k=1)": ("#7f7f7f", "dash", "x"),
               "Default": ("#222222", "dot", "triangle-up")}
_OTHER_BAR = "#8c564b"
_OTHER_LINE = ("#8c564b", "solid", "circle")


def _style_key(method: str) -> str:
    """KNN with any k ("KNN (k=5)", "KNN (k=auto)") is drawn as KNN (k=1)."""
    return "KNN (k=1)" if method.startswith("KNN (") else method


def comparison_bars(summary: pd.DataFrame, title: str, measures: Sequence[str] = MEASURE_ORDER) -> go.Figure:
    """Grouped bars: mean Kendall tau, CS, WRC and LRA (or ``measures``) per method, with error whiskers.

    Parameters
    ----------
    summary : DataFrame
        Index: method; columns: each of ``measures``, and
        the whiskers' half-widths: ``<measure> ci`` (a confidence interval,
        :func:`rankviz.experiments.cross_validation.mean_intervals`),
        ``<measure> sd`` (over repetitions) or ``<measure> se``.
    title : str
        Should say what the whiskers are; the y axis title says it too.
    measures : sequence of str, default=MEASURE_ORDER
        The bars of each method, in order (τx too where the rankings tie labels).

    Returns
    -------
    plotly.graph_objects.Figure
    """
    measures = list(measures)
    suffix = next(s for s in ("ci", "sd", "se") if f"{measures[0]} {s}" in summary)
    whiskers = {"ci": "whiskers: 95% CI", "sd": "whiskers: ± sd", "se": "whiskers: ± 1 SE"}[suffix]
    fig = go.Figure()
    for method in summary.index:
        colour = BAR_COLOURS.get(_style_key(method), _OTHER_BAR)
        errors = summary.loc[method, [f"{m} {suffix}" for m in measures]].astype(float)
        fig.add_bar(
            name=method, x=measures,
            y=summary.loc[method, measures].astype(float).to_numpy(),
            error_y=dict(type="data", array=errors.fillna(0).to_numpy(), visible=True,
                         color="#444444", thickness=1.2),
            marker=dict(color=colour, line=dict(color="#222222", width=1.2)),
            hovertemplate="%{x}: %{y:.3f} ± %{error_y.array:.3f}<extra>" + method + "</extra>",
        )
    fig.update_layout(
        barmode="group", title=title, xaxis_title="Measure (1 = the true ranking predicted)",
        yaxis_title=f"Mean over held-out rankings ({whiskers})", legend_title="Method",
        template="plotly_white", height=440, margin=dict(t=70, l=60, r=20, b=50),
    )
    return fig


def missing_rate_figure(curve: pd.DataFrame, measure: str = "Kendall tau", repetitions: int = 1) -> go.Figure:
    """Lines with markers: ``measure`` against the missing-label rate, one per method (Fig. 1).

    Parameters
    ----------
    curve : DataFrame
        :func:`rankviz.experiments.label_ranking_study.missing_rate_curve`'s
        frame: columns ``method``, ``missing_rate``, each measure and
        ``<measure> ci`` (the half-width of its 95% interval).
    measure : str, default="Kendall tau"
    repetitions : int, default=1
        With several, the whiskers' interval is over the repetitions'
        means; with one, over the held-out rankings.

    Returns
    -------
    plotly.graph_objects.Figure
        The methods of :data:`LINE_STYLES` in its order, then any other in
        alphabetical order.
    """
    present = set(curve["method"])
    fig = go.Figure()
    known = [m for style in LINE_STYLES for m in sorted(present) if _style_key(m) == style]
    methods = known + sorted(present - set(known))
    # Nudge the methods sideways so that their whiskers at one rate stand apart.
    offsets = np.linspace(-0.015, 0.015, len(methods)) if len(methods) > 1 else [0.0]
    for offset, method in zip(offsets, methods):
        rows = curve[curve["method"] == method].sort_values("missing_rate")
        colour, dash, symbol = LINE_STYLES.get(_style_key(method), _OTHER_LINE)
        ci = rows[f"{measure} ci"].astype(float)
        error = (dict(type="data", array=ci.fillna(0).to_numpy(), visible=True, thickness=1.2)
                 if ci.notna().any() else None)
        fig.add_scatter(
            name=method, x=rows["missing_rate"].to_numpy() + offset, y=rows[measure].astype(float).to_numpy(),
            customdata=rows["missing_rate"].to_numpy(),
            mode="lines+markers", error_y=error,
            line=dict(color=colour, dash=dash, width=2.2), marker=dict(symbol=symbol, size=9),
            hovertemplate="p = %{customdata:.2f}: %{y:.3f} ± %{error_y.array:.3f}<extra>" + method + "</extra>",
        )
    whiskers = (f"; whiskers: 95% CI over {repetitions} repetitions" if repetitions > 1
                else "; whiskers: 95% CI over held-out rankings")
    fig.update_layout(
        title=f"{measure} against the missing-label rate (cf. Cheng et al. 2009, Fig. 1{whiskers})",
        xaxis_title="fraction of labels deleted from training rankings (p)",
        yaxis_title=f"{measure} (mean over held-out rankings)", legend_title="Method",
        template="plotly_white", height=440, margin=dict(t=70, l=60, r=20, b=55),
    )
    rates = sorted(set(curve["missing_rate"]))
    fig.update_xaxes(tickvals=rates, tickformat=".1f",
                     range=[min(rates) - 0.04, max(rates) + 0.04] if rates else None)
    return fig
