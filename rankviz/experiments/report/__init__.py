"""The report of a benchmark grid: tables, tests and critical-difference diagrams.

From the tidy results table a grid writes (one row per cell and measure:
``dataset``, ``method``, ``repetition``, ``fold``, ``measure``, ``value``,
``params``, ...):

* :mod:`~rankviz.experiments.report.results` -- checking and aggregating it
  (folds averaged per repetition, then mean ± sd over repetitions, or over
  folds with one repetition);
* :mod:`~rankviz.experiments.report.tables` -- mean ± sd per method and data
  set, wins/ties/losses, the settings chosen;
* :mod:`~rankviz.experiments.report.significance` -- average ranks,
  Friedman and Iman-Davenport, Nemenyi and the critical difference,
  Holm-adjusted Wilcoxon tests against a control (scipy, scikit-posthocs,
  statsmodels);
* :mod:`~rankviz.experiments.report.render` -- escaped Markdown and HTML
  tables;
* :mod:`~rankviz.experiments.report.writer` -- :func:`write_report`.

The statistics follow Demšar (2006); the diagram is
:mod:`rankviz.viz.figures.critical_difference`. Needs the ``experiments``
extra (scikit-posthocs, statsmodels through it, matplotlib).

References
----------
.. [1] J. Demšar, "Statistical comparisons of classifiers over multiple data
   sets", Journal of Machine Learning Research 7, pp. 1-30, 2006.
"""

from rankviz.experiments.report.results import aggregate, dataset_means
from rankviz.experiments.report.significance import (
    HIGHER_IS_BETTER,
    FriedmanResult,
    Significance,
    average_ranks,
    compare_methods,
    critical_difference,
    friedman_test,
    higher_is_better,
    holm_wilcoxon,
    nemenyi_test,
)
from rankviz.experiments.report.tables import chosen_params, summary_table, wins_ties_losses
from rankviz.experiments.report.writer import (MeasureReport, Report, build_report, describe_tests, report_archive,
                                               report_html, report_markdown, write_report)

__all__ = [
    "HIGHER_IS_BETTER", "FriedmanResult", "MeasureReport", "Report", "Significance", "aggregate",
    "average_ranks", "build_report", "chosen_params", "compare_methods", "critical_difference",
    "dataset_means", "describe_tests", "friedman_test", "higher_is_better", "holm_wilcoxon", "nemenyi_test",
    "report_archive", "report_html", "report_markdown", "summary_table", "wins_ties_losses", "write_report",
]
