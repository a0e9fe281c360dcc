"""The Export popover of a drawing: what the figure shows, its size, and the files to download.

Every figure is made by the library (:func:`rankviz.viz.export.export_tree`,
:func:`rankviz.viz.export.export_drawing`) only when its button is pressed.
The defaults make a figure for a paper, not a screenshot: the finished tree,
without the outline of the inspected node or a traced path, at most a page
wide (:data:`rankviz.viz.export.PAGE_WIDTH_CM`) with legible text (levels
cut if need be: :func:`rankviz.viz.export.fit_to_page`), PNGs at 300 dpi with
the DPI in the file; anything taken from the screen (the depth cut and folds,
a step of the player, highlights) is a choice, and a partial tree says so in
its title and file name. The HTML file is the explorable view itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import streamlit as st

from ..viz.export import (FIGURE_FORMATS, MAX_PNG_PIXELS, PAGE_WIDTH_CM, PAPER_DPI, UNITS, export_drawing,
                          export_tree, figure_size, fit_to_page)
from ..viz.graphviz import RenderError, available_engines
from .text import md_escape

if TYPE_CHECKING:
    from ..tree.structure import Tree

__all__ = ["ScreenView", "chosen_download", "drawing_export", "tree_export"]

_DIRECTIONS = {"TB": "Top-down", "LR": "Left to right"}
_BUTTONS = {"svg": "SVG", "png": "PNG", "pdf": "PDF", "html": "HTML", "dot": "DOT", "txt": "Rules"}
_PAGE = f"page ({PAGE_WIDTH_CM:g} cm)"


@dataclass(frozen=True)
class ScreenView:
    """What a tree view shows, for exports that take something from the screen.

    Node ids are the stable ``#id`` (:attr:`Tree.node_ids`).
    """

    max_depth: int | None = None
    collapsed: tuple[int, ...] = ()
    direction: str = "TB"
    rank_strips: bool = False
    max_labels: int | None = None
    selected: int | None = None
    path: tuple[int, ...] = ()
    step: int | None = None
    n_steps: int | None = None

    @property
    def cut(self) -> bool:
        """The view leaves part of the tree out."""
        return self.max_depth is not None or bool(self.collapsed)

    def describe(self) -> str:
        """``to depth 3, 2 subtrees folded``, or ``the whole tree``."""
        parts = [] if self.max_depth is None else [f"to depth {self.max_depth}"]
        if self.collapsed:
            n = len(self.collapsed)
            parts.append(f"{n} subtree{'s' if n != 1 else ''} folded")
        return ", ".join(parts) or "the whole tree"


def _engine() -> str:
    return "dot" if "dot" in available_engines() else "auto"


def _size_choices(key: str) -> tuple[float | None, str, int]:
    """Width (None: a page's), its unit and the PNG's DPI."""
    cols = st.columns([1.3, 1, 1])
    width = cols[0].number_input("Width", min_value=1.0, max_value=200.0, value=None, step=0.5,
                                 placeholder=_PAGE, key=f"{key}_width",
                                 help="The figure's width; the drawing is scaled to it, text and all. "
                                      f"Empty: its natural size if that is under {PAGE_WIDTH_CM:g} cm, else "
                                      f"{PAGE_WIDTH_CM:g} cm, with the deepest levels left out if the text "
                                      "would be too small to read.")
    unit = cols[1].selectbox("Unit", list(UNITS), index=list(UNITS).index("cm"), key=f"{key}_unit")
    dpi = cols[2].number_input("PNG DPI", min_value=36, max_value=1200, value=PAPER_DPI, step=50,
                               key=f"{key}_dpi", help="Pixels per inch of the PNG: its width in pixels "
                                                      "is the width in inches times this.")
    return width, unit, int(dpi)


def _size_caption(inches: tuple[float, float], unit: str, dpi: int) -> bool:
    """Say how large the figure and its PNG are; False when the PNG would be too large."""
    per_unit = UNITS[unit]
    pixels = [round(side * dpi) for side in inches]
    st.caption(f"Figure {inches[0] / per_unit:.1f} × {inches[1] / per_unit:.1f} {unit}; "
               f"PNG {pixels[0]:,} × {pixels[1]:,} px at {dpi} dpi.")
    if max(pixels) > MAX_PNG_PIXELS:
        st.warning(f"A PNG this large ({max(pixels):,} px a side) is more than Graphviz writes "
                   f"({MAX_PNG_PIXELS:,} px): set a width, lower the DPI or draw fewer levels. "
                   "SVG and PDF have no such limit.", icon=":material/warning:")
        return False
    return True


def chosen_download(formats: Mapping[str, tuple[str, str, str]], make: Callable[[str], bytes], key: str,
                    errors: tuple[type[Exception], ...] = (ValueError,)) -> None:
    """A choice of format and one download button holding that file, made in the run.

    The file is made when the format is chosen, not when the button is
    clicked: a file made on click (a ``data=`` callable) is stored unowned,
    and Streamlit sweeps unowned files after other sessions' runs, so with
    several sessions busy the download often arrived cancelled (5 of 12
    clicks with 7 other sessions moving γ). A file made in the run belongs to
    the session until its next run. Put it in a popover where the file
    changes often: the browser fetches a drawn button's file whenever it
    changes, and a closed popover draws nothing.

    Parameters
    ----------
    formats : mapping of str to (label, file name, MIME type)
        The formats on offer, the first chosen at first.
    make : callable
        ``make(format)`` returns the file's bytes (cache it: it runs in
        every run of the caller).
    key : str
        Prefix of the widget keys.
    errors : tuple of exception types, default=(ValueError,)
        Errors of ``make`` shown as a message instead of the button.
    """
    offered = list(formats)
    row = st.container(horizontal=True, vertical_alignment="bottom", gap="small")
    fmt = row.segmented_control("Format", offered, format_func=lambda code: formats[code][0],
                                default=offered[0], key=f"{key}_format", required=True)
    fmt = fmt if fmt in offered else offered[0]
    label, file_name, mime = formats[fmt]
    try:
        data = make(fmt)
    except errors as error:
        st.error(f"The {label} file cannot be made: {md_escape(str(error))}")
        return
    row.download_button(f"Download {label}", data=data, file_name=file_name, mime=mime,
                        key=f"{key}_download", on_click="ignore", icon=":material/download:", type="primary")


def _buttons(make: Callable[[str], bytes], basename: str, key: str, formats: tuple[str, ...],
             png_ok: bool) -> None:
    """The tree's formats (PNG only when ``png_ok``) through :func:`chosen_download`."""
    offered = {fmt: (_BUTTONS[fmt], f"{basename}{FIGURE_FORMATS[fmt][1]}", FIGURE_FORMATS[fmt][0])
               for fmt in formats if fmt != "png" or png_ok}
    chosen_download(offered, make, key, errors=(RenderError, ValueError))


