"""Teaching the two impurities of Xia, Zhang & Wang (2006): Fig. 1, §III's three ratings, any node.

Fig. 1 of Xia et al. is worked out for any ``a``, the three-ratings case of
their §III is checked for any counts, and the node table gives both
impurities of any node of the trees on the page. Every number shown comes
from the library (:mod:`rankviz.experiments.teaching`, which uses the
criteria the trees use), so the page teaches what the trees do.

References
----------
.. [1] F. Xia, W. Zhang and J. Wang, "An effective tree-based algorithm for
       ordinal regression", IEEE Intelligent Informatics Bulletin, vol. 7,
       no. 1, pp. 22-26, 2006.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import streamlit as st
from numpy.typing import ArrayLike

from ..experiments.teaching import figure1_splits, impurities_of_counts

if TYPE_CHECKING:
    from ..tree.ordinal_tree import OrdinalTree
    from ..tree.structure import Tree

__all__ = ["NodeLevels", "ordinal_node_levels", "label_ranking_node_levels", "teaching_panel",
           "figure1_panel", "three_ratings_panel", "node_impurity_panel", "node_table"]

_RATINGS = (1, 2, 3, 4)
_DEFINITIONS = ("Gini $= 1 - \\sum_k p_k^2$ and ranking impurity "
                "$= \\sum_{i<j} (v_j - v_i) N_i N_j$ over the node's rows, $N_k$ of them at level "
                "$v_k$ with share $p_k$ (Definitions 1 and 2).")
_CELL_FILL = "#d9d9d9"  # a rating with rows (render.py's level cells use greys too)
_EMPTY_FILL = "#ffffff"


@dataclass(frozen=True, eq=False)
class NodeLevels:
    """What the node table needs of a fitted tree.

    ``counts[i, l, k]`` is the number of training rows of node ``i`` at level
    ``k`` of label ``l``: one label (the target) for an ordinal tree, one per
    label for a label-ranking tree, whose levels are the rank positions.
    """

    tree: Tree
    counts: np.ndarray
    positions: np.ndarray
    level_names: list[str]
    label_names: list[str]

    @property
    def ordinal(self) -> bool:
        """True for an ordinal tree's one target (no per-label rows in the node table)."""
        return len(self.label_names) == 1 and self.tree.is_ordinal


def ordinal_node_levels(model: OrdinalTree) -> NodeLevels:
    """:class:`NodeLevels` of a fitted :class:`rankviz.OrdinalTree`."""
    tree = model.tree_
    names = [str(c) for c in model.classes_]
    numbered = all(_is_number(n) for n in names)
    return NodeLevels(tree, np.asarray(tree.class_counts, dtype=float)[:, None, :],
                      np.asarray(model.positions_, dtype=float),
                      [f"rank {n}" if numbered else n for n in names], list(tree.label_names))


def label_ranking_node_levels(tree: Tree, X_encoded: ArrayLike, Y: ArrayLike) -> NodeLevels:
    """:class:`NodeLevels` of a ranking tree: each node's rows per rank position, per label.

    ``X_encoded`` are the training features as the tree sees them and ``Y``
    the training rank positions (NaN = missing; those rows count for no level
    of that label). Each row counts in every node on its path.
    """
    Y = np.asarray(Y, dtype=float)
    present = ~np.isnan(Y)
    positions = np.unique(Y[present])
    codes = np.searchsorted(positions, np.where(present, Y, positions[0]))
    paths = tree.decision_paths(X_encoded)
    first = np.ones(paths.shape, dtype=bool)  # a row that stopped early repeats its leaf
    first[:, 1:] = paths[:, 1:] != paths[:, :-1]
    row, step = np.nonzero(first)
    node = paths[row, step]
    n_labels, n_levels = Y.shape[1], len(positions)
    counts = np.zeros((tree.node_count, n_labels, n_levels))
    for label in range(n_labels):
        keep = present[row, label]
        np.add.at(counts[:, label, :], (node[keep], codes[row[keep], label]), 1.0)
    names = [f"pos {_number(p)}" for p in positions]
    return NodeLevels(tree, counts, positions, names, [str(n) for n in tree.label_names])


