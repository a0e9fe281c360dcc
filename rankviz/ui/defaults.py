"""Widget defaults that follow the data set until the user sets a value.

A sample may suggest settings for its trees (``tree_defaults`` in its
``NAME.json``, read by :func:`rankviz.datasets.samples.sample_tree_defaults`):
the 16 rows of the toy set want smaller leaves than the page's usual 10.
:func:`seed_defaults` puts such defaults into session state before the
widgets are drawn:

* a widget with no value yet gets the default, and the value is noted as
  filled in;
* a value filled in that nobody has changed since follows the default when
  the default changes (another data set was picked);
* any other value stays: one the user set (the widget's ``on_change`` is
  :func:`user_set`), one a link restored (:mod:`rankviz.ui.url_state`) or one a
  button set.
"""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

__all__ = ["seed_defaults", "user_set"]

# Session-state key of {widget key: the default last filled in}.
_FILLED = "defaults_filled"


def seed_defaults(defaults: Mapping[str, object]) -> None:
    """Put ``defaults`` (widget key -> value) into session state, before the widgets are drawn.

    Parameters
    ----------
    defaults : mapping of str -> object
        The default of each widget for the data on the page.
    """
    state = st.session_state
    filled = state.setdefault(_FILLED, {})
    for key, value in defaults.items():
        if key not in state:
            state[key] = filled[key] = value
        elif key in filled and state[key] != filled[key]:
            del filled[key]  # changed by someone since it was filled in: theirs now
        elif key in filled and filled[key] != value:
            state[key] = filled[key] = value


def user_set(key: str) -> None:
    """``on_change`` callback of a widget with a following default: its value is the user's now."""
    st.session_state.get(_FILLED, {}).pop(key, None)
