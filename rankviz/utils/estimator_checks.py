"""scikit-learn's estimator checks for rankers: label rankers and query rankers take their own targets.

scikit-learn's :func:`sklearn.utils.estimator_checks.parametrize_with_checks`
makes its own data with a 1-D target ``y``. A label ranker takes a rank
matrix and a query ranker grades with query ids, so the checks would fail
on the target before they reach what they test. :func:`parametrize_with_checks`
here runs the same checks on each estimator through a subclass whose
``fit`` and ``score`` turn the checks' ``y`` into the target it takes and
call the real methods; the subclass keeps the real ``__init__``,
``get_params``, ``predict`` and tags, so the checks exercise the real
estimator:

* label rankers (:class:`rankviz.label_ranking.base.LabelRankerMixin`): ``y``
  becomes one of the six rankings of three labels, chosen by
  ``floor(y) mod 6`` (a function of each value, so the same ``y`` gives the
  same rankings in ``fit`` and ``score``);
* query rankers (:class:`rankviz.ltr.base.QueryRankerMixin`): ``y`` becomes
  the grades ``1 + |floor(y)| mod 4`` of the documents of one query.

A target the conversion cannot read (None, complex numbers) is passed on as
it is, so the estimator's own checks meet it. Other estimators (ordinal
regressors, any scikit-learn estimator) are checked as they are. An
estimator whose tags declare categorical input (nominal columns) is
checked a second time with that tag off, so the checks also feed it
continuous features.

This is the adapter rankviz's own tests use; others can check their own
rankers with it, as scikit-lr ships its checks.

References
----------
.. [1] scikit-learn developers, "Developing scikit-learn estimators",
       https://scikit-learn.org/stable/developers/develop.html
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils.estimator_checks import parametrize_with_checks as _sklearn_parametrize_with_checks

from ..label_ranking.base import LabelRankerMixin
from ..ltr.base import QueryRankerMixin

__all__ = ["as_grades", "as_rank_matrix", "checked_estimators", "parametrize_with_checks"]

_PERMUTATIONS = np.array(list(itertools.permutations([1.0, 2.0, 3.0])))


def _real_values(y: Any) -> np.ndarray | None:
    """The checks' target as a 1-D float array, or None if it is not real numbers."""
    if y is None or np.asarray(y).dtype.kind == "c":
        return None
    try:
        values = np.asarray(y, dtype=float)
    except (TypeError, ValueError):
        return None
    return values[:, 0] if values.ndim == 2 else values  # multi-output tags give y as a column


def as_rank_matrix(y: Any) -> Any:
    """One of the six rankings of three labels per value of ``y``, by ``floor(y) mod 6``.

    Parameters
    ----------
    y : array-like of shape (n_samples,) or (n_samples, 1)
        A target made by scikit-learn's checks.

    Returns
    -------
    ndarray of shape (n_samples, 3), or ``y`` itself
        Rank positions (1 = first); ``y`` unchanged if it is not real numbers.

    Examples
    --------
    >>> from rankviz.utils.estimator_checks import as_rank_matrix
    >>> as_rank_matrix([0.5, 1.2, 7.0])
    array([[1., 2., 3.],
           [1., 3., 2.],
           [1., 3., 2.]])
    """
    values = _real_values(y)
    return y if values is None else _PERMUTATIONS[np.floor(values).astype(int) % len(_PERMUTATIONS)]


def as_grades(y: Any) -> Any:
    """Relevance grades 1..4 from ``y``: ``1 + |floor(y)| mod 4``.

    Parameters
    ----------
    y : array-like of shape (n_samples,) or (n_samples, 1)
        A target made by scikit-learn's checks.

    Returns
    -------
    ndarray of shape (n_samples,), or ``y`` itself
        Grades, higher = more relevant; ``y`` unchanged if it is not real numbers.

    Examples
    --------
    >>> from rankviz.utils.estimator_checks import as_grades
    >>> as_grades([0.5, -2.5, 6.0])
    array([1., 4., 3.])
    """
    values = _real_values(y)
    return y if values is None else 1.0 + np.abs(np.floor(values)) % 4


class _RankMatrixTarget:
    """``fit`` / ``score`` on the rank matrix made of the checks' 1-D ``y``."""

    def fit(self, X: Any, y: Any) -> Any:
        return super().fit(X, as_rank_matrix(y))  # type: ignore[misc]

    def score(self, X: Any, y: Any) -> float:
        return super().score(X, as_rank_matrix(y))  # type: ignore[misc,no-any-return]


