"""Label ranking trees (LRT) and IBLR of Cheng, Hühn & Hüllermeier (2009) on any label-ranking benchmark file, against their Table 2.

(a) Accuracy. On each data set (--datasets: public set names such as iris or
    fetch:iris, read from the data home --data or downloaded once; samples;
    paths of benchmark-format files; default every complete-ranking set of
    rankviz.datasets.available_label_ranking_sets that the data home has or
    can download), r repetitions of a shuffled 10-fold cross-validation (5 as
    in Cheng et al., §6.2; 1 for files above 10,000 rows). Kendall tau of
    every held-out row (:func:`rankviz.label_ranking.metrics.kendall_tau`),
    averaged over the rows of all folds and repetitions; ± is the standard
    deviation of the per-repetition means (when r > 1). Settings are chosen
    on the training folds only:

    * LRT: :class:`rankviz.RankingTreeCV` with the Mallows criterion: the
      leaf size from a grid that extends itself while its largest value wins,
      and γ read off the γ path of each inner fold's maximal tree, by inner
      10-fold CV on Kendall tau (the estimator's default).
    * IBLR: ``IBLR(n_neighbors="auto")``, its own inner 5-fold CV over k.
    * Forest: :class:`rankviz.RankingForest` with its defaults (100 bagged
      mean-Spearman trees, each node searched on the square root of the
      features, Borda vote); nothing tuned.

    Cheng et al.'s own LRT (§5.1) has no pruning: it stops only at pure nodes and
    at nodes with fewer than 2|Y| label occurrences, i.e. the maximal tree with
    ``min_samples_leaf=1`` and γ = ∞ (column "unpruned"). The published LRT is
    that tree ("we have not yet implemented a post-pruning step", §5.1), so
    "unpruned" against "published" is the like-for-like comparison. Files with
    a value in Table 2 (16 of the 21 public sets) are compared with it; the last
    lines count the files within 0.005 of the published value.
(b) Speed. Fit time of the LRT on calhousing (20,640 rows, 4 labels) against
    scikit-learn's DecisionTreeRegressor (Cython, multi-output squared error)
    on the same rank matrix, in the same run: the maximal tree (γ = ∞, leaf
    size 1) and the defaults (γ = 0.995, leaf size 2), scikit-learn with the
    same leaf size, unlimited and limited to the depth our tree reached.

Every (file, method, repetition, outer fold) is one cell of
:func:`rankviz.experiments.grid.run_grid`: run serially, on local processes
(default, --jobs) or on a Dask cluster (--scheduler tcp://host:8786), each
cell with its own seed; --results FILE keeps finished cells, so a stopped run
resumes. --compare-workers then runs the same grid on 2 local processes and
on a 2-worker Dask LocalCluster, printing wall times, speed-ups and whether
each table equals the first run's; --report writes the report (Table 2
layout, Friedman/Nemenyi, critical-difference diagram) and --table the
per-file table as Markdown (both into docs/benchmarks/ for the documentation).

Run: .venv/bin/python benchmarks/bench_label_ranking.py [--data DIR] [--quick]
     [--datasets iris fetch:wine path/to/file.csv] [--repetitions 5] [--seed 0] [--jobs N]
     [--backend serial|processes|dask] [--scheduler ADDRESS] [--results FILE] [--compare-workers]
     [--report PATH.md] [--table PATH.md]
Prints numbers only; nothing here asserts on accuracy or timing.
"""

import argparse
import json
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.tree import DecisionTreeRegressor

import rankviz.tree.ranking_tree as ranking_tree
from rankviz import IBLR, RankingForest, RankingTree, RankingTreeCV
from rankviz.cli import ProgressBar
from rankviz.datasets import available_label_ranking_sets
from rankviz.experiments.grid import Protocol, resolve_datasets, run_grid
from rankviz.experiments.grid.execution import LOCAL_CLUSTER_CONFIG, warm_workers
from common import add_data_option, data_home_of, load_label_ranking, median_time  # benchmarks/common.py

