"""
Fit and draw a ranking tree
===========================

A ranking tree (Rebelo, Soares & Costa (2008)) is a decision tree whose
leaves predict a ranking of labels instead of one class. Here the labels are
ten classifiers and each row is a classification task described by its
meta-features: the tree learns which classifiers to try first on a new task.

This example fits a :class:`rankviz.RankingTree` on the bundled
``metalearning`` sample, prints its rules and draws it twice with
:func:`rankviz.viz.export.export_tree`: as a static SVG figure and as the
explorable HTML view (zoom, pan, hover cards, folding).
"""

# %%
# The data
# --------
# ``load_sample`` returns a :class:`rankviz.RankingDataset`: a feature table
# ``X`` (numeric and nominal meta-features), a matrix ``Y`` of rank positions
# (1 = the most accurate classifier on that task) and the label names.

from pathlib import Path

import pandas as pd

from rankviz import RankingTree, load_sample
from rankviz.viz.export import export_tree

data = load_sample("metalearning")
print(data.name)
print(f"{data.X.shape[0]} tasks, {data.X.shape[1]} meta-features, {len(data.label_names)} labels")
print(pd.DataFrame(data.Y[:5], columns=data.label_names).astype(int).to_string())

# %%
# Fit the tree
# ------------
# ``gamma`` is the γ of the stopping rule (6) of Rebelo et al.: a node is
# split only while ``(1 + S_parent) < gamma * (1 + S_split)``, where ``S`` is
# the mean Spearman correlation of the rankings in a node. A γ just below 1
# asks a split to make its subsets clearly more homogeneous;
# ``min_samples_leaf=10`` keeps every leaf large enough to trust its mean
# ranking.

tree = RankingTree(gamma=0.995, min_samples_leaf=10)
tree.fit(data.X, data.rankings)
print(f"{tree.tree_.n_leaves} leaves, depth {tree.tree_.max_depth}")

# %%
# Each leaf predicts the mean-rank ranking of its training tasks. Here are the
# predictions for the first three tasks, best classifier first.

predicted = tree.predict(data.X.iloc[:3])
for row in predicted:
    order = sorted(range(len(row)), key=lambda j: row[j])
    print(" > ".join(data.label_names[j] for j in order[:4]), "> ...")

# %%
# The rules
# ---------
# ``export_tree(tree, "txt")`` writes one line per test and per leaf; each
# leaf names its ranking, its id, its number of training rows ``n`` and the
# similarity ``S`` of their rankings.

print(export_tree(tree, "txt").decode("utf-8"))

# %%
# A static drawing
# ----------------
# ``export_tree(tree, "svg")`` lays the tree out with Graphviz. Nodes are
# filled by ``S`` (darker = the rankings in the node agree more); the edge
# marked "yes" leads to the rows that meet the test, and each leaf lists its
# ranking, best label first.
#
# By default the figure is made for a page (16 cm wide) and levels too deep
# to stay legible at that width are cut (see the paper-figure example);
# ``width=None`` draws the whole tree at its natural size instead.

Path("metalearning_tree.svg").write_bytes(export_tree(tree, "svg", width=None))

# %%
# The explorable view
# -------------------
# ``export_tree(tree, "html", title=...)`` writes one self-contained page
# with the app's tree view: scroll to zoom, drag to pan, hover over a node
# for its ranking and statistics, click to fold a subtree.

Path("metalearning_tree.html").write_bytes(
    export_tree(tree, "html", title="Ranking tree of the metalearning sample (γ = 0.995)"))
