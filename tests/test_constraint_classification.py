"""Constraint classification (Cheng, Hühn & Hüllermeier 2009, §6): checked against a plain reference perceptron.

The reference below is the algorithm written the slow, obvious way (Python
loops over examples and label pairs, the running sum of the weights after
every step); the estimator must give the same weights. The remaining tests
check what the weights are for: recovering linear utilities, incomplete
rankings, reproducibility and the output format.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy.stats import rankdata
from sklearn.base import clone

from rankviz.label_ranking.aggregation import rank_by_mean
from rankviz.label_ranking.constraint_classification import ConstraintClassifier
from rankviz.label_ranking.incomplete import delete_labels
from rankviz.label_ranking.metrics import kendall_tau


def reference_weights(X, Y, *, n_epochs=10, margin=0.0, alpha=0.0, average=True, batch_size=1,
                      random_state=0):
    """The perceptron over pairwise constraints, one pair and one step at a time.

    Returns the (n_labels, n_features + 1) weights, bias last.
    """
    X = np.asarray(X, dtype=float)
    std = X.std(axis=0)
    design = np.hstack([(X - X.mean(axis=0)) / np.where(std > 0, std, 1.0), np.ones((len(X), 1))])
    n, n_labels = Y.shape
    weights = np.zeros((n_labels, design.shape[1]))
    total = np.zeros_like(weights)
    own = np.zeros((n, n_labels))
    rng = np.random.default_rng(random_state)
    for _ in range(n_epochs):
        pending = np.zeros_like(weights)
        for k, i in enumerate(rng.permutation(n)):
            utilities = weights @ design[i] + alpha * own[i]
            change = np.zeros(n_labels)
            for a in range(n_labels):
                for b in range(n_labels):
                    # a before b (NaN compares False: missing labels give no constraint)
                    if Y[i, a] < Y[i, b] and utilities[a] - utilities[b] <= margin:
                        change[a] += 1
                        change[b] -= 1
            pending += np.outer(change, design[i])
            own[i] += change
            if (k + 1) % batch_size == 0 or k == n - 1:
                weights = weights + pending
                pending = np.zeros_like(weights)
            total += weights
    return total / (n_epochs * n) if average else weights


def linear_problem(n, n_features=3, n_labels=5, noise=0.0, seed=0):
    """Rankings by the utilities W x (+ noise): the model class of CC."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, n_features))
    W = rng.normal(size=(n_labels, n_features))
    utilities = X @ W.T + rng.normal(scale=noise, size=(n, n_labels)) if noise else X @ W.T
    return X, rank_by_mean(-utilities), W


def fitted_weights(model):
    return np.column_stack([model.coef_, model.intercept_])


def messy_rankings(n, n_labels, seed):
    """Rankings with ties (few distinct scores) and deleted labels, some rows left with < 2."""
    rng = np.random.default_rng(seed)
    Y = rankdata(-rng.integers(0, 3, size=(n, n_labels)), axis=1)
    return delete_labels(Y, 0.35, seed=seed)


@pytest.mark.parametrize("kwargs", [
    {},
    {"average": False},
    {"margin": 0.7},
    {"alpha": 2.0},
    {"batch_size": 4},
    {"batch_size": 4, "alpha": 1.5, "margin": 0.3},
    {"n_epochs": 1, "random_state": 5},
])
def test_weights_equal_the_reference_perceptron(kwargs):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(30, 3)) * [1.0, 10.0, 0.1] + [0.0, 5.0, -2.0]
    Y = messy_rankings(30, 4, seed=2)
    assert ((~np.isnan(Y)).sum(axis=1) < 2).any()  # the skipped rows are exercised
    kwargs = {"n_epochs": 4, **kwargs}
    model = ConstraintClassifier(**kwargs).fit(X, Y)
    np.testing.assert_allclose(fitted_weights(model), reference_weights(X, Y, **kwargs),
                               rtol=1e-10, atol=1e-10)


def test_reference_check_is_not_vacuous():
    # The comparison above would pass for any two implementations that both return
    # zeros; the reference learns something, and differs between settings.
    rng = np.random.default_rng(1)
    X = rng.normal(size=(30, 3))
    Y = messy_rankings(30, 4, seed=2)
    averaged = reference_weights(X, Y, n_epochs=4)
    assert np.abs(averaged).max() > 0.1
    assert not np.allclose(averaged, reference_weights(X, Y, n_epochs=4, average=False))
    assert not np.allclose(averaged, reference_weights(X, Y, n_epochs=4, batch_size=4))


def test_recovers_linear_utilities_on_held_out_data():
    X, Y, _ = linear_problem(3000)
    model = ConstraintClassifier().fit(X[:2000], Y[:2000])
    assert np.mean(kendall_tau(Y[2000:], model.predict(X[2000:]))) > 0.9


def test_recovers_linear_utilities_from_noisy_rankings():
    # Noisy training rankings; the held-out truth is the noise-free ranking.
    X, Y, W = linear_problem(4000, noise=1.0, seed=3)
    truth = rank_by_mean(-(X[3000:] @ W.T))
    model = ConstraintClassifier().fit(X[:3000], Y[:3000])
    assert np.mean(kendall_tau(truth, model.predict(X[3000:]))) > 0.9