def teaching_panel(trees: dict[str, NodeLevels], key: str = "teach") -> None:
    """Fig. 1 with the user's ``a``, the three-ratings case of §III and the node table.

    Parameters
    ----------
    trees : dict of str -> NodeLevels
        The fitted trees by display name (e.g. "Ranking impurity", "Gini");
        empty to show only the worked examples.
    key : str, default="teach"
        Prefix of the widget keys.
    """
    figure1_panel(key=f"{key}_fig1")
    three_ratings_panel(key=f"{key}_three")
    st.divider()
    node_impurity_panel(trees, key=f"{key}_node")


# -- Fig. 1 --------------------------------------------------------------------

def figure1_panel(key: str = "fig1") -> None:
    """The two splits of Fig. 1 drawn for the user's ``a``, with the arithmetic written out."""
    st.subheader("Fig. 1: two splits of the same node")
    st.markdown(
        "The parent holds **a** rows at each of ratings 1–4. The *left* split sends ratings "
        "{1, 2} one way and {3, 4} the other; the *right* split sends {1, 3} and {2, 4}.")
    a = int(st.columns([1, 3])[0].number_input(
        "a (rows per rating)", min_value=1, max_value=100_000, value=10, step=1, key=f"{key}_a",
        help="Any positive whole number: the comparison holds for every a."))
    table = figure1_splits(a)
    parent = impurities_of_counts([[a] * 4]).iloc[0]
    parent_gini, parent_rank = float(parent["gini"]), float(parent["ranking_impurity"])
    columns = st.columns(2, gap="large")
    for column, (_, split), coefficient in zip(columns, table.iterrows(), (1, 2)):
        with column:
            left, right = split["left"], split["right"]
            st.markdown(f"**{split['split'].capitalize()}: {_set(left)} | {_set(right)}**")
            st.graphviz_chart(_figure1_dot(a, left, right, split, parent_gini, parent_rank),
                              width="stretch")
            gap = coefficient  # the distance between the two ratings kept together
            st.markdown(
                f"- **Gini** of each child: $1 - (\\tfrac12)^2 - (\\tfrac12)^2 = "
                f"{_frac(split['gini_left'])}$; weighted by the children's shares "
                f"$\\tfrac12 \\cdot \\tfrac12 + \\tfrac12 \\cdot \\tfrac12 = "
                f"{_frac(split['weighted_gini'])}$; gain "
                f"${_frac(parent_gini)} - {_frac(split['weighted_gini'])} = "
                f"{_frac(split['gini_gain'])}$.\n"
                f"- **Ranking impurity** of each child: ${gap}\\cdot a \\cdot a = "
                f"{'' if gap == 1 else gap}a^2 = {_num(split['rank_left'])}$; both children "
                f"together ${2 * gap}a^2 = {_num(split['rank_sum'])}$; gain (eq. 1, unweighted) "
                f"$10a^2 - {2 * gap}a^2 = {10 - 2 * gap}a^2 = {_num(split['rank_gain'])}$.")
    st.markdown(
        f"The parent has Gini ${_frac(parent_gini)}$ and ranking impurity "
        f"$10a^2 = {_num(parent_rank)}$ (pairs of ratings 1 apart: 3, 2 apart: 2, 3 apart: 1, "
        "each $a \\cdot a$ pairs of rows). **Gini cannot tell the two splits apart**: both leave "
        f"weighted Gini ${_frac(table['weighted_gini'][0])}$. **Ranking impurity prefers the "
        f"left split** ({_num(table['rank_sum'][0])} < {_num(table['rank_sum'][1])} left in the "
        "children): it keeps close ratings together, because a pair of rows adds the distance "
        "between their ratings.")


