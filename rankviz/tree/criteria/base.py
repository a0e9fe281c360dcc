"""The small protocol every splitting criterion follows.

A criterion turns each training ranking into a row of *additive* statistics.
The statistics of any set of rows are then the sum of its rows, so the
builder can score every threshold of an attribute at once from cumulative
sums (docs/design.md, "The mathematics that makes split search fast"): prefix
sums give the left subsets, the node total minus them the right ones.

From a set's count and summed statistics the criterion gives the set's
*similarity* (higher = more homogeneous; it enters the stopping rule, eq. 6 of
Rebelo, Soares & Costa 2008), the *split similarity* ``S_split`` of rule (6)
(the size-weighted mean similarity of the two subsets) and the *split score*
the search maximises (higher = better). For most criteria the score is
``S_split`` itself; a criterion whose paper chooses splits another way (the
unweighted gain of the ranking impurity of Xia, Zhang & Wang 2006) overrides
:meth:`Criterion.split_score` and names it in ``search_label``, while rule (6)
still judges the chosen split by ``S_split``.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike


class Criterion:
    """Base class of splitting criteria; subclasses set ``name`` and override.

    All methods are vectorised: ``count`` may be an array of any shape and
    ``stat_sum`` has the same shape plus one trailing axis of statistics.

    Notes
    -----
    Every criterion's similarity feeds stopping rule (6) of Rebelo, Soares &
    Costa (2008) [1]_, which :meth:`accepts_split` and
    :meth:`gamma_breakpoint` implement.

    References
    ----------
    .. [1] C. Rebelo, C. Soares and J. Pinto da Costa, "Empirical evaluation of
           ranking trees on some metalearning problems", Proceedings of the 2nd
           Planning to Learn Workshop (PlanLearn) at ICML/COLT/UAI 2008, 2008.
    """

    #: Name used by ``RankingTree(criterion=...)``, in code and in the app's links.
    name: str = ""
    #: What people call it, for the app (``name`` if empty).
    title: str = ""
    #: The paper it comes from: its authors as the text names them, and its year.
    authors: str = ""
    year: int | None = None
    #: One line for the app and the docs: what the similarity is.
    similarity_label: str = "similarity"
    #: What :meth:`split_score` is, when it is not ``S_split`` (None).
    search_label: str | None = None

    @property
    def source(self) -> str:
        """The paper in running text, e.g. ``"Xia, Zhang & Wang (2006)"``; empty if none."""
        return f"{self.authors} ({self.year})" if self.authors else ""

    @property
    def label(self) -> str:
        """The name in menus, short enough for a sidebar: ``"Ranking impurity (Xia et al. 2006)"``."""
        title = self.title or self.name
        if not self.authors:
            return title
        first = self.authors.split(",")[0].split(" & ")[0]
        return f"{title} ({first}{' et al.' if first != self.authors else ''} {self.year})"

    def check_targets(self, Y: np.ndarray) -> None:
        """Raise ``ValueError`` if the criterion cannot use these rankings."""

    def row_statistics(self, Y: ArrayLike) -> np.ndarray:
        """Per-row additive statistics, shape ``(n_rows, n_statistics)``.

        Called once per fit before any other scoring method: a criterion may
        fix the layout of its statistics here (for example drop a column the
        data make constant), and the other methods then read sums of that layout.
        """
        raise NotImplementedError

    def node_similarity(self, count: ArrayLike, stat_sum: ArrayLike) -> np.ndarray:
        """Similarity of the sets with these counts and summed statistics."""
        raise NotImplementedError

    def can_split(self, count: ArrayLike, stat_sum: ArrayLike) -> np.ndarray:
        """Whether nodes with these counts and sums may be split at all (beyond the
        tree's own limits); every node by default."""
        return np.ones(np.shape(count), dtype=bool)

    def split_score(self, count_left: ArrayLike, sum_left: ArrayLike, count_right: ArrayLike,
                    sum_right: ArrayLike) -> np.ndarray:
        """Score of binary splits that the search maximises; by default ``S_split``."""
        return self.split_similarity(count_left, sum_left, count_right, sum_right)

    def split_similarity(self, count_left: ArrayLike, sum_left: ArrayLike, count_right: ArrayLike,
                         sum_right: ArrayLike) -> np.ndarray:
        """``S_split`` of stopping rule (6): the size-weighted mean similarity of the subsets."""
        s_left = self.node_similarity(count_left, sum_left)
        s_right = self.node_similarity(count_right, sum_right)
        return (count_left * s_left + count_right * s_right) / (count_left + count_right)

    def gamma_breakpoint(self, similarity_parent: ArrayLike, split_score: ArrayLike) -> np.ndarray:
        """The γ above which rule (6) of Rebelo, Soares & Costa (2008) accepts a split, vectorised.

        The rule splits when ``(1 + S_parent) < gamma * (1 + S_split)``, i.e. for
        ``gamma > (1 + S_parent) / (1 + S_split)``. Sides equal up to rounding
        (relative 1e-12) count as equal, so the rule stops there: running sums
        and direct sums of one set differ in the last bits, and a split that
        changes nothing (γ = 1) must not be decided by them. Returns ``inf``
        where no γ accepts the split (``S_split = -1`` or no split, NaN).

        Growth and the γ path (:mod:`rankviz.tree.gamma_path`) both decide through
        this one number, so a tree cut from the maximal tree equals the tree
        grown with that γ.
        """
        parent_side = (1.0 + np.asarray(similarity_parent, dtype=float)) * (1.0 + 1e-12)
        split_side = 1.0 + np.asarray(split_score, dtype=float)
        with np.errstate(divide="ignore", invalid="ignore"):
            breakpoint_ = parent_side / split_side
        return np.where(split_side > 0, breakpoint_, np.inf)

    def accepts_split(self, similarity_parent: ArrayLike, split_score: ArrayLike,
                      gamma: float | ArrayLike) -> np.ndarray:
        """Stopping rule (6) of Rebelo, Soares & Costa (2008): True where the split is made.

        Vectorised. A split is made only when ``(1 + S_parent) < gamma * (1 + S_split)``;
        the rule stops when ``(1 + S_parent) >= gamma * (1 + S_split)``
        (equality within rounding stops; see :meth:`gamma_breakpoint`).
        """
        return np.asarray(gamma) > self.gamma_breakpoint(similarity_parent, split_score)
