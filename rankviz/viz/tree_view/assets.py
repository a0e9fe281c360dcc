"""The view's JavaScript, CSS and markup, read from the package's files, once.

The JavaScript is one module, ``tree_view.js``, followed by the few lines of
its host (``host_streamlit.js``, ``host_widget.js`` or ``host_page.js``):
each host's text is the same view with its own way in and out.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Literal

__all__ = ["HOSTS", "view_css", "view_html", "view_script"]

#: Where the view runs: the app, a notebook widget, a standalone HTML page.
HOSTS = ("streamlit", "widget", "page")

_FILES = files(__package__).joinpath("static")


@cache
def _read(name: str) -> str:
    return _FILES.joinpath(name).read_text(encoding="utf-8")


def view_css() -> str:
    """Return the view's style sheet.

    The CSS of the toolbar, the viewport, the overview map, the hover cards
    and the caption, read once from the package's ``static/tree_view.css``.
    Every host inlines or loads the same text.

    Returns
    -------
    str
        The style sheet; its rules are scoped to the view's ``rv-`` classes.

    See Also
    --------
    view_html : The markup the styles apply to.
    view_script : The script of the view.

    Examples
    --------
    >>> from rankviz.viz.tree_view import view_css
    >>> ".rv-root" in view_css()
    True
    """
    return _read("tree_view.css")


def view_html() -> str:
    """Return the view's markup: toolbar, viewport, overview map, cards and caption.

    The HTML fragment the script fills in, read once from the package's
    ``static/tree_view.html``; it holds no data.

    Returns
    -------
    str
        An HTML fragment, one ``<div class="rv-root">`` element.

    See Also
    --------
    view_css : Its style sheet.
    tree_page : A whole page made of the markup, the script and the data.

    Examples
    --------
    >>> from rankviz.viz.tree_view import view_html
    >>> view_html().startswith('<div class="rv-root">')
    True
    """
    return _read("tree_view.html")


def view_script(host: Literal["streamlit", "widget", "page"]) -> str:
    """Return the view's JavaScript for one host.

    The text is the one view module, ``tree_view.js``, followed by the few
    lines of the host: how it gets its data and sends the user's actions
    back.

    Parameters
    ----------
    host : {"streamlit", "widget", "page"}
        ``"streamlit"``: an ES module whose default export is a Streamlit
        components-v2 function; ``"widget"``: an anywidget ES module (the
        markup included); ``"page"``: a script for a page that holds the
        markup and the data (``<script id="rv-data">``).

    Returns
    -------
    str
        JavaScript source, an ES module for ``"streamlit"`` and
        ``"widget"``.

    Raises
    ------
    ValueError
        If ``host`` is not one of :data:`HOSTS`.

    See Also
    --------
    view_html, view_css : The markup and style the script works on.

    Examples
    --------
    >>> from rankviz.viz.tree_view import view_script
    >>> script = view_script("page")
    >>> script.startswith("// rankviz tree view"), "</script" in script
    (True, False)
    """
    if host not in HOSTS:
        raise ValueError(f"host must be one of {', '.join(HOSTS)}, got {host!r}")
    markup = f"const RV_HTML = {json.dumps(view_html())};\n" if host == "widget" else ""
    return _read("tree_view.js") + "\n" + markup + _read(f"host_{host}.js")
