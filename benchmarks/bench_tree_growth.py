"""Ranking-tree growth against scikit-learn's CART (DecisionTreeRegressor), in the same run.

(a) Ratio. Every criterion of ``RankingTree`` grows its maximal tree
    (γ = ∞, leaf ≥ 1) and its defaults (γ = 0.995, leaf ≥ 2) on each data
    set; ``DecisionTreeRegressor`` (Cython, multi-output squared error) grows
    on the same rank matrix with the same leaf size and no depth limit. The
    ratio is our fit time over scikit-learn's (median of --repeats runs, and
    of as many more as fill ``MIN_SECONDS`` for small files, after a warm-up,
    one thread). Data sets: the label-ranking files found in the
    data home (--data; missing ones are skipped) and generated data of the
    shapes of the public collection (see ``SHAPES``), including a noisy set
    whose maximal Mallows tree is a deep chain. Trees of different shapes
    are different work: the rows of all searched nodes, ours over CART's,
    is printed too, and the time ratio per row searched (the builders'
    speed on the same amount of work).
(b) Scale. Fit time and peak memory (resident set of a fresh process) of the
    defaults of mean Spearman and Mallows against n = 10k … 1M generated rows
    (9 attributes, 5 labels), with scikit-learn's alongside, and the growth
    exponent fitted to log time against log n.
(d) Small files (issue 37, goal 5; ``--small``): every file of the
    public collection with 150 to 2,000 rows found in the data home,
    complete rankings and the partial ones with ties (``*-partial``), each
    criterion maximal and with its defaults against CART, and which of them
    are over 1.0x. The criteria with a compiled search are timed (the
    pairwise entropy of Alfaro et al. among them; their disagreements and
    distance take a bucket order per candidate and grow with NumPy). On files this small the fit's fixed work (validation,
    node models, the bucket orders of partial rankings) is much of the time.
(c) max_bins. The defaults of every criterion with every threshold and with
    ``max_bins`` of 255 and 32 on the sets of at least 10,000 rows: fit
    time, and the mean Kendall tau of 5-fold cross-validation (the
    accuracy the bins cost).

Run: .venv/bin/python benchmarks/bench_tree_growth.py [--data DIR] [--repeats 5] [--quick] [--small]
     [--criteria mean_spearman mallows ...] [--skip-ratio] [--skip-bins] [--skip-scale] [--max-rows 1000000]
Prints numbers only; nothing here asserts on timing.
"""

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np
from sklearn.model_selection import KFold
from sklearn.tree import DecisionTreeRegressor

from rankviz import RankingTree
from rankviz.label_ranking.metrics import kendall_tau
from rankviz.tree.criteria import CRITERIA
from common import add_data_option, load_label_ranking, machine, median_time  # benchmarks/common.py, beside it

#: Files of the public collection read from the data home when there.
FILES = ("iris", "wine", "glass", "housing", "vehicle", "authorship", "stock", "calhousing")
#: Generated stand-ins for the larger files of the collection: (name, rows, attributes, labels, noise).
SHAPES = (
    ("pendigits-like", 10_992, 16, 10, 0.3),
    ("elevators-like", 16_599, 9, 9, 0.3),
    ("fried-like", 40_768, 9, 5, 0.3),
    ("16 labels", 40_000, 16, 16, 0.3),
    ("noisy chain", 2_465, 24, 11, None),  # rankings independent of the attributes
    ("deep chain", 3_000, 1, 5, "chain"),  # noise growing fast along the attribute, values rounded
    # the same with every value distinct: the Mallows tree is a chain of 1,500+ levels (issue 37, goal 3)
    ("long chain", 20_000, 1, 5, "long chain"),
    # noisy everywhere, the noise steepest at the top: the Mallows tree is 3,000+ levels deep
    ("noisy everywhere", 20_000, 1, 5, "noisy everywhere"),
    # rankings drawn at random, one attribute, every value distinct: the mean-Spearman tree is a chain
    ("pure noise", 10_000, 1, 8, "pure noise"),
)
#: The small files of part (d): rows from, rows to.
SMALL_ROWS = (150, 2_000)
#: Each timing repeats a fit until the fits add up to this long (at least `repeats` fits): the small
#: files fit in a fraction of a millisecond, where 5 fits leave their ratios to chance.
MIN_SECONDS = 0.25
SETTINGS = (("maximal tree (γ = ∞, leaf ≥ 1)", dict(gamma=np.inf, min_samples_leaf=1)),
            ("defaults (γ = 0.995, leaf ≥ 2)", dict(gamma=0.995, min_samples_leaf=2)))


