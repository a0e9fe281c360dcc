"""MPBoost (Zhu et al. 2009): DDFs, stump search, Algorithm 1, Theorem 1."""

import itertools
import math

import numpy as np
import pytest

from rankviz import MPBoost, make_ltr_dataset
from rankviz.ltr.ddf import DDF_NAMES, condition_9_note, directed_distance, distance_range
from rankviz.ltr.mpboost import misordering_loss, preference_pairs, query_codes
from rankviz.ltr import stump_search
from rankviz.ltr.stump_search import FeatureBins, PairLayout, StumpSearch, stump_sums


def random_queries(seed, n=60, n_features=4, n_queries=6, decimals=1):
    """Small query-document data with tied feature values (rounded)."""
    rng = np.random.default_rng(seed)
    qid = rng.integers(0, n_queries, size=n)
    y = rng.integers(0, 5, size=n).astype(float)
    X = np.round(rng.normal(size=(n, n_features)), decimals)
    return X, y, qid


# --------------------------------------------------------------------------- #
# directed distance functions
# --------------------------------------------------------------------------- #
GRADES = np.arange(5.0)


@pytest.mark.parametrize("ddf", DDF_NAMES)
def test_ddf_keeps_the_sign_of_the_grade_difference(ddf):
    # requirement (3): sgn(dist(r_i, r_j)) = sgn(r_i - r_j), 0 for equal grades
    r_i, r_j = np.meshgrid(GRADES, GRADES, indexing="ij")
    dist = directed_distance(r_i, r_j, ddf)
    np.testing.assert_array_equal(np.sign(dist), np.sign(r_i - r_j))
    np.testing.assert_allclose(dist, -dist.T)  # antisymmetric, so one orientation per pair suffices


@pytest.mark.parametrize("ddf", ["ldd", "logdd", "logitdd"])
def test_magnitude_preserving_ddfs_keep_the_order_of_differences(ddf):
    # requirement (4): |r_i - r_j| > |r_i' - r_j'|  =>  |dist| > |dist'|
    pairs = list(itertools.product(GRADES, GRADES))
    for (a, b), (c, d) in itertools.product(pairs, pairs):
        if abs(a - b) > abs(c - d):
            assert abs(directed_distance(a, b, ddf)) > abs(directed_distance(c, d, ddf))


def test_binary_ignores_magnitude():
    # BINARY is eq. (2): it breaks requirement (4), which is the point of Zhu et al.
    assert directed_distance(4, 0, "binary") == directed_distance(1, 0, "binary") == 1.0


def test_ddf_values_worked_by_hand():
    # Fig. 2 parameters: alpha = 0.2, lambda = 3, beta = 0.5
    assert directed_distance(3, 0, "ldd", 0.2) == pytest.approx(0.6)
    assert directed_distance(0, 1, "logdd", 3.0) == pytest.approx(-math.log(4.0))
    assert directed_distance(2, 0, "logitdd", 0.5) == pytest.approx(1 / (1 + math.exp(-1.0)))
    # LOGITDD lies in (-1, -0.5] U [0.5, 1) for any non-zero difference (§3.2.3)
    big = directed_distance(20, 0, "logitdd", 0.5)
    assert 0.5 < big < 1.0


def test_ddf_rejects_bad_names_and_parameters():
    with pytest.raises(ValueError, match="ddf must be one of"):
        directed_distance(1, 0, "hinge")
    with pytest.raises(ValueError, match="positive"):
        directed_distance(1, 0, "ldd", -1.0)


def test_distance_range_and_condition_9_note():
    assert distance_range([0, 1, 2, 4], "ldd", 0.5) == pytest.approx((0.5, 2.0))
    assert "overshoots" in condition_9_note([0, 4], "ldd", 1.0)
    assert "below 1" in condition_9_note([0, 1], "ldd", 0.1)
    assert "close enough" in condition_9_note([0, 1, 2], "logitdd", 0.5)


# --------------------------------------------------------------------------- #
# pairs
# --------------------------------------------------------------------------- #
def test_preference_pairs_match_the_definition():
    X, y, qid = random_queries(0)
    first, second = preference_pairs(y, qid)
    expected = {(i, j) for i in range(len(y)) for j in range(len(y)) if qid[i] == qid[j] and y[i] > y[j]}
    assert set(zip(first.tolist(), second.tolist())) == expected
    assert len(first) == len(expected)  # no duplicates


def test_query_codes_follow_first_appearance():
    np.testing.assert_array_equal(query_codes(["b", "a", "b", "c", "a"]), [0, 1, 0, 2, 1])