def test_standardisation_makes_the_fit_independent_of_feature_units():
    X, Y, _ = linear_problem(500, seed=4)
    plain = ConstraintClassifier(n_epochs=3).fit(X, Y)
    rescaled = ConstraintClassifier(n_epochs=3).fit(X * [1000.0, 0.001, 1.0] + [5e4, -3.0, 0.0], Y)
    # The standardised features are the same, so are the weights on them.
    np.testing.assert_allclose(fitted_weights(plain), fitted_weights(rescaled), atol=1e-9)
    np.testing.assert_array_equal(
        plain.predict(X[:50]), rescaled.predict(X[:50] * [1000.0, 0.001, 1.0] + [5e4, -3.0, 0.0]))


def test_mini_batches_still_recover_linear_utilities():
    X, Y, _ = linear_problem(3000)
    model = ConstraintClassifier(batch_size=16).fit(X[:2000], Y[:2000])
    assert np.mean(kendall_tau(Y[2000:], model.predict(X[2000:]))) > 0.9


def test_learns_a_complete_order_from_rankings_of_two_labels():
    # Every training ranking keeps only two of the three labels, yet the pairs
    # together determine A > B > C for x < 0 and C > B > A for x > 0.
    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, size=600)
    full = np.where(x[:, None] < 0, [1.0, 2.0, 3.0], [3.0, 2.0, 1.0])
    dropped = rng.integers(0, 3, size=600)
    Y = full.copy()
    Y[np.arange(600), dropped] = np.nan
    Y = rankdata(Y, axis=1, nan_policy="omit")
    assert ((~np.isnan(Y)).sum(axis=1) == 2).all()
    model = ConstraintClassifier().fit(x[:, None], Y)
    np.testing.assert_array_equal(model.predict([[-0.8], [-0.3], [0.3], [0.8]]),
                                  [[1, 2, 3], [1, 2, 3], [3, 2, 1], [3, 2, 1]])


def test_missing_labels_are_not_treated_as_last():
    # Label C is first wherever it is present but missing in 80 % of the rows. Read as
    # "last" it would sink; read as unknown (no constraint) it stays first.
    rng = np.random.default_rng(0)
    x = rng.normal(size=(500, 1))
    Y = np.tile([2.0, 3.0, 1.0], (500, 1))
    missing = rng.random(500) < 0.8
    Y[missing] = [1.0, 2.0, np.nan]
    model = ConstraintClassifier().fit(x, Y)
    np.testing.assert_array_equal(np.unique(model.predict(x), axis=0), [[2, 3, 1]])


def test_rows_with_fewer_than_two_labels_are_accepted_and_skipped():
    X, Y, _ = linear_problem(400, n_labels=3, seed=5)
    Y_sparse = delete_labels(Y, 0.6, seed=1)
    short = (~np.isnan(Y_sparse)).sum(axis=1) < 2
    assert short.mean() > 0.5
    model = ConstraintClassifier().fit(X, Y_sparse)
    # Judged on the complete rankings the deletions were made from.
    assert np.mean(kendall_tau(Y, model.predict(X))) > 0.8


def test_a_lone_label_at_any_position_gives_no_constraint():
    # positions in any convention are read (issue 16): a lone label is a lone label
    X = np.array([[0.0], [1.0], [2.0]])
    Y = np.array([[1.0, 2.0, 3.0], [np.nan, 2.0, np.nan], [3.0, 2.0, 1.0]])
    lone_first = Y.copy()
    lone_first[1, 1] = 1.0
    np.testing.assert_array_equal(ConstraintClassifier().fit(X, Y).coef_,
                                  ConstraintClassifier().fit(X, lone_first).coef_)


def test_invalid_rankings_are_rejected_with_their_row_number():
    Y = np.array([[1.0, 2.0, np.nan], [np.nan, np.nan, np.nan], [1.0, np.inf, 3.0]])
    with pytest.raises(ValueError, match="row 3"):
        ConstraintClassifier().fit(np.zeros((3, 1)), Y)


def test_predictions_are_permutations_and_utilities_order_them():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 4))
    Y = np.vstack([rng.permutation(6) + 1.0 for _ in range(200)])
    model = ConstraintClassifier(n_epochs=3).fit(X, Y)
    query = rng.normal(size=(100, 4))
    predicted = model.predict(query)
    np.testing.assert_array_equal(np.sort(predicted, axis=1), np.tile(np.arange(1, 7), (100, 1)))
    utilities = model.decision_function(query)
    assert utilities.shape == (100, 6)
    # The first-ranked label has the largest utility, the last the smallest.
    np.testing.assert_array_equal(np.argmin(predicted, axis=1), np.argmax(utilities, axis=1))
    np.testing.assert_array_equal(np.argmax(predicted, axis=1), np.argmin(utilities, axis=1))


