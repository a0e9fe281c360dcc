"""The node inspector against explicit loops, the builder's choices and rule (6)."""

import re

import numpy as np
import pandas as pd
import pytest

import rankviz
from rankviz import RankingTree
from rankviz.datasets.samples import list_samples
from rankviz.tree.node_inspection import (CANDIDATE_COLUMNS, candidate_splits, inspect_node, leaf_reason, node_mask,
                                         ordered_rows)
import rankviz.label_ranking.metrics
from rankviz.viz.figures.ranking_trees import rank_heatmap, threshold_curve
from reference import candidate_tests, mean_pairwise_spearman, random_problem


def fitted(X, Y, **params):
    """A fitted tree (the mean-rank rule in its nodes, as the inspector explains) and the encoded features."""
    model = RankingTree(consensus="aggregate", **params).fit(X, Y)
    return model.tree_, model.encoder_.transform(X)


def brute_force_candidates(X, Y, nominal, rows, min_samples_leaf):
    """{(feature, threshold): (n_meet, S_meet, n_rest, S_rest, S_split)} by explicit loops."""
    X, Y = X[rows], Y[rows]
    out = {}
    for f, threshold, meet in candidate_tests(X, nominal, min_samples_leaf):
        n_meet, n_rest = meet.sum(), (~meet).sum()
        s_meet, s_rest = mean_pairwise_spearman(Y[meet]), mean_pairwise_spearman(Y[~meet])
        out[f, threshold] = (n_meet, s_meet, n_rest, s_rest, (n_meet * s_meet + n_rest * s_rest) / len(Y))
    return out


def splittable_nodes(tree, min_samples_leaf):
    """Nodes the builder searched: big enough and not pure (no max_depth here)."""
    return np.flatnonzero((tree.n_samples >= max(2, 2 * min_samples_leaf))
                          & (tree.similarity < 1 - 1e-12))


# -- (a) the numbers, against explicit loops ----------------------------------

@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("min_samples_leaf", [1, 3])
def test_candidate_table_matches_brute_force(seed, min_samples_leaf):
    X, Y = random_problem(seed, n=36, ties=seed % 2 == 1)
    tree, Xe = fitted(X, Y, gamma=np.inf, min_samples_leaf=min_samples_leaf, max_depth=3)
    nodes = [0, *np.flatnonzero(tree.depth == 1), *np.flatnonzero(tree.depth == 2)[:2]]
    for node in nodes:
        rows = node_mask(tree, Xe, node)
        table = candidate_splits(Xe, tree.nominal_features, Y, rows, "mean_spearman",
                                 min_samples_leaf=min_samples_leaf,
                                 feature_names=tree.feature_names, categories=tree.categories)
        assert list(table.columns) == CANDIDATE_COLUMNS
        reference = brute_force_candidates(Xe, Y, tree.nominal_features, rows, min_samples_leaf)
        got = {(f, t): row for f, t, row in zip(table["feature"], table["threshold"],
                                                table.itertuples(index=False))}
        assert set(got) == set(reference), f"node {node}"
        for key, (n_meet, s_meet, n_rest, s_rest, score) in reference.items():
            row = got[key]
            assert (row.n_meet, row.n_rest) == (n_meet, n_rest)
            assert row.similarity_meet == pytest.approx(s_meet, abs=1e-9)
            assert row.similarity_rest == pytest.approx(s_rest, abs=1e-9)
            assert row.score == pytest.approx(score, abs=1e-9)
            assert row.kind == ("nominal" if tree.nominal_features[key[0]] else "numeric")
        # Best first, and the same table from an index array as from a mask.
        assert (np.diff(table["score"]) <= 1e-12).all()
        by_index = candidate_splits(Xe, tree.nominal_features, Y, np.flatnonzero(rows),
                                    "mean_spearman", min_samples_leaf=min_samples_leaf,
                                    feature_names=tree.feature_names, categories=tree.categories)
        pd.testing.assert_frame_equal(table, by_index)


