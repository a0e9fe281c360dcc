"""The report of a benchmark grid, written to Markdown or to one HTML file.

:func:`build_report` gathers, per measure, the mean ± sd table (layout of
Table 2 of Cheng, Hühn & Hüllermeier 2009), the wins/ties/losses matrix, the
settings chosen, and the tests Demšar (2006) recommends (Friedman with the
Iman-Davenport correction, the Nemenyi post-hoc with its critical
difference and diagram, Holm-adjusted Wilcoxon tests against a control).
:func:`write_report` writes them: ``.md`` -- Markdown with the diagrams as
``<stem>_cd_<measure>.svg`` (and ``.png``) next to it; ``.html`` -- one
self-contained page, the SVG inlined, no external resource. Names from the
data are escaped in both.

References
----------
.. [1] J. Demšar, "Statistical comparisons of classifiers over multiple data
   sets", Journal of Machine Learning Research 7, pp. 1-30, 2006.
.. [2] W. Cheng, J. Hühn and E. Hüllermeier, "Decision tree and
   instance-based learning for label ranking", ICML 2009.
.. [3] M. Friedman, JASA 32, pp. 675-701, 1937; Ann. Math. Statist. 11,
   pp. 86-92, 1940. P. B. Nemenyi, PhD thesis, Princeton, 1963. S. Holm,
   Scand. J. Statist. 6, pp. 65-70, 1979.
.. [4] M. Terpilowski, "scikit-posthocs: Pairwise multiple comparison tests
   in Python", Journal of Open Source Software 4(36), 1169, 2019.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from rankviz.experiments.report.render import html_table, markdown_table
from rankviz.experiments.report.results import check_results
from rankviz.experiments.report.significance import Significance, compare_methods
from rankviz.experiments.report.tables import DEFAULT_TIE, chosen_params, summary_table, wins_ties_losses
from rankviz.safe_text import html_text, markdown_escape
from rankviz.viz.figures.critical_difference import critical_difference_figure, figure_bytes

__all__ = ["MeasureReport", "Report", "build_report", "describe_tests", "report_archive", "report_html",
           "report_markdown", "write_report"]


@dataclass
class MeasureReport:
    """Everything the report shows for one measure.

    Attributes
    ----------
    measure : str
    summary : DataFrame
        "mean ± sd" strings (numbers in ``summary.attrs``, see
        :func:`~rankviz.experiments.report.tables.summary_table`).
    wins_ties_losses : DataFrame
        "w/t/l" strings, counts in its ``attrs``.
    significance : Significance
        Average ranks, Friedman, Nemenyi, critical difference, Holm.
    figure : matplotlib.figure.Figure
        The critical-difference diagram.
    """

    measure: str
    summary: pd.DataFrame
    wins_ties_losses: pd.DataFrame
    significance: Significance
    figure: Any = field(repr=False)


@dataclass
class Report:
    """A benchmark report: one :class:`MeasureReport` per measure, and the settings chosen.

    Attributes
    ----------
    measures : dict of str to MeasureReport
    params : DataFrame or None
        Data sets × methods, the most frequent ``params`` (``None`` without
        a ``params`` column).
    alpha : float
    tie : float
        Tolerance of a tie in the wins/ties/losses counts.
    """

    measures: dict[str, MeasureReport]
    params: pd.DataFrame | None
    alpha: float
    tie: float


def build_report(results: pd.DataFrame, measures: Sequence[str] | None = None, *, alpha: float = 0.05,
                 control: str | None = None, tie: float = DEFAULT_TIE) -> Report:
    """Compute the report of a results table without writing it.

    Parameters
    ----------
    results : DataFrame
        The tidy results table of a grid.
    measures : sequence of str, optional
        The measures reported, by default all in the table (in order of
        appearance).
    alpha : float, default=0.05
        Significance level of every test.
    control : str, optional
        Control method of the Holm comparisons; by default, per measure, the
        method with the best average rank.
    tie : float, default=1e-9
        Tolerance of a tie of two means.

    Returns
    -------
    Report

    Raises
    ------
    ValueError
        With fewer than 2 methods or 2 data sets, or an unknown measure.
    """
    check_results(results)
    if measures is None:
        measures = list(dict.fromkeys(map(str, results["measure"])))
    if isinstance(measures, str):
        measures = [measures]
    parts = {}
    for measure in measures:
        significance = compare_methods(results, measure, alpha=alpha, control=control)
        figure = critical_difference_figure(
            significance.average_ranks, significance.nemenyi, cd=significance.critical_difference,
            alpha=alpha, measure=measure, n_datasets=significance.n_datasets)
        parts[measure] = MeasureReport(measure, summary_table(results, measure, tie=tie),
                                       wins_ties_losses(results, measure, tie=tie), significance, figure)
    params = chosen_params(results) if "params" in results.columns else None
    return Report(parts, params, alpha, tie)


def _p(value: float) -> str:
    return "< 0.001" if value < 0.001 else f"= {value:.3f}"


def describe_tests(significance: Significance, escape: Callable[[object], str] = str) -> list[str]:
    """The tests' results in sentences; names pass through ``escape`` (Markdown or HTML)."""
    s, alpha = significance, significance.alpha
    ranks = ", ".join(f"{escape(method)} {rank:.3f}" for method, rank in s.average_ranks.items())
    direction = "highest" if s.higher_is_better else "lowest"
    lines = [f"Average ranks over N = {s.n_datasets} data sets (on each data set the method with the {direction} "
             f"score ranks 1, the best; ties share the average rank; lower average ranks are better): {ranks}."]
    if s.dropped_datasets:
        lines.append("Left out of the tests, as some method has no score there: "
                     + ", ".join(escape(name) for name in s.dropped_datasets) + ".")
    f = s.friedman
    if f is None:
        lines.append("With 2 methods there is no Friedman test; the Wilcoxon signed-rank test below compares them.")
    else:
        verdict = "reject" if f.f_pvalue < alpha else "do not reject"
        lines.append(
            f"Friedman test (k = {f.n_methods} methods, tie-corrected): χ²_F = {f.statistic:.3f} with "
            f"{f.n_methods - 1} degrees of freedom, p {_p(f.pvalue)}; Iman–Davenport F_F = {f.f_statistic:.3f} "
            f"with ({f.df[0]}, {f.df[1]}) degrees of freedom, p {_p(f.f_pvalue)}. At α = {alpha:g} we {verdict} "
            "the hypothesis that all methods perform alike.")
    pairs = [(a, b, s.nemenyi.at[a, b]) for i, a in enumerate(s.nemenyi.index)
             for b in s.nemenyi.columns[i + 1:] if s.nemenyi.at[a, b] < alpha]
    differing = "; ".join(f"{escape(a)} vs {escape(b)} (p {_p(p)})" for a, b, p in pairs) or "no pair"
    lines.append(f"Nemenyi post-hoc test: critical difference CD = {s.critical_difference:.3f} "
                 f"(α = {alpha:g}); pairs that differ significantly: {differing}. In the diagram, methods "
                 "joined by a bar do not differ significantly.")
    holm = s.holm
    better = [escape(m) for m in holm.index if holm.at[m, "significant"]]
    lines.append(f"Wilcoxon signed-rank tests against the control {escape(s.control)} over the data sets, "
                 f"Holm-adjusted at α = {alpha:g}: "
                 + (f"significant for {', '.join(better)}." if better else "none significant."))
    return lines


