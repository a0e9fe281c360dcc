"""Missing feature values: every criterion, baseline and MPBoost handles them, as documented.

* Trees: a missing numeric value goes to the side of the split that scores
  better (ties: the "no" side); a missing nominal value is the category
  "(missing)".
* KNN rankers, IBLR and CC: a missing numeric value counts as the training mean.
* MPBoost: a missing value is below every threshold.
"""

import numpy as np
import pandas as pd
import pytest

from rankviz import IBLR, ConstraintClassifier, KNNRanker, MPBoost, OrdinalTree, RankingTree
from rankviz.tree.criteria import get_criterion
from rankviz.ltr.ddf import directed_distance
from rankviz.features import MISSING_CATEGORY, FeatureEncoder, count_missing
from rankviz.tree.gamma_path import GammaPath
from rankviz.tree.node_inspection import candidate_splits, node_mask
from rankviz.ltr.baselines import BestSingleFeature, KNNRelevance
from rankviz.ltr.mpboost import preference_pairs, query_codes
from rankviz.ltr.stump_search import FeatureBins, PairLayout, StumpSearch
from reference import mean_pairwise_spearman


def problem_with_missing(seed, n=40, n_labels=4, rate=0.3):
    """Rankings that depend on x1 (partly missing) and x2 (complete), plus a noise column."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3)).round(2)
    score = np.column_stack([X[:, 0], -X[:, 0], X[:, 1], rng.normal(size=n)])[:, :n_labels]
    Y = np.argsort(np.argsort(-score - rng.normal(scale=0.3, size=score.shape), axis=1), axis=1) + 1.0
    X[rng.random(n) < rate, 0] = np.nan
    X[rng.random(n) < rate / 2, 2] = np.nan
    return X, Y


def brute_force_root(X, Y, min_samples_leaf):
    """Best (score, meet mask) over every threshold and both sides for the missing values."""
    best = (-np.inf, None)
    n = len(Y)
    for f in range(X.shape[1]):
        x = X[:, f]
        missing = np.isnan(x)
        values = np.unique(x[~missing])
        for t in (values[:-1] + values[1:]) / 2:
            for missing_meets in (False, True):
                meet = np.where(missing, missing_meets, x <= t)
                if min(meet.sum(), (~meet).sum()) < min_samples_leaf:
                    continue
                score = (meet.sum() * mean_pairwise_spearman(Y[meet])
                         + (~meet).sum() * mean_pairwise_spearman(Y[~meet])) / n
                if score > best[0] + 1e-12:
                    best = (score, meet)
    return best


def problem_missing_when_low(seed, n=40):
    """x1 goes missing only where it is low: its missing rows rank like the low ones."""
    X, Y = problem_with_missing(seed, n=n, rate=0.0)
    low = X[:, 0] < np.median(X[:, 0])
    X[low & (np.random.default_rng(seed).random(n) < 0.6), 0] = np.nan
    return X, Y


@pytest.mark.parametrize("make_problem", [problem_with_missing, problem_missing_when_low])
@pytest.mark.parametrize("seed", range(4))
def test_root_split_is_the_best_over_thresholds_and_missing_sides(seed, make_problem):
    X, Y = make_problem(seed)
    tree = RankingTree(gamma=np.inf, min_samples_leaf=3, max_depth=1).fit(X, Y).tree_
    score, meet = brute_force_root(X, Y, 3)
    assert tree.split_score[0] == pytest.approx(score, abs=1e-9)
    left = tree.apply(X) == tree.children_left[0]
    np.testing.assert_array_equal(left, meet)
    if make_problem is problem_missing_when_low and tree.feature[0] == 0:
        assert tree.missing_left[0]  # the missing rows belong with the low values ("yes")


@pytest.mark.parametrize("criterion", ["mean_spearman", "ranking_impurity", "gini", "mallows", "pairwise_entropy"])
def test_rows_follow_the_same_routes_in_fit_and_predict(criterion):
    X, Y = problem_with_missing(7, n=80)
    model = RankingTree(criterion=criterion, gamma=np.inf, min_samples_leaf=4).fit(X, Y)
    tree = model.tree_
    assert tree.missing_left.dtype == bool
    # Node sizes counted by routing the training rows again equal the fit's.
    paths = tree.decision_paths(X)  # a row that reaches its leaf early repeats it
    on_path = np.zeros((len(X), tree.node_count), dtype=bool)
    on_path[np.arange(len(X))[:, None], paths] = True
    visits = on_path.sum(axis=0)
    for node in np.flatnonzero(~tree.is_leaf):
        for child in (tree.children_left[node], tree.children_right[node]):
            assert visits[child] == tree.n_samples[child]
    predictions = model.predict(X)
    np.testing.assert_array_equal(np.sort(predictions, axis=1), np.tile(np.arange(1.0, 5.0), (80, 1)))
    # apply walks only the rows still above their leaf: the end of each full path
    np.testing.assert_array_equal(tree.apply(X), paths[:, -1])


def test_missing_side_is_written_in_the_test():
    X, Y = problem_with_missing(1, n=120, rate=0.4)
    tree = RankingTree(gamma=np.inf, min_samples_leaf=3).fit(X, Y).tree_
    internal = np.flatnonzero(~tree.is_leaf)
    on_x1 = [n for n in internal if tree.feature[n] == 0]
    assert on_x1, "x1 should be used"
    for node in on_x1:
        yes, no = tree.test_text(node), tree.test_text(node, negate=True)
        assert yes.endswith(" or missing") == bool(tree.missing_left[node])
        assert no.endswith(" or missing") != bool(tree.missing_left[node])
    # a complete attribute never mentions missing values
    for node in (n for n in internal if tree.feature[n] == 1):
        assert "missing" not in tree.test_text(node) + tree.test_text(node, negate=True)


def test_inspector_row_0_is_the_split_made_with_its_missing_side():
    X, Y = problem_with_missing(2, n=60, rate=0.4)
    model = RankingTree(gamma=np.inf, min_samples_leaf=3, max_depth=3).fit(X, Y)
    tree = model.tree_
    Xe = model.encoder_.transform(X)
    for node in np.flatnonzero(~tree.is_leaf):
        table = candidate_splits(Xe, tree.nominal_features, Y, node_mask(tree, Xe, node), "mean_spearman",
                                 min_samples_leaf=3, feature_names=tree.feature_names,
                                 categories=tree.categories)
        top = table.iloc[0]
        assert (top["feature"], top["threshold"], top["missing_meet"]) == (
            tree.feature[node], tree.threshold[node], tree.missing_left[node])
        assert top["n_meet"] == tree.n_samples[tree.children_left[node]]
        assert top["condition"] == tree.test_text(node)


def test_gamma_path_equals_regrowth_with_missing_values():
    X, Y = problem_with_missing(3, n=90)
    maximal = RankingTree(gamma=np.inf, min_samples_leaf=2).fit(X, Y)
    path = GammaPath(maximal.tree_, get_criterion("mean_spearman"))
    Xe = maximal.encoder_.transform(X)
    for gamma in (0.9, 0.99, 0.995, 1.0):
        regrown = RankingTree(gamma=gamma, min_samples_leaf=2).fit(X, Y)
        np.testing.assert_array_equal(path.predict(Xe, [gamma])[:, 0], regrown.predict(X))


def test_missing_nominal_value_is_a_category():
    X = pd.DataFrame({"colour": ["red", None, "blue", np.nan, "red", "blue", None, "red"] * 3,
                      "size": np.arange(24.0)})
    Y = np.array([[1, 2, 3] if c is None or c != c else [3, 2, 1] for c in X["colour"]], dtype=float)
    encoder = FeatureEncoder().fit(X)
    assert MISSING_CATEGORY in encoder.categories[0]
    assert count_missing(X) == 9
    tree = RankingTree(gamma=np.inf, min_samples_leaf=1).fit(X, Y).tree_
    assert tree.test_text(0) == f"colour = {MISSING_CATEGORY}"
    assert tree.n_leaves == 2 and tree.similarity[tree.is_leaf].min() == pytest.approx(1.0)


def test_encoder_keeps_nan_and_refuses_infinity_and_text():
    encoder = FeatureEncoder().fit(pd.DataFrame({"a": [1.0, np.nan, 3.0]}))
    np.testing.assert_array_equal(np.isnan(encoder.transform(pd.DataFrame({"a": [np.nan, 2.0]}))[:, 0]),
                                  [True, False])
    with pytest.raises(ValueError, match="row 2: expected a number"):
        encoder.transform(pd.DataFrame({"a": [1.0, np.inf]}))


def test_a_table_of_numbers_is_encoded_as_column_by_column_and_named_in_its_errors():
    """Numeric frames take one conversion: the same values, a copy, and the first bad column's first bad row."""
    frame = pd.DataFrame({"n": [1, 2, 3], "x": [0.5, np.nan, 2.5], "m": np.array([7, 8, 9], dtype=np.int8)})
    encoder = FeatureEncoder().fit(frame)
    encoded = encoder.transform(frame)
    expected = np.column_stack([frame[c].to_numpy(dtype=float) for c in frame.columns])
    np.testing.assert_array_equal(encoded, expected)
    encoded[0, 0] = -1.0
    assert frame.loc[0, "n"] == 1  # the encoding is a copy
    reordered = frame[["m", "x", "n"]]  # columns found by name
    np.testing.assert_array_equal(encoder.transform(reordered), expected)
    bad = frame.assign(x=[0.5, np.nan, np.inf], m=np.array([7, 8, 9], dtype=float))
    bad.loc[1, "m"] = -np.inf
    with pytest.raises(ValueError, match=r"^feature 'x', row 3: expected a number"):
        encoder.transform(bad)


