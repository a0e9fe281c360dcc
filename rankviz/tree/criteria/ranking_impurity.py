"""Ranking impurity (Xia, Zhang & Wang 2006, Definition 2 and the unweighted gain of eq. 1).

``I_rank(T) = sum_{i<j} (v_j - v_i) N_i(T) N_j(T)``: the summed distance of all
pairs of a set's rows, so a pair of far-apart ranks weighs more than a pair of
neighbours. For label rankings the impurity is summed over labels, each
label's position being an ordinal target.

Similarity used by rule (6) of Rebelo, Soares & Costa (2008). A set's
similarity is one minus its impurity over the largest impurity a set of that
size can have (every pair at the widest distance, ``(v_K - v_1) n(n-1)/2``),
i.e. one minus the mean pairwise rank distance as a share of the widest: 1
for a pure set, 0 when the rows sit half at each extreme. Rule (6) judges a
split by ``S_split``, the size-weighted mean similarity of its two subsets,
as for every criterion.

The search, though, follows Xia et al.: it maximises the unweighted gain
``I(T) - I(T_L) - I(T_R)`` of eq. (1), scored as

    1 - (I_rank(T_L) + I_rank(T_R)) / max I_rank(T),

which orders the splits of a node as the gain does (the gain over the
parent's normaliser, plus a constant). Why not let rule (6) use this score:
every split, even a random one, removes the pairs that cross it, about half
of them for a balanced split, so the score jumps for any split and rule (6)
could no longer tell good splits from bad (on the metalearning data every
breakpoint fell between 0.92 and 0.94). The weighted similarity moves only
when the subsets are more homogeneous than their parent.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .ordinal_levels import OrdinalLevelCriterion


class RankingImpurity(OrdinalLevelCriterion):
    """Ranking impurity with the unweighted gain of Xia, Zhang & Wang (2006); see the module.

    Definition 2 and eq. (1) of Xia et al. [1]_; the similarity serves
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

    name = "ranking_impurity"
    title = "Ranking impurity"
    authors = "Xia, Zhang & Wang"
    year = 2006
    similarity_label = "1 - ranking impurity / its maximum"
    search_label = "the unweighted gain of eq. (1) as 1 - (I(T_L) + I(T_R)) / max I(T)"

    def impurity(self, count: ArrayLike, stat_sum: ArrayLike) -> np.ndarray:
        """``I_rank`` of the sets with these counts and summed statistics."""
        return self._rank_impurity(*self._unpack(count, stat_sum))

    def node_similarity(self, count: ArrayLike, stat_sum: ArrayLike) -> np.ndarray:
        n_label, below = self._unpack(count, stat_sum)
        worst = self._max_rank_impurity(n_label)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(worst > 0, 1.0 - self._rank_impurity(n_label, below) / worst, 1.0)

    def split_score(self, count_left: ArrayLike, sum_left: ArrayLike, count_right: ArrayLike,
                    sum_right: ArrayLike) -> np.ndarray:
        """The unweighted gain of eq. (1) of Xia, Zhang & Wang (2006).

        Scored as ``1 - (I(T_L) + I(T_R)) / max I(T)``.
        """
        n_left, below_left = self._unpack(count_left, sum_left)
        n_right, below_right = self._unpack(count_right, sum_right)
        children = self._rank_impurity(n_left, below_left) + self._rank_impurity(n_right, below_right)
        worst = self._max_rank_impurity(n_left + n_right)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(worst > 0, 1.0 - children / worst, 1.0)
