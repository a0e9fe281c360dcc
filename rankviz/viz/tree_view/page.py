"""One self-contained HTML file that explores a tree: no server, no network."""

from __future__ import annotations

import html
import json
from typing import Any

from .assets import view_css, view_html, view_script

__all__ = ["tree_page"]

# JSON inside <script>: "<", ">" and "&" as escapes, so no text in the data
# (a label name, a feature value) can close the element or open a comment.
_SCRIPT_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})


def tree_page(data: dict[str, Any], title: str = "Tree") -> str:
    """Make an HTML document with the tree view, its script, style and data inlined.

    It opens from ``file://`` or as an e-mail attachment and needs no network:
    zoom, pan, the overview map, hover cards, the keyboard and the selection
    work as in the app; folding hides subtrees on the drawing itself.

    Parameters
    ----------
    data : dict
        The view's data (:func:`rankviz.viz.tree_view.view_data`).
    title : str, default="Tree"
        The page's title (plain text; escaped).

    Returns
    -------
    str
        The document; the data is JSON in ``<script id="rv-data">``, with
        ``<``, ``>`` and ``&`` escaped so no text of the data can end the
        element.

    Raises
    ------
    ValueError
        If the view's script would close its own ``<script>`` element.

    See Also
    --------
    view_data : The data the page shows.
    rankviz.viz.export_tree : ``export_tree(tree, "html")`` makes the page in one call.

    Examples
    --------
    >>> from rankviz import RankingTree, load_sample
    >>> from rankviz.viz.layout import layout_tree
    >>> from rankviz.viz.tree_view import tree_page, view_data
    >>> data = load_sample("toy")
    >>> model = RankingTree().fit(data.X, data.rankings)
    >>> page = tree_page(view_data(layout_tree(model)), title="Toy <tree>")
    >>> page.startswith("<!DOCTYPE html>"), "<title>Toy &lt;tree&gt;</title>" in page
    (True, True)
    """
    payload = json.dumps({**data, "local_folds": True}, separators=(",", ":")).translate(_SCRIPT_SAFE)
    script = view_script("page")
    if "</script" in script.lower():  # never true of the package's own files; a guard for edits
        raise ValueError("the view's script contains '</script'")
    heading = html.escape(title)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="rankviz">
<title>{heading}</title>
<style>
body {{ margin: 16px; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f1f1f; }}
h1 {{ font-size: 18px; font-weight: 600; margin: 0 0 8px; }}
{view_css()}
</style>
</head>
<body>
<h1>{heading}</h1>
{view_html()}
<script type="application/json" id="rv-data">{payload}</script>
<script type="module">
{script}
</script>
</body>
</html>
"""