def test_equal_utilities_keep_the_label_order():
    # All training rankings tie every label: no constraint, all utilities stay 0.
    model = ConstraintClassifier().fit(np.arange(4.0)[:, None], np.full((4, 3), 2.0))
    assert model.n_updates_ == 0
    np.testing.assert_array_equal(model.predict([[0.0], [9.0]]), [[1, 2, 3], [1, 2, 3]])


def test_fits_are_reproducible_with_random_state():
    X, Y, _ = linear_problem(300, noise=2.0, seed=6)
    first = ConstraintClassifier(random_state=3).fit(X, Y)
    again = ConstraintClassifier(random_state=3).fit(X, Y)
    other = ConstraintClassifier(random_state=4).fit(X, Y)
    np.testing.assert_array_equal(fitted_weights(first), fitted_weights(again))
    assert not np.allclose(fitted_weights(first), fitted_weights(other))
    # A clone (as in cross-validation) refits to the same weights.
    np.testing.assert_array_equal(fitted_weights(clone(first).fit(X, Y)), fitted_weights(first))


def test_nominal_attributes_are_one_hot_encoded():
    # The colour decides the ranking; the numeric column is noise.
    rng = np.random.default_rng(0)
    colour = rng.choice(["red", "green", "blue"], size=300)
    X = pd.DataFrame({"noise": rng.normal(size=300), "colour": colour})
    by_colour = {"red": [1, 2, 3], "green": [2, 3, 1], "blue": [3, 1, 2]}
    Y = np.array([by_colour[c] for c in colour], dtype=float)
    model = ConstraintClassifier().fit(X, Y)
    assert model.coef_.shape == (3, 1 + 3)
    query = pd.DataFrame({"noise": [0.0, 0.0, 0.0, 0.0], "colour": ["red", "green", "blue", "purple"]})
    predicted = model.predict(query)
    np.testing.assert_array_equal(predicted[:3], [by_colour["red"], by_colour["green"], by_colour["blue"]])
    # An unseen colour sets no indicator: the bias and the numeric part decide.
    np.testing.assert_array_equal(np.sort(predicted[3]), [1, 2, 3])


@pytest.mark.parametrize("kwargs", [
    {"n_epochs": 0}, {"n_epochs": 2.5}, {"margin": -1.0}, {"margin": np.inf},
    {"alpha": -0.1}, {"batch_size": 0}, {"batch_size": None},
])
def test_invalid_parameters_are_rejected(kwargs):
    name = next(iter(kwargs))
    with pytest.raises(ValueError, match=name):
        ConstraintClassifier(**kwargs).fit(np.zeros((2, 1)), [[1, 2], [2, 1]])


# --------------------------------------------------------------------------- #
# finite features near the float limit
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("batch_size, alpha", [(1, 0.0), (8, 5.0)])
def test_features_near_the_float_limit_neither_overflow_nor_change_the_fit(batch_size, alpha):
    X, Y, _ = linear_problem(120, n_features=3, n_labels=4, seed=3)
    big = X.copy()
    big[:, 0] = np.where(X[:, 0] > 0, 1.7e308, -1.7e308)   # finite, at the float limit
    small = X.copy()
    small[:, 0] = np.where(X[:, 0] > 0, 1.0, -1.0)          # the same column, 1.7e308 times smaller
    with warnings.catch_warnings():
        warnings.simplefilter("error")                       # no overflow, no invalid value
        model = ConstraintClassifier(batch_size=batch_size, alpha=alpha).fit(big, Y)
        utilities = model.decision_function(big)
        extreme = model.decision_function([[1.7e308, 1e300, -1e300], [-1.7e308, 0.0, np.nan]])
    assert np.isfinite(model.coef_).all() and np.isfinite(model.mean_).all() and np.isfinite(model.scale_).all()
    assert np.isfinite(utilities).all() and np.isfinite(extreme).all()
    # standardising is scale-free: the fit is the one on the small column
    reference = ConstraintClassifier(batch_size=batch_size, alpha=alpha).fit(small, Y)
    np.testing.assert_allclose(model.coef_, reference.coef_, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(model.predict(big), reference.predict(small))


def test_dividing_by_the_magnitude_changes_no_number():
    X, Y, _ = linear_problem(80, n_features=3, n_labels=4, seed=4)
    X = X * np.array([1e-3, 7.0, 3e5])
    model = ConstraintClassifier().fit(X, Y)
    np.testing.assert_array_equal(model.magnitude_, [2.0 ** np.floor(np.log2(np.abs(X[:, j]).max()))
                                                     for j in range(3)])
    np.testing.assert_allclose(model.mean_, X.mean(axis=0), rtol=1e-13)
    np.testing.assert_allclose(model.scale_, X.std(axis=0), rtol=1e-13)
    # the magnitudes are powers of two: the utilities are those of the plain standardised features
    plain = (X - X.mean(axis=0)) / X.std(axis=0)
    np.testing.assert_allclose(model.decision_function(X), plain @ model.coef_.T + model.intercept_,
                               rtol=1e-12, atol=1e-12)
