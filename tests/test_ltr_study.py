"""The study of Zhu et al. (2009): baselines, tuning, the method comparison, growth curves and their figures."""

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.exceptions import NotFittedError
from sklearn.neighbors import KNeighborsRegressor
from sklearn.preprocessing import StandardScaler

from rankviz.ltr.ddf import DDF_NAMES, DEFAULT_PARAMETERS
from rankviz.ltr.baselines import BestSingleFeature, KNNRelevance, RandomOrder
from rankviz.datasets.queries import split_by_query
from rankviz.ltr.synthetic import make_ltr_dataset
from rankviz.ltr.metrics import mean_ndcg, ndcg_at_ks, query_ids
from rankviz.experiments.ltr_study import (
    BASELINES, PARAMETER_GRIDS, GrowthCurves, compare_rankers, iter_growth, method_title, staged_ndcg,
    tune_mpboost,
)
from rankviz.ltr.mpboost import MPBoost, misordering_loss
from rankviz.viz.figures.ltr import (
    METHOD_STYLES, SPLIT_COLOURS, loss_bound_figure, ndcg_by_k_figure, rounds_figure,
)

N_ROUNDS = 30
KS = [1, 3, 5, 10]


@pytest.fixture(scope="module")
def splits():
    """A small learnable set: 40 queries, 6 features of which 3 informative, little noise."""
    data = make_ltr_dataset(n_queries=40, docs_per_query=(6, 14), n_features=6, n_informative=3,
                            noise=0.3, seed=1)
    return split_by_query(data, seed=0)


@pytest.fixture(scope="module")
def test_with_unjudged_query(splits):
    """The test split, rows shuffled (queries no longer in id order, documents interleaved), with
    one query's grades set to 0 (no relevant document)."""
    test = splits[2]
    rows = np.random.default_rng(7).permutation(test.n_docs)
    X, relevance, qid = test.X[rows], test.relevance[rows].copy(), test.qid[rows]
    assert list(query_ids(qid)) != sorted(query_ids(qid))
    unjudged = query_ids(qid)[1]
    relevance[qid == unjudged] = 0.0
    return SimpleNamespace(X=X, relevance=relevance, qid=qid), unjudged


@pytest.fixture(scope="module")
def comparison(splits, test_with_unjudged_query):
    train, vali, _ = splits
    test, _ = test_with_unjudged_query
    calls = []
    result = compare_rankers(train, vali, test, n_rounds=N_ROUNDS, ks=KS,
                             progress=lambda fraction, message: calls.append((fraction, message)))
    return result, calls


# --------------------------------------------------------------------------- #
# baselines
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("k, form", [(10, "common"), (3, "mpboost"), (1, "common")])
def test_best_single_feature_is_the_brute_force_best(splits, k, form):
    train, _, test = splits
    table = np.array([[mean_ndcg(train.relevance, sign * train.X[:, f], train.qid, ks=[k], form=form)[0]
                       for sign in (1.0, -1.0)] for f in range(train.n_features)])
    model = BestSingleFeature(k=k, form=form).fit(train.X, train.relevance, qid=train.qid)
    np.testing.assert_allclose(model.train_ndcg_, table)
    feature, column = np.unravel_index(np.argmax(table), table.shape)
    assert (model.feature_, model.sign_) == (feature, 1 if column == 0 else -1)
    assert model.train_ndcg_[model.feature_, 0 if model.sign_ == 1 else 1] == table.max()
    np.testing.assert_array_equal(model.predict(test.X), model.sign_ * test.X[:, model.feature_])


def test_best_single_feature_finds_a_planted_reversed_feature():
    rng = np.random.default_rng(4)
    qid = np.repeat(np.arange(12), 8)
    relevance = rng.integers(0, 4, size=qid.size).astype(float)
    X = rng.normal(size=(qid.size, 5))
    X[:, 3] = -relevance  # low values mean relevant; ties only between equal grades
    model = BestSingleFeature(k=5).fit(X, relevance, qid=qid)
    assert (model.feature_, model.sign_) == (3, -1)
    assert model.train_ndcg_[3, 1] == pytest.approx(1.0)
    assert model.train_ndcg_[3, 0] < 1.0
    np.testing.assert_allclose(mean_ndcg(relevance, model.predict(X), qid, ks=[1, 5, 10]), 1.0)


def test_knn_with_one_neighbour_reproduces_the_training_grades(splits):
    train = splits[0]
    model = KNNRelevance(n_neighbors=1).fit(train.X, train.relevance)
    np.testing.assert_array_equal(model.predict(train.X), train.relevance)


