"""The critical-difference diagram of a benchmark report, as a matplotlib figure.

Methods sit on an axis of average ranks (1 = best); methods whose Nemenyi
p-value is at least ``alpha`` are joined by a bar, and the critical
difference is drawn above the axis (Demšar 2006, figure 1). The drawing is
:func:`scikit_posthocs.critical_difference_diagram`'s, on a figure built
without pyplot (Agg canvas: no display, no global state). Unlike the rest of
:mod:`rankviz.viz.figures` this is a static matplotlib figure: it goes into
Markdown and HTML reports as SVG and PNG.

References
----------
.. [1] J. Demšar, "Statistical comparisons of classifiers over multiple data
   sets", Journal of Machine Learning Research 7, pp. 1-30, 2006.
.. [2] M. Terpilowski, "scikit-posthocs: Pairwise multiple comparison tests
   in Python", Journal of Open Source Software 4(36), 1169, 2019.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from rankviz.safe_text import visible_controls

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["AXIS_LABEL", "mpl_text", "critical_difference_figure", "figure_bytes", "save_figure"]

#: The label of the rank axis.
AXIS_LABEL = "average rank (1 = best)"

# matplotlib reads "$...$" as mathtext; a backslash-escaped dollar is literal.
_MATHTEXT = re.compile(r"([$\\])")


def mpl_text(text: object) -> str:
    """``text`` as literal matplotlib text: ``$`` and ``\\`` escaped, bidi controls made visible.

    >>> mpl_text("a$b$")
    'a\\\\$b\\\\$'
    """
    return _MATHTEXT.sub(r"\\\1", visible_controls(" ".join(str(text).splitlines())))


def critical_difference_figure(ranks: pd.Series, pvalues: pd.DataFrame, *, cd: float, alpha: float = 0.05,
                               measure: str = "", n_datasets: int | None = None) -> Figure:
    """The critical-difference diagram of average ranks and Nemenyi p-values.

    Parameters
    ----------
    ranks : Series
        Average rank per method (1 = best).
    pvalues : DataFrame
        Pairwise post-hoc p-values, labelled like ``ranks``.
    cd : float
        The critical difference, drawn above the axis.
    alpha : float, default=0.05
        Pairs with a p-value of at least ``alpha`` are joined by a bar.
    measure : str, default=""
        Named in the title.
    n_datasets : int, optional
        ``N``, named in the title.

    Returns
    -------
    matplotlib.figure.Figure
        On an Agg canvas; the method names are shown literally (no mathtext).
    """
    import scikit_posthocs
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    labels = {str(method): mpl_text(method) for method in ranks.index}
    if len(set(labels.values())) < len(labels):
        raise ValueError("two method names look the same once escaped; rename one.")
    shown_ranks = pd.Series(ranks.to_numpy(dtype=float), index=[labels[str(m)] for m in ranks.index])
    shown_p = pd.DataFrame(pvalues.to_numpy(dtype=float), index=[labels[str(m)] for m in pvalues.index],
                           columns=[labels[str(m)] for m in pvalues.columns])
    figure = Figure(figsize=(7.0, 1.2 + 0.32 * len(shown_ranks)), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    scikit_posthocs.critical_difference_diagram(shown_ranks, shown_p, ax=axes, alpha=alpha, cd=cd,
                                                label_fmt_left="{label} ({rank:.2f})",
                                                label_fmt_right="({rank:.2f}) {label}")
    _lift_cd_bar(axes)
    axes.set_xlabel(AXIS_LABEL)
    title = f"{mpl_text(measure)}: α = {alpha:g}" if measure else f"α = {alpha:g}"
    if n_datasets is not None:
        title += f", N = {n_datasets}"
    axes.set_title(f"{title}, CD = {cd:.3f}", pad=40)
    return figure


def _lift_cd_bar(axes) -> None:
    """Move the CD bar and its label (the last line and text drawn) above the rank axis's tick labels.

    scikit-posthocs draws them half a row above the axis in data units, which
    on a short figure lands on the tick labels; here they are placed a fixed
    distance above the axis in points, whatever the figure's height.
    """
    from matplotlib.transforms import ScaledTranslation, blended_transform_factory

    def above(points: float):
        lift = ScaledTranslation(0, points / 72, axes.figure.dpi_scale_trans)
        return blended_transform_factory(axes.transData, axes.transAxes) + lift

    bar, label = axes.lines[-1], axes.texts[-1]
    bar.set_ydata([1.0, 1.0])
    bar.set_transform(above(22))
    bar.set_clip_on(False)  # it lies outside the axes box now
    label.set_y(1.0)
    label.set_transform(above(25))
    label.set_verticalalignment("bottom")


def figure_bytes(figure: Figure, fmt: str) -> bytes:
    """The figure encoded as ``fmt`` (``"svg"`` or ``"png"``); SVG text as shapes, no fonts needed."""
    if fmt not in ("svg", "png"):
        raise ValueError(f"fmt must be 'svg' or 'png', got {fmt!r}.")
    buffer = io.BytesIO()
    figure.savefig(buffer, format=fmt, dpi=150, metadata={"Date": None} if fmt == "svg" else None)
    return buffer.getvalue()


def save_figure(figure: Figure, path: str | Path) -> list[Path]:
    """Write ``figure`` as ``<path>.svg`` and ``<path>.png`` (``path`` without suffix); the paths."""
    base = Path(path)
    written = []
    for fmt in ("svg", "png"):
        target = base.with_name(f"{base.name}.{fmt}")
        target.write_bytes(figure_bytes(figure, fmt))
        written.append(target)
    return written
