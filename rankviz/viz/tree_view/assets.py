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
    """The view's style sheet."""
    return _read("tree_view.css")


def view_html() -> str:
    """The view's markup: toolbar, viewport, overview map, cards and caption."""
    return _read("tree_view.html")


def view_script(host: Literal["streamlit", "widget", "page"]) -> str:
    """The view's JavaScript for one host.

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

    Raises
    ------
    ValueError
        If ``host`` is not one of :data:`HOSTS`.
    """
    if host not in HOSTS:
        raise ValueError(f"host must be one of {', '.join(HOSTS)}, got {host!r}")
    markup = f"const RV_HTML = {json.dumps(view_html())};\n" if host == "widget" else ""
    return _read("tree_view.js") + "\n" + markup + _read(f"host_{host}.js")
