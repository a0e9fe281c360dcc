"""Tests for rankviz.ltr.metrics: NDCG forms by hand, scikit-learn and scipy
agreement, tie-breaking, no-relevant conventions, paired comparison, and a
per-query loop reference on 20,000 documents."""

from math import log2

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import ndcg_score

from rankviz.ltr import metrics as ltr_metrics
from rankviz.ltr.metrics import (
    mean_ndcg,
    ndcg,
    ndcg_at_ks,
    query_ids,
    query_rank_scores,
    rank_within_queries,
)
from rankviz.label_ranking.metrics import lra, wrc


def random_queries(n_queries, rng, min_size=2, max_size=12, tied_scores=False):
    """Shuffled rows of ``n_queries`` queries with graded relevance 0..4."""
    sizes = rng.integers(min_size, max_size + 1, n_queries)
    qid = np.repeat(np.arange(n_queries) * 7 + 3, sizes)  # non-consecutive ids
    relevance = rng.integers(0, 5, qid.shape[0]).astype(float)
    scores = rng.normal(size=qid.shape[0]) + 0.3 * relevance
    if tied_scores:
        scores = np.round(scores)
    perm = rng.permutation(qid.shape[0])
    return relevance[perm], scores[perm], qid[perm]


def rows_of(qid):
    """Row indices of each query, in order of first appearance."""
    return [np.flatnonzero(qid == q) for q in query_ids(qid)]


# ---------------------------------------------------------------------------
# NDCG worked by hand
# ---------------------------------------------------------------------------

# One query whose documents, in decreasing score, have relevance
# [3, 2, 3, 0, 1, 2]. Gains 2^r - 1: [7, 3, 7, 0, 1, 3].
# The ideal order has relevance [3, 3, 2, 2, 1, 0], gains [7, 7, 3, 3, 1, 0].
HAND_RELEVANCE = [3, 2, 3, 0, 1, 2]
HAND_SCORES = [6, 5, 4, 3, 2, 1]

# common: discount 1 / log2(1 + j) = 1, 0.630930, 0.5, 0.430677, 0.386853, 0.356207
#   DCG:   7 | 7 + 3*0.630930 = 8.892789 | + 7*0.5 = 12.392789 | + 0*0.430677 = 12.392789
#          | + 1*0.386853 = 12.779642 | + 3*0.356207 = 13.848264
#   IDCG:  7 | 7 + 7*0.630930 = 11.416508 | + 3*0.5 = 12.916508 | + 3*0.430677 = 14.208538
#          | + 1*0.386853 = 14.595391 | + 0 = 14.595391
#   NDCG:  1, 0.778941, 0.959454, 0.872207, 0.875594, 0.948811
COMMON_DISCOUNT = [1 / log2(1 + j) for j in range(1, 7)]
HAND_COMMON = [
    7 / 7,
    (7 + 3 / log2(3)) / (7 + 7 / log2(3)),
    (7 + 3 / log2(3) + 7 / 2) / (7 + 7 / log2(3) + 3 / 2),
    (7 + 3 / log2(3) + 7 / 2 + 0) / (7 + 7 / log2(3) + 3 / 2 + 3 / log2(5)),
    (7 + 3 / log2(3) + 7 / 2 + 1 / log2(6)) / (7 + 7 / log2(3) + 3 / 2 + 3 / log2(5) + 1 / log2(6)),
    (7 + 3 / log2(3) + 7 / 2 + 1 / log2(6) + 3 / log2(7))
    / (7 + 7 / log2(3) + 3 / 2 + 3 / log2(5) + 1 / log2(6)),
]

# seed (MPBoost §5.2): discount 1 at j = 1, 1 / log2(j) after = 1, 1, 0.630930, 0.5, 0.430677, 0.386853
#   DCG:   7 | 7 + 3 = 10 | + 7*0.630930 = 14.416508 | + 0 = 14.416508
#          | + 1*0.430677 = 14.847185 | + 3*0.386853 = 16.007743
#   IDCG:  7 | 7 + 7 = 14 | + 3*0.630930 = 15.892789 | + 3*0.5 = 17.392789
#          | + 1*0.430677 = 17.823466 | + 0 = 17.823466
#   NDCG:  1, 10/14 = 0.714286, 0.907110, 0.828878, 0.833013, 0.898127
HAND_MPBOOST = [
    7 / 7,
    (7 + 3) / (7 + 7),
    (7 + 3 + 7 / log2(3)) / (7 + 7 + 3 / log2(3)),
    (7 + 3 + 7 / log2(3)) / (7 + 7 + 3 / log2(3) + 3 / 2),
    (7 + 3 + 7 / log2(3) + 1 / log2(5)) / (7 + 7 + 3 / log2(3) + 3 / 2 + 1 / log2(5)),
    (7 + 3 + 7 / log2(3) + 1 / log2(5) + 3 / log2(6))
    / (7 + 7 + 3 / log2(3) + 3 / 2 + 1 / log2(5)),
]


