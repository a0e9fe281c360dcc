"""Ordinal targets: ordered levels, their prediction rules and rank loss, baselines, synthetic data.

:mod:`~rankviz.ordinal.levels` (:class:`OrdinalLevels`, median and mode
leaves, the absolute rank loss), :mod:`~rankviz.ordinal.baselines`
(:class:`OrdinalDefault`, :class:`OrdinalKNN`) and
:mod:`~rankviz.ordinal.synthetic` (the generator of §IV-A of Xia, Zhang &
Wang 2006). The tree itself is :class:`rankviz.OrdinalTree`.
"""

from .baselines import OrdinalDefault, OrdinalKNN
from .levels import PREDICTION_RULES, OrdinalLevels, mean_rank_loss
from .synthetic import make_ordinal_square

__all__ = ["OrdinalDefault", "OrdinalKNN", "OrdinalLevels", "PREDICTION_RULES", "make_ordinal_square",
           "mean_rank_loss"]
