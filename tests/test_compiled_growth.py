"""The compiled builder (rankviz.tree.compiled) grows the very trees of the NumPy builder.

Every criterion, on data with tied and missing attribute values, nominal
attributes, complete, tied and incomplete rankings, under the limits and γ
values the app offers: same splits (attribute, threshold, missing side), same
node ids, sizes and depths; similarities and scores equal to rounding (the
NumPy search sums float statistics in another order). Plus a deep chain, the
case the compiled builder exists for.
"""

import numpy as np
import pytest

from rankviz import RankingTree
from rankviz.tree.builder import grow_tree, node_pair_counts
from rankviz.tree.feature_draws import drawn_features
from rankviz.label_ranking.aggregation import mean_from_sums, rank_by_mean
from rankviz.label_ranking.mallows import theta_from_mean_distance
from rankviz.tree import compiled
from rankviz.tree.compiled import criterion_spec, growth, kernels
from rankviz.tree.criteria import CRITERIA, Mallows, MeanSpearman, get_criterion
from rankviz.tree.mallows_nodes import node_models

EXACT = ("children_left", "children_right", "feature", "threshold", "missing_left", "n_samples", "depth",
         "split_feature")
CLOSE = ("similarity", "split_score", "split_threshold", "mean_rank")

#: The criteria the compiled builder grows (the others, e.g. the pairwise entropy of partial rankings,
#: grow level by level with NumPy).
COMPILED_CRITERIA = sorted(name for name in CRITERIA if compiled.has_compiled_form(get_criterion(name)))


def rankings(rng, n, n_labels, ties=False, missing=0.0):
    """Random rank positions (1 = first); ``ties`` rounds scores so some labels share a position."""
    scores = rng.random((n, n_labels))
    if ties:
        scores = np.round(scores * 3)
    Y = np.apply_along_axis(lambda s: np.unique(-s, return_inverse=True)[1] + 1.0, 1, scores)
    if missing:
        drop = rng.random(Y.shape) < missing
        drop[:, :2] = False  # every row keeps two labels
        Y[drop] = np.nan
    return Y


def structured(rng, n, d, n_labels, nominal=0, nan_rate=0.0, decimals=1):
    """Attributes with many ties (rounded), a few nominal codes, some missing; rankings that follow them."""
    X = np.round(rng.random((n, d)), decimals)
    is_nominal = np.zeros(d, dtype=bool)
    if nominal:
        is_nominal[-nominal:] = True
        X[:, -nominal:] = rng.integers(0, 4, size=(n, nominal))
    scores = X[:, :1] * np.arange(n_labels) + rng.normal(scale=0.4, size=(n, n_labels))
    Y = np.argsort(np.argsort(-scores, axis=1), axis=1) + 1.0
    if nan_rate:
        hole = rng.random((n, d)) < nan_rate
        hole[:, is_nominal] = False
        X[hole] = np.nan
    return X, is_nominal, Y


def both(X, nominal, Y, criterion, **limits):
    trees = [grow_tree(X, nominal, Y, get_criterion(criterion), engine=engine, **limits)
             for engine in ("numpy", "compiled")]
    return trees


def assert_same_tree(reference, compiled):
    assert reference.node_count == compiled.node_count
    for name in EXACT:
        np.testing.assert_array_equal(getattr(compiled, name), getattr(reference, name), err_msg=name)
    for name in CLOSE:
        np.testing.assert_allclose(getattr(compiled, name), getattr(reference, name), rtol=1e-9, atol=1e-12,
                                   err_msg=name)
    np.testing.assert_array_equal(compiled.ranking, reference.ranking)


LIMITS = [dict(gamma=np.inf, min_samples_leaf=1), dict(gamma=0.995, min_samples_leaf=2),
          dict(gamma=1.0, min_samples_leaf=5, max_depth=3), dict(gamma=1.02, min_samples_leaf=1)]


@pytest.mark.parametrize("criterion", COMPILED_CRITERIA)
@pytest.mark.parametrize("limits", LIMITS, ids=lambda l: ",".join(f"{k}={v}" for k, v in l.items()))
@pytest.mark.parametrize("seed", range(3))
def test_same_tree_on_structured_data(criterion, limits, seed):
    rng = np.random.default_rng(seed)
    X, nominal, Y = structured(rng, 150 + 50 * seed, 4, 3 + seed, nominal=1, nan_rate=0.05 * seed)
    assert_same_tree(*both(X, nominal, Y, criterion, **limits))


