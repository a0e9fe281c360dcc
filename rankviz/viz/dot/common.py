"""Shared core of the Graphviz drawings: colours, escaping, node labels, legends and depth cuts.

Every tree drawing of :mod:`rankviz.viz.dot` runs the same skeleton,
:meth:`TreeDrawer.to_dot`: the graph header, one box per drawn node (fill,
label, tooltip, the dashed border of a node cut at ``max_depth``, the red
border of the highlighted node), the ``yes`` / ``no`` edges and the legend. A
drawer per tree kind (:mod:`~rankviz.viz.dot.ranking_tree`,
:mod:`~rankviz.viz.dot.mallows_tree`, :mod:`~rankviz.viz.dot.ordinal_tree`)
only says what its boxes hold and how they are coloured.

The DOT deliberately uses only features that Graphviz's ``dot``,
``graphviz-pure`` and the viz.js build behind Streamlit's
``st.graphviz_chart`` draw the same way: HTML-like labels made of plain
``<TABLE>``s (one row per text line), ``<B>`` and ``<FONT>``; the standard
font name ``Helvetica``; and ASCII in everything the library writes itself
but the ``…`` of a cut ranking (``graphviz-pure`` has no width table for
non-ASCII glyphs and sizes them as a space, with a warning on stderr; user
text is kept as given, escaped by :func:`escape` and :func:`dot_string`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...safe_text import html_text
from ...tree.structure import Tree, parent_array

__all__ = [
    "BORDER_COLOR", "EDGE_COLOR", "HIGHLIGHT_COLOR", "INTERNAL_FILL", "LEVEL_CELL_BORDER", "LEVEL_PALETTE",
    "MISSING_FILL", "PALETTE", "PATH_COLOR", "PREDICTED_CELL_BORDER", "RANK_PALETTE", "RELIABILITY_PALETTE",
    "DrawOptions", "FontSizes", "TreeDrawer", "dot_string", "drawn_leaves", "drawn_nodes",
    "edge_id", "escape", "fill_color",
    "fitting_depth", "fmt_similarity", "graph_header", "hidden_text", "legend_attrs", "node_id",
    "node_label", "node_tooltip", "similarity_swatches", "text_color",
]

# Sequential blues from ColorBrewer "Blues" (colour-blind safe, prints in grey
# scale): its first 7 of 9 classes, resampled to 9 steps in linear RGB. The two
# darkest classes are left out on purpose: similarities cluster near 1 (every
# singleton leaf has S = 1), and a tree full of navy boxes is heavy to read.
# Step k stands for the value vmin + k * (vmax - vmin) / 8, so with the default
# range [-1, 1] the steps are -1, -0.75, ..., 1 and a node is coloured by its
# similarity rounded to the nearest quarter.
PALETTE = (
    "#f7fbff", "#e5eff9", "#d2e3f3", "#bdd7ec", "#9ecae1",
    "#7ab6d9", "#59a1ce", "#3c8bc2", "#2171b5",
)
# Reliability of the leaves of label ranking trees (Cheng, Hühn & Hüllermeier
# 2009): ColorBrewer "Oranges", its first 7 of 9 classes, so a reliability
# never reads as a similarity.
RELIABILITY_PALETTE = ("#fff5eb", "#fee6ce", "#fdd0a2", "#fdae6b", "#fd8d3c", "#f16913", "#d94801")
INTERNAL_FILL = "#f5f5f5"  # internal nodes when leaves are coloured by reliability
MISSING_FILL = "#e0e0e0"  # similarity NaN (e.g. a criterion undefined on the node)
HIGHLIGHT_COLOR = "#d62728"  # red: stands out against every blue of the palette
PATH_COLOR = "#ff7f00"  # orange: a traced example's path, as the app's tree view draws it
BORDER_COLOR = "#4d4d4d"
EDGE_COLOR = "#595959"

# Level cells of ordinal trees: ColorBrewer "Greys", its first 7 of 9 classes
# (grey, not blue, so a cell never reads as a similarity). Step k stands for a
# share of about k / 6 of the node's rows; a level with any rows gets at least
# step 1, so an empty level (white) is told from a rare one.
LEVEL_PALETTE = ("#ffffff", "#f0f0f0", "#d9d9d9", "#bdbdbd", "#969696", "#737373", "#525252")
LEVEL_CELL_BORDER = "#969696"
PREDICTED_CELL_BORDER = "#000000"

# Mean-rank strips of leaves: ColorBrewer "Greens", its first 7 of 9 classes,
# darkest for the label ranked first (green, so a strip never reads as a
# similarity, a reliability or a level share).
RANK_PALETTE = ("#f7fcf5", "#e5f5e0", "#c7e9c0", "#a1d99b", "#74c476", "#41ab5d", "#238b45")

_TABLE = '<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">'
_LEGEND_TABLE = '<TABLE BORDER="1" COLOR="#bdbdbd" CELLBORDER="0" CELLSPACING="0" CELLPADDING="2">'


# -- text -----------------------------------------------------------------------

@dataclass(frozen=True)
class FontSizes:
    """The point sizes of one drawing, all following the boxes' main text.

    At the default of 12 points every text of a box is at least 10 points and
    the legend 9, so at a scale of 4/3 px per point (a document at 100 %) no
    text of a drawing is under 12 px.
    """

    text: float = 12.0

    @property
    def title(self) -> float:
        """The title above the drawing."""
        return round(self.text * 4 / 3, 1)

    @property
    def small(self) -> float:
        """Each box's numbers and the edge labels."""
        return round(self.text * 5 / 6, 1)

    @property
    def legend(self) -> float:
        """The legend and the small cells inside boxes."""
        return round(self.text * 3 / 4, 1)

    @property
    def large(self) -> float:
        """A leaf's prediction set large (ordinal levels)."""
        return round(self.text * 7 / 6, 1)


