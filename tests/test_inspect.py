"""The node inspector against explicit loops, the builder's choices and rule (6)."""

import numpy as np
import pandas as pd
import pytest

import rankviz
from rankviz import RankingTree
from rankviz.datasets.samples import list_samples
from rankviz.tree.node_inspection import CANDIDATE_COLUMNS, candidate_splits, inspect_node, node_mask
from rankviz.viz.figures.ranking_trees import rank_heatmap, threshold_curve
from reference import candidate_tests, mean_pairwise_spearman, random_problem


def fitted(X, Y, **params):
    """A fitted tree and the encoded training features."""
    model = RankingTree(**params).fit(X, Y)
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


def test_row_zero_prefers_the_earlier_attribute_on_equal_scores():
    # x1 and x2 (and the nominal c) separate the same rows: equal scores.
    X = pd.DataFrame({"x1": [1.0, 2, 3, 4, 5, 6], "c": list("aaabbb"), "x2": [6.0, 5, 4, 3, 2, 1]})
    Y = np.array([[1, 2, 3]] * 3 + [[3, 2, 1]] * 3)
    tree, Xe = fitted(X, Y, min_samples_leaf=1)
    table = inspect_node(tree, Xe, Y, 0).candidates
    assert list(table["condition"][:3]) == ["x1 <= 3.5", "c = a", "c = b"]
    assert tree.split_feature[0] == 0


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
