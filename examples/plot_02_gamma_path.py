"""
The γ path and the best γ
=========================

The stopping rule (6) of Rebelo, Soares & Costa (2008) splits a node only
while ``(1 + S_parent) < γ (1 + S_split)``: γ sets the size of a ranking
tree. Because the best split of a node never depends on γ, one tree grown
with ``gamma=np.inf`` holds the tree of every γ: each internal node is split
for all γ above its *breakpoint*, so the whole path is read off one fit.

This example reads the path (breakpoints and leaf counts), then scores every
γ of a grid by leave-one-out cross-validation, one maximal tree per held-out
task, and picks the γ with the best mean score.
"""

# %%
# One maximal tree
# ----------------
# Fit once with ``gamma=np.inf`` and ask for its :class:`~rankviz.tree.GammaPath`.

from pathlib import Path

import numpy as np
import pandas as pd

from rankviz import DefaultRanker, KNNRanker, RankingTree, compare_methods, load_sample
from rankviz.experiments import best_gamma, loo_gamma_curves
from rankviz.viz.export import export_tree
from rankviz.viz.figures.ranking_trees import gamma_curves as gamma_curves_figure
from rankviz.viz.figures.ranking_trees import leaf_count_curve

data = load_sample("metalearning")
maximal = RankingTree(gamma=np.inf, min_samples_leaf=5)
maximal.fit(data.X, data.rankings)
path = maximal.gamma_path()
print(f"The maximal tree has {maximal.tree_.n_leaves} leaves.")

# %%
# The tree changes only just above each breakpoint. The table lists them with
# the number of leaves the tree has just above each.

breakpoints = pd.DataFrame({
    "breakpoint γ": path.breakpoints,
    "leaves just above": path.n_leaves(np.nextafter(path.breakpoints, np.inf)),
})
print(breakpoints.to_string(index=False, float_format="%.5f"))

# %%
# ``n_leaves`` gives the size at any γ without cutting the tree:

for gamma in (0.97, 0.98, 0.99, 0.995, 1.0, 1.02):
    print(f"γ = {gamma:<6} -> {int(path.n_leaves(gamma)):3d} leaves")

# %%
# The leaf count against γ
# ------------------------
# :func:`rankviz.viz.figures.ranking_trees.leaf_count_curve` draws the exact
# step function (cf. Figure 2 of Rebelo et al.), the default γ = 0.995 marked.

gamma_range = (0.95, 1.03)
figure = leaf_count_curve(path, gamma_range, current=0.995)
figure.write_html("leaf_count.html", include_plotlyjs="directory")

# %%
# Scores against γ by leave-one-out
# ---------------------------------
# :func:`rankviz.experiments.loo_gamma_curves` grows one maximal tree per
# held-out task (153 trees) and reads the prediction at every γ of the grid
# from its path, so 81 values of γ cost no more than one. It reports the mean
# of each measure (CS, the mean Spearman correlation of Rebelo et al.; WRC;
# LRA; Kendall tau) with the half-width of its 95 % interval.

gammas = np.round(np.arange(0.95, 1.03 + 1e-9, 0.001), 3)
curves = loo_gamma_curves(data.X, data.Y, gammas, min_samples_leaf=5)
print(curves.loc[[0.96, 0.98, 0.985, 0.99, 0.995, 1.0, 1.02], ["CS", "CS ci", "Kendall tau", "leaves"]]
      .round(4).to_string())

# %%
# :func:`rankviz.experiments.best_gamma` takes the γ of the best mean score,
# the smallest among equals (the simplest tree).

gamma_cs, score_cs = best_gamma(curves, "CS")
gamma_tau, score_tau = best_gamma(curves, "Kendall tau")
print(f"best γ for CS:          {gamma_cs:.3f} (CS = {score_cs:.4f}, {int(path.n_leaves(gamma_cs))} leaves)")
print(f"best γ for Kendall tau: {gamma_tau:.3f} (tau = {score_tau:.4f})")

# %%
# To judge the curve, the same held-out tasks are scored by two baselines:
# the nearest neighbour's ranking (KNN with k = 1) and the default ranking
# (the mean ranking of all training tasks).

baseline_scores = compare_methods({"KNN (k=1)": KNNRanker(n_neighbors=1), "Default ranking": DefaultRanker()},
                                 data.X, data.Y, cv="loo")
baselines = baseline_scores.groupby("method", sort=False)[["CS", "WRC", "LRA"]].mean()
print(baselines.round(4).to_string())

# %%
# :func:`rankviz.viz.figures.ranking_trees.gamma_curves` draws the three
# measures against γ with their 95 % bands, the baselines as lines and the
# best γ of each measure as a star.

figure = gamma_curves_figure(curves, baselines=baselines.to_dict("index"), current=gamma_cs)
figure.write_html("gamma_curves.html", include_plotlyjs="directory")

# %%
# The tree at the best γ
# ----------------------
# ``path.tree_at(γ)`` cuts the maximal tree to the tree that growth with
# that γ gives, node for node; it draws like any fitted tree.

best_tree = path.tree_at(gamma_cs)
Path("best_gamma_tree.svg").write_bytes(
    export_tree(best_tree, "svg", width=None, max_labels=4, title=f"Ranking tree at γ = {gamma_cs:.3f}"))