def node_id(node: int) -> str:
    """DOT / SVG id of a tree node: ``node_id(3) == "node3"``."""
    return f"node{int(node)}"


def edge_id(child: int) -> str:
    """SVG id of the edge into a tree node: ``edge_id(3) == "edge3"``."""
    return f"edge{int(child)}"


#: HTML-escape user text for an HTML-like label, quotes and bidi controls too
#: (:func:`rankviz.safe_text.html_text`).
escape = html_text


def dot_string(text: object) -> str:
    """A double-quoted DOT string.

    The text is HTML-escaped first: Graphviz copies entities such as ``&lt;``
    unchanged into SVG, so escaping here is what makes ``<`` and ``&`` safe in
    the SVG tooltip (Graphviz would escape a bare ``&`` itself, but not a
    user string that happens to look like an entity). Backslashes are doubled
    because DOT strings treat ``\\`` as an escape; newlines become spaces.

    Parameters
    ----------
    text : object
        Any value; it is converted with ``str`` first.

    Returns
    -------
    str
        The string with its quotes, ready for an attribute such as ``tooltip=``.
    """
    text = escape(text).replace("\\", "\\\\").replace("\n", " ").replace("\r", " ")
    return f'"{text}"'


def fmt_similarity(s: float) -> str:
    """``0.812``, or ``n/a`` for a similarity that is NaN (never ``-0.000``)."""
    return "n/a" if math.isnan(s) else f"{s:z.3f}"


# -- colours --------------------------------------------------------------------

def fill_color(value: float, vmin: float, vmax: float, palette: Sequence[str] = PALETTE) -> str:
    """The step of ``palette`` nearest to ``value`` on the scale from ``vmin`` to ``vmax``.

    Parameters
    ----------
    value : float
        Clipped to ``[vmin, vmax]``; NaN gives :data:`MISSING_FILL`.
    vmin, vmax : float
        Values of the first and the last colour, ``vmin < vmax``.
    palette : sequence of str, default=PALETTE
        Colours ``#rrggbb`` from lowest to highest.

    Returns
    -------
    str
    """
    if math.isnan(value):
        return MISSING_FILL
    step = round((min(max(value, vmin), vmax) - vmin) / (vmax - vmin) * (len(palette) - 1))
    return palette[step]


