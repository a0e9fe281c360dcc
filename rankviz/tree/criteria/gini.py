"""Gini impurity (Xia, Zhang & Wang 2006, Definition 1, with the usual size-weighted gain).

``I_gini(T) = sum_i sum_{j != i} p_i p_j = 1 - sum_i p_i^2`` over the levels of
an ordinal target; for label rankings it is summed over labels, each label's
position being an ordinal target. It ignores the order of the levels: that is
the point of the comparison with the ranking impurity.

Similarity used by rule (6) of Rebelo, Soares & Costa (2008): one minus the
impurity over its largest value, ``1 - 1/K`` for K levels (per label,
averaged over labels), so 1 for a pure set and 0 for an even spread. A split
scores the size-weighted mean of the children's similarities (the base
class's rule), so the best split maximises the weighted gain of Xia et al.
``I(T) - p(T_L) I(T_L) - p(T_R) I(T_R)``, and ``S_split - S_parent`` is that
gain over ``1 - 1/K``. The gain is never negative (Gini is concave), so
every breakpoint of rule (6) is at most 1.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .ordinal_levels import OrdinalLevelCriterion


class Gini(OrdinalLevelCriterion):
    """Gini impurity with the weighted gain; see the module notes.

    Definition 1 of Xia, Zhang & Wang (2006) [1]_; the similarity serves
    stopping rule (6) of Rebelo, Soares & Costa (2008) [2]_.

    References
    ----------
    .. [1] F. Xia, W. Zhang and J. Wang, "An effective tree-based algorithm for
           ordinal regression", IEEE Intelligent Informatics Bulletin, vol. 7,
           no. 1, pp. 22-26, 2006.

    .. [2] C. Rebelo, C. Soares and J. Pinto da Costa, "Empirical evaluation of
           ranking trees on some metalearning problems", Proceedings of the 2nd
           Planning to Learn Workshop (PlanLearn) at ICML/COLT/UAI 2008, 2008.
    """

    name = "gini"
    title = "Gini impurity"
    authors = "Xia, Zhang & Wang"
    year = 2006
    similarity_label = "1 - Gini impurity / its maximum"

    def impurity(self, count: ArrayLike, stat_sum: ArrayLike) -> np.ndarray:
        """``I_gini`` summed over labels, of the sets with these counts and sums."""
        return self._gini(*self._unpack(count, stat_sum)).sum(axis=0)

    def node_similarity(self, count: ArrayLike, stat_sum: ArrayLike) -> np.ndarray:
        n_levels = len(self.levels_)
        if n_levels < 2:
            return np.ones(np.shape(count))
        gini = self._gini(*self._unpack(count, stat_sum))
        # The mean over labels as np.mean computes it (sum, then divide), without
        # its overhead, which shows in the split search's many small calls.
        return 1.0 - (gini.sum(axis=0) / self.n_labels_) / (1.0 - 1.0 / n_levels)