def test_conditions_are_the_trees_test_texts():
    X, Y = random_problem(2, n=60)
    tree, Xe = fitted(X, Y, gamma=1.0)
    for node in np.flatnonzero(~tree.is_leaf):
        inspection = inspect_node(tree, Xe, Y, node)
        chosen = inspection.candidates.iloc[inspection.chosen]
        assert chosen["condition"] == tree.test_text(node)
        assert chosen["negated"] == tree.test_text(node, negate=True)


def test_no_candidate_gives_an_empty_table_with_the_columns():
    X = pd.DataFrame({"x": [1.0, 1.0, 1.0, 1.0], "c": ["a", "a", "a", "a"]})
    Y = np.array([[1, 2, 3], [3, 2, 1], [1, 3, 2], [2, 1, 3]])
    tree, Xe = fitted(X, Y)
    inspection = inspect_node(tree, Xe, Y, 0, gamma=1.5)
    assert inspection.candidates.empty
    assert list(inspection.candidates.columns) == CANDIDATE_COLUMNS + ["accepted"]
    assert inspection.chosen is None and inspection.breakpoint == np.inf
    assert not inspection.splits and np.isnan(inspection.split_side())


# -- (b) row 0 is the builder's choice ----------------------------------------

def assert_row_zero_is_the_builders_split(tree, Xe, Y, min_samples_leaf):
    searched = set(splittable_nodes(tree, min_samples_leaf))
    for node in range(tree.node_count):
        inspection = inspect_node(tree, Xe, Y, node, min_samples_leaf=min_samples_leaf)
        assert inspection.n_samples == tree.n_samples[node]
        assert inspection.similarity == pytest.approx(tree.similarity[node], abs=1e-9)
        np.testing.assert_allclose(inspection.mean_rank, tree.mean_rank[node])
        np.testing.assert_array_equal(inspection.ranking, tree.ranking[node])
        if tree.split_feature[node] >= 0:
            best = inspection.candidates.iloc[0]
            assert best["feature"] == tree.split_feature[node], f"node {node}"
            assert best["threshold"] == tree.split_threshold[node], f"node {node}"
            assert best["score"] == pytest.approx(tree.split_score[node], abs=1e-9)
            assert inspection.chosen == 0
        elif node in searched:  # searched, and nothing to split on
            assert inspection.candidates.empty
            assert inspection.chosen is None


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("min_samples_leaf", [1, 2, 3])
def test_row_zero_is_the_builders_split_on_random_problems(seed, min_samples_leaf):
    X, Y = random_problem(seed, n=50, ties=seed % 2 == 1)
    for gamma in (0.995, np.inf):  # leaves stopped by rule (6), and the maximal tree
        tree, Xe = fitted(X, Y, gamma=gamma, min_samples_leaf=min_samples_leaf)
        assert_row_zero_is_the_builders_split(tree, Xe, Y, min_samples_leaf)


def test_row_zero_prefers_the_widest_margin_then_the_earlier_attribute_on_equal_scores():
    # x1 and x2 (and the nominal c) separate the same rows: equal scores, and the same margin for
    # x1 and x2 (a gap of 1 in a range of 5); a nominal test has none.
    X = pd.DataFrame({"x1": [1.0, 2, 3, 4, 5, 6], "c": list("aaabbb"), "x2": [6.0, 5, 4, 3, 2, 1]})
    Y = np.array([[1, 2, 3]] * 3 + [[3, 2, 1]] * 3)
    tree, Xe = fitted(X, Y, min_samples_leaf=1)
    table = inspect_node(tree, Xe, Y, 0).candidates
    assert list(table["condition"][:4]) == ["x1 <= 3.5", "x2 <= 3.5", "c = a", "c = b"]
    np.testing.assert_allclose(table["margin"][:4], [0.2, 0.2, 0.0, 0.0])
    assert tree.split_feature[0] == 0
    # x3 parts the same rows across a gap of 7 in a range of 11: the widest margin wins the tie.
    X["x3"] = [1.0, 2, 3, 10, 11, 12]
    tree, Xe = fitted(X, Y, min_samples_leaf=1)
    table = inspect_node(tree, Xe, Y, 0).candidates
    assert table["condition"][0] == "x3 <= 6.5" and table["margin"][0] == pytest.approx(7 / 11)
    assert tree.split_feature[0] == 3 and tree.split_threshold[0] == 6.5