def _slug(measure: str, taken: set[str]) -> str:
    slug = re.sub(r"[^a-z0-9]+", "_", measure.lower()).strip("_") or "measure"
    candidate, i = slug, 2
    while candidate in taken:
        candidate, i = f"{slug}_{i}", i + 1
    taken.add(candidate)
    return candidate


def _number_table(table: pd.DataFrame, decimals: int = 3) -> pd.DataFrame:
    """Numbers as text: counts as integers, other numbers to ``decimals`` places."""
    def text(value):
        if isinstance(value, (str, bool, np.bool_)):
            return value
        if isinstance(value, (int, np.integer)):
            return str(value)
        return f"{value:.{decimals}f}"
    return table.map(text)


def _holm_table(s: Significance) -> pd.DataFrame:
    return _number_table(s.holm).map(lambda v: "yes" if v is True else "no" if v is False else v)


def _spread_words(part: MeasureReport) -> str:
    over = part.summary.attrs["spread"]
    return ("the mean over the folds of each repetition, then mean ± sd over the repetitions" if over == "repetitions"
            else "mean ± sd over the folds (one repetition)")


def report_markdown(report: Report, stem: str = "report") -> tuple[str, dict[str, bytes]]:
    """The report as Markdown text, and its critical-difference diagrams as files to put beside it.

    Parameters
    ----------
    report : Report
        From :func:`build_report`.
    stem : str, default="report"
        The diagrams are named ``<stem>_cd_<measure>.svg`` and ``.png``; the text links them.

    Returns
    -------
    text : str
    files : dict of str -> bytes
        File name -> content of every diagram.
    """
    taken: set[str] = set()
    figures = {m: f"{stem}_cd_{_slug(m, taken)}" for m in report.measures}
    files = {f"{figures[m]}.{fmt}": figure_bytes(part.figure, fmt)
             for m, part in report.measures.items() for fmt in ("svg", "png")}
    e = markdown_escape
    out = ["# Benchmark report", "",
           f"Significance level α = {report.alpha:g}. Tests after Demšar (2006): Friedman with the Iman–Davenport "
           "correction, Nemenyi post-hoc (scikit-posthocs), Holm-adjusted Wilcoxon tests against a control. "
           f"Best mean per data set in **bold**; means within {report.tie:g} are ties.", ""]
    for measure, part in report.measures.items():
        s = part.significance
        out += [f"## {e(measure)}", "", f"Aggregation: {_spread_words(part)}.", "",
                markdown_table(part.summary, part.summary.attrs["best"]), "",
                "### Wins/ties/losses (row method against column method, over data sets)", "",
                markdown_table(part.wins_ties_losses), "", "### Tests", ""]
        out += [f"- {line}" for line in describe_tests(s, e)] + [""]
        out += [markdown_table(_number_table(s.average_ranks.to_frame())), "",
                markdown_table(_holm_table(s)), "",
                f"![critical-difference diagram of {e(measure)}]({figures[measure]}.svg) "
                f"([PNG]({figures[measure]}.png))", ""]
    if report.params is not None:
        out += ["## Settings chosen (most frequent per method and data set)", "",
                markdown_table(report.params), ""]
    return "\n".join(out), files


