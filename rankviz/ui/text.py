"""User text (names of data sets, features, labels, levels) inside Streamlit Markdown.

``st.markdown``, ``st.caption``, ``st.info`` and widget labels read their
text as Markdown with Streamlit's extensions: ``$...$`` is LaTeX,
``:red[...]`` colours, ``:material/name:`` and ``:smile:`` are icons, and
``<b>`` would be HTML where HTML is allowed. A feature called ``a*b*`` or a
level called ``$1`` must show as written, so user text is escaped with
:func:`md_escape` before it joins a Markdown string. (Graphviz labels are
escaped by :mod:`rankviz.viz.dot`; dataframes, plotly figures and
``st.write`` of plain text need no escaping.) :func:`counted` writes a count
with its noun in the right number: "1 leaf", "12 leaves".
"""

from __future__ import annotations

import re

from rankviz.safe_text import visible_controls

__all__ = ["counted", "md_escape"]

# Every ASCII punctuation character may be backslash-escaped in CommonMark
# and then stands for itself; these are the ones that mean something in the
# middle of a line to Markdown (emphasis, code, links, tables, strikethrough,
# entities), to HTML, or to Streamlit's extensions (colon directives, LaTeX;
# ``:material/home:`` is an icon even with its colons escaped, not with its slash).
# Characters that only mean something at the start of a line (#, -, +, 1.)
# stay: user text is always placed after some words of the page.
_SPECIAL = re.compile(r"([\\`*_\[\]<>$~:&|/])")


def md_escape(text: object) -> str:
    """``text`` as literal Markdown: specials backslash-escaped, line breaks as spaces.

    Bidi controls (U+202E and the like) are shown as their escapes, ``\\u202e``
    (:func:`rankviz.safe_text.visible_controls`). The result goes in running
    text, never inside a code span, where backslash escapes do not work.

    >>> md_escape("a*b* <i> $x$")
    'a\\\\*b\\\\* \\\\<i\\\\> \\\\$x\\\\$'
    """
    text = visible_controls(" ".join(str(text).splitlines()))
    return _SPECIAL.sub(r"\\\1", text)


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and its noun, singular for one: ``counted(1, "leaf", "leaves")`` is ``'1 leaf'``.

    ``plural`` defaults to ``noun + "s"``; thousands are separated by commas.

    >>> counted(1, "example"), counted(12, "leaf", "leaves"), counted(3316, "document")
    ('1 example', '12 leaves', '3,316 documents')
    """
    n = int(n)
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"
