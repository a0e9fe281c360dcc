"""Experiments: cross-validation, Monte Carlo trials, the studies of the papers, statistics.

:mod:`~rankviz.experiments.cross_validation` (leave-one-out and k-fold
scores of label rankers, γ curves by leave-one-out or k-fold, t intervals
and paired tables of their scores),
:mod:`~rankviz.experiments.monte_carlo` (the trials of Xia, Zhang & Wang
2006), :mod:`~rankviz.experiments.label_ranking_study` (the experiments of
Cheng, Hühn & Hüllermeier 2009), :mod:`~rankviz.experiments.ltr_study` (the
comparison of Zhu et al. 2009), :mod:`~rankviz.experiments.teaching` (Fig. 1
of Xia et al. as worked numbers) and :mod:`~rankviz.experiments.statistics`
(standard errors, t intervals and paired tests on :mod:`scipy.stats`);
:mod:`~rankviz.experiments.grid` runs benchmark grids (methods × data sets ×
folds), resumably, serially, in local processes or on a Dask cluster, and
:mod:`~rankviz.experiments.report` turns their results into the report
Demšar (2006) recommends.
"""

from .cross_validation import (MEASURES, best_gamma, compare_methods, cross_validate, gamma_curves,
                               loo_gamma_curves, mean_intervals, paired_scores, summarize)
from .grid import HIGHER_IS_BETTER, Protocol, read_results, run_grid
from .statistics import paired_comparison, standard_error, t_interval

__all__ = ["HIGHER_IS_BETTER", "MEASURES", "Protocol", "best_gamma", "compare_methods", "cross_validate", "gamma_curves",
           "loo_gamma_curves", "mean_intervals", "paired_comparison", "paired_scores", "read_results", "run_grid",
           "standard_error", "summarize", "t_interval"]
