"""Splitting criteria for ranking trees, one module each (see ``base``)."""

from __future__ import annotations

from .base import Criterion
from .gini import Gini
from .mallows import Mallows
from .mean_spearman import MeanSpearman
from .pairwise_consensus import PairwiseDisagreements, PairwiseDistance
from .pairwise_entropy import PairwiseEntropy
from .ranking_impurity import RankingImpurity

#: Every criterion the library has, by name. New criteria register here.
CRITERIA = {c.name: c for c in (MeanSpearman, RankingImpurity, Gini, Mallows, PairwiseEntropy,
                                PairwiseDisagreements, PairwiseDistance)}


def get_criterion(criterion: str | Criterion) -> Criterion:
    """Return a criterion instance for a name or pass an instance through.

    The names are the keys of :data:`CRITERIA`: ``"mean_spearman"`` (Rebelo,
    Soares & Costa 2008), ``"mallows"`` (Cheng, Hühn & Hüllermeier 2009),
    ``"ranking_impurity"`` and ``"gini"`` (Xia, Zhang & Wang 2006, ordinal
    targets), and ``"pairwise_entropy"``, ``"pairwise_disagreements"`` and
    ``"pairwise_distance"`` (Alfaro, Aledo & Gámez 2021, rankings with ties).

    Parameters
    ----------
    criterion : str or Criterion
        A name of :data:`CRITERIA`, or a criterion instance (a subclass of
        :class:`Criterion` of one's own, say).

    Returns
    -------
    Criterion
        A new instance for a name; ``criterion`` itself for an instance.

    Raises
    ------
    ValueError
        For a name not in :data:`CRITERIA`.

    See Also
    --------
    Criterion : The protocol every criterion follows.

    Examples
    --------
    >>> from rankviz.tree import get_criterion
    >>> criterion = get_criterion("ranking_impurity")
    >>> criterion.label
    'Ranking impurity (Xia et al. 2006)'
    >>> get_criterion(criterion) is criterion
    True
    """
    if isinstance(criterion, Criterion):
        return criterion
    try:
        return CRITERIA[criterion]()
    except KeyError:
        raise ValueError(
            f"unknown criterion {criterion!r}; expected one of {sorted(CRITERIA)}"
        ) from None


__all__ = ["CRITERIA", "Criterion", "Gini", "Mallows", "MeanSpearman", "PairwiseDisagreements", "PairwiseDistance",
           "PairwiseEntropy", "RankingImpurity",
           "get_criterion"]