def _with_fallback(make: Callable[[str], bytes]) -> Callable[[str], bytes]:
    """Try the other layout engine rather than hand the user nothing."""
    def made(engine: str) -> bytes:
        try:
            return make(engine)
        except RenderError:
            return make("pure" if engine == "dot" else "dot")
    return made


@st.cache_data(show_spinner=False, max_entries=16)
def _tree_bytes(_tree: Tree, tree_key: str, fmt: str, options: tuple[tuple[str, Any], ...]) -> bytes:
    opts = dict(options)
    return _with_fallback(lambda engine: export_tree(_tree, fmt, engine=engine, **opts))(_engine())


@st.cache_data(show_spinner=False, max_entries=16)
def _tree_inches(_tree: Tree, tree_key: str, options: tuple[tuple[str, Any], ...],
                 width: float | None, unit: str) -> tuple[tuple[float, float], int | None]:
    """The figure's size in inches, and the depth a page-wide figure is cut to (None: whole)."""
    if width is None:
        opts = dict(options)
        dot, inches, depth = fit_to_page(_tree, engine=_engine(), **opts)
        cut = depth if depth != opts.get("max_depth") else None
        return figure_size(dot, width=inches, engine=_engine()), cut
    dot = export_tree(_tree, "dot", **dict(options)).decode("utf-8")
    return figure_size(dot, width=width, unit=unit, engine=_engine()), None