def test_knn_is_sklearn_regression_on_standardised_features(splits):
    train, _, test = splits
    model = KNNRelevance(n_neighbors=5).fit(train.X, train.relevance, qid=train.qid)
    scaler = StandardScaler().fit(train.X)
    reference = KNeighborsRegressor(n_neighbors=5).fit(scaler.transform(train.X), train.relevance)
    np.testing.assert_allclose(model.predict(test.X), reference.predict(scaler.transform(test.X)))
    # standardising matters: a feature blown up by 1000 would otherwise decide every neighbour
    X = train.X.copy()
    X[:, 5] *= 1000.0
    Xt = test.X.copy()
    Xt[:, 5] *= 1000.0
    scaled = KNNRelevance(n_neighbors=5).fit(X, train.relevance).predict(Xt)
    np.testing.assert_allclose(scaled, model.predict(test.X))


def test_knn_with_more_neighbours_than_documents_predicts_the_mean_grade():
    X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]])
    y = np.array([0.0, 1.0, 5.0])
    model = KNNRelevance(n_neighbors=10).fit(X, y)
    np.testing.assert_allclose(model.predict([[9.0, -3.0], [0.0, 0.0]]), [2.0, 2.0])


def test_random_order_is_reproducible_by_seed(splits):
    train, _, test = splits
    a = RandomOrder(random_state=3).fit(train.X, train.relevance).predict(test.X)
    b = RandomOrder(random_state=3).fit(train.X, train.relevance).predict(test.X)
    c = RandomOrder(random_state=4).fit(train.X, train.relevance).predict(test.X)
    np.testing.assert_array_equal(a, b)
    assert a.shape == (test.n_docs,) and not np.allclose(a, c)
    assert np.unique(a).size == a.size  # no ties: a random permutation within each query
    np.testing.assert_array_equal(a, np.random.default_rng(3).random(test.n_docs))


def test_baselines_check_their_input(splits):
    train = splits[0]
    with pytest.raises(NotFittedError):
        BestSingleFeature().predict(train.X)
    for model in (RandomOrder(), BestSingleFeature(), KNNRelevance()):
        model.fit(train.X, train.relevance, qid=train.qid)
        with pytest.raises(ValueError, match="6 features"):
            model.predict(train.X[:, :4])
    for bad in (0, 2.5):
        with pytest.raises(ValueError, match="n_neighbors"):
            KNNRelevance(n_neighbors=bad).fit(train.X, train.relevance)
    with pytest.raises(ValueError, match="qid"):
        BestSingleFeature().fit(train.X, train.relevance, qid=None)


# --------------------------------------------------------------------------- #
# staged_ndcg and tune_mpboost
# --------------------------------------------------------------------------- #
def test_staged_ndcg_is_the_ndcg_of_each_truncated_model(splits):
    train, vali, _ = splits
    model = MPBoost(ddf="ldd", n_rounds=15).fit(train.X, train.relevance, qid=train.qid)
    staged = staged_ndcg(model, vali.X, vali.relevance, vali.qid, ks=(1, 5, 10), form="mpboost")
    assert staged.shape == (model.n_rounds_, 3)
    for t in range(1, model.n_rounds_ + 1):
        np.testing.assert_allclose(
            staged[t - 1], mean_ndcg(vali.relevance, model.predict(vali.X, rounds=t), vali.qid,
                                     ks=(1, 5, 10), form="mpboost"))
    np.testing.assert_allclose(staged[-1], mean_ndcg(vali.relevance, model.predict(vali.X), vali.qid,
                                                     ks=(1, 5, 10), form="mpboost"))


@pytest.mark.parametrize("ddf, grid", [("ldd", (0.1, 0.4, 0.8)), ("logitdd", (0.25, 2.0))])
def test_tune_mpboost_picks_the_best_validation_ndcg_at_5(splits, ddf, grid):
    train, vali, _ = splits
    n_rounds = 20
    results = []  # (ndcg@5, parameter, rounds), in grid and round order
    for parameter in grid:
        model = MPBoost(ddf=ddf, parameter=parameter, n_rounds=n_rounds).fit(train.X, train.relevance,
                                                                              qid=train.qid)
        for t in range(1, model.n_rounds_ + 1):
            value = mean_ndcg(vali.relevance, model.predict(vali.X, rounds=t), vali.qid, ks=[5])[0]
            results.append((value, parameter, t))
    best_value = max(value for value, *_ in results)
    _, parameter, rounds = next(r for r in results if r[0] == best_value)  # first of any tie
    best = tune_mpboost(train, vali, ddf, n_rounds=n_rounds, parameters=grid)
    assert (best["parameter"], best["rounds"]) == (parameter, rounds)
    assert best["vali_ndcg"] == pytest.approx(best_value)
    assert best["model"].parameter == parameter and best["model"].n_rounds_ == n_rounds
    score = mean_ndcg(vali.relevance, best["model"].predict(vali.X, rounds=rounds), vali.qid, ks=[5])[0]
    assert score == pytest.approx(best_value)


