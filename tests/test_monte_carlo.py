"""Library tests of rankviz.experiments.monte_carlo (the Monte Carlo trials of Xia, Zhang & Wang 2006) and of rankviz.viz.figures.ordinal."""

from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from rankviz.ordinal.baselines import OrdinalDefault
from rankviz.experiments.monte_carlo import (TREE_METHODS, HoldoutSource, SyntheticSource, loss_summary,
                                 noise_trials, ordinal_methods, run_trials, select_depth)
from rankviz.tree.ordinal_tree import OrdinalTree
from rankviz.viz.figures.ordinal import (LOSS_AXIS_TITLE, format_loss, loss_by_depth, loss_by_noise,
                                   method_table, noise_table)
from rankviz.experiments.statistics import t_interval
from rankviz.ordinal.synthetic import make_ordinal_square

RI, GINI = TREE_METHODS["ranking_impurity"], TREE_METHODS["gini"]
SMALL = SyntheticSource(n_train=150, n_test=120)


def frame(records):
    return pd.DataFrame([r for trial in records for r in trial])


def draw(source, seed, trial):
    """The data of one trial, drawn as run_trials draws it; also returns the generator."""
    rng = np.random.default_rng([seed, trial])
    return (*source.draw(rng), rng)


# --- loss_summary ------------------------------------------------------------


def test_loss_summary_groups_in_order_of_appearance_and_keeps_baseline_nan_depths():
    records = [
        {"method": "B", "depth": 1, "loss": 0.5}, {"method": "A", "depth": 0, "loss": 1.0},
        {"method": "B", "depth": 1, "loss": 0.7}, {"method": "A", "depth": 0, "loss": 2.0},
        {"method": "A", "depth": 0, "loss": 3.0}, {"method": "K", "depth": np.nan, "loss": 0.4},
        {"method": "K", "depth": np.nan, "loss": 0.6},
    ]
    summary = loss_summary(records, by=("method", "depth"))
    assert list(summary["method"]) == ["B", "A", "K"]
    assert list(summary["trials"]) == [2, 3, 2]
    assert summary["mean"].tolist() == pytest.approx([0.6, 2.0, 0.5])
    assert summary["ci"].iloc[1] == pytest.approx(t_interval([1.0, 2.0, 3.0])[1])
    assert np.isnan(summary["depth"].iloc[2])
    by_method = loss_summary(records)
    assert list(by_method.columns) == ["method", "mean", "ci", "trials"]
    assert by_method.set_index("method").loc["A", "trials"] == 3


# --- run_trials -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def fixed_trials():
    methods = ordinal_methods(max_depth=6, n_neighbors=3)
    return frame(run_trials(SMALL, methods, 3, seed=7))


def test_records_name_every_method_and_depth(fixed_trials):
    methods = list(dict.fromkeys(fixed_trials["method"]))
    assert methods == [RI, GINI, "KNN (k=3)", "Default (median)"]
    trees = fixed_trials[fixed_trials["method"].isin([RI, GINI])]
    assert sorted(trees["depth"].unique()) == list(range(7))
    assert (trees.groupby(["method", "trial"]).size() == 7).all()
    # "fixed": a tree's own prediction is the one at its max depth.
    assert (trees.loc[trees["final"], "depth"] == 6).all()
    assert trees["final"].sum() == 2 * 3


@pytest.mark.parametrize("trial", [0, 2])
def test_tree_loss_at_each_depth_equals_a_tree_refitted_with_that_max_depth(fixed_trials, trial):
    X_train, y_train, X_test, y_test, _ = draw(SMALL, 7, trial)
    for criterion, name in TREE_METHODS.items():
        recorded = fixed_trials[(fixed_trials["trial"] == trial) & (fixed_trials["method"] == name)]
        for d in range(7):
            tree = OrdinalTree(criterion, max_depth=d).set_params(levels=SMALL.levels).fit(X_train, y_train)
            expected = np.mean(np.abs(tree.predict(X_test).astype(float) - y_test))
            got = recorded.loc[recorded["depth"] == d, "loss"].item()
            assert got == pytest.approx(expected), (name, d)


def test_depth_zero_equals_the_default_median(fixed_trials):
    # Both predict the training median for every test row.
    for trial, group in fixed_trials.groupby("trial"):
        default = group.loc[group["method"] == "Default (median)", "loss"].item()
        for name in (RI, GINI):
            root = group.loc[(group["method"] == name) & (group["depth"] == 0), "loss"].item()
            assert root == pytest.approx(default)
        X_train, y_train, X_test, y_test, _ = draw(SMALL, 7, trial)
        median = OrdinalDefault().set_params(levels=SMALL.levels).fit(X_train, y_train).predict(X_test)
        assert default == pytest.approx(np.mean(np.abs(median - y_test)))


