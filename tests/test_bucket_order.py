"""The bucket order of Alfaro, Aledo & Gámez (BPA-LIA-MP2): worked examples, invariants, and the trees that predict it."""

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy.stats import rankdata

from rankviz import RankingTree
from rankviz.label_ranking import bucket_order as bucket_order_module
from rankviz.label_ranking.bucket_order import bucket_order, bucket_order_from_counts, has_ties, is_partial, precedence_counts
from rankviz.label_ranking.metrics import tau_x


# Worked by hand (precedence matrix, indecision, pivots and both stages), and confirmed with the
# reference implementation of Alfaro et al. (scikit-lr), which gives the dense buckets in the comments.
def test_four_rankings_of_four_labels():
    Y = [[2, 1, 3, 3], [2, 1, 3, 3], [2, 1, 3, 2], [2, 1, 2, 1]]
    # pivot b (least indecision); then a with d (precedence 0.625), c after them: b | a d | c, dense [2, 1, 3, 2]
    np.testing.assert_array_equal(bucket_order(Y), [2.5, 1.0, 4.0, 2.5])


def test_the_second_stage_and_beta():
    Y = [[1, 1, 2, 3], [1, 2, 2, 1], [1, 1, 2, 2], [1, 2, 3, 4], [1, 2, 2, 1]]
    # pivot c, d joins it; b (0.2 against c) goes before in the first stage and joins the grown bucket
    # in the second (mean 0.3 >= 0.25): a | b c d, dense [1, 2, 2, 2] ...
    np.testing.assert_array_equal(bucket_order(Y), [1.0, 3.0, 3.0, 3.0])
    # ... but with beta = 0.1 (ties in [0.4, 0.6]) b stays before: a | b | c d, dense [1, 2, 3, 3]
    np.testing.assert_array_equal(bucket_order(Y, beta=0.1), [1.0, 2.0, 3.5, 3.5])


def test_weights_count_as_repeated_rankings():
    Y = np.array([[1, 2, 2], [1, 1, 2], [2, 1, 3]])
    # w = (2, 1, 1): precedence of a over b 0.625 (a tie), c after both: dense [1, 1, 2]
    np.testing.assert_array_equal(bucket_order(Y, [2, 1, 1]), [1.5, 1.5, 3.0])
    np.testing.assert_array_equal(bucket_order(Y, [2, 1, 1]), bucket_order(Y[[0, 0, 1, 2]]))


@pytest.mark.parametrize("n_labels", [2, 3, 4, 5])
def test_identical_rankings_are_their_own_consensus(n_labels):
    for ranking in itertools.permutations(range(1, n_labels + 1)):
        np.testing.assert_array_equal(bucket_order([ranking] * 3), ranking)
    tied = np.r_[1.0, np.full(n_labels - 1, 2.0)]  # a > everything else, tied
    np.testing.assert_array_equal(bucket_order([tied, tied]), np.r_[1.0, np.full(n_labels - 1, (n_labels + 2) / 2)])


def test_beta_one_half_ties_everything_and_the_counts_are_the_rankings_pair_orders():
    rng = np.random.default_rng(0)
    Y = np.argsort(rng.random((6, 5)), axis=1) + 1.0
    Y[0, 1] = Y[0, 2]  # a tie
    Y[1, 4] = np.nan  # a missing label: in no count
    np.testing.assert_array_equal(bucket_order(Y, beta=0.5), np.full(5, 3.0))
    before, tied = precedence_counts(Y)
    for i, j in itertools.permutations(range(5), 2):
        held = ~np.isnan(Y[:, i]) & ~np.isnan(Y[:, j])
        assert before[i, j] == np.sum(held & (Y[:, i] < Y[:, j]))
        assert tied[i, j] == np.sum(held & (Y[:, i] == Y[:, j]))
    with pytest.raises(ValueError, match="beta"):
        bucket_order_from_counts(before, tied, beta=0.6)
    assert has_ties(Y) and not has_ties(np.argsort(rng.random((4, 5)), axis=1))