def _relative_luminance(hex_color):
    rgb = [int(hex_color[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def text_color(fill: str) -> str:
    """Black or white, whichever has the higher WCAG contrast on ``fill`` (``#rrggbb``)."""
    lum = _relative_luminance(fill)
    contrast_black = (lum + 0.05) / 0.05
    contrast_white = 1.05 / (lum + 0.05)
    return "#000000" if contrast_black >= contrast_white else "#ffffff"


# -- pieces of a drawing --------------------------------------------------------

def graph_header(direction: str, title: str | None = None, font_size: float = 12) -> list[str]:
    """The opening lines of a tree's DOT: graph, node and edge defaults, and the title.

    Parameters
    ----------
    direction : {"TB", "LR"}
        Top-down, or left to right.
    title : str, optional
        User text drawn in bold above the tree (escaped here).
    font_size : float, default=12
        Points of the boxes' main text; the title and the edge labels scale with it.

    Returns
    -------
    list of str
        Lines without their newline; the caller closes the graph with ``}``.
    """
    # Left to right, ranks are columns of wide boxes: less space between them reads better.
    ranksep = 0.5 if direction == "TB" else 0.3
    sizes = FontSizes(font_size)
    lines = [
        "digraph RankingTree {",
        # ordering=out keeps the "yes" child on the left, as the edges are listed.
        f'  graph [rankdir={direction}, ordering=out, nodesep=0.3, ranksep={ranksep}, margin=0, pad=0.2, '
        f'bgcolor="white", fontname="Helvetica", fontsize={sizes.title:g}, labelloc=t, labeljust=c];',
        f'  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize={sizes.text:g}, '
        f'margin="0.14,0.07", color="{BORDER_COLOR}", penwidth=1];',
        f'  edge [fontname="Helvetica", fontsize={sizes.small:g}, color="{EDGE_COLOR}", '
        f'fontcolor="{EDGE_COLOR}", arrowsize=0.7];',
    ]
    if title:
        lines.append(f"  label=<<B>{escape(title)}</B>>;")
    return lines


def node_label(rows: Sequence[str], stats: str, stats_size: float = 10) -> str:
    """HTML-like label of a node: one table row per entry of ``rows``, then ``stats`` in small type.

    One table row per line instead of ``<BR/>``: Graphviz spaces ``<BR/>``
    lines by the nominal font size, and with the wide fonts it picks for
    "Helvetica" on Linux (DejaVu Sans) an underscore, as in the default label
    names ``label_1``, then touches the next line. Table rows get padding.

    Parameters
    ----------
    rows : sequence of str
        HTML content of each row (already escaped), e.g. ``"<B>A2 &lt;= 4.5</B>"``.
    stats : str
        The node's numbers, e.g. ``"n = 12, S = 0.812"``.
    stats_size : float, default=10
        Points of ``stats`` (:attr:`FontSizes.small`).

    Returns
    -------
    str
        A ``<TABLE>`` (without the ``<`` ``>`` that make it a DOT label).
    """
    cells = "".join(f"<TR><TD>{row}</TD></TR>" for row in rows)
    return f'{_TABLE}{cells}<TR><TD><FONT POINT-SIZE="{stats_size:g}">{stats}</FONT></TD></TR></TABLE>'


def node_tooltip(tree: Tree, node: int, predicts: str = "", agree: str = "all rankings agree") -> str:
    """One short line: the node id and its split, or for a leaf why it stopped.

    Parameters
    ----------
    tree : Tree
    node : int
    predicts : str, default=""
        Said first for a leaf, e.g. ``"predicts rank 3 (median of 40 rows); "``.
    agree : str, default="all rankings agree"
        Why a leaf whose similarity is 1 was not split.

    Returns
    -------
    str
        Not escaped (see :func:`dot_string`).
    """
    name = f"#{tree.node_ids[node]}"
    score = float(tree.split_score[node])
    if not tree.is_leaf[node]:
        extra = "" if math.isnan(score) else f" with S_split = {score:z.3f}"
        return f"{name}: split {tree.test_text(node)}{extra}"
    split = tree.best_split_text(node)
    postponed = tree.extras.get("postponed")
    if split and postponed is not None and postponed[node]:
        return f"{name}: {predicts}will split {split} with S_split = {score:z.3f} (not grown yet)"
    if split and math.isfinite(score):
        return (f"{name} (leaf): {predicts}best split {split} with S_split = {score:z.3f} "
                "rejected by rule (6)")
    s, n = float(tree.similarity[node]), int(tree.n_samples[node])
    if n < 2:
        reason = "a single example"
    elif s >= 1.0 - 1e-12:
        reason = agree
    else:
        reason = "no split searched or possible (size or depth limit)"
    return f"{name} (leaf): {predicts}{reason}"


def similarity_swatches(vmin: float, vmax: float) -> list[tuple[str, str]]:
    """The colour bar of the similarity scale: each colour of :data:`PALETTE` and its value.

    Returns
    -------
    list of (str, str)
        ``(colour, value text)`` from ``vmin`` to ``vmax``, e.g. ``("#f7fbff", "-1")``.
    """
    steps = len(PALETTE)
    swatches = []
    for k, fill in enumerate(PALETTE):
        value = vmin + k * (vmax - vmin) / (steps - 1)
        text = f"{value:.2f}".rstrip("0").rstrip(".")
        swatches.append((fill, "0" if text in ("-0", "") else text))
    return swatches


def legend_attrs(heading: str, swatches: Sequence[tuple[str, str]], notes: Sequence[str],
                 cut_depth: int | None = None, *, swatch_width: int = 28, font_size: float = 9,
                 collapsed: bool = False) -> str:
    """Attributes of the legend node: a heading, a colour bar and short notes.

    Kept to a few short rows: the legend sits on the root's rank, so a tall
    legend would push the whole tree down and open a gap under the root.

    Parameters
    ----------
    heading : str
        HTML of the first row: what the colour shows.
    swatches : sequence of (str, str)
        Each colour of the bar and the value written on it.
    notes : sequence of str
        HTML of the rows under the bar.
    cut_depth : int, optional
        The depth a tree is drawn to when nodes are cut there: adds a row
        saying what a dashed box means.
    swatch_width : int, default=28
        Width of each colour of the bar, in points.
    font_size : float, default=9
        Points of the legend's text (:attr:`FontSizes.legend`).
    collapsed : bool, default=False
        Some nodes are drawn collapsed: the dashed row says so.

    Returns
    -------
    str
        The attribute list of ``legend [...]``.
    """
    steps = len(swatches)

    def row(content):
        return (f'<TR><TD COLSPAN="{steps}" ALIGN="LEFT">'
                f'<FONT POINT-SIZE="{font_size:g}">{content}</FONT></TD></TR>')

    bar = "".join(f'<TD BGCOLOR="{fill}" WIDTH="{swatch_width * font_size / 9:g}" HEIGHT="{14 * font_size / 9:g}">'
                  f'<FONT POINT-SIZE="{font_size:g}" COLOR="{text_color(fill)}">{text}</FONT></TD>'
                  for fill, text in swatches)
    if cut_depth is not None or collapsed:
        where = [] if cut_depth is None else [f"deeper than {cut_depth}"]
        where += ["collapsed"] if collapsed else []
        notes = [*notes, f"dashed: subtree not drawn ({' or '.join(where)})"]
    table = _LEGEND_TABLE + row(heading) + f"<TR>{bar}</TR>" + "".join(map(row, notes)) + "</TABLE>"
    return f'id="legend", shape=plaintext, style="", margin=0, tooltip="legend", label=<{table}>'


# -- depth cuts -----------------------------------------------------------------

def hidden_text(nodes: int, leaves: int) -> str:
    """``+ 12 nodes, 7 leaves``: what a cut or collapsed node hides."""
    return f"+ {int(nodes)} nodes, {int(leaves)} {'leaf' if int(leaves) == 1 else 'leaves'}"


def drawn_nodes(tree: Tree, max_depth: int | None = None,
                collapsed: Sequence[int] = ()) -> tuple[np.ndarray, np.ndarray]:
    """Which nodes a drawing shows, and which of those end it with a subtree left out.

    Parameters
    ----------
    tree : Tree
    max_depth : int, optional
        Nodes deeper than this are left out.
    collapsed : sequence of int, default=()
        Nodes (indices of ``tree``) whose subtrees are left out.

    Returns
    -------
    drawn, cut : ndarray of bool, shape (node_count,)
        ``cut``: drawn internal nodes whose children are not drawn.
    """
    is_leaf, depth = tree.is_leaf, np.asarray(tree.depth)
    folded = np.zeros(tree.node_count, dtype=bool)
    folded[np.asarray(collapsed, dtype=np.intp)] = True
    if max_depth is not None:
        folded |= depth >= max_depth
    folded &= ~is_leaf
    # A node is drawn when no ancestor is folded: pass the flag down level by level.
    hidden = np.zeros(tree.node_count, dtype=bool)
    internal = np.flatnonzero(~is_leaf)
    for level in range(tree.max_depth):
        parents = internal[depth[internal] == level]
        below = hidden[parents] | folded[parents]
        hidden[tree.children_left[parents]] = below
        hidden[tree.children_right[parents]] = below
    drawn = ~hidden
    return drawn, drawn & folded


def drawn_leaves(tree: Any, max_depth: int | None = None) -> int:
    """How many boxes end a path when a tree is drawn to ``max_depth``.

    Parameters
    ----------
    tree : Tree or fitted estimator with ``tree_``
    max_depth : int, optional
        None: the whole tree.

    Returns
    -------
    int
        The leaves at ``max_depth`` or above, and the nodes cut there (see
        :func:`rankviz.viz.dot.tree_to_dot`).
    """
    tree = getattr(tree, "tree_", tree)
    if max_depth is None:
        return tree.n_leaves
    depth = np.asarray(tree.depth)
    return int(np.count_nonzero((tree.is_leaf & (depth <= max_depth)) | (depth == max_depth)))


def fitting_depth(tree: Any, max_leaves: int = 30) -> int:
    """The largest depth to which a tree can be drawn with at most ``max_leaves`` path ends.

    Parameters
    ----------
    tree : Tree or fitted estimator with ``tree_``
    max_leaves : int, default=30
        Most boxes ending a path (:func:`drawn_leaves`) a legible drawing has.

    Returns
    -------
    int
        At least 1 (0 for a single leaf), and the tree's own depth when it fits whole.
    """
    tree = getattr(tree, "tree_", tree)
    best = min(1, tree.max_depth)
    for depth in range(1, tree.max_depth + 1):
        if drawn_leaves(tree, depth) > max_leaves:
            break
        best = depth
    return best


# -- the drawing ----------------------------------------------------------------

@dataclass(frozen=True)
class DrawOptions:
    """The options every tree drawing takes, checked (see :func:`rankviz.viz.dot.tree_to_dot`)."""

    highlight: int | None = None
    title: str | None = None
    max_labels: int | None = None
    vmin: float = -1.0
    vmax: float = 1.0
    show_ids: bool = False
    direction: str = "TB"
    legend: bool = True
    max_depth: int | None = None
    collapsed: frozenset[int] = frozenset()
    font_size: float = 12.0
    path: frozenset[int] = frozenset()
    rank_strips: bool = False

    @property
    def sizes(self) -> FontSizes:
        """The point sizes of the drawing's texts."""
        return FontSizes(self.font_size)

    @classmethod
    def checked(cls, tree: Tree, highlight: int | str | None = None, title: str | None = None,
                max_labels: int | None = None, *, similarity_range: tuple[float, float] = (-1.0, 1.0),
                show_ids: bool = False, direction: str = "TB", legend: bool = True,
                max_depth: int | None = None, collapsed: Any = (), font_size: float = 12.0,
                path: Any = (), rank_strips: bool = False) -> DrawOptions:
        """Options for drawing ``tree``, each checked.

        Parameters
        ----------
        tree : Tree
            The tree to draw (``highlight`` must be one of its nodes).
        highlight, title, max_labels, similarity_range, show_ids, direction, legend, max_depth, collapsed, font_size, path, rank_strips
            As for :func:`rankviz.viz.dot.tree_to_dot`.

        Returns
        -------
        DrawOptions

        Raises
        ------
        ValueError
            If ``highlight`` is not a node of the tree, or ``max_labels``,
            ``direction``, ``max_depth``, ``similarity_range``, ``collapsed``,
            ``font_size`` or ``path`` is invalid (checked in that order).
        """
        highlight = _check_highlight(highlight, tree.node_count)
        if max_labels is not None and not (isinstance(max_labels, (int, np.integer)) and max_labels >= 1):
            raise ValueError(f"max_labels must be None or an integer >= 1, got {max_labels!r}")
        if direction not in ("TB", "LR"):
            raise ValueError(f"direction must be 'TB' (top-down) or 'LR' (left to right), got {direction!r}")
        if max_depth is not None and not (isinstance(max_depth, (int, np.integer))
                                          and not isinstance(max_depth, bool) and max_depth >= 0):
            raise ValueError(f"max_depth must be None or an integer >= 0, got {max_depth!r}")
        vmin, vmax = (float(v) for v in similarity_range)
        if not (math.isfinite(vmin) and math.isfinite(vmax) and vmin < vmax):
            raise ValueError(f"similarity_range must be two finite numbers, low < high; got {similarity_range!r}")
        folded = frozenset(int(node) for node in collapsed)
        if any(not 0 <= node < tree.node_count for node in folded):
            raise ValueError(f"collapsed must hold nodes of the tree (0..{tree.node_count - 1}), got {sorted(folded)}")
        if not (isinstance(font_size, (int, float, np.number)) and 4 <= float(font_size) <= 72):
            raise ValueError(f"font_size must be a number of points from 4 to 72, got {font_size!r}")
        on_path = frozenset(int(node) for node in path)
        if any(not 0 <= node < tree.node_count for node in on_path):
            raise ValueError(f"path must hold nodes of the tree (0..{tree.node_count - 1}), got {sorted(on_path)}")
        return cls(highlight, title, max_labels, vmin, vmax, show_ids, direction, legend, max_depth,
                   folded, float(font_size), on_path, bool(rank_strips))


def _check_highlight(highlight: Any, n_nodes: int) -> int | None:
    if highlight is None:
        return None
    value = highlight
    if isinstance(value, str) and value.startswith("node") and value[4:].isdigit():
        value = int(value[4:])
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool) and 0 <= value < n_nodes:
        return int(value)
    raise ValueError(f"highlight must be a node of the tree (0..{n_nodes - 1} or 'node0'..), got {highlight!r}")


class TreeDrawer:
    """Draws one tree: the skeleton shared by every kind, with similarity colours by default.

    A drawer per tree kind overrides :meth:`label` (what a box holds) and
    :meth:`legend_notes`, and where it needs to :meth:`fill`, :meth:`stats`,
    :meth:`tooltip` or :meth:`legend`.

    Parameters
    ----------
    tree : Tree
        A fitted tree.
    options : DrawOptions
    """

    def __init__(self, tree: Tree, options: DrawOptions) -> None:
        self.tree = tree
        self.options = options
        self.is_leaf = tree.is_leaf  # a property computed on each access: kept once
        #: Nodes drawn, and drawn nodes whose subtree is left out (depth cut or folded).
        self.drawn, self.cut = drawn_nodes(tree, options.max_depth, sorted(options.collapsed))
        #: Nodes and leaves below each node, for the "+ 12 nodes, 7 leaves" of a cut node.
        self.hidden_nodes, self.hidden_leaves = tree.subtree_sizes()

    def fill(self, node: int) -> str:
        """Fill of a box: its similarity ``S`` on the blue scale."""
        return fill_color(float(self.tree.similarity[node]), self.options.vmin, self.options.vmax)

    def stats(self, node: int) -> str:
        """The numbers under a box's text: ``n = 12, S = 0.812``."""
        return f"n = {int(self.tree.n_samples[node])}, S = {fmt_similarity(float(self.tree.similarity[node]))}"

    def label(self, node: int, stats: str) -> str:
        """HTML-like label of a box (see :func:`node_label`)."""
        raise NotImplementedError

    def tooltip(self, node: int) -> str:
        """Tooltip of a box (see :func:`node_tooltip`)."""
        return node_tooltip(self.tree, node)

    def legend_notes(self) -> list[str]:
        """HTML of the legend's rows under the colour bar."""
        raise NotImplementedError

    def legend(self, cut_depth: int | None, collapsed: bool = False) -> str:
        """Attributes of the legend node: the similarity scale and :meth:`legend_notes`.

        ``cut_depth``: the depth nodes are cut at, if any is; ``collapsed``:
        some nodes are drawn collapsed.
        """
        heading = f"<B>S</B> (colour) = {escape(self.tree.similarity_label)}"
        swatches = similarity_swatches(self.options.vmin, self.options.vmax)
        return legend_attrs(heading, swatches, self.legend_notes(), cut_depth,
                            font_size=self.options.sizes.legend, collapsed=collapsed)

    def to_dot(self) -> str:
        """The DOT source of the tree, ending with a newline."""
        tree, options, is_leaf, ids = self.tree, self.options, self.is_leaf, self.tree.node_ids
        sizes = options.sizes
        lines = graph_header(options.direction, options.title, sizes.text)
        drawn, cut = self.drawn, self.cut
        highlight = options.highlight
        if highlight is not None and not drawn[highlight]:
            parent = parent_array(tree.children_left, tree.children_right)
            while not drawn[highlight]:  # mark its drawn ancestor
                highlight = int(parent[highlight])
        for node in np.flatnonzero(drawn).tolist():
            stats = self.stats(node)
            if options.show_ids:
                stats = f"#{ids[node]} · {stats}"
            label, tooltip, fill = self.label(node, stats), self.tooltip(node), self.fill(node)
            if cut[node]:
                below = hidden_text(self.hidden_nodes[node], self.hidden_leaves[node])
                label = (label[:-len("</TABLE>")]
                         + f'<TR><TD><FONT POINT-SIZE="{sizes.small:g}"><I>{below}</I></FONT></TD></TR></TABLE>')
                tooltip += f"; {below} not drawn"
            attrs = [f'id="{node_id(node)}"', f"label=<{label}>", f'fillcolor="{fill}"',
                     f'fontcolor="{text_color(fill)}"', f"tooltip={dot_string(tooltip)}"]
            if cut[node]:
                attrs.append('style="rounded,filled,dashed"')
            if node == highlight:
                attrs += ["penwidth=3", f'color="{HIGHLIGHT_COLOR}"']
            elif node in options.path and (is_leaf[node] or cut[node]):
                attrs += ["penwidth=3", f'color="{PATH_COLOR}"']  # where the traced example ends
            lines.append(f"  {node_id(node)} [{', '.join(attrs)}];")
        for node in np.flatnonzero(drawn & ~cut & ~is_leaf).tolist():
            # Each edge has the SVG id of the child it leads to, for viewers
            # that light up a path or hide nodes not grown yet.
            for child, answer in ((tree.children_left[node], "yes"), (tree.children_right[node], "no")):
                lit = (f', penwidth=3, color="{PATH_COLOR}", fontcolor="{PATH_COLOR}"'
                       if child in options.path else "")
                lines.append(f'  {node_id(node)} -> {node_id(child)} [id="{edge_id(child)}", label="{answer}"{lit}];')
        # Declared after the tree, the unconnected legend lands on the root's rank,
        # to the right: the space beside the root of a tree is otherwise empty.
        if options.legend:
            at_cut = np.zeros(tree.node_count, dtype=bool) if options.max_depth is None else (
                np.asarray(tree.depth) >= options.max_depth)
            by_depth, by_hand = bool((cut & at_cut).any()), bool((cut & ~at_cut).any())
            lines.append(f"  legend [{self.legend(options.max_depth if by_depth else None, by_hand)}];")
        lines.append("}")
        return "\n".join(lines) + "\n"
