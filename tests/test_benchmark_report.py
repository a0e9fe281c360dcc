"""The report of a benchmark grid (issue 17 §1): tables, Demšar's tests, diagrams, files.

Reference values: Demšar (2006), Table 6 and sections 3.2.2-3.2.4 (14 data
sets, 4 variants of C4.5, AUC): average ranks 3.143, 2.000, 2.893, 1.964;
Friedman chi-square 9.28 (without tie correction); Iman-Davenport
F_F = 3.69; CD(alpha = 0.05, k = 4, N = 14) = 1.25 (q_0.05 = 2.569).
"""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest
from scipy import stats

pytest.importorskip("scikit_posthocs")

from rankviz.experiments.report import (  # noqa: E402
    average_ranks,
    build_report,
    chosen_params,
    compare_methods,
    critical_difference,
    friedman_test,
    holm_wilcoxon,
    nemenyi_test,
    summary_table,
    wins_ties_losses,
    write_report,
)

# Demšar (2006), Table 6: AUC of C4.5 with the settings m (minimal examples in a
# leaf) and cf (confidence of pruning) tuned or not. On "voting" C4.5+cf and
# C4.5+m+cf both print as 0.975, but the paper ranks them 2 and 3 (the
# unrounded values differ); 0.9751 / 0.9749 keep that order.
DEMSAR_METHODS = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
DEMSAR_AUC = pd.DataFrame(
    [[0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569], [0.954, 0.971, 0.968, 0.967],
     [0.628, 0.661, 0.654, 0.657], [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931],
     [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625], [0.775, 0.838, 0.866, 0.875],
     [1.000, 1.000, 1.000, 1.000], [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
     [0.972, 0.981, 0.9751, 0.9749], [0.957, 0.978, 0.946, 0.970]],
    index=["adult (sample)", "breast cancer", "breast cancer wisconsin", "cmc", "ionosphere", "iris",
           "liver disorders", "lung cancer", "lymphography", "mushroom", "primary tumor", "rheum", "voting",
           "wine"],
    columns=DEMSAR_METHODS,
)


def tidy(values: dict, measure: str = "Kendall tau", params: dict | None = None) -> pd.DataFrame:
    """A results table like the grid's: ``values[dataset][method]`` = list per repetition of fold values."""
    rows = []
    for dataset, methods in values.items():
        for method, repetitions in methods.items():
            for repetition, folds in enumerate(repetitions):
                for fold, value in enumerate(folds):
                    chosen = (params or {}).get((dataset, method), {"k": 5})
                    rows.append(dict(dataset=dataset, method=method, repetition=repetition, fold=fold,
                                     measure=measure, value=value, n_train=90, n_test=10, fit_seconds=0.01,
                                     predict_seconds=0.001, params=json.dumps(chosen), missing_rate=0.0,
                                     seed=repetition, cell=f"{dataset}/{method}/{repetition}/{fold}",
                                     rankviz_version="test"))
    return pd.DataFrame(rows)


def from_matrix(matrix: pd.DataFrame, measure: str = "AUC") -> pd.DataFrame:
    """One repetition, one fold: the value is the matrix entry."""
    return tidy({d: {m: [[matrix.at[d, m]]] for m in matrix.columns} for d in matrix.index}, measure)


# --------------------------------------------------------------------------- #
# Demšar's worked example
# --------------------------------------------------------------------------- #
def test_average_ranks_are_demsars():
    ranks = average_ranks(DEMSAR_AUC)
    assert ranks.round(3).tolist() == [3.143, 2.000, 2.893, 1.964]


def test_lower_is_better_reverses_the_ranks():
    ranks = average_ranks(-DEMSAR_AUC, higher_is_better=False)
    assert ranks.round(3).tolist() == [3.143, 2.000, 2.893, 1.964]


def test_friedman_and_iman_davenport_are_demsars():
    plain = friedman_test(DEMSAR_AUC, tie_correction=False)
    assert plain.statistic == pytest.approx(9.28, abs=0.005)
    assert plain.f_statistic == pytest.approx(3.69, abs=0.005)
    assert plain.df == (3, 39)
    # Demšar: the critical value of F(3, 39) at 0.05 is 2.85, so p < 0.05.
    assert stats.f.ppf(0.95, 3, 39) == pytest.approx(2.85, abs=0.005)
    assert plain.f_pvalue < 0.05
    corrected = friedman_test(DEMSAR_AUC)
    assert corrected.statistic == pytest.approx(stats.friedmanchisquare(*DEMSAR_AUC.to_numpy().T).statistic)
    # Ties (mushroom: 4; iris, lung cancer, primary tumor: 2 each): 1 - 78 / (14 * 60).
    assert corrected.statistic == pytest.approx(plain.statistic / (1 - 78 / 840))


def test_critical_difference_is_demsars():
    assert critical_difference(4, 14, 0.05) == pytest.approx(1.25, abs=0.005)
    # q_0.05 for k = 4 in Demšar's Table 5(a): 2.569; CD = q sqrt(k (k + 1) / (6 N)).
    assert critical_difference(4, 14, 0.05) / np.sqrt(4 * 5 / (6 * 14)) == pytest.approx(2.569, abs=5e-4)
    # Table 5(a), alpha = 0.10: q = 2.291.
    assert critical_difference(4, 14, 0.10) / np.sqrt(4 * 5 / (6 * 14)) == pytest.approx(2.291, abs=5e-4)


def test_nemenyi_agrees_with_the_critical_difference():
    pvalues = nemenyi_test(DEMSAR_AUC)
    ranks = average_ranks(DEMSAR_AUC)
    cd = critical_difference(4, 14, 0.05)
    for a in DEMSAR_METHODS:
        for b in DEMSAR_METHODS:
            if a != b:  # Nemenyi significant exactly when the rank difference exceeds CD
                assert (pvalues.at[a, b] < 0.05) == (abs(ranks[a] - ranks[b]) > cd)
    # Demšar: no pair differs at 0.05 (largest difference 3.143 - 1.964 = 1.18 < 1.25).
    assert (pvalues.to_numpy() >= 0.05).all()
    assert pvalues.loc["C4.5", "C4.5+m+cf"] < 0.10


def test_holm_against_a_control_uses_wilcoxon_and_holm():
    table = holm_wilcoxon(DEMSAR_AUC, "C4.5")
    raw = [stats.wilcoxon(DEMSAR_AUC[m] - DEMSAR_AUC["C4.5"]).pvalue for m in DEMSAR_METHODS[1:]]
    assert table["p"].tolist() == pytest.approx(raw)
    order = np.argsort(raw)  # Holm by hand: (m - i) p_(i), running maximum, capped at 1
    adjusted = np.minimum(1, np.maximum.accumulate([(3 - i) * raw[j] for i, j in enumerate(order)]))
    assert table["p (Holm)"].to_numpy()[order] == pytest.approx(adjusted)
    assert table.loc["C4.5+m+cf", ["wins", "ties", "losses"]].tolist() == [11, 1, 2]


def test_compare_methods_on_a_tidy_table():
    result = compare_methods(from_matrix(DEMSAR_AUC), "AUC")
    assert result.control == "C4.5+m+cf"  # best average rank
    assert result.average_ranks.round(3).tolist() == [1.964, 2.000, 2.893, 3.143]
    assert result.friedman.f_statistic > 3.69  # tie-corrected chi-square is larger
    assert result.critical_difference == pytest.approx(1.2536, abs=1e-4)


# --------------------------------------------------------------------------- #
# Tables from a hand-made table
# --------------------------------------------------------------------------- #
HAND = {
    "d1": {"A": [[0.8, 0.6]], "B": [[0.5, 0.5]]},
    "d2": {"A": [[0.2, 0.4]], "B": [[0.35, 0.35]]},
    "d3": {"A": [[0.1, 0.1]], "B": [[0.1, 0.1]]},
}


def test_summary_table_over_folds_with_one_repetition():
    table = summary_table(tidy(HAND), "Kendall tau")
    assert table.loc["d1", "A"] == "0.700 ± 0.141"  # mean 0.7, sd sqrt(0.02) = 0.1414
    assert table.loc["d1", "B"] == "0.500 ± 0.000"
    assert table.attrs["spread"] == "folds"
    assert table.attrs["mean"].loc["d2", "A"] == pytest.approx(0.3)
    assert table.attrs["best"].loc["d1"].tolist() == [True, False]
    assert table.attrs["best"].loc["d2"].tolist() == [False, True]
    assert table.attrs["best"].loc["d3"].tolist() == [True, True]  # a tie: both best


def test_summary_table_over_repetitions():
    values = {"d1": {"A": [[0.2, 0.4], [0.6, 0.8]], "B": [[0.1, 0.1], [0.1, 0.1]]},
              "d2": {"A": [[0.5, 0.5], [0.5, 0.5]], "B": [[0.4, 0.6], [0.2, 0.2]]}}
    table = summary_table(tidy(values), "Kendall tau")
    # Repetition means of A on d1: 0.3 and 0.7 -> mean 0.5, sd sqrt(0.08) = 0.2828.
    assert table.loc["d1", "A"] == "0.500 ± 0.283"
    assert table.loc["d2", "B"] == "0.350 ± 0.212"  # 0.5 and 0.2
    assert table.attrs["spread"] == "repetitions"
    assert table.attrs["n"].loc["d1", "A"] == 2


def test_rank_loss_is_better_lower():
    table = summary_table(tidy(HAND, measure="rank loss"), "rank loss")
    assert table.attrs["best"].loc["d1"].tolist() == [False, True]


def test_wins_ties_losses():
    table = wins_ties_losses(tidy(HAND), "Kendall tau")
    assert table.loc["A", "B"] == "1/1/1"
    assert table.attrs["wins"].loc["A", "B"] == 1
    assert table.loc["B", "A"] == "1/1/1"
    lopsided = {d: {"A": [[v + 0.1]], "B": [[v]]} for d, v in [("d1", 0.1), ("d2", 0.2), ("d3", 0.3)]}
    lopsided["d4"] = {"A": [[0.5]], "B": [[0.5]]}
    assert wins_ties_losses(tidy(lopsided), "Kendall tau").loc["A", "B"] == "3/1/0"
    assert wins_ties_losses(tidy(lopsided, "rank loss"), "rank loss").loc["A", "B"] == "0/1/3"
    # A wider tolerance turns the 0.1 differences into ties.
    assert wins_ties_losses(tidy(lopsided), "Kendall tau", tie=0.2).loc["A", "B"] == "0/4/0"


def test_chosen_params_are_the_most_frequent():
    results = tidy(HAND)
    results.loc[(results["dataset"] == "d1") & (results["method"] == "A") & (results["fold"] == 0),
                "params"] = json.dumps({"k": 9})
    extra = results.iloc[[0]].assign(fold=2, params=json.dumps({"k": 5}))
    table = chosen_params(pd.concat([results, extra]))
    assert json.loads(table.loc["d1", "A"]) == {"k": 5}
    assert json.loads(table.loc["d2", "B"]) == {"k": 5}


# --------------------------------------------------------------------------- #
# Too little data
# --------------------------------------------------------------------------- #
def test_one_data_set_is_refused():
    with pytest.raises(ValueError, match="at least 2 data sets"):
        compare_methods(tidy({"d1": HAND["d1"]}), "Kendall tau")


def test_one_method_is_refused():
    with pytest.raises(ValueError, match="at least 2 methods"):
        compare_methods(tidy({d: {"A": v["A"]} for d, v in HAND.items()}), "Kendall tau")


def test_friedman_needs_three_methods_and_an_unknown_measure_is_named():
    with pytest.raises(ValueError, match="at least 3 methods"):
        friedman_test(DEMSAR_AUC.iloc[:, :2])
    with pytest.raises(ValueError, match="no results for the measure 'CS'"):
        compare_methods(tidy(HAND), "CS")
    with pytest.raises(ValueError, match="lacks the column"):
        build_report(tidy(HAND).drop(columns="fold"))


def test_incomplete_data_sets_are_left_out_of_the_tests():
    results = from_matrix(DEMSAR_AUC)
    results = results[~((results["dataset"] == "wine") & (results["method"] == "C4.5"))]
    result = compare_methods(results, "AUC")
    assert result.dropped_datasets == ["wine"] and result.n_datasets == 13


# --------------------------------------------------------------------------- #
# Files
# --------------------------------------------------------------------------- #
HOSTILE = "<img src=x onerror=alert(1)>"


def hostile_results() -> pd.DataFrame:
    names = {"A": HOSTILE, "B": "a|b", "C": "`code` *x*"}
    matrix = DEMSAR_AUC.iloc[:, :3].rename(columns={"C4.5": "A", "C4.5+m": "B", "C4.5+cf": "C"})
    matrix = matrix.rename(columns=names).rename(index={"iris": "iris <b>bold</b>"})
    return pd.concat([from_matrix(matrix, "Kendall tau"), from_matrix(-matrix, "rank loss")])


def test_markdown_report(tmp_path):
    path = tmp_path / "grid.md"
    report = write_report(hostile_results(), path)
    text = path.read_text(encoding="utf-8")
    for stem in ("grid_cd_kendall_tau", "grid_cd_rank_loss"):
        assert (tmp_path / f"{stem}.svg").read_bytes().lstrip().startswith(b"<?xml")
        assert (tmp_path / f"{stem}.png").read_bytes().startswith(b"\x89PNG")
        assert f"]({stem}.svg)" in text
    assert "## Kendall tau" in text and "## rank loss" in text
    assert "Friedman test" in text and "Iman–Davenport" in text and "critical difference CD = " in text
    assert HOSTILE not in text and "<b>" not in text
    assert "\\<img src=x onerror=alert\\(1\\)\\>" in text
    assert "a\\|b" in text and "\\`code\\` \\*x\\*" in text
    # Every table row has as many cells as its header (no stray | from a name).
    for block in re.findall(r"(?:^\|.*\|\n)+", text, flags=re.M):
        widths = {len(re.split(r"(?<!\\)\|", line)) for line in block.splitlines()}
        assert len(widths) == 1, block
    bold = report.measures["Kendall tau"].summary.attrs["best"]
    assert bold.to_numpy().sum() >= 14
    assert "**0.798" not in text  # C4.5+m+cf is not in this table
    assert "**0.771 ± " not in text and "**0.771**" in text  # one fold: no sd; best of adult bold
    assert set(report.measures) == {"Kendall tau", "rank loss"}


def test_html_report_is_self_contained_and_escaped(tmp_path):
    path = tmp_path / "grid.html"
    report = write_report(hostile_results(), path, measures=["Kendall tau"], control="a|b")
    text = path.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    assert text.count("<svg") == 1 and "</svg>" in text
    assert "<img" not in text and "<b>" not in text and "<script" not in text
    assert "&lt;img src=x onerror=alert(1)&gt;" in text and "iris &lt;b&gt;bold&lt;/b&gt;" in text
    assert not re.search(r"(?:src|href)=\"(?:https?:)?//", text)  # no external resources
    assert "<table>" in text and "<strong>0.771</strong>" in text
    assert report.measures["Kendall tau"].significance.control == "a|b"
    assert "against the control a|b" in text


def test_report_refuses_other_suffixes(tmp_path):
    with pytest.raises(ValueError, match=r"\.md or \.html"):
        write_report(hostile_results(), tmp_path / "grid.txt")