@pytest.mark.parametrize("beta", [0.0, 0.1, 0.25])
def test_the_compiled_orders_of_many_sets_equal_the_orders_of_each_set(beta):
    """Counts in quarters put precedences on the rounding thresholds (0.25, 0.75) and give labels equal
    indecision: the pivot and the ties hang on the last bit, so the compiled precedences must be the NumPy
    ones to the bit."""
    bucket_order_module.KERNELS.build()
    rng = np.random.default_rng(1)
    for n_labels in (1, 2, 3, 5, 8):
        before = rng.integers(0, 4, size=(200, n_labels, n_labels)) * rng.choice([1.0, 0.5, 0.25], size=(200, 1, 1))
        tied = rng.integers(0, 3, size=(200, n_labels, n_labels)).astype(float)
        tied += np.swapaxes(tied, 1, 2)
        many = bucket_order_module.bucket_orders_from_counts(before, tied, beta)
        for k in range(200):
            np.testing.assert_array_equal(many[k], bucket_order_from_counts(before[k], tied[k], beta))


def order_of_pair_counts(ahead, tie, behind, beta):
    """One set's bucket order from its counts per pair, by the tables of :func:`bucket_order_from_counts`."""
    n_labels = bucket_order_module.labels_of_pairs(len(ahead))
    first, second = np.triu_indices(n_labels, k=1)
    before, tied = np.zeros((n_labels, n_labels)), np.zeros((n_labels, n_labels))
    before[first, second], before[second, first] = ahead, behind
    tied[first, second] = tied[second, first] = tie
    return bucket_order_from_counts(before, tied, beta)


@pytest.mark.parametrize("beta", [0.0, 0.1, 0.25])
def test_the_orders_from_pair_counts_equal_the_orders_of_their_tables(beta):
    bucket_order_module.KERNELS.build()
    rng = np.random.default_rng(2)
    for n_labels in (2, 3, 5, 8, 12):
        n_pairs = n_labels * (n_labels - 1) // 2
        ahead, behind = (rng.integers(0, 4, size=(150, n_pairs)) * rng.choice([1.0, 0.5, 0.25], size=(150, 1))
                         for _ in range(2))
        tie = rng.integers(0, 3, size=(150, n_pairs)).astype(float)
        many = bucket_order_module.bucket_orders_from_pair_counts(ahead, tie, behind, beta)
        for k in range(150):
            np.testing.assert_array_equal(many[k], order_of_pair_counts(ahead[k], tie[k], behind[k], beta))
    with pytest.raises(ValueError, match="one column per pair"):
        bucket_order_module.bucket_orders_from_pair_counts(np.zeros((2, 4)), np.zeros((2, 4)), np.zeros((2, 4)))


@pytest.mark.parametrize("beta", [0.0, 0.1, 0.25, 0.4, 0.5])
def test_sets_of_alike_rankings_are_read_off_as_the_algorithm_orders_them(beta):
    """The compiled orders read a set whose rankings all order every pair alike (a maximal tree's leaf) off its
    counts; at β = 0 and 0.5 the thresholds meet the precedences and the algorithm must run. Sets one count
    away from alike, and with a label missing, must run it too."""
    bucket_order_module.KERNELS.build()
    rng = np.random.default_rng(3)
    for n_labels in (2, 3, 5, 9):
        first, second = np.triu_indices(n_labels, k=1)
        rankings = rng.integers(1, n_labels + 1, size=(120, n_labels)).astype(float)  # weak orders, ties common
        weights = rng.choice([1.0, 2.0, 0.25, 7.5], size=(120, 1))
        relation = np.stack([rankings[:, first] < rankings[:, second], rankings[:, first] == rankings[:, second],
                             rankings[:, first] > rankings[:, second]]) * weights  # ahead, tie, behind
        relation[:, 80:100, 0] = np.roll(relation[:, 80:100, 0], 1, axis=0)  # one pair ordered otherwise
        relation[:, 100:, 0] = 0.0  # a label missing from the first pair
        ahead, tie, behind = relation
        many = bucket_order_module.bucket_orders_from_pair_counts(ahead, tie, behind, beta)
        for k in range(120):
            np.testing.assert_array_equal(many[k], order_of_pair_counts(ahead[k], tie[k], behind[k], beta))
            if k < 80 and 0 < beta < 0.5:  # the set's own ranking, in average positions
                np.testing.assert_array_equal(many[k], rankdata(rankings[k], method="average"))