def test_tune_mpboost_uses_the_default_grid(splits):
    train, vali, _ = splits
    best = tune_mpboost(train, vali, "binary", n_rounds=10)
    assert PARAMETER_GRIDS["binary"] == (None,) and best["parameter"] is None
    best = tune_mpboost(train, vali, "logdd", n_rounds=10)
    assert best["parameter"] in PARAMETER_GRIDS["logdd"]
    # no parameter of the grid does better on the validation queries
    for parameter in PARAMETER_GRIDS["logdd"]:
        model = MPBoost(ddf="logdd", parameter=parameter, n_rounds=10).fit(train.X, train.relevance,
                                                                           qid=train.qid)
        assert staged_ndcg(model, vali.X, vali.relevance, vali.qid).max() <= best["vali_ndcg"] + 1e-12


# --------------------------------------------------------------------------- #
# compare_rankers
# --------------------------------------------------------------------------- #
def test_compare_rankers_keeps_one_row_per_method_query_and_k(comparison, test_with_unjudged_query):
    result, _ = comparison
    test, unjudged = test_with_unjudged_query
    methods = list(DDF_NAMES) + list(BASELINES)
    assert result.methods == methods
    assert list(result.per_query.columns) == ["method", "query", "k", "ndcg"]
    judged = [q for q in query_ids(test.qid) if q != unjudged]
    assert len(judged) >= 5
    assert len(result.per_query) == len(methods) * len(judged) * len(KS)
    assert not result.per_query.duplicated(["method", "query", "k"]).any()
    assert unjudged not in set(result.per_query["query"])  # no relevant document: left out
    assert set(result.per_query["query"]) == set(judged)
    assert sorted(result.per_query["k"].unique()) == KS
    assert list(dict.fromkeys(result.per_query["method"])) == methods
    assert result.per_query["ndcg"].between(0, 1).all()


def test_compare_rankers_scores_the_baselines_as_fitted_alone(splits, comparison, test_with_unjudged_query):
    train, _, _ = splits
    test, _ = test_with_unjudged_query
    result, _ = comparison
    estimators = {"best_feature": BestSingleFeature(k=10), "knn": KNNRelevance(n_neighbors=10),
                  "random": RandomOrder(random_state=0)}
    queries = query_ids(test.qid)
    for key, estimator in estimators.items():
        scores = estimator.fit(train.X, train.relevance, qid=train.qid).predict(test.X)
        expected = pd.DataFrame(ndcg_at_ks(test.relevance, scores, test.qid, ks=KS), index=queries, columns=KS)
        for k in KS:
            got = result.matrix(key, k)
            np.testing.assert_allclose(got.to_numpy(), expected.loc[got.index, k].to_numpy())


def test_compare_rankers_tunes_each_labelling_on_validation(splits, comparison, test_with_unjudged_query):
    train, vali, _ = splits
    test, _ = test_with_unjudged_query
    result, _ = comparison
    settings = result.settings.set_index("method")
    assert list(settings.index) == list(DDF_NAMES)
    symbols = {"binary": None, "ldd": "α", "logdd": "λ", "logitdd": "β"}
    for ddf in ("binary", "logdd"):  # two refits keep the test quick
        best = tune_mpboost(train, vali, ddf, n_rounds=N_ROUNDS)
        row = settings.loc[ddf]
        assert row["rounds"] == best["rounds"]
        assert row["vali_ndcg@5"] == pytest.approx(best["vali_ndcg"])
        assert row["parameter"] == ("" if symbols[ddf] is None else f"{symbols[ddf]} = {best['parameter']:g}")
        assert row["title"] == method_title(ddf)
        scores = best["model"].predict(test.X, rounds=best["rounds"])
        per_query = ndcg_at_ks(test.relevance, scores, test.qid, ks=[5])[:, 0]
        got = result.matrix(ddf, 5)
        expected = pd.Series(per_query, index=query_ids(test.qid)).loc[got.index]
        np.testing.assert_allclose(got.to_numpy(), expected.to_numpy())


