"""Partial label ranking (rankings with ties): rankviz against scikit-lr on the same folds, scored by τx.

On each partial-ranking set of Alfaro, Aledo & Gámez (--datasets, default
every ``*-partial`` set the data home has or can download), one shuffled
10-fold cross-validation (--folds, --seed); the mean over the held-out rows
of Emond & Mason's τx (:func:`rankviz.label_ranking.tau_x`). rankviz's
methods predict bucket orders by default on such data
(``consensus="auto"``, BPA-LIA-MP2 with β = 0.25):

* tree (entropy): ``RankingTree(criterion="pairwise_entropy")`` grown until
  its nodes are pure (leaf size 1, γ = ∞), as scikit-lr grows its tree;
* tree (tuned): :class:`rankviz.RankingTreeCV`, leaf size and γ by inner
  10-fold CV on τx (its default; mean-Spearman splits);
* IBLR, kNN: ``n_neighbors="auto", beta="auto"`` (k and the tie threshold β
  of the bucket order by inner 5-fold CV on τx), the bucket order of the
  neighbours (IBLR's weighted by Dudani's distance weights); "IBLR (β 0.25)"
  keeps the reference's β;
* forest: :class:`rankviz.RankingForest` of --trees trees, nothing tuned;
* only when named in --methods: "tree (tuned, entropy)", the tuned tree of the
  pairwise entropy, and "tree (tuned, either)", whichever of the two tuned
  trees scores higher in its inner CV.

--repeats R repeats the CV with seeds --seed .. --seed + R - 1 (both libraries
on the same folds) and gives the mean (5 x 10-fold, as the field reports).

With --sklr-python PATH (a Python that imports ``sklr``, scikit-lr), the same
folds are run there: ``DecisionTreePartialLabelRanker(random_state=0)`` and
``KNeighborsPartialLabelRanker`` with k chosen by scikit-learn's
``GridSearchCV`` (5 shuffled inner folds, τx) over the grid rankviz searches
first (1, 3, ..., 101, cut to the inner training size). Without it, the
README values of the data home (scikit-lr 0.3.0, other folds) are shown.
--table writes the table as Markdown.

Run: .venv/bin/python benchmarks/bench_partial_rankings.py [--data DIR] [--datasets iris-partial ...]
     [--folds 10] [--seed 0] [--repeats 1] [--trees 50] [--methods ...] [--sklr-python PATH] [--table PATH.md]
Prints numbers only; nothing here asserts on accuracy or timing.
"""

import argparse
import json
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
from common import add_data_option, load_label_ranking, machine
from scipy.stats import rankdata
from sklearn.model_selection import KFold

from rankviz import IBLR, KNNRanker, RankingForest, RankingTree, RankingTreeCV
from rankviz.datasets import available_label_ranking_sets
from rankviz.label_ranking import tau_x
from rankviz.label_ranking.neighbourhood_size import DEFAULT_K_GRID

#: scikit-lr 0.3.0 on these files (the data home's README; 10-fold, its own folds): tree, kNN.
README_SKLR = {"iris": (.909, .911), "breast": (.762, .755), "wine": (.811, .828), "glass": (.765, .746),
               "ecoli": (.752, .768), "libras": (.644, .682), "vowel": (.716, .754), "vehicle": (.786, .753),
               "authorship": (.766, .831)}

class EitherTunedTree:
    """The tuned tree of mean Spearman or of the pairwise entropy, whichever scores higher in its inner CV (the
    same inner folds; a tie keeps mean Spearman)."""

    def fit(self, X, Y):
        fits = [RankingTreeCV(criterion=criterion).fit(X, Y) for criterion in ("mean_spearman", "pairwise_entropy")]
        self.chosen_ = max(fits, key=lambda fit: fit.best_score_)  # the first of equal scores
        return self

    def predict(self, X):
        return self.chosen_.predict(X)


METHODS = {
    "tree (entropy)": lambda trees: RankingTree(criterion="pairwise_entropy", gamma=np.inf, min_samples_leaf=1),
    "tree (tuned)": lambda trees: RankingTreeCV(),
    "tree (tuned, entropy)": lambda trees: RankingTreeCV(criterion="pairwise_entropy"),
    "tree (tuned, either)": lambda trees: EitherTunedTree(),
    "IBLR": lambda trees: IBLR(n_neighbors="auto", beta="auto"),
    "IBLR (β 0.25)": lambda trees: IBLR(n_neighbors="auto"),
    "kNN": lambda trees: KNNRanker(n_neighbors="auto", beta="auto"),
    "forest": lambda trees: RankingForest(n_estimators=trees, random_state=0),
}

# Run by --sklr-python on one file: the folds and the dense ranks in, the per-fold τx out (JSON).
SKLR_SCRIPT = """
import json, sys
import numpy as np
from sklearn.model_selection import GridSearchCV, KFold
from sklearn.metrics import make_scorer
from sklr.metrics import tau_x_score
from sklr.neighbors import KNeighborsPartialLabelRanker
from sklr.tree import DecisionTreePartialLabelRanker
data = np.load(sys.argv[1])
X, Y, fold_of_row, grid = data["X"], data["Y"].astype(np.int64), data["fold"], [int(k) for k in data["grid"]]
scores = {"tree": [], "kNN": []}
for k in range(fold_of_row.max() + 1):
    train, test = fold_of_row != k, fold_of_row == k
    tree = DecisionTreePartialLabelRanker(random_state=0).fit(X[train], Y[train])
    scores["tree"].append(float(tau_x_score(Y[test], tree.predict(X[test]))))
    inner = KFold(5, shuffle=True, random_state=0)
    cut = sorted({min(g, int(train.sum() * 4 // 5)) for g in grid})
    search = GridSearchCV(KNeighborsPartialLabelRanker(), {"n_neighbors": cut}, cv=inner,
                          scoring=make_scorer(tau_x_score)).fit(X[train], Y[train])
    scores["kNN"].append(float(tau_x_score(Y[test], search.predict(X[test]))))
print(json.dumps(scores))
"""


