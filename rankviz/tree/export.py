"""The rules of a fitted tree as plain text, in the manner of scikit-learn's ``export_text``.

References
----------
.. [1] C. Rebelo, C. Soares and J. Pinto da Costa, "Empirical evaluation of
       ranking trees on some metalearning problems", Proceedings of the 2nd
       Planning to Learn Workshop (PlanLearn) at ICML/COLT/UAI 2008, 2008.
.. [2] F. Pedregosa et al., "Scikit-learn: Machine learning in Python",
       Journal of Machine Learning Research 12, pp. 2825-2830, 2011
       (``sklearn.tree.export_text``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from ..safe_text import visible_controls
from .structure import Tree

__all__ = ["export_text"]


def _plain(text: str) -> str:
    """User names as one line of plain text: bidi controls and line breaks written as escapes.

    A name holding U+202E would reverse the rest of its line in a viewer, and a
    line break would start a line of its own that reads as a rule.
    """
    return visible_controls(text).replace("\r", "\\r").replace("\n", "\\n")


def _leaf_text(tree: Tree, node: int) -> str:
    if tree.class_counts is not None:  # tree.is_ordinal
        names = tree.class_names or [str(k + 1) for k in range(tree.class_counts.shape[1])]
        return f"level: {_plain(names[int(tree.predicted_level[node])])}"
    return f"ranking: {_plain(tree.ranking_text(node))}"


def _numbers(tree: Tree, node: int, decimals: int) -> str:
    similarity = float(tree.similarity[node])
    s = "n/a" if math.isnan(similarity) else f"{similarity:z.{decimals}f}"
    text = f"n = {int(tree.n_samples[node])}, S = {s}"
    if tree.theta is not None:
        theta = float(tree.theta[node])
        text += ", theta = " + ("inf" if math.isinf(theta) else f"{theta:.{decimals}f}")
    return text


def export_text(tree: Any, *, max_depth: int | None = None, collapsed: Iterable[int] = (),
                show_ids: bool = True, decimals: int = 3, spacing: int = 3) -> str:
    """The tree as indented rules, one line per branch and one per leaf.

    Each split gives two lines, its test (the "yes" branch) and the negated
    test ("no"), with the branch's subtree indented under it; each leaf a line
    with its prediction (the whole ranking, best first, or an ordinal tree's
    level) and its numbers, as scikit-learn's :func:`sklearn.tree.export_text`
    writes a classification tree.

    Parameters
    ----------
    tree : Tree or fitted estimator with ``tree_``
    max_depth : int, optional
        Write only nodes to this depth (the root is 0); a node split below
        says ``truncated branch: 12 nodes, 7 leaves``.
    collapsed : iterable of int, default=()
        Nodes (indices of ``tree``) written as truncated, as a viewer shows them folded.
    show_ids : bool, default=True
        Start every node's numbers with its ``#id`` (:attr:`Tree.node_ids`).
    decimals : int, default=3
        Decimals of the similarities (thresholds are written as the tree states them).
    spacing : int, default=3
        Width of one level of indentation, at least 2.

    Returns
    -------
    str
        Lines ending in a newline.

    Examples
    --------
    >>> import numpy as np
    >>> from rankviz import RankingTree
    >>> X = np.array([[0.0], [0.1], [1.0], [1.1]])
    >>> Y = np.array([[1, 2], [1, 2], [2, 1], [2, 1]])
    >>> print(export_text(RankingTree(min_samples_leaf=2).fit(X, Y)), end="")
    |--- x1 <= 0.55
    |   |--- ranking: label_1 > label_2  [#1 n = 2, S = 1.000]
    |--- x1 > 0.55
    |   |--- ranking: label_2 > label_1  [#2 n = 2, S = 1.000]
    """
    tree = getattr(tree, "tree_", tree)
    if spacing < 2:
        raise ValueError(f"spacing must be at least 2, got {spacing!r}")
    folded = {int(node) for node in collapsed}
    lines: list[str] = []
    ids = tree.node_ids
    below_nodes, below_leaves = tree.subtree_sizes()

    def numbers(node: int) -> str:
        text = _numbers(tree, node, decimals)
        return f"[#{ids[node]} {text}]" if show_ids else f"[{text}]"

    def write(node: int, depth: int) -> None:
        indent = ("|" + " " * spacing) * depth + "|" + "-" * spacing + " "
        if tree.is_leaf[node]:
            lines.append(f"{indent}{_leaf_text(tree, node)}  {numbers(node)}")
            return
        if node in folded or (max_depth is not None and depth >= max_depth):
            leaves = below_leaves[node]
            lines.append(f"{indent}truncated branch: {below_nodes[node]} nodes, "
                         f"{leaves} {'leaf' if leaves == 1 else 'leaves'}  {numbers(node)}")
            return
        for child, negate in ((tree.children_left[node], False), (tree.children_right[node], True)):
            lines.append(f"{indent}{_plain(tree.test_text(node, negate=negate))}")
            write(int(child), depth + 1)

    if tree.is_leaf[0]:
        lines.append(f"|{'-' * spacing} {_leaf_text(tree, 0)}  {numbers(0)}")
    else:
        write(0, 0)
    return "\n".join(lines) + "\n"

