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

__all__ = ["FormatGuess", "sniff_label_ranking_format", "sniff_query_format"]

# Enough lines to see a header and a few records, whatever the file's size.
_HEAD_BYTES = 64 * 1024
_HEADER = re.compile(r"^\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*,?\s*$")
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
    text = content[:_HEAD_BYTES].decode("utf-8", "replace").lstrip("\ufeff")
    lines = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return lines[:limit]


def sniff_label_ranking_format(content: bytes) -> FormatGuess:
    """``"benchmark"`` when the first line is ``n,d,L`` and the next lines have ``d + L`` fields.

    Parameters
    ----------
    content : bytes
        The file's bytes (only the first 64 KiB are read).

    Returns
    -------
    FormatGuess
        ``"csv"`` otherwise (a header row of names is the common case).
    """
    lines = _head_lines(content)
    if not lines:
        return FormatGuess("csv")
    match = _HEADER.match(lines[0])
    if match is None:
        return FormatGuess("csv")
    n, d, n_labels = (int(g) for g in match.groups())
    records = lines[1:]
    widths = {len([f for f in re.split(r"[,;\t]", line.strip()) if f.strip() != ""]) for line in records}
    if records and widths == {d + n_labels}:
        return FormatGuess("benchmark", f"first line {n},{d},{n_labels} (n,d,L) and {d + n_labels} fields "
                                        "on each of the next lines")
    return FormatGuess("csv")


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