class _QueryTarget:
    """``fit`` / ``score`` on grades made of the checks' ``y``, all documents of one query."""

    def fit(self, X: Any, y: Any) -> Any:
        grades = as_grades(y)
        return super().fit(X, grades, qid=None if grades is None else np.zeros(len(grades)))  # type: ignore[misc]

    def score(self, X: Any, y: Any) -> float:
        grades = as_grades(y)
        return super().score(X, grades, qid=np.zeros(len(grades)))  # type: ignore[misc,no-any-return]


class _ContinuousFeatures:
    """Tags without ``categorical``, so that the checks feed continuous features."""

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()  # type: ignore[misc]
        tags.input_tags.categorical = False
        return tags


def _subclass(cls: type, mixin: type, suffix: str) -> type:
    """``cls`` with ``mixin`` in front, importable from this module (the pickling checks need that)."""
    name = f"{cls.__name__}{suffix}"
    made = globals().get(name)
    if made is None or made.__mro__[2] is not cls:
        made = type(name, (mixin, cls), {"__module__": __name__, "__qualname__": name,
                                         "__doc__": f"{cls.__name__} under scikit-learn's checks ({suffix})."})
        globals()[name] = made
    return made


def checked_estimators(estimators: Iterable[BaseEstimator], *, on_numbers: bool = True) -> list[BaseEstimator]:
    """The estimators as the checks run them: adapted to their target, and once more on numbers.

    Parameters
    ----------
    estimators : iterable of estimator instances
        rankviz's or your own (label rankers and query rankers derive from
        :class:`~rankviz.label_ranking.base.LabelRankerMixin` and
        :class:`~rankviz.ltr.base.QueryRankerMixin`).
    on_numbers : bool, default=True
        Check an estimator that declares categorical input a second time
        with that tag off (the checks then feed it continuous features).

    Returns
    -------
    list of estimator instances
        Each estimator (or its adapted subclass, same parameters), and with
        ``on_numbers`` for one that declares categorical input the same with
        that tag off.

    Examples
    --------
    >>> from rankviz import RankingTree, OrdinalTree
    >>> from rankviz.utils.estimator_checks import checked_estimators
    >>> [type(e).__name__ for e in checked_estimators([RankingTree(), OrdinalTree()])]
    ['RankingTreeOnChecks', 'RankingTreeOnChecksOnNumbers', 'OrdinalTree', 'OrdinalTreeOnNumbers']
    """
    checked = []
    for estimator in estimators:
        cls = type(estimator)
        if isinstance(estimator, (_RankMatrixTarget, _QueryTarget, _ContinuousFeatures)):
            checked.append(estimator)  # adapted already (this function's output)
            continue
        if isinstance(estimator, LabelRankerMixin):
            cls = _subclass(cls, _RankMatrixTarget, "OnChecks")
        elif isinstance(estimator, QueryRankerMixin):
            cls = _subclass(cls, _QueryTarget, "OnChecks")
        adapted = cls(**estimator.get_params(deep=False))
        checked.append(adapted)
        if on_numbers and adapted.__sklearn_tags__().input_tags.categorical:
            checked.append(_subclass(cls, _ContinuousFeatures, "OnNumbers")(**estimator.get_params(deep=False)))
    return checked


def parametrize_with_checks(estimators: Iterable[BaseEstimator], *, on_numbers: bool = True,
                            expected_failed_checks: Callable[[BaseEstimator], dict[str, str]] | None = None,
                            **kwargs: Any) -> Any:
    """pytest's parametrize over scikit-learn's estimator checks, for rankers too.

    As :func:`sklearn.utils.estimator_checks.parametrize_with_checks`, on
    :func:`checked_estimators` of ``estimators``.

    Parameters
    ----------
    estimators : iterable of estimator instances
    on_numbers : bool, default=True
        As for :func:`checked_estimators`.
    expected_failed_checks : callable, optional
        Estimator -> {check name: reason} of checks that cannot apply to it;
        called with the adapted estimator (its class name ends in
        ``OnChecks`` or ``OnNumbers``).
    **kwargs
        Passed to scikit-learn's ``parametrize_with_checks`` (for example
        ``xfail_strict=True``).

    Returns
    -------
    decorator
        For a test function ``test(estimator, check)`` that calls ``check(estimator)``.

    Examples
    --------
    >>> from rankviz import RankingTree
    >>> from rankviz.utils.estimator_checks import parametrize_with_checks
    >>> @parametrize_with_checks([RankingTree(min_samples_leaf=2)])
    ... def test_sklearn_compatible(estimator, check):
    ...     check(estimator)
    """
    return _sklearn_parametrize_with_checks(checked_estimators(estimators, on_numbers=on_numbers),
                                            expected_failed_checks=expected_failed_checks, **kwargs)
