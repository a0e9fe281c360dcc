"""MPBoost's search of sparse features (issue 37, goal 2): from each feature's documents outside its most
frequent bin, features pruned by a bound on their gain; the same stumps as the full search."""

import numpy as np
import pytest
from scipy import sparse

from rankviz import MPBoost, jit, load_svmlight
from rankviz.binning import SparseFeatureBins
from rankviz.ltr import stump_search
from rankviz.ltr.ddf import directed_distance
from rankviz.ltr.mpboost import preference_pairs, query_codes
from rankviz.ltr.stump_search import FeatureBins, PairLayout, StumpSearch, stump_sums


@pytest.fixture(autouse=True)
def compiled():
    stump_search.KERNELS.build()
    previous = jit.set_compile_mode("wait")
    yield
    jit.set_compile_mode(previous)


@pytest.fixture(params=["code order", "grouped"], autouse=True)
def arrangement(request, monkeypatch):
    """Every test with the entries in code order (few documents) and grouped by query (many)."""
    monkeypatch.setattr(stump_search, "_GROUPED_DOCUMENTS", 10**9 if request.param == "code order" else 0)
    monkeypatch.setattr(stump_search, "_BATCH_DOCUMENTS", 0)  # grouped: features walked a few at a time
    return request.param


def sparse_queries(seed, n_queries=25, n_features=12):
    """LETOR-like: queries of 3-30 documents, grades 0-4, mostly zeros, a few negative values and NaNs
    (so a most frequent bin is not always the lowest), one feature all zero and one dense."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(3, 31, n_queries)
    qid = np.repeat(np.arange(n_queries), sizes)
    y = rng.integers(0, 5, qid.size).astype(float)
    X = np.round(rng.gamma(2.0, size=(qid.size, n_features)), 1)
    X[rng.random(X.shape) < 0.7] = 0.0
    X[rng.random(X.shape) < 0.05] *= -1
    X[rng.random(X.shape) < 0.02] = np.nan
    X[:, 3] = 0.0
    X[:, 5] = np.round(rng.normal(size=qid.size), 2)
    X[:, 7] = np.where(rng.random(qid.size) < 0.8, 1.5, X[:, 7])  # its most frequent bin in the middle
    perm = rng.permutation(qid.size)
    return X[perm], y[perm], qid[perm]


def search_for(X, y, qid, ddf="logdd", parameter=None, max_bins=None, sparse=True, monkeypatch=None):
    monkeypatch.setattr(stump_search, "_SPARSE_SHARE", 0.0 if sparse else 2.0)
    first, second = preference_pairs(y, qid)
    distance = directed_distance(y[first], y[second], ddf, parameter)
    layout = PairLayout(first, second, distance, FeatureBins(X, max_bins), grades=np.unique(y, return_inverse=True)[1],
                        queries=query_codes(qid), engine="compiled")
    search = StumpSearch(layout)
    assert (search.entries is not None) == sparse
    return search, first, second, distance


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("ddf, parameter", [("logdd", None), ("binary", None), ("ldd", 0.7)])
def test_every_thresholds_gain_from_the_entries_equals_the_pairs(seed, ddf, parameter, monkeypatch):
    X, y, qid = sparse_queries(seed)
    search, first, second, distance = search_for(X, y, qid, ddf, parameter, monkeypatch=monkeypatch)
    layout = search.layout
    scores = np.random.default_rng(seed).normal(scale=0.7, size=len(y))
    weights = layout.round_weights(scores)
    pair_weights, _ = layout.pair_weights(scores)
    floor = 1e-6 * weights.total
    bound_kernel, _, feature_kernel, bound, walk = search._entry_kernels(weights, floor)
    bounds = np.empty(layout.n_features)
    bound_kernel(*bound, bounds)
    for k in range(layout.n_features):
        n_thresholds = int(layout.bins.n_bins[k]) - 1
        gains = np.full(max(n_thresholds, 1), -1.0)
        top = feature_kernel(k, *walk, gains, True)
        expected = []
        for b in range(n_thresholds):
            s1, s2 = stump_sums(layout.bins.codes[:, k], b, first, second, distance, pair_weights)
            expected.append(s1 * s1 / max(s2, floor))
        np.testing.assert_allclose(gains[:n_thresholds], expected, rtol=1e-9, atol=1e-12 * weights.total)
        assert top == pytest.approx(max(expected, default=0.0), rel=1e-9, abs=1e-12 * weights.total)
        # the bound from S1 alone is never below the feature's best gain
        assert bounds[k] >= top * (1 - 1e-12)
        # the work arrays are left zero
        assert not (search._bins.any() if search._grouped else search._state.any() or search._query_s1.any())


@pytest.mark.parametrize("seed", range(5))
def test_the_pruned_search_chooses_the_full_searchs_stump(seed, monkeypatch):
    X, y, qid = sparse_queries(seed, n_features=40)
    sparse, *_ = search_for(X, y, qid, monkeypatch=monkeypatch)
    full, *_ = search_for(X, y, qid, sparse=False, monkeypatch=monkeypatch)
    rng = np.random.default_rng(seed)
    for _ in range(5):
        scores = rng.normal(scale=rng.uniform(0.1, 3.0), size=len(y))
        weights = full.layout.round_weights(scores)
        feature, b, gain = sparse.best(scores, weights)
        assert (feature, b) == full.best(scores, weights)[:2]
        assert gain == pytest.approx(full.best(scores, weights)[2], rel=1e-9)


@pytest.mark.parametrize("rows", [1, 40])
def test_walks_of_features_batched_by_the_room_for_their_bins_choose_the_same_stump(rows, monkeypatch):
    """Grouped, features are walked a few at a time, as many as their bins fit: one each when only one fits."""
    monkeypatch.setattr(stump_search, "_GROUPED_DOCUMENTS", 0)
    monkeypatch.setattr(stump_search, "_WALK_BINS", rows)
    X, y, qid = sparse_queries(6, n_features=40)
    batched, *_ = search_for(X, y, qid, monkeypatch=monkeypatch)
    full, *_ = search_for(X, y, qid, sparse=False, monkeypatch=monkeypatch)
    assert batched._walk_batch == 4 and batched._bins.shape[0] == max(rows, batched.layout.bins.n_bins.max())
    for seed in range(5):
        scores = np.random.default_rng(seed).normal(scale=1.5, size=len(y))
        weights = full.layout.round_weights(scores)
        assert batched.best(scores, weights)[:2] == full.best(scores, weights)[:2]


def test_features_that_cannot_win_are_not_searched(monkeypatch):
    X, y, qid = sparse_queries(0, n_features=40)
    search, *_ = search_for(X, y, qid, monkeypatch=monkeypatch)
    layout = search.layout
    weights = layout.round_weights(np.random.default_rng(0).normal(size=len(y)))
    bound_kernel, walk_kernel, _, bound, walk = search._entry_kernels(weights, 1e-6 * weights.total)
    bounds = np.empty(layout.n_features)
    bound_kernel(*bound, bounds)
    tops = np.zeros(layout.n_features)
    batch = (search._walk_batch,) if search._grouped else ()  # grouped: features walked a few at a time
    searched = walk_kernel(np.argsort(-bounds, kind="stable"), bounds, 2e-5, *batch, *walk, tops)
    assert 1 <= searched < layout.n_features // 2


@pytest.mark.parametrize("max_bins", [None, 4])
def test_fits_with_and_without_the_sparse_search_agree(max_bins, monkeypatch):
    X, y, qid = sparse_queries(7, n_queries=40, n_features=30)
    fits = []
    for share in (0.0, 2.0):
        monkeypatch.setattr(stump_search, "_SPARSE_SHARE", share)
        fits.append(MPBoost(ddf="logdd", n_rounds=25, max_bins=max_bins).fit(X, y, qid=qid))
    sparse, full = fits
    np.testing.assert_array_equal(sparse.feature_, full.feature_)
    np.testing.assert_array_equal(sparse.threshold_, full.threshold_)
    np.testing.assert_allclose(sparse.value_, full.value_, rtol=1e-9)
    np.testing.assert_allclose(sparse.predict(X), full.predict(X), rtol=1e-9, atol=1e-12)


def test_the_entries_run_by_code_or_by_query_and_hold_the_bins_values(arrangement, monkeypatch):
    """In code order, each feature's entries run by code, then document. Grouped, rows of queries interleaved
    are renumbered query by query and the entries run by query, code and document. Either way they hold the
    (document, code) of every value outside the feature's default bin, once."""
    X, y, qid = sparse_queries(3, n_features=9)  # rows shuffled: the queries interleave
    search, *_ = search_for(X, y, qid, monkeypatch=monkeypatch)
    entries, codes = search.entries, search.layout.bins.codes
    if arrangement == "grouped":
        order = search._doc_order
        assert order is not None and np.all(np.diff(search._query_of) >= 0)
        np.testing.assert_array_equal(search._query_of, search.layout.queries[order])
        np.testing.assert_array_equal(search._query_end, np.cumsum(np.bincount(search._query_of)))
    else:
        order = np.arange(len(y))
    for k in range(X.shape[1]):
        part = slice(entries.ptr[k], entries.ptr[k + 1])
        docs, entry_codes = entries.docs[part].astype(np.intp), entries.codes[part]
        keys = np.c_[search._query_of[docs], entry_codes, docs] if arrangement == "grouped" else np.c_[entry_codes, docs]
        assert all(tuple(a) < tuple(b) for a, b in zip(keys[:-1], keys[1:]))  # strictly: no entry twice
        np.testing.assert_array_equal(codes[order[docs], k], entry_codes)
        assert docs.size == np.count_nonzero(codes[:, k] != entries.default_bin[k])


