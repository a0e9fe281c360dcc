"""Figures of a ranking forest: each feature's permutation importance per label."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from numpy.typing import ArrayLike

from .style import user_text

__all__ = ["importance_heatmap"]

#: Above this many features the heatmap keeps the most important ones (by the overall drop).
MAX_FEATURES_SHOWN = 40


def importance_heatmap(importances: ArrayLike, feature_names: Sequence[str], label_names: Sequence[str], *,
                       overall: ArrayLike | None = None, n_test: int | None = None,
                       max_features: int = MAX_FEATURES_SHOWN) -> go.Figure:
    """Permutation importance of every feature for every label, most important features on top.

    Parameters
    ----------
    importances : array-like of shape (n_features, n_labels)
        Drop of each label's agreement (Kendall's tau over the label's pairs,
        :func:`rankviz.label_ranking.label_agreement`) when the feature is
        shuffled (``importances_mean`` of
        :func:`rankviz.label_ranking.permutation_importance`).
    feature_names, label_names : sequence of str
        Names of the rows and columns.
    overall : array-like of shape (n_features,), optional
        The drop of the mean Kendall tau per feature: orders the rows and is
        written beside them. By default the mean over the labels orders them.
    n_test : int, optional
        Rows the importance was measured on, for the title.
    max_features : int, default=40
        Rows drawn at most: the most important features.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    values = np.asarray(importances, dtype=float)
    n_features, n_labels = values.shape
    total = np.asarray(overall, dtype=float) if overall is not None else np.nanmean(values, axis=1)
    order = np.argsort(-np.nan_to_num(total, nan=-np.inf), kind="stable")[:max_features]
    rows = [f"{user_text(feature_names[j])} ({total[j]:+.3f})" for j in order]
    columns = [user_text(name) for name in label_names]
    # A diverging scale centred on 0: a negative drop (shuffling helped, noise) is not importance.
    reach = float(np.nanmax(np.abs(values[order]))) if np.isfinite(values[order]).any() else 1.0
    reach = reach or 1.0
    shown = "" if len(order) == n_features else f" (the {len(order)} most important of {n_features} features)"
    measured = "" if n_test is None else f" on {n_test:,} held-out rows"
    height = int(np.clip(28 * len(order), 180, 1100)) + 170
    figure = go.Figure(go.Heatmap(
        z=values[order], x=columns, y=rows, zmin=-reach, zmax=reach, zmid=0.0,
        colorscale=[[0.0, "#b2182b"], [0.5, "#f7f7f7"], [1.0, "#2166ac"]], xgap=1, ygap=1,
        colorbar=dict(title=dict(text="drop of the label's Kendall tau", side="right")),
        texttemplate="%{z:.2f}" if len(order) * n_labels <= 400 else None,
        hovertemplate="shuffling %{y}: label %{x} loses %{z:.3f} of Kendall tau<extra></extra>"))
    figure.update_layout(
        title=dict(text=f"Permutation importance per label{measured}{shown}"),
        xaxis=dict(title=dict(text="label"), type="category", side="bottom"),
        yaxis=dict(title=dict(text="feature (drop of the mean Kendall tau)"), type="category", autorange="reversed"),
        template="plotly_white", height=height, margin=dict(t=60, l=10, r=10, b=60))
    return figure