@pytest.mark.parametrize("name", list_samples("label_ranking"))
def test_row_zero_is_the_builders_split_on_the_samples(name):
    data = rankviz.load_sample(name)
    tree, Xe = fitted(data.X, data.Y)
    assert_row_zero_is_the_builders_split(tree, Xe, data.Y, 2)


# -- (c) the toy example after Rebelo et al. ----------------------------------------------

def test_toy_sample_root_splits_on_A1_equals_c():
    data = rankviz.load_sample("toy")
    tree, Xe = fitted(data.X, data.Y)
    root = inspect_node(tree, Xe, data.Y, 0, gamma=0.995)
    table = root.candidates
    # As Table 2 of Rebelo et al.: one test per value of A1 and thresholds of A2.
    assert sorted(table.loc[table["attribute"] == "A1", "condition"]) == ["A1 = a", "A1 = b", "A1 = c"]
    assert (table.loc[table["attribute"] == "A2", "kind"] == "numeric").all()
    assert table["condition"][0] == "A1 = c" and table["negated"][0] == "A1 ≠ c"
    assert table["n_meet"][0] == 5 and table["n_rest"][0] == 11
    assert table["similarity_meet"][0] > table["similarity_rest"][0]
    assert root.splits
    # The sidecar: among the other rows, A2 < 5 (a threshold between 4.4 and 5.6).
    rest = inspect_node(tree, Xe, data.Y, tree.children_right[0]).candidates.iloc[0]
    assert rest["attribute"] == "A2" and 4.4 < rest["threshold"] < 5.6


# -- (d) node_mask ----------------------------------------------------------

@pytest.mark.parametrize("seed", range(3))
def test_node_mask_agrees_with_apply_and_children_partition_the_parent(seed):
    X, Y = random_problem(seed, n=60)
    tree, Xe = fitted(X, Y, gamma=1.0, min_samples_leaf=1)
    # Rows other than the training ones too, including an unseen category (-1).
    other, _ = random_problem(seed + 100, n=40)
    other.loc[:4, "nom"] = "zzz"
    model = RankingTree(gamma=1.0, min_samples_leaf=1).fit(X, Y)
    for rows in (Xe, model.encoder_.transform(other)):
        leaf_of_row = tree.apply(rows)
        masks = [node_mask(tree, rows, node) for node in range(tree.node_count)]
        visited = np.zeros((len(rows), tree.node_count), dtype=bool)
        for i, x in enumerate(rows):  # one row at a time, test by test
            node = 0
            visited[i, node] = True
            while not tree.is_leaf[node]:
                f, t = tree.feature[node], tree.threshold[node]
                meets = x[f] == t if tree.categories[f] is not None else x[f] <= t
                node = tree.children_left[node] if meets else tree.children_right[node]
                visited[i, node] = True
        np.testing.assert_array_equal(np.column_stack(masks), visited)
        for node in range(tree.node_count):
            if tree.is_leaf[node]:
                np.testing.assert_array_equal(masks[node], leaf_of_row == node)
            else:
                left, right = masks[tree.children_left[node]], masks[tree.children_right[node]]
                assert not (left & right).any()
                np.testing.assert_array_equal(left | right, masks[node])


# -- (e) rule (6) -----------------------------------------------------------