def test_summary_is_the_per_query_mean_and_standard_error(comparison):
    result, _ = comparison
    summary = result.summary()
    assert len(summary) == len(result.methods) * len(KS)
    for row in summary.itertuples():
        values = result.matrix(row.method, row.k).to_numpy()
        assert row.mean == pytest.approx(values.mean())
        assert row.se == pytest.approx(stats.sem(values, ddof=1), nan_ok=True)
        assert row.title == method_title(row.method)


def test_mpboost_beats_random_order_on_a_learnable_set(comparison):
    result, _ = comparison
    means = result.summary().pivot(index="method", columns="k", values="mean")
    for ddf in DDF_NAMES:
        assert (means.loc[ddf] > means.loc["random"] + 0.2).all(), ddf
        assert means.loc[ddf, 10] > means.loc["random", 10] + 0.3
    # and the learned models do at least as well as the single best feature at NDCG@10
    assert means.loc[list(DDF_NAMES), 10].mean() > means.loc["best_feature", 10]


def test_compare_rankers_reports_progress(comparison):
    _, calls = comparison
    fractions = [fraction for fraction, _ in calls]
    n = len(DDF_NAMES) + len(BASELINES)
    np.testing.assert_allclose(fractions, np.arange(n + 1) / n)
    assert calls[0][1] == "Fitting MPBoost.BINARY" and calls[-2][1] == "Fitting Random order"
    assert calls[-1] == (1.0, "Done")


def test_compare_rankers_without_tuning_uses_the_given_parameters(splits):
    train, vali, test = splits
    result = compare_rankers(train, vali, test, ddfs=("ldd", "logdd"), baselines=(), n_rounds=12, tune=False,
                             parameters={"ldd": 0.5}, ks=[5])
    settings = result.settings.set_index("method")
    assert list(settings["parameter"]) == ["α = 0.5", f"λ = {DEFAULT_PARAMETERS['logdd']:g}"]
    for ddf, parameter in (("ldd", 0.5), ("logdd", DEFAULT_PARAMETERS["logdd"])):
        model = MPBoost(ddf=ddf, parameter=parameter, n_rounds=12).fit(train.X, train.relevance, qid=train.qid)
        assert settings.loc[ddf, "rounds"] == model.n_rounds_
        assert settings.loc[ddf, "vali_ndcg@5"] == pytest.approx(
            mean_ndcg(vali.relevance, model.predict(vali.X), vali.qid, ks=[5])[0])
        np.testing.assert_allclose(result.matrix(ddf, 5).to_numpy(),
                                   ndcg_at_ks(test.relevance, model.predict(test.X), test.qid, ks=[5])[:, 0])


def test_method_titles():
    assert method_title("logitdd") == "MPBoost.LOGITDD"
    assert method_title("knn") == BASELINES["knn"]
    assert method_title("other") == "other"


# --------------------------------------------------------------------------- #
# iter_growth and GrowthCurves
# --------------------------------------------------------------------------- #
@pytest.fixture(scope="module")
def growth(splits):
    train, vali, test = splits
    # documents sitting exactly on the stumps' thresholds, where "x > t" and "x >= t" differ
    reference = MPBoost(ddf="logdd", n_rounds=N_ROUNDS).fit(train.X, train.relevance, qid=train.qid)
    rng = np.random.default_rng(5)
    on_thresholds = vali.X.copy()
    for f in np.unique(reference.feature_):
        on_thresholds[:, f] = rng.choice(reference.threshold_[reference.feature_ == f], size=vali.n_docs)
    edges = SimpleNamespace(X=on_thresholds, relevance=vali.relevance, qid=vali.qid)
    model = MPBoost(ddf="logdd", n_rounds=N_ROUNDS)
    named = {"train": train, "validation": vali, "test": test, "on thresholds": edges}
    steps = list(iter_growth(model, train, named, ks=range(1, 11)))
    return model, named, steps


def test_iter_growth_fits_the_same_model_as_fit(splits, growth):
    model, _, steps = growth
    train = splits[0]
    reference = MPBoost(ddf="logdd", n_rounds=N_ROUNDS).fit(train.X, train.relevance, qid=train.qid)
    assert len(steps) == model.n_rounds_ == reference.n_rounds_
    np.testing.assert_array_equal(model.feature_, reference.feature_)
    np.testing.assert_allclose(model.threshold_, reference.threshold_)
    np.testing.assert_allclose(model.value_, reference.value_)


