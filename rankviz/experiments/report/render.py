"""Tables as Markdown or HTML text, every cell escaped.

Dataset and method names come from users' files: in Markdown they are
backslash-escaped (:func:`rankviz.safe_text.markdown_escape`), in HTML
entity-escaped (:func:`html.escape`), so a name such as
``<img src=x onerror=alert(1)>`` or ``a|b`` shows as written.
"""

from __future__ import annotations

import pandas as pd

from rankviz.safe_text import html_text, markdown_escape

__all__ = ["markdown_table", "html_table"]


def markdown_table(table: pd.DataFrame, bold: pd.DataFrame | None = None) -> str:
    """A GitHub-flavoured Markdown table of ``table`` (index as first column); ``bold`` marks cells."""
    header = [table.index.name or ""] + list(table.columns)
    lines = ["| " + " | ".join(markdown_escape(cell) for cell in header) + " |",
             "|" + "|".join([" --- "] + [" ---: "] * len(table.columns)) + "|"]
    # itertuples keeps each column's type (iterrows would turn counts into floats).
    for row_name, row in zip(table.index, table.itertuples(index=False)):
        cells = [markdown_escape(row_name)]
        for column, value in zip(table.columns, row):
            cell = markdown_escape(value)
            strong = bold is not None and bool(bold.at[row_name, column])
            cells.append(f"**{cell}**" if strong else cell)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def html_table(table: pd.DataFrame, bold: pd.DataFrame | None = None) -> str:
    """An HTML ``<table>`` of ``table`` (index as row headers); ``bold`` marks cells with ``<strong>``."""
    head = "".join(f"<th>{html_text(cell)}</th>" for cell in [table.index.name or ""] + list(table.columns))
    rows = []
    for row_name, row in zip(table.index, table.itertuples(index=False)):
        cells = []
        for column, value in zip(table.columns, row):
            cell = html_text(value)
            strong = bold is not None and bool(bold.at[row_name, column])
            cells.append(f"<td>{'<strong>' + cell + '</strong>' if strong else cell}</td>")
        rows.append(f"<tr><th>{html_text(row_name)}</th>{''.join(cells)}</tr>")
    return f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n" + "\n".join(rows) + "\n</tbody>\n</table>"