def test_hand_values_are_the_rounded_ones_in_the_comments():
    assert np.round(HAND_COMMON, 6).tolist() == [1.0, 0.778941, 0.959454, 0.872207, 0.875594, 0.948811]
    assert np.round(HAND_MPBOOST, 6).tolist() == [1.0, 0.714286, 0.90711, 0.828878, 0.833013, 0.898127]


@pytest.mark.parametrize("form, expected", [("common", HAND_COMMON), ("mpboost", HAND_MPBOOST)])
def test_ndcg_by_hand(form, expected):
    result = ndcg_at_ks(HAND_RELEVANCE, HAND_SCORES, [1] * 6, ks=range(1, 7), form=form)
    assert result.shape == (1, 6)
    np.testing.assert_allclose(result[0], expected, rtol=1e-12)
    for k in range(1, 7):
        assert ndcg(HAND_RELEVANCE, HAND_SCORES, [1] * 6, k=k, form=form)[0] == pytest.approx(expected[k - 1])


@pytest.mark.parametrize("form, expected", [("common", HAND_COMMON), ("mpboost", HAND_MPBOOST)])
def test_ndcg_by_hand_with_rows_shuffled_among_another_query(form, expected):
    # The same query scattered among the rows of another query ("other",
    # listed first), rows reversed: result row 1 is the hand-worked query.
    relevance = [0, 2, 1, 0, 0, 3, 2, 0, 3, 2]
    scores = [9, 1, 2, 9, 3, 4, 5, 9, 6, 9]
    qid = ["other", "hand", "hand", "other", "hand", "hand", "hand", "other", "hand", "other"]
    # "hand" rows in decreasing score: 6 (r3), 5 (r2), 4 (r3), ... as above.
    result = ndcg_at_ks(relevance, scores, qid, ks=range(1, 7), form=form)
    assert query_ids(qid).tolist() == ["other", "hand"]
    np.testing.assert_allclose(result[1], expected, rtol=1e-12)
    # "other": relevance [0, 0, 0, 2] with tied scores 9 -> a random order;
    # still an NDCG in [0, 1].
    assert np.all((result[0] >= 0) & (result[0] <= 1))


def test_seed_and_common_agree_at_k1_and_differ_after():
    rng = np.random.default_rng(3)
    relevance, scores, qid = random_queries(200, rng)
    common = ndcg_at_ks(relevance, scores, qid, ks=[1, 2, 5], form="common")
    seed = ndcg_at_ks(relevance, scores, qid, ks=[1, 2, 5], form="mpboost")
    np.testing.assert_allclose(seed[:, 0], common[:, 0], equal_nan=True)
    # Two documents, the relevant one second.
    # common: DCG@2 = 0 + 1/log2(3) = 0.6309, IDCG@2 = 1 -> 0.6309
    # seed:   DCG@2 = 0 + 1/log2(2) = 1,      IDCG@2 = 1 -> 1
    assert ndcg([0, 1], [0.9, 0.1], [0, 0], k=2, form="common")[0] == pytest.approx(1 / log2(3))
    assert ndcg([0, 1], [0.9, 0.1], [0, 0], k=2, form="mpboost")[0] == 1.0
    # At k = 1 both give 0 here.
    assert ndcg([0, 1], [0.9, 0.1], [0, 0], k=1, form="mpboost")[0] == 0.0
    # ... and on random data they differ at k >= 2 somewhere.
    assert np.nanmax(np.abs(seed[:, 1:] - common[:, 1:])) > 0.05


