"""A page's settings in the URL's query string, so a copied link reopens the same view.

A page lists its settings as :class:`UrlField` objects. Before its widgets
are drawn, :func:`restore_from_url` copies valid query parameters into the
widgets' session state (once per session, so later clicks are not undone);
after them, :func:`publish_to_url` writes the current values back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import streamlit as st

from rankviz.ui.text import md_escape


@dataclass(frozen=True)
class UrlField:
    """One setting: its query parameter, the widget's session-state key, and
    ``parse`` (text → value, ``ValueError`` with a reason if invalid) and
    ``show`` (value → text, or None to leave the parameter out)."""

    param: str
    key: str
    parse: Callable[[str], object]
    show: Callable[[object], str | None] = str


def restore_from_url(fields: Sequence[UrlField], page: str) -> None:
    """Copy the query parameters into session state, once per session and page.

    Invalid values are ignored, with one warning naming each parameter and why;
    the values are shown escaped (:func:`rankviz.ui.text.md_escape`).
    """
    done = f"_url_restored_{page}"
    if st.session_state.get(done):
        return
    st.session_state[done] = True
    problems = []
    for field in fields:
        raw = st.query_params.get(field.param)
        if raw is None:
            continue
        try:
            st.session_state[field.key] = field.parse(raw)
        except ValueError as error:
            # The value is the link's text, so it is escaped, never put in a code span
            # (a backtick in it would close the span and let a link or image follow).
            problems.append(f"`{field.param}` = {md_escape(raw)} ({md_escape(error)})")
    if problems:
        st.warning("The link's settings were used except " + "; ".join(problems)
                   + ". Those are at their defaults.", icon=":material/link_off:")


def publish_to_url(fields: Sequence[UrlField]) -> None:
    """Write the current values of the fields to the query string."""
    values = {}
    for field in fields:
        if field.key in st.session_state:
            text = field.show(st.session_state[field.key])
            if text is not None:
                values[field.param] = text
    if dict(st.query_params) != values:
        st.query_params.from_dict(values)


# -- parsers ------------------------------------------------------------------

def choice(options: Iterable[object]) -> Callable[[str], object]:
    """Parser accepting one of ``options`` (compared as text)."""
    options = list(options)

    def parse(text: str) -> object:
        for option in options:
            if str(option) == text:
                return option
        raise ValueError(f"expected one of {', '.join(map(str, options))}")
    return parse


def flag(text: str) -> bool:
    """Parser of a switch: ``1`` (on) or ``0`` (off)."""
    if text not in ("0", "1"):
        raise ValueError("expected 1 (on) or 0 (off)")
    return text == "1"


def number(low: float, high: float, decimals: int | None = None,
           integer: bool = False) -> Callable[[str], float]:
    """Parser of a number in ``[low, high]``, rounded to ``decimals`` places if given."""
    def parse(text: str) -> float:
        try:
            value = int(text) if integer else float(text)
        except ValueError:
            raise ValueError(f"not {'an integer' if integer else 'a number'}") from None
        if not low <= value <= high:
            raise ValueError(f"outside {low}…{high}")
        return value if decimals is None or integer else round(value, decimals)
    return parse
