"""Draw a fitted ranking tree: Graphviz DOT text and export to SVG / PNG / PDF.

Two layout engines are supported and both read the *same* DOT text:

- ``"dot"``: the real Graphviz ``dot`` found on ``PATH`` (Debian's
  ``graphviz`` package); SVG, PNG and PDF natively.
- ``"pure"``: ``graphviz-pure``, a pure-Rust port of ``dot`` shipped as a
  PyPI wheel, so the app works where Graphviz cannot be installed. It writes
  SVG and PNG; PDF is made from its SVG with svglib + reportlab.

The DOT deliberately uses only features both engines (and the viz.js build
behind Streamlit's ``st.graphviz_chart``) draw the same way: HTML-like labels
made of plain ``<TABLE>``s (one row per text line), ``<B>`` and ``<FONT>``;
the standard font name ``Helvetica``; and ASCII in everything the library
writes itself but the ``…`` of a cut ranking (``graphviz-pure`` has no width
table for non-ASCII glyphs and sizes them as a space, with a warning on
stderr; user text is kept as given).

This module never imports streamlit.
"""

from __future__ import annotations

import html
import io
import math
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

from ..tree.structure import parent_array

__all__ = [
    "EXPORT_FORMATS",
    "RenderError",
    "available_engines",
    "drawn_leaves",
    "fitting_depth",
    "node_id",
    "render",
    "tree_to_dot",
]

#: Export formats for download buttons: format -> (MIME type, file extension).
EXPORT_FORMATS = {
    "svg": ("image/svg+xml", ".svg"),
    "png": ("image/png", ".png"),
    "pdf": ("application/pdf", ".pdf"),
    "dot": ("text/vnd.graphviz", ".dot"),
}

#: Seconds a layout engine may run before it is stopped.
DEFAULT_TIMEOUT = 60.0

#: Resolution of PNG output. Graphviz's default of 96 dpi gives blurry
#: figures once scaled into a document; 150 stays small enough for the app.
DEFAULT_PNG_DPI = 150

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
# Reliability of label ranking tree leaves (seed 003): ColorBrewer "Oranges",
# its first 7 of 9 classes, so a reliability never reads as a similarity.
RELIABILITY_PALETTE = ("#fff5eb", "#fee6ce", "#fdd0a2", "#fdae6b", "#fd8d3c", "#f16913", "#d94801")
INTERNAL_FILL = "#f5f5f5"  # internal nodes when leaves are coloured by reliability
MISSING_FILL = "#e0e0e0"  # similarity NaN (e.g. a criterion undefined on the node)
HIGHLIGHT_COLOR = "#d62728"  # red: stands out against every blue of the palette
BORDER_COLOR = "#4d4d4d"
EDGE_COLOR = "#595959"

# Level cells of ordinal trees: ColorBrewer "Greys", its first 7 of 9 classes
# (grey, not blue, so a cell never reads as a similarity). Step k stands for a
# share of about k / 6 of the node's rows; a level with any rows gets at least
# step 1, so an empty level (white) is told from a rare one.
LEVEL_PALETTE = ("#ffffff", "#f0f0f0", "#d9d9d9", "#bdbdbd", "#969696", "#737373", "#525252")
LEVEL_CELL_BORDER = "#969696"
PREDICTED_CELL_BORDER = "#000000"

#: Leaf rankings longer than this many characters are wrapped onto more lines,
#: so trees over many labels stay narrow enough to read.
RANKING_LINE_CHARS = 34

_PURE_BINARY = "graphviz-pure"
_ENGINES = ("dot", "pure")


class RenderError(RuntimeError):
    """A tree could not be drawn: unknown format or engine, or the engine failed."""


# -- DOT ------------------------------------------------------------------------

def node_id(node):
    """DOT / SVG id of a tree node: ``node_id(3) == "node3"``."""
    return f"node{int(node)}"


