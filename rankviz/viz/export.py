"""Figures of a tree for papers and slides: from a fitted tree to a file's bytes in one call.

:func:`export_tree` draws a tree as :func:`rankviz.viz.dot.tree_to_dot` does
(any depth cut, folded subtrees, direction, font size, legend, ids, a traced
path, mean-rank strips), sets the figure's width in centimetres or inches and
lays it out as SVG, PNG (at a chosen DPI, so its pixel width is width × DPI)
or PDF; or returns the DOT, or the rules as text
(:func:`rankviz.tree.export.export_text`). :func:`export_drawing` does the
sizing and layout for any DOT text, e.g. MPBoost's stumps.

A width is set with Graphviz's ``size="W,H!"``: the drawing is scaled, up or
down, until its width is ``W`` inches (the height limit is far away), fonts
and lines with it.

References
----------
.. [1] E. R. Gansner, E. Koutsofios, S. C. North and K.-P. Vo, "A technique
       for drawing directed graphs", IEEE Transactions on Software
       Engineering 19(3), pp. 214-230, 1993 (Graphviz's ``dot``).
"""

from __future__ import annotations

import re
from typing import Any

from ..tree.export import export_text
from .dot import tree_to_dot
from .dot.common import drawn_leaves, fitting_depth
from .graphviz import EXPORT_FORMATS, render
from .layout import layout_tree, svg_size
from .tree_view import tree_page, view_data

__all__ = ["FIGURE_FORMATS", "LEGIBLE_SCALE", "MAX_PNG_PIXELS", "PAGE_WIDTH_CM", "PAPER_DPI", "UNITS",
           "export_drawing", "export_tree", "figure_size", "fit_to_page", "sized_dot"]

#: Inches per unit of a figure's width.
UNITS = {"in": 1.0, "cm": 1 / 2.54}

#: What :func:`export_tree` writes: format -> (MIME type, file extension).
FIGURE_FORMATS = {**EXPORT_FORMATS, "txt": ("text/plain", ".txt"), "html": ("text/html", ".html")}

#: A page's text width: ``width="page"`` makes a wider figure this wide.
PAGE_WIDTH_CM = 16.0

#: The least a page-wide figure scales its text: 12-pt boxes stay at least
#: 7.2 pt. A tree that would need less loses its deepest levels instead.
LEGIBLE_SCALE = 0.6

#: Pixels per inch of exported PNGs: print resolution.
PAPER_DPI = 300

#: Longest side of a PNG that Graphviz (cairo) writes; beyond it Graphviz
#: silently shrinks the image, so a larger one is refused instead.
MAX_PNG_PIXELS = 32_767

# Far above any width: with "!" Graphviz scales until the first limit is met,
# so the width always decides.
_HEIGHT_LIMIT_IN = 10_000
_CLOSING = re.compile(r"}\s*$")


def _inches(width: float, unit: str) -> float:
    if unit not in UNITS:
        raise ValueError(f"unit must be one of {', '.join(UNITS)}, got {unit!r}")
    if isinstance(width, bool) or not isinstance(width, (int, float)) or not 0 < float(width) <= 1000:
        raise ValueError(f"width must be a number of {unit} above 0 and at most 1000, got {width!r}")
    return float(width) * UNITS[unit]


def sized_dot(dot: str, width: float, unit: str = "in") -> str:
    """DOT text whose drawing is exactly ``width`` wide, scaled up or down.

    Parameters
    ----------
    dot : str
        A graph, ending with its closing ``}``.
    width : float
        The figure's width, in ``unit``.
    unit : {"in", "cm"}, default="in"

    Returns
    -------
    str
        ``dot`` with ``graph [size="W,H!", pad=0]`` as its last statement
        (the last assignment wins over any earlier one).

    Raises
    ------
    ValueError
        If ``width`` or ``unit`` is invalid, or ``dot`` does not end with ``}``.
    """
    inches = _inches(width, unit)
    if not _CLOSING.search(dot):
        raise ValueError("dot must end with the graph's closing '}'")
    # pad=0: Graphviz adds the pad outside the size, so a padded figure would
    # be wider than asked.
    statement = f'  graph [size="{inches:.4f},{_HEIGHT_LIMIT_IN}!", pad=0];\n}}\n'
    return _CLOSING.sub(lambda _: statement, dot)


