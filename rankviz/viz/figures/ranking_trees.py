"""Plotly figures of ranking trees (Rebelo, Soares & Costa 2008): evaluation results, γ curves and the node inspector.

No Streamlit here; colours shared with the other figures are in :mod:`rankviz.viz.figures.style`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import plotly.graph_objects as go
from numpy.typing import ArrayLike
from plotly.subplots import make_subplots

from ...experiments.statistics import t_interval
from .style import METHOD_COLOURS, method_colour, other_colour, translucent, user_text

if TYPE_CHECKING:
    import pandas as pd

    from ...tree.gamma_path import GammaPath

__all__ = ["METHOD_COLOURS", "gamma_curves", "leaf_count_curve", "metric_bars", "metric_distribution",
           "rank_heatmap", "threshold_curve"]

#: The γ currently chosen, marked on every γ chart.
CURRENT_COLOUR = "#d62728"
#: Lines between the leaves' bands of a node's heat map: red shows on every blue of its scale.
BAND_COLOUR = "#d62728"


def metric_bars(scores: pd.DataFrame, measures: Sequence[str] = ("CS", "WRC", "LRA")) -> go.Figure:
    """Grouped bars of the mean of each measure per method, with 95% Student-t intervals.

    Parameters
    ----------
    scores : DataFrame
        Per-example scores from :func:`rankviz.experiments.cross_validation.compare_methods`.
    measures : sequence of str, default=("CS", "WRC", "LRA")

    Returns
    -------
    plotly.graph_objects.Figure
    """
    fig = go.Figure()
    for k, (method, group) in enumerate(scores.groupby("method", sort=False)):
        # Student-t 95% interval of the mean over the held-out examples.
        mean, half = np.transpose([t_interval(group[measure]) for measure in measures])
        fig.add_bar(
            name=method, x=list(measures), y=mean,
            error_y=dict(type="data", array=np.nan_to_num(half), visible=True, color="#555555"),
            marker=dict(color=method_colour(method, k), line=dict(color="#222222", width=1.2)),
            hovertemplate="%{x}: %{y:.3f} ± %{error_y.array:.3f}<extra>" + method + "</extra>",
        )
    fig.update_layout(
        barmode="group", title="Mean score on held-out examples (whiskers: 95% CI of the mean)",
        xaxis_title="Measure", yaxis_title="Mean score (1 = identical ranking)",
        legend_title="Method", template="plotly_white", height=420,
        margin=dict(t=60, l=60, r=20, b=50),
    )
    return fig


def metric_distribution(scores: pd.DataFrame, measure: str = "CS") -> go.Figure:
    """Per-example distribution of one measure for each method (box plot with points).

    Parameters
    ----------
    scores : DataFrame
        Per-example scores from :func:`rankviz.experiments.cross_validation.compare_methods`.
    measure : str, default="CS"

    Returns
    -------
    plotly.graph_objects.Figure
    """
    fig = go.Figure()
    for k, (method, group) in enumerate(scores.groupby("method", sort=False)):
        colour = method_colour(method, k)
        # A translucent fill keeps the median line and the points visible on
        # every method's colour, black included.
        fig.add_box(
            name=method, y=group[measure], boxpoints="all", jitter=0.5, pointpos=-1.6,
            marker=dict(color="#777777" if colour == "#ffffff" else colour, size=4, opacity=0.7,
                        line=dict(color="#222222", width=0.5)),
            line=dict(color="#222222", width=1.5), fillcolor=translucent(colour),
            customdata=group["example"], hovertemplate="example %{customdata}: %{y:.3f}<extra></extra>",
        )
    fig.update_layout(
        title=f"{measure} of each held-out example", xaxis_title="Method",
        yaxis_title=f"{measure} (1 = identical ranking)", showlegend=False,
        template="plotly_white", height=420, margin=dict(t=60, l=60, r=20, b=50),
    )
    return fig


def threshold_curve(candidates: pd.DataFrame, feature: int | str, *, chosen_threshold: float | None = None,
                    similarity_parent: float | None = None, gamma: float | None = None,
                    similarity_label: str = "similarity", show_sides: bool = True) -> go.Figure:
    """The score of every threshold of one numeric attribute in a node.

    Parameters
    ----------
    candidates : DataFrame
        The table of :func:`rankviz.tree.node_inspection.candidate_splits` for the node.
    feature : int or str
        The attribute, by index or by name; its numeric candidates are drawn.
    chosen_threshold : float, optional
        Threshold of the split the tree chose, marked with a vertical line.
    similarity_parent : float, optional
        ``S_parent`` of the node, drawn as a horizontal line.
    gamma : float, optional
        With ``similarity_parent``: a dashed line at the least ``S_split``
        stopping rule (6) accepts, ``(1 + S_parent) / gamma - 1``.
    similarity_label : str, default="similarity"
        What the criterion's similarity is, for the y axis.
    show_sides : bool, default=True
        Also draw the similarity of each side (``x <= t`` and ``x > t``), dotted.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    by_name = isinstance(feature, str)
    rows = candidates[(candidates["attribute"] if by_name else candidates["feature"]) == feature]
    rows = rows[rows["kind"] == "numeric"]
    if "missing_meet" in rows and rows["missing_meet"].any():
        # With missing values each threshold is listed with them on either
        # side; draw the side the builder would take (the better score, ties
        # to "rest"), one point per threshold.
        rows = rows.sort_values(["threshold", "score", "missing_meet"], ascending=[True, False, True])
        rows = rows.drop_duplicates("threshold")
    rows = rows.sort_values("threshold")
    # The attribute's name is user text: escaped for plotly (tags, bidi controls).
    name = user_text(feature if by_name else (rows["attribute"].iloc[0] if len(rows) else f"attribute {feature}"))
    t = rows["threshold"].to_numpy()

    # One constructor call: plotly validates every add/update call anew (the
    # add_scatter/add_vline/add_hline version took 40 ms, for every click on a node).
    data = []
    if show_sides:
        for column, side, colour in (("similarity_meet", "<=", "#1f77b4"),
                                     ("similarity_rest", ">", "#d62728")):
            data.append(dict(
                type="scatter", x=t, y=rows[column].to_numpy(), mode="lines", name=f"rows with {name} {side} t",
                line=dict(color=colour, dash="dot", width=1.5),
                # no <extra>: plotly shows the trace's name there, not read as a template
                hovertemplate="t = %{x:.4g}: %{y:.3f}"))
    data.append(dict(
        type="scatter", x=t, y=rows["score"].to_numpy(), mode="lines+markers", name="S_split (weighted mean)",
        line=dict(color="#222222", width=2.5), marker=dict(size=6),
        customdata=np.column_stack([rows["n_meet"], rows["n_rest"]]) if len(rows) else None,
        hovertemplate="t = %{x:.4g}: S_split %{y:.3f} (%{customdata[0]} | %{customdata[1]} rows)"
                      "<extra></extra>"))
    shapes, notes = [], []
    box = "rgba(255,255,255,0.8)"  # text stays readable over lines

    def horizontal(y: float, line: dict, text: str, above: bool) -> None:
        shapes.append(dict(type="line", xref="x domain", x0=0, x1=1, yref="y", y0=y, y1=y, line=line))
        notes.append(dict(text=text, xref="x domain", x=1, xanchor="right", yref="y", y=y,
                          yanchor="bottom" if above else "top", showarrow=False, bgcolor=box))

    if chosen_threshold is not None:
        shapes.append(dict(type="line", xref="x", x0=chosen_threshold, x1=chosen_threshold, yref="y domain",
                           y0=0, y1=1, line=dict(color="#2ca02c", width=2)))
        notes.append(dict(text=f"chosen: {name} <= {chosen_threshold:.4g}", xref="x", x=chosen_threshold,
                          xanchor="right", yref="y domain", y=1, yanchor="top", showarrow=False, bgcolor=box))
    if similarity_parent is not None:
        horizontal(similarity_parent, dict(color="#777777", width=1.5),
                   f"S_parent (the node) = {similarity_parent:.3f}", above=False)
        if gamma is not None:
            # Rule (6) splits when 1 + S_parent < γ (1 + S_split).
            needed = (1.0 + similarity_parent) / gamma - 1.0
            horizontal(needed, dict(color="#ff7f0e", width=1.5, dash="dash"),
                       f"rule (6) needs S_split above this: {needed:.3f} (γ = {gamma:g})", above=True)
    if not len(rows):
        notes.append(dict(text=f"no threshold of {name} leaves enough rows on both sides",
                          showarrow=False, xref="paper", yref="paper", x=0.5, y=0.5))
    return go.Figure(data=data, layout=dict(
        title=dict(text=f"Every threshold of {name}: split score S_split"),
        xaxis=dict(title=dict(text=f"{name} (threshold)")), yaxis=dict(title=dict(text=similarity_label)),
        shapes=shapes, annotations=notes,
        template="plotly_white", height=420, margin=dict(t=60, l=60, r=20, b=50),
        legend=dict(orientation="h", yanchor="bottom", y=-0.35),
    ))


