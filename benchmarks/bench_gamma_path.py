"""Time the γ path: re-cutting one maximal tree against growing a tree per γ.

On the metalearning sample (153 examples) and on calhousing (20640 examples,
from the benchmark folder: ``--data DIR``, see benchmarks/common.py), in one run:

* a γ slider move: ``GammaPath.tree_at`` (cut) against ``RankingTree(gamma).fit``
  (regrowth), and against scikit-learn's DecisionTreeRegressor fit with the
  same leaf limit as a reference for what one fit costs;
* leave-one-out scores on a grid of γ (metalearning): ``loo_gamma_curves``
  (n growths) against leave-one-out per γ (n growths per γ), the latter
  measured on a few γ and scaled to the grid.

Run: make bench   (or: .venv/bin/python benchmarks/bench_gamma_path.py [--data DIR])
"""

import argparse
import time

import numpy as np
from sklearn.tree import DecisionTreeRegressor

from rankviz import RankingTree, compare_methods, load_sample
from rankviz.experiments.cross_validation import loo_gamma_curves
from rankviz.features import FeatureEncoder
from common import add_data_option, load_label_ranking, median_time  # benchmarks/common.py, beside this script

GAMMAS = np.round(np.arange(0.90, 1.0505, 0.001), 3)  # the app's slider


def slider_moves(name, X, Y, min_leaf, repeats):
    maximal = RankingTree(gamma=np.inf, min_samples_leaf=min_leaf).fit(X, Y)
    path = maximal.gamma_path()
    probe = [0.98, 0.99, 0.995, 1.0]
    cut, _ = median_time(lambda: [path.tree_at(g) for g in probe], repeats)
    grow, _ = median_time(lambda: [RankingTree(gamma=g, min_samples_leaf=min_leaf).fit(X, Y) for g in probe],
                          repeats)
    # scikit-learn needs numbers: the ranking tree's own encoding (nominal values as codes).
    X_codes = FeatureEncoder().fit(X).transform(X)
    sk, _ = median_time(lambda: [DecisionTreeRegressor(min_samples_leaf=min_leaf, random_state=0)
                                 .fit(X_codes, Y) for _ in probe], repeats)
    per = len(probe)
    print(f"{name:<14} {maximal.tree_.n_leaves:>7} {cut / per * 1e3:>10.2f} {grow / per * 1e3:>12.1f} "
          f"{sk / per * 1e3:>12.1f} {grow / cut:>10.0f}x")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    add_data_option(parser)
    args = parser.parse_args()

    print("One γ slider move (median of", args.repeats, "runs, mean over 4 γ values)\n")
    print(f"{'data':<14} {'leaves':>7} {'cut [ms]':>10} {'regrow [ms]':>12} {'sklearn [ms]':>12} "
          f"{'regrow/cut':>11}")
    meta = load_sample("metalearning")
    slider_moves("metalearning", meta.X, meta.Y, 10, args.repeats)
    cal = load_label_ranking(args.data, "calhousing", required=False)
    if cal is not None:
        slider_moves("calhousing", cal.X.to_numpy(), cal.Y, 20, args.repeats)
    else:
        print(f"(calhousing skipped: not in the data home {args.data} and not downloadable; give it with --data)")

    print(f"\nLeave-one-out curves on metalearning, {len(GAMMAS)} γ values, leaf >= 10\n")
    start = time.perf_counter()
    loo_gamma_curves(meta.X, meta.Y, GAMMAS, min_samples_leaf=10)
    path_time = time.perf_counter() - start
    few = [0.98, 0.995, 1.0]
    start = time.perf_counter()
    for gamma in few:
        compare_methods({"tree": RankingTree(gamma=gamma, min_samples_leaf=10)}, meta.X, meta.Y, cv="loo")
    per_gamma = (time.perf_counter() - start) / len(few)
    print(f"γ path (153 growths):            {path_time:8.2f} s")
    print(f"leave-one-out per γ (153 each):  {per_gamma:8.2f} s per γ, "
          f"{per_gamma * len(GAMMAS):8.1f} s for the grid (scaled from {len(few)} γ)")
    print(f"ratio grid / γ path:             {per_gamma * len(GAMMAS) / path_time:8.0f}x")


if __name__ == "__main__":
    main()
