"""The drawing of Fig. 1 of Xia, Zhang & Wang (2006) for the teaching tab: one split, three boxes.

References
----------
.. [1] F. Xia, W. Zhang and J. Wang, "An effective tree-based algorithm for
       ordinal regression", IEEE Intelligent Informatics Bulletin, vol. 7,
       no. 1, pp. 22-26, 2006.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from ...experiments.teaching import RATINGS
from .common import LEVEL_CELL_BORDER

__all__ = ["figure1_to_dot", "fraction_text", "number_text"]

#: Fill of a rating with rows, and of one without.
RATED_FILL = "#d9d9d9"
EMPTY_FILL = "#ffffff"


def number_text(value: float, digits: int = 3) -> str:
    """A whole number without decimals (``18``), else rounded to ``digits`` places (``0.375``)."""
    value = float(value)
    if value.is_integer():
        return str(int(value))
    return f"{value:.{digits}f}".rstrip("0").rstrip(".")


def fraction_text(value: float) -> str:
    """A simple fraction as plain text (``1/2``), else the decimal."""
    fraction = Fraction(float(value)).limit_denominator(64)
    if abs(float(fraction) - float(value)) > 1e-12:
        return number_text(value, 4)
    return str(fraction)


def figure1_to_dot(a: int, left: Sequence[int], right: Sequence[int], split: Mapping[str, float],
                   parent_gini: float, parent_rank: float) -> str:
    """Graphviz DOT of one split of Fig. 1 of Xia, Zhang & Wang (2006): the parent and its two children.

    Every box holds the node's rows at each of the ratings 1-4 (grey where it
    has rows) and its Gini and ranking impurity.

    Parameters
    ----------
    a : int
        Rows at each rating of the parent.
    left, right : sequence of int
        The ratings each child receives.
    split : mapping
        One row of :func:`rankviz.experiments.teaching.figure1_splits`
        (``gini_left``, ``gini_right``, ``rank_left``, ``rank_right``).
    parent_gini, parent_rank : float
        The parent's two impurities.

    Returns
    -------
    str
        The DOT source (all text is numbers and fixed words: nothing to escape).
    """
    def cells(present: Sequence[int]) -> str:
        head = "".join(f'<TD WIDTH="26"><FONT POINT-SIZE="9">{r}</FONT></TD>' for r in RATINGS)
        body = "".join(
            f'<TD BGCOLOR="{RATED_FILL if r in present else EMPTY_FILL}" WIDTH="26">'
            f'<FONT POINT-SIZE="9">{a if r in present else 0}</FONT></TD>' for r in RATINGS)
        return (f'<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="2" COLOR="{LEVEL_CELL_BORDER}">'
                f"<TR>{head}</TR><TR>{body}</TR></TABLE>")

    def label(present: Sequence[int], gini: float, rank: float, title: str) -> str:
        n = a * len(present)
        return (f'<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">'
                f"<TR><TD><B>{title}</B> (n = {n})</TD></TR>"
                f"<TR><TD>{cells(present)}</TD></TR>"
                f'<TR><TD><FONT POINT-SIZE="10">Gini {fraction_text(gini)}, I_rank {number_text(rank)}'
                f"</FONT></TD></TR></TABLE>>")

    return "\n".join([
        "digraph Fig1 {",
        '  graph [rankdir=TB, nodesep=0.3, ranksep=0.35, margin=0, pad=0.1, bgcolor="white"];',
        '  node [shape=box, style="rounded", fontname="Helvetica", fontsize=11, '
        'color="#4d4d4d", margin="0.08,0.04"];',
        '  edge [fontname="Helvetica", fontsize=10, color="#595959", fontcolor="#595959", '
        "arrowsize=0.7];",
        f"  parent [label={label(RATINGS, parent_gini, parent_rank, 'parent')}];",
        f"  left [label={label(left, split['gini_left'], split['rank_left'], 'left child')}];",
        f"  right [label={label(right, split['gini_right'], split['rank_right'], 'right child')}];",
        f'  parent -> left [label=" ratings {", ".join(map(str, left))}"];',
        f'  parent -> right [label=" ratings {", ".join(map(str, right))}"];',
        "}",
    ])