def _figure1_dot(a: int, left: Sequence[int], right: Sequence[int], split: pd.Series,
                 parent_gini: float, parent_rank: float) -> str:
    def cells(present: Sequence[int]) -> str:
        head = "".join(f'<TD WIDTH="26"><FONT POINT-SIZE="9">{r}</FONT></TD>' for r in _RATINGS)
        body = "".join(
            f'<TD BGCOLOR="{_CELL_FILL if r in present else _EMPTY_FILL}" WIDTH="26">'
            f'<FONT POINT-SIZE="9">{a if r in present else 0}</FONT></TD>' for r in _RATINGS)
        return (f'<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="2" COLOR="#969696">'
                f"<TR>{head}</TR><TR>{body}</TR></TABLE>")

    def label(present: Sequence[int], gini: float, rank: float, title: str) -> str:
        n = a * len(present)
        return (f'<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">'
                f"<TR><TD><B>{title}</B> (n = {n})</TD></TR>"
                f"<TR><TD>{cells(present)}</TD></TR>"
                f'<TR><TD><FONT POINT-SIZE="10">Gini {_frac_text(gini)}, I_rank {_num(rank)}'
                f"</FONT></TD></TR></TABLE>>")

    return "\n".join([
        "digraph Fig1 {",
        '  graph [rankdir=TB, nodesep=0.3, ranksep=0.35, margin=0, pad=0.1, bgcolor="white"];',
        '  node [shape=box, style="rounded", fontname="Helvetica", fontsize=11, '
        'color="#4d4d4d", margin="0.08,0.04"];',
        '  edge [fontname="Helvetica", fontsize=10, color="#595959", fontcolor="#595959", '
        "arrowsize=0.7];",
        f"  parent [label={label(_RATINGS, parent_gini, parent_rank, 'parent')}];",
        f"  left [label={label(left, split['gini_left'], split['rank_left'], 'left child')}];",
        f"  right [label={label(right, split['gini_right'], split['rank_right'], 'right child')}];",
        f'  parent -> left [label=" ratings {", ".join(map(str, left))}"];',
        f'  parent -> right [label=" ratings {", ".join(map(str, right))}"];',
        "}",
    ])


# -- §III: three ratings -------------------------------------------------------

def three_ratings_panel(key: str = "three") -> None:
    """§III's claim: with N₂ ≤ 2N₁ or N₂ ≤ 2N₃ ranking impurity never separates out rating 2."""
    with st.expander("Three ratings (§III): when is rating 2 separated out?"):
        st.markdown(
            "A node with $N_1, N_2, N_3$ rows at ratings 1, 2, 3, and a feature that can send "
            "any set of ratings left. Ranking impurity chooses {2} | {1, 3} only when it leaves "
            "the least impurity, $2N_1N_3 < \\min(N_1N_2, N_2N_3)$, i.e. when "
            "$N_2 > 2N_1$ **and** $N_2 > 2N_3$ (at equality it ties). With equal counts Gini "
            "ties all three splits, so it may separate out rating 2. ✓ marks each criterion's "
            "best split, every one of them when several tie.")
        cols = st.columns(3)
        counts = [int(col.number_input(f"N{r}", min_value=0, max_value=100_000, value=10,
                                       key=f"{key}_n{r}"))
                  for r, col in zip((1, 2, 3), cols)]
        if sum(c > 0 for c in counts) < 2:
            st.info("Give at least two ratings some rows: a node of one rating has nothing to split.")
            return
        st.dataframe(three_ratings_table(counts), hide_index=True, width="stretch")


