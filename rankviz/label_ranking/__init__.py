"""Label ranking: the measures, aggregation, the Mallows model and the label rankers.

:mod:`~rankviz.label_ranking.metrics` (CS, WRC, LRA, Kendall tau),
:mod:`~rankviz.label_ranking.aggregation` (the mean-rank rule),
:mod:`~rankviz.label_ranking.mallows` (the Mallows model and the EM of
Cheng, Hühn & Hüllermeier 2009), the label rankers :class:`IBLR`,
:class:`ConstraintClassifier`, :class:`KNNRanker` and
:class:`DefaultRanker`, :func:`delete_labels` (incomplete rankings) and
:func:`permutation_importance` (each feature's importance per label).
The label ranking tree is :class:`rankviz.RankingTree`.
"""

from .baselines import DefaultRanker, KNNRanker
from .constraint_classification import ConstraintClassifier
from .iblr import IBLR
from .incomplete import delete_labels
from .inspection import held_out_importance, label_agreement, permutation_importance
from .mallows import fit_mallows, fit_mallows_groups
from .metrics import cs, kendall_tau, lra, tau_x, wrc

__all__ = ["ConstraintClassifier", "DefaultRanker", "IBLR", "KNNRanker", "cs", "delete_labels", "fit_mallows",
           "fit_mallows_groups", "held_out_importance", "kendall_tau", "label_agreement", "lra", "permutation_importance", "tau_x", "wrc"]