def test_the_tree_predicts_each_nodes_bucket_order_on_rankings_with_ties():
    rng = np.random.default_rng(1)
    X = pd.DataFrame({"x": rng.random(60), "z": rng.random(60)})
    dense = np.array([[1, 2, 2, 3], [2, 1, 1, 2], [1, 1, 2, 3], [3, 2, 1, 1]], dtype=float)
    Y = dense[(X["x"] * 2).astype(int) * 2 + (X["z"] > 0.5)]
    noisy = rng.random(60) < 0.2
    Y[noisy] = dense[rng.integers(0, 4, noisy.sum())]  # some rows of another box
    tree = RankingTree(min_samples_leaf=4).fit(X, Y)
    assert tree.consensus_ == "bucket_order"
    paths = tree.tree_.decision_paths(tree.encoder_.transform(X))
    for node in range(tree.tree_.node_count):
        rows = (paths == node).any(axis=1)
        np.testing.assert_array_equal(tree.tree_.ranking[node], bucket_order(Y[rows]))
    # predictions tie labels, and score as τx does
    predicted = tree.predict(X)
    assert has_ties(predicted) and np.mean(tau_x(Y, predicted)) > 0.8
    # the criterion's aggregate when asked, or with a tie tolerance; and on strict rankings by default
    assert RankingTree(min_samples_leaf=4, consensus="aggregate").fit(X, Y).consensus_ == "aggregate"
    assert RankingTree(min_samples_leaf=4, tie_tolerance=0.1).fit(X, Y).consensus_ == "aggregate"
    strict = np.argsort(rng.random((60, 4)), axis=1) + 1.0
    assert RankingTree().fit(X, strict).consensus_ == "aggregate"
    with pytest.raises(ValueError, match="consensus"):
        RankingTree(consensus="borda").fit(X, Y)


def test_a_few_equal_scores_do_not_make_partial_rankings():
    from rankviz import load_sample

    data = load_sample("metalearning")  # equal accuracies tie labels in 9 of its 153 rankings
    assert has_ties(data.Y) and not is_partial(data.Y)
    assert RankingTree().fit(data.X, data.Y).consensus_ == "aggregate"


# -- the pairwise entropy criterion of Alfaro et al. (2021) ---------------------------------------------
def pair_entropy_by_definition(Y):
    """Mean over label pairs of the entropy (bits) of (before, tied, after), counted row by row."""
    entropies = []
    for i, j in itertools.combinations(range(Y.shape[1]), 2):
        relations = [np.sign(y[i] - y[j]) for y in Y if not (np.isnan(y[i]) or np.isnan(y[j]))]
        shares = [relations.count(r) / len(relations) for r in (-1, 0, 1)] if relations else []
        entropies.append(-sum(p * np.log2(p) for p in shares if p >= 1e-5))
    return np.mean(entropies)


def test_pairwise_entropy_of_the_worked_node_and_against_its_definition():
    from rankviz.tree import get_criterion

    criterion = get_criterion("pairwise_entropy")
    Y = np.array([[1, 2, 2], [1, 1, 2], [2, 1, 3]], dtype=float)
    stats = criterion.row_statistics(Y)
    # (a, b): before, tied, after once each (log2 3); (a, c) always before; (b, c) 2 before, 1 tied
    assert float(criterion.impurity(3, stats.sum(axis=0))) == pytest.approx((np.log2(3) + 0 + 0.918296) / 3, abs=1e-6)
    assert float(criterion.impurity(4, stats[[0, 0, 1, 2]].sum(axis=0))) == pytest.approx(2.5 / 3)  # weights (2, 1, 1)
    rng = np.random.default_rng(3)
    for _ in range(50):
        Y = rng.integers(1, 4, (rng.integers(1, 9), 4)).astype(float)
        Y[rng.random(Y.shape) < 0.1] = np.nan
        stats = criterion.row_statistics(Y)
        assert float(criterion.impurity(len(Y), stats.sum(axis=0))) == pytest.approx(pair_entropy_by_definition(Y))