# --------------------------------------------------------------------------- #
# stump search against brute force
# --------------------------------------------------------------------------- #
def brute_force_stumps(X, first, second, distance, weights):
    """S1, S2, c, gain of every stump x_k > t, t halfway between distinct values (appendix)."""
    rows = []
    for k in range(X.shape[1]):
        values = np.unique(X[:, k])
        for t in (values[:-1] + values[1:]) / 2:
            s1 = s2 = 0.0
            for i, j, d, w in zip(first, second, distance, weights):
                above_i, above_j = X[i, k] > t, X[j, k] > t
                if above_i and not above_j:      # A1
                    s1 += w * d
                    s2 += w
                elif above_j and not above_i:    # B2
                    s1 -= w * d
                    s2 += w
            rows.append((k, t, s1, s2))
    return rows


def search_for(X, y, qid, ddf, parameter, max_bins=None, n_jobs=1, engine="compiled"):
    """The stump search of an MPBoost fit on (X, y, qid), and its pairs and distances."""
    first, second = preference_pairs(y, qid)
    distance = directed_distance(y[first], y[second], ddf, parameter)
    bins = FeatureBins(X, max_bins)
    layout = PairLayout(first, second, distance, bins, grades=np.unique(y, return_inverse=True)[1],
                        queries=query_codes(qid), engine=engine)
    return StumpSearch(layout, n_jobs=n_jobs), first, second, distance, bins


