"""RankingTreeCV: leaf size and γ by inner cross-validation, γ read off the path (no regrowth)."""

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import GridSearchCV, KFold

from rankviz import RankingTree, RankingTreeCV, load_sample
from rankviz.tree.ranking_tree_cv import best_index, largest_within_one_se
from rankviz.label_ranking.metrics import tau_x
from rankviz.metrics import get_scorer


def test_equals_a_grid_search_that_regrows_every_gamma():
    data = load_sample("metalearning")
    model = RankingTreeCV(leaf_grid=(5, 10), extend_grid=False, cv=3, random_state=4,
                          selection="best").fit(data.X, data.Y)
    results = pd.DataFrame({"leaf": model.cv_results_["param_min_samples_leaf"],
                            "gamma": model.cv_results_["param_gamma"],
                            "score": model.cv_results_["mean_test_score"]})
    grid = [{"min_samples_leaf": [leaf], "gamma": list(group["gamma"])} for leaf, group in results.groupby("leaf")]
    search = GridSearchCV(RankingTree(), grid, cv=KFold(3, shuffle=True, random_state=4),
                          scoring=get_scorer("kendall_tau")).fit(data.X, data.Y)
    regrown = pd.DataFrame({"leaf": search.cv_results_["param_min_samples_leaf"].astype(int),
                            "gamma": search.cv_results_["param_gamma"].astype(float),
                            "score": search.cv_results_["mean_test_score"]})
    merged = results.merge(regrown, on=["leaf", "gamma"], suffixes=("", "_regrown"))
    assert len(merged) == len(results) == len(regrown) > 4
    np.testing.assert_allclose(merged["score"], merged["score_regrown"], rtol=0, atol=1e-12)
    # The best pair: the highest mean; ties to the larger leaf, then the smaller γ.
    top = results["score"].max()
    tied = results[results["score"] >= top - 1e-12].sort_values(["leaf", "gamma"], ascending=[False, True])
    assert model.best_params_ == {"min_samples_leaf": int(tied["leaf"].iloc[0]), "gamma": tied["gamma"].iloc[0]}
    assert model.best_score_ == pytest.approx(top)
    assert model.best_index_ == best_index(model.cv_results_)
    # The default choice: GridSearchCV refitting by the same rule on its own (regrown) scores.
    rule = GridSearchCV(RankingTree(), grid, cv=KFold(3, shuffle=True, random_state=4),
                        scoring=get_scorer("kendall_tau"),
                        refit=lambda r: largest_within_one_se(r, best_index(r))).fit(data.X, data.Y)
    chosen = RankingTreeCV(leaf_grid=(5, 10), extend_grid=False, cv=3, random_state=4,
                           selection="largest_within_se").fit(data.X, data.Y)
    assert chosen.best_params_ == {key: rule.best_params_[key] for key in ("min_samples_leaf", "gamma")}
    assert chosen.best_params_ != model.best_params_  # the rule chose another pair here
    # "auto": the best pair for mean Spearman (Rebelo et al. prune by γ), the rule for Mallows
    assert RankingTreeCV(leaf_grid=(5, 10), extend_grid=False, cv=3, random_state=4).fit(
        data.X, data.Y).best_params_ == model.best_params_
    mallows = {selection: RankingTreeCV(criterion="mallows", leaf_grid=(5, 10), extend_grid=False, cv=3,
                                        random_state=4, selection=selection).fit(data.X, data.Y).best_params_
               for selection in ("auto", "largest_within_se")}
    assert mallows["auto"] == mallows["largest_within_se"]
    # The tree is grown on all the data with them, and predicts as that tree.
    tree = RankingTree(**model.best_params_).fit(data.X, data.Y)
    np.testing.assert_array_equal(model.predict(data.X), tree.predict(data.X))
    assert model.tree_.node_count == tree.tree_.node_count
    # Every γ tried gives another tree on all the data (one per distinct tree of the path).
    for leaf, group in results.groupby("leaf"):
        counts = model.cv_results_["n_leaves"][results["leaf"] == leaf]
        assert np.all(np.diff(counts) > 0)


def test_the_leaf_grid_extends_while_its_largest_value_wins():
    # Two groups of rows with opposite consensus rankings under heavy noise: the best tree has two
    # large leaves, so the largest leaf size keeps winning and the grid grows to its cap (30 rows).
    rng = np.random.default_rng(0)
    X = rng.random((300, 3))
    utility = np.where(X[:, :1] > 0.5, [4, 3, 2, 1], [1, 2, 3, 4]) + rng.normal(scale=2.0, size=(300, 4))
    Y = np.argsort(np.argsort(-utility, axis=1), axis=1) + 1.0
    model = RankingTreeCV(leaf_grid=(1, 2), cv=3).fit(X, Y)
    assert model.leaf_grid_ == [1, 2, 3, 4, 6, 8, 12, 16, 24, 30]  # 1.5 and 2 times the largest, each time
    assert model.best_params_["min_samples_leaf"] == 30 and model.best_estimator_.tree_.n_leaves == 2
    # The rule keeps the least pruned pair as good: leaf size 1, its two leaves cut by γ.
    default = RankingTreeCV(leaf_grid=(1, 2), cv=3, selection="largest_within_se").fit(X, Y)
    assert default.leaf_grid_ == model.leaf_grid_  # the best pair, not the chosen one, extends the grid
    assert default.best_params_["min_samples_leaf"] == 1 and default.best_estimator_.tree_.n_leaves == 2
    assert default.best_score_ == pytest.approx(model.best_score_)
    fixed = RankingTreeCV(leaf_grid=(1, 2), cv=3, extend_grid=False).fit(X, Y)
    assert fixed.leaf_grid_ == [1, 2]