@pytest.mark.parametrize("criterion", COMPILED_CRITERIA)
@pytest.mark.parametrize("seed", range(3))
def test_same_tree_on_noise_and_tied_rankings(criterion, seed):
    """Rankings unrelated to the attributes, with ties: deep trees, many equal scores."""
    rng = np.random.default_rng(10 + seed)
    X = np.round(rng.random((120, 3)), 1)
    Y = rankings(rng, 120, 4, ties=criterion != "mallows" or seed == 0)
    for limits in LIMITS[:2]:
        assert_same_tree(*both(X, np.zeros(3, dtype=bool), Y, criterion, **limits))


@pytest.mark.parametrize("criterion", COMPILED_CRITERIA)
@pytest.mark.parametrize("seed", range(2))
def test_same_tree_when_every_split_ties_across_attributes(criterion, seed):
    """Monotone transforms of one attribute part the rows alike, so every split ties across them and the
    margins (the gap over the node's range) decide; a nominal copy and missing values take part."""
    rng = np.random.default_rng(40 + seed)
    x = np.round(rng.random(150), 2)
    X = np.column_stack([x, x ** 3, np.exp(4 * x), -x, np.round(x * 3)])
    X[rng.random(150) < 0.05 * seed, 1] = np.nan
    nominal = np.array([False, False, False, False, True])
    scores = x[:, None] * np.arange(4) + rng.normal(scale=0.4, size=(150, 4))
    if seed == 1:
        scores = np.round(scores * 2)  # tied rankings
    Y = np.apply_along_axis(lambda s: np.unique(-s, return_inverse=True)[1] + 1.0, 1, scores)
    for limits in LIMITS[1::-1]:
        reference, compiled_tree = both(X, nominal, Y, criterion, **limits)
        assert_same_tree(reference, compiled_tree)
    split = reference.children_left >= 0  # of the last, maximal tree
    assert (reference.split_feature[split] != 0).any()  # the margins chose, not the attributes' order


def test_ties_go_to_the_widest_margin_of_the_node():
    """Hand-worked: x and x ** 3 part three rankings from three others at the same place; in the node
    x's gap is 1 of 5 (0.2), x ** 3's is 64 - 27 = 37 of 215 (0.17); 10 - x ** 2 (reversed) 16 - 9 = 7 of
    35 (0.2, a later attribute). The tree splits on x at 3.5, and on x ** 3 once x is gone."""
    x = np.arange(1.0, 7.0)
    Y = np.array([[1, 2, 3]] * 3 + [[3, 2, 1]] * 3, dtype=float)
    for engine in ("numpy", "compiled"):
        tree = grow_tree(np.column_stack([x ** 3, x, 10 - x ** 2]), np.zeros(3, dtype=bool), Y,
                         get_criterion("mean_spearman"), gamma=np.inf, min_samples_leaf=1, engine=engine)
        assert (tree.split_feature[0], tree.split_threshold[0]) == (1, 3.5)
        tree = grow_tree(np.column_stack([10 - x ** 2, x ** 3]), np.zeros(2, dtype=bool), Y,
                         get_criterion("mean_spearman"), gamma=np.inf, min_samples_leaf=1, engine=engine)
        assert (tree.split_feature[0], tree.split_threshold[0]) == (0, 0.5 * (10 - 9) + 0.5 * (10 - 16))


@pytest.mark.parametrize("criterion", ["mallows", "ranking_impurity", "gini", "pairwise_entropy"])
@pytest.mark.parametrize("seed", range(3))
def test_same_tree_on_incomplete_rankings(criterion, seed):
    rng = np.random.default_rng(20 + seed)
    X, nominal, _ = structured(rng, 160, 3, 5, nominal=1, nan_rate=0.05)
    Y = rankings(rng, 160, 5, missing=0.3)
    for limits in LIMITS:
        assert_same_tree(*both(X, nominal, Y, criterion, **limits))


