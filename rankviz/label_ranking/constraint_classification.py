"""Constraint classification (CC): the linear baseline of Cheng, Hühn & Hüllermeier (2009), §6.

Constraint classification (Har-Peled, Roth, Zimak 2003) learns one linear
utility per label, ``u_j(x) = w_j . x + b_j``, and ranks the labels by
decreasing utility. A training ranking that puts label ``a`` before label
``b`` gives the constraint ``u_a(x) > u_b(x)``, i.e. ``(w_a - w_b) . x > 0``:
a binary example in an expanded space of ``L`` stacked weight vectors.
Cheng, Hühn & Hüllermeier (2009) use the online variant, a perceptron over
these constraints, made noise tolerant after Khardon & Wachman (2007).

Here the noise tolerance is the averaged perceptron (the prediction uses the
mean of the weight vectors over all steps), optionally with a margin and
with the λ ("alpha") trick of footnote 1 of Cheng et al.
"""

from __future__ import annotations

import numbers
import warnings
from typing import Any, Self

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator

from .aggregation import rank_by_mean
from .base import LabelRankerMixin
from ..features import FeatureEncoder
from .._validation import check_feature_input, check_rankings

__all__ = ["ConstraintClassifier", "MAX_STANDARD_SCORE"]

#: Largest |standardised value| the classifier uses: a new value further from
#: the training mean (in standard deviations) counts as this far, so that
#: utilities stay finite. Training values are never clipped: a column of
#: ``n`` values lies within ``sqrt(n)`` standard deviations of its mean.
MAX_STANDARD_SCORE = 1e6