def figure_size(dot: str, *, width: float | None = None, unit: str = "in",
                engine: str = "auto") -> tuple[float, float]:
    """Width and height in inches of the figure :func:`export_drawing` makes of ``dot``.

    Lays the drawing out once (as SVG). A PNG at ``dpi`` is these times
    ``dpi`` pixels, give or take one.

    Parameters
    ----------
    dot : str
    width : float, optional
        As for :func:`export_drawing`: None is the natural size.
    unit : {"in", "cm"}, default="in"
    engine : {"auto", "dot", "pure"}, default="auto"

    Returns
    -------
    (float, float)
    """
    if width is not None:
        dot = sized_dot(dot, width, unit)
    points = svg_size(render(dot, "svg", engine=engine).decode("utf-8"))
    return points[0] / 72, points[1] / 72


def export_drawing(dot: str, fmt: str, *, width: float | None = None, unit: str = "in",
                   dpi: float = PAPER_DPI, engine: str = "auto") -> bytes:
    """Lay out DOT text as a figure of a given width.

    Parameters
    ----------
    dot : str
        DOT text, e.g. from :func:`rankviz.viz.dot.stumps_to_dot`.
    fmt : {"svg", "png", "pdf", "dot"}
    width : float, optional
        The figure's width in ``unit``; None keeps the drawing's natural size
        (one point of the layout per point of the figure).
    unit : {"in", "cm"}, default="in"
    dpi : float, default=300
        Pixels per inch of a PNG: its width in pixels is ``width`` in inches
        times ``dpi``; written into the file, so documents place it at its size.
    engine : {"auto", "dot", "pure"}, default="auto"
        See :func:`rankviz.viz.graphviz.render`.

    Returns
    -------
    bytes

    Raises
    ------
    ValueError
        If ``width``, ``unit`` or ``dpi`` is invalid, or a PNG would have a
        side longer than :data:`MAX_PNG_PIXELS`.
    rankviz.viz.graphviz.RenderError
        If the drawing cannot be laid out.
    """
    if isinstance(dpi, bool) or not isinstance(dpi, (int, float)) or not 10 <= float(dpi) <= 2400:
        raise ValueError(f"dpi must be a number from 10 to 2400, got {dpi!r}")
    if fmt == "png":
        inches = figure_size(dot, width=width, unit=unit, engine=engine)
        pixels = [round(side * float(dpi)) for side in inches]
        if max(pixels) > MAX_PNG_PIXELS:
            raise ValueError(f"the PNG would be {pixels[0]:,} x {pixels[1]:,} px, more than the "
                             f"{MAX_PNG_PIXELS:,} px a side Graphviz writes: set a smaller width, a lower "
                             "DPI, or draw fewer levels")
    if width is not None:
        dot = sized_dot(dot, width, unit)
    return render(dot, fmt, engine=engine, dpi=float(dpi))


def fit_to_page(tree: Any, *, max_depth: int | None = None, engine: str = "auto",
                **draw_options: Any) -> tuple[str, float | None, int | None]:
    """The DOT and width of a tree's figure for a page: natural size if it fits, else page-wide.

    A drawing narrower than :data:`PAGE_WIDTH_CM` keeps its natural size (one
    point per point, 12-pt text). A wider one is scaled to the page width;
    if that would shrink its text below :data:`LEGIBLE_SCALE` of its size,
    the deepest levels are cut (drawn as boxes saying how many nodes they
    hold) until it does not, unless ``max_depth`` is given.

    Parameters
    ----------
    tree : Tree or fitted estimator with ``tree_``
    max_depth : int, optional
        A depth cut of the caller's: kept as it is.
    engine : {"auto", "dot", "pure"}, default="auto"
    **draw_options
        Any other option of :func:`rankviz.viz.dot.tree_to_dot`.

    Returns
    -------
    dot : str
        The drawing, cut if need be.
    width : float or None
        Its width in inches, or None for the natural size.
    depth : int or None
        The depth it is drawn to (``max_depth``, or the cut made), None if whole.
    """
    tree = getattr(tree, "tree_", tree)
    page = PAGE_WIDTH_CM / 2.54
    depth = max_depth
    while True:
        dot = tree_to_dot(tree, max_depth=depth, **draw_options)
        natural = figure_size(dot, engine=engine)[0]
        if natural <= page:
            return dot, None, depth
        current = tree.max_depth if depth is None else depth
        if natural * LEGIBLE_SCALE <= page or max_depth is not None or current <= 1:
            return dot, page, depth
        # Path ends set a tree drawing's width: keep as many as the page holds legibly.
        room = int(drawn_leaves(tree, current) * page / (natural * LEGIBLE_SCALE))
        depth = max(1, min(current - 1, fitting_depth(tree, max(room, 1))))


