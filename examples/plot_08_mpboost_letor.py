"""
MPBoost on LETOR data with a group file
=======================================

Learning to rank orders the documents retrieved for a query. MPBoost, the
magnitude-preserving boosting of Zhu et al. (2009), learns a sum of decision
stumps from pairs of documents of one query with different relevance
grades; each pair weighs by a *directed distance* that grows with the gap
between the grades, so a very relevant document ranked below an irrelevant
one costs more than two neighbouring grades swapped.

This example writes the bundled learning-to-rank sample in the svmlight /
LETOR format with its queries in a separate group file (as LightGBM's
``.query`` and XGBoost's ``.group`` files hold them), reads it back, fits
:class:`rankviz.MPBoost` and compares it with two baselines by NDCG@k.
"""

# %%
# The data
# --------
# :func:`rankviz.load_ltr_sample` returns the train, validation and test
# splits as :class:`rankviz.QueryDataset` objects: features ``X``, graded
# relevance (0 to 4) and the query id ``qid`` of every document.

import re
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from rankviz import MPBoost, load_ltr_sample, load_svmlight
from rankviz.datasets import dump_svmlight
from rankviz.experiments import paired_comparison, t_interval
from rankviz.ltr import BestSingleFeature, RandomOrder, mean_ndcg, ndcg_at_ks
from rankviz.viz.dot import additive_model_to_dot, stumps_to_dot
from rankviz.viz.export import export_drawing
from rankviz.viz.figures.ltr import ndcg_by_k_figure, rounds_figure

splits = load_ltr_sample()
for name, split in splits.items():
    print(f"{name:>5}: {split.n_queries} queries, {split.n_docs} documents, {split.n_features} features, "
          f"relevance {split.relevance.min():.0f}..{split.relevance.max():.0f}")

# %%
# Write svmlight files and group files
# ------------------------------------
# :func:`rankviz.datasets.dump_svmlight` writes one line per document,
# ``rel qid:Q 1:v 2:v ...``. A group file instead lists the size of each
# query, one number per line, for a data file whose documents come query
# after query; its lines then need no ``qid:``. Here the ``qid:`` tokens are
# stripped, as in files made for LightGBM or XGBoost.

workdir = tempfile.TemporaryDirectory(prefix="rankviz_letor_")
folder = Path(workdir.name)
for name, split in splits.items():
    assert np.all(np.diff(split.query_index) >= 0), "the documents of a query must be contiguous"
    dump_svmlight(split, folder / f"{name}.txt")
    text = (folder / f"{name}.txt").read_text(encoding="utf-8")
    (folder / f"{name}.txt").write_text(re.sub(r" qid:\S+", "", text), encoding="utf-8")
    (folder / f"{name}.txt.group").write_text("".join(f"{size}\n" for size in split.query_sizes))
print(sorted(path.name for path in folder.iterdir()))
print((folder / "train.txt").read_text().splitlines()[0][:90], "...")
print("train.txt.group starts:", (folder / "train.txt.group").read_text().split()[:6])

# %%
# Read them back
# --------------
# :func:`rankviz.load_svmlight` takes the group file as ``query_file``; the
# queries are then numbered 1, 2, ... in file order. ``n_features`` makes the
# validation and test sets as wide as the training set, whatever the largest
# index in their files.

train = load_svmlight(folder / "train.txt", query_file=folder / "train.txt.group")
vali = load_svmlight(folder / "vali.txt", query_file=folder / "vali.txt.group", n_features=train.n_features)
test = load_svmlight(folder / "test.txt", query_file=folder / "test.txt.group", n_features=train.n_features)
print(train)
print("same documents as written:", np.array_equal(train.X, splits["train"].X),
      np.array_equal(train.relevance, splits["train"].relevance),
      np.array_equal(train.query_sizes, splits["train"].query_sizes))
workdir.cleanup()  # the data are in memory now

# %%
# Fit MPBoost
# -----------
# ``fit`` needs the query of every document (``qid=``). The directed distance
# is LOGDD, the default; 200 rounds add 200 stumps.

model = MPBoost(n_rounds=200).fit(train.X, train.relevance, qid=train.qid)
print(f"{model.n_rounds_} stumps on {len(np.unique(model.feature_))} features; "
      f"{model.n_pairs_:,} training pairs")
