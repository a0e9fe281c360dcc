"""Drawer of ordinal trees (Xia, Zhang & Wang 2006), from :class:`rankviz.OrdinalTree`.

A tree of an ordinal target (``tree.is_ordinal``) shows levels instead of
rankings: each leaf its predicted level in large type (``rank 3`` for
numbered levels, the name itself for named ones), and every node a row of
small cells, one per level from lowest to highest, holding the node's
training rows at that level, shaded grey by their share of the node, the
cell of the node's predicted level (by ``tree.prediction``, median or mode)
boxed and bold. Nodes are filled by ``S`` as in a ranking tree; the legend
names the levels and the prediction rule.
"""

from __future__ import annotations

import math

import numpy as np

from ...tree.structure import Tree
from .common import (LEVEL_CELL_BORDER, LEVEL_PALETTE, PREDICTED_CELL_BORDER, DrawOptions, TreeDrawer, escape,
                     node_label, node_tooltip, text_color)

__all__ = ["OrdinalTreeDrawer"]


class OrdinalTreeDrawer(TreeDrawer):
    """An ordinal tree: level cells in every box, the predicted level in each leaf."""

    def __init__(self, tree: Tree, options: DrawOptions) -> None:
        super().__init__(tree, options)
        self.counts = np.asarray(tree.class_counts, dtype=float)
        n_levels = self.counts.shape[1]
        names = tree.class_names
        self.names = ([str(name) for name in names] if names is not None
                      else [str(k + 1) for k in range(n_levels)])
        self.rule = tree.prediction or "median"
        self.predicted = np.asarray(tree.predicted_level)
        # Numbered levels (ratings 1..5) read as ranks, "rank 3"; named ones as themselves.
        self.numbered = all(_is_number(name) for name in self.names)

    def level_text(self, node: int) -> str:
        """The predicted level of a node, ``rank 3`` or ``good`` (not escaped)."""
        name = self.names[int(self.predicted[node])]
        return f"rank {name}" if self.numbered else name

    def label(self, node: int, stats: str) -> str:
        """The test or predicted level, the level cells, then ``stats``."""
        if self.is_leaf[node]:
            head = f'<FONT POINT-SIZE="{self.options.sizes.large:g}"><B>{escape(self.level_text(node))}</B></FONT>'
        else:
            head = f"<B>{escape(self.tree.test_text(node))}</B>"
        return node_label([head, self._cells(node)], stats, self.options.sizes.small)

    def tooltip(self, node: int) -> str:
        """As any tree's, a leaf's saying first what it predicts: ``predicts rank 3 (median of 40 rows)``."""
        predicts = ""
        if self.is_leaf[node]:
            n = self.counts[node].sum()
            rows = "1 row" if n == 1 else f"{_fmt_count(n)} rows"
            predicts = f"predicts {self.level_text(node)} ({self.rule} of {rows}); "
        return node_tooltip(self.tree, node, predicts, agree="all rows at one level")

    def legend_notes(self) -> list[str]:
        """The levels in order (``1..5``, or both names of two levels) and the rule boxed."""
        names = [escape(name) for name in self.names]
        levels = ", ".join(names) if len(names) <= 2 else f"{names[0]}..{names[-1]}"
        return [f"cells: rows at levels {levels}, low to high",
                f"<B>n</B> = training rows; boxed: <B>{escape(self.rule)}</B> level"]

    def _cells(self, node):
        """One-row table of the node's rows per level, the predicted level boxed."""
        counts = self.counts[node]
        total = counts.sum()
        top = len(LEVEL_PALETTE) - 1
        # Equal cells, so the row reads like a bar chart of the levels; as narrow
        # as the node's widest count allows (small leaves get small cells).
        texts = [_fmt_count(count) for count in counts]
        size = self.options.sizes.legend
        width = round((6 * max(len(text) for text in texts) + 6) * size / 8)
        cells = []
        for k, count in enumerate(counts):
            step = 0 if count <= 0 or total <= 0 else max(1, round(count / total * top))
            fill = LEVEL_PALETTE[step]
            text = texts[k]
            attrs = f'BGCOLOR="{fill}" WIDTH="{width}" HEIGHT="{round(13 * size / 8)}"'
            if k == self.predicted[node]:
                text = f"<B>{text}</B>"
                attrs += f' BORDER="2" COLOR="{PREDICTED_CELL_BORDER}"'
            cells.append(f'<TD {attrs}><FONT POINT-SIZE="{size:g}" COLOR="{text_color(fill)}">{text}</FONT></TD>')
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
