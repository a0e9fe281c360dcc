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
from typing import Any, Literal

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
# Margin around a sized figure (inches): 1.5 pt, wider than any outline's half.
_PAD_IN = 1.5 / 72


def _inches(width: float, unit: str) -> float:
    if unit not in UNITS:
        raise ValueError(f"unit must be one of {', '.join(UNITS)}, got {unit!r}")
    if isinstance(width, bool) or not isinstance(width, (int, float)) or not 0 < float(width) <= 1000:
        raise ValueError(f"width must be a number of {unit} above 0 and at most 1000, got {width!r}")
    return float(width) * UNITS[unit]


def sized_dot(dot: str, width: float, unit: str = "in") -> str:
    """Size DOT text so that its drawing is exactly ``width`` wide, scaled up or down.

    Graphviz scales a drawing to its ``size`` attribute when the size ends in
    ``!``; the height limit is set far above any width, so the width always
    decides and the height follows the drawing's proportions.

    Parameters
    ----------
    dot : str
        A graph, ending with its closing ``}``.
    width : float
        The figure's width, in ``unit``: above 0 and at most 1000.
    unit : {"in", "cm"}, default="in"
        Inches or centimetres.

    Returns
    -------
    str
        ``dot`` with ``graph [size="W,H!", pad=P]`` as its last statement
        (the last assignment wins over any earlier one), ``P`` a margin of
        1.5 pt within the width.

    Raises
    ------
    ValueError
        If ``width`` or ``unit`` is invalid, or ``dot`` does not end with ``}``.

    See Also
    --------
    export_drawing : Lay the sized text out as a figure.

    Examples
    --------
    >>> from rankviz.viz.export import sized_dot
    >>> print(sized_dot("digraph {\\n  a -> b;\\n}", 8, "cm"))
    digraph {
      a -> b;
      graph [size="...,10000!", pad=...];
    }
    <BLANKLINE>
    """
    inches = _inches(width, unit)
    if not _CLOSING.search(dot):
        raise ValueError("dot must end with the graph's closing '}'")
    # The size includes the pad: the figure is as wide as asked, and no border at
    # its edge (a box's or the legend's outline) is cut in half.
    statement = f'  graph [size="{inches:.4f},{_HEIGHT_LIMIT_IN}!", pad={_PAD_IN:.4f}];\n}}\n'
    return _CLOSING.sub(lambda _: statement, dot)


def figure_size(dot: str, *, width: float | None = None, unit: str = "in",
                engine: str = "auto") -> tuple[float, float]:
    """Measure the width and height in inches of the figure :func:`export_drawing` makes of ``dot``.

    Lays the drawing out once (as SVG). A PNG at ``dpi`` is these times
    ``dpi`` pixels, give or take one.

    Parameters
    ----------
    dot : str
        DOT text, e.g. from :func:`rankviz.viz.dot.tree_to_dot`.
    width : float, optional
        As for :func:`export_drawing`: None is the natural size.
    unit : {"in", "cm"}, default="in"
        Unit of ``width``.
    engine : {"auto", "dot", "pure"}, default="auto"
        See :func:`rankviz.viz.graphviz.render`.

    Returns
    -------
    (float, float)
        Width and height in inches (the SVG's points over 72).

    Raises
    ------
    ValueError
        If ``width`` or ``unit`` is invalid.
    rankviz.viz.graphviz.RenderError
        If the drawing cannot be laid out.

    See Also
    --------
    fit_to_page : The size a tree's figure gets on a page.

    Examples
    --------
    >>> from rankviz import RankingTree, load_sample
    >>> from rankviz.viz import tree_to_dot
    >>> data = load_sample("toy")
    >>> dot = tree_to_dot(RankingTree().fit(data.X, data.rankings))
    >>> from rankviz.viz.export import figure_size
    >>> width, height = figure_size(dot, width=8, unit="cm")
    >>> round(width * 2.54), height < width  # about 8 cm wide
    (8, True)
    """
    if width is not None:
        dot = sized_dot(dot, width, unit)
    points = svg_size(render(dot, "svg", engine=engine).decode("utf-8"))
    return points[0] / 72, points[1] / 72


