"""Ranking impurity (seed 002, Definition 2 and the unweighted gain of eq. 1).

``I_rank(T) = sum_{i<j} (v_j - v_i) N_i(T) N_j(T)``: the summed distance of all
pairs of a set's rows, so a pair of far-apart ranks weighs more than a pair of
neighbours. For label rankings the impurity is summed over labels, each
label's position being an ordinal target.

Similarity used by rule (6) of seed 001. A set's similarity is one minus its
impurity over the largest impurity a set of that size can have (every pair at
the widest distance, ``(v_K - v_1) n(n-1)/2``), i.e. one minus the mean
pairwise rank distance as a share of the widest: 1 for a pure set, 0 when the
rows sit half at each extreme. Rule (6) judges a split by ``S_split``, the
size-weighted mean similarity of its two subsets, as for every criterion.

The search, though, follows the seed: it maximises the unweighted gain
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

import numpy as np

from .ordinal_levels import OrdinalLevelCriterion


class RankingImpurity(OrdinalLevelCriterion):
    """Ranking impurity with the seed's unweighted gain; see the module notes."""

    name = "ranking_impurity"
    similarity_label = "1 - ranking impurity / its maximum"
    search_label = "the unweighted gain of eq. (1) as 1 - (I(T_L) + I(T_R)) / max I(T)"

    def impurity(self, count, stat_sum):
        """``I_rank`` of the sets with these counts and summed statistics."""
        return self._rank_impurity(*self._unpack(count, stat_sum))

    def node_similarity(self, count, stat_sum):
        n_label, below = self._unpack(count, stat_sum)
        worst = self._max_rank_impurity(n_label)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(worst > 0, 1.0 - self._rank_impurity(n_label, below) / worst, 1.0)

    def split_score(self, count_left, sum_left, count_right, sum_right):
        """The seed's unweighted gain, as ``1 - (I(T_L) + I(T_R)) / max I(T)``."""
        n_left, below_left = self._unpack(count_left, sum_left)
        n_right, below_right = self._unpack(count_right, sum_right)
        children = self._rank_impurity(n_left, below_left) + self._rank_impurity(n_right, below_right)
        worst = self._max_rank_impurity(n_left + n_right)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(worst > 0, 1.0 - children / worst, 1.0)
