"""Draw an MPBoost ensemble (Zhu et al. 2009) with Graphviz: its stumps, or the additive model per feature.

Two views of the same model, as DOT text for :func:`rankviz.viz.graphviz.render`
and ``st.graphviz_chart``:

* :func:`stumps_to_dot` -- the latest stumps one by one, each a test
  ``x_k > t`` with its two outcomes ``+a`` and ``0`` (Zhu et al. 2009, eq. 17);
  the newest is outlined, so a growing ensemble shows each stump as it comes.
* :func:`additive_model_to_dot` -- the sum of stumps regrouped by feature:
  each feature's contribution to the score is a step function, listed as
  intervals with their added score. This is the model a reader can check:
  what the ranking function does with each feature.

Library text is ASCII (see :mod:`rankviz.viz.dot.common`); user text is escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from .common import BORDER_COLOR, EDGE_COLOR, HIGHLIGHT_COLOR, escape

if TYPE_CHECKING:
    from ...ltr.mpboost import MPBoost

__all__ = ["stumps_to_dot", "additive_model_to_dot", "feature_steps"]

POSITIVE_FILL = "#c6dbef"   # light blue: the stump raises the score above its threshold
NEGATIVE_FILL = "#fdd0a2"   # light orange: it lowers it
ZERO_FILL = "#f5f5f5"

_GRAPH_HEAD = (
    'graph [fontname="Helvetica", fontsize=11, nodesep=0.25, ranksep=0.35];\n'
    f'node [fontname="Helvetica", fontsize=11, shape=box, style="rounded,filled", color="{BORDER_COLOR}"];\n'
    f'edge [fontname="Helvetica", fontsize=10, color="{EDGE_COLOR}"];\n'
)


def _names(model, feature_names):
    if feature_names is None:
        return [f"f{k + 1}" for k in range(model.n_features_in_)]
    return [str(name) for name in feature_names]


def _fmt(value):
    return f"{value:+.3g}"


def _fmt_threshold(value):
    return f"{value:.4g}"


def stumps_to_dot(model: MPBoost, feature_names: Sequence[str] | None = None, *, last: int = 10,
                  title: str | None = None) -> str:
    """DOT text of the latest ``last`` stumps side by side, oldest left, newest outlined.

    Parameters
    ----------
    model : MPBoost
        A fitted (or partly fitted) model.
    feature_names : sequence of str, optional
    last : int
        How many of the latest stumps to draw.
    title : str, optional
        A caption above the drawing.

    Returns
    -------
    str
        The DOT source; feature names and the title are escaped.
    """
    names = _names(model, feature_names)
    n = model.n_rounds_
    start = max(0, n - int(last))
    lines = ["digraph stumps {", "rankdir=TB; ordering=out;", _GRAPH_HEAD.rstrip("\n")]
    if title:
        lines.append(f'labelloc="t"; label=<<B>{escape(title)}</B>>;')
    if n == 0:
        lines.append('empty [label="no stumps yet", style="dashed"];')
    for t in range(start, n):
        newest = t == n - 1
        value = float(model.value_[t])
        fill = POSITIVE_FILL if value > 0 else NEGATIVE_FILL if value < 0 else ZERO_FILL
        outline = f', color="{HIGHLIGHT_COLOR}", penwidth=2.5' if newest else ""
        test = f"{escape(names[model.feature_[t]])} &gt; {_fmt_threshold(model.threshold_[t])}"
        lines.append(
            f's{t} [label=<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">'
            f'<TR><TD><FONT POINT-SIZE="9">round {t + 1}</FONT></TD></TR>'
            f'<TR><TD><B>{test}</B></TD></TR></TABLE>>, fillcolor="white"{outline}];'
        )
        lines.append(f's{t}_yes [label="{_fmt(value)}", fillcolor="{fill}"{outline}];')
        lines.append(f's{t}_no [label="0", fillcolor="{ZERO_FILL}"];')
        # "no" first: Graphviz then puts x <= t on the left, as trees are drawn
        lines.append(f's{t} -> s{t}_no [label="no", style="dashed"];')
        lines.append(f's{t} -> s{t}_yes [label="yes"];')
    if n > start + 1:
        # one row of stumps in round order
        lines.append("{rank=same; " + " ".join(f"s{t};" for t in range(start, n)) + "}")
        lines.append(" -> ".join(f"s{t}" for t in range(start, n)) + " [style=invis];")
    lines.append("}")
    return "\n".join(lines)


def feature_steps(model: MPBoost, feature: int) -> tuple[np.ndarray, np.ndarray]:
    """The step function one feature adds to the score.

    Parameters
    ----------
    model : MPBoost
        A fitted (or partly fitted) model.
    feature : int
        Column of the feature.

    Returns
    -------
    thresholds : ndarray of shape (m,)
        The distinct thresholds of the feature's stumps, ascending.
    levels : ndarray of shape (m + 1,)
        ``levels[0]`` is added below the first threshold (always 0), and
        ``levels[i]`` for ``thresholds[i - 1] < x <= thresholds[i]``.
    """
    mask = model.feature_ == feature
    thresholds, inverse = np.unique(model.threshold_[mask], return_inverse=True)
    jumps = np.bincount(inverse.ravel(), weights=model.value_[mask], minlength=thresholds.size)
    return thresholds, np.concatenate([[0.0], np.cumsum(jumps)])


def _importance(model):
    """Sum of gains per feature (the loss reduction its stumps brought)."""
    return np.bincount(model.feature_, weights=model.gain_, minlength=model.n_features_in_)


def additive_model_to_dot(model: MPBoost, feature_names: Sequence[str] | None = None, *, max_features: int = 8,
                          max_steps: int = 8, title: str | None = None) -> str:
    """DOT text of the model as a sum of one step function per feature.

    Features are ordered by the total gain of their stumps; the feature of the
    newest stump is outlined. A step function with more than ``max_steps``
    intervals shows its first and last intervals and how many are left out.

    Parameters
    ----------
    model : MPBoost
        A fitted (or partly fitted) model.
    feature_names : sequence of str, optional
    max_features : int, default=8
        How many features to draw, those of the largest total gain.
    max_steps : int, default=8
        Most intervals shown per feature.
    title : str, optional
        A caption above the drawing.

    Returns
    -------
    str
        The DOT source; feature names and the title are escaped.
    """
    names = _names(model, feature_names)
    lines = ["digraph additive {", "rankdir=TB;", _GRAPH_HEAD.rstrip("\n")]
    if title:
        lines.append(f'labelloc="t"; label=<<B>{escape(title)}</B>>;')
    n = model.n_rounds_
    used = np.flatnonzero(np.bincount(model.feature_, minlength=model.n_features_in_))
    order = used[np.argsort(-_importance(model)[used], kind="stable")]
    shown = order[: int(max_features)]
    root = f"F(x) = sum of {n} stump{'s' if n != 1 else ''} over {used.size} feature{'s' if used.size != 1 else ''}"
    lines.append(f'root [label="{root}", fillcolor="white"];')
    newest = int(model.feature_[-1]) if n else None
    for k in shown:
        lines.append(f"f{k} [shape=plain, style=\"\", label=<{_feature_table(model, k, names[k], k == newest, max_steps)}>];")
        lines.append(f"root -> f{k};")
    if used.size > shown.size:
        rest = used.size - shown.size
        lines.append(f'more [label="+ {rest} more feature{"s" if rest != 1 else ""}", style="dashed"];')
        lines.append("root -> more;")
    lines.append("}")
    return "\n".join(lines)


def _feature_table(model, k, name, newest, max_steps):
    thresholds, levels = feature_steps(model, k)
    border = HIGHLIGHT_COLOR if newest else BORDER_COLOR
    width = "2" if newest else "1"
    n_stumps = int((model.feature_ == k).sum())
    rows = [f'<TR><TD COLSPAN="2" BGCOLOR="white"><B>{escape(name)}</B>'
            f'<FONT POINT-SIZE="9">&#160;({n_stumps} stump{"s" if n_stumps != 1 else ""})</FONT></TD></TR>']
    intervals = []
    for i, level in enumerate(levels):
        if i == 0:
            text = f"x &lt;= {_fmt_threshold(thresholds[0])}"
        elif i == len(thresholds):
            text = f"x &gt; {_fmt_threshold(thresholds[-1])}"
        else:
            text = f"{_fmt_threshold(thresholds[i - 1])} &lt; x &lt;= {_fmt_threshold(thresholds[i])}"
        fill = POSITIVE_FILL if level > 0 else NEGATIVE_FILL if level < 0 else ZERO_FILL
        intervals.append(f'<TR><TD ALIGN="LEFT" BGCOLOR="{fill}">{text}</TD>'
                         f'<TD ALIGN="RIGHT" BGCOLOR="{fill}">{_fmt(level) if level else "0"}</TD></TR>')
    if len(intervals) > max_steps:
        head = max_steps // 2
        left_out = len(intervals) - 2 * head
        intervals = (intervals[:head]
                     + [f'<TR><TD COLSPAN="2"><FONT POINT-SIZE="9">... {left_out} more intervals ...</FONT></TD></TR>']
                     + intervals[len(intervals) - head:])  # not [-head:]: head may be 0
    return (f'<TABLE BORDER="{width}" COLOR="{border}" CELLBORDER="0" CELLSPACING="0" CELLPADDING="3">'
            + "".join(rows + intervals) + "</TABLE>")