def test_common_form_matches_sklearn_without_ties():
    rng = np.random.default_rng(0)
    relevance, scores, qid = random_queries(60, rng, min_size=2, max_size=15)
    ks = [1, 3, 5, 10, 20]
    ours = ndcg_at_ks(relevance, scores, qid, ks=ks, no_relevant="zero")
    for q, rows in enumerate(rows_of(qid)):
        gains = 2.0 ** relevance[rows] - 1
        for i, k in enumerate(ks):
            expected = ndcg_score([gains], [scores[rows]], k=k, ignore_ties=True)
            assert ours[q, i] == pytest.approx(expected, abs=1e-12), (q, k)


# ---------------------------------------------------------------------------
# Perfect, reversed and short lists
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("form", ["common", "mpboost"])
def test_perfect_ordering_scores_exactly_one(form):
    rng = np.random.default_rng(1)
    relevance, _, qid = random_queries(300, rng)
    # scores = relevance ties equally relevant documents: their gains are
    # equal, so any order among them is ideal.
    result = ndcg_at_ks(relevance, relevance, qid, ks=range(1, 16), form=form)
    has_relevant = np.array([relevance[rows].max() > 0 for rows in rows_of(qid)])
    assert np.all(result[has_relevant] == 1.0)
    assert np.all(np.isnan(result[~has_relevant]))


def test_reverse_ordering_scores_below_one():
    rng = np.random.default_rng(2)
    relevance, _, qid = random_queries(300, rng)
    result = ndcg_at_ks(relevance, -relevance, qid, ks=range(1, 16))
    varied = np.array([np.ptp(relevance[rows]) > 0 for rows in rows_of(qid)])
    assert varied.sum() > 250
    assert np.all(result[varied] < 1.0)
    # Seed form quirk: positions 1 and 2 are both undiscounted, so reversing
    # a two-document query does not change its NDCG@2 (1 + 0 vs 0 + 1).
    assert ndcg([1, 0], [0.0, 1.0], [0, 0], k=2, form="mpboost")[0] == 1.0
    assert ndcg([1, 0, 0], [0.0, 1.0, 2.0], [0, 0, 0], k=3, form="mpboost")[0] < 1.0


@pytest.mark.parametrize("form", ["common", "mpboost"])
def test_k_beyond_the_number_of_documents_sums_over_all(form):
    relevance, scores, qid = [1, 0, 2, 3, 0], [0.5, 0.1, 0.3, 0.2, 0.7], [4, 4, 4, 9, 9]
    result = ndcg_at_ks(relevance, scores, qid, ks=[2, 3, 4, 100], form=form)
    # query 9 has 2 documents: k = 2, 3, 4, 100 all give its full-list NDCG
    assert np.all(result[1] == result[1, 0])
    # query 4 has 3 documents: k = 3, 4, 100 agree
    assert np.all(result[0, 1:] == result[0, 1])
    np.testing.assert_array_equal(ndcg(relevance, scores, qid, k=None, form=form),
                                  [result[0, 1], result[1, 0]])
    # query 9: relevance 0 first, 3 second.
    expected = (7 / log2(3)) / 7 if form == "common" else 1.0
    assert result[1, 0] == pytest.approx(expected)


def test_single_document_queries():
    result = ndcg_at_ks([2, 0, 1], [0.1, 0.2, 0.3], ["a", "b", "c"], ks=[1, 5])
    np.testing.assert_array_equal(result, [[1.0, 1.0], [np.nan, np.nan], [1.0, 1.0]])


# ---------------------------------------------------------------------------
# Queries without a relevant document
# ---------------------------------------------------------------------------


def test_no_relevant_conventions():
    relevance = [0, 0, 0, 1, 0, 2]
    scores = [0.3, 0.2, 0.1, 0.2, 0.1, 0.3]  # query 2 in ideal order: 2, 1, 0
    qid = [1, 1, 1, 2, 2, 2]
    ks = [1, 3]
    skip = ndcg_at_ks(relevance, scores, qid, ks=ks)
    one = ndcg_at_ks(relevance, scores, qid, ks=ks, no_relevant="one")
    zero = ndcg_at_ks(relevance, scores, qid, ks=ks, no_relevant="zero")
    assert np.all(np.isnan(skip[0]))
    assert np.all(one[0] == 1.0) and np.all(zero[0] == 0.0)
    # query 2 is unaffected by the convention
    np.testing.assert_array_equal(skip[1], [1.0, 1.0])
    np.testing.assert_array_equal(one[1], skip[1])
    np.testing.assert_array_equal(zero[1], skip[1])
    # mean_ndcg leaves skipped queries out, the others average them in
    np.testing.assert_array_equal(mean_ndcg(relevance, scores, qid, ks=ks), [1.0, 1.0])
    np.testing.assert_array_equal(mean_ndcg(relevance, scores, qid, ks=ks, no_relevant="zero"), [0.5, 0.5])
    np.testing.assert_array_equal(mean_ndcg(relevance, scores, qid, ks=ks, no_relevant="one"), [1.0, 1.0])
    # only irrelevant queries: the mean is NaN, without a warning
    with np.errstate(all="raise"):
        assert np.all(np.isnan(mean_ndcg([0, 0], [1, 2], [1, 1], ks=ks)))


