"""The svmlight / LETOR reader's fast path, in compiled code (Numba): every line of a file in one pass over its bytes.

:func:`scan` reads the lines that :mod:`rankviz.datasets.svmlight` calls
well formed and whose numbers are *plain*; on the first line that is not, it
stops and says so, and the caller reads the whole file the general way,
which either reads it or names the line and token at fault. So the fast
path never decides what an error says, and what it accepts it reads exactly
as the general way does:

* a number is plain when it is ``[+-]digits[.digits][(e|E)[+-]digits]``
  (digits on at least one side of the point) with at most 19 significant
  digits, and its value is ``m × 10^e`` with an integer ``m < 2^53`` and
  ``|e| <= 22``. Then ``m`` and ``10^e`` are exact doubles and one
  multiplication or division rounds to the nearest double, the correctly
  rounded value that Python's ``float`` gives (Clinger's fast path [1]_);
  other numbers (``1e-30``, 20 digits) go the general way;
* a token separator is a space or a tab; any other control character, and
  any byte outside ASCII, sends the file the general way (Python's
  ``str.split`` splits at more kinds of space);
* a query id is the text after ``qid:`` up to the next separator; one that
  holds a ``:`` goes the general way (it may be a feature glued on).

References
----------
.. [1] W. D. Clinger, "How to read floating point numbers accurately",
       Proceedings of the ACM SIGPLAN 1990 Conference on Programming Language
       Design and Implementation, pp. 92-101, 1990.
"""

from __future__ import annotations

import numpy as np

from ..numba_cache import configure as configure_numba_cache

configure_numba_cache()  # before Numba's first import: it reads its cache folder then (rankviz.numba_cache)

import numba  # noqa: E402 -- after the cache folder is set

__all__ = ["scan"]

_NEWLINE, _HASH, _SPACE, _TAB, _COLON = 10, 35, 32, 9, 58
_PLUS, _MINUS, _POINT, _E, _LOWER_E = 43, 45, 46, 69, 101
_ZERO, _NINE = 48, 57
# The powers of ten that are exact doubles.
_POWERS = np.array([10.0 ** k for k in range(23)])
_EXACT_MANTISSA = 2 ** 53
_MAX_DIGITS = 19  # significant digits an uint64 holds whatever they are


@numba.njit(cache=True, nogil=True, inline="always")
def _is_digit(byte):
    return _ZERO <= byte <= _NINE


@numba.njit(cache=True, nogil=True, inline="always")
def _digits(buffer, i, stop, mantissa, digits):
    """A run of digits from ``i`` appended to ``mantissa``: ``(i, mantissa, digits kept, digits read, ok)``.

    Leading zeros are not kept; more than ``_MAX_DIGITS`` kept is not ok.
    """
    read = 0
    while i < stop and _is_digit(buffer[i]):
        if mantissa != 0 or buffer[i] != _ZERO:
            digits += 1
            if digits > _MAX_DIGITS:
                return i, mantissa, digits, read, False
            mantissa = mantissa * np.uint64(10) + np.uint64(buffer[i] - _ZERO)
        read += 1
        i += 1
    return i, mantissa, digits, read, True


@numba.njit(cache=True, nogil=True)
def _number(buffer, start, stop, powers):
    """The plain number ``buffer[start:stop]`` as ``(value, ok)``; ok is False when it is not plain."""
    i = start
    negative = False
    if i < stop and (buffer[i] == _PLUS or buffer[i] == _MINUS):
        negative = buffer[i] == _MINUS
        i += 1
    i, mantissa, digits, seen, ok = _digits(buffer, i, stop, np.uint64(0), 0)
    if not ok:
        return 0.0, False
    point_shift = 0  # digits after the point, which divide the mantissa
    if i < stop and buffer[i] == _POINT:
        i, mantissa, digits, point_shift, ok = _digits(buffer, i + 1, stop, mantissa, digits)
        if not ok:
            return 0.0, False
        seen += point_shift
    if seen == 0:
        return 0.0, False
    exponent = 0
    if i < stop and (buffer[i] == _E or buffer[i] == _LOWER_E):
        i += 1
        exponent_negative = False
        if i < stop and (buffer[i] == _PLUS or buffer[i] == _MINUS):
            exponent_negative = buffer[i] == _MINUS
            i += 1
        if i == stop:
            return 0.0, False
        while i < stop and _is_digit(buffer[i]):
            if exponent < 10_000:  # far beyond any exact power; only its size matters then
                exponent = exponent * 10 + (buffer[i] - _ZERO)
            i += 1
        if exponent_negative:
            exponent = -exponent
    if i != stop:
        return 0.0, False
    if mantissa >= np.uint64(_EXACT_MANTISSA):
        return 0.0, False
    power = exponent - point_shift
    value = float(mantissa)
    if mantissa != 0:
        if power > 22 or power < -22:
            return 0.0, False
        if power >= 0:
            value = value * powers[power]
        else:
            value = value / powers[-power]
    return (-value if negative else value), True