def rank_heatmap(Y_node: ArrayLike, label_names: Sequence[str], ranking: ArrayLike, mean_rank: ArrayLike, *,
                 example_ids: Sequence[object] | None = None, groups: Sequence[str] | None = None,
                 n_examples: int | None = None) -> go.Figure:
    """The rankings of a node's examples, labels in the node's predicted order.

    One row per example, one column per label, best predicted label left;
    below, the mean position of each label and the position the mean-rank
    rule gives it, so the prediction can be read off the rows above.

    Parameters
    ----------
    Y_node : array-like of shape (n_examples, n_labels)
        Rank positions of the node's examples (NaN = label missing, left
        blank), in the order to draw them (e.g.
        :func:`rankviz.tree.node_inspection.ordered_rows`).
    label_names : sequence of str
    ranking : array-like of shape (n_labels,)
        The node's predicted positions (a permutation of ``1..n_labels``).
    mean_rank : array-like of shape (n_labels,)
        Mean position of each label in the node.
    example_ids : sequence, optional
        Names of the examples for the rows (shown on hover); ``1..n_examples``
        by default.
    groups : sequence of str, optional
        The group of each row, e.g. the leaf it reaches (``"#5"``): consecutive
        rows of one group form a band, with a line between bands, the group's
        name beside it (up to 30 bands) and in each cell's hover text.
    n_examples : int, optional
        How many examples the node has when the rows are a selection of them;
        the title then says how many are drawn.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    Y_node = np.asarray(Y_node, dtype=float)
    ranking = np.asarray(ranking, dtype=float)
    mean_rank = np.asarray(mean_rank, dtype=float)
    n, n_labels = Y_node.shape
    order = np.argsort(ranking, kind="stable")
    # plotly reads tags such as <b> in tick text: user names are escaped (user_text)
    labels = [user_text(label_names[j]) for j in order]
    ids = [str(e) for e in (example_ids if example_ids is not None else range(1, n + 1))]

    # The examples' rows thin out past ~40 examples instead of the figure growing on.
    rows_px = int(np.clip(14 * n, 120, 600))
    # Dark blue for position 1 down to a pale blue that stays visible on white,
    # so a missing label (NaN, drawn as no cell) is not mistaken for the last position.
    colour = dict(colorscale=[[0.0, "#08306b"], [0.5, "#4292c6"], [1.0, "#d6e6f4"]],
                  cmin=1, cmax=n_labels,
                  colorbar=dict(title=dict(text="rank position (1 = best)", side="right")))
    where = ""
    extra: dict = {}
    if groups is not None:
        groups = [str(g) for g in groups]
        if len(groups) != n:
            raise ValueError(f"groups must name the group of each of the {n} rows, got {len(groups)}")
        extra["customdata"] = [[user_text(g)] * n_labels for g in groups]
        where = " (leaf %{customdata})"
    means = mean_rank[order]
    # a tied label's position is the average of those its tie fills (2.5): written as it is
    text = [f"{m:.2f} → {p:g}" if np.isfinite(m) else f"– → {p:g}" for m, p in zip(means, ranking[order])]
    total = n if n_examples is None else int(n_examples)
    title = (f"Rankings of the {total} example{'s' if total != 1 else ''} in the node" if n >= total
             else f"Rankings of {n} of the {total:,} examples in the node (evenly spaced)")
    # Two rows sharing the label axis (the layout make_subplots(rows=2, shared_xaxes=True) makes),
    # written out in one constructor call: plotly validates every update call anew, and a click
    # on a node waited 50 ms for the make_subplots/add/update version of this figure.
    spacing = 0.04
    top_share = (1 - spacing) * rows_px / (rows_px + 60)
    bottom_share = (1 - spacing) * 60 / (rows_px + 60)
    data = [
        # Categories, not numbers: example ids such as "3", "17", "40" must give
        # equal rows in the given order, not cells spaced on a number line.
        dict(type="heatmap", z=Y_node[:, order], x=labels, y=ids, coloraxis="coloraxis", xgap=1,
             ygap=1 if n <= 60 else 0, hoverongaps=False, xaxis="x", yaxis="y",
             hovertemplate=f"example %{{y}}{where}, %{{x}}: position %{{z}}<extra></extra>", **extra),
        dict(type="heatmap", z=[means], x=labels, y=["mean rank → predicted"], coloraxis="coloraxis", xgap=1,
             text=[text], texttemplate="%{text}", xaxis="x2", yaxis="y2",
             hovertemplate="%{x}: mean position %{z:.2f}<extra></extra>"),
    ]
    layout = dict(
        xaxis=dict(anchor="y", domain=[0.0, 1.0], matches="x2", showticklabels=False, type="category"),
        yaxis=dict(anchor="x", domain=[1 - top_share, 1.0], type="category", autorange="reversed",
                   title=dict(text="example")),
        xaxis2=dict(anchor="y2", domain=[0.0, 1.0], type="category",
                    title=dict(text="label (in the node's predicted order, best left)")),
        yaxis2=dict(anchor="x2", domain=[0.0, bottom_share]),
        coloraxis=colour, title=dict(text=title), template="plotly_white", height=rows_px + 60 + 150,
        margin=dict(t=60, l=60, r=60 if groups is not None else 20, b=70),
    )
    if groups is not None:
        layout.update(_group_bands(groups))
    return go.Figure(data=data, layout=layout)


def _group_bands(groups: Sequence[str]) -> dict[str, list[dict]]:
    """The layout's lines between runs of equal groups on the rows of the first axes, and their names at the right.

    All the lines are one path shape: plotly validates each shape on its own
    (``add_shape`` one per band was quadratic: 300 bands took 10.9 s), so a
    node of thousands of leaves would cost seconds in shapes alone.
    """
    n = len(groups)
    starts = [0] + [k for k in range(1, n) if groups[k] != groups[k - 1]]
    ends = starts[1:] + [n]
    bands: dict[str, list[dict]] = {"shapes": [], "annotations": []}
    if len(starts) > 1:
        # The rows fill the axis top down (reversed), row k from k/n to (k+1)/n of
        # the height: positions in the axis' domain, never read as category names.
        path = " ".join(f"M0,{1 - start / n:.6g} H1" for start in starts[1:])
        bands["shapes"].append(dict(type="path", path=path, xref="x domain", yref="y domain",
                                    line=dict(color=BAND_COLOUR, width=1.5)))
    if len(starts) <= 30:
        bands["annotations"] = [dict(text=user_text(groups[start]), xref="x domain", x=1.0, xanchor="left",
                                     yref="y domain", y=1 - (start + end) / (2 * n), showarrow=False,
                                     font=dict(size=10)) for start, end in zip(starts, ends)]
    return bands


def leaf_count_curve(path: GammaPath, gamma_range: tuple[float, float], current: float | None = None) -> go.Figure:
    """Number of leaves against γ (Rebelo, Soares & Costa 2008, Figure 2), as the exact step function.

    Parameters
    ----------
    path : rankviz.tree.gamma_path.GammaPath
    gamma_range : (float, float)
        The γ axis.
    current : float, optional
        γ to mark with a vertical line and its leaf count.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    low, high = (float(g) for g in gamma_range)
    inside = path.breakpoints[(path.breakpoints > low) & (path.breakpoints < high)]
    # The tree changes just above each breakpoint (rule 6 stops at equality):
    # each step starts at its breakpoint with the count just above it.
    x = np.r_[low, inside, high]
    y = np.r_[path.n_leaves(low), path.n_leaves(np.nextafter(inside, np.inf)), path.n_leaves(high)]
    # Plain 1-2-5 ticks: plotly's default log ticks label minor digits ("2 3" for 20, 30).
    top = max(int(y.max()), 2)
    ticks = [m * 10**e for e in range(int(np.log10(top)) + 2) for m in (1, 2, 5) if m * 10**e <= top * 1.5]
    data = [
        dict(type="scatter", x=x, y=y, mode="lines", line_shape="hv", line=dict(color="#222222", width=2),
             customdata=["leaf" if count == 1 else "leaves" for count in y], name="leaves",
             hovertemplate="γ > %{x:.4f}: %{y} %{customdata}<extra></extra>"),
        dict(type="scatter", x=inside, y=path.n_leaves(np.nextafter(inside, np.inf)), mode="markers",
             marker=dict(color="#222222", size=6), name="breakpoints",
             hovertemplate="breakpoint γ = %{x:.5f}<extra></extra>"),
    ]
    shapes, notes = [], []
    if current is not None:
        count = int(path.n_leaves(current))
        shapes.append(dict(type="line", xref="x", x0=current, x1=current, yref="y domain", y0=0, y1=1,
                           line=dict(color=CURRENT_COLOUR, width=2, dash="dash")))
        notes.append(dict(x=current, y=1, yref="paper", yanchor="bottom", showarrow=False,
                          text=f"γ = {current:.3f}: {count} {'leaf' if count == 1 else 'leaves'}",
                          font=dict(color=CURRENT_COLOUR)))
    # One constructor call: plotly validates every add/update call anew, on every γ step.
    return go.Figure(data=data, layout=dict(
        title=dict(text="Number of leaves against γ (cf. Rebelo et al. 2008, Figure 2)"),
        xaxis=dict(title=dict(text="γ (stopping parameter, rule 6)"), range=[low, high]),
        yaxis=dict(title=dict(text="leaves (log scale)"), type="log", tickvals=ticks,
                   ticktext=[str(t) for t in ticks], range=[-0.05, np.log10(top * 1.3)]),
        shapes=shapes, annotations=notes, showlegend=False, template="plotly_white", height=360,
        margin=dict(t=70, l=60, r=20, b=50),
    ))


