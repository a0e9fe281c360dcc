"""Learning to rank: MPBoost, its directed distances and stump search, NDCG, baselines.

:mod:`~rankviz.ltr.ddf` (the directed distance functions of Zhu et al.
2009), :mod:`~rankviz.ltr.stump_search` (every stump scored at once),
:mod:`~rankviz.ltr.mpboost` (:class:`MPBoost`), :mod:`~rankviz.ltr.metrics`
(NDCG and per-query measures), :mod:`~rankviz.ltr.baselines` (random order,
best single feature, KNN relevance) and :mod:`~rankviz.ltr.synthetic`
(:func:`make_ltr_dataset`).
"""

from .baselines import BestSingleFeature, KNNRelevance, RandomOrder
from .ddf import directed_distance
from .metrics import mean_ndcg, ndcg, ndcg_at_ks
from .mpboost import MPBoost
from .synthetic import make_ltr_dataset

__all__ = ["BestSingleFeature", "KNNRelevance", "MPBoost", "RandomOrder", "directed_distance",
           "make_ltr_dataset", "mean_ndcg", "ndcg", "ndcg_at_ks"]