#: Cheng, Hühn & Hüllermeier (2009), Table 2, complete rankings: (LRT, IBLR) Kendall tau.
PUBLISHED = {
    "authorship": (0.882, 0.936), "bodyfat": (0.117, 0.248), "calhousing": (0.324, 0.351),
    "cpu-small": (0.447, 0.506), "elevators": (0.760, 0.733), "fried": (0.890, 0.935),
    "glass": (0.883, 0.865), "housing": (0.797, 0.745), "iris": (0.947, 0.966),
    "pendigits": (0.935, 0.944), "segment": (0.949, 0.959), "stock": (0.895, 0.927),
    "vehicle": (0.827, 0.862), "vowel": (0.794, 0.900), "wine": (0.882, 0.949),
    "wisconsin": (0.343, 0.506),
}
#: scikit-lr 0.3.0 on the same files, its own folds (the data home's README): DecisionTreeLabelRanker
#: (Mallows, grown fully) and KNeighborsLabelRanker (k by inner CV); Kendall tau.
SKLR = {
    "iris": (.955, .963), "wine": (.904, .943), "glass": (.893, .882), "wisconsin": (.290, .500),
    "bodyfat": (.101, .233), "housing": (.799, .746), "vowel": (.835, .921), "authorship": (.875, .935),
    "vehicle": (.824, .858), "stock": (.897, .927), "pendigits": (.939, .944), "calhousing": (.302, .347),
    "fried": (.876, .894), "cold": (.045, .094), "diau": (.107, .203), "heat": (.033, .070),
}
SMALL = ["iris", "wine", "glass", "housing"]
LEAF_GRID = (1, 2, 3, 5, 8)
OUTER_FOLDS = 10
INNER_FOLDS = 10  # RankingTreeCV's default
LARGE = 10_000  # files above this many rows get one repetition


class ReportingTreeCV(RankingTreeCV):
    """RankingTreeCV whose ``best_params_`` also records the tree's leaves and the largest leaf size tried."""

    def fit(self, X, Y, label_names=None):
        super().fit(X, Y, label_names)
        self.best_params_ = {**self.best_params_, "leaves": int(self.tree_.n_leaves),
                             "largest_leaf_tried": int(self.leaf_grid_[-1])}
        return self


class ReportingIBLR(IBLR):
    """IBLR with its own inner CV over k; ``best_params_`` records the k it chose."""

    def fit(self, X, Y):
        super().fit(X, Y)
        self.best_params_ = {"k": int(self.n_neighbors_), "scaling": self.scaling_}
        return self


def grid_methods(leaf_grid, max_depth, run_iblr=True):
    """The methods of the comparison: the tuned LRT, Cheng et al.'s unpruned LRT (§5.1), IBLR and the forest."""
    methods = {"lrt": ReportingTreeCV(criterion="mallows", leaf_grid=tuple(leaf_grid), cv=INNER_FOLDS,
                                      max_depth=max_depth),
               "unpruned": RankingTree(criterion="mallows", gamma=np.inf, min_samples_leaf=1, max_depth=max_depth)}
    if run_iblr:
        methods["iblr"] = ReportingIBLR(n_neighbors="auto")
    methods["forest"] = RankingForest()
    return methods


def load_datasets(data, specs):
    """The data sets to compare: ``specs`` (names, ``fetch:``/``sample:`` names, files), or every public
    complete-ranking set the data home has or can download (the others are named and skipped)."""
    home = data_home_of(data)
    if specs:
        return resolve_datasets(specs, data_home=home)
    datasets, missing = {}, []
    for name in available_label_ranking_sets("complete"):
        dataset = load_label_ranking(data, name, required=False)
        if dataset is None:
            missing.append(name)
        else:
            datasets[name] = dataset
    if missing:
        print(f"(not in the data home {home} and not downloadable here, skipped: {', '.join(missing)})\n")
    if not datasets:
        raise SystemExit(f"no label-ranking benchmark file in {home} and none could be downloaded")
    return datasets


