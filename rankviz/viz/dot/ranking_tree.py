"""Drawer of mean-rank ranking trees (Rebelo, Soares & Costa 2008).

Internal nodes show their test (``A2 <= 4.5``, ``A1 = c``), leaves their
predicted ranking (``a3 > a1 > a2``, most preferred first); every node shows
``n`` (training examples) and ``S`` (the criterion's similarity of its
rankings) and is filled by ``S`` on a sequential blue scale.
"""

from __future__ import annotations

import numpy as np

from ...tree.structure import Tree, ranking_order
from .common import MISSING_FILL, RANK_PALETTE, TreeDrawer, escape, node_label

__all__ = ["RANKING_LINE_CHARS", "RankingTreeDrawer", "rank_strip", "ranking_lines"]

#: Leaf rankings longer than this many characters are wrapped onto more lines,
#: so trees over many labels stay narrow enough to read.
RANKING_LINE_CHARS = 34


def ranking_lines(tree: Tree, node: int, max_labels: int | None = None) -> list[str]:
    """A leaf's ranking as escaped lines of about :data:`RANKING_LINE_CHARS` characters.

    Parameters
    ----------
    tree : Tree
    node : int
    max_labels : int, optional
        Show at most this many labels, then ``…``.

    Returns
    -------
    list of str
        ``["a3 > a1 = a2"]`` (``=`` joins tied labels); continuation lines
        start with ``>`` or ``=`` so the order reads on.
    """
    # Same order as Tree.ranking_text: positions ascending, ties by label order.
    order, tied = ranking_order(tree.ranking[node])
    names = [str(tree.label_names[j]) for j in order]
    signs = ["=" if t else ">" for t in tied]
    if max_labels is not None and len(names) > max_labels:
        # the sign before "…" is that of the first label left out: a cut inside a tie reads "= …"
        names, signs = names[:max_labels] + ["…"], signs[:max_labels + 1]
    rows, current = [], ""
    for name, sign in zip(names, signs):
        piece = name if not current else f"{current} {sign} {name}"
        if current and len(piece) > RANKING_LINE_CHARS:
            rows.append(current)
            current = f"{sign} {name}"
        else:
            current = piece
    rows.append(current)
    return [escape(row) for row in rows]


def rank_strip(mean_rank: np.ndarray, font_size: float = 9) -> str:
    """A row of small cells, one per label in label order, shaded by the label's mean rank.

    The darkest green (:data:`~rankviz.viz.dot.common.RANK_PALETTE`) is mean
    rank 1, the lightest the last rank; a label without a rank (NaN) is grey.
    Labels stay in their own order, so strips of different leaves compare
    cell by cell, as the distributions dtreeviz draws inside its nodes do.

    Parameters
    ----------
    mean_rank : ndarray of shape (n_labels,)
        Mean position of each label, 1 = best.
    font_size : float, default=9
        Points of the drawing's small text: the cells' height follows it.

    Returns
    -------
    str
        An HTML-like ``<TABLE>`` for a DOT label.
    """
    ranks = np.asarray(mean_rank, dtype=float)
    k = ranks.size
    top = len(RANK_PALETTE) - 1
    share = (k - ranks) / (k - 1) if k > 1 else np.ones(k)  # 1 for the best rank, 0 for the worst
    steps = np.clip(np.rint(share * top), 0, top)
    # About 120 points wide in all, but no cell under 3 points or over 12.
    width = max(3, min(12, round(120 / max(k, 1))))
    height = round(font_size)
    cells = "".join(
        f'<TD BGCOLOR="{MISSING_FILL if np.isnan(step) else RANK_PALETTE[int(step)]}" '
        f'WIDTH="{width}" HEIGHT="{height}"></TD>'
        for step in steps)
    return (f'<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="0" COLOR="#bdbdbd">'
            f"<TR>{cells}</TR></TABLE>")


class RankingTreeDrawer(TreeDrawer):
    """A ranking tree: tests and rankings in bold, coloured by similarity."""

    def label(self, node: int, stats: str) -> str:
        """The node's test, or the leaf's ranking, over ``stats``."""
        if self.is_leaf[node]:
            lines = ranking_lines(self.tree, node, self.options.max_labels)
        else:
            lines = [escape(self.tree.test_text(node))]
        rows = [f"<B>{line}</B>" for line in lines]
        if self.options.rank_strips and self.is_leaf[node]:
            rows.append(rank_strip(self.tree.mean_rank[node], self.options.sizes.legend))
        return node_label(rows, stats, self.options.sizes.small)

    def legend_notes(self) -> list[str]:
        """What ``n`` and a leaf's text mean (and its mean-rank strip, when drawn)."""
        return ["<B>n</B> = training examples; leaves: ranking, best first", *self.strip_notes()]

    def strip_notes(self) -> list[str]:
        """The legend's row on the mean-rank strips, when they are drawn."""
        if not self.options.rank_strips:
            return []
        names = [escape(name) for name in self.tree.label_names]
        order = ", ".join(names) if len(names) <= 4 else f"{names[0]} .. {names[-1]}"
        return [f"strip: mean rank of each label ({order}), darkest = first"]