@numba.njit(cache=True, nogil=True, inline="always")
def _skip_spaces(buffer, i, stop):
    while i < stop and (buffer[i] == _SPACE or buffer[i] == _TAB):
        i += 1
    return i


@numba.njit(cache=True, nogil=True, inline="always")
def _token_end(buffer, i, stop):
    while i < stop and buffer[i] != _SPACE and buffer[i] != _TAB:
        i += 1
    return i


@numba.njit(cache=True, nogil=True)
def _integer(buffer, start, stop):
    """``-?[0-9]+`` read as an int64, as ``(value, ok)``; not ok for any other text or more than 18 digits."""
    i = start
    negative = i < stop and buffer[i] == _MINUS
    if negative:
        i += 1
    if i == stop or stop - i > 18:
        return 0, False
    value = 0
    while i < stop:
        if not _is_digit(buffer[i]):
            return 0, False
        value = value * 10 + (buffer[i] - _ZERO)
        i += 1
    return (-value if negative else value), True


@numba.njit(cache=True, nogil=True)
def scan(buffer: np.ndarray, max_index: int, relevance: np.ndarray, line_of: np.ndarray, qid_span: np.ndarray,
         qid_value: np.ndarray, doc_of: np.ndarray, index: np.ndarray, value: np.ndarray) -> tuple:
    """Read every line of ``buffer`` (UTF-8 bytes, lines ended by ``\\n``) into the output arrays.

    One document per line that holds one (blank lines, and text after a
    ``#``, are skipped): its relevance, its 1-based line number, where its
    query id lies in ``buffer`` (``qid_span[doc] = start, stop``; ``-1, -1``
    without ``qid:``) and, when the id is a whole number that fits 18
    digits, that number (``qid_value``). Its features go to ``doc_of``,
    ``index`` and ``value``, one entry each. The document arrays must hold
    one per line; a feature past the end of the entry arrays sends the file
    the general way.

    Returns
    -------
    documents, entries : int
        How many documents and features were read.
    general_line : int
        0 when every line was read; else the 1-based number of the first line
        this path does not read (see the module notes), and the file must
        be read the general way.
    integer_ids : bool
        Whether every query id read has its ``qid_value``.
    """
    n = buffer.size
    powers = _POWERS
    documents = entries = 0
    line = 0
    position = 0
    integer_ids = True
    while position < n:
        line += 1
        end = position
        while end < n and buffer[end] != _NEWLINE:
            end += 1
        next_line = end + 1
        body_end = position
        while body_end < end and buffer[body_end] != _HASH:
            body_end += 1
        # characters the general way may split or read differently
        for i in range(position, body_end):
            byte = buffer[i]
            if (byte < 32 and byte != _TAB) or byte > 126:
                return documents, entries, line, integer_ids
        i = _skip_spaces(buffer, position, body_end)
        if i == body_end:
            position = next_line
            continue
        stop = _token_end(buffer, i, body_end)
        grade, ok = _number(buffer, i, stop, powers)
        if not ok:
            return documents, entries, line, integer_ids
        relevance[documents] = grade
        line_of[documents] = line
        qid_span[documents, 0] = -1
        qid_span[documents, 1] = -1
        i = _skip_spaces(buffer, stop, body_end)
        if (i + 4 <= body_end and buffer[i] == 113 and buffer[i + 1] == 105 and buffer[i + 2] == 100
                and buffer[i + 3] == _COLON):  # "qid:"
            stop = _token_end(buffer, i, body_end)
            if stop == i + 4:
                return documents, entries, line, integer_ids
            for j in range(i + 4, stop):
                if buffer[j] == _COLON:
                    return documents, entries, line, integer_ids
            qid_span[documents, 0] = i + 4
            qid_span[documents, 1] = stop
            number, whole = _integer(buffer, i + 4, stop)
            qid_value[documents] = number
            integer_ids = integer_ids and whole
            i = _skip_spaces(buffer, stop, body_end)
        previous = 0
        while i < body_end:
            stop = _token_end(buffer, i, body_end)
            colon = i
            feature = 0
            while colon < stop and _is_digit(buffer[colon]):
                if feature <= max_index:
                    feature = feature * 10 + (buffer[colon] - _ZERO)
                colon += 1
            if (colon == i or colon == stop or buffer[colon] != _COLON or feature <= previous or feature > max_index
                    or entries == index.size):
                return documents, entries, line, integer_ids
            number, ok = _number(buffer, colon + 1, stop, powers)
            if not ok:
                return documents, entries, line, integer_ids
            doc_of[entries] = documents
            index[entries] = feature
            value[entries] = number
            entries += 1
            previous = feature
            i = _skip_spaces(buffer, stop, body_end)
        documents += 1
        position = next_line
    return documents, entries, 0, integer_ids
