"""What the pages draw, read from an AppTest run: the DOT of every tree view and graphviz chart.

The tree view (:mod:`rankviz.ui.tree_view`) sends the DOT it laid out with its
SVG, so a test checks exactly the drawing on screen.
"""

from __future__ import annotations

import json


def tree_views(at) -> list[dict]:
    """The data of every tree view on the page, in page order."""
    return [json.loads(c.proto.json) for c in at.get("bidi_component")
            if c.proto.component_name == "rankviz.tree_view"]


def drawings(at) -> list[str]:
    """The DOT of every drawing: the tree views first, then the graphviz charts."""
    return [view["dot"] for view in tree_views(at)] + [c.proto.spec for c in at.get("graphviz_chart")]