def sklr_scores(python: str, X: np.ndarray, Y: np.ndarray, fold_of_row: np.ndarray) -> dict[str, float]:
    """scikit-lr's tree and kNN on the same folds, run by ``python``: the mean τx over the rows."""
    dense = np.vstack([rankdata(row, method="dense") for row in Y])  # scikit-lr reads dense bucket numbers
    with tempfile.TemporaryDirectory() as folder:
        arrays = Path(folder) / "fold.npz"
        np.savez(arrays, X=X, Y=dense, fold=fold_of_row, grid=np.array(DEFAULT_K_GRID))
        out = subprocess.run([python, "-c", SKLR_SCRIPT, str(arrays)], capture_output=True, text=True, check=True)
    per_fold = json.loads(out.stdout)
    sizes = np.bincount(fold_of_row)
    return {name: float(np.average(values, weights=sizes)) for name, values in per_fold.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_option(parser)
    parser.add_argument("--datasets", nargs="*", help="partial-ranking set names (default: every one available)")
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=1,
                        help="repetitions of the CV (seeds --seed, --seed + 1, ...): the table gives their mean")
    parser.add_argument("--trees", type=int, default=50, help="trees of the forest")
    parser.add_argument("--methods", nargs="*", choices=list(METHODS),
                        default=[m for m in METHODS if m not in ("tree (tuned, entropy)", "tree (tuned, either)")])
    parser.add_argument("--sklr-python", help="a Python that imports scikit-lr (sklr), to run it on the same folds")
    parser.add_argument("--table", type=Path, help="write the table as Markdown here")
    args = parser.parse_args()
    print(machine())
    names = args.datasets or available_label_ranking_sets("partial")
    header = ["data set", "rows × features, labels", *args.methods,
              *(["scikit-lr tree", "scikit-lr kNN"] if args.sklr_python else ["scikit-lr tree*", "scikit-lr kNN*"])]
    lines = []
    for name in names:
        data = load_label_ranking(args.data, name, required=bool(args.datasets))
        if data is None:
            continue
        X, Y = np.asarray(data.X, dtype=float), np.asarray(data.Y, dtype=float)
        folds_of_rows = []
        for repeat in range(args.repeats):
            fold_of_row = np.empty(len(Y), dtype=int)
            for k, (_, test) in enumerate(KFold(args.folds, shuffle=True, random_state=args.seed + repeat).split(X)):
                fold_of_row[test] = k
            folds_of_rows.append(fold_of_row)
        short = name.removesuffix("-partial")
        row = [short, f"{X.shape[0]:,} × {X.shape[1]}, {Y.shape[1]}"]
        for method in args.methods:
            start, scores = time.process_time(), []
            for fold_of_row in folds_of_rows:
                values = []
                for k in range(args.folds):
                    train, test = fold_of_row != k, fold_of_row == k
                    model = METHODS[method](args.trees).fit(X[train], Y[train])
                    values.append(tau_x(Y[test], model.predict(X[test])))
                scores.append(float(np.nanmean(np.concatenate(values))))
            score = float(np.mean(scores))
            row.append(f"{score:.3f}")
            print(f"{short:12s} {method:22s} τx {score:.3f} (per repetition {', '.join(f'{v:.4f}' for v in scores)}; "
                  f"{time.process_time() - start:.1f} s CPU)", flush=True)
        if args.sklr_python:
            start = time.perf_counter()
            runs = [sklr_scores(args.sklr_python, X, Y, fold_of_row) for fold_of_row in folds_of_rows]
            theirs = {part: float(np.mean([run[part] for run in runs])) for part in ("tree", "kNN")}
            row += [f"{theirs['tree']:.3f}", f"{theirs['kNN']:.3f}"]
            trees = ", ".join(f"{run['tree']:.4f}" for run in runs)
            print(f"{short:12s} scikit-lr        tree {theirs['tree']:.3f}, kNN {theirs['kNN']:.3f} (per repetition, "
                  f"tree {trees}; {time.perf_counter() - start:.1f} s)", flush=True)
        else:
            row += [f"{v:.3f}" for v in README_SKLR[short]] if short in README_SKLR else ["—", "—"]
        lines.append(row)
    table = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)] + ["| " + " | ".join(r) + " |" for r in lines]
    note = ("" if args.sklr_python else
            "\n\\* scikit-lr 0.3.0 as the data home's README gives it (10-fold, other folds).\n")
    text = "\n".join(table) + "\n" + note
    print(text)
    if args.table:
        args.table.parent.mkdir(parents=True, exist_ok=True)
        runs = (f"one shuffled {args.folds}-fold CV (seed {args.seed})" if args.repeats == 1 else
                f"the mean of {args.repeats} shuffled {args.folds}-fold CVs (seeds {args.seed}-{args.seed + args.repeats - 1})")
        args.table.write_text(f"τx, {runs}; {machine()}\n\n{text}", encoding="utf-8")


if __name__ == "__main__":
    main()
