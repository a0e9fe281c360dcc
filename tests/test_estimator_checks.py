"""Every estimator against scikit-learn's estimator checks, and the conventions they stand for.

scikit-learn's checks (:func:`sklearn.utils.estimator_checks.parametrize_with_checks`)
generate their own data with a 1-D target ``y``. Two kinds of estimator need
another target, so the public adapter :mod:`rankviz.utils.estimator_checks`
(the one users get) runs each through a subclass whose ``fit`` (and
``score``) turns the checks' ``y`` into it and calls the real method; the
subclass keeps the real ``__init__``, ``get_params``, ``clone``,
``predict`` and tags, so the checks exercise the real estimator:

* label rankers take a rank matrix: ``y`` becomes one of the six rankings of
  three labels, chosen by ``floor(y) mod 6`` (a function of each value, so
  the same ``y`` gives the same rankings in ``fit`` and ``score``);
* query rankers take grades and query ids: ``y`` becomes the grades
  ``1 + |floor(y)| mod 4`` of documents of one query.

A target the conversion cannot read (None, complex numbers) is passed on as
it is, so that the estimator's own checks meet it. The ordinal estimators
take the checks' ``y`` directly (every real value is a level).

The label rankers and ordinal estimators declare the tag
``input_tags.categorical`` (they take nominal columns), and with it the
checks feed them small whole numbers only; a second subclass switches the
tag off so that the same checks also run on continuous features.

Below the checks: focused tests of what they stand for (NotFittedError,
``n_features_in_`` / ``feature_names_in_``, clear messages for complex,
sparse and empty input, the ``score`` methods against hand computations,
refitting, ``cross_val_score`` without a scorer).
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import sklearn
from scipy import sparse, stats
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import GroupKFold, KFold, cross_val_score
from sklearn.utils import get_tags

from rankviz import (IBLR, ConstraintClassifier, DefaultRanker, KNNRanker, MPBoost, OrdinalDefault, OrdinalKNN,
                     OrdinalTree, RankingForest, RankingTree, RankingTreeCV)
from rankviz.label_ranking.metrics import kendall_tau
from rankviz.ltr.baselines import BestSingleFeature, KNNRelevance, RandomOrder
from rankviz.ltr.metrics import mean_ndcg
from rankviz.ordinal.levels import mean_rank_loss
from rankviz.utils.estimator_checks import checked_estimators, parametrize_with_checks

from reference import random_problem

LABEL_RANKERS = (RankingTree, RankingTreeCV, RankingForest, DefaultRanker, KNNRanker, IBLR, ConstraintClassifier)
ORDINAL_ESTIMATORS = (OrdinalTree, OrdinalDefault, OrdinalKNN)
QUERY_RANKERS = (MPBoost, RandomOrder, BestSingleFeature, KNNRelevance)
ALL_ESTIMATORS = LABEL_RANKERS + ORDINAL_ESTIMATORS + QUERY_RANKERS


# --------------------------------------------------------------------------- #
# the estimators as the checks run them: rankviz.utils.estimator_checks
# --------------------------------------------------------------------------- #
PERMUTATIONS = np.array(list(itertools.permutations([1.0, 2.0, 3.0])))

# Each label ranker and ordinal estimator with its default settings, adapted to the checks'
# target, and a second time on continuous features; a few other settings once.
CHECKED = checked_estimators([
    RankingTree(), RankingTreeCV(leaf_grid=(1, 2), cv=2), RankingForest(n_estimators=5, random_state=0),
    DefaultRanker(), KNNRanker(n_neighbors=3), IBLR(),
    ConstraintClassifier(),
    OrdinalTree(), OrdinalDefault(), OrdinalKNN(n_neighbors=3),
    MPBoost(n_rounds=20), RandomOrder(), BestSingleFeature(), KNNRelevance(),
]) + checked_estimators([RankingTree(criterion="mallows"), IBLR(n_neighbors="auto"),
                         OrdinalTree(criterion="gini", prediction="mode")], on_numbers=False)

#: Checks that cannot apply, by estimator class; each is expected to fail (strict xfail).
NOT_APPLICABLE = {
    "RandomOrderOnChecks": {
        "check_methods_sample_order_invariance":
            "random scores are drawn per call by a document's place in X, not from its features",
        "check_methods_subset_invariance":
            "random scores are drawn per call by a document's place in X, not from its features",
    },
}


def not_applicable(estimator):
    return NOT_APPLICABLE.get(type(estimator).__name__, {})


# CHECKED is adapted already: rankviz's parametrize_with_checks adapts again only what is not.
@parametrize_with_checks(CHECKED, on_numbers=False, expected_failed_checks=not_applicable, xfail_strict=True)
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)


def test_every_estimator_is_checked_and_only_randomorder_has_exceptions():
    checked = {cls for estimator in CHECKED for cls in type(estimator).__mro__}
    assert set(ALL_ESTIMATORS) <= checked
    assert set(NOT_APPLICABLE) <= {type(estimator).__name__ for estimator in CHECKED}
    assert sum(len(reasons) for reasons in NOT_APPLICABLE.values()) == 2


def test_the_array_api_check_passes_where_scipy_array_api_is_on():
    """``check_array_api_input`` skips itself unless ``SCIPY_ARRAY_API=1`` is set before scipy
    is imported: run it in a fresh interpreter with it set."""
    code = textwrap.dedent("""
        import warnings
        import test_estimator_checks as module
        from sklearn.utils.estimator_checks import check_array_api_input
        warnings.simplefilter("ignore")
        for estimator in module.CHECKED:
            check_array_api_input(type(estimator).__name__, estimator, array_namespace="numpy",
                                  expect_only_array_outputs=False)
        print("ok", len(module.CHECKED))
    """)
    tests = Path(__file__).resolve().parent
    env = {**os.environ, "SCIPY_ARRAY_API": "1",
           "PYTHONPATH": os.pathsep.join([str(tests), os.environ.get("PYTHONPATH", "")])}
    result = subprocess.run([sys.executable, "-c", code], cwd=tests, env=env, capture_output=True, text=True,
                            timeout=240)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.split() == ["ok", str(len(CHECKED))]


# --------------------------------------------------------------------------- #
# data for the focused tests
# --------------------------------------------------------------------------- #
def label_data(seed=0, n=40):
    X, Y = random_problem(seed, n=n)
    return X, Y


def ordinal_data(seed=0, n=60):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"a": rng.normal(size=n).round(2), "b": rng.choice(["u", "v", "w"], size=n),
                      "c": rng.integers(0, 5, size=n).astype(float)})
    y = np.clip(np.round(X["a"].to_numpy() + (X["b"] == "u") + 2), 1, 4).astype(int)
    return X, y


def query_data(seed=0, n_queries=8, per_query=8, n_features=3):
    rng = np.random.default_rng(seed)
    qid = np.repeat(np.arange(n_queries), per_query)
    X = rng.normal(size=(n_queries * per_query, n_features)).round(2)
    y = np.clip(np.round(X[:, 0] + rng.normal(scale=0.8, size=len(qid)) + 1.5), 0, 3)
    return X, y, qid


def numeric(X):
    """The numeric columns of a label-ranking or ordinal table."""
    return X.drop(columns=[c for c in X.columns if X[c].dtype.kind not in "fi"])


def fitted(cls, frame=True, **params):
    """An estimator of class ``cls`` fitted on small data of its kind (a DataFrame or an array)."""
    model = cls(**params)
    if cls in LABEL_RANKERS:
        X, Y = label_data()
        return model.fit(X if frame else numeric(X).to_numpy(), Y), X if frame else numeric(X).to_numpy(), Y
    if cls in ORDINAL_ESTIMATORS:
        X, y = ordinal_data()
        return model.fit(X if frame else numeric(X).to_numpy(), y), X if frame else numeric(X).to_numpy(), y
    X, y, qid = query_data()
    if frame:
        X = pd.DataFrame(X, columns=["f1", "f2", "f3"])
    return model.fit(X, y, qid=qid), X, y


# --------------------------------------------------------------------------- #
# NotFittedError before fit
# --------------------------------------------------------------------------- #
X3 = np.zeros((2, 3))
Y3 = np.array([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]])
QID = np.array([0, 0])

UNFITTED_CALLS = {
    RankingTree: {"apply": lambda m: m.apply(X3), "predict": lambda m: m.predict(X3),
                  "predict_at": lambda m: m.predict_at(X3, [0.9]), "gamma_path": lambda m: m.gamma_path(),
                  "score": lambda m: m.score(X3, Y3)},
    RankingTreeCV: {"predict": lambda m: m.predict(X3), "score": lambda m: m.score(X3, Y3),
                    "score_at": lambda m: m.score_at([0.9])},
    RankingForest: {"predict": lambda m: m.predict(X3), "predict_mean_positions": lambda m: m.predict_mean_positions(X3),
                    "score": lambda m: m.score(X3, Y3)},
    DefaultRanker: {"predict": lambda m: m.predict(X3), "score": lambda m: m.score(X3, Y3)},
    KNNRanker: {"kneighbors": lambda m: m.kneighbors(X3), "predict": lambda m: m.predict(X3),
                "score": lambda m: m.score(X3, Y3)},
    IBLR: {"kneighbors": lambda m: m.kneighbors(X3), "predict": lambda m: m.predict(X3),
           "predict_with_reliability": lambda m: m.predict_with_reliability(X3),
           "score": lambda m: m.score(X3, Y3)},
    ConstraintClassifier: {"decision_function": lambda m: m.decision_function(X3),
                           "predict": lambda m: m.predict(X3), "score": lambda m: m.score(X3, Y3)},
    OrdinalTree: {"apply": lambda m: m.apply(X3), "predict": lambda m: m.predict(X3),
                  "predict_index": lambda m: m.predict_index(X3), "predict_by_depth": lambda m: m.predict_by_depth(X3),
                  "gamma_path": lambda m: m.gamma_path(), "level_index": lambda m: m.level_index([1, 2]),
                  "rank_loss": lambda m: m.rank_loss(X3, [1, 2]),
                  "rank_losses": lambda m: m.rank_losses(X3, [1, 2]), "score": lambda m: m.score(X3, [1, 2])},
    OrdinalDefault: {"predict": lambda m: m.predict(X3), "predict_index": lambda m: m.predict_index(X3),
                     "level_index": lambda m: m.level_index([1, 2]), "rank_loss": lambda m: m.rank_loss(X3, [1, 2]),
                  "rank_losses": lambda m: m.rank_losses(X3, [1, 2]),
                     "score": lambda m: m.score(X3, [1, 2])},
    OrdinalKNN: {"predict": lambda m: m.predict(X3), "predict_index": lambda m: m.predict_index(X3),
                 "level_index": lambda m: m.level_index([1, 2]), "rank_loss": lambda m: m.rank_loss(X3, [1, 2]),
                  "rank_losses": lambda m: m.rank_losses(X3, [1, 2]),
                 "score": lambda m: m.score(X3, [1, 2])},
    MPBoost: {"predict": lambda m: m.predict(X3), "staged_predict": lambda m: m.staged_predict(X3),
              "staged_scores": lambda m: m.staged_scores(X3), "truncated": lambda m: m.truncated(1),
              "loss_bound_": lambda m: m.loss_bound_, "stumps_frame": lambda m: m.stumps_frame(),
              "pairs_": lambda m: m.pairs_, "distance_": lambda m: m.distance_,
              "score": lambda m: m.score(X3, [1, 0], qid=QID)},
    RandomOrder: {"predict": lambda m: m.predict(X3), "score": lambda m: m.score(X3, [1, 0], qid=QID)},
    BestSingleFeature: {"predict": lambda m: m.predict(X3), "score": lambda m: m.score(X3, [1, 0], qid=QID)},
    KNNRelevance: {"predict": lambda m: m.predict(X3), "score": lambda m: m.score(X3, [1, 0], qid=QID)},
}

UNFITTED_CASES = [pytest.param(cls, name, call, id=f"{cls.__name__}.{name}")
                  for cls, calls in UNFITTED_CALLS.items() for name, call in calls.items()]


def test_the_unfitted_table_covers_every_estimator_and_public_method():
    assert set(UNFITTED_CALLS) == set(ALL_ESTIMATORS)
    for cls, calls in UNFITTED_CALLS.items():
        public = {name for name in dir(cls) if not name.startswith("_") and callable(getattr(cls, name))}
        needs_fit = public - {"fit", "iter_fit", "get_params", "set_params", "get_metadata_routing"} \
            - {name for name in public if name.startswith("set_") and name.endswith("_request")}
        assert needs_fit <= set(calls), f"{cls.__name__}: {sorted(needs_fit - set(calls))}"


@pytest.mark.parametrize("cls, name, call", UNFITTED_CASES)
def test_methods_that_need_a_fit_raise_not_fitted_error(cls, name, call):
    with pytest.raises(NotFittedError, match="not fitted yet"):
        call(cls())


# --------------------------------------------------------------------------- #
# n_features_in_ and feature_names_in_
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("cls", ALL_ESTIMATORS, ids=lambda cls: cls.__name__)
def test_feature_names_in_only_for_a_dataframe_with_string_columns(cls):
    model, X, _ = fitted(cls, frame=True)
    assert model.n_features_in_ == X.shape[1]
    assert isinstance(model.feature_names_in_, np.ndarray)
    assert model.feature_names_in_.tolist() == list(X.columns)
    assert all(isinstance(name, str) for name in model.feature_names_in_)
    # refitted on an array: no names, and none kept from the earlier fit
    X_array = array_features(cls)
    args, kwargs = _fit_args(cls, X_array)
    refitted = model.fit(*args, **kwargs)
    assert not hasattr(refitted, "feature_names_in_")
    assert refitted.n_features_in_ == X_array.shape[1]


def array_features(cls):
    """The features of :func:`fitted` as an array (the numeric columns)."""
    if cls in LABEL_RANKERS:
        return numeric(label_data()[0]).to_numpy()
    if cls in ORDINAL_ESTIMATORS:
        return numeric(ordinal_data()[0]).to_numpy()
    return query_data()[0]


def _fit_args(cls, X):
    """``(args, kwargs)`` of a fit on features ``X`` with the target of :func:`fitted`."""
    if cls in LABEL_RANKERS:
        return (X, label_data()[1]), {}
    if cls in ORDINAL_ESTIMATORS:
        return (X, ordinal_data()[1]), {}
    _, y, qid = query_data()
    return (X, y), {"qid": qid}


def test_query_rankers_take_qid_by_keyword():
    X, y, qid = query_data()
    for cls in QUERY_RANKERS:
        assert cls().fit(pd.DataFrame(X, columns=["a", "b", "c"]), y, qid=qid).n_features_in_ == 3


@pytest.mark.parametrize("cls", [RankingTree, OrdinalTree], ids=lambda cls: cls.__name__)
def test_trees_keep_their_drawing_names_in_the_encoder(cls):
    model, X, _ = fitted(cls, frame=True)
    assert model.encoder_.feature_names == list(X.columns) == model.tree_.feature_names
    array_model, X_array, _ = fitted(cls, frame=False)
    assert not hasattr(array_model, "feature_names_in_")
    names = [f"x{j + 1}" for j in range(X_array.shape[1])]
    assert array_model.encoder_.feature_names == names == array_model.tree_.feature_names


@pytest.mark.parametrize("cls", ALL_ESTIMATORS, ids=lambda cls: cls.__name__)
def test_predicting_with_another_number_of_features_is_sklearns_error(cls):
    model, X, _ = fitted(cls, frame=False)
    X = np.asarray(X)
    with pytest.raises(ValueError, match=f"X has 1 features, but {cls.__name__} is expecting "
                                         f"{X.shape[1]} features as input"):
        model.predict(X[:, :1])


@pytest.mark.parametrize("cls", ALL_ESTIMATORS, ids=lambda cls: cls.__name__)
def test_predicting_with_other_feature_names_is_sklearns_error(cls):
    model, X, _ = fitted(cls, frame=True)
    renamed = X.rename(columns={X.columns[0]: "not_in_fit"})
    with pytest.raises(ValueError, match="The feature names should match those that were passed during fit"):
        model.predict(renamed)


# --------------------------------------------------------------------------- #
# complex, sparse and empty input
# --------------------------------------------------------------------------- #
def fit_on(cls, X):
    """Fit ``cls`` on features ``X`` (any content) with a target of the right kind and length."""
    n = X.shape[0]
    if cls in LABEL_RANKERS:
        return cls().fit(X, PERMUTATIONS[np.arange(n) % 6])
    if cls in ORDINAL_ESTIMATORS:
        return cls().fit(X, np.arange(n) % 3)
    return cls().fit(X, (np.arange(n) % 3).astype(float), qid=np.zeros(n))


@pytest.mark.parametrize("cls", ALL_ESTIMATORS, ids=lambda cls: cls.__name__)
def test_complex_features_are_refused(cls):
    X = np.array([[1.0 + 2.0j, 0.5], [2.0, 1.0], [3.0, 0.0], [4.0, 1.5]])
    with pytest.raises(ValueError, match="Complex data not supported"):
        fit_on(cls, X)
    with pytest.raises(ValueError, match="Complex data not supported: the column"):
        fit_on(cls, pd.DataFrame({"z": X[:, 0], "w": X[:, 1].real}))
    model = fit_on(cls, X.real)
    with pytest.raises(ValueError, match="Complex data not supported"):
        model.predict(X)


@pytest.mark.parametrize("cls", [cls for cls in ALL_ESTIMATORS if cls is not MPBoost], ids=lambda cls: cls.__name__)
def test_sparse_features_are_refused_with_what_to_do(cls):
    """Every estimator but MPBoost, which searches a sparse matrix (tests/test_mpboost_sparse.py)."""
    X = np.array([[1.0, 0.0], [0.0, 2.0], [3.0, 0.0], [0.0, 0.5]])
    for container in (sparse.csr_matrix, sparse.csr_array):
        with pytest.raises(TypeError, match=r"does not accept sparse input.*X\.toarray\(\)"):
            fit_on(cls, container(X))
    model = fit_on(cls, X)
    with pytest.raises(TypeError, match="sparse"):
        model.predict(sparse.csr_matrix(X))


@pytest.mark.parametrize("cls", ALL_ESTIMATORS, ids=lambda cls: cls.__name__)
def test_empty_or_one_dimensional_features_are_refused_naming_the_shape(cls):
    with pytest.raises(ValueError, match=rf"^Found array with 0 feature\(s\) \(shape=\(3, 0\)\) while a "
                                         rf"minimum of 1 is required by {cls.__name__}\.$"):
        fit_on(cls, np.empty((3, 0)))
    with pytest.raises(ValueError, match=r"0 feature\(s\) \(shape=\(3, 0\)\)"):
        fit_on(cls, pd.DataFrame(index=range(3)))
    with pytest.raises(ValueError, match=rf"^Found array with 0 sample\(s\) \(shape=\(0, 2\)\) while a "
                                         rf"minimum of 1 is required by {cls.__name__}\.$"):
        fit_on(cls, np.empty((0, 2)))
    with pytest.raises(ValueError, match=r"got a 1-D array of shape \(4,\) instead\. Reshape your data"):
        fit_on(cls, np.arange(4.0))
    model = fit_on(cls, np.arange(8.0).reshape(4, 2))
    with pytest.raises(ValueError, match="Reshape your data"):
        model.predict(np.arange(2.0))


@pytest.mark.parametrize("cls", LABEL_RANKERS + ORDINAL_ESTIMATORS, ids=lambda cls: cls.__name__)
def test_an_empty_table_after_fitting_gives_an_empty_prediction(cls):
    model, X, _ = fitted(cls, frame=True)
    assert len(model.predict(X.iloc[:0])) == 0


@pytest.mark.parametrize("cls", ALL_ESTIMATORS, ids=lambda cls: cls.__name__)
def test_missing_values_are_accepted_as_the_tags_say(cls):
    assert get_tags(cls()).input_tags.allow_nan
    X = np.array([[1.0, np.nan], [2.0, 1.0], [np.nan, 0.0], [4.0, 1.5], [5.0, 2.0], [6.0, 0.5]])
    model = fit_on(cls, X)
    assert len(model.predict(X)) == len(X)


def test_tags_say_what_each_estimator_takes():
    for cls in LABEL_RANKERS:
        tags = get_tags(cls())
        assert tags.target_tags.required and tags.target_tags.two_d_labels
        assert tags.target_tags.multi_output and not tags.target_tags.single_output
        assert tags.input_tags.string and tags.input_tags.categorical
    for cls in ORDINAL_ESTIMATORS:
        tags = get_tags(cls())
        assert tags.target_tags.required and tags.target_tags.one_d_labels
        assert tags.input_tags.string and tags.input_tags.categorical
    for cls in QUERY_RANKERS:
        tags = get_tags(cls())
        assert tags.target_tags.required == (cls is not RandomOrder)
        assert not tags.input_tags.string and not tags.input_tags.categorical
    with pytest.raises(ValueError, match="requires y to be passed, but the target y is None"):
        MPBoost().fit(np.ones((4, 2)), None, qid=np.zeros(4))


# --------------------------------------------------------------------------- #
# score
# --------------------------------------------------------------------------- #
def reference_mean_tau(Y_true, Y_pred):
    """Mean scipy tau-b over the labels each true ranking holds, rows with fewer than 2 left out."""
    taus = []
    for truth, prediction in zip(Y_true, Y_pred):
        present = ~np.isnan(truth)
        if present.sum() >= 2:
            taus.append(stats.kendalltau(truth[present], prediction[present]).statistic)
    return float(np.mean(taus))


@pytest.mark.parametrize("cls", LABEL_RANKERS, ids=lambda cls: cls.__name__)
def test_label_ranker_score_is_the_mean_kendall_tau(cls):
    X, Y = label_data(1, n=50)
    model = cls().fit(X[:35], Y[:35])
    X_test, Y_test = X[35:], Y[35:].copy()
    # incomplete test rankings: one with two labels, one with a single label (no tau: left out)
    Y_test[0] = [1.0, np.nan, 2.0, np.nan]
    Y_test[1] = [np.nan, 1.0, np.nan, np.nan]
    predicted = model.predict(X_test)
    score = model.score(X_test, Y_test)
    assert score == pytest.approx(reference_mean_tau(Y_test, predicted), abs=1e-12)
    assert score == pytest.approx(np.nanmean(kendall_tau(Y_test, predicted)), abs=1e-12)
    assert -1.0 <= score <= 1.0


def test_label_ranker_score_by_hand():
    """Two rows: the prediction equals the truth (tau 1), and swaps one adjacent pair of 3 (tau 1/3)."""
    model = DefaultRanker().fit(np.zeros((2, 1)), [[1, 2, 3], [1, 2, 3]])
    assert model.score(np.zeros((2, 1)), [[1, 2, 3], [2, 1, 3]]) == pytest.approx((1 + 1 / 3) / 2)
    assert model.score(np.zeros((2, 1)), [[3, 2, 1], [3, 2, 1]]) == pytest.approx(-1.0)
    assert np.isnan(model.score(np.zeros((1, 1)), [[1, np.nan, np.nan]]))
    with pytest.raises(ValueError, match="X has 2 rows but Y has 1"):
        model.score(np.zeros((2, 1)), [[1, 2, 3]])


@pytest.mark.parametrize("cls", ORDINAL_ESTIMATORS, ids=lambda cls: cls.__name__)
def test_ordinal_score_is_the_negated_rank_loss(cls):
    X, y = ordinal_data(2, n=80)
    model = cls().fit(X[:60], y[:60])
    predicted = model.predict(X[60:])
    by_hand = np.mean(np.abs(predicted.astype(float) - y[60:]))  # numeric ratings: positions are the values
    assert model.rank_loss(X[60:], y[60:]) == pytest.approx(by_hand)
    assert model.score(X[60:], y[60:]) == pytest.approx(-by_hand)
    assert model.score(X[60:], y[60:]) == -mean_rank_loss(y[60:], predicted)


def test_ordinal_score_on_named_levels_uses_their_positions():
    X = np.array([[0.0], [0.0], [1.0], [1.0]])
    y = np.array(["low", "low", "high", "high"], dtype=object)
    model = OrdinalTree().set_params(levels=["low", "mid", "high"]).fit(X, y)
    # low = 1, mid = 2, high = 3: the predictions (low, high) are 1 and 2 positions away
    assert model.score(np.array([[0.0], [1.0]]), ["mid", "low"]) == pytest.approx(-(1 + 2) / 2)
    assert model.score(X, y) == 0.0


@pytest.mark.parametrize("cls", QUERY_RANKERS, ids=lambda cls: cls.__name__)
def test_query_ranker_score_is_the_mean_ndcg_at_10(cls):
    X, y, qid = query_data(3, n_queries=10, per_query=14)
    train, test = qid < 6, qid >= 6
    model = cls().fit(X[train], y[train], qid=qid[train])
    expected = mean_ndcg(y[test], model.predict(X[test]), qid[test], ks=[10])[0]
    assert model.score(X[test], y[test], qid=qid[test]) == expected
    assert 0.0 <= expected <= 1.0


def test_query_ranker_score_by_hand():
    """One query, grades (2, 0, 1) in the predicted order: DCG = 3 + 0 + 1/log2(4), ideal 3 + 1/log2(3)."""
    X = np.array([[1.0], [2.0], [3.0], [4.0]])
    model = BestSingleFeature().fit(X, [0, 1, 2, 3], qid=[0, 0, 0, 0])
    assert (model.feature_, model.sign_) == (0, 1)
    score = model.score(np.array([[3.0], [2.0], [1.0]]), [2, 0, 1], qid=[5, 5, 5])
    assert score == pytest.approx((3 + 0 + 1 / 2) / (3 + 1 / np.log2(3)))


# --------------------------------------------------------------------------- #
# refitting
# --------------------------------------------------------------------------- #
def test_iblr_refit_with_a_fixed_k_drops_the_cv_scores():
    X, Y = label_data(4, n=40)
    model = IBLR(n_neighbors="auto", k_grid=(1, 3, 5)).fit(X, Y)
    assert set(model.cv_scores_) == {1, 3, 5} and model.n_neighbors_ in (1, 3, 5)
    model.set_params(n_neighbors=7).fit(X, Y)
    assert not hasattr(model, "cv_scores_") and model.n_neighbors_ == 7
    fresh = IBLR(n_neighbors=7, k_grid=(1, 3, 5)).fit(X, Y)
    assert set(vars(model)) == set(vars(fresh))
    np.testing.assert_array_equal(model.predict(X), fresh.predict(X))


@pytest.mark.parametrize("cls", ALL_ESTIMATORS, ids=lambda cls: cls.__name__)
def test_a_refit_leaves_the_attributes_of_a_fresh_fit(cls):
    model, _, _ = fitted(cls, frame=True)
    args, kwargs = _fit_args(cls, array_features(cls))
    model.fit(*args, **kwargs)
    fresh = clone(model).fit(*args, **kwargs)
    assert set(vars(model)) == set(vars(fresh))


def test_mpboost_staged_predict_checks_x_at_once():
    X, y, qid = query_data()
    model = MPBoost(n_rounds=3).fit(X, y, qid=qid)
    with pytest.raises(ValueError, match="expecting 3 features"):
        model.staged_predict(X[:, :2])  # no next() needed
    np.testing.assert_array_equal(list(model.staged_predict(X))[-1], model.predict(X))


# --------------------------------------------------------------------------- #
# cross_val_score without a scorer
# --------------------------------------------------------------------------- #
def test_cross_val_score_without_a_scorer_on_a_ranking_tree():
    X, Y = label_data(5, n=45)
    scores = cross_val_score(RankingTree(), X, Y, cv=3)
    by_hand = [RankingTree().fit(X.iloc[train], Y[train]).score(X.iloc[test], Y[test])
               for train, test in KFold(3).split(X)]
    np.testing.assert_allclose(scores, by_hand)
    assert np.all((-1 <= scores) & (scores <= 1))


def test_cross_val_score_without_a_scorer_on_other_label_rankers():
    X, Y = label_data(6, n=30)
    for model in (IBLR(), KNNRanker(), DefaultRanker(), ConstraintClassifier()):
        scores = cross_val_score(model, X, Y, cv=3)
        assert scores.shape == (3,) and np.isfinite(scores).all()


def test_cross_val_score_without_a_scorer_on_an_ordinal_tree():
    X, y = ordinal_data(7, n=90)
    cv = KFold(3, shuffle=True, random_state=0)
    scores = cross_val_score(OrdinalTree(max_depth=3), X, y, cv=cv)
    by_hand = [-OrdinalTree(max_depth=3).fit(X.iloc[train], y[train]).rank_loss(X.iloc[test], y[test])
               for train, test in cv.split(X)]
    np.testing.assert_allclose(scores, by_hand)
    assert np.all(scores <= 0)


def test_cross_val_score_on_mpboost_routes_the_query_ids():
    X, y, qid = query_data(8, n_queries=12, per_query=10)
    with sklearn.config_context(enable_metadata_routing=True):
        model = MPBoost(n_rounds=15).set_fit_request(qid=True).set_score_request(qid=True)
        scores = cross_val_score(model, X, y, cv=GroupKFold(3), params={"qid": qid, "groups": qid})
    by_hand = [MPBoost(n_rounds=15).fit(X[train], y[train], qid=qid[train]).score(X[test], y[test], qid=qid[test])
               for train, test in GroupKFold(3).split(X, y, groups=qid)]
    np.testing.assert_allclose(scores, by_hand)
    assert np.all((0 <= scores) & (scores <= 1))