# ---------------------------------------------------------------------------
# Positions and tie-breaking
# ---------------------------------------------------------------------------


def test_positions_follow_decreasing_scores_within_queries():
    rng = np.random.default_rng(5)
    relevance, scores, qid = random_queries(100, rng)
    positions = rank_within_queries(scores, qid)
    assert positions.dtype.kind == "i"
    for rows in rows_of(qid):
        np.testing.assert_array_equal(positions[rows], stats.rankdata(-scores[rows]))


def test_tie_breaking_is_seeded_and_random():
    qid = np.repeat(["x", "y", "z"], [40, 1, 25])
    constant = np.zeros(qid.shape[0])
    first = rank_within_queries(constant, qid, random_state=0)
    # same seed, same positions
    np.testing.assert_array_equal(first, rank_within_queries(constant, qid, random_state=0))
    # each query's positions are a permutation of 1..n_q
    for rows in rows_of(qid):
        np.testing.assert_array_equal(np.sort(first[rows]), np.arange(1, rows.size + 1))
    # not the input order
    assert not np.array_equal(first[qid == "x"], np.arange(1, 41))
    # another seed gives another order
    assert not np.array_equal(first, rank_within_queries(constant, qid, random_state=1))
    # NDCG uses the same tie-break: same seed, same values
    relevance = np.arange(qid.shape[0]) % 5
    np.testing.assert_array_equal(ndcg(relevance, constant, qid, random_state=7),
                                  ndcg(relevance, constant, qid, random_state=7))


def test_constant_scorer_gets_no_credit_for_input_order():
    # Every query is stored in ideal order; a constant scorer must not get
    # the ideal order's NDCG (1.0).
    rng = np.random.default_rng(8)
    sizes = rng.integers(5, 15, 300)
    qid = np.repeat(np.arange(300), sizes)
    relevance = np.concatenate([np.sort(rng.integers(0, 5, s))[::-1] for s in sizes]).astype(float)
    assert np.nanmean(ndcg(relevance, relevance, qid, k=3)) == 1.0
    constant = np.ones(qid.shape[0])
    assert np.nanmean(ndcg(relevance, constant, qid, k=3)) < 0.85


# ---------------------------------------------------------------------------
# Rank correlations per query
# ---------------------------------------------------------------------------


def test_cs_and_kendall_tau_match_scipy_per_query():
    rng = np.random.default_rng(11)
    relevance, scores, qid = random_queries(150, rng, tied_scores=True)
    cs_values = query_rank_scores(relevance, scores, qid, "cs")
    tau_values = query_rank_scores(relevance, scores, qid, "kendall_tau")
    checked = 0
    for q, rows in enumerate(rows_of(qid)):
        if np.ptp(relevance[rows]) == 0 or np.ptp(scores[rows]) == 0:
            # scipy: NaN; rankviz.label_ranking.metrics: 0.0
            assert cs_values[q] == 0.0 and tau_values[q] == 0.0
            continue
        checked += 1
        assert cs_values[q] == pytest.approx(stats.spearmanr(relevance[rows], scores[rows]).statistic)
        assert tau_values[q] == pytest.approx(stats.kendalltau(relevance[rows], scores[rows]).statistic)
    assert checked > 120


def test_wrc_and_lra_use_true_positions_by_decreasing_relevance():
    rng = np.random.default_rng(12)
    relevance, scores, qid = random_queries(80, rng, tied_scores=True)
    for measure, function in (("wrc", wrc), ("lra", lra)):
        values = query_rank_scores(relevance, scores, qid, measure)
        for q, rows in enumerate(rows_of(qid)):
            y_true = stats.rankdata(-relevance[rows], method="average")
            y_pred = stats.rankdata(-scores[rows], method="average")
            assert values[q] == pytest.approx(function(y_true, y_pred)), (measure, q)