class ConstraintClassifier(LabelRankerMixin, BaseEstimator):
    """Constraint classification with a noise-tolerant perceptron (Cheng, Hühn & Hüllermeier 2009, §6).

    One linear utility per label, ``u_j(x) = w_j . x + b_j``; the predicted
    ranking orders the labels by decreasing utility. Training visits the
    examples in a random order, ``n_epochs`` times. For an example ``x`` and
    each pair of labels ``(a, b)`` that its ranking orders ``a`` before
    ``b``, the constraint ``u_a(x) - u_b(x) > margin`` is checked; every
    violated constraint asks for ``w_a += x, w_b -= x`` (and the same for the
    biases). All violated constraints of one example are applied at once, as
    one summed update: the multiclass perceptron update of Har-Peled et al.
    (2003), which for a single violated pair is the plain perceptron step in
    the expanded space.

    Incomplete rankings are allowed: only pairs of labels present in a
    ranking give constraints, and tied pairs give none. A row with fewer
    than two present labels gives no constraint (such rows come from
    :func:`rankviz.label_ranking.incomplete.delete_labels` with a high deletion rate); it
    is skipped, but still counts as a step of the average.

    Parameters
    ----------
    n_epochs : int, default=10
        Passes over the training set.
    margin : float, default=0.0
        A constraint counts as violated when ``u_a - u_b <= margin``. With 0
        this is the classic perceptron (an exact tie is a violation, so the
        zero start moves); a positive margin keeps updating on constraints
        that hold only narrowly. The scale to compare it with: one update
        moves the violated pair's ``u_a - u_b`` by at least ``2 |x|^2``,
        about ``2 (n_features + 1)`` with standardised features and the bias.
    alpha : float, default=0.0
        The λ trick (Khardon & Wachman 2007; the "alpha trick" of Cheng et
        al., footnote 1, which sets α = 500): during training each example gets a
        private extra feature of value ``sqrt(alpha)``, which adds ``alpha``
        times the example's own past updates to its own utilities. An example
        that keeps being violated (noise) thereby stops pulling the shared
        weights. It has no effect on predictions for new examples; 0 switches
        it off. The paper does not say how it scaled its features, so its 500
        does not carry over: here one update raises the example's own
        violated pair by at least ``2 alpha`` against about
        ``2 (n_features + 1)`` from the shared weights, and with 500 an
        example is rarely updated more than once or twice in all epochs.
    average : bool, default=True
        Predict with the average of the weights over all steps (the averaged
        perceptron, one of the noise-tolerant variants of Khardon & Wachman);
        False uses the last weights, which on noisy rankings swing with the
        last few updates.
    batch_size : int, default=1
        Examples checked against the same weights before their summed
        updates are applied. 1 is the online perceptron of Cheng et al.; larger
        batches are much faster (numpy per batch instead of per example) but
        make fewer, larger steps, so they may need more epochs. Measured on
        20,000 examples, 4 features, 4 labels, 10 epochs: 1 takes about 2 s,
        32 about 0.2 s for a Kendall tau 0.007 lower, 512 about 0.03 s for
        0.16 lower.
    random_state : int, numpy Generator or None, default=0
        Seeds the order of the examples in every epoch (a fresh permutation
        per epoch, from ``numpy.random.default_rng(random_state)``); an int
        gives reproducible fits.

    Attributes
    ----------
    coef_ : ndarray of shape (n_labels, n_encoded_features)
        Weights ``w_j`` on the encoded features (standardised numeric
        columns, then one 0/1 indicator per category of each nominal column).
    intercept_ : ndarray of shape (n_labels,)
        Biases ``b_j``.
    encoder_ : FeatureEncoder
        The encoder of the training columns (nominal categories, names).
    mean_, scale_ : ndarray of shape (n_numeric_features,)
        Training mean and standard deviation of the numeric columns (for a
        constant column the scale is ``magnitude_``: the column is centred to 0).
    magnitude_ : ndarray of shape (n_numeric_features,)
        Per numeric column, the largest power of two at most its largest
        training absolute value (1 for a column of zeros). Columns are divided by it
        before they are standardised, which changes no number (a power of
        two divides exactly) but keeps finite values near the float limit,
        such as ±1.7e308, from overflowing: their mean and standard
        deviation are computed in ``(-2, 2)``.
    n_labels_ : int
        Number of labels (columns of the training ``Y``).
    n_updates_ : int
        Example visits, over all epochs, with at least one violated
        constraint (so with at least one update).
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of str, shape (``n_features_in_``,)
        Names of the features seen in ``fit``; only when ``X`` was a
        DataFrame with string column names.

    See Also
    --------
    rankviz.IBLR : Instance-based label ranking, the other learner of Cheng et al.
    rankviz.RankingTree : Label ranking trees.

    Notes
    -----
    Defaults: on 15,000 examples of 4 standardised features whose rankings
    are noisy linear utilities (4 labels), averaging mattered (held-out
    Kendall tau against the noise-free rankings 0.975 averaged, 0.39 with
    the last weights) while ``margin=1`` (0.974) and ``alpha=500`` (0.966)
    did not help, so both are off by default.

    A label that never appears in a training pair is never updated: its
    utility stays 0 and its predicted position depends only on the others.

    References
    ----------
    .. [1] S. Har-Peled, D. Roth and D. Zimak, "Constraint classification for
       multiclass classification and ranking", Advances in Neural Information
       Processing Systems 15, pp. 785-792, 2003.
    .. [2] R. Khardon and G. Wachman, "Noise tolerant variants of the perceptron
       algorithm", Journal of Machine Learning Research, vol. 8, pp. 227-248,
       2007.
    .. [3] W. Cheng, J. Hühn and E. Hüllermeier, "Decision tree and
       instance-based learning for label ranking", Proceedings of the 26th
       International Conference on Machine Learning (ICML 2009),
       pp. 161-168, 2009.

    Examples
    --------
    >>> import numpy as np
    >>> from rankviz.label_ranking.constraint_classification import ConstraintClassifier
    >>> X = np.array([[-2.0], [-1.0], [1.0], [2.0]])
    >>> Y = np.array([[1, 2, 3], [1, 2, 3], [3, 2, 1], [3, 2, 1]])
    >>> ConstraintClassifier().fit(X, Y).predict([[-1.5], [1.5]])
    array([[1., 2., 3.],
           [3., 2., 1.]])
    """

    def __init__(self, n_epochs: int = 10, margin: float = 0.0, alpha: float = 0.0, average: bool = True,
                 batch_size: int = 1, random_state: int | np.random.Generator | None = 0) -> None:
        self.n_epochs = n_epochs
        self.margin = margin
        self.alpha = alpha
        self.average = average
        self.batch_size = batch_size
        self.random_state = random_state

    def fit(self, X: Any, Y: ArrayLike) -> Self:
        """Learn the label utilities from features ``X`` and rank positions ``Y``.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Numeric and nominal (string, category, bool) attributes.
        Y : array-like of shape (n_samples, n_labels)
            Rank positions, lower = preferred, equal = tied, NaN = label
            missing; any convention (see :func:`rankviz._validation.check_rankings`).

        Returns
        -------
        self : ConstraintClassifier
            The fitted classifier.

        Raises
        ------
        ValueError
            If a parameter is invalid, ``X`` is not a 2-D table of at least
            one row and one feature, or ``Y`` is not a rank matrix with one
            row per row of ``X``.
        TypeError
            If ``X`` is sparse.
        """
        self._check_params()
        X = check_feature_input(self, X, Y, reset=True)
        self.encoder_ = FeatureEncoder().fit(X)
        encoded = self.encoder_.transform(X)
        Y = check_rankings(Y, n_rows=len(encoded))
        numeric = encoded[:, ~self.encoder_.nominal]
        self.magnitude_ = _magnitudes(numeric)
        unit = numeric / self.magnitude_  # in (-2, 2): no sum below overflows
        with warnings.catch_warnings():  # an all-missing column has no mean: 0
            warnings.simplefilter("ignore", RuntimeWarning)
            mean = np.nan_to_num(np.nanmean(unit, axis=0))
            std = np.nan_to_num(np.nanstd(unit, axis=0))
        # Both are at most the largest |value| of their column, so finite.
        self.mean_ = mean * self.magnitude_
        self.scale_ = np.where(std > 0, std, 1.0) * self.magnitude_  # a constant column is centred to 0 instead
        self.n_labels_ = Y.shape[1]
        weights, self.n_updates_ = _train(self._design(encoded), Y, n_epochs=self.n_epochs,
                                          margin=float(self.margin), alpha=float(self.alpha),
                                          average=self.average, batch_size=self.batch_size,
                                          rng=np.random.default_rng(self.random_state))
        self.coef_, self.intercept_ = weights[:, :-1], weights[:, -1]
        return self

    def decision_function(self, X: Any) -> np.ndarray:
        """Compute the utilities ``u_j(x)`` of every label; larger = preferred.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Features with the columns of ``fit``; a missing numeric value
            counts as the training mean, an unseen category sets no
            indicator.

        Returns
        -------
        ndarray of shape (n_samples, n_labels)
            ``u_j(x) = w_j . x + b_j`` for every row and label, on the
            standardised and one-hot encoded features.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the classifier is not fitted.
        ValueError
            If ``X`` has other features than in ``fit``.
        """
        X = check_feature_input(self, X, reset=False)
        encoded = self.encoder_.transform(X)
        return self._embed(encoded) @ self.coef_.T + self.intercept_

    def predict(self, X: Any) -> np.ndarray:
        """Predicted rank positions: the labels in decreasing order of utility.

        Equal utilities keep the order of the label index (stable sort), as
        in the other rankers.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Features with the columns of ``fit``.

        Returns
        -------
        ndarray of shape (n_samples, n_labels)
            Each row a permutation of ``1..n_labels`` (1 = highest utility).

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the classifier is not fitted.
        ValueError
            If ``X`` has other features than in ``fit``.
        """
        return rank_by_mean(-self.decision_function(X))

    def _embed(self, encoded):
        """Standardised numeric columns, then 0/1 indicators of each nominal column's categories.

        An unseen category (code -1) sets no indicator, so it only gets the
        bias; a missing numeric value counts as the training mean, and a
        value more than :data:`MAX_STANDARD_SCORE` standard deviations from it
        as that many (only new values can be: a training column's are within
        ``sqrt(n_samples)``). Indicators are not standardised: scaling a rare category by
        1/std would make its examples dominate the perceptron's updates.
        """
        # Divided by the power of two first: exact, and x - mean cannot overflow (±1.7e308 - ∓1.7e308).
        magnitude = self.magnitude_
        standardised = ((encoded[:, ~self.encoder_.nominal] / magnitude - self.mean_ / magnitude)
                        / (self.scale_ / magnitude))
        # a missing numeric value is the training mean: 0 once standardised
        standardised = np.clip(np.nan_to_num(standardised, nan=0.0), -MAX_STANDARD_SCORE, MAX_STANDARD_SCORE)
        parts = [standardised]
        for j in np.flatnonzero(self.encoder_.nominal):
            parts.append(encoded[:, [j]] == np.arange(len(self.encoder_.categories[j]))[None, :])
        return np.hstack(parts).astype(float)

    def _design(self, encoded):
        """The embedded features with a last column of ones: the bias is one more weight."""
        embedded = self._embed(encoded)
        return np.hstack([embedded, np.ones((len(embedded), 1))])

    def _check_params(self):
        for name in ("n_epochs", "batch_size"):
            value = getattr(self, name)
            if not (isinstance(value, numbers.Integral) and value >= 1):
                raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
        for name in ("margin", "alpha"):
            value = getattr(self, name)
            if not (isinstance(value, numbers.Real) and np.isfinite(value) and value >= 0):
                raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")