@pytest.mark.parametrize("seed", range(3))
def test_accepted_is_rule_6_by_hand(seed):
    X, Y = random_problem(seed, n=40)
    tree, Xe = fitted(X, Y, gamma=np.inf, max_depth=2)
    for node in np.flatnonzero(tree.depth <= 1):
        s_parent = mean_pairwise_spearman(Y[node_mask(tree, Xe, node)])
        for gamma in (0.9, 0.98, 0.995, 1.0, 1.05):
            inspection = inspect_node(tree, Xe, Y, node, gamma=gamma)
            table = inspection.candidates
            lhs, rhs = 1 + s_parent, gamma * (1 + table["score"].to_numpy())
            away = np.abs(lhs - rhs) > 1e-9
            np.testing.assert_array_equal(table["accepted"].to_numpy()[away], (lhs < rhs)[away])
            np.testing.assert_allclose(table["gamma_breakpoint"], lhs / (1 + table["score"]), rtol=1e-9)
            # The inspection's arithmetic is the best row's.
            assert inspection.parent_side == pytest.approx(lhs, abs=1e-9)
            assert inspection.split_side() == pytest.approx(rhs[0], abs=1e-9)
            assert inspection.split_side(2.0) == pytest.approx(2 * (1 + table["score"][0]))
            assert inspection.breakpoint == table["gamma_breakpoint"][0]
            assert inspection.splits == bool(table["accepted"][0])
            if away[0]:
                assert inspection.splits == (lhs < rhs[0])


@pytest.mark.parametrize("gamma", [0.98, 0.995, 1.0, 1.02])
def test_splits_says_what_the_tree_did(gamma):
    X, Y = random_problem(4, n=80)
    tree, Xe = fitted(X, Y, gamma=gamma)
    searched = splittable_nodes(tree, 2)
    for node in range(tree.node_count):
        inspection = inspect_node(tree, Xe, Y, node, gamma=gamma)
        if not tree.is_leaf[node]:
            assert inspection.splits
        elif node in searched and tree.split_feature[node] >= 0:
            assert not inspection.splits  # stopped by rule (6)


def test_splits_needs_a_gamma():
    X, Y = random_problem(0)
    tree, Xe = fitted(X, Y)
    inspection = inspect_node(tree, Xe, Y, 0)
    assert "accepted" not in inspection.candidates
    with pytest.raises(ValueError, match="γ"):
        inspection.splits


# -- (f) the figures ----------------------------------------------------------

def trace(fig, name):
    return next(t for t in fig.data if t.name == name)


def test_threshold_curve_draws_every_threshold_and_the_chosen_one():
    data = rankviz.load_sample("toy")
    tree, Xe = fitted(data.X, data.Y)
    node = tree.children_right[0]  # split on the numeric A2
    inspection = inspect_node(tree, Xe, data.Y, node, gamma=0.995)
    table = inspection.candidates
    numeric = table[table["attribute"] == "A2"].sort_values("threshold")
    fig = threshold_curve(table, 1, chosen_threshold=tree.threshold[node],
                          similarity_parent=inspection.similarity, gamma=0.995,
                          similarity_label=tree.similarity_label)
    score = trace(fig, "S_split (weighted mean)")
    np.testing.assert_array_equal(score.x, numeric["threshold"])
    np.testing.assert_array_equal(score.y, numeric["score"])
    vertical = [s for s in fig.layout.shapes if s.x0 == s.x1 and s.xref == "x"]
    assert [s.x0 for s in vertical] == [tree.threshold[node]]
    horizontal = sorted(s.y0 for s in fig.layout.shapes if s.yref == "y")
    needed = (1 + inspection.similarity) / 0.995 - 1
    assert horizontal == pytest.approx(sorted([inspection.similarity, needed]))
    assert fig.layout.xaxis.title.text == "A2 (threshold)"
    assert fig.layout.yaxis.title.text == tree.similarity_label
    assert "A2" in fig.layout.title.text
    # By name, the same curve; a nominal attribute has no thresholds to draw.
    np.testing.assert_array_equal(trace(threshold_curve(table, "A2"), "S_split (weighted mean)").x,
                                  numeric["threshold"])
    assert len(trace(threshold_curve(table, "A1"), "S_split (weighted mean)").x) == 0