@pytest.mark.parametrize("measure", ["cs", "wrc", "lra", "kendall_tau"])
def test_identical_order_scores_one_and_short_queries_nan(measure):
    relevance = [3, 1, 2, 0, 4, 1, 0, 2, 5]
    scores = [30, 10, 20, 0, 1, 7, 2, 0.5, 9]
    qid = ["a", "a", "a", "a", "b", "c", "c", "c", "c"]
    values = query_rank_scores(relevance, scores, qid, measure)
    # "a": same order; "b": one document; "c": relevance 1, 0, 2, 5 vs
    # scores 7, 2, 0.5, 9 -> not the same order
    assert values[0] == pytest.approx(1.0)
    assert np.isnan(values[1])
    assert values[2] < 1.0
    # reversed order: -1 for all measures here (no ties)
    reversed_values = query_rank_scores(relevance[:4], [-s for s in scores[:4]], qid[:4], measure)
    assert reversed_values[0] == pytest.approx(-1.0)


def test_kendall_tau_large_query_path_and_chunks(monkeypatch):
    rng = np.random.default_rng(13)
    relevance, scores, qid = random_queries(60, rng, tied_scores=True)
    dense = query_rank_scores(relevance, scores, qid, "kendall_tau")
    monkeypatch.setattr(ltr_metrics, "_KENDALL_DENSE_MAX_DOCS", 4)
    np.testing.assert_allclose(query_rank_scores(relevance, scores, qid, "kendall_tau"), dense, atol=1e-12)
    monkeypatch.setattr(ltr_metrics, "_MAX_TABLE_CELLS", 10)
    np.testing.assert_allclose(query_rank_scores(relevance, scores, qid, "kendall_tau"), dense, atol=1e-12)


def test_ndcg_table_in_chunks_gives_the_same_values(monkeypatch):
    rng = np.random.default_rng(14)
    relevance, scores, qid = random_queries(100, rng, tied_scores=True)
    whole = ndcg_at_ks(relevance, scores, qid, ks=[1, 4, 20])
    monkeypatch.setattr(ltr_metrics, "_MAX_TABLE_CELLS", 25)
    np.testing.assert_array_equal(ndcg_at_ks(relevance, scores, qid, ks=[1, 4, 20]), whole)


# ---------------------------------------------------------------------------
# Paired comparison and standard errors
# ---------------------------------------------------------------------------


# ---------------------------------------------------------------------------
# Input checks
# ---------------------------------------------------------------------------


def test_bad_inputs_name_the_problem():
    with pytest.raises(ValueError, match="one value per document"):
        ndcg([1, 0], [0.1, 0.2, 0.3], [1, 1, 1])
    with pytest.raises(ValueError, match="row 1"):
        ndcg([1, 0, 2], [0.1, np.nan, 0.3], [1, 1, 1])
    with pytest.raises(ValueError, match="non-negative"):
        ndcg([1, -1, 2], [0.1, 0.2, 0.3], [1, 1, 1])
    with pytest.raises(ValueError, match="qid is missing"):
        ndcg([1, 0, 2], [0.1, 0.2, 0.3], ["a", None, "a"])
    with pytest.raises(ValueError, match="form"):
        ndcg([1, 0], [0.1, 0.2], [1, 1], form="letor")
    with pytest.raises(ValueError, match="no_relevant"):
        ndcg([1, 0], [0.1, 0.2], [1, 1], no_relevant="nan")
    with pytest.raises(ValueError, match="integer >= 1"):
        ndcg_at_ks([1, 0], [0.1, 0.2], [1, 1], ks=[0, 1])
    with pytest.raises(ValueError, match="measure"):
        query_rank_scores([1, 0], [0.1, 0.2], [1, 1], "spearman")


# ---------------------------------------------------------------------------
# Vectorised code against a per-query loop
# ---------------------------------------------------------------------------


def reference_ndcg(relevance, scores, qid, ks, form, random_state, no_relevant):
    """Per-query loop, following the definitions literally."""
    tiebreak = np.random.default_rng(random_state).permutation(relevance.shape[0])
    fill = {"skip": np.nan, "one": 1.0, "zero": 0.0}[no_relevant]

    def dcg(gains, k):
        total = 0.0
        for j, gain in enumerate(gains[:k], start=1):
            if form == "common":
                total += gain / log2(1 + j)
            else:
                total += gain if j == 1 else gain / log2(j)
        return total

    result = []
    for rows in rows_of(qid):
        # decreasing score; ties by the documented random key
        ranked = rows[np.lexsort((tiebreak[rows], -scores[rows]))]
        gains = 2.0 ** relevance[ranked] - 1
        ideal = np.sort(2.0 ** relevance[rows] - 1)[::-1]
        row = []
        for k in ks:
            best = dcg(ideal, k)
            row.append(dcg(gains, k) / best if best > 0 else fill)
        result.append(row)
    return np.array(result)


