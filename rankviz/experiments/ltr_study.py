"""The experiment of Zhu et al. (2009): the four labellings of MPBoost against baselines.

:func:`compare_rankers` follows §5 of Zhu et al. [1]_: each DDF's parameter
and the number of rounds ``T`` are chosen on the validation queries by
NDCG@5, then every method is scored per test query by NDCG@1..10
(Figs. 3-5). Per-query scores are kept, because small test sets are noisy:
the app draws error bars and paired tests from them.

:func:`staged_ndcg` gives the NDCG@k of a fitted model after every round
(Fig. 6).

References
----------
.. [1] C. Zhu, W. Chen, Z. A. Zhu, G. Wang, D. Wang and Z. Chen, "A general
       magnitude-preserving boosting algorithm for search ranking",
       Proceedings of the 18th ACM Conference on Information and Knowledge
       Management (CIKM '09), pp. 817-826, 2009.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ..ltr.ddf import DDF_NAMES, DEFAULT_PARAMETERS, PARAMETER_SYMBOLS, TITLES
from ..ltr.baselines import BestSingleFeature, KNNRelevance, RandomOrder
from ..ltr.metrics import mean_ndcg, ndcg_at_ks, query_ids
from .statistics import standard_error, t_interval
from ..ltr.mpboost import MPBoost, misordered_share

if TYPE_CHECKING:
    from ..datasets.queries import QueryDataset

__all__ = ["PARAMETER_GRIDS", "BASELINES", "staged_ndcg", "tune_mpboost", "compare_rankers",
           "RankerComparison", "method_title"]

#: Values tried for each DDF's parameter on the validation queries.
PARAMETER_GRIDS = {
    "binary": (None,),
    "ldd": (0.05, 0.1, 0.2, 0.4, 0.8),
    "logdd": (0.25, 0.5, 1.0, 3.0),
    "logitdd": (0.25, 0.5, 1.0, 2.0),
}

#: Baselines of the comparison, by key.
BASELINES = {
    "best_feature": "Best single feature",
    "knn": "KNN regression (k=10)",
    "random": "Random order",
}

#: NDCG cut-off Zhu et al. tune parameters by (§5.2).
TUNING_K = 5


def method_title(key: str) -> str:
    """Display name: ``MPBoost.LOGDD``, ``Best single feature``, ..."""
    if key in TITLES:
        return f"MPBoost.{TITLES[key]}"
    return BASELINES.get(key, key)


def staged_ndcg(model: MPBoost, X: ArrayLike, relevance: ArrayLike, qid: ArrayLike,
                ks: Sequence[int] = (TUNING_K,), *, form: str = "common",
                no_relevant: str = "skip") -> np.ndarray:
    """Mean NDCG@k after each round of a fitted MPBoost model.

    Returns
    -------
    ndarray of shape (``n_rounds_``, len(ks))
    """
    scores = model.staged_scores(X)
    return np.array([mean_ndcg(relevance, scores[:, t], qid, ks=ks, form=form, no_relevant=no_relevant)
                     for t in range(scores.shape[1])]).reshape(scores.shape[1], len(ks))


def tune_mpboost(train: QueryDataset, vali: QueryDataset, ddf: str, *, n_rounds: int = 200,
                 shrinkage: float = 1.0, parameters: Iterable[float | None] | None = None,
                 form: str = "common", max_bins: int | None = None) -> dict[str, Any]:
    """Choose a DDF's parameter and ``T`` by mean validation NDCG@5 (§5.3).

    One fit of ``n_rounds`` per parameter; ``T`` comes from the staged
    validation curve, so it costs no refit.

    Returns
    -------
    dict
        ``parameter``, ``rounds``, ``vali_ndcg`` (at the chosen T) and
        ``model`` (fitted with all ``n_rounds``; predict with
        ``rounds=...``).

    Raises
    ------
    ValueError
        If ``parameters`` is empty.
    """
    grid = PARAMETER_GRIDS[ddf] if parameters is None else parameters
    best: dict[str, Any] | None = None
    for parameter in grid:
        model = MPBoost(ddf=ddf, parameter=parameter, n_rounds=n_rounds, shrinkage=shrinkage,
                        max_bins=max_bins).fit(train.X, train.relevance, qid=train.qid)
        curve = staged_ndcg(model, vali.X, vali.relevance, vali.qid, form=form)[:, 0]
        rounds = int(np.nanargmax(curve)) + 1
        if best is None or curve[rounds - 1] > best["vali_ndcg"]:
            best = {"parameter": parameter, "rounds": rounds, "vali_ndcg": float(curve[rounds - 1]),
                    "model": model}
    if best is None:  # no parameter tried: there is no choice to return
        raise ValueError(f"parameters must hold at least one value, got {parameters!r}")
    return best


@dataclass
class RankerComparison:
    """Per-query test NDCG of every method, and how each MPBoost was tuned.

    Attributes
    ----------
    per_query : DataFrame
        Columns ``method``, ``query``, ``k``, ``ndcg``: one row per method,
        test query and cut-off (queries without a relevant document are
        dropped, see :mod:`rankviz.ltr.metrics`).
    settings : DataFrame
        One row per MPBoost labelling: parameter, rounds, validation NDCG@5.
    """

    per_query: pd.DataFrame
    settings: pd.DataFrame
    form: str = "common"
    methods: list[str] = field(default_factory=list)

    def summary(self, confidence: float = 0.95) -> pd.DataFrame:
        """Mean NDCG@k per method and k, with its standard error and the half-width ``ci`` of its t interval."""
        grouped = self.per_query.groupby(["method", "k"], sort=False)["ndcg"]
        table = grouped.agg(mean="mean", se=lambda v: standard_error(v.to_numpy()),
                            ci=lambda v: t_interval(v.dropna().to_numpy(), confidence)[1]).reset_index()
        table["title"] = table["method"].map(method_title)
        return table

    def matrix(self, method: str, k: int) -> pd.Series:
        """Per-query NDCG@k of one method as a Series indexed by query."""
        rows = self.per_query[(self.per_query["method"] == method) & (self.per_query["k"] == k)]
        return rows.set_index("query")["ndcg"]


def compare_rankers(train: QueryDataset, vali: QueryDataset, test: QueryDataset, *,
                    ddfs: Sequence[str] = DDF_NAMES, baselines: Sequence[str] = tuple(BASELINES),
                    n_rounds: int = 200, shrinkage: float = 1.0, tune: bool = True,
                    parameters: Mapping[str, float | None] | None = None,
                    ks: Iterable[int] = range(1, 11), form: str = "common",
                    max_bins: int | None = None,
                    progress: Callable[[float, str], Any] | None = None) -> RankerComparison:
    """Fit every method on ``train`` and score it per query of ``test``.

    Parameters
    ----------
    train, vali, test : QueryDataset
        Anything with ``X``, ``relevance`` and ``qid``.
    ddfs : sequence of str
        MPBoost labellings to include.
    baselines : sequence of str
        Keys of :data:`BASELINES`.
    n_rounds, shrinkage, max_bins :
        MPBoost settings; with ``tune`` the rounds are chosen on ``vali``
        up to ``n_rounds``.
    tune : bool
        Choose parameter and rounds on the validation queries (the protocol
        of Zhu et al. 2009). Otherwise use ``parameters`` (default:
        :data:`rankviz.ltr.ddf.DEFAULT_PARAMETERS`) and all ``n_rounds``.
    parameters : dict, optional
        DDF -> parameter, when not tuning.
    progress : callable, optional
        ``progress(fraction_done, message)`` after each method.
    """
    ks = list(ks)
    steps = list(ddfs) + list(baselines)
    frames, settings = [], []
    test_queries = query_ids(test.qid)
    for step, method in enumerate(steps):
        if progress is not None:
            progress(step / len(steps), f"Fitting {method_title(method)}")
        if method in DDF_NAMES:
            if tune:
                best = tune_mpboost(train, vali, method, n_rounds=n_rounds, shrinkage=shrinkage,
                                    form=form, max_bins=max_bins)
            else:
                parameter = (parameters or {}).get(method, DEFAULT_PARAMETERS[method])
                model = MPBoost(ddf=method, parameter=parameter, n_rounds=n_rounds, shrinkage=shrinkage,
                                max_bins=max_bins).fit(train.X, train.relevance, qid=train.qid)
                best = {"parameter": parameter, "rounds": model.n_rounds_, "model": model,
                        "vali_ndcg": float(mean_ndcg(vali.relevance, model.predict(vali.X), vali.qid,
                                                     ks=[TUNING_K], form=form)[0])}
            scores = best["model"].predict(test.X, rounds=best["rounds"])
            symbol = PARAMETER_SYMBOLS[method]
            settings.append({"method": method, "title": method_title(method),
                             "parameter": "" if symbol is None else f"{symbol} = {best['parameter']:g}",
                             "rounds": best["rounds"], "vali_ndcg@5": best["vali_ndcg"]})
        else:
            estimators: dict[str, BestSingleFeature | KNNRelevance | RandomOrder] = {
                "best_feature": BestSingleFeature(k=10, form=form),
                "knn": KNNRelevance(n_neighbors=10),
                "random": RandomOrder(random_state=0)}
            estimator = estimators[method]
            scores = estimator.fit(train.X, train.relevance, qid=train.qid).predict(test.X)
        per_query = ndcg_at_ks(test.relevance, scores, test.qid, ks=ks, form=form)
        frame = pd.DataFrame(per_query, columns=ks)
        frame.insert(0, "query", test_queries)
        frame = frame.melt(id_vars="query", var_name="k", value_name="ndcg").dropna(subset=["ndcg"])
        frame.insert(0, "method", method)
        frames.append(frame)
    if progress is not None:
        progress(1.0, "Done")
    per_query = pd.concat(frames, ignore_index=True)
    per_query["k"] = per_query["k"].astype(int)
    return RankerComparison(per_query=per_query, settings=pd.DataFrame(settings), form=form, methods=steps)


@dataclass
class GrowthCurves:
    """Mean NDCG@1..10 of each data split after every round, and Theorem 1's two sides.

    Attributes
    ----------
    ndcg : dict
        Split name -> array (rounds, len(ks)).
    ks : list of int
    bound : ndarray
        ``prod Z_t`` after each round.
    misordering : ndarray
        Share of mis-ordered training pairs after each round.
    """

    ndcg: dict[str, np.ndarray]
    ks: list[int]
    bound: np.ndarray
    misordering: np.ndarray

    def at_k(self, k: int) -> dict[str, np.ndarray]:
        """Split name -> 1-D curve of mean NDCG@k."""
        column = self.ks.index(k)
        return {split: values[:, column] for split, values in self.ndcg.items()}

    def frame(self) -> pd.DataFrame:
        """Long table ``round, split, k, mean_ndcg`` plus the bound columns (for export)."""
        rows = []
        for split, values in self.ndcg.items():
            rounds, ks = np.meshgrid(np.arange(1, values.shape[0] + 1), self.ks, indexing="ij")
            rows.append(pd.DataFrame({"round": rounds.ravel(), "split": split, "k": ks.ravel(),
                                      "mean_ndcg": values.ravel()}))
        table = pd.concat(rows, ignore_index=True) if rows else pd.DataFrame()
        theorem = pd.DataFrame({"round": np.arange(1, len(self.bound) + 1), "loss_bound": self.bound,
                                "train_misordering": self.misordering})
        return table.merge(theorem, on="round", how="left")


def iter_growth(model: MPBoost, train: QueryDataset, splits: Mapping[str, QueryDataset], *,
                ks: Iterable[int] = range(1, 11), form: str = "common") -> Iterator[GrowthCurves]:
    """Fit ``model`` round by round, tracking NDCG@k on each split as it grows.

    Parameters
    ----------
    model : MPBoost
        Unfitted; it is fitted in place.
    train : QueryDataset
    splits : dict
        Split name -> QueryDataset to score after each round (train
        included if wanted).

    Yields
    ------
    GrowthCurves
        After each round, the curves so far (arrays grow by one row).

    Scores are kept per split and updated by each new stump, so a round
    costs one NDCG evaluation per split, not a re-prediction.
    """
    ks = list(ks)
    scores = {name: np.zeros(len(data.relevance)) for name, data in splits.items()}
    history: dict[str, list[np.ndarray]] = {name: [] for name in splits}
    misordering = []
    for rounds in model.iter_fit(train.X, train.relevance, qid=train.qid):
        t = rounds - 1
        feature, threshold, value = model.feature_[t], model.threshold_[t], model.value_[t]
        for name, data in splits.items():
            scores[name] += value * (data.X[:, feature] > threshold)
            history[name].append(mean_ndcg(data.relevance, scores[name], data.qid, ks=ks, form=form))
        # reuse the running scores only if they are of the training documents
        train_scores = scores["train"] if splits.get("train") is train else model.predict(train.X)
        # counted per grade, not per pair: a query of 15,000 documents has 90 million pairs
        misordering.append(misordered_share(train_scores, train.relevance, train.qid))
        yield GrowthCurves(ndcg={name: np.array(rows) for name, rows in history.items()}, ks=ks,
                           bound=model.loss_bound_, misordering=np.array(misordering))
