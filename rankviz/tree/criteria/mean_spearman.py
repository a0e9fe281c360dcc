"""Mean pairwise Spearman correlation, the splitting criterion of Rebelo, Soares & Costa (2008).

The similarity of a set of rankings is the mean Spearman correlation over all
pairs of its rankings; a split scores the size-weighted mean of the two
subsets' similarities.

Why the statistics are standardised rank vectors: Spearman's coefficient of
two rankings is the Pearson correlation of their rank vectors (Rebelo et al.,
eq. 2; eq. 1 is the same number when there are no ties). With
``z_i = (r_i - mean(r_i)) / ||r_i - mean(r_i)||`` it is the dot product
``z_i . z_j``, and for a set of n rankings

    sum_{i<j} z_i . z_j = (||sum_i z_i||^2 - sum_i ||z_i||^2) / 2,

so the mean over the n(n-1)/2 pairs follows from the running sums of ``z`` and
of ``||z||^2`` (the latter is 1 except for an all-tied ranking, whose
correlation with anything is taken as 0). This is the identity of
docs/design.md ("Mean pairwise Spearman") in standardised form; it is exact
with ties, where eq. 1 is not.

Why whole numbers when every ranking has the same spread: rankings without
ties of L labels are permutations of 1..L, so every ``r_i - mean(r_i)`` has
the same norm and twice it is a vector of whole numbers. The statistics are
then ``d_i = 2 (r_i - mean(r_i))`` and ``z_i = d_i / ||d||``: sums of whole
numbers are exact in any order, and a set of identical rankings has
similarity exactly 1. With standardised floats the rounding of the running
sums left such sets at 1 - 1e-11 and they were split (55 times in the
maximal tree on calhousing) although nothing could be gained.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .base import Criterion


class MeanSpearman(Criterion):
    """Similarity = mean pairwise Spearman correlation of the rankings in a set.

    A set of one ranking has similarity 1 (a ranking agrees with itself).
    This is the criterion of Rebelo, Soares & Costa (2008) [1]_.

    Attributes
    ----------
    n_labels_ : int
        Labels of the rankings (set by ``row_statistics``).
    all_unit_ : bool
        No ranking is all tied, so the statistics are the standardised rank
        vectors alone (else one more column counts the rankings that are not).
    scale_ : float
        ``||d||^2`` when every ranking has the same spread and the statistics
        are the whole-number vectors ``d_i`` (see the module notes); else 1.0
        and the statistics are the unit vectors ``z_i``.

    References
    ----------
    .. [1] C. Rebelo, C. Soares and J. Pinto da Costa, "Empirical evaluation of
           ranking trees on some metalearning problems", Proceedings of the 2nd
           Planning to Learn Workshop (PlanLearn) at ICML/COLT/UAI 2008, 2008.
    """

    name = "mean_spearman"
    title = "Mean pairwise Spearman correlation"
    authors = "Rebelo, Soares & Costa"
    year = 2008
    similarity_label = "mean pairwise Spearman correlation"

    def check_targets(self, Y: np.ndarray) -> None:
        missing = np.argwhere(np.isnan(Y))
        if len(missing):
            row, col = missing[0]
            raise ValueError(
                f"criterion 'mean_spearman' needs complete rankings, but row {row + 1} "
                f"has no position for label {col + 1}; choose another criterion or "
                "remove incomplete rows"
            )

    def row_statistics(self, Y: ArrayLike) -> np.ndarray:
        Y = np.asarray(Y, dtype=float)
        self.n_labels_ = Y.shape[1]
        centred = Y - Y.mean(axis=1, keepdims=True)
        squares = np.einsum("ij,ij->i", centred, centred)
        doubled = 2.0 * centred
        if len(Y) and squares[0] > 0 and (squares == squares[0]).all() and (doubled == np.round(doubled)).all():
            self.all_unit_, self.scale_ = True, float(4.0 * squares[0])
            return doubled
        self.scale_ = 1.0
        norm = np.sqrt(squares)
        z = np.divide(centred, norm[:, None], out=np.zeros_like(centred), where=norm[:, None] > 0)
        # ||z_i||^2 is 1 unless ranking i is all tied; only then is it worth a
        # column of its own (the split search pays per statistic).
        self.all_unit_ = bool((norm > 0).all())
        return z if self.all_unit_ else np.column_stack([z, (norm > 0).astype(float)])

    def node_similarity(self, count: ArrayLike, stat_sum: ArrayLike) -> np.ndarray:
        count = np.asarray(count, dtype=float)
        stat_sum = np.asarray(stat_sum)
        if self.all_unit_:
            z_sum, sq_norms = stat_sum, count
        else:
            z_sum, sq_norms = stat_sum[..., :-1], stat_sum[..., -1]
        pair_sum = np.einsum("...l,...l->...", z_sum, z_sum)
        if self.scale_ != 1.0:
            pair_sum = pair_sum / self.scale_
        pair_sum = pair_sum - sq_norms
        with np.errstate(invalid="ignore", divide="ignore"):
            mean_corr = pair_sum / (count * (count - 1.0))
        return np.where(count == 1, 1.0, mean_corr)