def _inline_svg(figure) -> str:
    svg = figure_bytes(figure, "svg").decode("utf-8")
    svg = svg[svg.index("<svg"):]
    return re.sub(r"<!--.*?-->", "", svg, flags=re.S)


def report_html(report: Report) -> str:
    """The report as one self-contained HTML page: tables, tests in words, the diagrams inlined as SVG.

    Every name from the data is escaped (:func:`rankviz.safe_text.html_text`);
    the page loads nothing from elsewhere.
    """
    e = html_text
    body = ["<h1>Benchmark report</h1>",
            f"<p>Significance level α = {report.alpha:g}. Tests after Demšar (2006): Friedman with the "
            "Iman–Davenport correction, Nemenyi post-hoc (scikit-posthocs), Holm-adjusted Wilcoxon tests against "
            f"a control. Best mean per data set in <strong>bold</strong>; means within {report.tie:g} are ties.</p>"]
    for measure, part in report.measures.items():
        s = part.significance
        body += [f"<h2>{e(measure)}</h2>", f"<p>Aggregation: {e(_spread_words(part))}.</p>",
                 html_table(part.summary, part.summary.attrs["best"]),
                 "<h3>Wins/ties/losses (row method against column method, over data sets)</h3>",
                 html_table(part.wins_ties_losses), "<h3>Tests</h3>", "<ul>"]
        body += [f"<li>{line}</li>" for line in describe_tests(s, e)] + ["</ul>"]
        body += [html_table(_number_table(s.average_ranks.to_frame())), html_table(_holm_table(s)),
                 f'<figure>{_inline_svg(part.figure)}<figcaption>Critical-difference diagram of {e(measure)}'
                 "</figcaption></figure>"]
    if report.params is not None:
        body += ["<h2>Settings chosen (most frequent per method and data set)</h2>", html_table(report.params)]
    style = ("body{font-family:sans-serif;max-width:70em;margin:auto}table{border-collapse:collapse;margin:1em 0}"
             "td,th{border:1px solid #bbb;padding:.2em .5em}td{text-align:right}svg{max-width:100%;height:auto}")
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Benchmark report</title>\n"
            f"<style>{style}</style>\n</head>\n<body>\n" + "\n".join(body) + "\n</body>\n</html>\n")


def write_report(results: pd.DataFrame, path: str | Path, measures: Sequence[str] | None = None,
                 alpha: float = 0.05, control: str | None = None, *, tie: float = DEFAULT_TIE) -> Report:
    """Write the report of a results table to Markdown (``.md``) or HTML (``.html``).

    Parameters
    ----------
    results : DataFrame
        The tidy results table of a grid.
    path : str or Path
        Ends in ``.md``: Markdown, with each measure's critical-difference
        diagram written next to it as ``<stem>_cd_<measure>.svg`` and
        ``.png`` and linked. Ends in ``.html`` (or ``.htm``): one
        self-contained page with the diagrams inlined as SVG.
    measures, alpha, control, tie
        As in :func:`build_report`.

    Returns
    -------
    Report
        What was written, for display elsewhere (e.g. the app).
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".md", ".html", ".htm"):
        raise ValueError(f"path must end in .md or .html, got {path.name!r}.")
    report = build_report(results, measures, alpha=alpha, control=control, tie=tie)
    if suffix == ".md":
        text, files = report_markdown(report, path.stem)
        for name, content in files.items():
            path.with_name(name).write_bytes(content)
        path.write_text(text, encoding="utf-8")
    else:
        path.write_text(report_html(report), encoding="utf-8")
    return report


def report_archive(report: Report, stem: str = "benchmark_report") -> bytes:
    """The Markdown report and its diagrams in one ZIP file, built in memory (for a download)."""
    text, files = report_markdown(report, stem)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(f"{stem}.md", text)
        for name, content in files.items():
            archive.writestr(name, content)
    return buffer.getvalue()
