"""The tree view in the app: the library's explorable view as a Streamlit component.

The view itself (its JavaScript, CSS and markup, and the data it draws) is
:mod:`rankviz.viz.tree_view`, shared with the notebook widget and the HTML
export. It shows a tree laid out once by Graphviz
(:func:`rankviz.viz.layout.layout_tree`) and lets the reader explore it. A
tree opens at a zoom where node text is at least 11 px on screen, the root at
the top centre (or the node just split, in the middle), or whole when it fits
at that size. Then: wheel or pinch zoom around the pointer, drag to pan,
buttons and keys for zoom in / out (``+`` / ``-``), fit (``F``) and 100 %
(``0``: one point of the drawing is 4/3 px, so node text is at least 12 px),
both centred on the inspected node; an overview map of the whole tree in the
bottom-right corner (click or drag in it to move; ``M`` or its button hides
it); full screen; text hidden below 6 px (nodes drawn as blocks of their
colour); a hover card with a node's full details; a click to inspect a node,
outlined at once; a round ``−`` / ``+`` button on each split to fold its
subtree, hidden at once; a traced path and, for the growth player, nodes not
grown yet faded on the final layout.

Keyboard: the nodes are a tree (``role="tree"`` / ``"treeitem"``, roving
tabindex). Tab enters on the inspected node or the root; arrows move to the
parent, first child and siblings; Enter inspects, Space folds, Escape goes
back to the viewport, where the arrows pan.

What the reader does comes back as trigger values (``select``, ``toggle``)
to the callbacks; the view shows it before Python answers, and agrees with
Python's ``selected`` when the page reruns. Nothing is loaded from the
network. Streamlit's components v2 API.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import streamlit as st

from ...viz.layout import TreeLayout
from ...viz.tree_view import view_css, view_data, view_html, view_script

__all__ = ["tree_view"]

_COMPONENT = st.components.v2.component(
    "rankviz.tree_view", html=view_html(), css=view_css(), js=view_script("streamlit"))


def tree_view(layout: TreeLayout, *, key: str, layout_key: str = "", label: str = "",
              selected: int | None = None, current: int | None = None,
              revealed: Iterable[int] | None = None, path: Iterable[int] | None = None,
              trace: dict[str, Any] | None = None, group: str | None = None, direction: str = "TB",
              on_select: Callable[[int], None] | None = None,
              on_toggle: Callable[[int], None] | None = None,
              max_height: int = 4000, min_height: int = 160) -> None:
    """Show a laid-out tree to explore; report clicks and folds to the callbacks.

    Parameters
    ----------
    layout : TreeLayout
        The drawing and its nodes.
    key : str
        Widget key; the view keeps its zoom and pan under it across reruns.
    layout_key, label, selected, current, revealed, path, trace, group, direction
        What the view shows, as for :func:`rankviz.viz.tree_view.view_data`.
    on_select, on_toggle : callable, optional
        Called with the stable id of a clicked node, or of a node whose fold
        button was pressed, before the page reruns. ``on_select`` None makes
        nodes not selectable.
    max_height, min_height : int
        Bounds of the view's height in px (:func:`rankviz.viz.tree_view.view_data`);
        the default ``max_height`` leaves it to the browser.
    """
    data = view_data(layout, layout_key=layout_key, label=label, selected=selected, current=current,
                     revealed=revealed, path=path, trace=trace, group=group, direction=direction,
                     selectable=on_select is not None, max_height=max_height, min_height=min_height)
    # The view's zoom and pan are kept in the browser under this key. Not the component's own: Streamlit
    # gives a view drawn in a fragment (the growth player's timer) another one, which opened it afresh.
    data["view_key"] = key

    def report(name: str, callback: Callable[[int], None] | None) -> Callable[[], None] | None:
        if callback is None:
            return None

        def forward() -> None:
            value = (st.session_state.get(key) or {}).get(name)
            if value is not None:
                callback(int(value))
        return forward

    _COMPONENT(key=key, data=data, height="content",
               on_select_change=report("select", on_select) or _ignore,
               on_toggle_change=report("toggle", on_toggle) or _ignore)


def _ignore() -> None:
    """A callback that does nothing: Streamlit needs one per trigger it reports."""