def test_trials_are_reproducible_and_do_not_depend_on_the_number_of_trials():
    methods = ordinal_methods(max_depth=4)
    three = frame(run_trials(SMALL, methods, 3, seed=11))
    five = frame(run_trials(SMALL, methods, 5, seed=11))
    again = frame(run_trials(SMALL, methods, 3, seed=11))
    other = frame(run_trials(SMALL, methods, 3, seed=12))
    pd.testing.assert_frame_equal(three, again)
    pd.testing.assert_frame_equal(three[three["trial"] == 2].reset_index(drop=True),
                                  five[five["trial"] == 2].reset_index(drop=True))
    assert not np.allclose(three["loss"], other["loss"])
    # Trials differ from each other: each draws its own data.
    assert three.groupby("trial")["loss"].sum().nunique() == 3


def test_cv_depth_selection_picks_the_argmin_of_compare_methodsd_losses():
    X, y = make_ordinal_square(160, label_noise=0.3, seed=5)
    tree = OrdinalTree("gini", max_depth=6)
    depth, losses = select_depth(tree, X, y, SMALL.levels, folds=5, rng=np.random.default_rng(9))
    # The same folds, each depth refitted on its own.
    order = np.random.default_rng(9).permutation(len(y))
    expected = np.zeros(7)
    for test in np.array_split(order, 5):
        train = np.setdiff1d(order, test)
        for d in range(7):
            refit = OrdinalTree("gini", max_depth=d).set_params(levels=SMALL.levels).fit(X.iloc[train], y[train])
            expected[d] += np.abs(refit.predict(X.iloc[test]).astype(float) - y[test]).sum()
    assert losses == pytest.approx(expected / len(y))
    assert depth == int(np.argmin(expected))


def test_run_trials_cv_marks_the_selected_depth_final():
    source = replace(SMALL, label_noise=0.3)
    methods = ordinal_methods(max_depth=6, baselines=False)
    records = frame(run_trials(source, methods, 2, seed=3, depth_selection="cv"))
    for trial in range(2):
        X_train, y_train, _, _, _ = draw(source, 3, trial)
        for name, method in methods.items():  # the same folds for every tree: stream [seed, trial, 1]
            depth, _ = select_depth(method, X_train, y_train, source.levels,
                                    rng=np.random.default_rng([3, trial, 1]))
            final = records[(records["trial"] == trial) & (records["method"] == name) & records["final"]]
            assert final["depth"].tolist() == [depth]


def test_run_trials_refuses_an_unknown_depth_selection():
    with pytest.raises(ValueError, match="depth_selection"):
        next(run_trials(SMALL, ordinal_methods(), 1, depth_selection="best"))


def test_holdout_trials_split_the_data_and_count_level_steps():
    X, y = make_ordinal_square(200, seed=1)
    names = np.array(["very low", "low", "mid", "high", "very high"], dtype=object)
    source = HoldoutSource(X, names[y - 1], levels=list(names), test_fraction=0.25)
    records = frame(run_trials(source, ordinal_methods(max_depth=3), 2, seed=0))
    X_train, y_train, X_test, y_test, _ = draw(source, 0, 0)
    assert len(X_train) == 150 and len(X_test) == 50
    tree = OrdinalTree("ranking_impurity", max_depth=3).set_params(levels=list(names)).fit(X_train, y_train)
    got = records[(records["trial"] == 0) & (records["method"] == RI) & records["final"]]["loss"].item()
    assert got == pytest.approx(tree.rank_loss(X_test, y_test))


# --- noise_trials ---------------------------------------------------------------------------

def test_noise_trials_without_noise_equal_run_trials_with_the_cell_seed():
    units = list(noise_trials(SMALL, [0.0, 0.2], 2, train_sizes=[80, 150], max_depth=5,
                              depth_selection="cv", seed=4))
    assert len(units) == 2 * 2 * 2
    records = frame(units)
    assert sorted(records.groupby(["n_train", "noise"]).size().unique()) == [2 * 2]  # 2 trials × 2 trees
    for size in (80, 150):
        cell = replace(SMALL, n_train=size, label_noise=0.0)
        expected = frame(run_trials(cell, ordinal_methods(max_depth=5, baselines=False), 2,
                                    seed=[4, size, 0], depth_selection="cv"))
        expected = expected[expected["final"]].reset_index(drop=True)
        got = records[(records["n_train"] == size) & (records["noise"] == 0.0)].reset_index(drop=True)
        assert got["loss"].tolist() == pytest.approx(expected["loss"].tolist())
        assert got["depth"].tolist() == expected["depth"].tolist()
        assert got["method"].tolist() == expected["method"].tolist()


def test_noise_raises_the_loss_of_both_trees():
    records = frame(noise_trials(SyntheticSource(n_train=300, n_test=300), [0.0, 0.5], 4,
                                 max_depth=5, seed=2))
    means = loss_summary(records, by=("noise", "method")).set_index(["noise", "method"])["mean"]
    for name in (RI, GINI):
        assert means[(0.5, name)] > means[(0.0, name)] + 0.1


def test_noise_trials_refuse_training_sizes_for_held_out_data():
    X, y = make_ordinal_square(50, seed=1)
    with pytest.raises(ValueError, match="synthetic"):
        next(noise_trials(HoldoutSource(X, y, levels=[1, 2, 3, 4, 5]), [0.0], 1, train_sizes=[20]))