def generated(n, d, n_labels, noise, seed=0):
    """Rank matrix of ``n_labels`` smooth scores of ``d`` uniform attributes (label 1 = top), plus noise.

    Each label's score is a different sum of sines of pairs of attributes
    (Friedman-like), so the ranking changes across the attribute space;
    ``noise`` is the sd of Gaussian noise added to the scores, and None
    draws rankings independent of the attributes (a tree can only peel
    them off one at a time: a deep chain). ``"chain"`` gives every row one
    ranking plus noise whose sd grows as ``exp(6 x)`` along the first
    attribute: the best split keeps peeling the few noisiest rows off the
    top, so the maximal trees are chains (the noisy data sets the issue
    measured, spo among them). Attributes are rounded to 3 decimals, as
    measured data are, but for ``"long chain"``: the same noise with every
    value distinct, so nothing stops the peeling but the rows (the Mallows
    tree on 20,000 rows: 1,622 levels; the other criteria's trees stay
    under 100). ``"noisy everywhere"``: one ranking plus noise of sd
    ``1 + 20 x^8`` (the labels' scores one apart), every value distinct:
    every row is noisy, so the Mallows tree peels rows off all along (3,469
    levels on 20,000 rows). ``"pure noise"``: rankings drawn at random, every
    value distinct: the mean-Spearman tree peels pairs of alike rankings off
    one after another (1,533 levels on 10,000 rows of 8 labels).
    """
    rng = np.random.default_rng(seed)
    X = rng.random((n, d))
    if noise not in ("long chain", "noisy everywhere", "pure noise"):
        X = np.round(X, 3)
    if noise in ("chain", "long chain", "noisy everywhere"):
        spread = 3 * np.expm1(6 * X[:, 0]) / np.expm1(6) if noise != "noisy everywhere" else 1 + 20 * X[:, 0] ** 8
        scores = np.arange(n_labels, 0, -1.0) + rng.normal(size=(n, n_labels)) * spread[:, None]
    elif noise is None or noise == "pure noise":
        scores = rng.random((n, n_labels))
    else:
        pairs = rng.integers(0, d, size=(n_labels, 2))
        weights = rng.normal(size=(n_labels, 2))
        scores = (weights[:, 0] * np.sin(np.pi * X[:, pairs[:, 0]] * X[:, pairs[:, 1]])
                  + weights[:, 1] * X[:, pairs[:, 1]] + noise * rng.normal(size=(n, n_labels)))
    Y = np.argsort(np.argsort(-scores, axis=1), axis=1) + 1.0
    return X, Y


def data_sets(data, quick, names=None):
    """(name, X, Y) of every file found and every generated shape (only ``names``, when given)."""
    found = []
    for name in FILES if not quick else ("iris", "calhousing"):
        dataset = load_label_ranking(data, name, required=False)
        if dataset is not None:
            found.append((name, dataset.X.to_numpy(dtype=float), np.asarray(dataset.Y, dtype=float)))
    chains = [shape for shape in SHAPES if "chain" in shape[0] or "noisy" in shape[0]]
    for name, n, d, labels, noise in SHAPES if not quick else chains:
        X, Y = generated(n, d, labels, noise)
        found.append((name, X, Y))
    return [entry for entry in found if names is None or entry[0] in names]


def rows_searched(tree):
    """Rows of the nodes whose splits were searched: the work of growing the tree (each is scanned per attribute)."""
    return int(tree.n_samples[~np.isnan(tree.split_score)].sum())