def test_rank_heatmap_shows_the_nodes_rankings_in_predicted_order():
    data = rankviz.load_sample("toy")
    tree, Xe = fitted(data.X, data.Y)
    node = tree.children_left[0]
    inspection = inspect_node(tree, Xe, data.Y, node)
    order = np.argsort(tree.ranking[node])
    Y_node = data.Y[inspection.rows].copy()
    Y_node[0, 1] = np.nan  # a missing label stays a blank cell
    fig = rank_heatmap(Y_node, tree.label_names, inspection.ranking, inspection.mean_rank,
                       example_ids=inspection.rows)
    examples, means = fig.data
    np.testing.assert_array_equal(np.asarray(examples.z, dtype=float), Y_node[:, order])
    assert list(examples.x) == [tree.label_names[j] for j in order]
    assert list(examples.y) == [str(r) for r in inspection.rows]
    np.testing.assert_allclose(np.asarray(means.z, dtype=float)[0], tree.mean_rank[node][order])
    assert [text.split("→ ")[1] for text in means.text[0]] == ["1", "2", "3", "4"]
    assert fig.layout.coloraxis.colorbar.title.text == "rank position (1 = best)"
    assert fig.layout.title.text == f"Rankings of the {tree.n_samples[node]} examples in the node"
    # Many examples: rows get thin, the figure does not grow without bound.
    many = rank_heatmap(np.tile(data.Y, (20, 1)), tree.label_names, tree.ranking[0], tree.mean_rank[0])
    assert many.layout.height <= 900


# -- why a node is a leaf -------------------------------------------------------------

def root_reason(X, Y, *, max_depth=None, **params):
    """leaf_reason of the root of a tree grown on X, Y."""
    tree, Xe = fitted(X, Y, max_depth=max_depth, **params)
    inspection = inspect_node(tree, Xe, Y, 0, min_samples_leaf=params.get("min_samples_leaf", 2),
                              gamma=params.get("gamma", 0.995))
    return leaf_reason(tree, inspection, max_depth=max_depth)


def test_each_reason_a_root_stays_a_leaf_is_told():
    toy = rankviz.load_sample("toy")
    assert root_reason(toy.X, toy.Y, gamma=0.6) == "rule_6"  # A1 = c is made only above γ = 1.07 / 1.60
    assert root_reason(toy.X, toy.Y, gamma=0.995) is None  # split
    assert root_reason(toy.X, toy.Y, min_samples_leaf=9) == "min_samples_leaf"  # 16 rows < 2 × 9
    same = np.tile([[1.0, 2.0, 3.0]], (6, 1))
    assert root_reason(np.arange(6.0)[:, None], same) == "pure"
    constant = np.zeros((6, 1))  # no attribute tells the rows apart: no test at all
    assert root_reason(constant, np.array([[1, 2, 3], [3, 2, 1]] * 3, dtype=float)) == "no_valid_split"
    # The Mallows criterion needs 2|Y| = 8 label occurrences; three rows of two labels hold 6.
    partial = np.array([[1, 2, np.nan, np.nan], [2, 1, np.nan, np.nan], [np.nan, np.nan, 1, 2]])
    assert root_reason(np.arange(3.0)[:, None], partial, criterion="mallows", min_samples_leaf=1) == "criterion"