def test_incomplete_and_partial_rankings_any_criterion_and_a_measure_of_ones_own():
    data = load_sample("metalearning")
    Y = data.Y.astype(float).copy()
    Y[::7, 0] = np.nan  # missing labels
    calls = []

    def measure(y_true, y_pred):
        calls.append(len(y_true))
        return tau_x(y_true, y_pred)

    model = RankingTreeCV(criterion="mallows", leaf_grid=(10, 20), cv=3, scoring=measure).fit(data.X, Y)
    assert calls and set(model.best_params_) == {"min_samples_leaf", "gamma"}
    assert model.best_estimator_.criterion == "mallows"
    assert np.isfinite(model.cv_results_["mean_test_score"]).all()
    assert RankingTreeCV(criterion="mallows", leaf_grid=(10,), cv=3, scoring="tau_x").fit(data.X, Y).best_score_ <= 1


@pytest.mark.parametrize("params, message", [
    ({"leaf_grid": (0, 2)}, "leaf_grid must hold whole numbers >= 1"),
    ({"leaf_grid": ()}, "leaf_grid must hold whole numbers >= 1"),
    ({"scoring": "accuracy"}, "scoring must be 'auto', one of kendall_tau, cs, wrc, lra, tau_x"),
    ({"selection": "simplest"}, "selection must be one of 'auto', 'largest_within_se', 'best'; got 'simplest'"),
])
def test_bad_settings_are_named(params, message):
    data = load_sample("toy")
    with pytest.raises(ValueError, match=message):
        RankingTreeCV(**params).fit(data.X, data.Y)


def test_the_command_lines_lrt_is_the_tuned_tree():
    from rankviz.experiments.grid import resolve_methods, run_grid, Protocol

    lrt = resolve_methods(["lrt"])["LRT"]
    assert isinstance(lrt, RankingTreeCV) and lrt.criterion == "mallows"
    table = run_grid({"LRT": lrt}, {"toy": load_sample("toy")}, Protocol(n_splits=2), backend="serial")
    assert table["params"].str.contains("min_samples_leaf").all() and table["params"].str.contains("gamma").all()


def test_score_at_reads_the_score_of_the_tree_each_gamma_gives():
    data = load_sample("metalearning")
    search = RankingTreeCV(leaf_grid=(5, 10), extend_grid=False, cv=3).fit(data.X, data.Y)
    results = search.cv_results_
    at_leaf = results["param_min_samples_leaf"] == search.best_params_["min_samples_leaf"]
    tried, means = results["param_gamma"][at_leaf], results["mean_test_score"][at_leaf]
    # the tried γ themselves, and values just beside them that give the same trees
    np.testing.assert_array_equal(search.score_at(tried), means)
    path = search.gamma_path_
    for gamma, mean in zip(tried[np.isfinite(tried)], means[np.isfinite(tried)]):
        inside = np.linspace(gamma - 1e-3, gamma + 1e-3, 41)
        same = path.same_tree(gamma, inside)
        np.testing.assert_array_equal(search.score_at(inside[same]), mean)
    assert search.best_score_ == search.score_at([search.best_params_["gamma"]])[0]


def test_auto_scoring_is_tau_x_on_partial_rankings_and_kendall_tau_otherwise():
    from rankviz.label_ranking.metrics import kendall_tau, tau_x

    rng = np.random.default_rng(0)
    X = pd.DataFrame({"x": rng.random(60)})
    Y = np.where((X["x"] < 0.5).to_numpy()[:, None], [1.0, 2.0, 2.0], [2.0, 1.0, 1.0])
    Y[::7] = [3.0, 2.0, 1.0]
    def search(**params):
        return RankingTreeCV(leaf_grid=(2, 5), extend_grid=False, cv=3, **params).fit(X, Y).best_score_

    # the trees predict ties here, where τx and Kendall's tau-b differ: auto is τx
    assert search() == search(scoring=tau_x) != search(scoring=kendall_tau)
    strict = np.argsort(rng.random((60, 3)), axis=1) + 1.0
    assert (RankingTreeCV(leaf_grid=(2,), extend_grid=False, cv=3).fit(X, strict).best_score_
            == RankingTreeCV(leaf_grid=(2,), extend_grid=False, cv=3, scoring="kendall_tau").fit(X, strict).best_score_)


@pytest.mark.parametrize("selection", ["best", "largest_within_se"])
def test_a_measure_that_scores_no_row_still_gives_a_tree(selection):
    """NaN for every row (no fold scored a row): every pair ties, and the simplest is kept."""
    data = load_sample("metalearning")
    search = RankingTreeCV(leaf_grid=(5, 10), extend_grid=False, cv=3, selection=selection,
                           scoring=lambda truth, predicted: np.full(len(truth), np.nan)).fit(data.X, data.Y)
    assert np.isnan(search.best_score_)
    assert search.best_params_["min_samples_leaf"] == 10  # the larger leaf, then the smallest γ
    assert search.best_params_["gamma"] == search.cv_results_["param_gamma"][search.best_index_]
    assert search.best_index_ == best_index(search.cv_results_)
