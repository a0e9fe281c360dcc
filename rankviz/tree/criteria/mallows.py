"""The Mallows spread θ as a splitting criterion (Cheng, Hühn & Hüllermeier 2009, §5.1).

In the label ranking trees of Cheng et al. a split is good when the Mallows
models fitted to its two subsets are peaked. Their text asks for "a weighted
average of the within-leaf variances, just like in the case of regression
trees", and eq. (6) writes it with the spreads, ``(|T+| θ+ + |T-| θ-) / |T|``,
maximised. θ is a precision, not a variance, and the three readings choose
different splits (docs/design.md, "Mallows θ"):

* eq. (6) as printed (``split="spread"``): a weighted mean of θ is led by
  its most peaked side, so it peels small near-pure subsets off a node;
* the variance (``split="variance"``), ``(|T+| / θ+ + |T-| / θ-) / |T|``,
  minimised: like the variance of a regression tree, but ``1/θ`` grows
  without bound as a set nears the uniform distribution, so the most
  dispersed side leads;
* the impurity (``split="impurity"``, the default),
  ``(|T+| / (1 + θ+) + |T-| / (1 + θ-)) / |T|``, minimised, as scikit-lr
  0.3.0 does: in [0, 1], 1 for a uniform set and 0 for a pure one,
  so neither extreme leads. On 13 public files, maximal trees, the same
  folds: at or above the variance on 7 (vowel +0.012, glass +0.007,
  bodyfat +0.019), below on 6 (wisconsin -0.013, wine -0.007), and within
  0.005 of scikit-lr's tree on 12 (the variance: 3 more than 0.005
  below); with a pure side's impurity 0, as scikit-lr's, the trees are
  scikit-lr's up to the choice among tied splits.

Every threshold is scored from running sums (docs/design.md, "Mallows θ"). Each
row contributes pairwise precedence indicators ``[a before b]``; summed, they
give ``P[a, b]``, how many rankings of a set put label ``a`` before ``b``. The
set's centre is the Borda order of its summed votes (the generalised Borda
count of Proposition 2 for incomplete rankings; for complete ones the votes of
label ``a`` are ``n + sum_b P[a, b]``, so the pair counts alone suffice). The
summed Kendall distance to that centre is ``sum P[b, a]`` over the pairs the
centre orders ``a`` before ``b``, and θ solves ``E[D | θ] = D / n`` for the
number of labels the set holds, vectorised over all candidates
(:func:`rankviz.label_ranking.mallows.theta_from_mean_distance`). O(L²) numbers per
candidate, no loop over candidates.

Choices Cheng et al. leave open, and why:

- *Pure subsets.* A pure set has θ = ∞ and impurity ``1/(1 + θ) = 0``, as
  in scikit-lr's tree: the impurity is bounded and needs no more. Eq. (6)
  and the variance are not: they would rate every split that peels off one
  ranking (or two equal ones) as infinitely good, so for them the search
  counts a pure set as half a discordant pair, ``D = max(D, 1/2)``: it stays
  better than any set with a discordance, a larger pure set scores higher
  than a smaller one, and the score is finite. The impurity once used that
  floor too; it rated a pure side of 27 rows of three labels at 0.20, about
  as impure as a side with a discordance, so splits that part clean groups
  lost to splits that peel off small ones (docs/design.md, "Mallows θ").
  The node's reported θ̂ is ∞ in every form, as in the paper.
- *Uniform subsets.* At or above the uniform distribution's mean distance θ̂
  is 0 and its variance infinite; the variance form counts θ̂ as at least
  :data:`THETA_FLOOR`, so every score stays finite and comparable.
- *Incomplete rankings.* The search counts the discordances of the observed
  pairs against the generalised Borda centre, i.e. Algorithm 1 without its
  refinement rounds; the leaves' centres and θ̂ are then fitted with the full
  approximate EM (:func:`rankviz.label_ranking.mallows.fit_mallows_groups`). A set is
  modelled on the labels it holds (§5.1).
- *Stopping rule (6) of Rebelo, Soares & Costa (2008).* It needs a
  similarity in a fixed range; θ is unbounded. The similarity of a set is
  the fitted model's expected Kendall tau with its centre,
  ``1 - 4 E[D | θ̂] / (m (m - 1))``, which is
  ``max(0, 1 - 4 D / (n m (m - 1)))``: the mean tau of the set's rankings to
  its centre, 1 for a pure set and 0 for a uniform one.
- *Stopping of §5.1.* A pure node is not split; neither is a node holding
  fewer than ``2 |Y|`` label occurrences (:meth:`Mallows.can_split`).

Memory: the statistics are ``L (L - 1) / 2`` pair indicators per row (twice
that, plus ``2 L``, for incomplete rankings) and the split search holds a
few times that much (3 to 6 times, measured); nothing grows with ``L^3`` or
``L^4`` (the Borda votes come from a sparse label-by-pair matrix). Targets
whose tree would need more than the memory budget
(:func:`rankviz.set_config`'s ``max_memory``) are refused by
:meth:`Criterion.check_memory <rankviz.tree.criteria.base.Criterion.check_memory>`,
with the largest label count that fits the rows given.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from scipy import sparse

from ...label_ranking.mallows import borda_votes, label_pairs, positions_from_votes, theta_from_mean_distance
from .base import Criterion

#: The smallest θ the variance form divides by (a set at or beyond the uniform distribution).
THETA_FLOOR = 1e-6

_SPLITS = ("variance", "spread", "impurity")


class Mallows(Criterion):
    """Size-weighted Mallows impurity 1/(1 + θ) (or variance 1/θ, or spread θ) of the subsets; see the module notes.

    §5.1 and eq. (6) of Cheng, Hühn & Hüllermeier (2009) [1]_; the
    similarity, for stopping rule (6) of Rebelo, Soares & Costa (2008) [2]_,
    is the fitted model's expected Kendall tau.

    Parameters
    ----------
    split : {"impurity", "variance", "spread"}, default="impurity"
        ``"variance"``: minimise the size-weighted within-subset variance
        ``1/θ`` (§5.1's "weighted average of the within-leaf variances");
        ``"spread"``: maximise eq. (6) as printed, the size-weighted θ;
        ``"impurity"``: minimise the size-weighted impurity ``1/(1 + θ)``,
        which lies in [0, 1] (1 for a uniform set, 0 for a pure one), as
        scikit-lr 0.3.0 [3]_ does.

    References
    ----------
    .. [1] W. Cheng, J. Hühn and E. Hüllermeier, "Decision tree and
           instance-based learning for label ranking", Proceedings of the 26th
           International Conference on Machine Learning (ICML 2009),
           pp. 161-168, 2009.

    .. [2] C. Rebelo, C. Soares and J. Pinto da Costa, "Empirical evaluation of
           ranking trees on some metalearning problems", Proceedings of the 2nd
           Planning to Learn Workshop (PlanLearn) at ICML/COLT/UAI 2008, 2008.

    .. [3] J. C. Alfaro, J. A. Aledo and J. A. Gámez, scikit-lr 0.3.0,
           ``sklr.tree.DecisionTreeLabelRanker`` (criterion "mallows": the
           impurity of a set is ``1/(1 + θ)``).
    """

    name = "mallows"
    title = "Mallows spread θ"
    authors = "Cheng, Hühn & Hüllermeier"
    year = 2009
    similarity_label = "expected Kendall tau of the fitted Mallows model"
    def __init__(self, split: str = "impurity") -> None:
        if split not in _SPLITS:
            raise ValueError(f"split must be one of {_SPLITS}, got {split!r}")
        self.split = split

    @property
    def search_label(self) -> str:  # type: ignore[override]
        if self.split == "spread":
            return "the size-weighted Mallows spread θ of Cheng et al., eq. (6)"
        if self.split == "impurity":
            return "the size-weighted Mallows impurity 1/(1 + θ) (Cheng et al., §5.1)"
        return "the size-weighted Mallows variance 1/θ of Cheng et al., §5.1"
    # The split search hands over sums with each statistic contiguous (see
    # rankviz.tree.builder._as_criterion_takes): the matrix product and the sums
    # over pairs below run faster on that layout than on a transposed copy.
    columnwise_sums = True

    statistics_note = "an indicator per pair of labels"

    def check_targets(self, Y: np.ndarray) -> None:
        """Refuse fewer than 2 labels (the memory is checked by :meth:`check_memory`)."""
        if Y.shape[1] < 2:
            raise ValueError("criterion 'mallows' needs rankings of at least 2 labels")

    def statistics_width(self, Y: np.ndarray) -> int:
        # Complete rankings without ties: the pair indicators alone (see row_statistics).
        ordered = np.sort(Y, axis=1)
        if not np.isnan(Y).any() and not (ordered[:, 1:] == ordered[:, :-1]).any():
            return self.statistics_width_for(Y.shape[1], complete=True)
        return self.statistics_width_for(Y.shape[1])

    def statistics_width_for(self, n_labels: int, complete: bool = False) -> int:
        pairs = n_labels * (n_labels - 1) // 2
        return pairs if complete else 2 * pairs + 2 * n_labels  # both orders of each pair, votes, presence

    def row_statistics(self, Y: ArrayLike) -> np.ndarray:
        Y = np.asarray(Y, dtype=float)
        self.n_labels_ = n = Y.shape[1]
        self.pair_a_, self.pair_b_ = label_pairs(n)
        # Complete rankings: the Borda votes of label l are
        # sum_k A_k [l = a_k] + (count - A_k) [l = b_k] over pairs k = (a_k, b_k)
        # with A_k = P[a_k, b_k], i.e. votes = V @ A + count * offset with
        # V[l, k] = [l = a_k] - [l = b_k] (two entries per pair: sparse, so
        # the memory is O(pairs), not O(labels x pairs)) and offset[l] the
        # number of pairs whose second label is l.
        self._pair_votes = None  # built when first needed (_votes_matrix); the compiled builder never does
        self._votes_offset = np.bincount(self.pair_b_, minlength=n).astype(float)
        first, second = Y[:, self.pair_a_], Y[:, self.pair_b_]
        a_first = first < second  # NaN compares False: a missing label orders nothing
        b_first = second < first
        # Without missing labels or ties every pair is ordered one way, so
        # P[b, a] = n - P[a, b] and the Borda votes follow from P: the pair
        # indicators alone are the statistics (0/1, summed in integers).
        self.complete_ = not np.isnan(Y).any() and bool((a_first | b_first).all())
        if self.complete_:
            return a_first.astype(float)
        # written into one table (a stack of the parts and a conversion copied it twice: yeast-partial's
        # 1,484 x 110 statistics 1.3 -> 0.3 ms)
        n_pairs = len(self.pair_a_)
        stats = np.empty((len(Y), 2 * n_pairs + 2 * n))
        stats[:, :n_pairs] = a_first
        stats[:, n_pairs:2 * n_pairs] = b_first
        stats[:, 2 * n_pairs:2 * n_pairs + n] = borda_votes(Y)
        stats[:, 2 * n_pairs + n:] = ~np.isnan(Y)
        return stats

    # -- the pieces of a set's model -----------------------------------------
    def total_distance(self, count: ArrayLike, stat_sum: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """Summed Kendall distance of a set's rankings to its Borda centre, and the labels held.

        The centre orders ``a`` before ``b`` (``a < b``) when ``a`` has at
        least as many votes (ties go to the lower label index, as in
        :func:`rankviz.label_ranking.mallows.borda_center`); a ranking disagrees on that pair
        when it puts ``b`` first.
        """
        count = np.asarray(count, dtype=float)
        # Statistics first: the split search hands over (candidates, statistics)
        # views of (statistics, candidates) arrays, so this is contiguous there
        # and every operation below runs over long rows (about 3x faster).
        stats = np.moveaxis(np.asarray(stat_sum, dtype=float), -1, 0)
        n, n_pairs = self.n_labels_, len(self.pair_a_)
        if self.complete_:
            # D = sum_k A_k + sum over pairs the centre orders a_k first of (c - 2 A_k).
            a_first = stats
            flat = a_first.reshape(n_pairs, -1)
            votes = np.asarray(self._votes_matrix() @ flat).reshape((n,) + a_first.shape[1:])
            votes += np.multiply.outer(self._votes_offset, count)
            margin = votes[self.pair_a_] - votes[self.pair_b_]  # the vote margin of each pair
            flips = count - 2.0 * a_first
            flips *= margin >= 0
            return a_first.sum(axis=0) + flips.sum(axis=0), np.full(count.shape, n)
        a_first, b_first = stats[:n_pairs], stats[n_pairs:2 * n_pairs]
        votes = stats[2 * n_pairs:2 * n_pairs + n]
        # Generalised Borda votes (e.g. 4/3) are not exact: totals equal up to
        # rounding are ties, as in positions_from_votes, whatever the order
        # in which the rows were summed.
        tolerance = 1e-9 * np.abs(votes).max(axis=0)
        a_ahead = votes[self.pair_a_] >= votes[self.pair_b_] - tolerance
        labels_held = (stats[2 * n_pairs + n:] > 0).sum(axis=0)
        return np.where(a_ahead, b_first, a_first).sum(axis=0), labels_held

    def _votes_matrix(self):
        """The sparse (labels x pairs) matrix V of ``row_statistics``' comment, built once per fit."""
        if self._pair_votes is None:
            n, n_pairs = self.n_labels_, len(self.pair_a_)
            pair = np.arange(n_pairs)
            self._pair_votes = sparse.csr_matrix(
                (np.concatenate([np.ones(n_pairs), -np.ones(n_pairs)]),
                 (np.concatenate([self.pair_a_, self.pair_b_]), np.concatenate([pair, pair]))), shape=(n, n_pairs))
        return self._pair_votes

    def centers(self, count: ArrayLike, stat_sum: ArrayLike) -> np.ndarray:
        """Borda centres of the sets as rank positions (ties by label order).

        The generalised Borda count of Proposition 2; for complete rankings
        the centre :func:`rankviz.label_ranking.mallows.fit_mallows` finds.
        """
        count = np.asarray(count, dtype=float)
        stats = np.moveaxis(np.asarray(stat_sum, dtype=float), -1, 0)
        n, n_pairs = self.n_labels_, len(self.pair_a_)
        if self.complete_:
            wins = np.zeros((n,) + count.shape)
            np.add.at(wins, self.pair_a_, stats)
            np.add.at(wins, self.pair_b_, count - stats)
            votes = wins
        else:
            votes = stats[2 * n_pairs:2 * n_pairs + n]
        return positions_from_votes(np.moveaxis(votes, 0, -1))

    def theta(self, count: ArrayLike, stat_sum: ArrayLike, pure_distance: float = 0.0) -> np.ndarray:
        """Spread MLE of the sets (``inf`` when pure, unless ``pure_distance`` > 0)."""
        count = np.asarray(count, dtype=float)
        distance, labels_held = self.total_distance(count, stat_sum)
        distance = np.maximum(distance, pure_distance)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean_distance = distance / count
        if self.complete_:
            return theta_from_mean_distance(mean_distance, self.n_labels_)
        theta = np.zeros(np.shape(mean_distance))
        # θ is solved per number of labels held: one call for each (at most L).
        for m in np.unique(labels_held):
            at = labels_held == m
            theta[at] = theta_from_mean_distance(mean_distance[at], int(m)) if m >= 2 else 0.0
        return theta

    # -- the criterion protocol ----------------------------------------------
    def node_similarity(self, count: ArrayLike, stat_sum: ArrayLike) -> np.ndarray:
        count = np.asarray(count, dtype=float)
        distance, labels_held = self.total_distance(count, stat_sum)
        pairs = labels_held * (labels_held - 1) / 4.0
        with np.errstate(invalid="ignore", divide="ignore"):
            tau = 1.0 - distance / (count * pairs)
        return np.where(pairs > 0, np.clip(tau, 0.0, 1.0), 1.0)

    def split_score(self, count_left: ArrayLike, sum_left: ArrayLike, count_right: ArrayLike,
                    sum_right: ArrayLike) -> np.ndarray:
        """What the search maximises: less the size-weighted impurity or variance, or eq. (6)'s spread.

        ``-(|T+| / (1 + θ+) + |T-| / (1 + θ-)) / |T|`` (impurity), the same
        with ``1/θ`` (variance), or ``(|T+| θ+ + |T-| θ-) / |T|`` (spread).

        A pure side's impurity is 0; for the spread and the variance it
        counts as half a discordance, and the variance form divides by at
        least :data:`THETA_FLOOR`.
        """
        count_left = np.asarray(count_left, dtype=float)
        count_right = np.asarray(count_right, dtype=float)
        floor = self._pure_distance()
        term_left = self._split_term(self.theta(count_left, sum_left, pure_distance=floor))
        term_right = self._split_term(self.theta(count_right, sum_right, pure_distance=floor))
        return (count_left * term_left + count_right * term_right) / (count_left + count_right)

    def _pure_distance(self) -> float:
        """The summed distance a pure side counts as: none for the bounded impurity, half a discordance else."""
        return 0.0 if self.split == "impurity" else 0.5

    def _split_term(self, theta: np.ndarray) -> np.ndarray:
        """A subset's share of the score: ``θ``, or less its variance ``1/θ`` or its impurity ``1/(1 + θ)``."""
        if self.split == "spread":
            return theta
        if self.split == "impurity":
            return -1.0 / (1.0 + theta)
        return -1.0 / np.maximum(theta, THETA_FLOOR)

    def can_split(self, count: ArrayLike, stat_sum: ArrayLike) -> np.ndarray:
        """The pre-pruning of Cheng, Hühn & Hüllermeier (2009), §5.1.

        A node needs at least ``2 |Y|`` label occurrences.
        """
        count = np.asarray(count, dtype=float)
        if self.complete_:
            occurrences = count * self.n_labels_
        else:
            occurrences = np.asarray(stat_sum, dtype=float)[..., -self.n_labels_:].sum(axis=-1)
        return occurrences >= 2 * self.n_labels_