def run_accuracy_grid(datasets, repetitions, seed, leaf_grid, max_depth, execution):
    """The tidy table of the comparison: small files with ``repetitions``, large ones with 1."""
    small = {name: d for name, d in datasets.items() if len(d.Y) <= LARGE}
    large = {name: d for name, d in datasets.items() if len(d.Y) > LARGE}
    tables = []
    for group, reps in [(small, repetitions), (large, 1)]:
        if not group:
            continue
        kind = "kfold" if reps == 1 else "repeated_kfold"
        protocol = Protocol(kind, n_splits=OUTER_FOLDS, n_repeats=reps, seed=seed)
        tables.append(run_grid(grid_methods(leaf_grid, max_depth), group, protocol, measures=["Kendall tau"],
                               progress=ProgressBar(), **execution))
    return pd.concat(tables, ignore_index=True)


def row_weighted(cells):
    """Mean over held-out rows of all folds, and per-repetition means, from a method's cells."""
    weights = cells["n_test"].to_numpy(dtype=float)
    overall = float(np.average(cells["value"], weights=weights))
    per_rep = cells.groupby("repetition").apply(lambda c: np.average(c["value"], weights=c["n_test"]),
                                                include_groups=False)
    return overall, per_rep.to_numpy()


def mean_std(cells):
    """'0.123 ± 0.004': mean over held-out rows, sd of the repetition means."""
    overall, per_rep = row_weighted(cells)
    text = f"{overall:.3f}"
    if len(per_rep) > 1:
        text += f" ± {per_rep.std(ddof=1):.3f}"
    return text


def reached(cells, published):
    if published is None:
        return "–"
    difference = round(row_weighted(cells)[0], 3) - published
    return f"{'yes' if difference >= -1e-9 else 'no'} ({difference:+.3f})"


def spread(values, fmt="{:g}"):
    """Median (the lower one: a value that was chosen) and range of the per-fold choices, e.g. '3 (1–8)'."""
    values = np.asarray(values, dtype=float)
    median = np.percentile(values, 50, method="lower")
    text = fmt.format(median) if np.isfinite(median) else "∞"
    low, high = (fmt.format(v) if np.isfinite(v) else "∞" for v in (values.min(), values.max()))
    return f"{text} ({low}–{high})"


def settings_summary(lrt_cells, iblr_cells):
    chosen = [json.loads(p) for p in lrt_cells["params"]]
    leaf_counts = Counter(c["min_samples_leaf"] for c in chosen)
    leaf_text = "/".join(f"{leaf}:{leaf_counts[leaf]}" for leaf in sorted(leaf_counts))
    gammas = [float(c["gamma"]) if c["gamma"] != "inf" else np.inf for c in chosen]
    text = (f"leaf {leaf_text}; γ {spread(gammas, '{:.4f}')}; "
            f"{np.median([c['leaves'] for c in chosen]):.0f} leaves")
    if len(iblr_cells):
        text += f"; k {spread([json.loads(p)['k'] for p in iblr_cells['params']], '{:.0f}')}"
    return text


def published_text(value):
    return "–" if value is None else f"{value:.3f}"


