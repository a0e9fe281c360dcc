"""scikit-learn scorers for rankings: ``scoring=`` in ``cross_val_score`` and ``GridSearchCV``.

The measures of the four papers as scorer objects
(:func:`sklearn.metrics.make_scorer`): for label rankers the mean over
examples of Kendall's tau, Spearman's coefficient (CS), the weighted rank
correlation (WRC), the label ranking accuracy (LRA) and Emond & Mason's tau_x;
for ordinal regressors the mean rank loss (negated, as scikit-learn's losses
are); for query rankers NDCG@k averaged over queries, which needs each
document's query id: the scorer asks for ``qid`` through scikit-learn's
metadata routing.

Examples
--------
>>> from sklearn.model_selection import cross_val_score
>>> from rankviz import RankingTree, load_sample
>>> from rankviz.metrics import get_scorer
>>> data = load_sample("metalearning")
>>> scores = cross_val_score(RankingTree(min_samples_leaf=10), data.X, data.Y, cv=3,
...                          scoring=get_scorer("wrc"))
>>> scores.shape
(3,)

NDCG@k routes the query ids to the scorer (and to ``fit``) with metadata
routing on; the splitter keeps each query in one fold (``groups``):

>>> import sklearn
>>> from sklearn.model_selection import GroupKFold, cross_validate
>>> from rankviz import MPBoost, load_ltr_sample
>>> train = load_ltr_sample()["train"]
>>> with sklearn.config_context(enable_metadata_routing=True):
...     result = cross_validate(MPBoost(n_rounds=10).set_fit_request(qid=True), train.X, train.relevance,
...                             cv=GroupKFold(3), params={"qid": train.qid, "groups": train.qid},
...                             scoring={"ndcg@5": get_scorer("ndcg@5"), "ndcg@10": get_scorer("ndcg@10")})
>>> sorted(k for k in result if k.startswith("test_"))
['test_ndcg@10', 'test_ndcg@5']
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from sklearn.metrics import make_scorer

from .label_ranking.metrics import MEASURES_BY_NAME
from .ltr.metrics import mean_ndcg
from .ordinal.levels import mean_rank_loss

__all__ = ["get_scorer", "get_scorer_names"]

# Label ranking measures: one value per example, averaged (rows with fewer than two
# labels ranked by both give NaN and are left out, as the estimators' score does).
_LABEL_RANKING = MEASURES_BY_NAME
_NDCG = re.compile(r"ndcg@([1-9]\d{0,3})$")


def _mean_over_rows(measure: Callable[[ArrayLike, ArrayLike], Any]) -> Callable[..., float]:
    def score(y_true: ArrayLike, y_pred: ArrayLike) -> float:
        values = np.atleast_1d(measure(y_true, y_pred))
        return float(np.nanmean(values)) if np.isfinite(values).any() else float("nan")
    score.__name__ = f"mean_{measure.__name__}"
    return score


def _ndcg_at(k: int) -> Callable[..., float]:
    def ndcg_score(y_true: ArrayLike, y_pred: ArrayLike, qid: ArrayLike) -> float:
        return float(np.asarray(mean_ndcg(y_true, y_pred, qid, ks=[k]))[0])
    ndcg_score.__name__ = f"ndcg_at_{k}"
    return ndcg_score


def get_scorer_names() -> list[str]:
    """The names :func:`get_scorer` takes (``ndcg@k`` for any cut-off ``k`` from 1 to 9999).

    Returns
    -------
    list of str

    Examples
    --------
    >>> from rankviz.metrics import get_scorer_names
    >>> get_scorer_names()
    ['cs', 'kendall_tau', 'lra', 'ndcg@k', 'rank_loss', 'tau_x', 'wrc']
    """
    return sorted([*_LABEL_RANKING, "rank_loss", "ndcg@k"])


def get_scorer(name: str) -> Any:
    """A scikit-learn scorer for a ranking measure, to pass as ``scoring=``.

    Parameters
    ----------
    name : str
        ``"kendall_tau"``, ``"cs"``, ``"wrc"``, ``"lra"`` or ``"tau_x"`` (label
        rankers: the mean over examples, higher is better);
        ``"rank_loss"`` (ordinal regressors: the mean rank loss of Xia,
        Zhang & Wang (2006), negated, so higher is better as for every
        scorer); ``"ndcg@k"`` with a cut-off ``k`` such as ``"ndcg@10"``
        (query rankers: NDCG@k of Zhu et al. (2009) averaged over queries; it
        requests ``qid`` through metadata routing, so run with
        ``sklearn.config_context(enable_metadata_routing=True)`` and pass
        ``params={"qid": qid}``).

    Returns
    -------
    scorer
        A callable ``scorer(estimator, X, y[, qid=...])`` made by
        :func:`sklearn.metrics.make_scorer`; usable alone or in a
        ``scoring={...}`` dict.

    Raises
    ------
    ValueError
        If ``name`` is not one of :func:`get_scorer_names`.

    Examples
    --------
    >>> from rankviz import RankingTree, load_sample
    >>> from rankviz.metrics import get_scorer
    >>> data = load_sample("toy")
    >>> model = RankingTree(min_samples_leaf=2).fit(data.X, data.Y)
    >>> get_scorer("kendall_tau")(model, data.X, data.Y) == model.score(data.X, data.Y)
    True
    """
    if not isinstance(name, str):
        raise ValueError(f"a scorer name must be a string, got {type(name).__name__}")
    if name in _LABEL_RANKING:
        return make_scorer(_mean_over_rows(_LABEL_RANKING[name]))
    if name == "rank_loss":
        return make_scorer(mean_rank_loss, greater_is_better=False)
    match = _NDCG.match(name)
    if match:
        return make_scorer(_ndcg_at(int(match.group(1)))).set_score_request(qid=True)
    raise ValueError(f"unknown scorer {name!r}; rankviz's scorers are {', '.join(get_scorer_names())} "
                     "(ndcg@k with a cut-off such as ndcg@10)")