def pair_costs_by_definition(Y, reversal):
    """Mean over rankings and label pairs of the cost against the set's bucket order, row by row.

    A relation other than the consensus' costs 1, an order against the reverse order ``reversal`` (1 for
    the disagreements, 2 for the distance of pair-order matrices); pairs a ranking lacks cost nothing.
    """
    consensus = bucket_order(Y)
    costs = []
    for i, j in itertools.combinations(range(Y.shape[1]), 2):
        wanted = np.sign(consensus[i] - consensus[j])
        held = [np.sign(y[i] - y[j]) for y in Y if not (np.isnan(y[i]) or np.isnan(y[j]))]
        paid = [0 if r == wanted else reversal if r == -wanted else 1 for r in held]
        costs.append(np.mean(paid) if paid else 0.0)
    return np.mean(costs) if reversal == 1 else np.sum(costs)


#: Each criterion of Alfaro et al. by its definition, and its impurity's maximum on 4 labels.
PARTIAL_CRITERIA = {
    "pairwise_entropy": (pair_entropy_by_definition, np.log2(3)),
    "pairwise_disagreements": (lambda Y: pair_costs_by_definition(Y, 1), 1.0),
    "pairwise_distance": (lambda Y: pair_costs_by_definition(Y, 2), 12.0),
}


def test_the_consensus_criteria_of_the_worked_nodes_and_against_their_definition():
    from rankviz.tree import get_criterion

    # the worked node of three rankings (consensus a ~ b > c) and the same weighted (2, 1, 1)
    Y = np.array([[1, 2, 2], [1, 1, 2], [2, 1, 3]], dtype=float)
    for name, plain, weighted in [("pairwise_disagreements", 1 / 3, 5 / 12), ("pairwise_distance", 1.0, 1.25)]:
        criterion = get_criterion(name)
        stats = criterion.row_statistics(Y)
        assert float(criterion.impurity(3, stats.sum(axis=0))) == pytest.approx(plain)
        assert float(criterion.impurity(4, stats[[0, 0, 1, 2]].sum(axis=0))) == pytest.approx(weighted)
    # the worked split of four rankings on x = 0..3: the gains of the three thresholds
    Y = np.array([[1, 2, 2], [1, 1, 2], [2, 1, 3], [3, 2, 1]], dtype=float)
    for name, gains in [("pairwise_disagreements", [1 / 6, 1 / 6, 7 / 12]), ("pairwise_distance", [0.5, 0.5, 1.75]),
                        ("pairwise_entropy", [0.581704, 0.603759, 0.644611])]:
        criterion = get_criterion(name)
        stats = criterion.row_statistics(Y)
        left = np.cumsum(stats, axis=0)[:3]
        sizes = np.arange(1, 4)
        gain = (criterion.impurity(4, stats.sum(axis=0)) - sizes / 4 * criterion.impurity(sizes, left)
                - (4 - sizes) / 4 * criterion.impurity(4 - sizes, stats.sum(axis=0) - left))
        np.testing.assert_allclose(gain, gains, atol=1e-6)
    rng = np.random.default_rng(5)
    for name in ("pairwise_disagreements", "pairwise_distance"):
        criterion = get_criterion(name)
        definition = PARTIAL_CRITERIA[name][0]
        for _ in range(40):
            Y = rng.integers(1, 4, (rng.integers(1, 9), 4)).astype(float)
            Y[rng.random(Y.shape) < 0.1] = np.nan
            stats = criterion.row_statistics(Y)
            assert float(criterion.impurity(len(Y), stats.sum(axis=0))) == pytest.approx(definition(Y))