def accuracy(data, specs, repetitions, seed, leaf_grid, max_depth, execution, table_path=None):
    print(f"(a) Kendall tau, {OUTER_FOLDS}-fold CV × repetitions (1 above {LARGE:,} rows); "
          f"± = sd over repetitions; LRT = RankingTreeCV(criterion='mallows'), leaf size from "
          f"{list(leaf_grid)} (extended while its largest wins) and γ from its γ path by inner {INNER_FOLDS}-fold "
          "CV; IBLR k by its own inner CV; unpruned = LRT leaf 1, γ = ∞ (the §5.1 tree of Cheng et al.); "
          "every (file, method, repetition, fold) one cell of rankviz.experiments.grid"
          + (f"; max_depth {max_depth}" if max_depth is not None else "") + "\n")
    datasets = load_datasets(data, specs)
    total = time.perf_counter()
    table = run_accuracy_grid(datasets, repetitions, seed, leaf_grid, max_depth, execution)
    wall = time.perf_counter() - total
    lines = ["| dataset | rows | reps | LRT ours | LRT published | LRT reached | LRT unpruned | unpruned reached "
             "| IBLR ours | IBLR published | IBLR reached | forest | scikit-lr tree / kNN (its folds) "
             "| settings chosen (per outer fold: leaf counts, γ and k median (range), median leaves) "
             "| time LRT / IBLR / forest [s] |",
             "|---|---:|---:|---:|---:|---|---:|---|---:|---:|---|---:|---:|---|---:|"]
    print("\n".join(lines))
    within, compared = Counter(), 0
    for name in datasets:
        cells = {method: group for method, group in table[table.dataset == name].groupby("method")}
        n = len(datasets[name].Y)
        lrt_pub, iblr_pub = PUBLISHED.get(name, (None, None))
        seconds = {m: (c["fit_seconds"] + c["predict_seconds"]).sum() for m, c in cells.items()}
        line = (f"| {name} | {n:,} | {cells['lrt']['repetition'].nunique()} | {mean_std(cells['lrt'])} | "
                f"{published_text(lrt_pub)} | {reached(cells['lrt'], lrt_pub)} | {mean_std(cells['unpruned'])} | "
                f"{reached(cells['unpruned'], lrt_pub)} | "
                f"{mean_std(cells['iblr'])} | {published_text(iblr_pub)} | {reached(cells['iblr'], iblr_pub)} | "
                f"{mean_std(cells['forest'])} | "
                + (" / ".join(f"{v:.3f}" for v in SKLR[name]) if name in SKLR else "–") + " | "
                f"{settings_summary(cells['lrt'], cells['iblr'])} | "
                f"{seconds['lrt']:.1f} / {seconds['iblr']:.1f} / {seconds['forest']:.1f} |")
        print(line, flush=True)
        lines.append(line)
        if lrt_pub is not None:
            compared += 1
            for method, published in (("lrt", lrt_pub), ("unpruned", lrt_pub), ("iblr", iblr_pub),
                                      ("forest", max(lrt_pub, iblr_pub))):
                within[method] += row_weighted(cells[method])[0] >= published - 0.005
    summary = ("within 0.005 of the published value (or above), of the "
               f"{compared} files with one: "
               + ", ".join(f"{label} {within[m]}"
                           for m, label in (("lrt", "tuned LRT"), ("unpruned", "unpruned LRT (§5.1)"), ("iblr", "IBLR"),
                                            ("forest", "forest (against the better of the published LRT and IBLR)"))))
    print("\n" + summary)
    where = execution["backend"] + (f", {execution['n_jobs']} jobs" if execution["backend"] == "processes" else "")
    print(f"\n(accuracy part: wall time {wall:.1f} s on {where})\n")
    if table_path is not None:
        Path(table_path).write_text("\n".join(lines + ["", summary, ""]), encoding="utf-8")
        print(f"(table written to {table_path})\n")
    return datasets, table, wall


#: Value columns that must agree between runs of the same grid (times and host differ).
SAME_IN_EVERY_RUN = ["dataset", "method", "repetition", "fold", "measure", "value", "n_test", "params"]


def local_cluster(n_workers):
    """A ``distributed.LocalCluster`` of ``n_workers`` single-threaded worker processes on 127.0.0.1, and its client.

    Its workers are warmed (imports, compiled code from the cache) before it is returned, as the local
    processes that joblib keeps from the first run are.
    """
    import dask
    from distributed import Client, LocalCluster

    with dask.config.set(LOCAL_CLUSTER_CONFIG):  # as the clusters rankviz starts itself
        cluster = LocalCluster(n_workers=n_workers, threads_per_worker=1, host="127.0.0.1", dashboard_address=None,
                               processes=True)
    client = Client(cluster)
    warm_workers(client)
    return cluster, client


def comparable(table):
    return table[SAME_IN_EVERY_RUN].sort_values(SAME_IN_EVERY_RUN[:5]).reset_index(drop=True)


