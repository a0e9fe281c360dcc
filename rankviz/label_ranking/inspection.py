"""Which features a label ranker relies on, label by label: permutation importance.

The permutation importance of Breiman (2001), as scikit-learn's
``sklearn.inspection.permutation_importance``, measured per label: shuffling
a feature's column breaks its link with the rankings, and the drop in how
well the predictions order each label against the others is that feature's
importance for that label.

References
----------
.. [1] L. Breiman, "Random forests", Machine Learning 45(1), pp. 5-32, 2001.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from sklearn.base import clone
from sklearn.model_selection import train_test_split
from sklearn.utils import Bunch, check_random_state

from .._validation import check_rankings

__all__ = ["held_out_importance", "label_agreement", "permutation_importance"]

# Rows per block of the (rows, labels, labels) sign tables: at most this many cells at once.
_BLOCK_CELLS = 1 << 22


def label_agreement(y_true: ArrayLike, y_pred: ArrayLike) -> np.ndarray:
    """How well predictions order each label against the others: Kendall's tau restricted to a label's pairs.

    For label ``l``, the pairs ``(l, m)`` that the true ranking orders
    (``m`` present and not tied with ``l``) score +1 when the prediction
    orders them the same way, -1 when it reverses them and 0 when it ties
    them; the mean over those pairs and over the rows is the label's
    agreement. The mean over the labels, weighted by their pairs, is
    Kendall's tau-a of the rankings.

    Parameters
    ----------
    y_true : array-like of shape (n_samples, n_labels)
        True rank positions; NaN for a missing label, equal for tied ones.
    y_pred : array-like of shape (n_samples, n_labels)
        Predicted rank positions.

    Returns
    -------
    ndarray of shape (n_labels,)
        In ``[-1, 1]``; NaN for a label in no ordered pair.

    See Also
    --------
    permutation_importance : Its drop when a feature is shuffled.
    rankviz.label_ranking.kendall_tau : The same over all pairs, row by row.

    Examples
    --------
    >>> from rankviz.label_ranking.inspection import label_agreement
    >>> label_agreement([[1, 2, 3]], [[1, 3, 2]])
    array([1., 0., 0.])
    """
    y_true = np.atleast_2d(np.asarray(y_true, dtype=float))
    y_pred = np.atleast_2d(np.asarray(y_pred, dtype=float))
    n, n_labels = y_true.shape
    total = np.zeros(n_labels)
    pairs = np.zeros(n_labels)
    block = max(1, _BLOCK_CELLS // max(1, n_labels * n_labels))
    for start in range(0, n, block):
        truth = y_true[start:start + block]
        with np.errstate(invalid="ignore"):  # NaN - x: a missing label orders no pair
            true_sign = np.sign(truth[:, :, None] - truth[:, None, :])
        ordered = np.isfinite(true_sign) & (true_sign != 0)
        predicted = y_pred[start:start + block]
        agree = np.where(ordered, np.nan_to_num(true_sign) * np.sign(predicted[:, :, None] - predicted[:, None, :]),
                         0.0)
        total += agree.sum(axis=(0, 2))
        pairs += ordered.sum(axis=(0, 2))
    return np.divide(total, pairs, out=np.full(n_labels, np.nan), where=pairs > 0)


def permutation_importance(estimator: Any, X: Any, Y: ArrayLike, *, n_repeats: int = 5,
                           random_state: Any = None) -> Bunch:
    """Permutation importance of every feature for every label of a fitted label ranker.

    For each feature, its column of ``X`` is shuffled ``n_repeats`` times;
    the importance for label ``l`` is the drop of :func:`label_agreement`
    of label ``l`` from the unshuffled predictions, and the overall
    importance the drop of the mean Kendall tau (the estimator's ``score``).
    Measure it on held-out rows: on the training rows it shows what the
    model memorised.

    Parameters
    ----------
    estimator : fitted label ranker
        Any estimator with ``predict(X)`` returning rank positions and a
        ``score`` (every label ranker of rankviz).
    X : DataFrame or array-like of shape (n_samples, n_features)
        Features, as the estimator takes them.
    Y : array-like of shape (n_samples, n_labels)
        True rank positions.
    n_repeats : int, default=5
        Shuffles per feature.
    random_state : int, RandomState or None, default=None
        Seeds the shuffles.

    Returns
    -------
    Bunch
        ``importances`` (n_features, n_labels, n_repeats), its mean and
        standard deviation over the repeats ``importances_mean`` and
        ``importances_std`` (n_features, n_labels), ``overall_mean`` and
        ``overall_std`` (n_features,), the baselines ``label_agreement``
        (n_labels,) and ``score``, and ``feature_names``.

    Raises
    ------
    ValueError
        If ``n_repeats`` is not an integer >= 1, or ``Y`` is not a rank
        matrix with one row per row of ``X``.

    See Also
    --------
    sklearn.inspection.permutation_importance : One score per feature.

    References
    ----------
    .. [1] L. Breiman, "Random forests", Machine Learning 45(1), pp. 5-32,
           2001.

    Examples
    --------
    >>> from rankviz import RankingTree, load_sample
    >>> from rankviz.label_ranking import permutation_importance
    >>> data = load_sample("toy")
    >>> tree = RankingTree().fit(data.X, data.Y)
    >>> result = permutation_importance(tree, data.X, data.Y, n_repeats=3, random_state=0)
    >>> result.importances_mean.shape
    (2, 4)
    """
    if isinstance(n_repeats, bool) or not isinstance(n_repeats, (int, np.integer)) or n_repeats < 1:
        raise ValueError(f"n_repeats must be an integer >= 1; got {n_repeats!r}.")
    frame = X if isinstance(X, pd.DataFrame) else pd.DataFrame(np.asarray(X))
    Y = check_rankings(Y, n_rows=len(frame))
    rng = check_random_state(random_state)
    names = [str(c) for c in frame.columns] if isinstance(X, pd.DataFrame) else \
        [f"x{j + 1}" for j in range(frame.shape[1])]
    base_labels = label_agreement(Y, estimator.predict(X))
    base_score = float(estimator.score(X, Y))
    n_features, n_labels = frame.shape[1], Y.shape[1]
    drops = np.empty((n_features, n_labels, n_repeats))
    overall = np.empty((n_features, n_repeats))
    for j in range(n_features):
        shuffled = frame.copy()
        for r in range(n_repeats):
            shuffled.iloc[:, j] = frame.iloc[rng.permutation(len(frame)), j].to_numpy()
            given = shuffled if isinstance(X, pd.DataFrame) else shuffled.to_numpy()
            drops[j, :, r] = base_labels - label_agreement(Y, estimator.predict(given))
            overall[j, r] = base_score - float(estimator.score(given, Y))
    return Bunch(importances=drops, importances_mean=drops.mean(axis=2), importances_std=drops.std(axis=2),
                 overall_mean=overall.mean(axis=1), overall_std=overall.std(axis=1),
                 label_agreement=base_labels, score=base_score, feature_names=names)


def held_out_importance(estimator: Any, X: Any, Y: ArrayLike, *, test_size: float = 0.25, n_repeats: int = 5,
                        random_state: Any = None) -> Bunch:
    """Fit a copy of ``estimator`` on part of the rows and measure :func:`permutation_importance` on the rest.

    Importance measured on the rows a model was fitted on shows what it
    memorised; on held-out rows, what it relies on to generalise.

    Parameters
    ----------
    estimator : label ranker
        Unfitted or fitted; a clone is fitted.
    X : DataFrame or array-like of shape (n_samples, n_features)
        Features.
    Y : array-like of shape (n_samples, n_labels)
        Rank positions.
    test_size : float, default=0.25
        Share of the rows held out (at least one row on each side).
    n_repeats : int, default=5
        Shuffles per feature.
    random_state : int, RandomState or None, default=None
        Seeds the split, the shuffles and the clone (when it takes a ``random_state``).

    Returns
    -------
    Bunch
        As :func:`permutation_importance`, with ``n_train`` and ``n_test``.

    Raises
    ------
    ValueError
        If ``test_size`` is not in (0, 1), or as :func:`permutation_importance`.

    See Also
    --------
    permutation_importance : On rows of one's own choosing.

    Examples
    --------
    >>> from rankviz import RankingTree, load_sample
    >>> from rankviz.label_ranking import held_out_importance
    >>> data = load_sample("metalearning")
    >>> result = held_out_importance(RankingTree(), data.X, data.Y, n_repeats=2, random_state=0)
    >>> result.n_train, result.n_test
    (114, 39)
    """
    if not (isinstance(test_size, float) and 0 < test_size < 1):
        raise ValueError(f"test_size must be a fraction in (0, 1); got {test_size!r}.")
    rng = check_random_state(random_state)
    frame = X if isinstance(X, pd.DataFrame) else pd.DataFrame(np.asarray(X))
    Y = check_rankings(Y, n_rows=len(frame))
    train, test = train_test_split(np.arange(len(frame)), test_size=test_size, random_state=rng)
    model = clone(estimator)
    if "random_state" in model.get_params():
        model.set_params(random_state=rng.randint(np.iinfo(np.int32).max))
    # the rows as the estimator was given them: a DataFrame stays one (its column names), an array an array
    rows = (lambda index: X.iloc[index]) if isinstance(X, pd.DataFrame) else (lambda index: frame.to_numpy()[index])
    model.fit(rows(train), Y[train])
    result = permutation_importance(model, rows(test), Y[test], n_repeats=n_repeats, random_state=rng)
    result.update(n_train=len(train), n_test=len(test))
    return result
