"""Bidirectional-text controls in user text, made visible.

A name holding U+202E RIGHT-TO-LEFT OVERRIDE (or another bidi control)
shows the characters after it reversed: ``"x\u202egpj.exe"`` reads as
``xexe.jpg``. Wherever the library or the app shows a name it passes it
through :func:`visible_controls`, which writes each control as its escape,
``\\u202e``, so what is shown is what the name holds.
:func:`markdown_escape` writes user text literally into a Markdown file
(the reports of :mod:`rankviz.experiments.report`).
"""

from __future__ import annotations

import html
import re

__all__ = ["BIDI_CONTROLS", "visible_controls", "markdown_escape"]

#: The Unicode bidi formatting characters: ALM, LRM, RLM, the embeddings and
#: overrides (LRE, RLE, PDF, LRO, RLO) and the isolates (LRI, RLI, FSI, PDI).
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"

_CONTROL = re.compile(f"[{BIDI_CONTROLS}]")


def visible_controls(text: object) -> str:
    """``text`` with every bidi control written as its ``\\uXXXX`` escape.

    Parameters
    ----------
    text : object
        Any value; it is converted with ``str`` first.

    Returns
    -------
    str
        The text, unchanged when it holds no bidi control.

    Examples
    --------
    >>> visible_controls("a\\u202ecba")
    'a\\\\u202ecba'
    >>> print(visible_controls("a\\u202ecba"))
    a\\u202ecba
    """
    return _CONTROL.sub(lambda match: f"\\u{ord(match.group()):04x}", str(text))


# Every ASCII punctuation character may be backslash-escaped in CommonMark and then
# stands for itself; these are the ones that mean something in the middle of a line:
# emphasis, code, links, table cells, strikethrough, entities, raw HTML, and Streamlit's
# extensions (colon directives and LaTeX; ``:material/home:`` is an icon even with its
# colons escaped, not with its slash). Characters that only mean something at the start
# of a line (-, +, 1.) stay: user text is always placed after some words.
_MARKDOWN = re.compile(r"([\\`*_{}\[\]()<>#!|~&$:/])")


# GitHub-flavoured Markdown links bare addresses (http://..., www...., a@b.c) after the
# escapes are resolved (remark-gfm finds them in the text), so escaping cannot stop it: a
# WORD JOINER (U+2060, invisible, no width) right after the scheme or "www" and after "@"
# breaks the patterns while the text reads the same.
_AUTOLINK = re.compile(r"(?i)\b(https?|ftp|www|mailto|xmpp)(?=\\?[:.])|(?<=@)")
_JOINER = "\u2060"


def markdown_escape(text: object) -> str:
    """``text`` as literal Markdown (a report, a page): specials backslash-escaped, one line.

    Line breaks become spaces and bidi controls their escapes
    (:func:`visible_controls`); a bare address (``http://``, ``www.``, an
    e-mail) is not made a link. Safe in running text and in table cells;
    not inside code spans, where backslash escapes do not work.

    >>> print(markdown_escape("a|b <img> `x`"))
    a\\|b \\<img\\> \\`x\\`
    """
    escaped = _MARKDOWN.sub(r"\\\1", visible_controls(" ".join(str(text).splitlines())))
    return _AUTOLINK.sub(lambda match: (match.group(1) or "") + _JOINER, escaped)


def html_text(text: object) -> str:
    """``text`` escaped for HTML content and attributes (quotes too), bidi controls made visible.

    The one HTML escaping of user text: DOT's HTML-like labels, plotly's
    labels (which read tags) and the reports' HTML all use it.

    >>> print(html_text('<b title="x">\\u202e'))
    &lt;b title=&quot;x&quot;&gt;\\u202e
    """
    return html.escape(visible_controls(text), quote=True)