def compare_workers(datasets, table, repetitions, seed, leaf_grid, max_depth):
    """Wall time of the same accuracy grid on 2 local worker processes and on a 2-worker LocalCluster.

    ``table`` is the first run's result (usually serial); each run's table
    must equal it in every value column, which is printed.
    """
    print("| run | wall time [s] | table equals the first run's |")
    print("|---|---:|---|")
    times = {}
    for label in ("2 local processes (joblib loky)", "Dask LocalCluster, 2 workers × 1 thread on 127.0.0.1"):
        cluster = client = None
        if label.startswith("Dask"):
            cluster, client = local_cluster(2)
            execution = {"backend": "dask", "n_jobs": -1, "scheduler": client, "results": None}
        else:
            execution = {"backend": "processes", "n_jobs": 2, "scheduler": None, "results": None}
        try:
            start = time.perf_counter()
            other = run_accuracy_grid(datasets, repetitions, seed, leaf_grid, max_depth, execution)
            times[label] = time.perf_counter() - start
        finally:
            if client is not None:
                client.close()
                cluster.close()
        same = comparable(other).equals(comparable(table))
        print(f"| {label} | {times[label]:.1f} | {'yes' if same else 'NO'} |", flush=True)
    return times


class StepTimer:
    """Wrap functions that ``RankingTree.fit`` calls by module name, recording each call's time.

    ``StepTimer("grow_tree", "node_models")`` times the growth
    (:func:`rankviz.tree.builder.grow_tree`) and the leaves' Mallows fits
    (:func:`rankviz.tree.mallows_nodes.node_models`) of every fit in the block.
    """

    def __init__(self, *names):
        self.seconds = {name: [] for name in names}
        self._original = {name: getattr(ranking_tree, name) for name in names}

    def _wrap(self, name):
        function = self._original[name]

        def timed(*args, **kwargs):
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                self.seconds[name].append(time.perf_counter() - start)
        return timed

    def median(self, name):
        """Median over the timed runs (the first call is median_time's warm-up)."""
        times = self.seconds[name][1:]
        return float(np.median(times)) if times else 0.0

    def __enter__(self):
        for name in self._original:
            setattr(ranking_tree, name, self._wrap(name))
        return self

    def __exit__(self, *exc):
        for name, function in self._original.items():
            setattr(ranking_tree, name, function)