@pytest.mark.parametrize("name", sorted(PARTIAL_CRITERIA))
def test_the_partial_ranking_trees_split_where_a_brute_force_search_does(name):
    definition, worst = PARTIAL_CRITERIA[name]
    rng = np.random.default_rng(4)
    X = pd.DataFrame({"u": rng.integers(0, 12, 40).astype(float), "v": rng.random(40)})
    Y = rng.integers(1, 4, (40, 4)).astype(float)
    Y[X["u"] > 6] = [1, 1, 2, 3]  # a box of agreeing rankings to find
    tree = RankingTree(criterion=name, gamma=np.inf, min_samples_leaf=3).fit(X, Y).tree_
    best = None
    for f, column in enumerate(X.columns):
        values = np.unique(X[column])
        for low, high in zip(values[:-1], values[1:]):
            left = (X[column] <= (low + high) / 2).to_numpy()
            if min(left.sum(), (~left).sum()) < 3:
                continue
            weighted = (left.sum() * definition(Y[left]) + (~left).sum() * definition(Y[~left])) / len(Y)
            if best is None or weighted < best[0] - 1e-12:
                best = (weighted, f, (low + high) / 2)
    assert (tree.feature[0], tree.threshold[0]) == (best[1], pytest.approx(best[2]))
    assert 1 - tree.split_score[0] == pytest.approx(best[0] / worst)


def test_the_node_inspector_shows_the_nodes_bucket_order():
    from rankviz.tree import inspect_node
    from rankviz.viz.figures.ranking_trees import rank_heatmap

    X = pd.DataFrame({"x": np.arange(20.0)})
    Y = np.array([[1, 2, 2]] * 10 + [[2, 1, 1]] * 10, dtype=float)
    model = RankingTree(min_samples_leaf=5).fit(X, Y)
    inspection = inspect_node(model.tree_, model.encoder_.transform(X), Y, 1)
    np.testing.assert_array_equal(inspection.ranking, [1.0, 2.5, 2.5])  # a > b = c, as the tree predicts
    figure = rank_heatmap(Y[inspection.rows], model.label_names_, inspection.ranking, inspection.mean_rank)
    assert "2.00 → 2.5" in str(figure.data[1].text)


