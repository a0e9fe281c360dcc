"""Splitting criteria for ranking trees, one module each (see ``base``)."""

from __future__ import annotations

from .base import Criterion
from .gini import Gini
from .mallows import Mallows
from .mean_spearman import MeanSpearman
from .ranking_impurity import RankingImpurity

#: Every criterion the library has, by name. New criteria register here.
CRITERIA = {c.name: c for c in (MeanSpearman, RankingImpurity, Gini, Mallows)}


def get_criterion(criterion: str | Criterion) -> Criterion:
    """Return a criterion instance for a name or pass an instance through."""
    if isinstance(criterion, Criterion):
        return criterion
    try:
        return CRITERIA[criterion]()
    except KeyError:
        raise ValueError(
            f"unknown criterion {criterion!r}; expected one of {sorted(CRITERIA)}"
        ) from None


__all__ = ["CRITERIA", "Criterion", "Gini", "Mallows", "MeanSpearman", "RankingImpurity", "get_criterion"]