def tree_export(tree: Tree, *, key: str, basename: str, tree_key: str, view: ScreenView | None = None,
                partial: Tree | None = None, draw_options: dict[str, Any] | None = None,
                ordinal: bool = False) -> None:
    """An Export popover for a tree: figures, DOT and rules, with the choices a paper needs.

    Parameters
    ----------
    tree : Tree
        The finished tree.
    key : str
        Widget keys start with it.
    basename : str
        File name without extension (:func:`rankviz.viz.graphviz.export_basename`);
        ``_view`` and ``_step3of8`` are added when the figure holds only those.
    tree_key : str
        Identifies ``tree`` (data and settings) for the cache of figures.
    view : ScreenView, optional
        What the view shows: offered as "the current view", and the source
        of highlights and of the player's step.
    partial : Tree, optional
        The tree at the player's step, when the player is not at the end.
    draw_options : dict, optional
        Fixed options of :func:`rankviz.viz.dot.tree_to_dot` (e.g.
        ``similarity_range``).
    ordinal : bool, default=False
        An ordinal tree: no mean-rank strips to offer.
    """
    view = view or ScreenView()
    # No tooltip on the button: it would stay over the download buttons below it.
    popover = st.popover("Export", icon=":material/download:", key=f"{key}_open", on_change="rerun")
    if not popover.open:  # the choices are laid out only when asked for
        return
    with popover:
        st.caption("The figure (SVG, PNG, PDF), the explorable view as one HTML file, its DOT or the "
                   "rules as text; choose what it shows and its size.")
        whole = "The whole tree"
        shown = f"The current view ({view.describe()})"
        what = st.radio("Drawing", [whole, shown] if view.cut else [whole], key=f"{key}_what",
                        help="The current view keeps the depth cut and the folded subtrees of the screen.")
        at_step = view.step is not None and view.n_steps is not None and partial is not None
        grown = at_step and st.checkbox(
            f"Only the splits made by step {view.step} of {view.n_steps}", value=False, key=f"{key}_partial",
            help="Off: the finished tree. On: the player's tree, titled and named with its step.")
        if at_step and not grown:
            st.caption(f"The player is at step {view.step} of {view.n_steps}; the export is the finished tree.")
        cols = st.columns(2)
        direction = cols[0].radio("Direction", list(_DIRECTIONS), format_func=_DIRECTIONS.get,
                                  index=list(_DIRECTIONS).index(view.direction), key=f"{key}_direction")
        font = cols[1].number_input("Font size (pt)", min_value=6, max_value=36, value=12, step=1,
                                    key=f"{key}_font", help="The boxes' main text; the rest follows it.")
        boxes = st.columns(4 if not ordinal else 3)
        legend = boxes[0].checkbox("Legend", value=True, key=f"{key}_legend")
        ids = boxes[1].checkbox("Node ids", value=True, key=f"{key}_ids", help="#id in each box.")
        highlights = boxes[2].checkbox("Highlights", value=False, key=f"{key}_highlights",
                                      help="The inspected node's outline and a traced example's path.")
        strips = (not ordinal) and boxes[3].checkbox("Rank strips", value=view.rank_strips, key=f"{key}_strips",
                                                    help="Each leaf's mean rank per label.")
        title = st.text_input("Title", value="", key=f"{key}_title", placeholder="none",
                              max_chars=200)
        width, unit, dpi = _size_choices(key)

        source = partial if grown and partial is not None else tree  # grown: partial is a tree (at_step)
        index_of = {int(stable): k for k, stable in enumerate(source.node_ids)}
        options = dict(draw_options or {})
        options.update(direction=direction, font_size=float(font), legend=legend, show_ids=ids,
                       max_labels=view.max_labels)
        if not ordinal:
            options["rank_strips"] = bool(strips)
        if what != whole:
            options["max_depth"] = view.max_depth
            options["collapsed"] = tuple(sorted(index_of[i] for i in view.collapsed if i in index_of))
        if highlights:
            if view.selected in index_of:
                options["highlight"] = index_of[view.selected]
            options["path"] = tuple(index_of[i] for i in view.path if i in index_of)
        heading = title.strip()
        if grown:
            heading = (f"{heading} — " if heading else "") + (
                f"step {view.step} of {view.n_steps}: the splits made so far")
        options["title"] = heading or None
        name = basename + ("_view" if what != whole else "") + (
            f"_step{view.step}of{view.n_steps}" if grown else "")
        frozen = tuple(sorted(options.items()))
        source_key = f"{tree_key}|step={view.step if grown else 'end'}"
        try:
            inches, cut = _tree_inches(source, source_key, frozen, width, unit)
        except (RenderError, ValueError) as error:
            st.error(f"The figure cannot be laid out: {md_escape(str(error))}")
            return
        png_ok = _size_caption(inches, unit, dpi)
        if cut is not None:
            st.caption(f"Drawn to depth {cut}, its deeper subtrees as boxes, so that its text is legible "
                       f"{PAGE_WIDTH_CM:g} cm wide; give a width to draw it whole (HTML, DOT and rules "
                       "hold the whole tree).")
        sized = frozen + (("width", "page" if width is None else width), ("unit", unit), ("dpi", dpi))
        _buttons(lambda fmt: _tree_bytes(source, source_key, fmt, sized), name, key,
                 ("svg", "png", "pdf", "html", "dot", "txt"), png_ok)