# --- figures and tables ---------------------------------------------------------------------

def test_loss_by_depth_draws_each_tree_with_its_intervals_and_the_baselines(fixed_trials):
    trees = fixed_trials[fixed_trials["method"].isin([RI, GINI])]
    by_depth = loss_summary(trees, by=("method", "depth"))
    baselines = loss_summary(fixed_trials[~fixed_trials["method"].isin([RI, GINI])])
    fig = loss_by_depth(by_depth, baselines)
    assert [t.name for t in fig.data] == [f"{RI} tree", f"{GINI} tree", "KNN (k=3)", "Default (median)"]
    assert fig.layout.xaxis.title.text == "tree depth"
    assert fig.layout.yaxis.title.text == LOSS_AXIS_TITLE
    assert "depth" in fig.layout.title.text
    for trace, name in zip(fig.data[:2], (RI, GINI)):
        rows = by_depth[by_depth["method"] == name]
        assert list(trace.x) == list(range(7))
        assert list(trace.y) == pytest.approx(rows["mean"].tolist())
        assert list(trace.error_y.array) == pytest.approx(rows["ci"].tolist())
    assert fig.data[0].line.dash == "solid" and fig.data[1].line.dash == "dashdot"
    for trace, row in zip(fig.data[2:], baselines.itertuples()):
        assert list(trace.x) == [0, 6] and list(trace.y) == pytest.approx([row.mean] * 2)
        assert trace.line.dash in ("dash", "dot")
        assert trace.error_y.array is None


def test_loss_by_depth_without_baselines_and_with_one_trial():
    summary = pd.DataFrame({"method": [RI, RI], "depth": [0, 1], "mean": [0.9, 0.5],
                            "ci": [np.nan, np.nan], "trials": [1, 1]})
    fig = loss_by_depth(summary)
    assert len(fig.data) == 1
    assert list(fig.data[0].error_y.array) == [0.0, 0.0]


def test_loss_by_noise_has_one_panel_per_size_with_shared_y_and_error_bars():
    records = frame(noise_trials(SMALL, [0.0, 0.1, 0.3], 3, train_sizes=[1000, 60],
                                 max_depth=3, depth_selection="fixed", seed=1))
    summary = loss_summary(records, by=("n_train", "noise", "method"))
    fig = loss_by_noise(summary)
    titles = [a.text for a in fig.layout.annotations]
    assert titles == ["(a) training size 60", "(b) training size 1,000"]
    assert len(fig.data) == 4
    assert [t.xaxis for t in fig.data] == ["x", "x", "x2", "x2"]
    assert [t.showlegend for t in fig.data] == [True, True, False, False]
    assert [t.line.dash for t in fig.data] == ["solid", "dashdot"] * 2
    assert fig.layout.yaxis2.matches == "y"
    assert fig.layout.yaxis.title.text == LOSS_AXIS_TITLE
    assert fig.layout.xaxis.title.text == fig.layout.xaxis2.title.text == "label noise level σ"
    for trace in fig.data:
        size = 60 if trace.xaxis == "x" else 1000
        method = trace.name.removesuffix(" tree")
        rows = summary[(summary["n_train"] == size) & (summary["method"] == method)]
        assert list(trace.x) == pytest.approx([0.0, 0.1, 0.3])
        assert list(trace.y) == pytest.approx(rows["mean"].tolist())
        assert list(trace.error_y.array) == pytest.approx(rows["ci"].tolist())
        assert all(rows["trials"] == 3)


def test_method_table_formats_mean_and_interval_and_describes_depths():
    records = pd.DataFrame([
        {"trial": t, "method": m, "depth": d, "final": final, "loss": loss}
        for t, (cv_depth, loss) in enumerate([(3, 0.2), (5, 0.3), (4, 0.4)])
        for m, d, final in [(RI, cv_depth, True), (RI, 9, False), ("Default (median)", np.nan, True)]
    ])
    table = method_table(records).set_index("method")
    half = t_interval([0.2, 0.3, 0.4])[1]
    assert table.loc[RI, "rank loss"] == f"0.300 ± {half:.3f}"
    assert table.loc[RI, "trials"] == 3
    assert table.loc[RI, "depth"] == "4.0 (3–5)"
    assert table.loc["Default (median)", "depth"] == "—"
    assert format_loss(0.25, np.nan) == "0.250"


def test_noise_table_puts_the_criteria_side_by_side():
    records = [{"n_train": n, "noise": s, "trial": t, "method": m, "depth": 2, "loss": 0.1 * t + s}
               for n in (100, 1000) for s in (0.0, 0.2) for t in range(3) for m in (RI, GINI)]
    table = noise_table(records)
    assert list(table.columns) == ["training size", "σ", RI, GINI, "trials"]
    assert len(table) == 4 and (table["trials"] == 3).all()
    assert table.iloc[1][RI] == format_loss(0.3, t_interval([0.2, 0.3, 0.4])[1])