# -- neighbours and the default ranking on rankings with ties -------------------------------------------
def tied_problem(seed, n=60, n_labels=4):
    """Features and dense rankings with ties (most rows tie some labels): partial rankings."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, 3))
    Y = np.column_stack([np.ceil(3 * X[:, 0] + rng.random(n)), np.full(n, 2.0),
                         np.ceil(3 * (1 - X[:, 0]) + rng.random(n))] + [rng.integers(1, 4, n)] * (n_labels - 3))
    return X, Y.astype(float)


def test_the_neighbour_rankers_predict_their_neighbours_bucket_order():
    from rankviz import IBLR, DefaultRanker, KNNRanker
    from rankviz.label_ranking.iblr import dudani_weights

    X, Y = tied_problem(7)
    assert is_partial(Y)
    knn = KNNRanker(n_neighbors=5).fit(X, Y)
    assert knn.consensus_ == "bucket_order"
    neighbours = knn.kneighbors(X[:10])
    expected = [bucket_order(Y[rows]) for rows in neighbours]
    np.testing.assert_array_equal(knn.predict(X[:10]), expected)
    iblr = IBLR(n_neighbors=6).fit(X, Y)
    assert iblr.consensus_ == "bucket_order"
    rows, distances = iblr.kneighbors(X[:10], return_distance=True)
    weights = dudani_weights(distances)
    expected = [bucket_order(Y[r], w) for r, w in zip(rows, weights)]
    np.testing.assert_array_equal(iblr.predict(X[:10]), expected)
    np.testing.assert_array_equal(DefaultRanker().fit(X, Y).predict(X[:2]), [bucket_order(Y)] * 2)
    # asked for the aggregate, or given a tolerance: the rankers of before
    assert not (KNNRanker(n_neighbors=5, consensus="aggregate").fit(X, Y).predict(X) % 1).any()
    assert IBLR(n_neighbors=6, tie_tolerance=0.2).fit(X, Y).consensus_ == "aggregate"
    with pytest.raises(ValueError, match="consensus"):
        KNNRanker(consensus="borda").fit(X, Y)
    with pytest.raises(ValueError, match="beta"):
        IBLR(beta=0.7).fit(X, Y)


def test_on_partial_rankings_the_neighbourhood_size_is_chosen_by_tau_x():
    from rankviz import KNNRanker
    from rankviz.model_selection import fold_indices
    from rankviz.neighbours import NeighbourIndex

    X, Y = tied_problem(8)
    model = KNNRanker(n_neighbors="auto", k_grid=[1, 4, 9], inner_folds=3).fit(X, Y)
    folds = fold_indices(len(Y), 3, 0)
    for k, score in model.cv_scores_.items():
        values = []
        for test in folds:  # the mean τx of the held-out rows' bucket orders, row by row
            train = np.setdiff1d(np.arange(len(Y)), test)
            neighbours = NeighbourIndex(X[train], k).kneighbors(X[test])
            values += [tau_x(Y[row], bucket_order(Y[train][near])) for row, near in zip(test, neighbours)]
        assert score == pytest.approx(np.mean(values))
    assert model.n_neighbors_ == max(model.cv_scores_, key=lambda k: (model.cv_scores_[k], -k))


def test_beta_auto_chooses_the_tie_threshold_of_the_best_inner_score():
    from rankviz import IBLR, KNNRanker
    from rankviz.label_ranking.neighbourhood_size import BETA_GRID

    X, Y = tied_problem(9, n=80)
    model = KNNRanker(n_neighbors=7, beta="auto", inner_folds=3).fit(X, Y)
    # each threshold alone, on the same inner folds (k fixed at 7)
    alone = {beta: KNNRanker(n_neighbors="auto", k_grid=[7], beta=beta, inner_folds=3).fit(X, Y).cv_scores_[7]
             for beta in BETA_GRID}
    best = max(alone.values())
    assert model.beta_ == next(beta for beta in BETA_GRID if alone[beta] >= best - 1e-12)  # the first of the best
    assert model.n_neighbors_ == 7 and model.cv_scores_ == {7: pytest.approx(best)}
    np.testing.assert_array_equal(model.predict(X), KNNRanker(n_neighbors=7, beta=model.beta_).fit(X, Y).predict(X))
    searched = IBLR(n_neighbors="auto", k_grid=[3, 9], beta="auto", inner_folds=3).fit(X, Y)
    fixed = IBLR(n_neighbors="auto", k_grid=[3, 9], inner_folds=3).fit(X, Y)
    assert searched.beta_ in BETA_GRID and fixed.beta_ == 0.25
    assert max(searched.cv_scores_.values()) >= max(fixed.cv_scores_.values())
    # strict rankings: nothing to choose
    assert KNNRanker(n_neighbors=3, beta="auto").fit(X, np.argsort(X, axis=1) + 1.0).beta_ == 0.25


def test_rankers_of_bucket_orders_are_scored_by_tau_x():
    from rankviz import IBLR, RankingForest

    X, Y = tied_problem(10, n=70)
    forest = RankingForest(n_estimators=15, oob_score=True, random_state=0).fit(X, Y)
    assert forest.consensus_ == "bucket_order"
    held = ~np.isnan(forest.oob_prediction_).any(axis=1)
    assert forest.oob_score_ == pytest.approx(np.nanmean(tau_x(Y[held], forest.oob_prediction_[held])))
    model = IBLR(n_neighbors=5).fit(X[:50], Y[:50])
    assert model.score(X[50:], Y[50:]) == pytest.approx(np.nanmean(tau_x(Y[50:], model.predict(X[50:]))))


def test_neighbourhood_counts_give_bucket_orders_of_every_threshold_and_recount_for_new_neighbours():
    from rankviz.label_ranking.bucket_order import NeighbourhoodCounts, bucket_orders
    from rankviz.label_ranking.iblr import dudani_weights

    rng = np.random.default_rng(3)
    Y = rng.integers(1, 4, size=(60, 5)).astype(float)  # ties throughout
    Y[rng.random(Y.shape) < 0.1] = np.nan
    counts = NeighbourhoodCounts()
    for _ in range(3):  # a new array of neighbours each time (as each inner fold's), some of equal k
        neighbours = rng.integers(0, 60, size=(40, 12))
        distances = np.sort(rng.random((40, 12)), axis=1)
        for k in (12, 1, 4, 4, 12):  # the first k as the last: only the new array says count again
            weights = dudani_weights(distances[:, :k])
            for beta in (0.25, 0.05, 0.35):
                np.testing.assert_array_equal(counts.bucket_orders(Y, neighbours, k, weights, beta),
                                              bucket_orders(Y[neighbours[:, :k]], weights, beta=beta))
