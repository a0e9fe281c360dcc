"""Ordinal trees of Xia, Zhang & Wang (2006): rank loss of ranking impurity vs Gini, and fit time vs scikit-learn.

(a) The Table I setting of Xia et al. (§IV-A): 50,000 training and 1,000 test rows
    drawn fresh from :func:`rankviz.ordinal.synthetic.make_ordinal_square` in every
    Monte Carlo trial, trees of depth 9 (median leaves). Prints the mean
    absolute rank loss ``1/T sum |y_hat - y|`` with the half-width of its
    Student-t 95% confidence interval, and the mean loss at every depth 0..9
    (Fig. 2 of Xia et al.), all depths from one fit (``OrdinalTree.predict_by_depth``).
    Both trees see the same data in a trial, so the difference Gini - ranking
    impurity is paired and gets its own interval.
(b) Fit time of a depth-9 tree on 50,000 rows with each criterion against
    scikit-learn's ``DecisionTreeClassifier(max_depth=9)`` (Cython) on the
    same data, in the same run: median of several repeats and the ratio.
    "growth" is the part of our fit spent in :func:`rankviz.tree.builder.grow_tree`;
    the rest is input checking, level encoding and the leaves' level counts.

Run: .venv/bin/python benchmarks/bench_ordinal.py [--trials 20] [--quick]
Prints numbers only; nothing here asserts on timing.
"""

import argparse
import time

import numpy as np
from scipy import stats
from sklearn.tree import DecisionTreeClassifier

import rankviz.tree.ordinal_tree as ordinal_tree
from rankviz.tree.ordinal_tree import OrdinalTree
from rankviz.ordinal.synthetic import make_ordinal_square
from common import median_time  # benchmarks/common.py, beside this script

CRITERIA = {"ranking_impurity": "Ranking impurity", "gini": "Gini"}
#: Xia, Zhang & Wang (2006), Table I (RT = ranking impurity, CT = Gini classification tree), depth 9.
SEED_TABLE_I = {"ranking_impurity": "0.16 ± 0.01", "gini": "0.17 ± 0.01"}


def t_half_width(values):
    """Half-width of the Student-t 95% confidence interval of the mean of ``values``."""
    values = np.asarray(values, dtype=float)
    n = len(values)
    if n < 2:
        return float("nan")
    return float(stats.t.ppf(0.975, n - 1) * values.std(ddof=1) / np.sqrt(n))


def losses_by_depth(model, X_test, y_test, max_depth):
    """Mean absolute rank loss of the tree cut at each depth 0..max_depth."""
    predicted = model.predict_by_depth(X_test)
    # A tree that stopped early predicts the same at every deeper cut.
    if predicted.shape[1] < max_depth + 1:
        pad = np.repeat(predicted[:, -1:], max_depth + 1 - predicted.shape[1], axis=1)
        predicted = np.hstack([predicted, pad])
    return np.abs(predicted - np.asarray(y_test, dtype=float)[:, None]).mean(axis=0)


def monte_carlo(n_train, n_test, trials, max_depth, seed):
    """Loss per trial and depth for each criterion: {criterion: (trials, max_depth + 1)}."""
    losses = {c: np.empty((trials, max_depth + 1)) for c in CRITERIA}
    for trial in range(trials):
        # Trial t uses the stream (seed, t): results do not depend on the number of trials.
        X, y = make_ordinal_square(n_train + n_test, seed=np.random.default_rng([seed, trial]))
        X_train, y_train = X.iloc[:n_train], y[:n_train]
        X_test, y_test = X.iloc[n_train:], y[n_train:]
        for criterion in CRITERIA:
            model = OrdinalTree(criterion, max_depth=max_depth).fit(X_train, y_train)
            losses[criterion][trial] = losses_by_depth(model, X_test, y_test, max_depth)
    return losses


