"""What Python sends the view: the drawing, its marks, and a traced example's card."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ...tree.structure import Tree, ranking_text
from ...tree.trace import trace_example
from ..layout import TreeLayout, node_details

__all__ = ["trace_card", "view_data"]


def view_data(layout: TreeLayout, *, layout_key: str = "", label: str = "", selected: int | None = None,
              current: int | None = None, revealed: Iterable[int] | None = None,
              path: Iterable[int] | None = None, trace: dict[str, Any] | None = None,
              group: str | None = None, direction: str = "TB", selectable: bool = True,
              local_folds: bool = False, max_height: int = 4000, min_height: int = 160) -> dict[str, Any]:
    """Build the JSON-ready data of one drawing of the view.

    The data is what every host sends its script: the laid-out SVG and its
    nodes (:meth:`TreeLayout.to_dict`), and the state of the view (the node
    inspected, the path traced, the nodes revealed by the growth player).

    Parameters
    ----------
    layout : TreeLayout
        The drawing and its nodes.
    layout_key : str, default=""
        Identifies the tree (data set and settings, not folds or depth): when
        it changes the view opens the new tree anew; otherwise a new drawing
        of the same tree (a fold) keeps the zoom.
    label : str, default=""
        A caption under the view (plain text) and its accessible name.
    selected : int, optional
        Stable id (``#id``) of the node outlined as inspected.
    current : int, optional
        Stable id of the node just split (the growth player).
    revealed : iterable of int, optional
        Stable ids of the nodes grown so far; the others are faded. None: all.
    path : iterable of int, optional
        Stable ids of a traced example's path, lit up with its edges.
    trace : dict, optional
        ``{"node": id, "lines": [...]}``: a card of plain-text lines beside
        that node (see :func:`trace_card`).
    group : str, optional
        Views of one group are fitted at one scale and zoom together.
    direction : {"TB", "LR"}, default="TB"
        The drawing's direction (where the fold buttons sit).
    selectable : bool, default=True
        Whether a click selects a node.
    local_folds : bool, default=False
        Fold on the drawing itself, with no new layout (no Python behind the view).
    max_height, min_height : int, default=4000 and 160
        Bounds of the view's height in px. Within them the view is as tall as
        the tree at its opening zoom, up to the bottom of the screen and at
        least 60 % of the window's height when the tree needs it.

    Returns
    -------
    dict
        The layout's keys (``svg``, ``dot``, ``nodes``, ``width``,
        ``height``) and one key per parameter above; plain lists, ints and
        strings, ready for ``json.dumps``.

    See Also
    --------
    rankviz.viz.layout.layout_tree : The layout the data is made from.
    tree_page : The data as one HTML file.

    Examples
    --------
    >>> from rankviz import RankingTree, load_sample
    >>> data = load_sample("toy")
    >>> model = RankingTree().fit(data.X, data.rankings)
    >>> from rankviz.viz.layout import layout_tree
    >>> from rankviz.viz.tree_view import view_data
    >>> data = view_data(layout_tree(model), label="Toy data", path=[0, 2])
    >>> data["label"], data["path"], "<svg" in data["svg"]
    ('Toy data', [0, 2], True)
    """
    return {
        **layout.to_dict(),
        "layout_key": layout_key, "label": label, "group": group, "direction": direction,
        "selected": selected, "current": current,
        "revealed": None if revealed is None else [int(i) for i in revealed],
        "path": [] if path is None else [int(i) for i in path],
        "trace": trace, "selectable": bool(selectable), "local_folds": bool(local_folds),
        "max_height": int(max_height), "min_height": int(min_height),
    }


def trace_card(tree: Tree, x_encoded: Any, y_true: Any = None, who: str = "The example") -> dict[str, Any]:
    """Follow one example through a tree: the path to light up and the card beside its leaf.

    The example is passed down the tree; the card names its leaf, the
    leaf's prediction and, given the true ranking, the scores of that
    prediction.

    Parameters
    ----------
    tree : Tree
        A fitted tree (``estimator.tree_``).
    x_encoded : array-like of shape (n_features,)
        The example as the tree sees it (see :class:`rankviz.features.FeatureEncoder`).
    y_true : array-like of shape (n_labels,), optional
        Its true ranking: the card then compares it with the leaf's, by CS,
        WRC, LRA and Kendall tau (Rebelo, Soares & Costa 2008, §4).
    who : str, default="The example"
        How the card's first line names the example.

    Returns
    -------
    dict
        ``path`` (stable ids from the root), ``node`` (the leaf's stable id),
        ``lines`` (plain text) and ``scores`` (measure -> value).

    See Also
    --------
    view_data : Its ``path`` and ``trace`` parameters take the card.
    rankviz.tree.trace.trace_example : The trace itself.

    Examples
    --------
    >>> from rankviz import RankingTree, load_sample
    >>> data = load_sample("toy")
    >>> model = RankingTree().fit(data.X, data.rankings)
    >>> from rankviz.viz.tree_view import trace_card
    >>> card = trace_card(model.tree_, model.encoder_.transform(data.X[:1])[0], data.Y[0])
    >>> card["path"], card["node"]
    ([0, 2, 3, 5], 5)
    >>> card["lines"][1:3]
    ['predicted: a1 > a2 > a3 > a4', 'true: a1 > a3 > a2 > a4']
    """
    traced = trace_example(tree, x_encoded, y_true)
    path = [int(tree.node_ids[node]) for node in traced.path]
    lines = [f"{who} → leaf #{path[-1]}"]
    if tree.is_ordinal:  # the leaf's level counts, as its hover card gives them
        lines += node_details(tree, traced.leaf)[1:]
    else:
        lines.append(f"predicted: {tree.ranking_text(traced.leaf)}")
    if y_true is not None and not tree.is_ordinal:
        lines.append(f"true: {ranking_text(np.asarray(y_true), tree.label_names)}")
        lines.append(" · ".join(f"{name} {value:.3f}" for name, value in traced.scores.items()))
    return {"path": path, "node": path[-1], "lines": lines, "scores": dict(traced.scores)}
