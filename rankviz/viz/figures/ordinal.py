"""Plotly figures and display tables of the ordinal Monte Carlo experiments (seed 002).

Figures follow the seed: Fig. 2 (mean absolute rank loss against tree depth,
both criteria, with the baselines) and Fig. 3 (loss against label noise σ,
one panel per training size; ranking tree solid, classification tree
dash-dotted, whiskers the 95% Student-t confidence intervals). The inputs are
the summaries of :func:`rankviz.experiments.monte_carlo.loss_summary`; no Streamlit here.
"""

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ...experiments.monte_carlo import TREE_METHODS, loss_summary
from .ranking_trees import METHOD_COLOURS, _OTHER_COLOURS, _translucent

__all__ = ["LOSS_AXIS_TITLE", "TREE_STYLES", "loss_by_depth", "loss_by_noise", "method_table",
           "noise_table", "format_loss"]

#: y-axis title of every rank-loss figure: the loss counts level steps.
LOSS_AXIS_TITLE = "mean absolute rank loss (levels)"

#: Colour and dash of each criterion's tree. The seed draws the ranking tree
#: solid and the classification (Gini) tree dash-dotted; the ranking tree
#: keeps seed 001's black (:data:`rankviz.viz.figures.ranking_trees.METHOD_COLOURS`).
TREE_STYLES = {
    TREE_METHODS["ranking_impurity"]: dict(color=METHOD_COLOURS["Ranking tree"], dash="solid"),
    TREE_METHODS["gini"]: dict(color="#1f77b4", dash="dashdot"),
}


def _tree_style(method, k):
    return TREE_STYLES.get(method, dict(color=_OTHER_COLOURS[k % len(_OTHER_COLOURS)], dash="solid"))


def _baseline_style(method, k):
    # Seed 001's colours would draw the default ranking white: baselines are
    # told apart by dash pattern instead, as in rankviz.viz.figures.ranking_trees.gamma_curves.
    if method.startswith("KNN"):
        return dict(color="#7a7a7a", dash="dash")
    if method.startswith("Default"):
        return dict(color="#222222", dash="dot")
    return dict(color=_OTHER_COLOURS[k % len(_OTHER_COLOURS)], dash="longdash")


def _half_widths(ci):
    # One trial has no spread to estimate (NaN): draw no whisker rather than none at all.
    return np.nan_to_num(np.asarray(ci, dtype=float), nan=0.0)


def format_loss(mean, ci, digits=3):
    """``"0.162 ± 0.008"``; the mean alone when the half-width is unknown (one trial)."""
    if mean is None or not np.isfinite(mean):
        return "—"
    if ci is None or not np.isfinite(ci):
        return f"{mean:.{digits}f}"
    return f"{mean:.{digits}f} ± {ci:.{digits}f}"


def loss_by_depth(summary_by_depth, baselines=None, *, title=None):
    """Mean rank loss of each tree cut at every depth, with baselines (seed 002, Fig. 2).

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
                         color=_translucent(style["color"], 0.8), thickness=1.2, width=4),
            customdata=group["trials"].to_numpy(),
            hovertemplate="depth %{x}: %{y:.4f} ± %{error_y.array:.4f} "
                          "(%{customdata} trials)<extra>" + method + "</extra>",
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
        title=title or "Mean rank loss against tree depth (seed 002, Fig. 2; whiskers: 95% CI)",
        xaxis_title="tree depth", yaxis_title=LOSS_AXIS_TITLE, legend_title="Method",
        template="plotly_white", height=440, margin=dict(t=70, l=70, r=20, b=50),
    )
    fig.update_xaxes(dtick=1)
    fig.update_yaxes(rangemode="tozero")
    return fig


def loss_by_noise(summary, *, title=None):
    """Mean rank loss against label noise σ, one panel per training size (seed 002, Fig. 3).

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
                             color=_translucent(style["color"], 0.8), thickness=1.2, width=4),
                customdata=group["trials"].to_numpy(),
                hovertemplate="σ = %{x}: %{y:.4f} ± %{error_y.array:.4f} (%{customdata} trials)"
                              f"<extra>{method}, n = {size:,}</extra>",
            )
        fig.update_xaxes(title_text="label noise level σ", row=1, col=col)
    fig.update_yaxes(title_text=LOSS_AXIS_TITLE, rangemode="tozero", row=1, col=1)
    fig.update_layout(
        title=title or "Mean rank loss against label noise (seed 002, Fig. 3; whiskers: 95% CI)",
        legend_title="Method", template="plotly_white", height=440,
        margin=dict(t=90, l=70, r=20, b=50),
    )
    return fig


def method_table(records, confidence=0.95):
    """Table I of seed 002: each method's own prediction, mean loss ± CI over trials.

    Parameters
    ----------
    records : DataFrame or list of dict
        As yielded by :func:`rankviz.experiments.monte_carlo.run_trials`.

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


def noise_table(records, confidence=0.95):
    """Fig. 3 as a table: mean loss ± CI per training size and noise level, criteria side by side.

    Parameters
    ----------
    records : DataFrame or list of dict
        As yielded by :func:`rankviz.experiments.monte_carlo.noise_trials`.

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
