"""Plotly figures and display tables of ordinal data and of the experiments of Xia, Zhang & Wang (2006).

The Monte Carlo figures follow the paper: Fig. 2 (mean absolute rank loss
against tree depth, both criteria, with the baselines) and Fig. 3 (loss
against label noise σ, one panel per training size; ranking tree solid,
classification tree dash-dotted, whiskers the 95% Student-t confidence
intervals). Their inputs are the summaries of
:func:`rankviz.experiments.monte_carlo.loss_summary`.
:func:`level_count_chart` shows the rows of a data set at each level. No
Streamlit here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from numpy.typing import ArrayLike
from plotly.subplots import make_subplots

from ...experiments.monte_carlo import TREE_METHODS, loss_summary
from ...safe_text import visible_controls
from .style import METHOD_COLOURS, other_colour, translucent, user_text

__all__ = ["LEVEL_CHART_COLOURS", "LOSS_AXIS_TITLE", "TREE_STYLES", "format_loss", "level_count_chart", "level_counts",
           "loss_by_depth", "loss_by_noise", "method_table", "noise_table"]

#: Training rows blue, test rows grey in the level charts (data, not methods:
#: no colour of :data:`rankviz.viz.figures.style.METHOD_COLOURS`).
LEVEL_CHART_COLOURS = {"training": "#1f77b4", "test": "#b0b0b0"}

#: y-axis title of every rank-loss figure: the loss counts level steps.
LOSS_AXIS_TITLE = "mean absolute rank loss (levels)"

#: Colour and dash of each criterion's tree. Xia, Zhang & Wang draw the ranking
#: tree solid and the classification (Gini) tree dash-dotted; the ranking tree
#: keeps the black of Rebelo, Soares & Costa (:data:`rankviz.viz.figures.style.METHOD_COLOURS`).
TREE_STYLES = {
    TREE_METHODS["ranking_impurity"]: dict(color=METHOD_COLOURS["Ranking tree"], dash="solid"),
    TREE_METHODS["gini"]: dict(color="#1f77b4", dash="dashdot"),
}


def _tree_style(method, k):
    return TREE_STYLES.get(method, dict(color=other_colour(k), dash="solid"))


def _baseline_style(method, k):
    # METHOD_COLOURS would draw the default ranking white: baselines are
    # told apart by dash pattern instead, as in rankviz.viz.figures.ranking_trees.gamma_curves.
    if method.startswith("KNN"):
        return dict(color="#7a7a7a", dash="dash")
    if method.startswith("Default"):
        return dict(color="#222222", dash="dot")
    return dict(color=other_colour(k), dash="longdash")


def _half_widths(ci):
    # One trial has no spread to estimate (NaN): draw no whisker rather than none at all.
    return np.nan_to_num(np.asarray(ci, dtype=float), nan=0.0)


def format_loss(mean: float | None, ci: float | None, digits: int = 3) -> str:
    """``"0.162 ± 0.008"``; the mean alone when the half-width is unknown (one trial)."""
    if mean is None or not np.isfinite(mean):
        return "—"
    if ci is None or not np.isfinite(ci):
        return f"{mean:.{digits}f}"
    return f"{mean:.{digits}f} ± {ci:.{digits}f}"


def loss_by_depth(summary_by_depth: pd.DataFrame, baselines: pd.DataFrame | None = None, *,
                  title: str | None = None) -> go.Figure:
    """Mean rank loss of each tree cut at every depth, with baselines (Xia, Zhang & Wang 2006, Fig. 2).

    Parameters
    ----------
    summary_by_depth : DataFrame
        Columns ``method``, ``depth``, ``mean``, ``ci`` (half-width of the 95%
        interval) and ``trials``: :func:`rankviz.experiments.monte_carlo.loss_summary` of
        the tree records with ``by=("method", "depth")``.
    baselines : DataFrame, optional
        Columns ``method``, ``mean``, ``ci``: the baselines' losses, drawn as
        dashed horizontal lines across the depth axis.
    title : str, optional

    Returns
    -------
    plotly.graph_objects.Figure
        One line with error bars per tree (in order of appearance), then one
        horizontal line per baseline.
    """
    fig = go.Figure()
    depths = summary_by_depth["depth"].to_numpy(dtype=float)
    span = [float(np.nanmin(depths)), float(np.nanmax(depths))] if len(depths) else [0.0, 1.0]
    for k, (method, group) in enumerate(summary_by_depth.groupby("method", sort=False)):
        group = group.sort_values("depth")
        style = _tree_style(method, k)
        fig.add_scatter(
            x=group["depth"].to_numpy(dtype=float), y=group["mean"].to_numpy(dtype=float),
            mode="lines+markers", name=f"{method} tree",
            line=dict(color=style["color"], dash=style["dash"], width=2),
            marker=dict(color=style["color"], size=6),
            error_y=dict(type="data", array=_half_widths(group["ci"]), visible=True,
                         color=translucent(style["color"], 0.8), thickness=1.2, width=4),
            customdata=_trials_text(group["trials"]),
            hovertemplate="depth %{x}: %{y:.4f} ± %{error_y.array:.4f} "
                          "(%{customdata})<extra>" + method + "</extra>",
        )
    if baselines is not None:
        for k, row in enumerate(baselines.itertuples(index=False)):
            style = _baseline_style(row.method, k)
            fig.add_scatter(
                x=span, y=[float(row.mean)] * 2, mode="lines", name=row.method,
                line=dict(color=style["color"], dash=style["dash"], width=1.5),
                hovertemplate=f"{row.method}: {format_loss(row.mean, row.ci, 4)}<extra></extra>",
            )
    fig.update_layout(
        title=title or "Mean rank loss against tree depth (cf. Xia et al. 2006, Fig. 2; whiskers: 95% CI)",
        xaxis_title="tree depth", yaxis_title=LOSS_AXIS_TITLE, legend_title="Method",
        template="plotly_white", height=440, margin=dict(t=70, l=70, r=20, b=50),
    )
    fig.update_xaxes(dtick=1)
    fig.update_yaxes(rangemode="tozero")
    return fig


def loss_by_noise(summary: pd.DataFrame, *, title: str | None = None) -> go.Figure:
    """Mean rank loss against label noise σ, one panel per training size (Xia, Zhang & Wang 2006, Fig. 3).

    Parameters
    ----------
    summary : DataFrame
        Columns ``n_train``, ``noise``, ``method``, ``mean``, ``ci`` and
        ``trials``: :func:`rankviz.experiments.monte_carlo.loss_summary` of
        :func:`rankviz.experiments.monte_carlo.noise_trials` records with
        ``by=("n_train", "noise", "method")``.
    title : str, optional

    Returns
    -------
    plotly.graph_objects.Figure
        Subplots side by side with a shared y axis, in increasing training
        size; in each, one line with error bars per tree: ranking impurity
        solid, Gini dash-dotted. Each method appears once in the legend.
    """
    sizes = sorted(int(s) for s in summary["n_train"].unique())
    fig = make_subplots(
        rows=1, cols=max(len(sizes), 1), shared_yaxes=True, horizontal_spacing=0.04,
        subplot_titles=[f"({chr(ord('a') + i)}) training size {size:,}" for i, size in enumerate(sizes)])
    methods = list(dict.fromkeys(summary["method"]))
    for col, size in enumerate(sizes, start=1):
        cell = summary[summary["n_train"] == size]
        for k, method in enumerate(methods):
            group = cell[cell["method"] == method].sort_values("noise")
            if group.empty:
                continue
            style = _tree_style(method, k)
            fig.add_scatter(
                x=group["noise"].to_numpy(dtype=float), y=group["mean"].to_numpy(dtype=float),
                mode="lines+markers", name=f"{method} tree", legendgroup=method,
                showlegend=col == 1, row=1, col=col,
                line=dict(color=style["color"], dash=style["dash"], width=2),
                marker=dict(color=style["color"], size=6),
                error_y=dict(type="data", array=_half_widths(group["ci"]), visible=True,
                             color=translucent(style["color"], 0.8), thickness=1.2, width=4),
                customdata=_trials_text(group["trials"]),
                hovertemplate="σ = %{x}: %{y:.4f} ± %{error_y.array:.4f} (%{customdata})"
                              f"<extra>{method}, n = {size:,}</extra>",
            )
        fig.update_xaxes(title_text="label noise level σ", row=1, col=col)
    fig.update_yaxes(title_text=LOSS_AXIS_TITLE, rangemode="tozero", row=1, col=1)
    fig.update_layout(
        title=title or "Mean rank loss against label noise (cf. Xia et al. 2006, Fig. 3; whiskers: 95% CI)",
        legend_title="Method", template="plotly_white", height=440,
        margin=dict(t=90, l=70, r=20, b=50),
    )
    return fig


def method_table(records: pd.DataFrame | Iterable[Mapping[str, Any]], confidence: float = 0.95) -> pd.DataFrame:
    """Table I of Xia, Zhang & Wang (2006): each method's own prediction, mean loss ± CI over trials.

    Parameters
    ----------
    records : DataFrame or list of dict
        As yielded by :func:`rankviz.experiments.monte_carlo.run_trials`.
    confidence : float, default=0.95
        Level of the Student-t intervals.

    Returns
    -------
    DataFrame
        One row per method (in order of appearance): ``method``, ``rank loss``
        (text, ``"0.162 ± 0.008"``), ``mean``, ``ci`` (half-width), ``trials``
        and ``depth`` (text: a tree's depth, or the mean and range of the
        depths chosen by cross-validation; ``"—"`` for baselines).
    """
    final = pd.DataFrame(records)
    final = final[final["final"].astype(bool)]
    summary = loss_summary(final, by=("method",), confidence=confidence)
    depths = {method: _depth_text(group["depth"]) for method, group in final.groupby("method", sort=False)}
    summary.insert(1, "rank loss", [format_loss(m, c) for m, c in zip(summary["mean"], summary["ci"])])
    summary["depth"] = summary["method"].map(depths)
    return summary


def _depth_text(depths):
    depths = pd.to_numeric(depths, errors="coerce").dropna()
    if depths.empty:
        return "—"
    low, high = int(depths.min()), int(depths.max())
    if low == high:
        return str(low)
    return f"{depths.mean():.1f} ({low}–{high})"


def noise_table(records: pd.DataFrame | Iterable[Mapping[str, Any]], confidence: float = 0.95) -> pd.DataFrame:
    """Fig. 3 as a table: mean loss ± CI per training size and noise level, criteria side by side.

    Parameters
    ----------
    records : DataFrame or list of dict
        As yielded by :func:`rankviz.experiments.monte_carlo.noise_trials`.
    confidence : float, default=0.95
        Level of the Student-t intervals.

    Returns
    -------
    DataFrame
        Columns ``training size``, ``σ``, then for each method its
        ``"mean ± CI"`` text, then ``trials`` (the fewest of the row's methods:
        a stopped run may leave a cell short).
    """
    summary = loss_summary(records, by=("n_train", "noise", "method"), confidence=confidence)
    summary["text"] = [format_loss(m, c) for m, c in zip(summary["mean"], summary["ci"])]
    methods = list(dict.fromkeys(summary["method"]))
    wide = summary.pivot(index=["n_train", "noise"], columns="method", values="text")[methods]
    trials = summary.groupby(["n_train", "noise"])["trials"].min()
    table = wide.assign(trials=trials).reset_index().rename(
        columns={"n_train": "training size", "noise": "σ"})
    table.columns.name = None
    return table


# -- data ---------------------------------------------------------------------

def level_count_chart(y_train: ArrayLike, y_test: ArrayLike, levels: Sequence, *, title: str = "Rows per rank",
                      axis: str = "rank") -> go.Figure:
    """Grouped bars of the training and test rows at each level, empty levels included.

    Level and target names are user text: plotly reads ``<b>``, ``<a href>`` and
    ``%{...}`` in titles, ticks and hover templates, so they are shown escaped
    (:func:`rankviz.viz.figures.style.user_text`); the bars' ``x`` keeps the
    names themselves, with bidi controls made visible.

    Parameters
    ----------
    y_train, y_test : array-like
        The level of each training and test row.
    levels : sequence
        All levels, lowest first.
    title : str, default="Rows per rank"
    axis : str, default="rank"
        What a level is called (the x axis title and the hover text).

    Returns
    -------
    plotly.graph_objects.Figure
    """
    # the bars' categories: the names with bidi controls made visible; ticks and hover text escaped
    names = [visible_controls(level) for level in levels]
    shown = [user_text(level) for level in levels]
    axis_text = user_text(axis)
    fig = go.Figure()
    for name, y in (("training", y_train), ("test", y_test)):
        counts = level_counts(y, levels)
        # Counts written on the bars: an empty level reads "0", not just a gap.
        fig.add_bar(name=name, x=names, y=counts, marker_color=LEVEL_CHART_COLOURS[name], text=counts,
                    customdata=[[level, axis_text, "row" if count == 1 else "rows"]
                                for level, count in zip(shown, counts)],
                    textposition="outside", textfont=dict(size=9), cliponaxis=False,
                    hovertemplate=f"%{{customdata[1]}} %{{customdata[0]}}: %{{y}} {name} %{{customdata[2]}}"
                                  "<extra></extra>")
    fig.update_layout(
        barmode="group", title=dict(text=user_text(title), font=dict(size=13)),
        template="plotly_white", height=260, margin=dict(t=44, l=56, r=8, b=44), bargap=0.2,
        uniformtext=dict(minsize=8),
        xaxis=dict(title=axis_text, type="category", tickvals=names, ticktext=shown),
        yaxis=dict(title="rows", rangemode="tozero"),
        legend=dict(orientation="v", yanchor="top", y=1.0, xanchor="left", x=1.01,
                    font=dict(size=11)),
    )
    return fig


def level_counts(y: ArrayLike, levels: Sequence) -> list[int]:
    """Rows at each level (empty levels count 0), in the order of ``levels``.

    Returns
    -------
    list of int
    """
    keys = [str(level) for level in levels]
    counts = pd.Series(np.asarray(y, dtype=object)).map(str).value_counts()
    return [int(counts.get(k, 0)) for k in keys]


def _trials_text(trials) -> list[str]:
    """``"1 trial"``, ``"20 trials"``: hover text of each point's number of trials."""
    return [f"{int(t)} trial" if int(t) == 1 else f"{int(t)} trials" for t in trials]