def gamma_curves(curves: pd.DataFrame, baselines: dict[str, dict[str, float]] | None = None,
                 current: float | None = None, measures: Sequence[str] = ("CS", "WRC", "LRA")) -> go.Figure:
    """Held-out scores of the tree against γ, one panel per measure, with 95 % CI bands.

    Parameters
    ----------
    curves : DataFrame
        From :func:`rankviz.experiments.cross_validation.gamma_curves` (index
        γ; ``<measure> ci`` columns, when present, are drawn as a band of
        mean ± half-width; ``attrs`` name the protocol and whether the curves
        are partial).
    baselines : dict of str -> dict of str -> float, optional
        Mean score of other methods per measure (e.g. KNN and the default
        ranking), drawn as horizontal lines.
    current : float, optional
        γ to mark with a vertical line.
    measures : sequence of str, default=("CS", "WRC", "LRA")

    Returns
    -------
    plotly.graph_objects.Figure
    """
    banded = all(f"{m} ci" in curves for m in measures)
    suffix = " (band: 95% CI over examples)" if banded else ""
    fig = make_subplots(rows=len(measures), cols=1, shared_xaxes=True, vertical_spacing=0.07,
                        subplot_titles=[f"{m}, mean over held-out examples{suffix}" for m in measures])
    gammas = curves.index.to_numpy()
    tree_colour = METHOD_COLOURS["Ranking tree"]
    for row, measure in enumerate(measures, start=1):
        first = row == 1
        if banded:
            half = np.nan_to_num(curves[f"{measure} ci"].to_numpy())
            mean = curves[measure].to_numpy()
            fig.add_scatter(x=np.r_[gammas, gammas[::-1]], y=np.r_[mean + half, (mean - half)[::-1]],
                            fill="toself", fillcolor=translucent(tree_colour, 0.15), line=dict(width=0),
                            name="95% CI", legendgroup="ci", showlegend=first, hoverinfo="skip",
                            row=row, col=1)
        fig.add_scatter(x=gammas, y=curves[measure], mode="lines", name="Ranking tree",
                        line=dict(color=tree_colour, width=2),
                        legendgroup="tree", showlegend=first, row=row, col=1,
                        hovertemplate="γ = %{x:.3f}: %{y:.4f}<extra>" + measure + "</extra>")
        best = int(np.nanargmax(curves[measure].to_numpy()))
        fig.add_scatter(x=[gammas[best]], y=[curves[measure].iloc[best]], mode="markers",
                        name="best γ", marker=dict(symbol="star", size=12, color="#d4a017",
                                                   line=dict(color="#222222", width=1)),
                        legendgroup="best", showlegend=first, row=row, col=1,
                        hovertemplate="best γ = %{x:.3f}: %{y:.4f}<extra></extra>")
        for k, (method, scores) in enumerate((baselines or {}).items()):
            # Lines, not bars: the default ranking's white (METHOD_COLOURS) would not
            # show, so the baselines are told apart by dash pattern instead.
            knn = method.startswith("KNN")
            colour = "#7a7a7a" if knn else {"Default ranking": "#222222"}.get(method, other_colour(k))
            dash = "dash" if knn else "dot"
            fig.add_scatter(x=[gammas[0], gammas[-1]], y=[scores[measure]] * 2, mode="lines",
                            name=method, line=dict(color=colour, width=1.5, dash=dash),
                            legendgroup=method, showlegend=first, row=row, col=1,
                            hovertemplate=f"{method}: %{{y:.4f}}<extra>{measure}</extra>")
        fig.update_yaxes(title_text=f"{measure} (1 = identical)", row=row, col=1)
    if current is not None:
        fig.add_vline(x=current, line=dict(color=CURRENT_COLOUR, width=2, dash="dash"))
        fig.add_annotation(x=current, y=1, xref="x", yref="paper", yanchor="bottom", yshift=18,
                           showarrow=False, text=f"current γ = {current:.3f}",
                           font=dict(color=CURRENT_COLOUR))
    fig.update_xaxes(title_text="γ (stopping parameter, rule 6; no unit)", row=len(measures), col=1)
    attrs = curves.attrs
    cv = attrs.get("cv", "loo")
    protocol = ("Leave-one-out" if cv == "loo" else
                (f"{attrs.get('repetitions', 1)} × " if attrs.get("repetitions", 1) > 1 else "") + f"{cv}-fold")
    partial = (f" — partial ({attrs['folds_done']} of {attrs['folds_total']} folds)"
               if attrs.get("partial") else "")
    fig.update_layout(
        title=f"{protocol} scores against γ ({attrs.get('n_examples', '?')} held-out examples){partial}",
        template="plotly_white", height=230 * len(measures) + 130, legend_title="Method",
        margin=dict(t=90, l=60, r=20, b=50), hovermode="x unified",
    )
    return fig
