"""Colours and small helpers shared by the plotly figures of :mod:`rankviz.viz.figures`."""

from __future__ import annotations

from ..dot.common import escape

__all__ = ["METHOD_COLOURS", "OTHER_COLOURS", "method_colour", "other_colour", "translucent", "user_text"]

#: Figures 3-4 of Rebelo, Soares & Costa (2008): ranking trees black, KNN grey,
#: default ranking white. The ordinal figures keep the ranking tree's black.
METHOD_COLOURS = {"Ranking tree": "#222222", "KNN (k=1)": "#9a9a9a", "Default ranking": "#ffffff"}
#: Colours of methods that have none of their own, taken in turn.
OTHER_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e")


def other_colour(k: int) -> str:
    """The ``k``-th colour of :data:`OTHER_COLOURS`, cycling."""
    return OTHER_COLOURS[k % len(OTHER_COLOURS)]


def method_colour(method: str, k: int) -> str:
    """A method's colour in :data:`METHOD_COLOURS`, else :func:`other_colour` of its position ``k``."""
    return METHOD_COLOURS.get(method, other_colour(k))


def translucent(colour: str, alpha: float = 0.3) -> str:
    """``rgba(r,g,b,alpha)`` of a ``#rrggbb`` colour, e.g. for a filled area or faint whiskers."""
    red, green, blue = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgba({red},{green},{blue},{alpha})"


def user_text(text: object) -> str:
    """A user's name (label, feature, level, target) as a plotly figure shows it, literally.

    Every name a figure of :mod:`rankviz.viz.figures` takes passes through
    here before it becomes a tick, legend entry, hover text, annotation or
    title. Plotly reads tags such as ``<b>`` and ``<a href>`` in all of
    them, so the text is HTML-escaped; and bidi controls (U+202E and the
    like), which would reverse the text drawn after them, are written as
    their escapes, ``\\u202e``, as in Markdown, DOT and CSV
    (:func:`rankviz.safe_text.visible_controls`). The same escaping as the
    tree drawings' :func:`rankviz.viz.dot.common.escape`.

    Parameters
    ----------
    text : object
        The name; a number or other value is shown as ``str`` gives it.

    Returns
    -------
    str
        Text for any string property of a figure, shown as the name reads.

    Examples
    --------
    >>> print(user_text("<b>x\u202ey</b>"))
    &lt;b&gt;x\\u202ey&lt;/b&gt;
    """
    return escape(text)
