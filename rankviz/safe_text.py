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


# ASCII punctuation that means something inside a line of (GitHub) Markdown:
# emphasis, code, links, table cells, strikethrough, entities and raw HTML.
_MARKDOWN = re.compile(r"([\\`*_{}\[\]()<>#!|~&$])")


def markdown_escape(text: object) -> str:
    """``text`` as literal Markdown for a file: specials backslash-escaped, one line.

    Line breaks become spaces and bidi controls their escapes
    (:func:`visible_controls`). Safe in running text and in table cells;
    not inside code spans, where backslash escapes do not work.

    >>> print(markdown_escape("a|b <img> `x`"))
    a\\|b \\<img\\> \\`x\\`
    """
    return _MARKDOWN.sub(r"\\\1", visible_controls(" ".join(str(text).splitlines())))