def tree_to_dot(tree, highlight=None, title=None, max_labels=None, *,
                similarity_range=(-1.0, 1.0), show_ids=False, direction="TB", legend=True,
                color_by=None, reliability_range=None, max_depth=None):
    """Graphviz DOT text of a fitted ranking tree.

    Internal nodes show their test (``A2 <= 4.5``, ``A1 = c``), leaves their
    predicted ranking (``a3 > a1 > a2``, most preferred first); every node shows
    ``n`` (training examples) and ``S`` (the criterion's similarity of its
    rankings) and is filled by ``S`` on a sequential blue scale. Edges to the
    left child ("test met") are labelled ``yes``, to the right one ``no``. A
    legend node explains the colours, ``S`` and ``n``.

    A tree of an ordinal target (``tree.is_ordinal``, from
    :class:`rankviz.OrdinalTree`) shows levels instead of rankings: each leaf
    its predicted level in large type (``rank 3`` for numbered levels, the
    name itself for named ones), and every node a row of small cells, one per
    level from lowest to highest, holding the node's training rows at that
    level, shaded grey by their share of the node, the cell of the node's
    predicted level (by ``tree.prediction``, median or mode) boxed and bold.
    The legend names the levels and the prediction rule.

    A label ranking tree of seed 003 (``criterion="mallows"``, which sets
    ``tree.theta``) shows in every node the Mallows spread ``θ̂`` of its
    rankings and in each leaf also its reliability (``θ̂`` times the leaf's
    share of the training rows); by default its leaves are coloured by
    reliability on an orange scale and its internal nodes are grey.

    Node ``i`` is named and has the SVG id ``node{i}`` (see `node_id`), and a
    tooltip with its id and split: for a leaf, the best split found and why
    it was not made, after what an ordinal leaf predicts, e.g. ``predicts
    rank 3 (median of 40 rows)``.

    Parameters
    ----------
    tree : rankviz.tree.structure.Tree, RankingTree or OrdinalTree
        A fitted tree, e.g. ``RankingTree().fit(X, Y).tree_``, or the fitted
        estimator itself.
    highlight : int or str, optional
        Node to mark with a thick red border (e.g. the node just split), as an
        index (``3``) or id (``"node3"``).
    title : str, optional
        Title drawn above the tree.
    max_labels : int, optional
        Show at most this many labels of each leaf ranking, then ``> …``
        (unused for ordinal trees).
    similarity_range : (float, float), default=(-1.0, 1.0)
        Values mapped to the lightest and darkest colour; similarities outside
        are clipped. The default suits correlation-type criteria.
    show_ids : bool, default=False
        Write ``#id`` before ``n`` in each node, the id being
        :attr:`Tree.node_ids` (stable when a tree is cut for another γ), so a
        reader can find a node named elsewhere, e.g. in the app's inspector.
    direction : {"TB", "LR"}, default="TB"
        Top-down, or left to right (narrower: fits half a page or a column).
    legend : bool, default=True
        Draw the legend node (an app may explain several drawings in one caption).
    color_by : {"similarity", "reliability"}, optional
        What the fill shows; ``"reliability"`` (leaves only) needs a tree with
        ``theta``. Default: reliability when the tree has ``theta``.
    reliability_range : (float, float), optional
        Finite reliabilities mapped to the lightest and the second darkest
        orange; default from 0 to the largest finite leaf reliability. The
        darkest orange is kept for pure leaves (θ̂ = ∞).
    max_depth : int, optional
        Draw only the nodes at depth ``<= max_depth`` (the root is depth 0),
        for trees too large to read whole. A node split below the cut gets a
        dashed border and a line ``+ 12 nodes below (7 leaves)``, and the
        legend explains the dashes; a ``highlight`` below the cut marks its
        drawn ancestor. None (default), or a depth at least the tree's own,
        draws every node. See `fitting_depth` for a depth that keeps a
        drawing legible.

    Returns
    -------
    str
        The DOT source. All user text (names, values, title) is HTML-escaped.

    Raises
    ------
    ValueError
        If ``highlight`` is not a node of the tree, or ``max_labels``,
        ``similarity_range``, ``direction`` or ``max_depth`` is invalid.
    """
    tree = getattr(tree, "tree_", tree)  # a fitted RankingTree works too
    n_nodes = tree.node_count
    highlight = _check_highlight(highlight, n_nodes)
    if max_labels is not None and not (isinstance(max_labels, (int, np.integer)) and max_labels >= 1):
        raise ValueError(f"max_labels must be None or an integer >= 1, got {max_labels!r}")
    if direction not in ("TB", "LR"):
        raise ValueError(f"direction must be 'TB' (top-down) or 'LR' (left to right), got {direction!r}")
    if max_depth is not None and not (isinstance(max_depth, (int, np.integer))
                                      and not isinstance(max_depth, bool) and max_depth >= 0):
        raise ValueError(f"max_depth must be None or an integer >= 0, got {max_depth!r}")
    # Left to right, ranks are columns of wide boxes: less space between them reads better.
    ranksep = 0.5 if direction == "TB" else 0.3
    vmin, vmax = (float(v) for v in similarity_range)
    if not (math.isfinite(vmin) and math.isfinite(vmax) and vmin < vmax):
        raise ValueError(f"similarity_range must be two finite numbers, low < high; got {similarity_range!r}")
    color_by = color_by or ("reliability" if tree.theta is not None else "similarity")
    if color_by not in ("similarity", "reliability"):
        raise ValueError(f"color_by must be 'similarity' or 'reliability', got {color_by!r}")
    if color_by == "reliability" and tree.theta is None:
        raise ValueError("color_by='reliability' needs a tree with Mallows spreads "
                         "(RankingTree(criterion='mallows'))")
    by_reliability = color_by == "reliability"
    if by_reliability:
        rmin, rmax = reliability_range or (0.0, _largest_finite(tree.reliability[tree.is_leaf]))

    lines = [
        "digraph RankingTree {",
        # ordering=out keeps the "yes" child on the left, as the edges are listed.
        f'  graph [rankdir={direction}, ordering=out, nodesep=0.3, ranksep={ranksep}, margin=0, pad=0.2, '
        'bgcolor="white", fontname="Helvetica", fontsize=16, labelloc=t, labeljust=c];',
        '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=12, '
        f'margin="0.14,0.07", color="{BORDER_COLOR}", penwidth=1];',
        f'  edge [fontname="Helvetica", fontsize=10, color="{EDGE_COLOR}", '
        f'fontcolor="{EDGE_COLOR}", arrowsize=0.7];',
    ]
    if title:
        lines.append(f"  label=<<B>{_esc(title)}</B>>;")

    left, right = tree.children_left, tree.children_right
    ids = tree.node_ids
    ordinal = _OrdinalView(tree) if tree.is_ordinal else None
    depth = np.asarray(tree.depth)
    drawn = np.ones(n_nodes, dtype=bool) if max_depth is None else depth <= max_depth
    cut = drawn & ~tree.is_leaf & (depth == max_depth) if max_depth is not None else ~drawn
    hidden_nodes, hidden_leaves = _subtree_sizes(tree)
    if highlight is not None and not drawn[highlight]:
        highlight = _ancestor_at(tree, highlight, max_depth)
    for node in np.flatnonzero(drawn):
        s = float(tree.similarity[node])
        fill = _fill_color(s, vmin, vmax)
        n = int(tree.n_samples[node])
        stats = f"n = {n}, S = {_fmt_similarity(s)}"
        if tree.theta is not None:
            stats = f"n = {n}, θ̂ = {_fmt_theta(tree.theta[node])}"
            if tree.is_leaf[node]:
                stats += f", rel = {_fmt_theta(tree.reliability[node])}"
        if by_reliability:
            fill = (_reliability_fill(float(tree.reliability[node]), rmin, rmax)
                    if tree.is_leaf[node] else INTERNAL_FILL)
        font = _text_color(fill)
        if show_ids:
            stats = f"#{ids[node]} · {stats}"
        if ordinal is not None:
            label = _ordinal_node_label(tree, node, stats, ordinal)
        elif tree.is_leaf[node]:
            label = _node_label(_ranking_lines(tree, node, max_labels), stats)
        else:
            label = _node_label([_esc(tree.test_text(node))], stats)
        tooltip = _tooltip(tree, node, ordinal)
        if cut[node]:
            below = _hidden_text(hidden_nodes[node], hidden_leaves[node])
            label = (label[:-len("</TABLE>")]
                     + f'<TR><TD><FONT POINT-SIZE="10"><I>{below}</I></FONT></TD></TR></TABLE>')
            tooltip += f"; {below}, not drawn"
        attrs = [
            f'id="{node_id(node)}"',
            f"label=<{label}>",
            f'fillcolor="{fill}"',
            f'fontcolor="{font}"',
            f"tooltip={_dot_string(tooltip)}",
        ]
        if cut[node]:
            attrs.append('style="rounded,filled,dashed"')
        if node == highlight:
            attrs += ["penwidth=3", f'color="{HIGHLIGHT_COLOR}"']
        lines.append(f"  {node_id(node)} [{', '.join(attrs)}];")

    for node in np.flatnonzero(drawn & ~cut):
        if not tree.is_leaf[node]:
            lines.append(f'  {node_id(node)} -> {node_id(left[node])} [label="yes"];')
            lines.append(f'  {node_id(node)} -> {node_id(right[node])} [label="no"];')

    # Declared after the tree, the unconnected legend lands on the root's rank,
    # to the right: the space beside the root of a tree is otherwise empty.
    cut_depth = max_depth if cut.any() else None
    if legend and by_reliability:
        lines.append(f"  legend [{_reliability_legend_attrs(rmin, rmax, cut_depth)}];")
    elif legend:
        lines.append(f"  legend [{_legend_attrs(tree.similarity_label, vmin, vmax, ordinal, cut_depth)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _subtree_sizes(tree):
    """Nodes and leaves strictly below each node, from the deepest nodes up."""
    n_nodes = tree.node_count
    nodes, leaves = np.zeros(n_nodes, dtype=np.intp), tree.is_leaf.astype(np.intp)
    left, right = tree.children_left, tree.children_right
    for node in np.argsort(-np.asarray(tree.depth), kind="stable"):
        if left[node] >= 0:
            nodes[node] = nodes[left[node]] + nodes[right[node]] + 2
            leaves[node] = leaves[left[node]] + leaves[right[node]]
    return nodes, np.where(tree.is_leaf, 0, leaves)


def _ancestor_at(tree, node, depth):
    """The ancestor of ``node`` at ``depth`` (the node itself if it is that deep)."""
    parent = parent_array(tree.children_left, tree.children_right)
    while tree.depth[node] > depth:
        node = parent[node]
    return int(node)


def _hidden_text(nodes, leaves):
    """``+ 12 nodes below (7 leaves)``: what a cut node hides."""
    return f"+ {int(nodes)} nodes below ({int(leaves)} leaves)"


def drawn_leaves(tree, max_depth=None):
    """How many boxes end a path when a tree is drawn to ``max_depth``: its leaves
    at that depth or above, and the nodes cut there (see `tree_to_dot`)."""
    tree = getattr(tree, "tree_", tree)
    if max_depth is None:
        return tree.n_leaves
    depth = np.asarray(tree.depth)
    return int(np.count_nonzero((tree.is_leaf & (depth <= max_depth)) | (depth == max_depth)))


def fitting_depth(tree, max_leaves=30):
    """The largest depth to which a tree can be drawn with at most ``max_leaves``
    boxes ending its paths (`drawn_leaves`); at least 1, and the tree's own
    depth when it fits whole."""
    tree = getattr(tree, "tree_", tree)
    best = min(1, tree.max_depth)
    for depth in range(1, tree.max_depth + 1):
        if drawn_leaves(tree, depth) > max_leaves:
            break
        best = depth
    return best


def _check_highlight(highlight, n_nodes):
    if highlight is None:
        return None
    value = highlight
    if isinstance(value, str) and value.startswith("node") and value[4:].isdigit():
        value = int(value[4:])
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool) and 0 <= value < n_nodes:
        return int(value)
    raise ValueError(f"highlight must be a node of the tree (0..{n_nodes - 1} or 'node0'..), got {highlight!r}")


