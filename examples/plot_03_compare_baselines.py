"""
Compare a ranking tree with baselines
=====================================

Is a ranking tree better than simpler ways to rank? Rebelo, Soares & Costa
(2008) compare it with two baselines on the same held-out examples: the
ranking of the nearest neighbour (KNN with k = 1, after Brazdil, Soares &
Costa (2003)) and the default ranking, the mean ranking of all training
examples, which ignores the features.

This example scores the three methods by cross-validation (10 folds, repeated
five times with new shuffles) on the ``metalearning`` sample with
:func:`rankviz.compare_methods`, summarises
the scores with :func:`rankviz.summarize` and compares the tree with each
baseline by paired tests on the same held-out tasks
(:func:`rankviz.experiments.paired_comparison`).
"""

# %%
# Score every method on every held-out task
# -----------------------------------------
# ``compare_methods`` clones each method per fold and returns one row per
# (method, held-out example, repetition) with four measures: CS (Spearman's
# correlation with the true ranking), WRC (a correlation that weighs the top
# positions more), LRA (a log-ranking accuracy) and Kendall's tau. All are 1
# for the true ranking. ``cv="loo"`` would run leave-one-out, as Rebelo et
# al. do (153 fits per method instead of 50).

import pandas as pd

from rankviz import DefaultRanker, KNNRanker, RankingTree, compare_methods, load_sample, summarize
from rankviz.experiments import mean_intervals, paired_comparison, paired_scores
from rankviz.viz.figures.ranking_trees import metric_bars

data = load_sample("metalearning")
methods = {
    "Ranking tree": RankingTree(gamma=0.995, min_samples_leaf=10),
    "KNN (k=1)": KNNRanker(n_neighbors=1),
    "Default ranking": DefaultRanker(),
}
scores = compare_methods(methods, data.X, data.Y, cv=10, repetitions=5, seed=0)
print(scores.head(6).round(4).to_string(index=False))

# %%
# Summaries
# ---------
# ``summarize`` gives the mean, standard deviation and count of every measure
# per method (over all held-out rows of all repetitions).

print(summarize(scores).round(4).to_string())

# %%
# ``mean_intervals`` gives each mean with the half-width of its 95 %
# Student-t interval over the held-out tasks (each task's scores first
# averaged over the repetitions, so it counts once).

print(mean_intervals(scores).round(4).to_string())

# %%
# The means with their intervals, as a chart. ``metric_bars`` computes its
# intervals over the rows it is given, so it gets one row per task (the
# scores averaged over the repetitions), as ``mean_intervals`` does.

measures = ["CS", "WRC", "LRA", "Kendall tau"]
per_task = scores.groupby(["method", "example"], sort=False)[measures].mean().reset_index()
figure = metric_bars(per_task, measures=measures)
figure.write_html("mean_scores.html", include_plotlyjs="directory")

# %%
# Paired tests
# ------------
# The intervals of the means overlap, but every method is scored on the same
# 153 tasks in the same folds, so the differences can be compared task by
# task.
# :func:`rankviz.experiments.paired_comparison` takes two aligned score
# vectors and returns the mean difference with its 95 % interval, the paired
# t-test and Wilcoxon signed-rank p-values, and the wins, ties and losses of
# the first method.

cs = scores.groupby(["example", "method"])["CS"].mean().unstack("method")  # one CS per task and method
rows = []
for baseline in ("KNN (k=1)", "Default ranking"):
    result = paired_comparison(cs["Ranking tree"], cs[baseline])
    rows.append({"tree vs": baseline, **result.as_dict()})
table = pd.DataFrame(rows).set_index("tree vs")
print(table[["n_queries", "mean_a", "mean_b", "mean_difference", "ci_low", "ci_high", "t_pvalue",
             "wilcoxon_pvalue", "wins", "ties", "losses"]].round(4).T)

# %%
# :func:`rankviz.experiments.paired_scores` does the same from the scores
# table for one measure, the reference method against every other (here
# Kendall's tau; the t-test is left out, the Wilcoxon test kept).

print(paired_scores(scores, "Ranking tree", "Kendall tau").round(4).to_string(index=False))