def test_leaves_at_the_depth_limit_are_stopped_by_it():
    data = rankviz.load_sample("metalearning")
    tree, Xe = fitted(data.X, data.Y, min_samples_leaf=5, max_depth=2)
    reasons = {}
    for node in np.flatnonzero(tree.is_leaf):
        inspection = inspect_node(tree, Xe, data.Y, node, min_samples_leaf=5, gamma=0.995)
        reasons[node] = leaf_reason(tree, inspection, max_depth=2)
    assert {reasons[node] for node in reasons if tree.depth[node] == 2} == {"max_depth"}
    assert all(reasons[node] != "max_depth" for node in reasons if tree.depth[node] < 2)


@pytest.mark.parametrize("criterion", ["mean_spearman", "ranking_impurity", "mallows"])
@pytest.mark.parametrize("gamma", [0.97, 1.0])
def test_every_leaf_has_the_reason_the_builder_had(criterion, gamma):
    """Over whole trees: a reason for every leaf, none for a split node, each one true of the node."""
    data = rankviz.load_sample("wine_nb")
    tree, Xe = fitted(data.X, data.Y, criterion=criterion, gamma=gamma, min_samples_leaf=4, max_depth=4)
    for node in range(tree.node_count):
        inspection = inspect_node(tree, Xe, data.Y, node, min_samples_leaf=4, gamma=gamma)
        reason = leaf_reason(tree, inspection, max_depth=4)
        assert (reason is None) == (not tree.is_leaf[node])
        if reason == "rule_6":
            assert not inspection.splits and inspection.best is not None
        elif reason == "min_samples_leaf":
            assert tree.n_samples[node] < 8
        elif reason == "max_depth":
            assert tree.depth[node] == 4


def test_a_reason_needs_the_settings_of_the_fit():
    toy = rankviz.load_sample("toy")
    tree, Xe = fitted(toy.X, toy.Y, gamma=0.995, max_depth=1, min_samples_leaf=2)
    leaf = int(tree.children_right[0])  # its split is made at γ = 0.995 but for the depth limit
    inspection = inspect_node(tree, Xe, toy.Y, leaf, min_samples_leaf=2, gamma=0.995)
    assert leaf_reason(tree, inspection, max_depth=1) == "max_depth"
    with pytest.raises(ValueError, match="max_depth=None"):
        leaf_reason(tree, inspection)  # told no depth limit, nothing explains the leaf


# -- a node's rows in an order that shows its structure ------------------------------

def test_rows_come_by_leaf_from_left_to_right_then_closest_to_the_nodes_ranking():
    data = rankviz.load_sample("metalearning")
    tree, Xe = fitted(data.X, data.Y, min_samples_leaf=10)
    inspection = inspect_node(tree, Xe, data.Y, 0, min_samples_leaf=10, gamma=0.995)
    listed = ordered_rows(tree, Xe, data.Y, inspection)
    assert not listed.thinned and sorted(listed.rows) == sorted(inspection.rows)
    np.testing.assert_array_equal(listed.leaves, tree.apply(Xe[listed.rows]))
    # Leaves in the order a drawing shows them: depth first, the "yes" branch first.
    drawn, stack = [], [0]
    while stack:
        node = stack.pop()
        if tree.is_leaf[node]:
            drawn.append(node)
        else:
            stack += [tree.children_right[node], tree.children_left[node]]
    runs = [leaf for k, leaf in enumerate(listed.leaves) if k == 0 or leaf != listed.leaves[k - 1]]
    assert runs == [leaf for leaf in drawn if leaf in set(listed.leaves)]  # each leaf one band, in order
    expected = 1 - rankviz.label_ranking.metrics.cs(data.Y[listed.rows],
                                                    np.tile(inspection.ranking, (len(listed.rows), 1)))
    np.testing.assert_allclose(listed.distance, expected)
    for leaf in runs:
        assert np.all(np.diff(listed.distance[listed.leaves == leaf]) >= 0)


