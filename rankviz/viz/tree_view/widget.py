"""The tree view in a notebook: an anywidget (JupyterLab, Jupyter Notebook, VS Code, Colab, marimo)."""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    import anywidget
    import traitlets
except ImportError as error:  # an optional dependency: say how to get it
    raise ImportError("rankviz.viz.TreeView needs anywidget: pip install 'rankviz[notebook]'") from error

from ...tree.structure import Tree
from ..layout import layout_tree
from .assets import view_css, view_script
from .data import trace_card, view_data

__all__ = ["TreeView"]


class TreeView(anywidget.AnyWidget):  # type: ignore[misc]
    """A fitted tree to explore in a notebook, as in the app.

    Wheel or pinch to zoom, drag to pan, the overview map, Fit and 100 %,
    hover cards with each node's full details, the ``−`` / ``+`` button of a
    split to fold its subtree (laid out again by Python), the keyboard
    (Tab, arrows, Enter, Space), full screen. A click selects a node:
    :attr:`selected` holds its stable id (the ``#id`` in its box) in Python,
    and setting it from Python outlines that node. :meth:`trace` lights up
    one example's path with a card beside its leaf.

    The drawing is laid out by Graphviz's ``dot`` if it is installed, else by
    the bundled ``graphviz-pure`` (:func:`rankviz.viz.graphviz.render`).

    Parameters
    ----------
    tree : RankingTree, OrdinalTree or Tree
        A fitted estimator (with ``tree_``) or a tree.
    X : DataFrame or array-like of shape (n_samples, n_features), optional
        Examples to trace (:meth:`trace`): raw features for an estimator,
        encoded ones for a bare :class:`~rankviz.tree.structure.Tree`.
    Y : array-like of shape (n_samples, n_labels), optional
        Their true rankings: the trace card then scores the leaf's ranking
        against the true one.
    direction : {"TB", "LR"}, default="TB"
        Top to bottom, or left to right.
    rank_strips : bool, default=False
        Draw each leaf's mean ranks as a strip.
    max_depth : int, optional
        Draw nodes to this depth only.
    collapsed : iterable of int, default=()
        Stable ids of nodes to open folded.
    height : int, default=600
        Largest height of the view in px (smaller trees take less).
    label : str, optional
        A caption under the view; by default the tree's size.
    engine : {"auto", "dot", "pure"}, default="auto"
        Graphviz engine (:func:`rankviz.viz.graphviz.render`).
    **draw_options
        Any other option of :func:`rankviz.viz.dot.tree_to_dot` (``max_labels``,
        ``font_size``, ``show_ids``, ``color_by``, …).

    Attributes
    ----------
    selected : int or None
        Stable id of the selected node, synced with the view both ways.
    collapsed : frozenset of int
        Stable ids of the folded nodes.

    See Also
    --------
    rankviz.viz.export_tree : The same view as one HTML file (``fmt="html"``).

    Examples
    --------
    >>> from rankviz import RankingTree, load_sample
    >>> from rankviz.viz import TreeView
    >>> data = load_sample("toy")
    >>> model = RankingTree(min_samples_leaf=2).fit(data.X, data.rankings)
    >>> view = TreeView(model, data.X, data.Y)   # displays itself as a cell's last line
    >>> view.selected = 0                        # outline the root
    >>> card = view.trace(3)                     # follow the fourth row
    >>> card["path"][0]
    0
    """

    _esm = view_script("widget")
    _css = view_css()
    data = traitlets.Dict().tag(sync=True)
    selected = traitlets.Int(None, allow_none=True).tag(sync=True)

    def __init__(self, tree: Any, X: Any = None, Y: Any = None, *, direction: str = "TB",
                 rank_strips: bool = False, max_depth: int | None = None, collapsed: Any = (),
                 height: int = 600, label: str | None = None, engine: str = "auto",
                 **draw_options: Any) -> None:
        structure = getattr(tree, "tree_", tree)
        if not isinstance(structure, Tree):
            raise TypeError(f"TreeView needs a fitted tree estimator or a Tree, got {type(tree).__name__}")
        self._model = tree if structure is not tree else None
        self._tree = structure
        self._X, self._Y = X, (None if Y is None else np.asarray(Y))
        if isinstance(height, bool) or not isinstance(height, (int, np.integer)) or not 160 <= height <= 4000:
            raise ValueError(f"height must be an integer number of px from 160 to 4000, got {height!r}")
        self._height = int(height)
        self._label = label if label is not None else (
            f"{structure.node_count} nodes, {structure.n_leaves} leaves, depth {structure.max_depth}")
        self._draw_options = {"direction": direction, "rank_strips": rank_strips, "max_depth": max_depth,
                              "engine": engine, "show_ids": True, **draw_options}
        self._ids = frozenset(int(i) for i in structure.node_ids)
        self._collapsed = frozenset(int(i) for i in collapsed) & self._ids
        self._trace: dict[str, Any] | None = None
        self._layout: Any = None
        super().__init__()
        self.on_msg(self._on_message)
        self._draw()

    @property
    def collapsed(self) -> frozenset[int]:
        """Stable ids of the nodes drawn folded."""
        return self._collapsed

    @traitlets.validate("selected")
    def _check_selected(self, proposal: dict[str, Any]) -> int | None:
        value = proposal["value"]
        if value is not None and int(value) not in self._ids:
            raise traitlets.TraitError(f"the tree has no node #{value}")
        return value

    def fold(self, node: int, folded: bool = True) -> None:
        """Fold (or open) the subtree of the node with stable id ``node``.

        Parameters
        ----------
        node : int
            Stable id, as written in its box (``#id``).
        folded : bool, default=True
            True folds the subtree, False opens it; the tree is then laid
            out again.

        Raises
        ------
        ValueError
            If the tree has no node ``node``.
        """
        if int(node) not in self._ids:
            raise ValueError(f"the tree has no node #{node}")
        self._collapsed = self._collapsed | {int(node)} if folded else self._collapsed - {int(node)}
        self._draw()

    def trace(self, row: int | None) -> dict[str, Any] | None:
        """Light up the path of row ``row`` of ``X`` (0-based); None clears it.

        Parameters
        ----------
        row : int or None
            Position of the row in the ``X`` given to the view (not its
            index label), or None to clear the trace.

        Returns
        -------
        dict or None
            ``path`` (stable ids from the root), ``node`` (the leaf),
            ``lines`` (the card's text) and ``scores`` (CS, WRC, LRA and
            Kendall tau of the leaf's ranking, when ``Y`` was given).

        Raises
        ------
        ValueError
            If the view has no ``X``, or ``row`` is not one of its rows.
        """
        if row is None:
            self._trace = None
            self._draw(relayout=False)
            return None
        if self._X is None:
            raise ValueError("this view has no X to trace: TreeView(tree, X, Y)")
        n_rows = len(self._X)
        if isinstance(row, bool) or not isinstance(row, (int, np.integer)) or not 0 <= row < n_rows:
            raise ValueError(f"row must be an integer from 0 to {n_rows - 1}, got {row!r}")
        if self._model is not None:
            rows = self._X.iloc[[row]] if hasattr(self._X, "iloc") else np.asarray(self._X)[[row]]
            x = self._model.encoder_.transform(rows)[0]
        else:
            x = np.asarray(self._X, dtype=float)[row]
        truth = None if self._Y is None else self._Y[row]
        self._trace = trace_card(self._tree, x, truth, who=f"Row {row}")
        self._draw(relayout=False)
        return self._trace

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        # The widget where widgets run; its current drawing elsewhere (GitHub, nbconvert).
        shown = super()._repr_mimebundle_(**kwargs)
        # A (data, metadata) pair; a bare dict from older ipywidgets; None (no view) in anywidget's annotation.
        data, metadata = shown if isinstance(shown, tuple) else (shown or {}, {})
        return {**data, "image/svg+xml": self._layout.svg}, metadata

    def _on_message(self, _widget: Any, content: dict[str, Any], _buffers: Any) -> None:
        # The view's fold button: lay the tree out again with that subtree folded or opened.
        if isinstance(content, dict) and content.get("event") == "toggle":
            node = content.get("id")
            if isinstance(node, int) and node in self._ids:
                self.fold(node, folded=node not in self._collapsed)

    def _draw(self, relayout: bool = True) -> None:
        # A fold needs a new layout; a trace only marks the drawing (the view lights the path).
        if relayout or self._layout is None:
            self._layout = layout_tree(self._tree, collapsed=self._collapsed, **self._draw_options)
        trace = self._trace
        self.data = view_data(
            self._layout, layout_key=f"widget-{id(self)}", label=self._label,
            direction=self._draw_options["direction"], path=None if trace is None else trace["path"],
            trace=None if trace is None else {"node": trace["node"], "lines": trace["lines"]},
            max_height=self._height)