def export_drawing(dot: str, fmt: str, *, width: float | None = None, unit: str = "in",
                   dpi: float = PAPER_DPI, engine: str = "auto") -> bytes:
    """Lay out DOT text as a figure of a given width.

    The drawing is scaled to the width (:func:`sized_dot`) so that its text
    has the size it will have in the document; a PNG is checked first
    against :data:`MAX_PNG_PIXELS`, and carries its DPI.

    Parameters
    ----------
    dot : str
        DOT text, e.g. from :func:`rankviz.viz.dot.stumps_to_dot`.
    fmt : {"svg", "png", "pdf", "dot"}
        The file format; ``"dot"`` returns the (sized) DOT text.
    width : float, optional
        The figure's width in ``unit``; None keeps the drawing's natural size
        (one point of the layout per point of the figure).
    unit : {"in", "cm"}, default="in"
        Unit of ``width``.
    dpi : float, default=300
        Pixels per inch of a PNG: its width in pixels is ``width`` in inches
        times ``dpi``; written into the file, so documents place it at its size.
    engine : {"auto", "dot", "pure"}, default="auto"
        See :func:`rankviz.viz.graphviz.render`.

    Returns
    -------
    bytes
        The file's bytes.

    Raises
    ------
    ValueError
        If ``width``, ``unit`` or ``dpi`` is invalid, or a PNG would have a
        side longer than :data:`MAX_PNG_PIXELS`.
    rankviz.viz.graphviz.RenderError
        If the drawing cannot be laid out.

    See Also
    --------
    export_tree : A fitted tree as a file, in one call.
    rankviz.viz.render : Lay out DOT text at its natural size.

    Examples
    --------
    >>> from rankviz import RankingTree, load_sample
    >>> from rankviz.viz import tree_to_dot
    >>> data = load_sample("toy")
    >>> dot = tree_to_dot(RankingTree().fit(data.X, data.rankings))
    >>> from rankviz.viz.export import export_drawing
    >>> png = export_drawing(dot, "png", width=8, unit="cm", dpi=150)
    >>> png[1:4]
    b'PNG'
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
    """Fit a tree's figure to a page: its DOT and width, the natural size if it fits, else page-wide.

    A drawing narrower than :data:`PAGE_WIDTH_CM` keeps its natural size (one
    point per point, 12-pt text). A wider one is scaled to the page width;
    if that would shrink its text below :data:`LEGIBLE_SCALE` of its size,
    the deepest levels are cut (drawn as boxes saying how many nodes they
    hold) until it does not, unless ``max_depth`` is given.

    Parameters
    ----------
    tree : Tree or fitted estimator with ``tree_``
        The tree to draw, e.g. a fitted :class:`rankviz.RankingTree`.
    max_depth : int, optional
        A depth cut of the caller's: kept as it is.
    engine : {"auto", "dot", "pure"}, default="auto"
        See :func:`rankviz.viz.graphviz.render`.
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

    See Also
    --------
    export_tree : Uses it for ``width="page"``.
    figure_size : The size of a drawing.

    Examples
    --------
    >>> from rankviz import RankingTree, load_sample
    >>> from rankviz.viz.export import fit_to_page
    >>> data = load_sample("toy")
    >>> model = RankingTree().fit(data.X, data.rankings)
    >>> dot, width, depth = fit_to_page(model)
    >>> round(width * 2.54, 1), depth  # wider than a page: scaled to 16 cm, no level cut
    (16.0, None)
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


def export_tree(tree: Any, fmt: str, *, width: float | Literal["page"] | None = "page", unit: str = "in",
                dpi: float = PAPER_DPI, engine: str = "auto", max_depth: int | None = None,
                collapsed: Any = (), show_ids: bool = True, title: str | None = None,
                **draw_options: Any) -> bytes:
    """Export a fitted tree as a file: a figure (SVG, PNG, PDF), the explorable view (HTML), its DOT, or its rules.

    One call makes a figure for a paper: a width in centimetres or inches,
    a DPI for PNGs, the levels to draw, and by default the natural size of
    the drawing or the width of a page, whichever is smaller, with the text
    kept legible.

    Parameters
    ----------
    tree : Tree or fitted estimator with ``tree_``
        The tree, e.g. a fitted :class:`rankviz.RankingTree` or
        :class:`rankviz.OrdinalTree`.
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
    unit : {"in", "cm"}, default="in"
        Unit of a numeric ``width``.
    dpi : float, default=300
        Pixels per inch of a PNG, which states it (:data:`PAPER_DPI`).
    engine : {"auto", "dot", "pure"}, default="auto"
        See :func:`rankviz.viz.graphviz.render`. ``unit``, ``dpi`` and
        ``engine`` are ignored for ``"dot"`` and ``"txt"`` (the DOT is the
        drawing unsized, ready for other Graphviz options); ``"html"`` uses
        ``engine`` for its layout.
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
        ``max_labels``, ``similarity_range`` or ``color_by``.

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

    See Also
    --------
    rankviz.viz.tree_to_dot : The DOT text of a tree.
    rankviz.tree.export.export_text : The rules as text.
    rankviz.viz.tree_view.tree_page : The explorable view as one HTML file.

    Examples
    --------
    >>> from rankviz import RankingTree, load_sample
    >>> from rankviz.viz.export import export_tree
    >>> data = load_sample("toy")
    >>> model = RankingTree(min_samples_leaf=2).fit(data.X, data.rankings)
    >>> print(export_tree(model, "txt", show_ids=False).decode().splitlines()[0])
    |--- A1 = c
    >>> png = export_tree(model, "png", width=8, unit="cm", dpi=300)  # 8 cm wide at 300 DPI
    >>> png[1:4]
    b'PNG'
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