def _esc(text):
    """HTML-escape user text for an HTML-like label (quotes too: ids, attributes)."""
    return html.escape(str(text), quote=True)


def _dot_string(text):
    """A double-quoted DOT string.

    The text is HTML-escaped first: Graphviz copies entities such as ``&lt;``
    unchanged into SVG, so escaping here is what makes ``<`` and ``&`` safe in
    the SVG tooltip (Graphviz would escape a bare ``&`` itself, but not a
    user string that happens to look like an entity). Backslashes are doubled
    because DOT strings treat ``\\`` as an escape; newlines become spaces.
    """
    text = _esc(text).replace("\\", "\\\\").replace("\n", " ").replace("\r", " ")
    return f'"{text}"'


def _fmt_similarity(s):
    return "n/a" if math.isnan(s) else f"{s:.3f}"


def _fmt_theta(value):
    value = float(value)
    return "∞" if math.isinf(value) else "n/a" if math.isnan(value) else f"{value:.2f}"


def _largest_finite(values):
    """Top of the default reliability scale: the largest finite value (1 if none)."""
    finite = np.asarray(values, dtype=float)
    finite = finite[np.isfinite(finite)]
    return float(finite.max()) if len(finite) and finite.max() > 0 else 1.0


def _fill_color(s, vmin, vmax, palette=PALETTE):
    if math.isnan(s):
        return MISSING_FILL
    step = round((min(max(s, vmin), vmax) - vmin) / (vmax - vmin) * (len(palette) - 1))
    return palette[step]