def test_ordinal_tree_with_missing_values_predicts_levels():
    X, Y = problem_with_missing(5, n=100)
    y = Y[:, 0] - 1  # level 0..3
    model = OrdinalTree(criterion="ranking_impurity", max_depth=3).fit(X, y)
    assert set(np.unique(model.predict(X))) <= {0.0, 1.0, 2.0, 3.0}


@pytest.mark.parametrize("make", [lambda: KNNRanker(n_neighbors=3), lambda: IBLR(n_neighbors=5)])
def test_neighbour_rankers_treat_missing_as_the_training_mean(make):
    X, Y = problem_with_missing(4, n=60)
    # the mean lies inside the range, so min-max scaling is the same after filling
    filled = np.where(np.isnan(X), np.nanmean(X, axis=0), X)
    with_missing = make().fit(X, Y).predict(X)
    imputed = make().fit(filled, Y).predict(filled)
    np.testing.assert_array_equal(with_missing, imputed)


def test_constraint_classifier_treats_missing_as_the_training_mean():
    X, Y = problem_with_missing(4, n=60)
    model = ConstraintClassifier(random_state=0).fit(X, Y)
    # mean and spread come from the values present
    np.testing.assert_allclose(model.mean_, np.nanmean(X, axis=0))
    np.testing.assert_allclose(model.scale_, np.nanstd(X, axis=0))
    filled = np.where(np.isnan(X), model.mean_, X)
    np.testing.assert_allclose(model.decision_function(X), model.decision_function(filled))


