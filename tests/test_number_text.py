"""Numbers and counts in user text: no negative zero, one leaf (not "1 leaves")."""

import re

import numpy as np
import pytest

from rankviz import RankingTree, load_sample
from rankviz.tree.export import export_text
from rankviz.ui.stale import changes
from rankviz.ui.text import counted
from rankviz.viz.dot import tree_to_dot
from rankviz.viz.dot.common import fmt_similarity
from rankviz.viz.figures.ranking_trees import leaf_count_curve


@pytest.mark.parametrize("n, text", [(0, "0 leaves"), (1, "1 leaf"), (2, "2 leaves"), (12_345, "12,345 leaves")])
def test_counts_take_the_singular_for_one(n, text):
    assert counted(n, "leaf", "leaves") == text
    assert counted(n, "example") == text.replace("leaves", "examples").replace("leaf", "example")


@pytest.mark.parametrize("value, text", [(-1e-5, "0.000"), (-0.0, "0.000"), (-0.0004, "0.000"),
                                          (-0.0006, "-0.001"), (0.8124, "0.812"), (float("nan"), "n/a")])
def test_a_similarity_that_rounds_to_zero_is_written_without_a_sign(value, text):
    assert fmt_similarity(value) == text


def test_no_drawing_or_text_export_writes_minus_zero():
    toy = load_sample("toy")
    tree = RankingTree(min_samples_leaf=2).fit(toy.X, toy.rankings).tree_
    tree.similarity[:] = -1e-6  # e.g. a mean Spearman correlation a hair below zero
    tree.split_score[~tree.is_leaf] = -1e-6
    for text in (tree_to_dot(tree, show_ids=True), export_text(tree)):
        assert "-0.000" not in text
        assert re.search(r"S = 0\.000", text)


def test_the_leaf_count_curve_says_leaf_for_one():
    toy = load_sample("toy")
    path = RankingTree(gamma=np.inf, min_samples_leaf=2).fit(toy.X, toy.Y).gamma_path()
    steps = leaf_count_curve(path, (0.5, 1.05)).data[0]
    words = dict(zip(np.asarray(steps.y, dtype=int).tolist(), steps.customdata))
    assert words[1] == "leaf" and all(word == "leaves" for n, word in words.items() if n > 1)
    assert steps.hovertemplate == "γ > %{x:.4f}: %{y} %{customdata}<extra></extra>"


def test_changes_of_settings_are_listed_in_the_order_of_the_new_ones():
    before = {"data set": "toy", "γ": "0.995", "protocol": "leave-one-out"}
    now = {"data set": "toy", "γ": "0.970", "minimum examples per leaf": "3"}
    assert changes(before, now) == [("γ", "0.995", "0.970"), ("minimum examples per leaf", "—", "3"),
                                    ("protocol", "leave-one-out", "—")]
    assert changes(now, dict(now)) == []


def test_to_float_reads_numbers_as_python_float_and_refuses_other_scripts_and_underscores():
    from rankviz.datasets.reading import to_float

    plain = ["1", "-2.5", ".5", "5.", "1e3", "+6e54", "1e400", "0.1", "-1e-400"]
    # '+6e54': pandas' parser is one unit in the last place off here; float() rounds to nearest
    assert to_float(plain).tolist() == [float(text) for text in plain]
    others = [None, "", "1_0", "\u0661", "0x10", "1e", "+-1", "abc", "nan"]
    assert np.isnan(to_float(others)).all()
    # a list mixing both is read the general way (pandas): the same numbers, to the last unit
    mixed = to_float(plain + others)
    np.testing.assert_allclose(mixed[:len(plain)], [float(text) for text in plain], rtol=2**-52)
    assert np.isnan(mixed[len(plain):]).all()
