"""Drawer of mean-rank ranking trees (Rebelo, Soares & Costa 2008).

Internal nodes show their test (``A2 <= 4.5``, ``A1 = c``), leaves their
predicted ranking (``a3 > a1 > a2``, most preferred first); every node shows
``n`` (training examples) and ``S`` (the criterion's similarity of its
rankings) and is filled by ``S`` on a sequential blue scale.
"""

from __future__ import annotations

import numpy as np

from ...tree.structure import Tree
from .common import TreeDrawer, escape, node_label

__all__ = ["RANKING_LINE_CHARS", "RankingTreeDrawer", "ranking_lines"]

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
        ``["a3 > a1 > a2"]``; continuation lines start with ``>`` so the order reads on.
    """
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
            current = f"> {name}"
        else:
            current = piece
    rows.append(current)
    return [escape(row) for row in rows]


class RankingTreeDrawer(TreeDrawer):
    """A ranking tree: tests and rankings in bold, coloured by similarity."""

    def label(self, node: int, stats: str) -> str:
        """The node's test, or the leaf's ranking, over ``stats``."""
        if self.is_leaf[node]:
            lines = ranking_lines(self.tree, node, self.options.max_labels)
        else:
            lines = [escape(self.tree.test_text(node))]
        return node_label([f"<B>{line}</B>" for line in lines], stats, self.options.sizes.small)

    def legend_notes(self) -> list[str]:
        """What ``n`` and a leaf's text mean."""
        return ["<B>n</B> = training examples; leaves: ranking, best first"]