def speed(data, repeats):
    dataset = load_label_ranking(data, "calhousing")
    X, Y = dataset.X.to_numpy(), np.asarray(dataset.Y, dtype=float)
    print(f"(b) fit time on calhousing ({X.shape[0]:,} rows, {X.shape[1]} attributes, {Y.shape[1]} "
          f"labels as a multi-output target for scikit-learn): median of {repeats} runs after a "
          "warm-up, same data and run\n")
    print("| setting | method | nodes | depth | fit [s] | of which growth / leaf Mallows fits [s] "
          "| ours / this |")
    print("|---|---|---:|---:|---:|---|---:|")
    settings = [("maximal tree: γ = ∞, leaf ≥ 1", dict(gamma=np.inf, min_samples_leaf=1)),
                ("defaults: γ = 0.995, leaf ≥ 2", dict())]
    for label, params in settings:
        with StepTimer("grow_tree", "node_models") as steps:
            ours_time, ours = median_time(lambda: RankingTree(criterion="mallows", **params).fit(X, Y),
                                          repeats, warm_up=True)
        leaf = ours.min_samples_leaf
        parts = f"{steps.median('grow_tree'):.3f} / {steps.median('node_models'):.3f}"
        rows = [("RankingTree(criterion='mallows')", ours_time, ours.tree_.node_count, ours.tree_.max_depth,
                 parts)]
        for sk_label, depth in [("DecisionTreeRegressor, same leaf size", None),
                                ("DecisionTreeRegressor, same leaf size and depth", ours.tree_.max_depth)]:
            sk_time, sk = median_time(
                lambda: DecisionTreeRegressor(min_samples_leaf=leaf, max_depth=depth, random_state=0).fit(X, Y),
                repeats, warm_up=True)
            rows.append((sk_label, sk_time, sk.tree_.node_count, sk.get_depth(), ""))
        for method, seconds, nodes, depth, parts in rows:
            print(f"| {label} | {method} | {nodes:,} | {depth} | {seconds:.3f} | {parts} | "
                  f"{ours_time / seconds:.2f}x |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=None, metavar="SPEC",
                        help="data sets: public set names (iris, fetch:iris), sample:NAME or benchmark-format "
                             "files (default every complete-ranking set the data home has or can download, or "
                             "the four small ones with --quick)")
    parser.add_argument("--repetitions", type=int, default=None,
                        help="repetitions of 10-fold CV (default 5, or 1 with --quick)")
    parser.add_argument("--quick", action="store_true",
                        help="1 repetition on iris, wine, glass, housing; 3 timing repeats")
    parser.add_argument("--seed", type=int, default=0, help="seed of the fold shuffles")
    parser.add_argument("--leaf-grid", type=int, nargs="+", default=list(LEAF_GRID),
                        help=f"LRT min_samples_leaf candidates (default {' '.join(map(str, LEAF_GRID))})")
    parser.add_argument("--max-depth", type=int, default=None, help="LRT depth limit (default none)")
    parser.add_argument("--repeats", type=int, default=None,
                        help="timing repeats (default 5, or 3 with --quick)")
    parser.add_argument("--skip-speed", action="store_true", help="accuracy part only")
    parser.add_argument("--skip-accuracy", action="store_true", help="speed part only")
    parser.add_argument("--jobs", type=int, default=-1, help="local worker processes (default: all cores)")
    parser.add_argument("--backend", choices=["serial", "processes", "dask"], default=None,
                        help="where the cells run (default processes; dask with --scheduler)")
    parser.add_argument("--scheduler", default=None, help="a Dask scheduler address, e.g. tcp://host:8786")
    parser.add_argument("--results", default=None,
                        help="results file (.csv or .parquet); its finished cells are not run again")
    parser.add_argument("--compare-workers", action="store_true",
                        help="after the first run (use --backend serial for the serial time), run the same grid "
                             "on 2 local processes and on a 2-worker Dask LocalCluster; print wall times, "
                             "speed-ups and whether each table equals the first")
    parser.add_argument("--report", default=None, metavar="PATH",
                        help="write the report of the table (rankviz.experiments.report: Markdown .md with "
                             "critical-difference diagrams beside it, or .html)")
    parser.add_argument("--table", default=None, metavar="PATH",
                        help="write the per-file table with the published values as Markdown (e.g. "
                             "docs/benchmarks/table2_accuracy.md)")
    add_data_option(parser)
    args = parser.parse_args()
    execution = {"backend": args.backend or ("dask" if args.scheduler else "processes"), "n_jobs": args.jobs,
                 "scheduler": args.scheduler, "results": args.results}
    specs = args.datasets or (SMALL if args.quick else None)
    repetitions = args.repetitions or (1 if args.quick else 5)
    repeats = args.repeats or (3 if args.quick else 5)
    start = time.perf_counter()
    if not args.skip_accuracy:
        datasets, table, wall = accuracy(args.data, specs, repetitions, args.seed, tuple(args.leaf_grid),
                                         args.max_depth, execution, table_path=args.table)
        if args.report:
            from rankviz.experiments.report import write_report

            write_report(table, args.report)
            print(f"(report of the table written to {args.report})\n")
        if args.compare_workers:
            times = compare_workers(datasets, table, repetitions, args.seed, tuple(args.leaf_grid),
                                    args.max_depth)
            print(f"\n(the first run, {execution['backend']}: {wall:.1f} s; speed-up against it: "
                  + ", ".join(f"{label.split(' (')[0].split(',')[0]} {wall / t:.2f}x" for label, t in times.items())
                  + ")\n")
    if not args.skip_speed:
        speed(args.data, repeats)
        print()
    print(f"(total wall time {time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
