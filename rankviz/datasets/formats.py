"""Which format an uploaded file is in, from its content (its name may have no extension).

:func:`sniff_label_ranking_format` tells the benchmark format of label
ranking data (first line ``n,d,L``, then ``n`` lines of ``d`` features and
``L`` rank positions) from a CSV with a header; :func:`sniff_query_format`
tells LETOR / svmlight lines (``rel qid:Q 1:v …``) from a CSV. Both read only
the first lines, so they cost nothing on a large file, and both return a
:class:`FormatGuess` saying why, for the page to show; the user can still
choose otherwise.

References
----------
.. [1] W. Cheng, J. Hühn and E. Hüllermeier, "Decision tree and
       instance-based learning for label ranking", Proceedings of the 26th
       International Conference on Machine Learning (ICML), pp. 161-168,
       2009 (the benchmark files of label ranking).
.. [2] T. Qin, T.-Y. Liu, J. Xu and H. Li, "LETOR: A benchmark collection
       for research on learning to rank for information retrieval",
       Information Retrieval 13(4), pp. 346-374, 2010.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .reading import sniff_separator, whole_number

__all__ = ["FormatGuess", "sniff_label_ranking_format", "sniff_query_format"]

# Enough lines to see a header and a few records, whatever the file's size.
_HEAD_BYTES = 64 * 1024
_SVMLIGHT = re.compile(r"^\s*[-+]?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?\s+(?:qid:\S+\s+)?\d+:\S")


@dataclass(frozen=True)
class FormatGuess:
    """A format read from a file's first lines, and why.

    Attributes
    ----------
    format : str
        ``"benchmark"`` or ``"csv"`` for label rankings; ``"svmlight"`` or
        ``"csv"`` for query-document data.
    reason : str
        One sentence for the page, e.g. ``first line 8,2,3 (n,d,L) and 10
        fields per line``; empty when nothing pointed to a format.
    """

    format: str
    reason: str = ""


def _head_lines(content: bytes, limit: int = 6) -> list[str]:
    """The first ``limit`` lines with content (no ``#`` comments), whole: a line is never cut.

    The first 64 KiB usually hold them; a wider line (a record of thousands
    of features) makes the head grow, up to the whole file, which is in
    memory anyway. UTF-16 is told by its byte order mark.
    """
    encoding = "utf-16" if content.startswith((b"\xff\xfe", b"\xfe\xff")) else "utf-8"
    size = _HEAD_BYTES
    while True:
        whole = size >= len(content)
        text = content[:size].decode(encoding, "replace").lstrip("\ufeff")
        lines = text.splitlines()
        if not whole and lines:
            lines.pop()  # the line the cut falls in
        kept = [line for line in lines if line.strip() and not line.lstrip().startswith("#")]
        if whole or len(kept) >= min(limit, 2):  # a header and a record at least
            return kept[:limit]
        size *= 4


def _fields(line: str, sep: str) -> list[str]:
    """The cells of ``line``, empty ones included, without blanks or quotes around them."""
    return [field.strip().strip('"').strip() for field in line.split(sep)]


def sniff_label_ranking_format(content: bytes) -> FormatGuess:
    """``"benchmark"`` when the first line is ``n,d,L`` (with or without the ``d + L`` column names after it,
    as scikit-lr publishes the files) and the next lines have ``d + L`` fields.

    The separator (``,``, ``;`` or a tab) is that of the first line, as
    :func:`rankviz.load_benchmark` reads it; an empty cell (a missing
    label or feature) counts as a field.

    Parameters
    ----------
    content : bytes
        The file's bytes (the first lines only are read; UTF-8 or UTF-16).

    Returns
    -------
    FormatGuess
        ``"csv"`` otherwise (a header row of names is the common case).
    """
    lines = _head_lines(content)
    if not lines:
        return FormatGuess("csv")
    sep = sniff_separator(lines[0])
    header = _fields(lines[0], sep)
    if len(header) == 4 and header[-1] == "":
        header.pop()  # a separator ending the header, as load_benchmark allows
    # Unicode digits too (\d): the loader then names a full-width digit rather than a CSV loader a column.
    if len(header) < 3 or not all(re.fullmatch(r"\+?\d+", field) for field in header[:3]):
        return FormatGuess("csv")
    n, d, n_labels = (_header_number(field) for field in header[:3])
    named = len(header) > 3  # n,d,L then the columns' names, as scikit-lr publishes the files
    if named and len(header) != 3 + d + n_labels:
        return FormatGuess("csv")
    records = lines[1:]
    widths = {len(line.split(sep)) for line in records}
    if records and widths == {d + n_labels}:
        names = ", with the columns' names," if named else ""
        return FormatGuess("benchmark", f"first line {n},{d},{n_labels} (n,d,L){names} and {d + n_labels} fields "
                                        "on each of the next lines")
    return FormatGuess("csv")


def _header_number(field):
    """A header field's value: :func:`~rankviz.datasets.reading.whole_number` of ASCII digits, ``int`` of
    others (full-width digits, which the loader names), a value above any size where ``int`` refuses it."""
    try:
        return whole_number(field) if field.isascii() else int(field)
    except ValueError:
        return 10**18


def sniff_query_format(content: bytes, name: str = "") -> FormatGuess:
    """``"svmlight"`` when the first record reads ``relevance [qid:Q] index:value …``.

    Parameters
    ----------
    content : bytes
        The file's bytes (only the first 64 KiB are read; ``#`` comment lines are skipped).
    name : str, default=""
        The file's name: decides only when the content does not (an empty
        file, or a first line that is neither), ``.csv`` for CSV.

    Returns
    -------
    FormatGuess
        ``"csv"`` when the first line is separated by commas, semicolons or
        tabs, or by the name; ``"svmlight"`` otherwise.
    """
    lines = _head_lines(content)
    if lines and _SVMLIGHT.match(lines[0]):
        return FormatGuess("svmlight", "lines read 'relevance qid:Q index:value …'")
    if lines and re.search(r"[,;\t]", lines[0]) and "qid:" not in lines[0]:
        return FormatGuess("csv", "the first line is separated like a CSV")
    return FormatGuess("csv" if name.lower().endswith(".csv") else "svmlight")
