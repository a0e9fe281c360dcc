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

from rankviz.safe_text import markdown_escape

__all__ = ["counted", "md_escape"]


#: ``text`` as literal Markdown in running text (never inside a code span, where
#: backslash escapes do not work): :func:`rankviz.safe_text.markdown_escape`.
md_escape = markdown_escape


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and its noun, singular for one: ``counted(1, "leaf", "leaves")`` is ``'1 leaf'``.

    ``plural`` defaults to ``noun + "s"``; thousands are separated by commas.

    >>> counted(1, "example"), counted(12, "leaf", "leaves"), counted(3316, "document")
    ('1 example', '12 leaves', '3,316 documents')
    """
    n = int(n)
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"
