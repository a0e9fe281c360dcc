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

from ...memory import check_memory, max_memory

#: Peak memory of growing a tree, in multiples of the criterion's row
#: statistics (measured: 1.6 to 5.5 for the four criteria, both engines, on
#: 2,000 to 8,000 rows of 40 to 60 labels) ...
STATISTICS_PEAK = 6
#: ... and of the feature matrix (measured: 3.7 to 4.4 on 20,000 x 500 and
#: 100,000 x 100), added to it.
FEATURES_PEAK = 5


class Criterion:
    """Base class of splitting criteria; subclasses set ``name`` and override.

    All methods are vectorised: ``count`` may be an array of any shape and
    ``stat_sum`` has the same shape plus one trailing axis of statistics.

    See Also
    --------
    get_criterion : A criterion by name.
    rankviz.RankingTree, rankviz.OrdinalTree : The trees that take a criterion.

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

    Examples
    --------
    The criterion of Rebelo et al. on four rankings of three labels, split
    into the first two and the last two:

    >>> import numpy as np
    >>> from rankviz.tree import get_criterion
    >>> criterion = get_criterion("mean_spearman")
    >>> statistics = criterion.row_statistics(np.array([[1, 2, 3], [1, 2, 3], [3, 2, 1], [3, 1, 2]]))
    >>> parent = criterion.node_similarity(4, statistics.sum(axis=0))
    >>> split = criterion.split_similarity(2, statistics[:2].sum(axis=0), 2, statistics[2:].sum(axis=0))
    >>> float(parent), float(split)
    (-0.25, 0.75)
    >>> round(float(criterion.gamma_breakpoint(parent, split)), 4)  # rule (6) splits for any larger γ
    0.4286
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
    #: What a row's statistics hold, for the message of a fit too large for memory.
    statistics_note: str = "a number per label"

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
        """Raise ``ValueError`` if the criterion cannot use these rankings.

        Parameters
        ----------
        Y : ndarray of shape (n_rows, n_labels)
            The training rank positions, as :func:`rankviz.utils.check_rankings`
            returns them (NaN for a missing label).

        Raises
        ------
        ValueError
            If the criterion cannot use ``Y`` (e.g. a criterion without
            missing labels given incomplete rankings). The base class accepts
            every rank matrix.
        """

    def statistics_width(self, Y: np.ndarray) -> int:
        """The number of statistics per row :meth:`row_statistics` gives for ``Y``, without building them.

        An upper bound is enough (it sizes a memory estimate); the base
        class counts one per label and one more.

        Parameters
        ----------
        Y : ndarray of shape (n_rows, n_labels)
            The training rank positions (NaN for a missing label).

        Returns
        -------
        int
            Statistics per row, at least as many as :meth:`row_statistics` gives.
        """
        return self.statistics_width_for(Y.shape[1], complete=not np.isnan(Y).any())

    def statistics_width_for(self, n_labels: int, complete: bool = False) -> int:
        """The most statistics per row for rankings of ``n_labels`` labels.

        Parameters
        ----------
        n_labels : int
            Labels per ranking.
        complete : bool, default=False
            Rankings without missing labels.

        Returns
        -------
        int
            Statistics per row, for the worst rankings of that many labels.
        """
        return n_labels + 1

    def check_memory(self, Y: np.ndarray, n_features: int = 0) -> None:
        """Refuse targets whose tree would need more memory than ``max_memory`` allows.

        The estimate is :data:`STATISTICS_PEAK` times the row statistics
        plus :data:`FEATURES_PEAK` times the feature matrix (8-byte numbers).

        Parameters
        ----------
        Y : ndarray of shape (n_rows, n_labels)
            The training rank positions, as :func:`rankviz.utils.check_rankings`
            returns them.
        n_features : int, default=0
            Columns of the encoded feature matrix.

        Raises
        ------
        rankviz.exceptions.MemoryLimitError
            If the estimate exceeds the limit (:func:`rankviz.set_config`); the
            message gives the largest rows and labels that fit.
        """
        n_rows, n_labels = Y.shape
        width = self.statistics_width(Y)
        per_row = 8 * (STATISTICS_PEAK * width + FEATURES_PEAK * n_features)
        budget = max_memory()
        if n_rows * per_row <= budget:
            return
        # The most labels that fit these rows (the need grows with the labels): a bisection.
        complete = not np.isnan(Y).any()
        labels, above = 1, n_labels
        while above - labels > 1:
            middle = (labels + above) // 2
            width_then = self.statistics_width_for(middle, complete=complete)
            need = 8 * n_rows * (STATISTICS_PEAK * width_then + FEATURES_PEAK * n_features)
            labels, above = (middle, above) if need <= budget else (labels, middle)
        of_labels = f"{n_labels:,} label{'s' if n_labels != 1 else ''}"
        rows = budget // per_row
        fits = [f"at most {rows:,} row{'s' if rows != 1 else ''} of {of_labels}"] if rows else []
        if 1 < labels < n_labels:
            fits.append(f"at most {labels:,} labels for {n_rows:,} rows")
        check_memory(n_rows * per_row,
                     f"criterion {self.name!r} keeps {self.statistics_note} for every row ({width:,} numbers "
                     f"per row here): a tree on {n_rows:,} rows of {of_labels} and {n_features:,} features",
                     largest=", or ".join(fits))

    def row_statistics(self, Y: ArrayLike) -> np.ndarray:
        """Compute the per-row additive statistics, shape ``(n_rows, n_statistics)``.

        Called once per fit before any other scoring method: a criterion may
        fix the layout of its statistics here (for example drop a column the
        data make constant), and the other methods then read sums of that layout.

        Parameters
        ----------
        Y : array-like of shape (n_rows, n_labels)
            The training rank positions (for an ordinal tree, one column of
            level positions).

        Returns
        -------
        ndarray of float, shape (n_rows, n_statistics)
            One row of statistics per ranking; a set's statistics are the
            sum of its rows.
        """
        raise NotImplementedError

    def node_similarity(self, count: ArrayLike, stat_sum: ArrayLike) -> np.ndarray:
        """Compute the similarity of the sets with these counts and summed statistics.

        Parameters
        ----------
        count : array-like of int
            Rows of each set (any shape).
        stat_sum : array-like of float
            Summed :meth:`row_statistics` of each set, of the shape of
            ``count`` plus one trailing axis of statistics.

        Returns
        -------
        ndarray of float
            The similarity of each set, of the shape of ``count``; higher is
            more homogeneous (1 for a set of identical rankings).
        """
        raise NotImplementedError

    def can_split(self, count: ArrayLike, stat_sum: ArrayLike) -> np.ndarray:
        """Tell whether nodes with these counts and sums may be split at all.

        This is beyond the tree's own limits (depth, leaf size); every node
        may be split by default.

        Parameters
        ----------
        count : array-like of int
            Rows of each node (any shape).
        stat_sum : array-like of float
            Summed :meth:`row_statistics` of each node, of the shape of
            ``count`` plus one trailing axis of statistics.

        Returns
        -------
        ndarray of bool
            True where the node may be split, of the shape of ``count``.
        """
        return np.ones(np.shape(count), dtype=bool)

    def split_score(self, count_left: ArrayLike, sum_left: ArrayLike, count_right: ArrayLike,
                    sum_right: ArrayLike) -> np.ndarray:
        """Score binary splits for the search to maximise; by default ``S_split``.

        Parameters
        ----------
        count_left : array-like of int
            Rows of the left subset of each split (any shape).
        sum_left : array-like of float
            Its summed :meth:`row_statistics`, of the shape of ``count_left``
            plus one trailing axis of statistics.
        count_right : array-like of int
            Rows of the right subset of each split, of the same shape.
        sum_right : array-like of float
            Its summed statistics, as ``sum_left``.

        Returns
        -------
        ndarray of float
            The score of each split, of the shape of the counts; higher is
            better.
        """
        return self.split_similarity(count_left, sum_left, count_right, sum_right)

    def split_similarity(self, count_left: ArrayLike, sum_left: ArrayLike, count_right: ArrayLike,
                         sum_right: ArrayLike) -> np.ndarray:
        """Compute ``S_split`` of stopping rule (6): the size-weighted mean similarity of the subsets.

        Parameters
        ----------
        count_left : array-like of int
            Rows of the left subset of each split (any shape).
        sum_left : array-like of float
            Its summed :meth:`row_statistics`, of the shape of ``count_left``
            plus one trailing axis of statistics.
        count_right : array-like of int
            Rows of the right subset of each split, of the same shape.
        sum_right : array-like of float
            Its summed statistics, as ``sum_left``.

        Returns
        -------
        ndarray of float
            ``(n_L S_L + n_R S_R) / (n_L + n_R)`` for each split, of the shape
            of the counts.
        """
        n_left, n_right = np.asarray(count_left), np.asarray(count_right)
        s_left = self.node_similarity(n_left, sum_left)
        s_right = self.node_similarity(n_right, sum_right)
        return (n_left * s_left + n_right * s_right) / (n_left + n_right)

    def gamma_breakpoint(self, similarity_parent: ArrayLike, split_score: ArrayLike) -> np.ndarray:
        """Compute the γ above which rule (6) of Rebelo, Soares & Costa (2008) accepts a split, vectorised.

        The rule splits when ``(1 + S_parent) < gamma * (1 + S_split)``, i.e. for
        ``gamma > (1 + S_parent) / (1 + S_split)``. Sides equal up to rounding
        (relative 1e-12) count as equal, so the rule stops there: running sums
        and direct sums of one set differ in the last bits, and a split that
        changes nothing (γ = 1) must not be decided by them. Returns ``inf``
        where no γ accepts the split (``S_split = -1`` or no split, NaN).

        Growth and the γ path (:mod:`rankviz.tree.gamma_path`) both decide through
        this one number, so a tree cut from the maximal tree equals the tree
        grown with that γ.

        Parameters
        ----------
        similarity_parent : array-like of float
            ``S_parent``, the similarity of each node.
        split_score : array-like of float
            ``S_split`` of each node's split (:meth:`split_similarity`, which
            trees store as ``Tree.split_score``), of the same shape; NaN for
            no split.

        Returns
        -------
        ndarray of float
            ``(1 + S_parent) / (1 + S_split)``, nudged up by the rounding
            margin; ``inf`` where no γ accepts the split.
        """
        parent_side = (1.0 + np.asarray(similarity_parent, dtype=float)) * (1.0 + 1e-12)
        split_side = 1.0 + np.asarray(split_score, dtype=float)
        with np.errstate(divide="ignore", invalid="ignore"):
            breakpoint_ = parent_side / split_side
        return np.where(split_side > 0, breakpoint_, np.inf)

    def accepts_split(self, similarity_parent: ArrayLike, split_score: ArrayLike,
                      gamma: float | ArrayLike) -> np.ndarray:
        """Apply stopping rule (6) of Rebelo, Soares & Costa (2008): True where the split is made.

        Vectorised. A split is made only when ``(1 + S_parent) < gamma * (1 + S_split)``;
        the rule stops when ``(1 + S_parent) >= gamma * (1 + S_split)``
        (equality within rounding stops; see :meth:`gamma_breakpoint`).

        Parameters
        ----------
        similarity_parent : array-like of float
            ``S_parent``, the similarity of each node.
        split_score : array-like of float
            ``S_split`` of each node's split, of the same shape; NaN for no
            split.
        gamma : float or array-like of float
            The γ of the rule, broadcast against the nodes.

        Returns
        -------
        ndarray of bool
            True where the split is made.
        """
        return np.asarray(gamma) > self.gamma_breakpoint(similarity_parent, split_score)
