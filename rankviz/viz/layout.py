"""A tree laid out once for an interactive viewer: the SVG and what each drawn node is.

:func:`layout_tree` lays a tree's DOT (:func:`rankviz.viz.dot.tree_to_dot`)
out with Graphviz and returns the SVG with, for every drawn node, its stable
id (:attr:`Tree.node_ids`, the ``#id`` written in its box), its parent and
children, whether its subtree is folded away, and its full details for a hover
card: the whole test, ``n``, the similarity or θ̂, the complete predicted
ranking. A viewer (the app's tree view) can then zoom, fold, select, trace and
replay growth by changing classes on that one drawing, without laying it out
again, so no node moves between steps.

Only plain text goes into the details; a viewer must show them as text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..tree.structure import Tree, parent_array
from .dot.common import DrawOptions, edge_id, node_id
from .dot.trees import drawer_for
from .graphviz import render

__all__ = ["TreeLayout", "layout_dot", "layout_tree", "node_details", "svg_size"]

_SIZE = re.compile(r'<svg[^>]*?\bwidth="([\d.]+)pt"[^>]*?\bheight="([\d.]+)pt"', re.S)


def svg_size(svg: str) -> tuple[float, float]:
    """Width and height in points of an SVG written by Graphviz.

    Raises
    ------
    ValueError
        If the SVG has no ``width="…pt"`` and ``height="…pt"``.
    """
    match = _SIZE.search(svg)
    if match is None:
        raise ValueError("the SVG states no width and height in points")
    return float(match.group(1)), float(match.group(2))


@dataclass(frozen=True)
class TreeLayout:
    """One laid-out drawing of a tree and the facts a viewer needs about its nodes.

    Attributes
    ----------
    svg : str
        The drawing, as Graphviz writes it; node ``i`` is the group with id
        ``node{i}``, the edge into it ``edge{i}``.
    width, height : float
        Its size in points.
    nodes : list of dict
        One per drawn node: ``svg`` (its SVG id), ``id`` (the stable id),
        ``parent`` (SVG id or None), ``leaf`` (a leaf of the tree),
        ``folded`` (drawn without its subtree), ``hidden`` (how many nodes
        that hides) and ``details`` (lines of plain text).
    dot : str
        The DOT that was laid out.
    """

    svg: str
    width: float
    height: float
    nodes: list[dict[str, Any]] = field(default_factory=list)
    dot: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``svg``, ``width``, ``height``, ``nodes`` and ``dot``."""
        return {"svg": self.svg, "width": self.width, "height": self.height, "nodes": self.nodes,
                "dot": self.dot}


def node_details(tree: Tree, node: int, drawer: Any = None) -> list[str]:
    """The full facts of one node, as lines of plain text for a hover card.

    Parameters
    ----------
    tree : Tree
    node : int
        Index of the node in ``tree``.
    drawer : TreeDrawer, optional
        The drawer of the tree's kind (its numbers and tooltip are reused);
        by default the one :func:`rankviz.viz.dot.tree_to_dot` would use.

    Returns
    -------
    list of str
        ``#5 · A2 <= 4.5``, the node's numbers, why it splits or stops, and
        its whole ranking (or level counts for an ordinal tree).
    """
    if drawer is None:
        drawer = drawer_for(tree, DrawOptions.checked(tree))
    stable = int(tree.node_ids[node])
    leaf = bool(tree.is_leaf[node])
    head = f"#{stable} · " + ("leaf" if leaf else tree.test_text(node))
    lines = [head, drawer.stats(node).replace(", ", " · ")]
    reason = drawer.tooltip(node)
    lines.append(reason.split(": ", 1)[1] if ": " in reason else reason)
    if tree.class_counts is not None:  # tree.is_ordinal
        names = tree.class_names or [str(k + 1) for k in range(tree.class_counts.shape[1])]
        counts = ", ".join(f"{name}: {count:g}" for name, count in zip(names, tree.class_counts[node]))
        lines.append(f"rows per level: {counts}")
    else:
        kind = "ranking" if leaf else "ranking of its rows"
        lines.append(f"{kind}: {tree.ranking_text(node)}")
    return lines


def layout_tree(tree: Any, *, collapsed: Iterable[int] = (), max_depth: int | None = None,
                engine: str = "auto", **draw_options: Any) -> TreeLayout:
    """Lay a tree out once, for a viewer that zooms, folds, selects and replays it.

    Parameters
    ----------
    tree : Tree or fitted estimator with ``tree_``
    collapsed : iterable of int, default=()
        **Stable ids** (:attr:`Tree.node_ids`) of nodes drawn without their
        subtree; ids not in the tree are ignored, so a set kept while γ
        moves stays valid.
    max_depth : int, optional
        Draw only nodes up to this depth (see :func:`rankviz.viz.dot.tree_to_dot`).
    engine : {"auto", "dot", "pure"}, default="auto"
        Graphviz engine (:func:`rankviz.viz.graphviz.render`).
    **draw_options
        Any other option of :func:`rankviz.viz.dot.tree_to_dot`
        (``highlight``, ``max_labels``, ``similarity_range``, ``show_ids``,
        ``direction``, ``legend``, ``color_by``, ``font_size``, …).

    Returns
    -------
    TreeLayout

    Raises
    ------
    rankviz.viz.graphviz.RenderError
        If no engine can lay the drawing out.
    """
    tree = getattr(tree, "tree_", tree)
    index_of = {int(stable): k for k, stable in enumerate(tree.node_ids)}
    folded = sorted(index_of[int(s)] for s in collapsed if int(s) in index_of)
    color_by = draw_options.pop("color_by", None)
    reliability_range = draw_options.pop("reliability_range", None)
    similarity_range = draw_options.pop("similarity_range", (-1.0, 1.0))
    options = DrawOptions.checked(tree, similarity_range=similarity_range, max_depth=max_depth,
                                  collapsed=folded, **draw_options)
    drawer = drawer_for(tree, options, color_by=color_by, reliability_range=reliability_range)
    dot = drawer.to_dot()
    svg = render(dot, "svg", engine=engine).decode("utf-8")
    width, height = svg_size(svg)
    parent = parent_array(tree.children_left, tree.children_right)
    nodes = []
    for node in np.flatnonzero(drawer.drawn).tolist():
        nodes.append({
            "svg": node_id(node),
            "edge": edge_id(node) if node else None,
            "id": int(tree.node_ids[node]),
            "parent": node_id(parent[node]) if parent[node] >= 0 else None,
            "leaf": bool(tree.is_leaf[node]),
            "folded": bool(drawer.cut[node]),
            "hidden": int(drawer.hidden_nodes[node]) if drawer.cut[node] else 0,
            "details": node_details(tree, node, drawer),
        })
    return TreeLayout(svg=svg, width=width, height=height, nodes=nodes, dot=dot)


def layout_dot(dot: str, *, engine: str = "auto") -> TreeLayout:
    """Lay out any DOT drawing for the viewer, to zoom and pan (no nodes to fold or select).

    For drawings that are not a tree of the library, e.g. MPBoost's stumps
    (:func:`rankviz.viz.dot.stumps_to_dot`).

    Parameters
    ----------
    dot : str
    engine : {"auto", "dot", "pure"}, default="auto"

    Returns
    -------
    TreeLayout
        With no ``nodes``.

    Raises
    ------
    rankviz.viz.graphviz.RenderError
        If no engine can lay the drawing out.
    """
    svg = render(dot, "svg", engine=engine).decode("utf-8")
    width, height = svg_size(svg)
    return TreeLayout(svg=svg, width=width, height=height, dot=dot)