@pytest.mark.parametrize("form, no_relevant", [("common", "skip"), ("mpboost", "one")])
def test_twenty_thousand_documents_match_a_per_query_loop(form, no_relevant):
    rng = np.random.default_rng(2024)
    # 2,000 queries of very different sizes (1 to about 100), 20,000 documents
    sizes = rng.multinomial(18_000, rng.dirichlet(np.ones(2000))) + 1
    qid = np.repeat([f"q{i:04d}" for i in range(2000)], sizes)
    n = qid.shape[0]
    assert n == 20_000 and (sizes == 1).sum() > 50
    relevance = rng.choice([0, 0, 0, 1, 1, 2, 3, 4], n).astype(float)
    scores = np.round(rng.normal(size=n) + 0.4 * relevance, 1)  # many ties
    perm = rng.permutation(n)
    relevance, scores, qid = relevance[perm], scores[perm], qid[perm]
    ks = [1, 2, 3, 5, 10, 30]

    ours = ndcg_at_ks(relevance, scores, qid, ks=ks, form=form, random_state=9, no_relevant=no_relevant)
    expected = reference_ndcg(relevance, scores, qid, ks, form, 9, no_relevant)
    assert ours.shape == (2000, len(ks))
    np.testing.assert_allclose(ours, expected, rtol=1e-12, atol=1e-14, equal_nan=True)
    np.testing.assert_allclose(mean_ndcg(relevance, scores, qid, ks=ks, form=form, random_state=9,
                                         no_relevant=no_relevant),
                               np.nanmean(expected, axis=0), rtol=1e-12)

    positions = rank_within_queries(scores, qid, random_state=9)
    tiebreak = np.random.default_rng(9).permutation(n)
    cs_values = query_rank_scores(relevance, scores, qid, "cs")
    tau_values = query_rank_scores(relevance, scores, qid, "kendall_tau")
    for q, rows in enumerate(rows_of(qid)):
        ranked = rows[np.lexsort((tiebreak[rows], -scores[rows]))]
        np.testing.assert_array_equal(positions[ranked], np.arange(1, rows.size + 1))
        if rows.size < 2:
            assert np.isnan(cs_values[q]) and np.isnan(tau_values[q])
        elif np.ptp(relevance[rows]) > 0 and np.ptp(scores[rows]) > 0:
            assert cs_values[q] == pytest.approx(stats.spearmanr(relevance[rows], scores[rows]).statistic)
            assert tau_values[q] == pytest.approx(stats.kendalltau(relevance[rows], scores[rows]).statistic)


# -- grades whose 2^r overflows a float -------------------------------------------------

def test_huge_grades_give_a_finite_ndcg_not_nan():
    """2^100000 is inf in float64: inf / inf was nan. The scaled gains keep the ratio."""
    relevance = np.array([100000.0, 3.0, 0.0, 1500.0, 1500.0, 0.0])
    qid = np.array([1, 1, 1, 2, 2, 2])
    scores = np.array([0.5, 0.9, 0.1, 0.1, 0.2, 0.9])  # each query's best document second
    with np.errstate(over="raise", invalid="raise", divide="raise"):  # no inf, no inf / inf
        values = ndcg_at_ks(relevance, scores, qid, ks=[1, 2, 3])
    assert np.isfinite(values).all()
    # Query 1: only the 100000 document counts (2^3 is nothing next to it), at position 2.
    np.testing.assert_allclose(values[0], [0.0, 1 / log2(3), 1 / log2(3)])
    # Query 2: two equal top gains at positions 2 and 3 of the list.
    ideal = 1 + 1 / log2(3)
    np.testing.assert_allclose(values[1], [0.0, (1 / log2(3)) / ideal, (1 / log2(3) + 0.5) / ideal])
    for form in ("common", "mpboost"):
        assert np.isfinite(ndcg(relevance, scores, qid, k=None, form=form)).all()


