"""Trace an example: pick a training row or type feature values, and follow it through the tree.

The path lights up in the tree view and its leaf gets a card with the
predicted ranking beside the true one and CS, WRC, LRA and Kendall tau
(:func:`rankviz.viz.tree_view.trace_card`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd
import streamlit as st

from ..viz.tree_view import trace_card
from .inspector_panel import encoded_features, feature_encoder
from .text import md_escape
from .tree_panel import Trace

if TYPE_CHECKING:
    from ..datasets.label_ranking import RankingDataset
    from ..tree.structure import Tree

__all__ = ["follow_row", "holds_typed_values", "trace_controls", "trace_from_state"]

_MODES = {"none": "nothing", "row": "a training row", "typed": "feature values I type"}


def follow_row(row: int, key: str = "trace") -> None:
    """Trace training row ``row`` (0-based), e.g. from a row of the node heat map (a callback)."""
    st.session_state[f"{key}_mode"] = "row"
    st.session_state[f"{key}_row"] = int(row) + 1


def holds_typed_values(key: str = "trace") -> bool:
    """Whether the controls trace typed feature values: then they must be drawn even in a closed tab.

    The typed values live in a data editor, and Streamlit forgets an editor's
    edits in a run that does not draw it (the other controls keep their state).
    """
    return st.session_state.get(f"{key}_mode") == "typed"


def trace_from_state(dataset: RankingDataset, data_key: str, tree: Tree, key: str = "trace") -> Trace | None:
    """The trace chosen in :func:`trace_controls`, read from session state; None if nothing is traced.

    Called before the tree is drawn (the controls sit below it), so the path
    lights up in the same run in which the controls change.
    """
    state = st.session_state
    mode = state.get(f"{key}_mode", "none")
    if mode == "none":
        return None
    row = min(max(int(state.get(f"{key}_row", 1)), 1), dataset.n_samples) - 1
    if mode == "row":
        x, truth, who = encoded_features(dataset, data_key)[row], dataset.Y[row], f"Row {row + 1}"
    else:
        try:
            x = feature_encoder(dataset, data_key).transform(_typed_row(dataset, row, key))[0]
        except ValueError:
            return None  # the controls say why
        truth, who = None, "The typed example"
    card = trace_card(tree, x, truth, who=who)
    return Trace(path=tuple(card["path"]), leaf=card["node"], lines=tuple(card["lines"]), scores=card["scores"])


def _typed_row(dataset, row, key):
    """The training row with the user's edits of the data editor applied."""
    frame = dataset.X.iloc[[row]].copy()
    edits = (st.session_state.get(f"{key}_typed_{row}") or {}).get("edited_rows", {})
    for column, value in edits.get(0, edits.get("0", {})).items():
        frame[column] = value
    return frame


def trace_controls(dataset: RankingDataset, data_key: str, tree: Tree, trace: Trace | None,
                   key: str = "trace") -> None:
    """The controls of the traced example and what its trace found.

    Parameters
    ----------
    dataset : RankingDataset
        The training data of ``tree``.
    data_key : str
        Identifies ``dataset``.
    tree : Tree
        The tree on the page.
    trace : Trace or None
        What :func:`trace_from_state` found for these controls.
    key : str, default="trace"
        Prefix of the widget keys.
    """
    state = st.session_state
    mode_key, row_key = f"{key}_mode", f"{key}_row"
    state.setdefault(mode_key, "none")
    cols = st.columns([2, 1], vertical_alignment="bottom")
    # Kept while the tab is closed (the tree still draws the traced path then).
    mode = cols[0].radio("Follow", list(_MODES), format_func=_MODES.get, horizontal=True, key=mode_key,
                         persist_state="page")
    row = int(cols[1].number_input(
        f"Training row (1 to {dataset.n_samples})", 1, dataset.n_samples, 1, key=row_key, persist_state="page",
        help="Rows are numbered as in the data table and the node heat map.")) - 1
    if mode == "none":
        st.caption("Choose a training row, or type feature values, to light up its path in the tree.")
        return
    if mode == "typed":
        st.data_editor(dataset.X.iloc[[row]], key=f"{key}_typed_{row}", hide_index=True,
                       num_rows="fixed", width="stretch")
        if trace is None:
            try:
                feature_encoder(dataset, data_key).transform(_typed_row(dataset, row, key))
            except ValueError as error:
                st.error(f"These feature values cannot be traced: {error}")
            return
    if trace is None:
        return
    path = " → ".join(f"#{i}" for i in trace.path)
    # lines: who and leaf, predicted ranking, true ranking (a training row), scores.
    shown = [f"**Path:** {path}"] + [md_escape(line) for line in trace.lines[1:3]]
    st.markdown("  \n".join(shown))
    if trace.scores:
        st.dataframe(pd.DataFrame([trace.scores]), hide_index=True,
                     column_config={name: st.column_config.NumberColumn(format="%.3f") for name in trace.scores})