@pytest.mark.parametrize("criterion", ["ranking_impurity", "gini"])
@pytest.mark.parametrize("levels", ["ranks", "uneven"])
def test_same_tree_scanned_level_by_level(criterion, levels):
    """Complete rankings of many labels: both scan each row's level per label.

    Gini keeps the level counts of each side, the ranking impurity each
    side's summed distance between its rows. Uneven level values (gaps 0.5
    and 2) change nothing for Gini and make the ranking impurity's distances
    fractions; both must give the NumPy builder's tree either way.
    """
    rng = np.random.default_rng(31)
    X, nominal, Y = structured(rng, 300, 5, 12, nominal=1, nan_rate=0.0, decimals=2)
    X[rng.random(300) < 0.1, 1] = np.nan  # one attribute with missing values keeps the full scan
    if levels == "uneven":
        Y = np.array([0.0, 0.5, 1.0, 3.0, 5.0, 5.5, 6.0, 8.0, 8.5, 9.0, 11.0, 11.5])[Y.astype(int) - 1]
    fitted = get_criterion(criterion)
    stats = fitted.row_statistics(Y)   # fits the criterion's levels
    spec_levels = criterion_spec(fitted).row_levels(stats)
    assert spec_levels.shape == Y.shape  # 12 labels x 12 levels: the ranking impurity scans distances too
    few = get_criterion(criterion)
    few_stats = few.row_statistics(Y[:, :5])  # 5 labels x 12 levels: the ranking impurity keeps running sums
    assert criterion_spec(few).row_levels(few_stats).shape == ((300, 5) if criterion == "gini" else (0, 0))
    for limits in LIMITS:
        assert_same_tree(*both(X, nominal, Y, criterion, **limits))