def test_many_rows_are_thinned_evenly_and_the_same_way_every_time():
    data = rankviz.load_sample("metalearning")
    tree, Xe = fitted(data.X, data.Y, min_samples_leaf=10)
    inspection = inspect_node(tree, Xe, data.Y, 0, min_samples_leaf=10, gamma=0.995)
    full = ordered_rows(tree, Xe, data.Y, inspection)
    thin = ordered_rows(tree, Xe, data.Y, inspection, max_rows=40)
    assert thin.thinned and len(thin.rows) == 40 and thin.n_rows == 153
    positions = [list(full.rows).index(row) for row in thin.rows]
    assert positions[0] == 0 and positions[-1] == 152 and positions == sorted(positions)
    assert max(np.diff(positions)) <= 5  # evenly spaced: about every 153/40th row
    np.testing.assert_array_equal(thin.rows, ordered_rows(tree, Xe, data.Y, inspection, max_rows=40).rows)
    # Every leaf with at least 153/40 rows keeps some.
    counts = {leaf: (full.leaves == leaf).sum() for leaf in set(full.leaves)}
    assert {leaf for leaf, n in counts.items() if n >= 4} <= set(thin.leaves)


def band_lines(fig):
    """Heights in the rows' axis domain (0 bottom, 1 top) of the full-width lines between bands."""
    lines = []
    for shape in fig.layout.shapes:
        assert shape.type == "path" and shape.xref == "x domain" and shape.yref == "y domain"
        lines += [float(y) for y in re.findall(r"M0,([-0-9.e]+) H1", shape.path)]
    return lines


def test_the_heat_map_draws_rows_in_the_given_order_with_leaf_bands():
    data = rankviz.load_sample("metalearning")
    tree, Xe = fitted(data.X, data.Y, min_samples_leaf=10)
    inspection = inspect_node(tree, Xe, data.Y, 0, min_samples_leaf=10, gamma=0.995)
    listed = ordered_rows(tree, Xe, data.Y, inspection, max_rows=100)
    groups = [f"#{tree.node_ids[leaf]}" for leaf in listed.leaves]
    fig = rank_heatmap(data.Y[listed.rows], tree.label_names, inspection.ranking, inspection.mean_rank,
                       example_ids=[str(r + 1) for r in listed.rows], groups=groups, n_examples=listed.n_rows)
    examples = fig.data[0]
    assert list(examples.y) == [str(r + 1) for r in listed.rows]
    assert [row[0] for row in examples.customdata] == groups
    assert "example %{y} (leaf %{customdata})" in examples.hovertemplate
    bands = len([k for k in range(len(groups)) if k == 0 or groups[k] != groups[k - 1]])
    assert len(band_lines(fig)) == bands - 1  # one line between two bands
    assert {a.text for a in fig.layout.annotations} == set(groups)
    assert fig.layout.title.text == "Rankings of 100 of the 153 examples in the node (evenly spaced)"
    with pytest.raises(ValueError, match="groups must name the group of each of the 100 rows"):
        rank_heatmap(data.Y[listed.rows], tree.label_names, inspection.ranking, inspection.mean_rank,
                     groups=groups[:-1])


def test_the_heat_map_draws_one_line_per_band_change_at_its_row_on_many_bands():
    # 600 rows in 300 bands of two: the lines sit between rows 2k-1 and 2k of the reversed
    # axis, the earlier shapes of the figure are kept, and no names are written (too many).
    n = 600
    groups = [f"#{k // 2}" for k in range(n)]
    Y = np.tile(np.arange(1, 4), (n, 1))
    fig = rank_heatmap(Y, ["a", "b", "c"], np.array([1, 2, 3]), np.array([1.0, 2.0, 3.0]), groups=groups)
    starts = list(range(2, n, 2))
    np.testing.assert_allclose(band_lines(fig), [1 - s / n for s in starts], atol=1e-6)
    assert len(fig.layout.shapes) == 1  # one path: plotly validates each shape on its own
    assert not [a for a in fig.layout.annotations if a.text and a.text.startswith("#")]