def three_ratings_table(counts: ArrayLike) -> pd.DataFrame:
    """The three splits of a 3-rating node by rating sets: both criteria's scores and choices."""
    counts = np.asarray(counts, dtype=float)
    parent = impurities_of_counts(counts[None, :]).iloc[0]
    rows = []
    for left in ((1,), (2,), (1, 2)):
        right = tuple(r for r in (1, 2, 3) if r not in left)
        sides = np.array([[counts[r - 1] if r in side else 0.0 for r in (1, 2, 3)]
                          for side in (left, right)])
        child = impurities_of_counts(sides)
        n = child["n"].to_numpy()
        weighted = float((n * child["gini"]).sum() / n.sum())
        rank_sum = float(child["ranking_impurity"].sum())
        rows.append({"split": f"{_set(left)} | {_set(right)}",
                     "I_rank(T_L) + I_rank(T_R)": rank_sum,
                     "ranking gain (eq. 1)": float(parent["ranking_impurity"]) - rank_sum,
                     "weighted Gini": weighted,
                     "Gini gain": float(parent["gini"]) - weighted})
    table = pd.DataFrame(rows)
    # A split with an empty side is no split at all.
    sent_left = [sum(counts[r - 1] for r in left) for left in ((1,), (2,), (1, 2))]
    valid = [0 < k < counts.sum() for k in sent_left]
    for column, best_of in (("ranking impurity picks", "ranking gain (eq. 1)"),
                            ("Gini picks", "Gini gain")):
        gains = table[best_of].where(valid)
        best = gains.max()
        table[column] = ["✓" if ok and np.isclose(g, best) else "" for ok, g in zip(valid, gains)]
    return table.round(4)


# -- the node table --------------------------------------------------------------

def node_impurity_panel(trees: dict[str, NodeLevels], key: str = "node") -> None:
    """Pick a tree and a node: both impurities of it and its children, and both gains."""
    st.subheader("Impurities of a node")
    if not trees:
        st.info("No tree to inspect: the trees above could not be grown.")
        return
    names = list(trees)
    state = st.session_state
    if state.get(f"{key}_tree") not in names:
        state[f"{key}_tree"] = names[0]
    cols = st.columns([1, 2])
    name = cols[0].radio("Tree", names, key=f"{key}_tree", horizontal=True)
    levels = trees[name]
    tree = levels.tree
    nodes = list(range(tree.node_count))
    node_key = f"{key}_node_{names.index(name)}"
    if state.get(node_key) not in nodes:
        state[node_key] = 0
    node = cols[1].selectbox(
        "Node", nodes, key=node_key, format_func=lambda i: node_title(tree, i),
        help="Node ids (#) are those written in the tree drawing.")
    table, gains = node_table(levels, node)
    level_columns = list(levels.level_names)
    st.dataframe(table, hide_index=True, width="stretch",
                 column_config={c: st.column_config.NumberColumn(c, format="%d")
                                for c in ["n", *level_columns]})
    if gains is None:
        st.caption(f"Node #{tree.node_ids[node]} is a leaf: it is not split, so there is no gain. "
                   f"{_DEFINITIONS}")
        return
    n, n_left, n_right = gains["n"]
    gini, rank = gains["gini"], gains["rank"]
    st.markdown(
        f"Gains of this split{'' if levels.ordinal else ' (impurities summed over labels)'}:\n"
        f"- **Gini, weighted:** ${_num(gini[0], 4)} - \\tfrac{{{_num(n_left)}}}{{{_num(n)}}}"
        f"\\cdot {_num(gini[1], 4)} - \\tfrac{{{_num(n_right)}}}{{{_num(n)}}}\\cdot "
        f"{_num(gini[2], 4)} = {_num(gains['gini_gain'], 4)}$\n"
        f"- **Ranking impurity, unweighted (eq. 1):** ${_num(rank[0])} - {_num(rank[1])} - "
        f"{_num(rank[2])} = {_num(gains['rank_gain'])}$")
    st.caption(f"The {name} tree chose this split. {_DEFINITIONS}")


def node_title(tree: Tree, node: int) -> str:
    """``#3 · x1 <= 0.27 (n = 268)`` or ``#5 · leaf: rank 2 (n = 40)``."""
    if not tree.is_leaf[node]:
        what = tree.test_text(node)
    elif tree.is_ordinal:
        level = tree.class_names[int(tree.predicted_level[node])]
        what = f"leaf: {'rank ' + level if _is_number(level) else level}"
    else:
        what = f"leaf: {tree.ranking_text(node)}"
    if len(what) > 50:
        what = what[:47] + "…"
    root = "root · " if node == 0 else ""
    return f"#{tree.node_ids[node]} · {root}{what} (n = {int(tree.n_samples[node])})"


