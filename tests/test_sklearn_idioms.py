"""Target metadata where scikit-learn keeps it: label names in Y's columns, ordinal levels in the constructor.

``clone`` and grid searches keep only constructor parameters, so metadata
given to ``fit`` was lost in them; the old ``fit`` keywords still work for
one release, with a FutureWarning (pytest.ini makes any other use an error).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV, KFold, cross_val_score

from rankviz import OrdinalDefault, OrdinalKNN, OrdinalTree, RankingTree, load_sample
from rankviz.datasets import load_ordinal_sample


@pytest.fixture(scope="module")
def metalearning():
    return load_sample("metalearning")


def test_label_names_come_from_the_columns_of_y_and_survive_a_grid_search(metalearning):
    data = metalearning
    assert list(data.rankings.columns) == list(data.label_names)
    np.testing.assert_array_equal(data.rankings.to_numpy(), data.Y)
    tree = RankingTree(min_samples_leaf=10).fit(data.X, data.rankings)
    assert tree.label_names_ == list(data.label_names)
    assert tree.tree_.ranking_text(0).split(" > ")[0] in data.label_names
    search = GridSearchCV(RankingTree(), {"min_samples_leaf": [5, 20]}, cv=3).fit(data.X, data.rankings)
    assert search.best_estimator_.label_names_ == list(data.label_names)
    # An array Y: generic names; the same tree either way.
    plain = RankingTree(min_samples_leaf=10).fit(data.X, data.Y)
    assert plain.label_names_ == [f"label_{j + 1}" for j in range(data.n_labels)]
    np.testing.assert_array_equal(plain.predict(data.X), tree.predict(data.X))


def test_the_label_names_keyword_still_works_with_a_future_warning(metalearning):
    data = metalearning
    with pytest.warns(FutureWarning, match=r"RankingTree.fit\(label_names=...\) is deprecated since 0.2"):
        tree = RankingTree(min_samples_leaf=10).fit(data.X, data.Y, label_names=data.label_names)
    assert tree.label_names_ == list(data.label_names)
    with pytest.warns(FutureWarning), pytest.raises(ValueError, match="2 label names for 10 labels"):
        RankingTree().fit(data.X, data.Y, label_names=["a", "b"])


@pytest.fixture(scope="module")
def diabetes():
    return load_ordinal_sample("diabetes_ordinal")


@pytest.mark.parametrize("estimator", [OrdinalTree(max_depth=3), OrdinalDefault(), OrdinalKNN(n_neighbors=5)],
                         ids=lambda e: type(e).__name__)
def test_named_levels_in_the_constructor_survive_clone_and_cross_validation(diabetes, estimator):
    data = diabetes
    named = clone(estimator).set_params(levels=data.levels)
    scores = cross_val_score(named, data.X, data.y, cv=KFold(3, shuffle=True, random_state=0))
    assert np.isfinite(scores).all() and (scores <= 0).all()  # minus the rank loss
    fitted = clone(named).fit(data.X, data.y)
    assert list(fitted.classes_) == list(data.levels)
    with pytest.raises(ValueError):  # names without their order
        clone(estimator).fit(data.X, data.y)


@pytest.mark.parametrize("estimator", [OrdinalTree(max_depth=2), OrdinalDefault(), OrdinalKNN()],
                         ids=lambda e: type(e).__name__)
def test_the_levels_keyword_still_works_with_a_future_warning(diabetes, estimator):
    data = diabetes
    with pytest.warns(FutureWarning, match=r"\.fit\(levels=...\) is deprecated since 0.2.*levels parameter"):
        old = clone(estimator).fit(data.X, data.y, levels=data.levels)
    new = clone(estimator).set_params(levels=data.levels).fit(data.X, data.y)
    np.testing.assert_array_equal(old.predict(data.X), new.predict(data.X))


def test_a_named_series_names_the_ordinal_target(diabetes):
    data = diabetes
    tree = OrdinalTree(max_depth=2, levels=data.levels).fit(data.X, data.target_series)
    assert tree.tree_.label_names == [data.target]
    assert OrdinalTree(max_depth=2, levels=data.levels).fit(data.X, data.y).tree_.label_names == ["y"]
    with pytest.warns(FutureWarning, match=r"target_name=...\) is deprecated"):
        old = OrdinalTree(max_depth=2, levels=data.levels).fit(data.X, data.y, target_name="progression")
    assert old.tree_.label_names == ["progression"]
    with pytest.raises(ValueError, match="progression"):  # the name reaches the messages
        OrdinalTree(levels=data.levels).fit(data.X, pd.Series(["nope"] * len(data.y), name="progression"))


# --------------------------------------------------------------------------- #
# compare_methods (was rankviz.cross_validate) with scikit-learn's splitters
# --------------------------------------------------------------------------- #
def test_compare_methods_takes_scikit_learn_splitters(metalearning):
    from sklearn.model_selection import GroupKFold, LeaveOneOut, RepeatedKFold

    from rankviz import DefaultRanker, compare_methods

    data = load_sample("toy")
    methods = {"tree": RankingTree(min_samples_leaf=2), "default": DefaultRanker()}
    loo = compare_methods(methods, data.X, data.Y, cv="loo")
    pd.testing.assert_frame_equal(compare_methods(methods, data.X, data.Y, cv=LeaveOneOut()), loo)
    # KFold(shuffle=False) on 4 folds: each example once, its fold the block it falls in.
    folded = compare_methods(methods, data.X, data.Y, cv=KFold(4))
    assert sorted(folded[folded.method == "tree"].example) == list(range(data.n_samples))
    assert (folded[folded.method == "tree"].fold.to_numpy() == np.repeat(np.arange(4), 4)).all()
    # RepeatedKFold: its repetitions, each covering every example once.
    repeated = compare_methods(methods, data.X, data.Y, cv=RepeatedKFold(n_splits=4, n_repeats=3, random_state=0))
    tree = repeated[repeated.method == "tree"]
    assert sorted(tree.repetition.unique()) == [0, 1, 2]
    assert all(sorted(part.example) == list(range(data.n_samples)) for _, part in tree.groupby("repetition"))
    # GroupKFold: the rows of a group are tested together.
    groups = np.arange(data.n_samples) // 4
    grouped = compare_methods(methods, data.X, data.Y, cv=GroupKFold(4), groups=groups)
    assert (grouped.groupby(groups[grouped.example])["fold"].nunique() == 1).all()
    with pytest.raises(ValueError, match="a splitter repeats itself"):
        compare_methods(methods, data.X, data.Y, cv=KFold(4), repetitions=2)


def test_cross_validate_is_a_deprecated_alias():
    import rankviz
    from rankviz import DefaultRanker

    data = load_sample("toy")
    with pytest.warns(FutureWarning, match="rankviz.cross_validate is deprecated since 0.2.*compare_methods"):
        old = rankviz.cross_validate({"default": DefaultRanker()}, data.X, data.Y, cv=4)
    pd.testing.assert_frame_equal(old, rankviz.compare_methods({"default": DefaultRanker()}, data.X, data.Y, cv=4))
