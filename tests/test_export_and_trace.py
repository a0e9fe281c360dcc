"""The text export of a tree's rules and the trace of one example through it."""

from __future__ import annotations

import numpy as np
import pytest

from rankviz import RankingTree, load_sample
from rankviz.features import FeatureEncoder
from rankviz.label_ranking.metrics import cs, kendall_tau, lra, wrc
from rankviz.tree.export import export_text
from rankviz.tree.structure import ranking_text
from rankviz.tree.trace import trace_example


@pytest.fixture(scope="module")
def fitted():
    data = load_sample("metalearning")
    model = RankingTree(min_samples_leaf=5).fit(data.X, data.Y, label_names=data.label_names)
    return data, model, FeatureEncoder().fit(data.X).transform(data.X)


def test_text_export_has_two_lines_per_split_and_one_per_leaf(fitted):
    _, model, _ = fitted
    tree = model.tree_
    lines = export_text(model).splitlines()
    internal = np.flatnonzero(~tree.is_leaf)
    assert len(lines) == 2 * len(internal) + tree.n_leaves
    leaf_lines = [line for line in lines if "ranking: " in line]
    order, stack = [], [0]  # depth-first, the "yes" branch first, as the text is written
    while stack:
        node = stack.pop()
        order.append(node)
        if tree.children_left[node] >= 0:
            stack += [tree.children_right[node], tree.children_left[node]]
    for node, line in zip([n for n in order if tree.is_leaf[n]], leaf_lines, strict=True):
        assert f"ranking: {tree.ranking_text(node)}  [#{tree.node_ids[node]} n = {tree.n_samples[node]}," in line
        assert line.index("|---") == 4 * int(tree.depth[node])
    for node in internal:
        assert sum(line.endswith(f"--- {tree.test_text(node)}") for line in lines) >= 1


def test_text_export_of_a_cut_counts_what_it_leaves_out(fitted):
    _, model, _ = fitted
    tree = model.tree_
    nodes, leaves = tree.subtree_sizes()
    text = export_text(model, max_depth=1)
    for node in np.flatnonzero(~tree.is_leaf & (tree.depth == 1)):
        # brute force: the descendants of the node
        below, stack = [], [tree.children_left[node], tree.children_right[node]]
        while stack:
            child = stack.pop()
            below.append(child)
            if tree.children_left[child] >= 0:
                stack += [tree.children_left[child], tree.children_right[child]]
        assert nodes[node] == len(below) and leaves[node] == int(tree.is_leaf[below].sum())
        assert f"truncated branch: {len(below)} nodes, " in text


def test_a_traced_row_ends_in_the_leaf_apply_gives_and_is_scored_by_the_metrics(fitted):
    data, model, encoded = fitted
    tree = model.tree_
    leaves = tree.apply(encoded)
    for row in range(0, data.n_samples, 7):
        trace = trace_example(model, encoded[row], data.Y[row])
        assert trace.leaf == leaves[row] and trace.path[0] == 0
        assert all(tree.children_left[a] == b or tree.children_right[a] == b
                   for a, b in zip(trace.path[:-1], trace.path[1:]))
        predicted = tree.ranking[trace.leaf]
        for name, measure in (("CS", cs), ("WRC", wrc), ("LRA", lra), ("Kendall tau", kendall_tau)):
            assert trace.scores[name] == pytest.approx(measure(data.Y[row], predicted))


def test_ranking_text_orders_by_position_and_skips_missing_labels():
    assert ranking_text([2, 3, 1], ["a", "b", "c"]) == "c > a > b"
    assert ranking_text([2, np.nan, 1], ["a", "b", "c"]) == "c > a"
    assert ranking_text([1, 1, 2], ["a", "b", "c"], ", ") == "a, b, c"  # ties keep the label order