def test_mpboost_puts_missing_values_below_every_threshold():
    rng = np.random.default_rng(0)
    qid = np.repeat(np.arange(8), 6)
    X = rng.normal(size=(48, 3)).round(1)
    y = np.clip(np.round(X[:, 0] + 1.5), 0, 3)
    X[rng.random(48) < 0.3, 0] = np.nan
    first, second = preference_pairs(y, qid)
    distance = directed_distance(y[first], y[second], "ldd", 0.4)
    bins = FeatureBins(X)
    assert not np.isnan(np.concatenate(bins.thresholds)).any()
    layout = PairLayout(first, second, distance, bins, grades=np.unique(y, return_inverse=True)[1],
                        queries=query_codes(qid))
    scores = rng.normal(size=len(y))
    weights, _ = layout.pair_weights(scores)
    s1, s2 = StumpSearch(layout).sums(scores)
    for k in range(3):
        for b, t in enumerate(bins.thresholds[k]):
            above = X[:, k] > t  # NaN > t is False: missing is below
            forward = above[first] & ~above[second]
            backward = ~above[first] & above[second]
            ref_s1 = (weights * distance)[forward].sum() - (weights * distance)[backward].sum()
            assert s1[k, b] == pytest.approx(ref_s1, abs=1e-5)
            assert s2[k, b] == pytest.approx(weights[forward | backward].sum(), abs=1e-5)
    model = MPBoost(ddf="ldd", parameter=0.4, n_rounds=20).fit(X, y, qid=qid)
    scores = model.predict(X)
    assert np.isfinite(scores).all()
    exp_loss = np.mean(np.exp(-distance * (scores[first] - scores[second])))
    assert exp_loss == pytest.approx(model.loss_bound_[-1], rel=1e-9)  # fit and predict agree on NaN
    with pytest.raises(ValueError, match="infinite"):
        MPBoost().fit(np.where(np.isnan(X), np.inf, X), y, qid=qid)


def test_ltr_baselines_with_missing_values():
    qid = np.repeat([1, 2], 4)
    y = np.array([3, 2, 1, 0, 3, 2, 1, 0], dtype=float)
    X = np.array([[4.0], [np.nan], [2.0], [1.0], [8.0], [7.0], [np.nan], [5.0]])
    best = BestSingleFeature(k=4).fit(X, y, qid=qid)
    scores = best.predict(X)
    # missing values rank last in their query
    assert scores[1] < scores[[0, 2, 3]].min() and scores[6] < scores[[4, 5, 7]].min()
    knn = KNNRelevance(n_neighbors=1).fit(X, y, qid=qid)
    filled = np.where(np.isnan(X), np.nanmean(X), X)
    np.testing.assert_array_equal(knn.predict(X), KNNRelevance(n_neighbors=1).fit(filled, y).predict(filled))


def test_threshold_curve_draws_one_point_per_threshold_with_the_better_side():
    from rankviz.viz.figures.ranking_trees import threshold_curve

    X, Y = problem_missing_when_low(0, n=60)
    model = RankingTree(gamma=np.inf, min_samples_leaf=3, max_depth=1).fit(X, Y)
    tree = model.tree_
    table = candidate_splits(model.encoder_.transform(X), tree.nominal_features, Y, np.arange(60),
                             "mean_spearman", min_samples_leaf=3, feature_names=tree.feature_names,
                             categories=tree.categories)
    fig = threshold_curve(table, 0, show_sides=False)
    x = np.asarray(fig.data[0].x, dtype=float)
    assert len(np.unique(x)) == len(x)
    expected = table[table["feature"] == 0].groupby("threshold")["score"].max()
    np.testing.assert_allclose(np.asarray(fig.data[0].y, dtype=float), expected.loc[x].to_numpy())
