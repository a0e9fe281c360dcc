"""Results of earlier settings: hidden, with what changed and a button to compute them again.

A panel that computes on request (γ curves, evaluations) keeps its last
result with the settings it was computed for. When the data set or a setting
has changed since, the old numbers would sit under a tree they do not
describe, so the panel does not draw them: :func:`stale_notice` says what
changed ("minimum examples per leaf: 10 → 5") and offers a button that
computes them for the current settings. Going back to the earlier settings
shows the kept result again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import streamlit as st

from ..tree.criteria import get_criterion
from .text import md_escape

if TYPE_CHECKING:
    from .tree_panel import TreeSettings

__all__ = ["changes", "rerun_requested", "settings_facts", "stale_notice"]


def settings_facts(settings: TreeSettings, prefix: str = "", gamma: bool = True) -> dict[str, str]:
    """A tree's settings as readable facts, e.g. ``{"minimum examples per leaf": "10"}``.

    ``prefix`` names the tree (``"Tree A: "``); ``gamma=False`` leaves γ out,
    for results that cover every γ.
    """
    facts = {f"{prefix}criterion": get_criterion(settings.criterion).title}
    if gamma:
        facts[f"{prefix}γ"] = f"{settings.gamma:.3f}"
    facts[f"{prefix}minimum examples per leaf"] = str(settings.min_samples_leaf)
    facts[f"{prefix}maximum depth"] = "none" if settings.max_depth is None else str(settings.max_depth)
    facts[f"{prefix}predicted ties"] = ("none" if settings.tie_tolerance is None
                                        else f"within {settings.tie_tolerance:g} positions")
    return facts


def changes(before: Mapping[str, str], now: Mapping[str, str]) -> list[tuple[str, str, str]]:
    """What differs: ``(name, old value, new value)`` per fact, in the order of ``now`` (— if absent)."""
    names = list(now) + [name for name in before if name not in now]
    return [(name, before.get(name, "—"), now.get(name, "—"))
            for name in names if before.get(name) != now.get(name)]


def stale_notice(what: str, before: Mapping[str, str], now: Mapping[str, str], *, key: str,
                 button: str) -> None:
    """Say that ``what`` (computed for ``before``) is hidden, what changed, and offer ``button``.

    The button's click is read by :func:`rerun_requested` with the same
    ``key``, where the panel starts its computation.
    """
    # Names and values may be the user's (a data set's name): escaped, the colons after them not.
    changed = "; ".join(f"{md_escape(name)}: {md_escape(old)} → {md_escape(new)}"
                        for name, old, new in changes(before, now)) or "the data set's options"
    with st.container(border=True):
        st.markdown(f":material/history: **{md_escape(what)} for earlier settings are hidden.** Changed "
                    f"since they were computed: {changed}. Compute them again for the current settings, or "
                    "go back to the earlier ones to see them.")
        st.button(button, key=f"{key}_rerun", icon=":material/refresh:", on_click=_request, args=(key,))


def rerun_requested(key: str) -> bool:
    """Whether the button of :func:`stale_notice` under ``key`` was pressed (once)."""
    return bool(st.session_state.pop(f"{key}_rerun_requested", False))


def _request(key: str) -> None:
    st.session_state[f"{key}_rerun_requested"] = True