def node_table(levels: NodeLevels, node: int) -> tuple[pd.DataFrame, dict[str, Any] | None]:
    """Both impurities of a node and, if it is split, of its two children.

    Returns
    -------
    table : DataFrame
        One row per node (and label, for label rankings, with an "all labels"
        row of sums): ``node``, ``label``, ``n``, the level counts, ``Gini``
        and ``ranking impurity``.
    gains : dict or None
        None for a leaf; else ``n`` (parent, left, right), ``gini`` and
        ``rank`` (impurities summed over labels, same order), ``gini_gain``
        (weighted by the children's shares of rows) and ``rank_gain``
        (unweighted, eq. 1).
    """
    tree = levels.tree
    split = not tree.is_leaf[node]
    nodes = [(node, "node")]
    if split:
        nodes += [(int(tree.children_left[node]), "yes-child"),
                  (int(tree.children_right[node]), "no-child")]
    rows, totals = [], []
    for position, role in nodes:
        counts = levels.counts[position]  # (L, K)
        values = impurities_of_counts(counts, levels.positions)
        title = f"#{tree.node_ids[position]} ({role})"
        n_rows = float(tree.n_samples[position])
        for label, (count_row, (_, value)) in enumerate(zip(counts, values.iterrows())):
            row = {"node": title}
            if not levels.ordinal:
                row["label"] = levels.label_names[label]
            row["n"] = int(round(value["n"]))
            row.update({name: int(round(c)) for name, c in zip(levels.level_names, count_row)})
            row.update({"Gini": float(value["gini"]),
                        "ranking impurity": float(value["ranking_impurity"])})
            rows.append(row)
        gini, rank = float(values["gini"].sum()), float(values["ranking_impurity"].sum())
        if not levels.ordinal:
            rows.append({"node": title, "label": "all labels (sum)", "n": int(n_rows),
                         **{name: None for name in levels.level_names},
                         "Gini": gini, "ranking impurity": rank})
        totals.append((n_rows, gini, rank))
    table = pd.DataFrame(rows)
    if not split:
        return table, None
    n, gini, rank = (np.array(v) for v in zip(*totals))
    gains = {"n": n, "gini": gini, "rank": rank,
             "gini_gain": float(gini[0] - (n[1] * gini[1] + n[2] * gini[2]) / n[0]),
             "rank_gain": float(rank[0] - rank[1] - rank[2])}
    return table, gains


# -- formatting ----------------------------------------------------------------

def _set(ratings: Iterable[int]) -> str:
    return "{" + ", ".join(map(str, ratings)) + "}"


def _frac(value: float) -> str:
    """A simple fraction as LaTeX (``\\tfrac{1}{2}``), else the decimal."""
    fraction = Fraction(float(value)).limit_denominator(64)
    if abs(float(fraction) - float(value)) > 1e-12:
        return _num(value, 4)
    if fraction.denominator == 1:
        return str(fraction.numerator)
    return f"\\tfrac{{{fraction.numerator}}}{{{fraction.denominator}}}"


def _frac_text(value: float) -> str:
    """``1/2`` for the drawings (plain text)."""
    fraction = Fraction(float(value)).limit_denominator(64)
    if abs(float(fraction) - float(value)) > 1e-12:
        return _num(value, 4)
    return str(fraction)


def _num(value: float, digits: int = 3) -> str:
    """A whole number without decimals, else rounded to ``digits`` places."""
    value = float(value)
    if value.is_integer():
        return str(int(value))
    return f"{value:.{digits}f}".rstrip("0").rstrip(".")


def _number(value: float) -> str:
    return _num(value, 2)


def _is_number(text: object) -> bool:
    try:
        return np.isfinite(float(text))
    except (TypeError, ValueError):
        return False
