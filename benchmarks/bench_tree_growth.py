"""Time growing a ranking tree against scikit-learn's DecisionTreeRegressor.

Both grow on the same rank matrix of calhousing.csv from the benchmark folder
(``--data DIR``, see benchmarks/common.py; 20640 examples, 4 attributes, 4 labels) with the same depth and leaf limits,
in the same run. The regressor (multi-output squared error, Cython) is the
reference for what a fast tree grower costs; the ranking tree's criterion
(mean pairwise Spearman) is different but needs the same running sums.

Run: make bench   (or: .venv/bin/python benchmarks/bench_tree_growth.py [--data DIR])
Prints the median of several repeats and the ratio ours / scikit-learn.
"""

import argparse

import numpy as np
from sklearn.tree import DecisionTreeRegressor

from rankviz import RankingTree
from common import add_data_option, load_label_ranking, median_time  # benchmarks/common.py, beside this script


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_data_option(parser)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    dataset = load_label_ranking(args.data, "calhousing")
    X, Y = dataset.X.to_numpy(), dataset.Y
    print(f"calhousing.csv: {X.shape[0]} examples, {X.shape[1]} attributes, {Y.shape[1]} labels; "
          f"median of {args.repeats} runs\n")
    print(f"{'setting':<40} {'nodes (ours/sk)':>16} {'ours [s]':>9} {'sklearn [s]':>12} {'ratio':>7}")
    settings = [
        ("defaults: γ=0.995, leaf >= 2", dict(), dict(min_samples_leaf=2)),
        ("γ=0.995, leaf >= 5", dict(gamma=0.995, min_samples_leaf=5), dict(min_samples_leaf=5)),
        ("maximal tree (γ=∞), leaf >= 5", dict(gamma=np.inf, min_samples_leaf=5), dict(min_samples_leaf=5)),
        ("maximal tree (γ=∞), depth <= 8", dict(gamma=np.inf, max_depth=8), dict(max_depth=8)),
    ]
    ratios = []
    for label, ours_params, sk_params in settings:
        ours_time, ours = median_time(lambda: RankingTree(**ours_params).fit(X, Y), args.repeats)
        # Same limits, and the depth the ranking tree reached, so neither grows further.
        sk_params = {"max_depth": ours.tree_.max_depth, **sk_params}
        sk_time, sk = median_time(lambda: DecisionTreeRegressor(random_state=0, **sk_params).fit(X, Y),
                                  args.repeats)
        ratios.append(ours_time / sk_time)
        print(f"{label:<40} {ours.tree_.node_count:>7}/{sk.tree_.node_count:<8} "
              f"{ours_time:>9.3f} {sk_time:>12.3f} {ratios[-1]:>7.2f}")
    print(f"\ngeometric mean ratio ours / scikit-learn: {np.exp(np.mean(np.log(ratios))):.2f} (target <= 2)")


if __name__ == "__main__":
    main()