@st.cache_data(show_spinner=False, max_entries=16)
def _drawing_bytes(dot: str, fmt: str, width: float | None, unit: str, dpi: int) -> bytes:
    return _with_fallback(lambda engine: export_drawing(dot, fmt, width=width, unit=unit, dpi=dpi,
                                                        engine=engine))(_engine())


@st.cache_data(show_spinner=False, max_entries=16)
def _page_width(dot: str, width: float | None, unit: str) -> tuple[float | None, str]:
    """The width asked for, or (none asked) a page's if the drawing is wider than a page."""
    if width is not None:
        return width, unit
    natural_cm = figure_size(dot, engine=_engine())[0] * 2.54
    return (PAGE_WIDTH_CM, "cm") if natural_cm > PAGE_WIDTH_CM else (None, unit)


@st.cache_data(show_spinner=False, max_entries=16)
def _drawing_inches(dot: str, width: float | None, unit: str) -> tuple[float, float]:
    return figure_size(dot, width=width, unit=unit, engine=_engine())


def drawing_export(dot: str, *, key: str, basename: str) -> None:
    """An Export popover for any DOT drawing (e.g. MPBoost's stumps): size, DPI and files."""
    popover = st.popover("Export", icon=":material/download:", key=f"{key}_open", on_change="rerun")
    if not popover.open:
        return
    with popover:
        st.caption("The figure (SVG, PNG, PDF) or its DOT, at a size you choose.")
        width, unit, dpi = _size_choices(key)
        try:
            width, unit = _page_width(dot, width, unit)
            inches = _drawing_inches(dot, width, unit)
        except (RenderError, ValueError) as error:
            st.error(f"The figure cannot be laid out: {md_escape(str(error))}")
            return
        png_ok = _size_caption(inches, unit, dpi)
        _buttons(lambda fmt: _drawing_bytes(dot, fmt, width, unit, dpi), basename, key,
                 ("svg", "png", "pdf", "dot"), png_ok)