def test_scaled_gains_are_exactly_the_gains_for_small_integer_grades():
    rng = np.random.default_rng(7)
    relevance = rng.integers(0, 5, size=300).astype(float)
    scores = rng.normal(size=300)
    qid = np.repeat(np.arange(30), 10)
    ks = np.arange(1, 11)
    naive = []
    for q in range(30):
        rel, sc = relevance[qid == q], scores[qid == q]
        gains = (2.0 ** rel - 1)[np.lexsort((np.arange(10), -sc))]
        ideal = np.sort(2.0 ** rel - 1)[::-1]
        discount = 1 / np.log2(np.arange(2, 12))
        naive.append(np.cumsum(gains * discount) / np.cumsum(ideal * discount))
    # Tie-breaking aside (no ties in normal scores), the scaled form is the textbook one.
    np.testing.assert_allclose(ndcg_at_ks(relevance, scores, qid, ks=ks)[~np.isnan(naive).any(axis=1)],
                               np.array(naive)[~np.isnan(naive).any(axis=1)], rtol=1e-12)


def test_mpboost_scores_huge_grades():
    from rankviz import MPBoost

    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    qid = np.repeat(np.arange(6), 10)
    y = np.where(X[:, 0] > 0, 100000, rng.integers(0, 3, 60)).astype(float)
    model = MPBoost(n_rounds=5).fit(X, y, qid=qid)
    assert np.isfinite(model.score(X, y, qid=qid))
    assert model.score(X, y, qid=qid) == pytest.approx(1.0)  # the first stump splits on x0 > 0


# ---------------------------------------------------------------------------
# Queries with a single document
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("form", ["common", "mpboost"])
def test_a_single_document_query_scores_one_when_relevant(form):
    relevance = [2, 0, 1, 3, 0]
    scores = [0.1, 0.9, 0.5, -4.0, 7.0]
    qid = ["a", "a", "a", "lone", "empty"]  # "lone": one relevant document; "empty": one irrelevant one
    values = ndcg_at_ks(relevance, scores, qid, ks=[1, 3, 10], form=form)
    np.testing.assert_array_equal(values[1], [1.0, 1.0, 1.0])
    assert np.isnan(values[2]).all()   # no relevant document: left out by default
    np.testing.assert_array_equal(ndcg_at_ks(relevance, scores, qid, ks=[1, 3], form=form, no_relevant="one")[2],
                                  [1.0, 1.0])
    np.testing.assert_array_equal(ndcg_at_ks(relevance, scores, qid, ks=[1, 3], form=form, no_relevant="zero")[2],
                                  [0.0, 0.0])
    # the mean counts the lone query and leaves out the empty one
    mean = mean_ndcg(relevance, scores, qid, ks=[3], form=form)[0]
    assert mean == pytest.approx((values[0, 1] + 1.0) / 2)
    assert np.isnan(query_rank_scores(relevance, scores, qid, "cs")[1:]).all()


def test_single_document_queries_match_lightgbm():
    lgb = pytest.importorskip("lightgbm")
    rng = np.random.default_rng(31)
    sizes = np.array([1, 5, 1, 3, 1, 7, 2, 1, 4, 6, 1, 9])
    qid = np.repeat(np.arange(sizes.size), sizes)
    relevance = rng.integers(0, 4, qid.size).astype(float)
    relevance[qid == 4] = 0     # a single document that is not relevant
    relevance[qid == 3] = 0     # a longer query without a relevant document
    relevance[qid == 0] = 2     # a single relevant document
    scores = rng.normal(size=qid.size)  # no ties: LightGBM and rankviz break them differently
    # A constant feature: LightGBM cannot split, so its scores keep the order of init_score.
    data = lgb.Dataset(np.zeros((qid.size, 1)), relevance, group=sizes, init_score=scores)
    record = {}
    ks = [1, 3, 5, 10]
    lgb.train(dict(objective="lambdarank", metric="ndcg", eval_at=ks, verbosity=-1,
                   min_data_in_leaf=qid.size + 1, learning_rate=1e-10),
              data, num_boost_round=1, valid_sets=[data], valid_names=["train"],
              callbacks=[lgb.record_evaluation(record)])
    lightgbm = [record["train"][f"ndcg@{k}"][0] for k in ks]
    np.testing.assert_allclose(mean_ndcg(relevance, scores, qid, ks=ks, no_relevant="one"), lightgbm, rtol=1e-12)
