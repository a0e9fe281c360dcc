"""Plotly figures of evaluation results (no Streamlit here)."""

import numpy as np
import plotly.graph_objects as go

__all__ = ["METHOD_COLOURS", "metric_bars", "metric_distribution"]

#: Seed 001's Figures 3-4: ranking trees black, KNN grey, default ranking white.
METHOD_COLOURS = {"Ranking tree": "#222222", "KNN (k=1)": "#9a9a9a", "Default ranking": "#ffffff"}
_OTHER_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"]


def _colour(method, k):
    return METHOD_COLOURS.get(method, _OTHER_COLOURS[k % len(_OTHER_COLOURS)])


def _translucent(colour, alpha=0.3):
    red, green, blue = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgba({red},{green},{blue},{alpha})"


def metric_bars(scores, measures=("CS", "WRC", "LRA")):
    """Grouped bars of the mean of each measure per method, with 95% intervals.

    Parameters
    ----------
    scores : DataFrame
        Per-example scores from :func:`rankviz.evaluation.cross_validate`.
    measures : sequence of str

    Returns
    -------
    plotly.graph_objects.Figure
    """
    fig = go.Figure()
    for k, (method, group) in enumerate(scores.groupby("method", sort=False)):
        values = group[list(measures)]
        mean = values.mean()
        # Normal-approximation 95% interval of the mean over held-out examples.
        half = 1.96 * values.std(ddof=1) / np.sqrt(values.count())
        fig.add_bar(
            name=method, x=list(measures), y=mean.values,
            error_y=dict(type="data", array=half.fillna(0).values, visible=True, color="#555555"),
            marker=dict(color=_colour(method, k), line=dict(color="#222222", width=1.2)),
            hovertemplate="%{x}: %{y:.3f} ± %{error_y.array:.3f}<extra>" + method + "</extra>",
        )
    fig.update_layout(
        barmode="group", title="Mean score on held-out examples (whiskers: 95% CI of the mean)",
        xaxis_title="Measure", yaxis_title="Mean score (1 = identical ranking)",
        legend_title="Method", template="plotly_white", height=420,
        margin=dict(t=60, l=60, r=20, b=50),
    )
    return fig


def metric_distribution(scores, measure="CS"):
    """Per-example distribution of one measure for each method (box plot with points).

    Parameters
    ----------
    scores : DataFrame
        Per-example scores from :func:`rankviz.evaluation.cross_validate`.
    measure : str

    Returns
    -------
    plotly.graph_objects.Figure
    """
    fig = go.Figure()
    for k, (method, group) in enumerate(scores.groupby("method", sort=False)):
        colour = _colour(method, k)
        # A translucent fill keeps the median line and the points visible on
        # every method's colour, black included.
        fig.add_box(
            name=method, y=group[measure], boxpoints="all", jitter=0.5, pointpos=-1.6,
            marker=dict(color="#777777" if colour == "#ffffff" else colour, size=4, opacity=0.7,
                        line=dict(color="#222222", width=0.5)),
            line=dict(color="#222222", width=1.5), fillcolor=_translucent(colour),
            customdata=group["example"], hovertemplate="example %{customdata}: %{y:.3f}<extra></extra>",
        )
    fig.update_layout(
        title=f"{measure} of each held-out example", xaxis_title="Method",
        yaxis_title=f"{measure} (1 = identical ranking)", showlegend=False,
        template="plotly_white", height=420, margin=dict(t=60, l=60, r=20, b=50),
    )
    return fig