@pytest.mark.parametrize("n_labels", [2, 4, 13, 16])
@pytest.mark.parametrize("source", ["attributes", "noise"])
def test_same_mallows_tree_with_the_centres_kept(n_labels, source):
    """Complete rankings: Mallows' scans keep each side's pair counts and vote margins.

    The scans pad the pairs to blocks of 8 with pairs that add nothing: 2
    labels have 1 pair, 4 labels 6, 13 labels 78, and 16 labels 120, no
    padding. Rankings unrelated to the attributes
    (``source="noise"``) move the centres at most rows.
    One attribute with missing values keeps the scan of the full sums.
    """
    rng = np.random.default_rng(41)
    X, nominal, Y = structured(rng, 300, 5, n_labels, nominal=1, nan_rate=0.0, decimals=2)
    if source == "noise":
        Y = rankings(rng, 300, n_labels)
    X[rng.random(300) < 0.1, 1] = np.nan
    fitted = get_criterion("mallows")
    stats = fitted.row_statistics(Y)
    spec = criterion_spec(fitted)
    codes = spec.row_codes(spec.augmented_statistics(stats))
    n_pairs = n_labels * (n_labels - 1) // 2
    # padded with codes that add nothing to whole blocks of 8 pairs, so the scans add whole vectors
    assert codes.shape == (300, -(-n_pairs // 8) * 8) and codes.dtype == np.int16
    assert not codes[:, n_pairs:].any()
    codes = codes[:, :n_pairs]
    np.testing.assert_array_equal(codes > 0, stats)  # positive exactly where the row puts a_k first
    a, b = np.triu_indices(n_labels, k=1)
    np.testing.assert_array_equal(codes, Y[:, b] - Y[:, a])  # the margin: b's position less a's
    for limits in LIMITS:
        assert_same_tree(*both(X, nominal, Y, "mallows", **limits))


@pytest.mark.parametrize("split", ["spread", "impurity", "variance"])
@pytest.mark.parametrize("n_labels", [3, 6, 11])
def test_same_mallows_tree_on_tied_rankings_by_the_pair_scan(n_labels, split):
    """Rankings with ties and no missing label: the pair scan counts each side's rows that put ``b_k``
    first too, and twice the Borda margins (votes of tied labels are halves) place the centres. 3 labels
    have 3 pairs, 6 labels 15 and 11 labels 55 (padded to blocks of 8). With a label missing the scan of
    the full sums serves."""
    rng = np.random.default_rng(44 + n_labels)
    X, nominal, _ = structured(rng, 250, 4, n_labels, nominal=1, nan_rate=0.05, decimals=2)
    # scores that follow the first attribute, rounded so that labels tie
    scores = np.round(np.nan_to_num(X[:, :1]) * np.arange(n_labels) + rng.normal(scale=0.4, size=(250, n_labels)))
    Y = np.apply_along_axis(lambda s: np.unique(-s, return_inverse=True)[1] + 1.0, 1, scores)
    fitted = Mallows(split=split)
    stats = fitted.row_statistics(Y)
    spec = criterion_spec(fitted)
    codes = spec.row_codes(spec.augmented_statistics(stats))
    n_pairs = n_labels * (n_labels - 1) // 2
    a, b = np.triu_indices(n_labels, k=1)
    assert not fitted.complete_ and (Y[:, a] == Y[:, b]).any()
    assert codes.shape[1] == -(-n_pairs // 8) * 8 and not codes[:, n_pairs:].any()  # padding adds nothing
    np.testing.assert_array_equal(np.sign(codes[:, :n_pairs]), np.sign(Y[:, b] - Y[:, a]))  # 0 where it ties
    for limits in LIMITS[:2]:
        assert_same_tree(*both(X, nominal, Y, Mallows(split=split), **limits))
    Y[0, -1] = np.nan
    fitted.row_statistics(Y)
    assert criterion_spec(fitted).row_codes(fitted.row_statistics(Y)).shape == (0, 0)


@pytest.mark.parametrize("split", ["spread", "impurity", "variance"])
@pytest.mark.parametrize("missing", [0.0, 0.3])
def test_same_mallows_tree_with_each_split_form(missing, split):
    """Mallows(split="spread") (eq. 6 as printed), "impurity" and "variance": the pair scan's θ bounds
    and the full sums' scan score each as the NumPy builder does, complete rankings (the pair scan)
    and incomplete ones."""
    rng = np.random.default_rng(43)
    X, nominal, Y = structured(rng, 200, 4, 6, nominal=1, nan_rate=0.0, decimals=2)
    if missing:
        Y = rankings(rng, 200, 6, missing=missing)
    for limits in LIMITS[:2]:
        assert_same_tree(*both(X, nominal, Y, Mallows(split=split), **limits))


@pytest.mark.parametrize("criterion", COMPILED_CRITERIA)
def test_same_tree_with_split_level_feature_draws(criterion):
    """max_features: both builders search each node on the same drawn attributes (keys of the seed and
    the node's id), a nominal and a numeric one with missing values among them; each split's attribute
    is one its node drew, and a node whose draws allow no split is a leaf."""
    rng = np.random.default_rng(44)
    X, nominal, Y = structured(rng, 240, 6, 4, nominal=1, nan_rate=0.05)
    for seed in (0, 2**62 + 11):
        reference, compiled_tree = both(X, nominal, Y, criterion, gamma=np.inf, min_samples_leaf=1,
                                        max_features=2, feature_seed=seed)
        assert_same_tree(reference, compiled_tree)
        internal = np.flatnonzero(reference.children_left >= 0)
        drawn = drawn_features(seed, internal, X.shape[1], 2)
        assert drawn[np.arange(len(internal)), reference.feature[internal]].all()
    full = grow_tree(X, nominal, Y, get_criterion(criterion), gamma=np.inf, min_samples_leaf=1)
    assert_same_tree(full, grow_tree(X, nominal, Y, get_criterion(criterion), gamma=np.inf, min_samples_leaf=1,
                                     max_features=X.shape[1], feature_seed=5))


def test_the_nodes_rankings_sorted_in_compiled_code_are_the_mean_rank_rule():
    """Equal means keep the label order, a label no row holds (count 0: NaN) goes last, an infinite
    mean sorts before NaN: as ``mean_from_sums`` and ``rank_by_mean`` (NumPy's stable argsort)."""
    rng = np.random.default_rng(7)
    for trial in range(300):
        n_nodes, n_labels = rng.integers(1, 30), rng.integers(1, 20)
        sums = rng.integers(0, 6, size=(n_nodes, n_labels)) * rng.choice([1.0, 0.5, 0.37])
        counts = rng.integers(0, 4, size=(n_nodes, n_labels)).astype(float)
        if trial % 3 == 0:
            sums[:, :2] = np.inf
        mean, ranking = kernels.node_rankings(np.hstack([sums, counts]))
        expected = mean_from_sums(sums, counts)
        np.testing.assert_array_equal(mean, expected)
        np.testing.assert_array_equal(ranking, rank_by_mean(expected))


def test_the_draws_are_the_same_keys_in_numpy_and_compiled_code():
    nodes = np.array([0, 1, 2, 77, 10**6, 2**40])
    # (the compiled draw selects with a heap: one attribute, all of them, and many are its edge cases)
    for seed, n_features, m in [(0, 9, 3), (123, 50, 7), (2**63 - 1, 5, 4), (7, 1, 1), (1, 64, 1), (2, 64, 64),
                                (3, 300, 17), (4, 301, 300)]:
        expected = drawn_features(seed, nodes, n_features, m)
        assert (expected.sum(axis=1) == m).all()
        keys, drawn = np.empty(n_features, dtype=np.uint64), np.empty(n_features, dtype=bool)
        heap = np.empty(n_features, dtype=np.intp)
        for i, node in enumerate(nodes):
            kernels.draw_features(seed, int(node), m, keys, drawn, heap)
            np.testing.assert_array_equal(drawn, expected[i])
    # about uniform: each of 10 attributes drawn by close to 3 in 10 of 4,000 nodes
    share = drawn_features(9, np.arange(4000), 10, 3).mean(axis=0)
    assert np.abs(share - 0.3).max() < 0.03


@pytest.mark.parametrize("criterion", COMPILED_CRITERIA)
def test_same_deep_chain(criterion):
    """Random rankings on many attributes: the maximal tree peels a few rows at a time, hundreds deep."""
    rng = np.random.default_rng(3)
    X = rng.random((400, 8))
    Y = rankings(rng, 400, 6)
    reference, compiled = both(X, np.zeros(8, dtype=bool), Y, criterion, gamma=np.inf, min_samples_leaf=1)
    assert_same_tree(reference, compiled)
    assert reference.max_depth >= 10


def test_a_subclass_grows_with_numpy_and_compiled_refuses_it():
    class Tweaked(MeanSpearman):
        """A user's variant: the compiled formulas cannot know what it changes."""

    rng = np.random.default_rng(0)
    X, nominal, Y = structured(rng, 80, 3, 3)
    tree = grow_tree(X, nominal, Y, Tweaked(), engine="auto")
    reference = grow_tree(X, nominal, Y, MeanSpearman(), engine="numpy")
    assert_same_tree(reference, tree)
    with pytest.raises(ValueError, match="no compiled form"):
        grow_tree(X, nominal, Y, Tweaked(), engine="compiled")
    with pytest.raises(ValueError, match="engine must be one of"):
        grow_tree(X, nominal, Y, MeanSpearman(), engine="cython")


def test_the_estimator_grows_compiled_and_predicts_as_before():
    """RankingTree uses the compiled builder: its tree is the NumPy builder's."""
    rng = np.random.default_rng(5)
    X, nominal, Y = structured(rng, 300, 4, 4)
    model = RankingTree(criterion="mallows", gamma=np.inf, min_samples_leaf=1).fit(X, Y)
    reference = grow_tree(X, nominal, Y, get_criterion("mallows"), gamma=np.inf, min_samples_leaf=1, engine="numpy")
    assert_same_tree(reference, model.tree_)


@pytest.mark.parametrize("criterion", ["mean_spearman", "gini"])
def test_same_tree_past_the_first_node_columns(criterion):
    """Over 1,023 nodes: the compiled builder's node columns double as the tree grows (start at 1,023)."""
    rng = np.random.default_rng(8)
    X = rng.random((1_500, 3))
    Y = rankings(rng, 1_500, 5)
    reference, compiled = both(X, np.zeros(3, dtype=bool), Y, criterion, gamma=np.inf, min_samples_leaf=1)
    assert reference.node_count > 2_047  # past two doublings
    assert_same_tree(reference, compiled)


@pytest.mark.parametrize("criterion", COMPILED_CRITERIA)
def test_same_tree_when_the_frontier_outgrows_its_room(criterion, monkeypatch):
    """The grower keeps the sums of the nodes waiting to be searched in a ring that doubles when full:
    started at 2 nodes, it doubles many times and must keep every waiting node's sums."""
    monkeypatch.setattr(growth, "FIRST_FRONTIER", 2)
    rng = np.random.default_rng(4)
    X, nominal, Y = structured(rng, 400, 3, 4, nominal=1)
    reference, compiled = both(X, nominal, Y, criterion, gamma=np.inf, min_samples_leaf=1)
    assert np.bincount(reference.depth).max() > 16  # levels wider than the ring's first sizes
    assert_same_tree(reference, compiled)


@pytest.mark.parametrize("n_labels", [2, 3, 5, 10, 16, 30])
def test_theta_bounds_hold_on_a_dense_grid(n_labels):
    """Mallows' scans skip a candidate whose θ bounds cannot reach the best score: the tabled bounds must
    hold for every mean distance, across each range, at its ends and over the joins of θ's pieces. The
    grower takes the tables the spec keeps per number of labels: they must be those of its own θ table."""
    rng = np.random.default_rng(n_labels)
    criterion = get_criterion("mallows")
    criterion.row_statistics(rankings(rng, 30, n_labels))
    spec = criterion_spec(criterion)
    upper, lower, first_key = spec.theta_bounds()
    own_upper, own_lower, own_first_key = kernels.theta_bounds(n_labels, spec.table, spec.table_x)
    assert np.array_equal(upper, own_upper) and np.array_equal(lower, own_lower) and first_key == own_first_key
    most = n_labels * (n_labels - 1) / 4.0
    d = np.concatenate([np.geomspace(1e-13, most, 20_000), rng.uniform(0, most, 5_000), [most, np.nextafter(most, 0)],
                        0.5 / np.arange(1, 200)])
    d = d[(d > 0) & (d <= most)]
    theta = theta_from_mean_distance(d, n_labels)
    keys = np.array([kernels.theta_bound_key(value, first_key, len(upper)) for value in d])
    assert np.all(theta <= upper[keys]) and np.all(theta >= lower[keys])
    assert np.isinf(upper[0]) and lower[-1] == 0.0
    # and tight enough to prune: within 0.02% above the tables' first range (from 2**-24; below it only
    # pure nodes of 16 million rows fall, and the first range has no upper bound) up to half the largest
    # mean distance (θ below 20; beyond there θ changes fast as the distance nears its largest value,
    # and the ranges are relative). Noisy nodes' candidates score within 0.5% of each other: 2% bounds
    # left most of them to be scored.
    inside = (d > 2.0 ** -23) & (d <= most / 2) & (theta < 20)
    assert np.all(upper[keys][inside] <= 1.0002 * theta[inside])
    assert np.all(lower[keys][inside] >= 0.9998 * theta[inside])


@pytest.mark.parametrize("shape", ["few values", "distinct", "missing", "all missing", "signed zeros and inf", "empty"])
def test_stable_order_is_numpy_stable_argsort(shape):
    """The scans' row order per attribute: NaN last, equal values (and all NaN) in row order."""
    rng = np.random.default_rng(7)
    n = 0 if shape == "empty" else 2_000
    x = rng.integers(0, 30, n).astype(float)
    if shape == "distinct":
        x = rng.random(n)
    elif shape == "missing":
        x[rng.random(n) < 0.2] = np.nan
    elif shape == "all missing":
        x[:] = np.nan
    elif shape == "signed zeros and inf":
        x = np.where(x < 10, 0.0, np.where(x < 20, -0.0, np.where(x < 25, np.inf, -np.inf)))
    np.testing.assert_array_equal(growth.stable_order(x), np.argsort(x, kind="stable"))


@pytest.mark.parametrize("engine", ["numpy", "compiled"])
def test_growth_returns_the_leaf_of_every_row(engine):
    """``return_leaves``: the leaves growth routed the rows to, as ``Tree.apply`` routes them again
    (nominal and missing values included); the Mallows node models use them."""
    rng = np.random.default_rng(53)
    X, nominal, Y = structured(rng, 300, 4, 5, nominal=1, nan_rate=0.1)
    categories = [list(range(int(np.nanmax(x)) + 1)) if is_nominal else None for x, is_nominal in zip(X.T, nominal)]
    tree, leaf_of_row = grow_tree(X, nominal, Y, get_criterion("mallows"), gamma=np.inf, min_samples_leaf=1,
                                  categories=categories, engine=engine, return_leaves=True)
    assert tree.node_count > 50
    np.testing.assert_array_equal(leaf_of_row, tree.apply(X))
    assert not isinstance(grow_tree(X, nominal, Y, get_criterion("mallows"), engine=engine), tuple)


@pytest.mark.parametrize("ties", [False, True], ids=["strict", "tied"])
def test_mallows_node_models_are_the_criterions_centres_and_theta_of_each_node(ties):
    """The node models read the mean-rank centres and count pairs; the criterion's formulas, on each node's
    summed statistics (its Borda votes, with the tolerance of generalised votes), are the definition."""
    rng = np.random.default_rng(62)
    X, nominal, _ = structured(rng, 300, 4, 7, nominal=1)
    Y = rankings(rng, 300, 7, ties=ties)
    tree, leaves = grow_tree(X, nominal, Y, get_criterion("mallows"), gamma=np.inf, min_samples_leaf=1,
                             return_leaves=True)
    criterion = Mallows()
    stats = criterion.row_statistics(Y)
    assert criterion.complete_ is not ties
    sums = np.array([stats[np.isin(leaves, subtree)].sum(axis=0) for subtree in _subtrees(tree)])
    centre, theta, _ = node_models(tree, X, Y, leaves)
    np.testing.assert_array_equal(centre, criterion.centers(tree.n_samples, sums))
    np.testing.assert_array_equal(theta, criterion.theta(tree.n_samples, sums))


def _subtrees(tree):
    """Each node's leaves."""
    leaves_of = [[] for _ in range(tree.node_count)]
    for node in range(tree.node_count - 1, -1, -1):
        left, right = tree.children_left[node], tree.children_right[node]
        leaves_of[node] = [node] if left < 0 else leaves_of[left] + leaves_of[right]
    return leaves_of


@pytest.mark.parametrize("ties", [False, True], ids=["strict", "tied"])
def test_mallows_node_models_summed_with_numpy_equal_the_compiled_ones(ties):
    """Before the compiled code is built the node models sum with NumPy (rankviz.jit): the same whole
    numbers, so the same centres and θ, on a deep maximal tree (without ties the wins and the distances
    to the centres; with ties the criterion's statistics). Without ties the compiled grower sums each
    node's distance to its centre as it grows: the models from those equal the ones counted row by row."""
    rng = np.random.default_rng(61)
    X, nominal, _ = structured(rng, 400, 4, 6, nominal=1)
    Y = rankings(rng, 400, 6, ties=ties)
    tree, leaves = grow_tree(X, nominal, Y, get_criterion("mallows"), gamma=np.inf, min_samples_leaf=1,
                             return_leaves=True, engine="compiled")
    assert tree.max_depth > 10
    assert ("node_distance" in tree.extras) is not ties
    by_grower = node_models(tree, X, Y, leaves)
    tree.extras.pop("node_distance", None)
    by_numpy, by_compiled = (node_models(tree, X, Y, leaves, engine=engine) for engine in ("numpy", "compiled"))
    for name, ours, theirs, grower in zip(("centre", "theta", "mean position"), by_numpy, by_compiled, by_grower):
        np.testing.assert_array_equal(ours, theirs, err_msg=name)
        np.testing.assert_array_equal(ours, grower, err_msg=name)
    with pytest.raises(ValueError, match="engine must be one of"):
        node_models(tree, X, Y, leaves, engine="cython")


@pytest.mark.parametrize("engine", ["numpy", "compiled"])
def test_the_nodes_pair_counts_are_each_nodes_rows_ordering_each_pair(engine):
    """The counts of the bucket orders and the tied Mallows models (compiled: without the rows' table of
    pair relations), against a count over each node's rows, ties and missing labels included."""
    rng = np.random.default_rng(64)
    X, nominal, _ = structured(rng, 300, 4, 5, nominal=1)
    Y = rankings(rng, 300, 5, ties=True)
    Y[rng.random(Y.shape) < 0.1] = np.nan
    tree, leaves = grow_tree(X, nominal, Y, get_criterion("mean_spearman"), gamma=np.inf, min_samples_leaf=2,
                             return_leaves=True)
    ahead, tie, behind = node_pair_counts(tree, leaves, Y, engine)
    first, second = np.triu_indices(5, k=1)
    for node, subtree in enumerate(_subtrees(tree)):
        rows = Y[np.isin(leaves, subtree)]
        np.testing.assert_array_equal(ahead[node], (rows[:, first] < rows[:, second]).sum(axis=0))
        np.testing.assert_array_equal(tie[node], (rows[:, first] == rows[:, second]).sum(axis=0))
        np.testing.assert_array_equal(behind[node], (rows[:, first] > rows[:, second]).sum(axis=0))
    assert tie.sum() > 0 and (ahead + tie + behind)[0].min() < len(Y)  # ties, and pairs some rows lack


def test_the_compiled_pairwise_entropy_cuts_small_shares_as_the_criterion_does():
    """Above 100,000 rows a relation held by fewer than 1e-5 of them counts as none: the compiled formula
    takes that branch there, and must give the criterion's similarity to the bit on both sides of it."""
    rng = np.random.default_rng(65)
    Y = rankings(rng, 150_000, 3, ties=True)
    criterion = get_criterion("pairwise_entropy")
    stats = criterion.row_statistics(Y)
    spec = criterion_spec(criterion)
    sets = [stats.sum(axis=0), stats[:99_999].sum(axis=0), stats[:20].sum(axis=0)]
    rare = np.zeros(9)
    rare[[0, 3, 6]] = [149_999, 1, 0]  # pair (a, b): one tie in 150,000 (a share below the cut)
    rare[[1, 4, 7]] = [0, 2, 149_998]  # (a, c): two ties, above it
    rare[[2, 5, 8]] = [150_000, 0, 0]
    for s in [*sets, rare]:
        count = float(s[:3].sum()) if s is rare else float(np.sum(s[[0, 3, 6]]))
        expected = float(criterion.node_similarity(count, s))
        assert kernels.node_similarity(kernels.PAIRWISE_ENTROPY, spec.ints, spec.floats, count, s) == expected
    def plogp(count):
        return -count / 150_000 * np.log2(count / 150_000)

    # the one tie left out of (a, b), the two of (a, c) kept
    assert float(criterion.impurity(150_000, rare)) == pytest.approx(
        (plogp(149_999) + (plogp(2) + plogp(149_998)) + 0) / 3, rel=1e-12)


@pytest.mark.parametrize("ties", [False, True])
def test_the_pairwise_entropy_of_complete_rankings_takes_one_logarithm_per_set_in_both_engines(ties):
    """When every row holds every label each pair's relations add up to the set's rows, and both engines
    compute a set's impurity as log2 n - sum(c log2 c) / (n pairs): the same bits in both, and the mean of
    the pairs' Shannon entropies (scipy) to rounding. A missing label turns it off; ties turn on their terms."""
    from scipy.stats import entropy

    rng = np.random.default_rng(66)
    Y = rankings(rng, 500, 6, ties=ties)
    criterion = get_criterion("pairwise_entropy")
    stats = criterion.row_statistics(Y)
    assert criterion.complete_ and criterion.ties_ == ties
    spec = criterion_spec(criterion)
    n_pairs = 15
    for size in (1, 2, 7, 80, 500):
        rows = rng.choice(500, size, replace=False)
        s = stats[rows].sum(axis=0)
        ours = float(criterion.impurity(size, s))
        compiled = kernels.node_similarity(kernels.PAIRWISE_ENTROPY, spec.ints, spec.floats, float(size), s)
        assert compiled == float(criterion.node_similarity(size, s))
        by_pair = [entropy(s[[k, n_pairs + k, 2 * n_pairs + k]], base=2) for k in range(n_pairs)]
        assert ours == pytest.approx(np.mean(by_pair), rel=1e-12, abs=1e-12)
    Y[0, 2] = np.nan
    criterion.row_statistics(Y)
    assert not criterion.complete_


@pytest.mark.parametrize("n_labels, n", [(3, 150), (8, 300), (8, 2100)])
def test_same_pairwise_entropy_tree_with_and_without_the_pair_table(n_labels, n):
    """Complete rankings without ties: the compiled scan reads each pair's two terms of a set from a table
    of every set size where that pays (8 labels, 300 rows) and adds them itself where it does not (3 labels,
    150 rows: fewer candidates than cells; 2,100 rows: past the table's size). Node for node the NumPy
    engine's tree either way, on attributes with few values (many equal scores)."""
    rng = np.random.default_rng(70 + n_labels)
    X, nominal, Y = structured(rng, n, 4, n_labels, decimals=2)
    for limits in LIMITS[:2]:
        assert_same_tree(*both(X, nominal, Y, "pairwise_entropy", **limits))