print(model.stumps_frame(train.feature_names).head(8).round(4).to_string(index=False))

# %%
# NDCG@10 after every round on the three splits; the round with the best
# validation NDCG is a fair number of rounds to keep.

k = 10
curves = {}
for name, split in (("train", train), ("validation", vali), ("test", test)):
    staged = model.staged_scores(split.X)
    curves[name] = np.array([mean_ndcg(split.relevance, staged[:, t], split.qid, ks=[k])[0]
                             for t in range(model.n_rounds_)])
best_round = int(np.argmax(curves["validation"])) + 1
print(f"best validation NDCG@{k}: {curves['validation'].max():.4f} after {best_round} rounds")
figure = rounds_figure(curves, k, n_rounds=model.n_rounds_, best_round=best_round)
figure.write_html("ndcg_by_round.html", include_plotlyjs="directory")

# %%
# Against the baselines
# ---------------------
# ``BestSingleFeature`` orders the documents by the one feature (and sign)
# that ranks the training queries best; ``RandomOrder`` shuffles them. All
# three are scored on the test queries by NDCG@1..10
# (:func:`rankviz.ltr.ndcg_at_ks`, one row per query).

final = model.truncated(best_round)
rankers = {
    "logdd": ("MPBoost (LOGDD)", final),
    "best_feature": ("Best single feature", BestSingleFeature(k=k).fit(train.X, train.relevance, qid=train.qid)),
    "random": ("Random order", RandomOrder(random_state=0).fit(train.X)),
}
ks = list(range(1, 11))
per_query, rows = {}, []
for method, (title, ranker) in rankers.items():
    per_query[method] = ndcg_at_ks(test.relevance, ranker.predict(test.X), test.qid, ks=ks)
    for column, cutoff in enumerate(ks):
        mean, half = t_interval(per_query[method][:, column])
        rows.append({"method": method, "title": title, "k": cutoff, "mean": mean, "ci": half})
summary = pd.DataFrame(rows)
print(summary.pivot(index="title", columns="k", values="mean").loc[[t for t, _ in rankers.values()]]
      .round(4).to_string())
best = rankers["best_feature"][1]
print(f"best single feature: {train.feature_names[best.feature_]} (sign {best.sign_:+d})")

# %%
# :func:`rankviz.ltr.mean_ndcg` gives the mean directly; the paired test on
# the per-query NDCG@10 says whether MPBoost beats the best feature on the
# same test queries.

print("mean NDCG@1, @5, @10 of MPBoost:", mean_ndcg(test.relevance, final.predict(test.X), test.qid,
                                                    ks=[1, 5, 10]).round(4))
result = paired_comparison(per_query["logdd"][:, -1], per_query["best_feature"][:, -1])
print(f"NDCG@10, MPBoost - best feature: {result.mean_difference:+.4f} "
      f"[{result.ci_low:+.4f}, {result.ci_high:+.4f}], Wilcoxon p = {result.wilcoxon_pvalue:.3g}, "
      f"wins/ties/losses {result.wins}/{result.ties}/{result.losses} over {result.n_queries} queries")

figure = ndcg_by_k_figure(summary)
figure.write_html("ndcg_by_k.html", include_plotlyjs="directory")

# %%
# The stumps
# ----------
# :func:`rankviz.viz.dot.stumps_to_dot` draws the latest stumps, each a test
# ``x_k > t`` adding its height to the score of the documents that pass (the
# newest outlined); :func:`rankviz.viz.export.export_drawing` lays the DOT
# out as SVG at a chosen width, here 16 cm.

dot = stumps_to_dot(final, train.feature_names, last=4, title=f"The last 4 of {final.n_rounds_} stumps")
Path("mpboost_stumps.svg").write_bytes(export_drawing(dot, "svg", width=16, unit="cm"))

# %%
# :func:`rankviz.viz.dot.additive_model_to_dot` regroups the same sum by
# feature: each feature's contribution to the score is a step function.
# The four features with the largest total gain are drawn, at the natural
# size; the informative features of the synthetic data are ``f1`` to ``f8``.

dot = additive_model_to_dot(final, train.feature_names, max_features=4, max_steps=6,
                            title="MPBoost as a sum of step functions")
Path("mpboost_additive.svg").write_bytes(export_drawing(dot, "svg"))
