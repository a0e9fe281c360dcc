"""DOT text of a fitted tree of any kind: :func:`tree_to_dot` picks the drawer."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...tree.structure import Tree
from .common import DrawOptions, TreeDrawer
from .mallows_tree import MallowsTreeDrawer
from .ordinal_tree import OrdinalTreeDrawer
from .ranking_tree import RankingTreeDrawer

__all__ = ["drawer_for", "tree_to_dot"]


def tree_to_dot(tree: Any, highlight: int | str | None = None, title: str | None = None,
                max_labels: int | None = None, *, similarity_range: tuple[float, float] = (-1.0, 1.0),
                show_ids: bool = False, direction: str = "TB", legend: bool = True,
                color_by: str | None = None, reliability_range: tuple[float, float] | None = None,
                max_depth: int | None = None, collapsed: Iterable[int] = (), font_size: float = 12.0,
                path: Iterable[int] = (), rank_strips: bool = False) -> str:
    """Write the Graphviz DOT text of a fitted ranking tree.

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

    A label ranking tree of Cheng, Hühn & Hüllermeier (2009)
    (``criterion="mallows"``, which sets ``tree.theta``) shows in every node
    the Mallows spread ``θ̂`` of its rankings and in each leaf also its
    reliability (``θ̂`` times the leaf's share of the training rows); by
    default its leaves are coloured by reliability on an orange scale and its
    internal nodes are grey.

    Node ``i`` is named and has the SVG id ``node{i}`` (see `node_id`), the
    edge into it the SVG id ``edge{i}``, and a tooltip with its id (``#5``,
    from :attr:`Tree.node_ids`, as written in the box) and split: for a leaf, the best split found and why
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
        dashed border and a line ``+ 12 nodes, 7 leaves``, and the
        legend explains the dashes; a ``highlight`` below the cut marks its
        drawn ancestor. None (default), or a depth at least the tree's own,
        draws every node. See `fitting_depth` for a depth that keeps a
        drawing legible.
    collapsed : iterable of int, default=()
        Nodes (indices of ``tree``) drawn collapsed: like a node cut at
        ``max_depth``, with a dashed border and what its subtree holds.
    font_size : float, default=12
        Points of the boxes' main text; every other text scales with it
        (:class:`~rankviz.viz.dot.common.FontSizes`).
    path : iterable of int, default=()
        Nodes (indices of ``tree``) of one example's path, e.g. a row of
        ``tree.decision_paths``: the edges into them are drawn thick and
        orange, and the leaf (or cut node) where the path ends is outlined.
    rank_strips : bool, default=False
        Add to each leaf of a ranking tree a strip of small cells, one per
        label in label order, shaded green by the label's mean rank (darkest
        first), so leaves compare at a glance (:func:`~rankviz.viz.dot.ranking_tree.rank_strip`).
        Ordinal trees always show their level cells and ignore it.

    Returns
    -------
    str
        The DOT source. All user text (names, values, title) is HTML-escaped.

    Raises
    ------
    ValueError
        If ``highlight`` is not a node of the tree, or ``max_labels``,
        ``similarity_range``, ``direction``, ``max_depth`` or ``color_by`` is
        invalid.

    See Also
    --------
    rankviz.viz.render : Lay the text out as SVG, PNG or PDF.
    rankviz.viz.export_tree : The tree as a figure for a paper, in one call.

    Examples
    --------
    >>> from rankviz import RankingTree, load_sample
    >>> data = load_sample("toy")
    >>> model = RankingTree().fit(data.X, data.rankings)
    >>> from rankviz.viz import tree_to_dot
    >>> dot = tree_to_dot(model, title="Toy data", show_ids=True)
    >>> dot.splitlines()[0]
    'digraph RankingTree {'
    >>> "node0" in dot and "a3 &gt; a4 &gt; a2 &gt; a1" in dot  # the root and a leaf's ranking
    True
    """
    tree = getattr(tree, "tree_", tree)  # a fitted RankingTree works too
    options = DrawOptions.checked(tree, highlight, title, max_labels, similarity_range=similarity_range,
                                  show_ids=show_ids, direction=direction, legend=legend, max_depth=max_depth,
                                  collapsed=collapsed, font_size=font_size, path=path,
                                  rank_strips=rank_strips)
    return drawer_for(tree, options, color_by=color_by, reliability_range=reliability_range).to_dot()


def drawer_for(tree: Tree, options: DrawOptions, *, color_by: str | None = None,
               reliability_range: tuple[float, float] | None = None) -> TreeDrawer:
    """The drawer of the tree's kind: ordinal, Mallows label ranking, or mean-rank ranking tree.

    Parameters
    ----------
    tree : Tree
    options : DrawOptions
    color_by : {"similarity", "reliability"}, optional
        Default: reliability when the tree has ``theta``.
    reliability_range : (float, float), optional
        See :func:`tree_to_dot`.

    Returns
    -------
    TreeDrawer

    Raises
    ------
    ValueError
        If ``color_by`` is unknown, or ``"reliability"`` for a tree without ``theta``.
    """
    color_by = color_by or ("reliability" if tree.theta is not None else "similarity")
    if color_by not in ("similarity", "reliability"):
        raise ValueError(f"color_by must be 'similarity' or 'reliability', got {color_by!r}")
    if color_by == "reliability" and tree.theta is None:
        raise ValueError("color_by='reliability' needs a tree with Mallows spreads "
                         "(RankingTree(criterion='mallows'))")
    if tree.is_ordinal:
        return OrdinalTreeDrawer(tree, options)
    if tree.theta is not None:
        return MallowsTreeDrawer(tree, options, by_reliability=color_by == "reliability",
                                 reliability_range=reliability_range)
    return RankingTreeDrawer(tree, options)