def test_iter_growth_curves_equal_staged_ndcg_every_round(growth):
    model, named, steps = growth
    staged = {name: staged_ndcg(model, data.X, data.relevance, data.qid, ks=range(1, 11))
              for name, data in named.items()}
    for t, curves in enumerate(steps, start=1):
        assert list(curves.ndcg) == list(named) and curves.ks == list(range(1, 11))
        for name in named:
            assert curves.ndcg[name].shape == (t, 10)
            np.testing.assert_allclose(curves.ndcg[name], staged[name][:t])


def test_iter_growth_tracks_theorem_1(growth):
    model, named, steps = growth
    train = named["train"]
    first, second = model.pairs_
    staged = model.staged_scores(train.X)
    misordering = [misordering_loss(staged[:, t], first, second) for t in range(model.n_rounds_)]
    for t, curves in enumerate(steps, start=1):
        np.testing.assert_allclose(curves.bound, model.loss_bound_[:t])
        np.testing.assert_allclose(curves.misordering, misordering[:t])
        assert np.all(curves.misordering <= curves.bound + 1e-12)  # Theorem 1
    assert steps[-1].misordering[-1] < 0.5 * steps[0].misordering[0]  # it learns


def test_iter_growth_without_a_train_split_still_tracks_misordering(splits, growth):
    train, vali, _ = splits
    _, _, steps = growth
    other = list(iter_growth(MPBoost(ddf="logdd", n_rounds=N_ROUNDS), train, {"validation": vali}, ks=[5]))
    np.testing.assert_allclose(other[-1].misordering, steps[-1].misordering)
    np.testing.assert_allclose(other[-1].ndcg["validation"][:, 0], steps[-1].at_k(5)["validation"])
    # a split merely *named* "train" is not the training data the pairs index
    renamed = list(iter_growth(MPBoost(ddf="logdd", n_rounds=N_ROUNDS), train, {"train": vali}, ks=[5]))
    np.testing.assert_allclose(renamed[-1].misordering, steps[-1].misordering)
    np.testing.assert_allclose(renamed[-1].ndcg["train"][:, 0], steps[-1].at_k(5)["validation"])


def test_growth_curves_at_k_and_frame(growth):
    model, named, steps = growth
    curves = steps[-1]
    for k in (1, 5, 10):
        at = curves.at_k(k)
        assert list(at) == list(named)
        for name in named:
            np.testing.assert_array_equal(at[name], curves.ndcg[name][:, k - 1])
    frame = curves.frame()
    n = model.n_rounds_
    assert list(frame.columns) == ["round", "split", "k", "mean_ndcg", "loss_bound", "train_misordering"]
    assert len(frame) == n * len(named) * 10
    assert not frame.duplicated(["round", "split", "k"]).any()
    for row in frame.sample(40, random_state=0).itertuples():
        assert row.mean_ndcg == curves.ndcg[row.split][row.round - 1, row.k - 1]
        assert row.loss_bound == curves.bound[row.round - 1]
        assert row.train_misordering == curves.misordering[row.round - 1]


def test_growth_curves_frame_by_hand():
    curves = GrowthCurves(ndcg={"test": np.array([[0.5, 0.6], [0.7, 0.8]])}, ks=[1, 3],
                          bound=np.array([0.9, 0.8]), misordering=np.array([0.3, 0.2]))
    expected = pd.DataFrame({"round": [1, 1, 2, 2], "split": "test", "k": [1, 3, 1, 3],
                             "mean_ndcg": [0.5, 0.6, 0.7, 0.8], "loss_bound": [0.9, 0.9, 0.8, 0.8],
                             "train_misordering": [0.3, 0.3, 0.2, 0.2]})
    pd.testing.assert_frame_equal(curves.frame(), expected, check_dtype=False)
    np.testing.assert_array_equal(curves.at_k(3)["test"], [0.6, 0.8])