@pytest.mark.parametrize("engine", ["compiled", "numpy"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_stump_search_matches_brute_force(seed, engine):
    X, y, qid = random_queries(seed)
    search, first, second, distance, bins = search_for(X, y, qid, "logdd", 3.0, engine=engine)
    # the scores of some boosting round: weights exp(-d (F_i - F_j))
    scores = np.random.default_rng(seed).normal(scale=0.5, size=len(y))
    weights, _ = search.layout.pair_weights(scores)
    assert np.ptp(weights) > 0.5
    s1, s2 = search.sums(scores)
    best_gain = 0.0
    for k, t, ref_s1, ref_s2 in brute_force_stumps(X, first, second, distance, weights):
        b = int(np.searchsorted(bins.thresholds[k], t))
        assert bins.thresholds[k][b] == pytest.approx(t)
        assert s1[k, b] == pytest.approx(ref_s1, abs=1e-9)
        assert s2[k, b] == pytest.approx(ref_s2, abs=1e-9)
        exact = stump_sums(bins.codes[:, k], b, first, second, distance, weights)
        assert exact == pytest.approx((ref_s1, ref_s2), abs=1e-12)
        if ref_s2 > 0:
            best_gain = max(best_gain, ref_s1**2 / ref_s2)
    feature, b, gain = search.best(scores)
    assert gain == pytest.approx(best_gain, rel=1e-5)
    ref_s1, ref_s2 = stump_sums(bins.codes[:, feature], b, first, second, distance, weights)
    assert ref_s1**2 / ref_s2 == pytest.approx(best_gain, rel=1e-5)


@pytest.mark.parametrize("engine", ["compiled", "numpy"])
@pytest.mark.parametrize("ddf, parameter", [("binary", None), ("ldd", 0.7), ("logitdd", 2.0)])
def test_round_weight_factors_rebuild_every_pair_weight_and_never_exceed_one(ddf, parameter, engine):
    X, y, qid = random_queries(4, n=90)
    search, first, second, distance, _ = search_for(X, y, qid, ddf, parameter, engine=engine)
    layout = search.layout
    # scores far apart: the raw products exp(-d F_i) exp(d F_j) would overflow
    scores = np.random.default_rng(4).normal(scale=400.0, size=len(y))
    expected, top = layout.pair_weights(scores)
    round_weights = layout.round_weights(scores)
    assert round_weights.scale == top
    factors = round_weights.factors
    assert np.isfinite(factors).all() and factors.max() <= 1.0 and factors.min() >= 0.0
    grades = layout.grades
    rebuilt = factors[first, grades[second]] * factors[second, grades[first]]
    np.testing.assert_allclose(rebuilt, expected, rtol=1e-9, atol=1e-300)
    assert expected.max() == 1.0
    # no document pairs with a document of its own grade
    assert (factors[np.arange(len(y)), grades] == 0).all()


def test_stump_search_threads_give_the_same_stump_and_sums():
    X, y, qid = random_queries(6, n=120, n_features=9)
    one, *_ = search_for(X, y, qid, "ldd", 0.4)
    three, *_ = search_for(X, y, qid, "ldd", 0.4, n_jobs=3)
    scores = np.random.default_rng(6).normal(size=len(y))
    assert one.best(scores) == three.best(scores)
    for a, b in zip(one.sums(scores), three.sums(scores)):
        np.testing.assert_array_equal(a, b)


def mixed_queries(seed, n_features=17, shuffle=True):
    """A large query (many pairs per document), a large one of skewed grades and small ones, rows shuffled.

    Without ``shuffle`` each query's documents are consecutive rows, as files list them.
    """
    rng = np.random.default_rng(seed)
    sizes = [40, 30, 8, 8, 7, 1]
    qid = np.repeat(np.arange(len(sizes)), sizes)
    y = rng.integers(0, 5, size=qid.size).astype(float)
    y[qid == 1] = 0.0
    y[np.flatnonzero(qid == 1)[3]] = 4.0   # 29 pairs among 30 documents
    X = np.round(rng.normal(size=(qid.size, n_features)), 1)
    X[rng.random(X.shape) < 0.05] = np.nan
    perm = rng.permutation(qid.size) if shuffle else np.arange(qid.size)
    return X[perm], y[perm], qid[perm]


@pytest.mark.parametrize("seed, shuffle", [(0, True), (1, True), (2, False)])
def test_stump_search_by_pairs_and_by_walks_matches_the_pairs(seed, shuffle, monkeypatch):
    # a block of 16 features: the 17 features take two blocks, the second of one feature
    monkeypatch.setattr(stump_search, "_BLOCK_BYTES", 1)
    X, y, qid = mixed_queries(seed, shuffle=shuffle)
    search, first, second, distance, bins = search_for(X, y, qid, "ldd", 0.6)
    layout = search.layout
    assert search.block == 16
    # the first query is walked feature by feature, the skewed one is visited pair by pair
    large_documents = layout.local_order.shape[1]
    assert large_documents == 40 and layout.large_starts.size == 2
    assert layout.small_queries[0].size == X.shape[0] - 40
    scores = np.random.default_rng(seed).normal(scale=0.5, size=len(y))
    weights, _ = layout.pair_weights(scores)
    s1, s2 = search.sums(scores)
    best_gain, best_stump = 0.0, None
    for k in range(X.shape[1]):
        for b in range(len(bins.thresholds[k])):
            exact = stump_sums(bins.codes[:, k], b, first, second, distance, weights)
            assert (s1[k, b], s2[k, b]) == pytest.approx(exact, abs=1e-9)
            if exact[1] > 0 and exact[0] ** 2 / exact[1] > best_gain * (1 + 1e-9):
                best_gain, best_stump = exact[0] ** 2 / exact[1], (k, b)
    feature, b, gain = search.best(scores)
    assert (feature, b) == best_stump
    assert gain == pytest.approx(best_gain, rel=1e-9)
    # threads split the features differently; every number stays the same
    threaded, *_ = search_for(X, y, qid, "ldd", 0.6, n_jobs=2)
    assert threaded.best(scores) == (feature, b, gain)


@pytest.mark.parametrize("ddf, parameter, scale", [("logdd", 1.0, 0.5), ("ldd", 0.7, 400.0), ("binary", None, 3.0)])
def test_round_weights_sum_the_pair_weights_per_document(ddf, parameter, scale):
    # W_m, p_m, the total and the scale from the per-query grade sums equal
    # the sums over the pairs of the weights exp(-d (F_i - F_j) - M)
    X, y, qid = mixed_queries(5)
    search, first, second, distance, bins = search_for(X, y, qid, ddf, parameter)
    layout = search.layout
    scores = np.random.default_rng(5).normal(scale=scale, size=len(y))
    expected, top = layout.pair_weights(scores)
    weights = layout.round_weights(scores)
    assert weights.scale == top
    n = len(y)
    np.testing.assert_allclose(weights.weight, np.bincount(first, expected, n) + np.bincount(second, expected, n),
                               rtol=1e-9, atol=1e-300)
    wd = expected * distance
    np.testing.assert_allclose(weights.p, np.bincount(first, wd, n) - np.bincount(second, wd, n),
                               rtol=1e-9, atol=1e-12)
    assert weights.total == pytest.approx(expected.sum(), rel=1e-12)
    # the chosen stump's sums, straight from the pairs
    for k, b in [(0, 3), (5, 0), (16, 7)]:
        above = bins.codes[:, k] > b
        assert layout.split_sums(weights, above) == pytest.approx(
            stump_sums(bins.codes[:, k], b, first, second, distance, expected), rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("winner_first", [True, False])
def test_best_stump_is_the_same_in_the_first_block_and_in_the_last(winner_first, monkeypatch):
    # The winner's first bin is scanned again from the split weights the last
    # block left behind, or computed anew for an earlier block: both give the
    # same stump. Blocks of 16 features; the data's best feature is moved to
    # column 0 (first block) or 40 (the last).
    monkeypatch.setattr(stump_search, "_BLOCK_BYTES", 1)
    X, y, qid = mixed_queries(3, n_features=41, shuffle=False)
    search, *_ = search_for(X, y, qid, "logdd", 1.0)
    scores = np.random.default_rng(3).normal(scale=0.5, size=len(y))
    feature, b, gain = search.best(scores)
    columns = np.arange(X.shape[1])
    columns[[feature, 0 if winner_first else 40]] = columns[[0 if winner_first else 40, feature]]
    moved, *_ = search_for(X[:, columns], y, qid, "logdd", 1.0)
    assert moved.block == 16
    assert moved.best(scores) == (0 if winner_first else 40, b, gain)


def test_pair_layout_refuses_pairs_that_are_not_every_pair_of_different_grades():
    X, y, qid = random_queries(2)
    first, second = preference_pairs(y, qid)
    distance = directed_distance(y[first], y[second], "ldd", 1.0)
    grades, queries = np.unique(y, return_inverse=True)[1], query_codes(qid)
    for f, s, d in [(first[1:], second[1:], distance[1:]),                       # one missing
                    (np.r_[first[1:], first[2]], np.r_[second[1:], second[2]],   # one twice
                     np.r_[distance[1:], distance[2]]),
                    (second, first, distance)]:                                  # turned round
        with pytest.raises(ValueError, match="every two documents of one query with different grades"):
            PairLayout(f, s, d, FeatureBins(X), grades=grades, queries=queries)


def test_pair_layout_refuses_distances_that_are_not_a_function_of_the_grades():
    X, y, qid = random_queries(2)
    first, second = preference_pairs(y, qid)
    distance = directed_distance(y[first], y[second], "ldd", 1.0)
    distance[0] *= 2.0
    with pytest.raises(ValueError, match="two grades only"):
        PairLayout(first, second, distance, FeatureBins(X), grades=np.unique(y, return_inverse=True)[1],
                   queries=query_codes(qid))


def test_binned_thresholds_separate_values_and_agree_with_codes():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(500, 3))
    X[:, 2] = rng.integers(0, 4, size=500)  # few distinct values: kept exact
    bins = FeatureBins(X, max_bins=16)
    assert all(len(t) <= 15 for t in bins.thresholds)
    assert len(bins.thresholds[2]) == 3
    for k, thresholds in enumerate(bins.thresholds):
        assert not np.isin(thresholds, X[:, k]).any()
        # code > b  <=>  x > threshold b
        np.testing.assert_array_equal(bins.codes[:, k][:, None] > np.arange(len(thresholds)),
                                      X[:, k][:, None] > thresholds)


# --------------------------------------------------------------------------- #
# Algorithm 1
# --------------------------------------------------------------------------- #
def algorithm_1(X, y, qid, ddf, parameter, n_rounds, shrinkage=1.0):
    """Algorithm 1 as written: both orientations of every pair, linear weights, loops."""
    n = len(y)
    index = [(i, j) for i in range(n) for j in range(n) if qid[i] == qid[j] and y[i] != y[j]]
    w = np.full(len(index), 1.0 / len(index))
    dist = np.array([directed_distance(y[i], y[j], ddf, parameter) for i, j in index])
    stumps, normalizers = [], []
    for _ in range(n_rounds):
        best = None
        for k in range(X.shape[1]):
            values = np.unique(X[:, k])
            for t in (values[:-1] + values[1:]) / 2:
                above = X[:, k] > t
                # a_{k,theta} of the appendix: sum_A1 w d - sum_B2 w d over sum_A1 w + sum_B2 w
                num = den = 0.0
                for (i, j), w_ij, d in zip(index, w, dist):
                    if above[i] != above[j]:
                        num += w_ij * d * (1 if above[i] else -1)
                        den += w_ij
                if den > 0 and (best is None or num**2 / den > best[0] + 1e-12):
                    best = (num**2 / den, k, t, num / den)
        _, k, t, a = best
        a *= shrinkage
        f = a * (X[:, k] > t)
        factors = np.array([math.exp(-d * (f[i] - f[j])) for (i, j), d in zip(index, dist)])
        z = float((w * factors).sum())
        w = w * factors / z
        stumps.append((k, t, a))
        normalizers.append(z)
    return stumps, normalizers


@pytest.mark.parametrize("ddf, parameter, shrinkage", [
    ("binary", None, 1.0), ("ldd", 0.4, 1.0), ("logdd", 3.0, 0.5), ("logitdd", 0.5, 1.0),
])
def test_mpboost_follows_algorithm_1(ddf, parameter, shrinkage):
    X, y, qid = random_queries(11, n=30, n_features=3, n_queries=4)
    model = MPBoost(ddf=ddf, parameter=parameter, n_rounds=6, shrinkage=shrinkage).fit(X, y, qid=qid)
    stumps, normalizers = algorithm_1(X, y, qid, ddf, parameter, 6, shrinkage)
    assert model.n_rounds_ == 6
    for t, (k, threshold, a) in enumerate(stumps):
        assert model.feature_[t] == k
        assert model.threshold_[t] == pytest.approx(threshold)
        assert model.value_[t] == pytest.approx(a, rel=1e-9)
    # Z_t is the same with one orientation per pair: (j, i) repeats (i, j)'s term
    np.testing.assert_allclose(model.normalizer_, normalizers, rtol=1e-9)


@pytest.mark.parametrize("ddf", DDF_NAMES)
@pytest.mark.parametrize("shrinkage", [1.0, 0.3])
def test_theorem_1_bound_holds_every_round(ddf, shrinkage):
    X, y, qid = random_queries(21, n=200, n_features=6, n_queries=15, decimals=2)
    # a learnable signal so the loss actually falls
    y = np.clip(np.round(X[:, 0] + 0.5 * X[:, 1] + 2), 0, 4)
    model = MPBoost(ddf=ddf, n_rounds=40, shrinkage=shrinkage).fit(X, y, qid=qid)
    first, second = preference_pairs(y, qid)
    distance = directed_distance(y[first], y[second], ddf)
    bound = model.loss_bound_
    for t, scores in enumerate(model.staged_predict(X)):
        assert misordering_loss(scores, first, second) <= bound[t] + 1e-12
        # the proof's equality: sum_I w1 exp(-dist (F_i - F_j)) = prod Z_t
        exp_loss = np.mean(np.exp(-distance * (scores[first] - scores[second])))
        assert exp_loss == pytest.approx(bound[t], rel=1e-9)
    assert misordering_loss(model.predict(X), first, second) < 0.35


def test_predictions_are_sums_of_stumps():
    X, y, qid = random_queries(4, n=80)
    model = MPBoost(ddf="ldd", n_rounds=15).fit(X, y, qid=qid)
    staged = list(model.staged_predict(X))
    assert len(staged) == model.n_rounds_
    np.testing.assert_allclose(staged[-1], model.predict(X))
    np.testing.assert_allclose(staged[4], model.predict(X, rounds=5))
    manual = sum(v * (X[:, k] > t) for k, t, v in zip(model.feature_, model.threshold_, model.value_))
    np.testing.assert_allclose(model.predict(X), manual)
    frame = model.stumps_frame(["a", "b", "c", "d"])
    assert list(frame["round"]) == list(range(1, 16))
    assert set(frame["feature"]) <= {"a", "b", "c", "d"}


def test_fit_does_not_depend_on_row_order():
    X, y, qid = random_queries(6, n=70, decimals=3)
    perm = np.random.default_rng(0).permutation(len(y))
    a = MPBoost(n_rounds=10).fit(X, y, qid=qid)
    b = MPBoost(n_rounds=10).fit(X[perm], y[perm], qid=qid[perm])
    np.testing.assert_array_equal(a.feature_, b.feature_)
    np.testing.assert_allclose(a.value_, b.value_)


def test_iter_fit_yields_a_usable_model_each_round():
    X, y, qid = random_queries(7)
    model = MPBoost(n_rounds=5)
    seen = []
    for rounds in model.iter_fit(X, y, qid=qid):
        seen.append((rounds, model.predict(X).copy()))
    assert [r for r, _ in seen] == [1, 2, 3, 4, 5]
    np.testing.assert_allclose(seen[-1][1], model.predict(X))


def test_clear_errors():
    X, y, qid = random_queries(8)
    with pytest.raises(ValueError, match="qid is required"):
        MPBoost().fit(X, y, qid=None)
    with pytest.raises(ValueError, match="no preference to learn"):
        MPBoost().fit(X, np.ones(len(y)), qid=qid)
    with pytest.raises(ValueError, match="shrinkage"):
        MPBoost(shrinkage=0).fit(X, y, qid=qid)
    with pytest.raises(ValueError, match="4 features"):
        MPBoost(n_rounds=2).fit(X, y, qid=qid).predict(X[:, :2])


def test_single_document_queries_add_no_pair_and_fit():
    data = make_ltr_dataset(n_queries=12, docs_per_query=(4, 7), n_features=4, n_informative=2, seed=5)
    rng = np.random.default_rng(5)
    X = np.vstack([data.X, rng.normal(size=(6, 4))])
    y = np.concatenate([data.relevance, [0, 1, 2, 3, 4, 2]])
    qid = np.concatenate([data.qid, 1000 + np.arange(6)])  # six queries of one document
    first, second = preference_pairs(y, qid)
    expected = preference_pairs(data.relevance, data.qid)
    np.testing.assert_array_equal(first, expected[0])
    np.testing.assert_array_equal(second, expected[1])
    model = MPBoost(n_rounds=10).fit(X, y, qid=qid)
    assert model.n_pairs_ == expected[0].size and np.isfinite(model.predict(X)).all()
    # only single documents: nothing to learn, said in one sentence
    with pytest.raises(ValueError, match="a query with a single document adds no pair"):
        MPBoost(n_rounds=5).fit(X[-6:], y[-6:], qid=qid[-6:])


@pytest.mark.parametrize("ddf, parameter, max_bins, docs", [("logdd", None, None, (3, 40)), ("binary", None, 8, 120),
                                                             ("ldd", 0.5, None, (2, 300))])
def test_a_fit_searching_with_numpy_chooses_the_compiled_fits_stumps(ddf, parameter, max_bins, docs):
    """Before the compiled search is built a fit searches with NumPy (rankviz.jit): the same stumps, small
    and large queries (pairs visited or orders walked), heights and gains equal to rounding."""
    data = make_ltr_dataset(n_queries=12, docs_per_query=docs, n_features=6, n_informative=4, seed=3)
    X = data.X.copy()
    X[::7, 2] = np.nan
    qid = data.qid
    fits = {}
    for engine in ("numpy", "compiled"):
        search, *_ = search_for(X, data.relevance, qid, ddf, parameter, max_bins=max_bins, engine=engine)
        layout = search.layout
        scores, chosen, heights = np.zeros(len(X)), [], []
        for _ in range(40):
            weights = layout.round_weights(scores)
            feature, bin_, gain = search.best(scores, weights)
            above = layout.bins.codes[:, feature] > bin_
            s1, s2 = layout.split_sums(weights, above)
            chosen.append((feature, bin_))
            heights.append((s1 / s2, gain / weights.total, weights.total))
            scores = scores + s1 / s2 * above
        fits[engine] = chosen, np.array(heights), search.sums(scores)
    (numpy_stumps, numpy_heights, numpy_sums), (stumps, heights, sums) = fits["numpy"], fits["compiled"]
    assert numpy_stumps == stumps
    assert len(set(stumps)) > 5
    np.testing.assert_allclose(numpy_heights, heights, rtol=1e-9)
    for ours, theirs in zip(numpy_sums, sums):
        np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-12 * np.abs(theirs).max())


def test_mpboost_fits_in_each_compilation_mode_agree():
    from rankviz import jit

    data = make_ltr_dataset(n_queries=15, docs_per_query=(4, 30), n_features=8, seed=5)
    previous = jit.set_compile_mode("never")
    try:
        by_numpy = MPBoost(n_rounds=30).fit(data.X, data.relevance, qid=data.qid)
        jit.set_compile_mode("wait")
        compiled = MPBoost(n_rounds=30).fit(data.X, data.relevance, qid=data.qid)
    finally:
        jit.set_compile_mode(previous)
    np.testing.assert_array_equal(by_numpy.feature_, compiled.feature_)
    np.testing.assert_array_equal(by_numpy.threshold_, compiled.threshold_)
    for name in ("value_", "gain_", "normalizer_"):
        np.testing.assert_allclose(getattr(by_numpy, name), getattr(compiled, name), rtol=1e-9, err_msg=name)
    np.testing.assert_allclose(by_numpy.predict(data.X), compiled.predict(data.X), rtol=1e-9, atol=1e-12)