def _magnitudes(numeric):
    """Per column, the largest power of two <= its largest |value| (1 for a column of zeros or NaN).

    Divided by it, the column lies in (-2, 2); the power above could be
    2^1024, which is not a float.

    Dividing by a power of two is exact, so standardising ``x / m`` instead
    of ``x`` gives the same numbers, without overflow near the float limit.
    """
    with warnings.catch_warnings():  # an all-missing column has no maximum
        warnings.simplefilter("ignore", RuntimeWarning)
        largest = np.nan_to_num(np.nanmax(np.abs(numeric), axis=0, initial=0.0)) if numeric.size else \
            np.zeros(numeric.shape[1])
    _, exponent = np.frexp(largest)  # largest = f * 2**exponent, 0.5 <= f < 1
    return np.where(largest > 0, np.ldexp(1.0, exponent - 1), 1.0)


def _train(design, Y, *, n_epochs, margin, alpha, average, batch_size, rng):
    """The perceptron over pairwise constraints; returns (weights (L, D), number of updates).

    ``design`` holds one example per row with a trailing 1 for the bias.
    """
    n_examples, n_labels = Y.shape
    first, second = np.triu_indices(n_labels, k=1)
    # Pair p compares labels first[p] < second[p]. pair_matrix[p] = e_first - e_second,
    # so pair_matrix @ u gives u_first - u_second for all pairs, and c @ pair_matrix
    # spreads per-pair update counts c back onto the labels.
    pair_matrix = np.zeros((len(first), n_labels))
    pair_matrix[np.arange(len(first)), first] = 1.0
    pair_matrix[np.arange(len(first)), second] = -1.0
    # sign[i, p] = +1 if ranking i puts first[p] before second[p], -1 if after, 0 if the
    # two are tied or either is missing (NaN compares as neither < nor >). Constraint p
    # of example i then reads sign[i, p] * (u_first - u_second) > margin.
    sign = (np.greater(Y[:, second], Y[:, first]).astype(float)
            - np.less(Y[:, second], Y[:, first]).astype(float))
    # λ trick: own[i] is example i's summed past label updates; its private feature
    # adds alpha * own[i] to its utilities, during training only.
    own = np.zeros((n_examples, n_labels)) if alpha > 0 else None
    epoch_pass = _online_epoch if batch_size == 1 else _batch_epoch

    weights = np.zeros((n_labels, design.shape[1]))
    # Averaged perceptron without storing every step: an update Δ made at step t
    # (0-based) of T is part of the weights after steps t..T-1, so the mean over the
    # T steps is Σ Δ (T - t) / T = weights - weighted / T, with weighted = Σ t Δ.
    weighted = np.zeros_like(weights)
    n_updates = 0
    for epoch in range(n_epochs):
        order = rng.permutation(n_examples)
        steps, rows, label_steps = epoch_pass(weights, design, sign, pair_matrix, order,
                                              margin=margin, alpha=alpha, own=own,
                                              batch_size=batch_size)
        # Σ t Δ of this epoch in one product: Δ of a row is label_step ⊗ x.
        global_steps = epoch * n_examples + steps
        weighted += (label_steps * global_steps[:, None]).T @ design[rows]
        n_updates += len(rows)
    if average:
        weights = weights - weighted / (n_epochs * n_examples)
    return weights, n_updates