def test_rows_in_any_order_fit_the_same_stumps():
    """Queries listed together (the documents keep their numbers) or interleaved (renumbered): the same fit."""
    X, y, qid = sparse_queries(5, n_queries=30, n_features=20)
    together = np.argsort(qid, kind="stable")
    fits = [MPBoost(ddf="logdd", n_rounds=20).fit(X[rows], y[rows], qid=qid[rows])
            for rows in (together, np.arange(len(y)))]
    np.testing.assert_array_equal(fits[0].feature_, fits[1].feature_)
    np.testing.assert_array_equal(fits[0].threshold_, fits[1].threshold_)
    np.testing.assert_allclose(fits[0].value_, fits[1].value_, rtol=1e-9)


def test_the_sparse_search_is_chosen_for_mostly_zero_features_in_one_thread():
    X, y, qid = sparse_queries(1)
    first, second = preference_pairs(y, qid)
    layout = PairLayout(first, second, directed_distance(y[first], y[second], "logdd", None), FeatureBins(X),
                        grades=np.unique(y, return_inverse=True)[1], queries=query_codes(qid), engine="compiled")
    assert StumpSearch(layout).entries is not None
    assert StumpSearch(layout, n_jobs=2).entries is None  # threads: the full search, features split among them
    dense = np.random.default_rng(1).normal(size=X.shape)
    layout = PairLayout(first, second, directed_distance(y[first], y[second], "logdd", None), FeatureBins(dense),
                        grades=np.unique(y, return_inverse=True)[1], queries=query_codes(qid), engine="compiled")
    assert StumpSearch(layout).entries is None