def cart_rows_searched(tree):
    """The same for scikit-learn's tree: the rows of its split nodes (it searches a node that stays a leaf too,
    so this counts a little less than it does)."""
    return int(tree.n_node_samples[tree.children_left >= 0].sum())


def ratio_table(sets, criteria, repeats):
    print("(a) fit time of RankingTree against DecisionTreeRegressor on the same rank matrix, same leaf "
          f"size, no depth limit; median of at least {repeats} runs, and of {MIN_SECONDS:g} s of fits, after a "
          "warm-up\n")
    print("| data (rows × attributes, labels) | criterion | setting | nodes | depth | ours [s] | CART [s] "
          "| CART nodes | ours / CART | rows searched, ours / CART | per row searched |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    ratios = {}
    for name, X, Y in sets:
        shape = f"{name} ({X.shape[0]:,} × {X.shape[1]}, {Y.shape[1]})"
        for label, params in SETTINGS:
            cart_time, cart = median_time(
                lambda: DecisionTreeRegressor(min_samples_leaf=params["min_samples_leaf"], random_state=0).fit(X, Y),
                repeats, warm_up=True, min_seconds=MIN_SECONDS)
            for criterion in criteria:
                ours_time, ours = median_time(lambda: RankingTree(criterion=criterion, **params).fit(X, Y),
                                              repeats, warm_up=True, min_seconds=MIN_SECONDS)
                ratio = ours_time / cart_time
                ratios.setdefault((criterion, label), []).append(ratio)
                work = rows_searched(ours.tree_) / cart_rows_searched(cart.tree_)
                print(f"| {shape} | {criterion} | {label} | {ours.tree_.node_count:,} | {ours.tree_.max_depth} | "
                      f"{ours_time:.3f} | {cart_time:.3f} | {cart.tree_.node_count:,} | {ratio:.2f}x | "
                      f"{work:.2f} | {ratio / work:.2f}x |", flush=True)
    print("\n| criterion | setting | geometric mean ours / CART | worst |")
    print("|---|---|---:|---:|")
    for (criterion, label), values in ratios.items():
        print(f"| {criterion} | {label} | {np.exp(np.mean(np.log(values))):.2f}x | {max(values):.2f}x |")
    print()


def small_files_table(data, criteria, repeats):
    """Part (d): the ratio table of the small files, complete and partial, and the fits over CART's time."""
    from rankviz.datasets import LABEL_RANKING_SETS

    sets = []
    for name in LABEL_RANKING_SETS:
        dataset = load_label_ranking(data, name, required=False)
        if dataset is not None and SMALL_ROWS[0] <= dataset.X.shape[0] <= SMALL_ROWS[1]:
            sets.append((name, dataset.X.to_numpy(dtype=float), np.asarray(dataset.Y, dtype=float)))
    print(f"(d) small files: the {len(sets)} files of {SMALL_ROWS[0]:,}-{SMALL_ROWS[1]:,} rows in the data home\n")
    print("| file (rows × attributes, labels) | setting | " + " | ".join(criteria) + " |")
    print("|---|---|" + "---:|" * len(criteria))
    over = []
    ratios = {}
    for name, X, Y in sets:
        shape = f"{name} ({X.shape[0]:,} × {X.shape[1]}, {Y.shape[1]})"
        for label, params in SETTINGS:
            cart_time, _ = median_time(
                lambda: DecisionTreeRegressor(min_samples_leaf=params["min_samples_leaf"], random_state=0).fit(
                    X, np.nan_to_num(Y)), repeats, warm_up=True, min_seconds=MIN_SECONDS)
            cells = []
            for criterion in criteria:
                ours_time, _ = median_time(lambda: RankingTree(criterion=criterion, **params).fit(X, Y),
                                           repeats, warm_up=True, min_seconds=MIN_SECONDS)
                ratio = ours_time / cart_time
                ratios.setdefault((criterion, label), []).append(ratio)
                cells.append(f"{ratio:.2f}x")
                if ratio > 1.0:
                    over.append(f"{name} {criterion} {label.split(' (')[0]} {ratio:.2f}x")
            print(f"| {shape} | {label.split(' (')[0]} | " + " | ".join(cells) + " |", flush=True)
    print("\n| criterion | setting | geometric mean ours / CART | worst |")
    print("|---|---|---:|---:|")
    for (criterion, label), values in ratios.items():
        print(f"| {criterion} | {label} | {np.exp(np.mean(np.log(values))):.2f}x | {max(values):.2f}x |")
    print(f"\nover 1.0x CART: {len(over)} of {len(sets) * len(SETTINGS) * len(criteria)} fits"
          + ("".join(f"\n  {line}" for line in over) if over else "") + "\n")


def _one_fit(method, n, repeats):
    """In a fresh process: fit time (median) and peak resident memory of one method on n generated rows."""
    code = f"""
import json, sys, time
import numpy as np
sys.path.insert(0, {os.path.dirname(os.path.abspath(__file__))!r})
from bench_tree_growth import generated
from rankviz import RankingTree
from rankviz.label_ranking.metrics import kendall_tau
from sklearn.model_selection import KFold
from sklearn.tree import DecisionTreeRegressor
X, Y = generated({n}, 9, 5, 0.3)
method = {method!r}
make = (lambda: DecisionTreeRegressor(min_samples_leaf=2, random_state=0)) if method == "cart" else \\
    (lambda: RankingTree(criterion=method))
make().fit(X[:2000], Y[:2000])  # warm-up (imports, compiled code)

def resident(field):
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith(field))

# The peak since now: Linux keeps ru_maxrss across fork and exec, so a child of a large process would
# report its parent's peak; writing 5 to clear_refs resets this process's peak (VmHWM) to its size.
with open("/proc/self/clear_refs", "w") as clear:
    clear.write("5")
base = resident("VmRSS:")
times = []
try:
    for _ in range({repeats}):
        start = time.perf_counter(); model = make().fit(X, Y); times.append(time.perf_counter() - start)
except ValueError as error:  # e.g. more pair statistics than the Mallows criterion takes
    print(json.dumps({{"error": str(error)}}))
    sys.exit(0)
peak = resident("VmHWM:")
print(json.dumps({{"seconds": float(np.median(times)), "peak_mb": (peak - base) / 1024,
                  "data_mb": (X.nbytes + Y.nbytes) / 2**20, "nodes": int(model.tree_.node_count)}}))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def scale_table(criteria, max_rows, repeats):
    sizes = [n for n in (10_000, 30_000, 100_000, 300_000, 1_000_000) if n <= max_rows]
    methods = [*criteria, "cart"]
    print(f"(b) defaults (γ = 0.995, leaf ≥ 2; CART leaf ≥ 2) on generated data, 9 attributes, 5 labels; "
          f"median of {repeats} fit(s) after a warm-up, in a fresh process; memory = peak resident set above "
          "the process with the data loaded\n")
    print("| rows | data [MiB] | " + " | ".join(f"{m} [s] | {m} peak [MiB]" for m in methods) + " |")
    print("|---:|---:|" + "---:|---:|" * len(methods))
    results, refused = {m: [] for m in methods}, {}
    for n in sizes:
        row = {m: _one_fit(m, n, repeats) for m in methods}
        for m in methods:
            if "error" in row[m]:
                refused.setdefault(m, row[m]["error"])
            else:
                results[m].append((n, row[m]["seconds"]))
        data_mb = (n * (9 + 5) * 8) / 2**20
        print(f"| {n:,} | {data_mb:.1f} | " + " | ".join(
            "refused | –" if "error" in row[m] else f"{row[m]['seconds']:.2f} | {row[m]['peak_mb']:.0f}"
            for m in methods) + " |", flush=True)
    if len(sizes) > 1:
        print("\n| method | fitted exponent b (time ∝ n^b) |")
        print("|---|---:|")
        for m in methods:
            if len(results[m]) > 1:
                sizes_m, seconds = zip(*results[m])
                slope = np.polyfit(np.log(sizes_m), np.log(seconds), 1)[0]
                print(f"| {m} | {slope:.2f} (n up to {max(sizes_m):,}) |")
    for m, message in refused.items():
        print(f"\n{m} refused the larger sizes: {message}")
    print()


#: ``max_bins`` settings of part (c), every threshold first.
BIN_SETTINGS = (None, 255, 32)
#: Part (c) runs on the data sets of at least this many rows.
BINS_FROM_ROWS = 10_000


def bins_table(sets, criteria, repeats):
    """Part (c): what ``max_bins`` saves in time and costs in 5-fold cross-validated Kendall tau."""
    print(f"(c) max_bins: defaults (γ = 0.995, leaf ≥ 2) with every threshold and with max_bins = "
          f"{', '.join(str(b) for b in BIN_SETTINGS[1:])}, on the sets of at least {BINS_FROM_ROWS:,} rows; "
          f"fit time on all rows (median of {repeats}) and mean Kendall tau of 5-fold CV (same folds)\n")
    print("| data | criterion | max_bins | fit [s] | time / every threshold | CV Kendall tau "
          "| tau − every threshold |")
    print("|---|---|---:|---:|---:|---:|---:|")
    folds = KFold(5, shuffle=True, random_state=0)
    for name, X, Y in sets:
        if len(X) < BINS_FROM_ROWS:
            continue
        shape = f"{name} ({X.shape[0]:,} × {X.shape[1]}, {Y.shape[1]})"
        for criterion in criteria:
            reference = None
            for max_bins in BIN_SETTINGS:
                seconds, _ = median_time(lambda: RankingTree(criterion=criterion, max_bins=max_bins).fit(X, Y),
                                         repeats, warm_up=True)
                taus = [kendall_tau(Y[test], RankingTree(criterion=criterion, max_bins=max_bins)
                                    .fit(X[train], Y[train]).predict(X[test])).mean()
                        for train, test in folds.split(X)]
                tau = float(np.mean(taus))
                if reference is None:
                    reference = (seconds, tau)
                print(f"| {shape} | {criterion} | {max_bins or 'every threshold'} | {seconds:.3f} | "
                      f"{seconds / reference[0]:.2f}x | {tau:.4f} | {tau - reference[1]:+.4f} |", flush=True)
    print()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_data_option(parser)
    parser.add_argument("--repeats", type=int, default=None, help="timed runs per fit (default 5, 3 with --quick)")
    parser.add_argument("--criteria", nargs="+", choices=sorted(CRITERIA), default=None,
                        help="criteria to time (default all)")
    parser.add_argument("--quick", action="store_true", help="iris, calhousing and the chains; scale up to 100k rows")
    parser.add_argument("--sets", nargs="+", default=None,
                        help="only these data sets (file names such as iris, or generated names such as 'deep chain')")
    parser.add_argument("--skip-ratio", action="store_true")
    parser.add_argument("--skip-scale", action="store_true")
    parser.add_argument("--skip-bins", action="store_true", help="skip part (c), max_bins")
    parser.add_argument("--small", action="store_true",
                        help="only part (d): the files of 150-2,000 rows in the data home, complete and partial")
    parser.add_argument("--max-rows", type=int, default=None, help="largest n of the scale part (default 1,000,000)")
    parser.add_argument("--scale-repeats", type=int, default=1, help="fits per size in the scale part (default 1)")
    args = parser.parse_args()
    repeats = args.repeats or (3 if args.quick else 5)
    criteria = args.criteria or ["mean_spearman", "mallows", "ranking_impurity", "gini", "pairwise_entropy"]
    print(f"machine: {machine()}\n")
    start = time.perf_counter()
    if args.small:
        small_files_table(args.data, criteria, repeats)
        print(f"(total wall time {time.perf_counter() - start:.0f} s)")
        return
    sets = data_sets(args.data, args.quick, args.sets) if not (args.skip_ratio and args.skip_bins) else []
    if not args.skip_ratio:
        ratio_table(sets, criteria, repeats)
    if not args.skip_bins:
        bins_table(sets, criteria, repeats)
    if not args.skip_scale:
        scale_table([c for c in criteria if c in ("mean_spearman", "mallows")],
                    args.max_rows or (100_000 if args.quick else 1_000_000), args.scale_repeats)
    print(f"(total wall time {time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