def print_losses(losses, max_depth):
    """Table I (final depth, with the published numbers) and the loss at every depth."""
    print(f"{'criterion':<18} {'rank loss, depth ' + str(max_depth):>22} {'published':>14}")
    for criterion, name in CRITERIA.items():
        final = losses[criterion][:, max_depth]
        print(f"{name:<18} {final.mean():>13.4f} ± {t_half_width(final):<6.4f} "
              f"{SEED_TABLE_I[criterion]:>14}")
    print("\nmean rank loss by depth (Fig. 2 of Xia et al.), one fit per trial and criterion:")
    print(f"{'depth':>5} {'Ranking impurity':>17} {'Gini':>8} {'Gini - RI (95% CI)':>22}")
    for depth in range(max_depth + 1):
        ri = losses["ranking_impurity"][:, depth]
        gini = losses["gini"][:, depth]
        difference = gini - ri
        print(f"{depth:>5} {ri.mean():>17.4f} {gini.mean():>8.4f} "
              f"{difference.mean():>+13.4f} ± {t_half_width(difference):<6.4f}")


class GrowthTimer:
    """Wrap ``grow_tree`` as OrdinalTree calls it, recording the time of every call."""

    def __init__(self):
        self.seconds = []
        self._grow_tree = ordinal_tree.grow_tree

    def __call__(self, *args, **kwargs):
        start = time.perf_counter()
        try:
            return self._grow_tree(*args, **kwargs)
        finally:
            self.seconds.append(time.perf_counter() - start)

    def __enter__(self):
        ordinal_tree.grow_tree = self
        return self

    def __exit__(self, *exc):
        ordinal_tree.grow_tree = self._grow_tree


def speed(n_rows, max_depth, repeats, seed):
    """Fit times of both criteria and of scikit-learn's classifier on the same data."""
    X, y = make_ordinal_square(n_rows, seed=seed)
    X_array = X.to_numpy()
    sk_time, sk = median_time(
        lambda: DecisionTreeClassifier(max_depth=max_depth, random_state=0).fit(X_array, y), repeats,
        warm_up=True)
    print(f"{'method':<34} {'nodes':>6} {'fit [s]':>8} {'growth [s]':>11} {'/ sklearn':>10}")
    for criterion, name in CRITERIA.items():
        with GrowthTimer() as growth:
            ours_time, ours = median_time(
                lambda: OrdinalTree(criterion, max_depth=max_depth).fit(X, y), repeats, warm_up=True)
        growth_time = float(np.median(growth.seconds[1:]))  # the timed runs, not the warm-up
        print(f"{'OrdinalTree, ' + name:<34} {ours.tree_.node_count:>6} {ours_time:>8.3f} "
              f"{growth_time:>11.3f} {ours_time / sk_time:>9.2f}x")
    print(f"{'sklearn DecisionTreeClassifier':<34} {sk.tree_.node_count:>6} {sk_time:>8.3f} "
          f"{'':>11} {1.0:>9.2f}x")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=None,
                        help="Monte Carlo trials (default 20, or 5 with --quick)")
    parser.add_argument("--quick", action="store_true",
                        help="a fast run: 5,000 training rows, 5 trials, 3 timing repeats")
    parser.add_argument("--repeats", type=int, default=None,
                        help="timing repeats (default 7, or 3 with --quick)")
    parser.add_argument("--depth", type=int, default=9)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    n_train = 5_000 if args.quick else 50_000
    n_test = 1_000
    trials = args.trials or (5 if args.quick else 20)
    repeats = args.repeats or (3 if args.quick else 7)

    print(f"(a) rank loss: {trials} Monte Carlo trials, {n_train:,} training and {n_test:,} test "
          f"rows each, depth {args.depth}, median leaves; ± = Student-t 95% CI half-width\n")
    start = time.perf_counter()
    losses = monte_carlo(n_train, n_test, trials, args.depth, args.seed)
    print_losses(losses, args.depth)
    print(f"({time.perf_counter() - start:.1f} s)\n")

    print(f"(b) fit time on {n_train:,} rows, depth {args.depth}: median of {repeats} runs, "
          "same data and run\n")
    speed(n_train, args.depth, repeats, args.seed)


if __name__ == "__main__":
    main()