def _relative_luminance(hex_color):
    rgb = [int(hex_color[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _text_color(fill):
    """Black or white, whichever has the higher WCAG contrast on ``fill``."""
    lum = _relative_luminance(fill)
    contrast_black = (lum + 0.05) / 0.05
    contrast_white = 1.05 / (lum + 0.05)
    return "#000000" if contrast_black >= contrast_white else "#ffffff"


def _node_label(head_lines, stats):
    """HTML-like label: bold head lines (test or ranking), then ``n`` and ``S``.

    One table row per line instead of ``<BR/>``: Graphviz spaces ``<BR/>``
    lines by the nominal font size, and with the wide fonts it picks for
    "Helvetica" on Linux (DejaVu Sans) an underscore, as in the default label
    names ``label_1``, then touches the next line. Table rows get padding.
    """
    rows = "".join(f"<TR><TD><B>{line}</B></TD></TR>" for line in head_lines)
    return (f'<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">{rows}'
            f'<TR><TD><FONT POINT-SIZE="10">{stats}</FONT></TD></TR></TABLE>')


def _ranking_lines(tree, node, max_labels):
    """The leaf's ranking as escaped lines of about RANKING_LINE_CHARS characters."""
    # Same order as Tree.ranking_text: positions ascending, ties by label order.
    order = np.argsort(tree.ranking[node], kind="stable")
    names = [str(tree.label_names[j]) for j in order]
    if max_labels is not None and len(names) > max_labels:
        names = names[:max_labels] + ["…"]
    rows, current = [], ""
    for name in names:
        piece = name if not current else f"{current} > {name}"
        if current and len(piece) > RANKING_LINE_CHARS:
            rows.append(current)
            current = f"> {name}"  # continuation lines start with ">" so the order reads on
        else:
            current = piece
    rows.append(current)
    return [_esc(row) for row in rows]


def _tooltip(tree, node, ordinal=None):
    """One short line: the node id and its split, or for a leaf why it stopped.

    A leaf of an ordinal tree first says what it predicts, e.g.
    ``node7 (leaf): predicts rank 3 (median of 40 rows); a single example``.
    """
    name = node_id(node)
    if not tree.is_leaf[node]:
        score = float(tree.split_score[node])
        extra = "" if math.isnan(score) else f" with S_split = {score:.3f}"
        return f"{name}: split {tree.test_text(node)}{extra}"
    split = tree.best_split_text(node)
    score = float(tree.split_score[node])
    postponed = tree.extras.get("postponed")
    predicts = "" if ordinal is None else f"{ordinal.predicts_text(node)}; "
    if split and postponed is not None and postponed[node]:
        return f"{name}: {predicts}will split {split} with S_split = {score:.3f} (not grown yet)"
    if split and math.isfinite(score):
        return (f"{name} (leaf): {predicts}best split {split} with S_split = {score:.3f} "
                "rejected by rule (6)")
    s, n = float(tree.similarity[node]), int(tree.n_samples[node])
    if n < 2:
        reason = "a single example"
    elif s >= 1.0 - 1e-12:
        reason = "all rankings agree" if ordinal is None else "all rows at one level"
    else:
        reason = "no split searched or possible (size or depth limit)"
    return f"{name} (leaf): {predicts}{reason}"


class _OrdinalView:
    """What the drawing of an ordinal tree needs: level names, counts, predictions."""

    def __init__(self, tree):
        self.counts = np.asarray(tree.class_counts, dtype=float)
        n_levels = self.counts.shape[1]
        names = tree.class_names
        self.names = ([str(name) for name in names] if names is not None
                      else [str(k + 1) for k in range(n_levels)])
        self.rule = tree.prediction or "median"
        self.predicted = np.asarray(tree.predicted_level)
        # Numbered levels (ratings 1..5) read as ranks, "rank 3"; named ones as themselves.
        self.numbered = all(_is_number(name) for name in self.names)

    def level_text(self, node):
        """The predicted level of a node, ``rank 3`` or ``good`` (not escaped)."""
        name = self.names[int(self.predicted[node])]
        return f"rank {name}" if self.numbered else name

    def predicts_text(self, node):
        n = self.counts[node].sum()
        rows = "1 row" if n == 1 else f"{_fmt_count(n)} rows"
        return f"predicts {self.level_text(node)} ({self.rule} of {rows})"

    def levels_text(self):
        """The level names in order, escaped: ``1..5`` (or both names of two levels)."""
        names = [_esc(name) for name in self.names]
        if len(names) <= 2:
            return ", ".join(names)
        return f"{names[0]}..{names[-1]}"

    def cells(self, node):
        """One-row table of the node's rows per level, the predicted level boxed."""
        counts = self.counts[node]
        total = counts.sum()
        top = len(LEVEL_PALETTE) - 1
        # Equal cells, so the row reads like a bar chart of the levels; as narrow
        # as the node's widest count allows (small leaves get small cells).
        texts = [_fmt_count(count) for count in counts]
        width = 6 * max(len(text) for text in texts) + 6
        cells = []
        for k, count in enumerate(counts):
            step = 0 if count <= 0 or total <= 0 else max(1, round(count / total * top))
            fill = LEVEL_PALETTE[step]
            text = texts[k]
            attrs = f'BGCOLOR="{fill}" WIDTH="{width}" HEIGHT="13"'
            if k == self.predicted[node]:
                text = f"<B>{text}</B>"
                attrs += f' BORDER="2" COLOR="{PREDICTED_CELL_BORDER}"'
            cells.append(f'<TD {attrs}><FONT POINT-SIZE="8" COLOR="{_text_color(fill)}">'
                         f"{text}</FONT></TD>")
        return (f'<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="1" '
                f'COLOR="{LEVEL_CELL_BORDER}"><TR>{"".join(cells)}</TR></TABLE>')


def _is_number(text):
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def _fmt_count(count):
    count = float(count)
    return str(int(count)) if count.is_integer() else f"{count:.3g}"


def _ordinal_node_label(tree, node, stats, ordinal):
    """Label of an ordinal tree node: test or predicted level, level cells, ``n`` and ``S``."""
    if tree.is_leaf[node]:
        head = f'<FONT POINT-SIZE="14"><B>{_esc(ordinal.level_text(node))}</B></FONT>'
    else:
        head = f"<B>{_esc(tree.test_text(node))}</B>"
    return (f'<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">'
            f"<TR><TD>{head}</TD></TR>"
            f"<TR><TD>{ordinal.cells(node)}</TD></TR>"
            f'<TR><TD><FONT POINT-SIZE="10">{stats}</FONT></TD></TR></TABLE>')


def _cut_row(cut_depth, row):
    """Legend row of a tree drawn to a depth: what a dashed box means."""
    if cut_depth is None:
        return ""
    return row(f"dashed: split further below depth {cut_depth}, not drawn")


def _legend_attrs(similarity_label, vmin, vmax, ordinal=None, cut_depth=None):
    """Attributes of the legend node: what S and n mean, and the colour bar.

    Kept to three short rows (four for an ordinal tree, whose nodes are
    taller): the legend sits on the root's rank, so a tall legend would push
    the whole tree down and open a gap under the root.
    """
    steps = len(PALETTE)
    swatches = []
    for k, fill in enumerate(PALETTE):
        value = vmin + k * (vmax - vmin) / (steps - 1)
        text = f"{value:.2f}".rstrip("0").rstrip(".")
        text = "0" if text in ("-0", "") else text
        swatches.append(
            f'<TD BGCOLOR="{fill}" WIDTH="28" HEIGHT="14">'
            f'<FONT POINT-SIZE="8" COLOR="{_text_color(fill)}">{text}</FONT></TD>')

    def row(content):
        return (f'<TR><TD COLSPAN="{steps}" ALIGN="LEFT">'
                f'<FONT POINT-SIZE="9">{content}</FONT></TD></TR>')

    if ordinal is None:
        explain = row("<B>n</B> = training examples; leaves: ranking, best first")
    else:
        explain = (row(f"cells: rows at levels {ordinal.levels_text()}, low to high")
                   + row(f"<B>n</B> = training rows; boxed: <B>{_esc(ordinal.rule)}</B> level"))
    table = (
        '<TABLE BORDER="1" COLOR="#bdbdbd" CELLBORDER="0" CELLSPACING="0" CELLPADDING="2">'
        + row(f"<B>S</B> (colour) = {_esc(similarity_label)}")
        + f'<TR>{"".join(swatches)}</TR>'
        + explain
        + _cut_row(cut_depth, row)
        + "</TABLE>"
    )
    return (f'id="legend", shape=plaintext, style="", margin=0, '
            f'tooltip="legend", label=<{table}>')


def _reliability_fill(value, rmin, rmax):
    """Finite reliabilities over all but the darkest orange; a pure leaf (∞) gets the darkest,
    so it is never confused with the most reliable finite leaf."""
    if math.isinf(value):
        return RELIABILITY_PALETTE[-1]
    return _fill_color(value, rmin, rmax, RELIABILITY_PALETTE[:-1])


def _reliability_legend_attrs(rmin, rmax, cut_depth=None):
    """Legend of a label ranking tree coloured by leaf reliability (seed 003)."""
    steps = len(RELIABILITY_PALETTE)
    swatches = []
    for k, fill in enumerate(RELIABILITY_PALETTE):
        text = "∞" if k == steps - 1 else f"{rmin + k * (rmax - rmin) / (steps - 2):.2g}"
        swatches.append(
            f'<TD BGCOLOR="{fill}" WIDTH="32" HEIGHT="14">'
            f'<FONT POINT-SIZE="8" COLOR="{_text_color(fill)}">{text}</FONT></TD>')

    def row(content):
        return (f'<TR><TD COLSPAN="{steps}" ALIGN="LEFT">'
                f'<FONT POINT-SIZE="9">{content}</FONT></TD></TR>')

    table = (
        '<TABLE BORDER="1" COLOR="#bdbdbd" CELLBORDER="0" CELLSPACING="0" CELLPADDING="2">'
        + row("leaf colour: reliability (rel), θ̂ × the leaf's share of rows")
        + f'<TR>{"".join(swatches)}</TR>'
        + row("θ̂: the Mallows spread (∞: all agree); leaves: centre ranking")
        + _cut_row(cut_depth, row)
        + "</TABLE>"
    )
    return (f'id="legend", shape=plaintext, style="", margin=0, '
            f'tooltip="legend", label=<{table}>')


# -- rendering ------------------------------------------------------------------

def _pure_binary():
    """Path of graphviz-pure: next to this Python first (the venv's bin/), then PATH."""
    # Not resolved: in a venv sys.executable is a symlink whose *link* directory
    # holds the console scripts of packages installed into that venv.
    candidate = Path(sys.executable).parent / _PURE_BINARY
    if candidate.is_file():
        return str(candidate)
    return shutil.which(_PURE_BINARY)


def _dot_binary():
    return shutil.which("dot")


def available_engines():
    """Layout engines that can run here, in the order ``engine="auto"`` prefers.

    Returns
    -------
    list of str
        A subset of ``["dot", "pure"]``: ``"dot"`` if Graphviz's ``dot`` is on
        ``PATH``, ``"pure"`` if the ``graphviz-pure`` binary is found.
    """
    found = {"dot": _dot_binary(), "pure": _pure_binary()}
    return [name for name in _ENGINES if found[name]]


def render(dot_source, fmt, engine="auto", *, dpi=DEFAULT_PNG_DPI, timeout=DEFAULT_TIMEOUT):
    """Lay out DOT text and return the file's bytes.

    Parameters
    ----------
    dot_source : str
        DOT text, e.g. from `tree_to_dot`.
    fmt : {"svg", "png", "pdf", "dot"}
        Output format; ``"dot"`` returns the source itself, UTF-8 encoded.
    engine : {"auto", "dot", "pure"}, default="auto"
        ``"dot"``: Graphviz's ``dot`` on ``PATH``. ``"pure"``: the
        ``graphviz-pure`` binary (PDF via its SVG, svglib and reportlab).
        ``"auto"``: ``"dot"`` if available, else ``"pure"``.
    dpi : float, default=150
        Resolution of PNG output (ignored for other formats).
    timeout : float, default=60
        Seconds the engine may run.

    Returns
    -------
    bytes

    Raises
    ------
    RenderError
        Unknown format or engine, engine not installed, engine failure
        (invalid DOT, ...), empty output or timeout. The message names the
        engine, the format and the first line of the engine's error output.
    """
    if fmt not in EXPORT_FORMATS:
        raise RenderError(f"unknown format {fmt!r}; expected one of {', '.join(EXPORT_FORMATS)}")
    if not isinstance(dot_source, str):
        raise RenderError(f"dot_source must be str, got {type(dot_source).__name__}")
    if fmt == "dot":
        return dot_source.encode("utf-8")
    engine = _resolve_engine(engine)
    if engine == "dot":
        return _run(_dot_binary(), "dot", dot_source, fmt, dpi, timeout)
    if fmt == "pdf":
        # graphviz-pure writes no PDF: lay out to SVG, then convert in Python.
        svg = _run(_pure_binary(), "pure", dot_source, "svg", dpi, timeout, label="'pdf' (via svg)")
        return _svg_to_pdf(svg)
    return _run(_pure_binary(), "pure", dot_source, fmt, dpi, timeout)


def _resolve_engine(engine):
    if engine not in ("auto",) + _ENGINES:
        raise RenderError(f"unknown engine {engine!r}; expected 'auto', 'dot' or 'pure'")
    available = available_engines()
    if engine == "auto":
        if not available:
            raise RenderError("no layout engine: neither Graphviz 'dot' on PATH nor 'graphviz-pure' "
                              "(pip install graphviz-pure) was found")
        return available[0]
    if engine not in available:
        hint = ("install Graphviz (apt-get install graphviz)" if engine == "dot"
                else "pip install graphviz-pure")
        raise RenderError(f"engine {engine!r} is not available: {hint}")
    return engine


def _run(binary, engine, dot_source, fmt, dpi, timeout, label=None):
    """Run one engine binary on the DOT text (stdin) and return its stdout."""
    cmd = [binary, f"-T{fmt}"]
    if fmt == "png" and dpi:
        cmd.append(f"-Gdpi={float(dpi):g}")
    where = f"engine {engine!r}, format {label or repr(fmt)}"
    try:
        proc = subprocess.run(cmd, input=dot_source.encode("utf-8"), capture_output=True,
                              timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise RenderError(f"{where}: layout did not finish within {timeout:g} s") from None
    except OSError as exc:
        raise RenderError(f"{where}: could not run {binary}: {exc}") from None
    if proc.returncode != 0:
        raise RenderError(f"{where}: failed (exit code {proc.returncode}): {_first_error(proc.stderr)}")
    if not proc.stdout:
        # Both engines exit 0 with no output for a format they do not know.
        raise RenderError(f"{where}: no output: {_first_error(proc.stderr)}")
    return proc.stdout


def _first_error(stderr):
    """The line of an engine's stderr worth showing: the first error, else the first line.

    Warnings (e.g. graphviz-pure's 'no value for width of non-ASCII
    character') often come first and would hide the actual error.
    """
    lines = [ln.strip() for ln in stderr.decode("utf-8", "replace").splitlines() if ln.strip()]
    for line in lines:
        if "error" in line.lower() or "not recognized" in line.lower():
            return line
    return lines[0] if lines else "(no message)"


def _svg_to_pdf(svg):
    """PDF bytes from SVG bytes with svglib + reportlab (graphviz-pure has no PDF)."""
    try:
        from reportlab.graphics import renderPDF
        from svglib.svglib import svg2rlg
    except ImportError as exc:  # optional dependencies of the "pure" PDF path
        raise RenderError(f"engine 'pure', format 'pdf': needs svglib and reportlab ({exc})") from None
    try:
        drawing = svg2rlg(io.BytesIO(svg))
        if drawing is None:
            raise ValueError("svglib could not parse the SVG")
        return renderPDF.drawToString(drawing)
    except Exception as exc:  # svglib/reportlab raise many types; report one
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise RenderError(f"engine 'pure', format 'pdf': SVG to PDF conversion failed: {first}") from None