# --------------------------------------------------------------------------- #
# sparse matrices, end to end
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("max_bins", [None, 4])
@pytest.mark.parametrize("matrix", [sparse.csr_matrix, sparse.csc_matrix, sparse.coo_array])
def test_a_sparse_matrix_fits_the_dense_tables_stumps(matrix, max_bins):
    X, y, qid = sparse_queries(2, n_queries=40, n_features=30)  # NaN kept: explicit entries, below every threshold
    dense = MPBoost(ddf="logdd", n_rounds=30, max_bins=max_bins).fit(X, y, qid=qid)
    held = MPBoost(ddf="logdd", n_rounds=30, max_bins=max_bins).fit(matrix(X), y, qid=qid)
    np.testing.assert_array_equal(held.feature_, dense.feature_)
    np.testing.assert_array_equal(held.threshold_, dense.threshold_)
    np.testing.assert_allclose(held.value_, dense.value_, rtol=1e-9)
    np.testing.assert_allclose(held.predict(matrix(X)), dense.predict(X), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(held.predict(X), dense.predict(X), rtol=1e-9, atol=1e-12)


def test_sparse_bins_hold_only_the_entries_and_agree_with_the_dense_codes():
    X, *_ = sparse_queries(4, n_features=9)
    held = SparseFeatureBins(sparse.csr_matrix(X))
    dense = FeatureBins(X)
    for k in range(X.shape[1]):
        np.testing.assert_array_equal(held.thresholds[k], dense.thresholds[k])
        for b in range(len(dense.thresholds[k])):
            np.testing.assert_array_equal(held.above(k, b), dense.above(k, b))
    np.testing.assert_array_equal(held.codes, dense.codes)
    assert held.entries.docs.size < 0.5 * X.size  # the zeros are not held
    zeros = sparse.csr_matrix((5, 3))  # no value at all: one bin per feature, no entry
    assert SparseFeatureBins(zeros).n_bins.tolist() == [1, 1, 1] and SparseFeatureBins(zeros).entries.docs.size == 0


def test_the_letor_example_fits_from_its_sparse_file_as_from_the_dense_one(tmp_path):
    rng = np.random.default_rng(0)
    lines = []
    for i in range(600):
        written = np.flatnonzero(rng.random(60) < 0.3) + 1
        features = " ".join(f"{j}:{v:.3g}" for j, v in zip(written, rng.random(written.size) * 10))
        lines.append(f"{rng.integers(0, 5)} qid:{i // 15} {features}")
    path = tmp_path / "train.txt"
    path.write_text("\n".join(lines) + "\n")
    X, relevance, qid = load_svmlight(path, sparse=True)
    assert sparse.issparse(X) and X.format == "csr" and X.nnz < 0.4 * X.shape[0] * X.shape[1]
    dataset = load_svmlight(path)
    np.testing.assert_array_equal(X.toarray(), dataset.X)
    held = MPBoost(n_rounds=20).fit(X, relevance, qid=qid)
    dense = MPBoost(n_rounds=20).fit(dataset.X, dataset.relevance, qid=dataset.qid)
    np.testing.assert_array_equal(held.feature_, dense.feature_)
    np.testing.assert_array_equal(held.threshold_, dense.threshold_)


def test_a_sparse_matrix_with_an_infinite_value_is_refused_at_its_place():
    X, y, qid = sparse_queries(5)
    X = np.nan_to_num(X)
    X[7, 2] = np.inf
    with pytest.raises(ValueError, match="infinite value at document 7, feature 2"):
        MPBoost().fit(sparse.csr_matrix(X), y, qid=qid)
