"""Teaching the two impurities of Xia, Zhang & Wang (2006): Fig. 1, §III's three ratings, any node.

Fig. 1 of Xia et al. is worked out for any ``a``, the three-ratings case of
their §III is checked for any counts, and the node table gives both
impurities of any node of the trees on the page. Every number shown comes
from the library (:mod:`rankviz.experiments.teaching`, which uses the
criteria the trees use), so the page teaches what the trees do. The
worked examples' numbers are kept for the session, across the pages.

References
----------
.. [1] F. Xia, W. Zhang and J. Wang, "An effective tree-based algorithm for
       ordinal regression", IEEE Intelligent Informatics Bulletin, vol. 7,
       no. 1, pp. 22-26, 2006.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

import streamlit as st

from ..experiments.teaching import (NodeLevels, figure1_splits, impurities_of_counts, is_number,
                                    node_impurities, rating_set, three_ratings_splits)
from ..viz.dot.teaching import figure1_to_dot, number_text

if TYPE_CHECKING:
    from ..tree.structure import Tree

__all__ = ["teaching_panel", "figure1_panel", "three_ratings_panel", "node_impurity_panel", "node_title"]

_DEFINITIONS = ("Gini $= 1 - \\sum_k p_k^2$ and ranking impurity "
                "$= \\sum_{i<j} (v_j - v_i) N_i N_j$ over the node's rows, $N_k$ of them at level "
                "$v_k$ with share $p_k$ (Definitions 1 and 2).")


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
        persist_state="session",
        help="Any positive whole number: the comparison holds for every a."))
    table = figure1_splits(a)
    parent = impurities_of_counts([[a] * 4]).iloc[0]
    parent_gini, parent_rank = float(parent["gini"]), float(parent["ranking_impurity"])
    columns = st.columns(2, gap="large")
    for column, (_, split), coefficient in zip(columns, table.iterrows(), (1, 2)):
        with column:
            left, right = split["left"], split["right"]
            st.markdown(f"**{split['split'].capitalize()}: {rating_set(left)} | {rating_set(right)}**")
            st.graphviz_chart(figure1_to_dot(a, left, right, split, parent_gini, parent_rank),
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
                f"{'' if gap == 1 else gap}a^2 = {number_text(split['rank_left'])}$; both children "
                f"together ${2 * gap}a^2 = {number_text(split['rank_sum'])}$; gain (eq. 1, unweighted) "
                f"$10a^2 - {2 * gap}a^2 = {10 - 2 * gap}a^2 = {number_text(split['rank_gain'])}$.")
    st.markdown(
        f"The parent has Gini ${_frac(parent_gini)}$ and ranking impurity "
        f"$10a^2 = {number_text(parent_rank)}$ (pairs of ratings 1 apart: 3, 2 apart: 2, 3 apart: 1, "
        "each $a \\cdot a$ pairs of rows). **Gini cannot tell the two splits apart**: both leave "
        f"weighted Gini ${_frac(table['weighted_gini'][0])}$. **Ranking impurity prefers the "
        f"left split** ({number_text(table['rank_sum'][0])} < {number_text(table['rank_sum'][1])} left in the "
        "children): it keeps close ratings together, because a pair of rows adds the distance "
        "between their ratings.")


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
                                       key=f"{key}_n{r}", persist_state="session"))
                  for r, col in zip((1, 2, 3), cols)]
        if sum(c > 0 for c in counts) < 2:
            st.info("Give at least two ratings some rows: a node of one rating has nothing to split.")
            return
        table = three_ratings_splits(counts)
        for column in ("ranking impurity picks", "Gini picks"):
            table[column] = table[column].map({True: "✓", False: ""})
        st.dataframe(table, hide_index=True, width="stretch")


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
    table, gains = node_impurities(levels, node)
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
        f"- **Gini, weighted:** ${number_text(gini[0], 4)} - \\tfrac{{{number_text(n_left)}}}{{{number_text(n)}}}"
        f"\\cdot {number_text(gini[1], 4)} - \\tfrac{{{number_text(n_right)}}}{{{number_text(n)}}}\\cdot "
        f"{number_text(gini[2], 4)} = {number_text(gains['gini_gain'], 4)}$\n"
        f"- **Ranking impurity, unweighted (eq. 1):** ${number_text(rank[0])} - {number_text(rank[1])} - "
        f"{number_text(rank[2])} = {number_text(gains['rank_gain'])}$")
    st.caption(f"The {name} tree chose this split. {_DEFINITIONS}")


def node_title(tree: Tree, node: int) -> str:
    """``#3 · x1 <= 0.27 (n = 268)`` or ``#5 · leaf: rank 2 (n = 40)``."""
    if not tree.is_leaf[node]:
        what = tree.test_text(node)
    elif tree.is_ordinal:
        assert tree.class_names is not None  # an ordinal tree names its levels (OrdinalTree)
        level = tree.class_names[int(tree.predicted_level[node])]
        what = f"leaf: {'rank ' + level if is_number(level) else level}"
    else:
        what = f"leaf: {tree.ranking_text(node)}"
    if len(what) > 50:
        what = what[:47] + "…"
    root = "root · " if node == 0 else ""
    return f"#{tree.node_ids[node]} · {root}{what} (n = {int(tree.n_samples[node])})"


# -- formatting ----------------------------------------------------------------


def _frac(value: float) -> str:
    """A simple fraction as LaTeX (``\\tfrac{1}{2}``), else the decimal."""
    fraction = Fraction(float(value)).limit_denominator(64)
    if abs(float(fraction) - float(value)) > 1e-12:
        return number_text(value, 4)
    if fraction.denominator == 1:
        return str(fraction.numerator)
    return f"\\tfrac{{{fraction.numerator}}}{{{fraction.denominator}}}"


