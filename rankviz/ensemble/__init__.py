"""Ensembles of ranking trees: :class:`RankingForest` (bagging with random feature subsets, Borda vote).

Each feature's importance per label, for a forest or any other label ranker,
is :func:`rankviz.label_ranking.permutation_importance`.
"""

from .forest import RankingForest

__all__ = ["RankingForest"]