# --------------------------------------------------------------------------- #
# figures
# --------------------------------------------------------------------------- #
def test_rounds_figure_draws_each_split_curve(growth):
    _, named, steps = growth
    curves = steps[-1].at_k(5)
    fig = rounds_figure(curves, 5, form="mpboost", n_rounds=50, best_round=7)
    assert [trace.name for trace in fig.data] == list(named)
    for trace, (name, values) in zip(fig.data, curves.items()):
        np.testing.assert_allclose(np.asarray(trace.y), values)
        np.testing.assert_array_equal(np.asarray(trace.x), np.arange(1, values.size + 1))
        assert trace.line.color == SPLIT_COLOURS.get(name)  # None: plotly picks one
    assert fig.layout.xaxis.title.text and fig.layout.yaxis.title.text == "Mean NDCG@5"
    assert "Zhu et al. (2009) form" in fig.layout.title.text
    assert tuple(fig.layout.xaxis.range) == (0.5, 50.5)
    (line,) = fig.layout.shapes
    assert line.x0 == line.x1 == 7
    assert rounds_figure(curves, 5).layout.shapes == ()


def test_loss_bound_figure_draws_both_sides_of_theorem_1(growth):
    _, _, steps = growth
    curves = steps[-1]
    fig = loss_bound_figure(curves.bound, curves.misordering, n_rounds=40)
    bound, misordering = fig.data
    np.testing.assert_allclose(np.asarray(bound.y), curves.bound)
    np.testing.assert_allclose(np.asarray(misordering.y), curves.misordering)
    np.testing.assert_array_equal(np.asarray(bound.x), np.arange(1, len(curves.bound) + 1))
    assert "Z_t" in bound.name and "mis-ordered" in misordering.name
    assert fig.layout.xaxis.title.text and fig.layout.yaxis.title.text
    assert tuple(fig.layout.xaxis.range) == (0.5, 40.5)


def test_ndcg_by_k_figure_draws_means_with_95_percent_intervals(comparison):
    result, _ = comparison
    summary = result.summary()
    from rankviz.experiments.statistics import t_interval
    queries = result.per_query[(result.per_query["method"] == "knn") & (result.per_query["k"] == 3)]["ndcg"]
    assert summary.loc[(summary["method"] == "knn") & (summary["k"] == 3), "ci"].item() == \
        pytest.approx(t_interval(queries.to_numpy())[1])
    summary.loc[(summary["method"] == "knn") & (summary["k"] == 3), "ci"] = np.nan
    fig = ndcg_by_k_figure(summary, form="mpboost")
    assert [trace.name for trace in fig.data] == [method_title(m) for m in result.methods]
    offsets = []
    for trace, method in zip(fig.data, result.methods):
        rows = summary[summary["method"] == method].sort_values("k")
        np.testing.assert_allclose(np.asarray(trace.y), rows["mean"])
        np.testing.assert_allclose(np.asarray(trace.error_y.array), rows["ci"].fillna(0))
        shift = np.asarray(trace.x) - rows["k"].to_numpy()
        assert np.ptp(shift) < 1e-12 and abs(shift[0]) <= 0.2 + 1e-12
        offsets.append(shift[0])
        colour, dash, _ = METHOD_STYLES[method]
        assert (trace.line.color, trace.line.dash) == (colour, dash)
    assert len(set(np.round(offsets, 9))) == len(offsets)  # error bars side by side, not stacked
    knn = fig.data[result.methods.index("knn")]
    assert np.asarray(knn.error_y.array)[KS.index(3)] == 0.0
    assert fig.layout.xaxis.title.text and fig.layout.yaxis.title.text
    assert "Zhu et al. (2009) form" in fig.layout.title.text


def test_best_single_feature_says_why_when_no_query_has_a_relevant_document():
    from rankviz.ltr.baselines import BestSingleFeature as _Best

    X = np.arange(12.0).reshape(6, 2)
    with pytest.raises(ValueError, match="no training query has a relevant document"):
        _Best().fit(X, np.zeros(6), qid=[1, 1, 1, 2, 2, 2])


def test_loss_bound_figure_keeps_the_share_readable_when_the_bound_passes_one():
    from rankviz.viz.figures.ltr import loss_bound_figure

    fig = loss_bound_figure([0.9, 1.3, np.inf], [0.4, 0.35, 0.3])
    assert list(fig.layout.yaxis.range) == [0, 1.05]
    assert "from round 2" in fig.layout.annotations[0].text
    assert np.isnan(np.asarray(fig.data[0].y, dtype=float)[2])  # inf is not drawn
    assert not loss_bound_figure([0.9, 0.8], [0.3, 0.2]).layout.annotations


def test_loss_bound_does_not_warn_when_it_overflows():
    import warnings

    from rankviz import MPBoost

    model = MPBoost()
    model.normalizer_ = np.array([1e200, 1e200, 1e200])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isinf(model.loss_bound_[-1])