def export_tree(tree: Any, fmt: str, *, width: float | str | None = "page", unit: str = "in",
                dpi: float = PAPER_DPI, engine: str = "auto", max_depth: int | None = None,
                collapsed: Any = (), show_ids: bool = True, title: str | None = None,
                **draw_options: Any) -> bytes:
    """A fitted tree as a file: a figure (SVG, PNG, PDF), the explorable view (HTML), its DOT, or its rules.

    Parameters
    ----------
    tree : Tree or fitted estimator with ``tree_``
    fmt : {"svg", "png", "pdf", "dot", "txt", "html"}
        ``"txt"``: the rules, one line per branch and leaf
        (:func:`rankviz.tree.export.export_text`), the title first.
        ``"html"``: one self-contained page with the app's explorable view
        (zoom, pan, overview map, hover cards, folding, keyboard), its
        script, style and data inlined, so it opens offline
        (:func:`rankviz.viz.tree_view.tree_page`).
    width : float, "page" or None, default="page"
        The figure's width in ``unit``. ``"page"``: the natural size if the
        drawing is narrower than a page (:data:`PAGE_WIDTH_CM`), else the
        page width, with the deepest levels cut if the text would otherwise
        shrink below :data:`LEGIBLE_SCALE` of its size (:func:`fit_to_page`).
        None: the natural size, however wide.
    unit, dpi, engine
        As for :func:`export_drawing` (ignored for ``"dot"``, ``"txt"`` and
        ``"html"``: the DOT is the drawing unsized, ready for other Graphviz
        options). The PNG states its DPI (300 by default).
    max_depth : int, optional
        Draw (or write) nodes to this depth only.
    collapsed : iterable of int, default=()
        Nodes (indices of ``tree``) drawn without their subtree.
    show_ids : bool, default=True
        Write each node's ``#id``.
    title : str, optional
        A title above the figure (first line of the text).
    **draw_options
        Any other option of :func:`rankviz.viz.dot.tree_to_dot`: ``direction``,
        ``font_size``, ``legend``, ``highlight``, ``path``, ``rank_strips``,
        ``max_labels``, ``similarity_range``, ``color_by``, …

    Returns
    -------
    bytes
        UTF-8 text for ``"dot"``, ``"txt"`` and ``"html"``.

    Raises
    ------
    ValueError
        If ``fmt`` or an option is invalid.
    rankviz.viz.graphviz.RenderError
        If the drawing cannot be laid out.

    Examples
    --------
    >>> from rankviz import RankingTree, load_sample
    >>> from rankviz.viz.export import export_tree
    >>> data = load_sample("toy")
    >>> model = RankingTree(min_samples_leaf=2).fit(data.X, data.Y, label_names=data.label_names)
    >>> print(export_tree(model, "txt", show_ids=False).decode().splitlines()[0])
    |--- A1 = c
    """
    if fmt not in FIGURE_FORMATS:
        raise ValueError(f"fmt must be one of {', '.join(FIGURE_FORMATS)}, got {fmt!r}")
    tree = getattr(tree, "tree_", tree)
    if fmt == "txt":
        rules = export_text(tree, max_depth=max_depth, collapsed=collapsed, show_ids=show_ids)
        return ((f"{title}\n\n" if title else "") + rules).encode("utf-8")
    if fmt == "html":
        folded = [int(tree.node_ids[node]) for node in collapsed]
        layout = layout_tree(tree, collapsed=folded, max_depth=max_depth, show_ids=show_ids, engine=engine,
                             **draw_options)
        direction = draw_options.get("direction", "TB")
        return tree_page(view_data(layout, label=title or "", direction=direction),
                         title=title or "Tree").encode("utf-8")
    if fmt in ("svg", "png", "pdf") and width == "page":
        dot, inches, _ = fit_to_page(tree, title=title, max_depth=max_depth, collapsed=collapsed,
                                  show_ids=show_ids, engine=engine, **draw_options)
        return export_drawing(dot, fmt, width=inches, unit="in", dpi=dpi, engine=engine)
    dot = tree_to_dot(tree, title=title, max_depth=max_depth, collapsed=collapsed, show_ids=show_ids,
                      **draw_options)
    if fmt == "dot":
        return dot.encode("utf-8")
    return export_drawing(dot, fmt, width=None if width == "page" else width, unit=unit, dpi=dpi,
                          engine=engine)
