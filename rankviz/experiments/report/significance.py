"""Comparing several methods over several data sets, as Demšar (2006) recommends.

On the data sets × methods matrix of mean scores (one score per method and
data set, :func:`rankviz.experiments.report.results.dataset_means`):

* :func:`average_ranks` -- each data set ranks the methods (rank 1 = best,
  ties get the average rank, :func:`scipy.stats.rankdata`); the ranks are
  averaged over the data sets;
* :func:`friedman_test` -- Friedman's test of "all methods are equivalent"
  (:func:`scipy.stats.friedmanchisquare`) with the Iman-Davenport F
  correction (p-value from :data:`scipy.stats.f`);
* :func:`nemenyi_test` and :func:`critical_difference` -- the Nemenyi
  post-hoc p-values of every pair
  (:func:`scikit_posthocs.posthoc_nemenyi_friedman`) and the critical
  difference of average ranks, ``q_alpha * sqrt(k (k + 1) / (6 N))`` with
  ``q_alpha`` the studentized range quantile over ``sqrt(2)``
  (:data:`scipy.stats.studentized_range`);
* :func:`holm_wilcoxon` -- each method against a control: Wilcoxon
  signed-rank tests over the data sets
  (:func:`rankviz.experiments.statistics.paired_comparison`) with Holm's
  step-down adjustment (:func:`statsmodels.stats.multitest.multipletests`);
* :func:`compare_methods` -- all of them on a tidy results table.

Whether a measure is better higher or lower is :func:`higher_is_better`:
``HIGHER_IS_BETTER`` of :mod:`rankviz.experiments.grid` when that module
defines it, else this module's :data:`HIGHER_IS_BETTER`; measures not listed
are better higher.

References
----------
.. [1] J. Demšar, "Statistical comparisons of classifiers over multiple data
   sets", Journal of Machine Learning Research 7, pp. 1-30, 2006.
.. [2] M. Friedman, "The use of ranks to avoid the assumption of normality
   implicit in the analysis of variance", JASA 32, pp. 675-701, 1937; "A
   comparison of alternative tests of significance for the problem of m
   rankings", Ann. Math. Statist. 11, pp. 86-92, 1940.
.. [3] R. L. Iman and J. M. Davenport, "Approximations of the critical
   region of the Friedman statistic", Comm. Statist. 9, pp. 571-595, 1980.
.. [4] P. B. Nemenyi, "Distribution-free multiple comparisons", PhD thesis,
   Princeton University, 1963.
.. [5] S. Holm, "A simple sequentially rejective multiple test procedure",
   Scandinavian Journal of Statistics 6, pp. 65-70, 1979.
.. [6] M. Terpilowski, "scikit-posthocs: Pairwise multiple comparison tests
   in Python", Journal of Open Source Software 4(36), 1169, 2019.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import stats

from rankviz.experiments.report.results import dataset_means
from rankviz.experiments.statistics import paired_comparison

__all__ = [
    "HIGHER_IS_BETTER", "higher_is_better", "complete_blocks", "average_ranks", "FriedmanResult",
    "friedman_test", "nemenyi_test", "critical_difference", "holm_wilcoxon", "Significance", "compare_methods",
]

#: Measures that are better lower; every other measure is better higher.
HIGHER_IS_BETTER: dict[str, bool] = {"rank loss": False}


def higher_is_better(measure: str) -> bool:
    """Whether higher values of ``measure`` are better.

    Uses ``rankviz.experiments.grid.HIGHER_IS_BETTER`` when the grid module
    exists and defines it, else :data:`HIGHER_IS_BETTER`; unlisted measures
    are better higher.
    """
    table = HIGHER_IS_BETTER
    try:  # imported lazily: the grid runner is optional (Dask) and built apart
        from rankviz.experiments import grid
    except ImportError:
        pass
    else:
        table = getattr(grid, "HIGHER_IS_BETTER", table)
    return bool(table.get(measure, HIGHER_IS_BETTER.get(measure, True)))


def complete_blocks(scores: pd.DataFrame) -> pd.DataFrame:
    """The data sets (rows) on which every method (column) has a score.

    Raises
    ------
    ValueError
        With fewer than 2 methods, or fewer than 2 data sets scored by all
        of them: the tests compare methods across data sets.
    """
    if not isinstance(scores, pd.DataFrame):
        scores = pd.DataFrame(np.asarray(scores, dtype=float))
    scores = scores.astype(float)
    if scores.shape[1] < 2:
        raise ValueError(f"comparing methods needs at least 2 methods, got {scores.shape[1]}.")
    complete = scores.dropna(axis=0, how="any")
    if complete.shape[0] < 2:
        raise ValueError(
            "comparing methods needs at least 2 data sets on which every method has a score, got "
            f"{complete.shape[0]} (of {scores.shape[0]} data sets)."
        )
    return complete


def average_ranks(scores: pd.DataFrame, *, higher_is_better: bool = True) -> pd.Series:
    """Average rank of each method over the data sets (rank 1 = best, ties averaged).

    Parameters
    ----------
    scores : DataFrame of shape (n_datasets, n_methods)
        One score per data set (row) and method (column); data sets where a
        method has no score are left out.
    higher_is_better : bool, default=True
        The direction of the measure.

    Returns
    -------
    Series
        Indexed by method, in the columns' order.

    Examples
    --------
    >>> import pandas as pd
    >>> scores = pd.DataFrame({"a": [0.9, 0.8], "b": [0.7, 0.8]})
    >>> average_ranks(scores).tolist()
    [1.25, 1.75]
    """
    scores = complete_blocks(scores)
    values = scores.to_numpy()
    ranks = stats.rankdata(-values if higher_is_better else values, axis=1, method="average")
    return pd.Series(ranks.mean(axis=0), index=scores.columns, name="average rank")


@dataclass(frozen=True)
class FriedmanResult:
    """Friedman's test with the Iman-Davenport correction.

    Attributes
    ----------
    statistic : float
        Friedman's chi-square with ``k - 1`` degrees of freedom.
    pvalue : float
        Its upper-tail probability.
    f_statistic : float
        The Iman-Davenport ``F_F = (N - 1) chi2 / (N (k - 1) - chi2)``.
    f_pvalue : float
        Its upper-tail probability under ``F(k - 1, (k - 1)(N - 1))``.
    n_datasets, n_methods : int
        ``N`` and ``k``.
    tie_correction : bool
        Whether the chi-square is corrected for tied ranks.
    """

    statistic: float
    pvalue: float
    f_statistic: float
    f_pvalue: float
    n_datasets: int
    n_methods: int
    tie_correction: bool

    @property
    def df(self) -> tuple[int, int]:
        """Degrees of freedom of ``F_F``: ``(k - 1, (k - 1)(N - 1))``."""
        return self.n_methods - 1, (self.n_methods - 1) * (self.n_datasets - 1)


def friedman_test(scores: pd.DataFrame, *, tie_correction: bool = True) -> FriedmanResult:
    """Friedman's test that all methods perform alike, with Iman and Davenport's F.

    Parameters
    ----------
    scores : DataFrame of shape (n_datasets, n_methods)
        One score per data set and method (the direction does not matter);
        at least 3 methods (:func:`scipy.stats.friedmanchisquare`) and 2
        complete data sets.
    tie_correction : bool, default=True
        ``True``: the chi-square of :func:`scipy.stats.friedmanchisquare`,
        corrected for ties within data sets. ``False``: the uncorrected
        statistic ``12 N / (k (k + 1)) [sum_j R_j^2 - k (k + 1)^2 / 4]`` of
        Demšar (2006, eq. 2), obtained from scipy's by multiplying back its
        tie correction (the mean of :func:`scipy.stats.tiecorrect` over the
        data sets).

    Returns
    -------
    FriedmanResult

    Notes
    -----
    Demšar recommends ``F_F``: the chi-square is conservative for few data
    sets. On his Table 6 (14 data sets, 4 methods) the uncorrected
    statistic is 9.28 and ``F_F = 3.69``.
    """
    scores = complete_blocks(scores)
    n, k = scores.shape
    if k < 3:
        raise ValueError(f"Friedman's test needs at least 3 methods, got {k}; compare 2 with a Wilcoxon test.")
    values = scores.to_numpy()
    result = stats.friedmanchisquare(*values.T)
    chi2 = float(result.statistic)
    if not tie_correction:
        ranks = stats.rankdata(values, axis=1)
        chi2 *= float(np.mean([stats.tiecorrect(row) for row in ranks]))
    pvalue = float(stats.chi2.sf(chi2, k - 1))
    denominator = n * (k - 1) - chi2
    if denominator > 0:
        f_statistic = (n - 1) * chi2 / denominator
        f_pvalue = float(stats.f.sf(f_statistic, k - 1, (k - 1) * (n - 1)))
    else:  # every data set ranks the methods the same way
        f_statistic, f_pvalue = math.inf, 0.0
    return FriedmanResult(chi2, pvalue, float(f_statistic), f_pvalue, n, k, tie_correction)


def nemenyi_test(scores: pd.DataFrame) -> pd.DataFrame:
    """Nemenyi post-hoc p-values of every pair of methods.

    Parameters
    ----------
    scores : DataFrame of shape (n_datasets, n_methods)
        One score per data set and method (p-values do not depend on the
        direction).

    Returns
    -------
    DataFrame of shape (n_methods, n_methods)
        Symmetric, 1 on the diagonal, labelled by method
        (:func:`scikit_posthocs.posthoc_nemenyi_friedman`).
    """
    import scikit_posthocs  # optional dependency: the 'experiments' extra

    scores = complete_blocks(scores)
    pvalues = scikit_posthocs.posthoc_nemenyi_friedman(scores.to_numpy())
    return pd.DataFrame(pvalues.to_numpy(), index=scores.columns, columns=scores.columns)


def critical_difference(n_methods: int, n_datasets: int, alpha: float = 0.05) -> float:
    """Nemenyi's critical difference of average ranks.

    ``CD = q_alpha sqrt(k (k + 1) / (6 N))`` where ``q_alpha`` is the
    ``1 - alpha`` quantile of the studentized range of ``k`` means with
    infinite degrees of freedom divided by ``sqrt(2)``.

    Examples
    --------
    >>> round(critical_difference(4, 14, 0.05), 2)  # Demšar (2006), section 3.2.4
    1.25
    """
    if n_methods < 2 or n_datasets < 2:
        raise ValueError(
            f"the critical difference needs at least 2 methods and 2 data sets, got {n_methods} and {n_datasets}."
        )
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha}.")
    q_alpha = float(stats.studentized_range.ppf(1 - alpha, n_methods, np.inf)) / math.sqrt(2)
    return q_alpha * math.sqrt(n_methods * (n_methods + 1) / (6 * n_datasets))


def holm_wilcoxon(scores: pd.DataFrame, control: str, *, alpha: float = 0.05,
                  higher_is_better: bool = True) -> pd.DataFrame:
    """Each method against ``control``: Wilcoxon signed-rank tests, Holm-adjusted.

    Parameters
    ----------
    scores : DataFrame of shape (n_datasets, n_methods)
        One score per data set and method.
    control : str
        The method every other one is compared with.
    alpha : float, default=0.05
        Family-wise significance level of Holm's procedure.
    higher_is_better : bool, default=True
        Direction of the measure (for wins and losses).

    Returns
    -------
    DataFrame
        One row per other method: ``mean difference`` (method minus
        control), ``wins``, ``ties`` and ``losses`` of the method against
        the control over the data sets, the two-sided Wilcoxon ``p``
        (:func:`rankviz.experiments.statistics.paired_comparison`), the
        Holm-adjusted ``p (Holm)`` and ``significant`` at ``alpha``.
    """
    from statsmodels.stats.multitest import multipletests

    scores = complete_blocks(scores)
    if control not in scores.columns:
        raise ValueError(f"control {control!r} is not among the methods {list(map(str, scores.columns))}.")
    others = [method for method in scores.columns if method != control]
    rows = []
    for method in others:
        result = paired_comparison(scores[method].to_numpy(), scores[control].to_numpy())
        wins, losses = (result.wins, result.losses) if higher_is_better else (result.losses, result.wins)
        rows.append({"mean difference": result.mean_difference, "wins": wins, "ties": result.ties,
                     "losses": losses, "p": result.wilcoxon_pvalue})
    table = pd.DataFrame(rows, index=pd.Index(others, name="method"))
    reject, adjusted, _, _ = multipletests(table["p"].to_numpy(), alpha=alpha, method="holm")
    return table.assign(**{"p (Holm)": adjusted, "significant": reject})


@dataclass(frozen=True)
class Significance:
    """The comparison of the methods on one measure (see :func:`compare_methods`).

    Attributes
    ----------
    measure : str
    higher_is_better : bool
    alpha : float
    scores : DataFrame
        Data sets × methods mean scores used (complete data sets only).
    dropped_datasets : list of str
        Data sets left out because some method has no score there.
    average_ranks : Series
        Per method, rank 1 = best, sorted best first.
    friedman : FriedmanResult or None
        ``None`` with 2 methods (the Wilcoxon test then compares them).
    nemenyi : DataFrame
        Pairwise Nemenyi p-values.
    critical_difference : float
    control : str
    holm : DataFrame
        The Holm-adjusted Wilcoxon tests against ``control``.
    """

    measure: str
    higher_is_better: bool
    alpha: float
    scores: pd.DataFrame
    dropped_datasets: list[str]
    average_ranks: pd.Series
    friedman: FriedmanResult | None
    nemenyi: pd.DataFrame
    critical_difference: float
    control: str
    holm: pd.DataFrame = field(repr=False)

    @property
    def n_datasets(self) -> int:
        """``N``, the data sets compared on."""
        return int(self.scores.shape[0])

    @property
    def n_methods(self) -> int:
        """``k``, the methods compared."""
        return int(self.scores.shape[1])


def compare_methods(results: pd.DataFrame, measure: str, *, alpha: float = 0.05,
                    control: str | None = None) -> Significance:
    """Average ranks, Friedman, Nemenyi and Holm-Wilcoxon on one measure of a results table.

    Parameters
    ----------
    results : DataFrame
        The tidy results table of a grid (see
        :mod:`rankviz.experiments.report.results`).
    measure : str
        The measure compared.
    alpha : float, default=0.05
        Significance level.
    control : str, optional
        The control of the Holm comparisons; by default the method with the
        best average rank.

    Returns
    -------
    Significance
    """
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha}.")
    means = dataset_means(results, measure)
    scores = complete_blocks(means)
    dropped = [str(name) for name in means.index.difference(scores.index)]
    better_high = higher_is_better(measure)
    ranks = average_ranks(scores, higher_is_better=better_high).sort_values(kind="stable")
    chosen = str(ranks.index[0]) if control is None else str(control)
    return Significance(
        measure=measure, higher_is_better=better_high, alpha=alpha, scores=scores, dropped_datasets=dropped,
        average_ranks=ranks,
        friedman=friedman_test(scores) if scores.shape[1] >= 3 else None,
        nemenyi=nemenyi_test(scores),
        critical_difference=critical_difference(scores.shape[1], scores.shape[0], alpha),
        control=chosen,
        holm=holm_wilcoxon(scores, chosen, alpha=alpha, higher_is_better=better_high),
    )