def _online_epoch(weights, design, sign, pair_matrix, order, *, margin, alpha, own, batch_size):
    """One pass, one example at a time; updates ``weights`` (and ``own``) in place.

    Returns the step (position in ``order``), row and label step of every
    update, for the average. All constraints of an example are checked with
    one product and all violated ones applied as one summed update, the
    multiclass perceptron update of Har-Peled et al. (2003): label ``j``
    gains ``x`` once per violated pair it should win and loses ``x`` once
    per violated pair it should lose.

    This loop is the training time: about 10 µs per example (20,000 examples
    x 10 epochs in about 2 s), almost all numpy call overhead, so it makes
    as few calls per example as it can.
    """
    # Rows without any ordered pair (fewer than two labels, or all tied) can never
    # update: skip them here, they still count as steps of the average.
    positions = np.flatnonzero((sign[order] != 0).any(axis=1))
    rows = order[positions]
    dot = np.dot
    steps, updated, label_steps = [], [], []
    for step, i, x, signs in zip(positions.tolist(), rows.tolist(), design[rows], sign[rows]):
        utilities = dot(weights, x)
        if own is not None:
            utilities += alpha * own[i]
        violated = signs * dot(pair_matrix, utilities) <= margin
        # Pairs without a constraint (sign 0) add nothing. The sum is never 0 when a
        # constraint is violated: the violated pairs all point down one ranking, so
        # they cannot cancel.
        label_step = dot(signs * violated, pair_matrix)
        if label_step.any():
            weights += label_step[:, None] * x
            if own is not None:
                own[i] += label_step
            steps.append(step)
            updated.append(i)
            label_steps.append(label_step)
    return (np.array(steps, dtype=float), np.array(updated, dtype=int),
            np.array(label_steps).reshape(len(steps), weights.shape[0]))


def _batch_epoch(weights, design, sign, pair_matrix, order, *, margin, alpha, own, batch_size):
    """One pass in mini-batches; same contract as :func:`_online_epoch`.

    All examples of a batch are checked against the same weights and their
    summed updates applied together, after the batch's last example: for the
    average, every update of a batch happens at that last step.
    """
    steps, updated, label_steps = [], [], []
    for start in range(0, len(order), batch_size):
        rows = order[start:start + batch_size]
        x, signs = design[rows], sign[rows]
        utilities = x @ weights.T
        if own is not None:
            utilities += alpha * own[rows]
        violated = signs * (utilities @ pair_matrix.T) <= margin
        label_step = (signs * violated) @ pair_matrix
        weights += label_step.T @ x
        if own is not None:
            own[rows] += label_step
        changed = label_step.any(axis=1)
        steps.append(np.full(changed.sum(), start + len(rows) - 1, dtype=float))
        updated.append(rows[changed])
        label_steps.append(label_step[changed])
    return np.concatenate(steps), np.concatenate(updated), np.concatenate(label_steps)
