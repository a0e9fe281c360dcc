"""scikit-learn scorers for rankings (rankviz.metrics) and Emond & Mason's tau_x."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import sklearn
from sklearn.model_selection import GridSearchCV, GroupKFold, KFold, cross_val_score, cross_validate

from rankviz import MPBoost, OrdinalTree, RankingTree, load_ltr_sample, load_sample
from rankviz.label_ranking.metrics import cs, kendall_tau, lra, tau_x, wrc
from rankviz.ltr.metrics import mean_ndcg
from rankviz.metrics import get_scorer, get_scorer_names
from rankviz.ordinal import make_ordinal_square, mean_rank_loss


def brute_tau_x(a, b):
    """Emond & Mason (2002), term by term over the ordered pairs of labels both rankings hold."""
    held = [k for k in range(len(a)) if not (np.isnan(a[k]) or np.isnan(b[k]))]
    if len(held) < 2:
        return np.nan
    score = lambda r, i, j: 1 if r[i] <= r[j] else -1  # noqa: E731 (ahead or tied: 1)
    total = sum(score(a, i, j) * score(b, i, j) for i, j in itertools.permutations(held, 2))
    return total / (len(held) * (len(held) - 1))


def test_tau_x_is_the_formula_of_emond_and_mason():
    rng = np.random.default_rng(7)
    for _ in range(300):
        n_labels = int(rng.integers(2, 7))
        a = rng.integers(1, n_labels + 1, size=n_labels).astype(float)  # ties likely
        b = rng.integers(1, n_labels + 1, size=n_labels).astype(float)
        a[rng.random(n_labels) < 0.15] = np.nan
        expected = brute_tau_x(a, b)
        got = tau_x(a, b)
        assert (np.isnan(expected) and np.isnan(got)) or got == pytest.approx(expected)


def test_tau_x_of_many_rows_in_blocks_is_the_formula_row_by_row(monkeypatch):
    from rankviz.label_ranking import metrics

    monkeypatch.setattr(metrics, "_PAIR_CELLS", 100)  # 2 rows of 7 labels per block: every block edge is met
    rng = np.random.default_rng(11)
    A = rng.integers(1, 5, size=(45, 7)).astype(float)
    B = rng.integers(1, 5, size=(45, 7)).astype(float)
    A[rng.random(A.shape) < 0.2] = np.nan
    B[:3] = np.nan  # rows with no label in common: NaN
    expected = [brute_tau_x(a, b) for a, b in zip(A, B)]
    np.testing.assert_allclose(tau_x(A, B), expected, rtol=0, atol=1e-15)


def test_tau_x_by_hand_and_against_kendall_tau_without_ties():
    assert tau_x([1, 2, 3], [1, 2, 3]) == 1.0 and tau_x([1, 2, 3], [3, 2, 1]) == -1.0
    assert tau_x([1, 1, 1], [1, 1, 1]) == 1.0       # tau-b is undefined here; tau_x is 1
    assert tau_x([1, 2, 3], [1, 2, 2]) == pytest.approx(4 / 6)
    assert tau_x([1, 2, 3], [1, 1, 1]) == pytest.approx(0.0)
    rng = np.random.default_rng(0)
    A = np.array([rng.permutation(6) + 1 for _ in range(40)], dtype=float)
    B = np.array([rng.permutation(6) + 1 for _ in range(40)], dtype=float)
    np.testing.assert_allclose(tau_x(A, B), kendall_tau(A, B))
    with pytest.raises(ValueError, match="same shape"):
        tau_x([1, 2], [1, 2, 3])


@pytest.fixture(scope="module")
def metalearning():
    return load_sample("metalearning")


@pytest.mark.parametrize(("name", "measure"), [("kendall_tau", kendall_tau), ("cs", cs), ("wrc", wrc),
                                               ("lra", lra), ("tau_x", tau_x)])
def test_label_ranking_scorers_are_the_mean_measure_on_held_out_rows(metalearning, name, measure):
    X, Y = metalearning.X, metalearning.Y
    folds = list(KFold(3, shuffle=True, random_state=0).split(X))
    got = cross_val_score(RankingTree(min_samples_leaf=10), X, Y, cv=folds, scoring=get_scorer(name))
    expected = [np.nanmean(measure(Y[test], RankingTree(min_samples_leaf=10).fit(X.iloc[train], Y[train])
                                   .predict(X.iloc[test]))) for train, test in folds]
    np.testing.assert_allclose(got, expected)


def test_a_grid_search_takes_a_dict_of_scorers_and_refits_on_one(metalearning):
    search = GridSearchCV(RankingTree(), {"min_samples_leaf": [5, 20]}, cv=3, refit="tau_x",
                          scoring={name: get_scorer(name) for name in ("kendall_tau", "tau_x", "cs")})
    search.fit(metalearning.X, metalearning.Y)
    assert set(search.cv_results_) >= {"mean_test_kendall_tau", "mean_test_tau_x", "mean_test_cs"}
    best = int(np.argmax(search.cv_results_["mean_test_tau_x"]))
    assert search.best_params_ == search.cv_results_["params"][best]


def test_the_rank_loss_scorer_is_the_negated_loss():
    X, y = make_ordinal_square(300, seed=1)
    folds = list(KFold(3, shuffle=True, random_state=0).split(X))
    got = cross_val_score(OrdinalTree(min_samples_leaf=5), X, y, cv=folds, scoring=get_scorer("rank_loss"))
    expected = [-mean_rank_loss(y[test], OrdinalTree(min_samples_leaf=5).fit(X.iloc[train], y[train])
                                .predict(X.iloc[test])) for train, test in folds]
    np.testing.assert_allclose(got, expected)
    assert (got <= 0).all()


def test_ndcg_scorers_route_the_query_ids():
    train = load_ltr_sample()["train"]
    folds = list(GroupKFold(3).split(train.X, groups=train.qid))
    with sklearn.config_context(enable_metadata_routing=True):
        result = cross_validate(MPBoost(n_rounds=15).set_fit_request(qid=True), train.X, train.relevance,
                                cv=folds, params={"qid": train.qid},
                                scoring={"ndcg@3": get_scorer("ndcg@3"), "ndcg@10": get_scorer("ndcg@10")})
    for k in (3, 10):
        expected = []
        for fit_rows, test in folds:
            model = MPBoost(n_rounds=15).fit(train.X[fit_rows], train.relevance[fit_rows], qid=train.qid[fit_rows])
            expected.append(mean_ndcg(train.relevance[test], model.predict(train.X[test]), train.qid[test],
                                      ks=[k])[0])
        np.testing.assert_allclose(result[f"test_ndcg@{k}"], expected)


def test_unknown_names_are_refused_with_the_list():
    assert "ndcg@k" in get_scorer_names()
    for bad in ("accuracy", "ndcg@0", "ndcg@", "ndcg@x", 3):
        with pytest.raises(ValueError, match="scorer"):
            get_scorer(bad)
