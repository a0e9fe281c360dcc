"""Build the ``metalearning`` sample: rankings of 10 classifiers on OpenML tasks.

This is a metalearning problem in the style of Rebelo, Soares & Costa (2008),
"Empirical evaluation of ranking trees on some metalearning problems": each
row is a classification task (an OpenML data set), the labels are learning
algorithms, the target is the ranking of the algorithms by accuracy on that
task, and the features are meta-features describing the task.

Source
------
The Learning Curve Database (LCDB, Mohr, Viering, Loog & van Rijn 2022),
PyPI package ``lcdb`` 0.1.0, MIT licence.  Its sdist ships two tables:

* ``lcdb/database-accuracy.csv``: one row per (OpenML id, learner,
  training-set size ("anchor"), outer seed, inner seed) with the train,
  validation and test accuracy of a scikit-learn learner with default
  hyper-parameters;
* ``lcdb/datasets.csv``: OpenML "data qualities" of each data set
  (numbers of instances, features, classes, class entropy, ...).

Procedure
---------
1. Learners (labels): SVC_linear, SVC_rbf, LogisticRegression,
   KNeighborsClassifier, DecisionTreeClassifier, RandomForestClassifier,
   ExtraTreesClassifier, GradientBoostingClassifier, MLPClassifier and
   BernoulliNB, renamed to snake_case (``svc_linear`` ... ``bernoulli_nb``).
   These are the well-known learners that LCDB ran on most data sets.
   (LDA/QDA were left out: LCDB has no results for them on most data sets
   with nominal attributes, which would cut the set to ~135 tasks, nearly
   all purely numeric; LCDB has no Gaussian naive Bayes.)
2. Tasks: the OpenML data sets that have meta-features in ``datasets.csv``
   and results for all 10 learners, minus those whose OpenML qualities lack
   the class information (NumberOfClasses < 2 or missing class entropy).
   OpenML holds a few re-uploads of the same data (same name, number of
   instances and number of classes: adult, car, segment); of each such
   group with results for all learners only the lowest id is kept, so that
   no task appears twice.
   (Binarised variants with the same name but another number of classes,
   e.g. car with 2 classes, are different tasks and stay.)
3. For each task, the anchor used is the largest training-set size reached
   by *all* 10 learners (usually the full training split, 81% of the data;
   smaller where some learner has no result at the largest sizes, e.g.
   after a time-out).  The accuracy of a learner is its
   ``score_test`` averaged over all (outer, inner) seeds at that anchor.
4. Ranking: learners sorted by that mean accuracy, best = 1; equal means
   (after rounding to 1e-9, which only removes float noise) share the
   average position (scipy ``rankdata(method="average")``).
5. Meta-features, computed from ``datasets.csv`` (n_attributes excludes the
   class; OpenML counts the class among the features):
     log10_n_instances, log10_n_attributes, log10_instances_per_attribute,
     n_classes, class_entropy (bits), majority_class_prop,
     minority_class_prop, prop_symbolic_attributes, prop_missing_values,
     prop_instances_with_missing,
   and three nominal ones:
     size        small (< 2,000 instances) / medium (< 10,000) / large,
     task_type   binary / multiclass,
     attribute_types  numeric / nominal / mixed.
   Numbers are rounded to 5 significant digits.
6. ``metalearning.csv`` holds the meta-features and the rank columns;
   ``metalearning_tasks.csv`` holds, row for row, the OpenML id and name,
   the anchor used, the largest anchor any learner reached, the test-set
   size, the smallest number of runs averaged, and the mean accuracy of every
   learner (for reference; not features).

Running
-------
From the repository root, either with the package installed (only its data
files are read; the package itself is never imported, since importing it
needs ``openml``)::

    pip install --no-deps lcdb
    python scripts/sample_data/build_metalearning.py

or with the sdist (or its unpacked ``lcdb`` folder) given as an argument::

    pip download --no-deps lcdb -d /tmp/lcdb
    python scripts/sample_data/build_metalearning.py /tmp/lcdb/lcdb-0.1.0.tar.gz

Reading the 150 MB accuracy table takes about half a minute.  The result is
deterministic (no randomness is involved).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import tarfile
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import rankdata

# The bundled samples: the package rankviz.sample_data (this script is not shipped).
HERE = Path(__file__).resolve().parents[2] / "sample_data"
NAME = "metalearning"

LEARNERS = {
    "SVC_linear": "svc_linear",
    "SVC_rbf": "svc_rbf",
    "sklearn.linear_model.LogisticRegression": "logistic_regression",
    "sklearn.neighbors.KNeighborsClassifier": "knn",
    "sklearn.tree.DecisionTreeClassifier": "decision_tree",
    "sklearn.ensemble.RandomForestClassifier": "random_forest",
    "sklearn.ensemble.ExtraTreesClassifier": "extra_trees",
    "sklearn.ensemble.GradientBoostingClassifier": "gradient_boosting",
    "sklearn.neural_network.MLPClassifier": "mlp",
    "sklearn.naive_bayes.BernoulliNB": "bernoulli_nb",
}
ACC_FILE = "database-accuracy.csv"
META_FILE = "datasets.csv"
ACC_COLUMNS = ["openmlid", "learner", "size_train", "size_test", "outer_seed",
               "inner_seed", "score_test"]


def sig(x, digits: int = 5):
    """Round a number or array to ``digits`` significant digits."""
    x = np.asarray(x, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        mag = np.where(x == 0, 0, np.floor(np.log10(np.abs(x))))
    factor = 10.0 ** (digits - 1 - mag)
    return np.round(x * factor) / factor


# --------------------------------------------------------------------------
# reading LCDB
# --------------------------------------------------------------------------
def _read_csv(source: Path, name: str, **kwargs) -> pd.DataFrame:
    if source.is_file() and source.name.endswith((".tar.gz", ".tgz", ".tar")):
        with tarfile.open(source) as tar:
            members = [m for m in tar.getmembers()
                       if m.name.endswith(f"lcdb/{name}")]
            if not members:
                raise FileNotFoundError(f"{name} not found in {source}")
            with tar.extractfile(members[0]) as fh:
                return pd.read_csv(fh, **kwargs)
    for candidate in (source / name, source / "lcdb" / name):
        if candidate.is_file():
            return pd.read_csv(candidate, **kwargs)
    raise FileNotFoundError(f"{name} not found under {source}")


def locate_lcdb(arg: str | None) -> Path:
    if arg:
        return Path(arg)
    # Find the installed package's folder without importing it (lcdb's
    # __init__ imports openml, func_timeout, matplotlib, ...).
    spec = importlib.util.find_spec("lcdb")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("lcdb is not installed: run `pip install --no-deps lcdb` or "
                 "pass the path of the lcdb sdist (.tar.gz) or its lcdb/ folder")
    return Path(list(spec.submodule_search_locations)[0])


# --------------------------------------------------------------------------
# building
# --------------------------------------------------------------------------
def build_rankings(acc: pd.DataFrame, task_ids) -> tuple[pd.DataFrame, pd.DataFrame]:
    acc = acc[acc["learner"].isin(LEARNERS) & acc["openmlid"].isin(task_ids)].copy()
    acc["label"] = acc["learner"].map(LEARNERS)
    labels = list(LEARNERS.values())

    top_anchor = acc.groupby(["openmlid", "label"])["size_train"].max().unstack()
    top_anchor = top_anchor.reindex(columns=labels).dropna()
    common = top_anchor.min(axis=1).astype(int).rename("train_size")
    acc = acc.merge(common, left_on="openmlid", right_index=True)
    at = acc[acc["size_train"] == acc["train_size"]]

    grouped = at.groupby(["openmlid", "label"])
    mean_acc = grouped["score_test"].mean().unstack().reindex(columns=labels)
    n_runs = grouped.size().unstack().min(axis=1).rename("min_runs_averaged")
    test_size = at.groupby("openmlid")["size_test"].max().rename("test_size")
    info = pd.concat([common, top_anchor.max(axis=1).astype(int)
                      .rename("largest_train_size"), test_size, n_runs], axis=1)
    return mean_acc.loc[common.index], info.loc[common.index]


def rank_rows(mean_acc: pd.DataFrame) -> pd.DataFrame:
    values = np.round(mean_acc.to_numpy(), 9)
    ranks = np.vstack([rankdata(-row, method="average") for row in values])
    return pd.DataFrame(ranks, index=mean_acc.index, columns=mean_acc.columns)


def meta_features(meta: pd.DataFrame) -> pd.DataFrame:
    n = meta["NumberOfInstances"].astype(float)
    n_att = meta["NumberOfFeatures"].astype(float) - 1  # minus the class
    n_sym = meta["NumberOfSymbolicFeatures"].astype(float) - 1
    n_cls = meta["NumberOfClasses"].astype(int)
    out = pd.DataFrame(index=meta.index)
    out["log10_n_instances"] = np.log10(n)
    out["log10_n_attributes"] = np.log10(n_att)
    out["log10_instances_per_attribute"] = np.log10(n / n_att)
    out["n_classes"] = n_cls
    out["class_entropy"] = meta["ClassEntropy"]
    out["majority_class_prop"] = meta["MajorityClassSize"] / n
    out["minority_class_prop"] = meta["MinorityClassSize"] / n
    out["prop_symbolic_attributes"] = n_sym / n_att
    out["prop_missing_values"] = meta["PercentageOfMissingValues"] / 100
    out["prop_instances_with_missing"] = meta["PercentageOfInstancesWithMissingValues"] / 100
    for col in out.columns:
        if col != "n_classes":
            out[col] = sig(out[col].to_numpy(), 5)
    out["size"] = np.select([n < 2000, n < 10000], ["small", "medium"], "large")
    out["task_type"] = np.where(n_cls == 2, "binary", "multiclass")
    out["attribute_types"] = np.select([n_sym == 0, n_sym == n_att],
                                       ["numeric", "nominal"], "mixed")
    return out


def check(df: pd.DataFrame, features, labels) -> None:
    assert list(df.columns) == list(features) + list(labels)
    assert not df.isna().any().any(), "missing values"
    L = len(labels)
    expected_sum = L * (L + 1) / 2
    R = df[labels].to_numpy(dtype=float)
    assert np.allclose(R.sum(axis=1), expected_sum)
    for row in R:
        assert np.allclose(np.sort(row), np.sort(rankdata(row, method="average"))), row
        assert row.min() >= 1 and row.max() <= L


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("lcdb", nargs="?", help="lcdb sdist (.tar.gz) or its "
                        "(lcdb/) folder; default: the installed lcdb package")
    args = parser.parse_args(argv)
    source = locate_lcdb(args.lcdb)
    print(f"reading LCDB from {source}")

    meta = _read_csv(source, META_FILE).set_index("openmlid")
    complete = meta[(meta["NumberOfClasses"] >= 2) & meta["ClassEntropy"].notna()
                    & meta["MajorityClassSize"].notna()
                    & meta["MinorityClassSize"].notna()]
    acc = _read_csv(source, ACC_FILE, usecols=ACC_COLUMNS)

    mean_acc, info = build_rankings(acc, complete.index)
    # drop re-uploads of the same data among the tasks with all results
    covered = complete.loc[mean_acc.index].sort_index()
    keep = covered.index[~covered.duplicated(
        ["Name", "NumberOfInstances", "NumberOfClasses"], keep="first")]
    mean_acc, info = mean_acc.loc[keep], info.loc[keep]
    ranks = rank_rows(mean_acc)
    feats = meta_features(complete.loc[ranks.index])

    features = list(feats.columns)
    labels = list(ranks.columns)
    table = pd.concat([feats, ranks], axis=1).sort_index()
    check(table, features, labels)

    tasks = pd.concat([
        complete.loc[table.index, ["Name"]].rename(columns={"Name": "name"}),
        info.loc[table.index],
        pd.DataFrame(sig(mean_acc.loc[table.index], 4), index=table.index,
                     columns=mean_acc.columns).add_prefix("acc_"),
    ], axis=1)
    tasks.index.name = "openml_id"

    table.to_csv(HERE / f"{NAME}.csv", index=False, float_format="%.10g")
    tasks.to_csv(HERE / f"{NAME}_tasks.csv", float_format="%.10g")

    description = (
        f"Each of the {len(table)} rows is a classification task (an OpenML data set), "
        f"and the {len(labels)} labels are scikit-learn classifiers with default settings "
        "(linear and RBF SVM, logistic regression, k-NN, decision tree, random forest, "
        "extra trees, gradient boosting, MLP, Bernoulli naive Bayes). Each row ranks them "
        "by test accuracy (mean over LCDB's seeds, at the largest training size all of "
        "them reached; 1 = best, ties averaged). The features are meta-features of the "
        "task in the spirit of the 'Stat' set of Brazdil, Soares and Costa (2003): size, "
        "dimensionality, classes, class entropy and balance, shares of nominal attributes "
        "and missing values, and nominal size, task-type and attribute-type categories "
        "(OpenML ids and the accuracies are in metalearning_tasks.csv)."
    )
    meta_json = {
        "kind": "label_ranking",
        "title": "Metalearning: ranking 10 classifiers on OpenML tasks (LCDB)",
        "description": description,
        "source": ("Learning Curve Database (LCDB; Mohr, Viering, Loog, van Rijn 2022), "
                   "PyPI package lcdb 0.1.0, files lcdb/database-accuracy.csv and "
                   "lcdb/datasets.csv (OpenML data qualities); MIT licence, "
                   "Copyright (c) 2021 Felix Mohr. Underlying data sets from OpenML."),
        "script": f"scripts/sample_data/build_{NAME}.py",
        "feature_columns": features,
        "label_columns": labels,
        "tree_defaults": {"min_samples_leaf": 10},
    }
    (HERE / f"{NAME}.json").write_text(json.dumps(meta_json, indent=2) + "\n")
    print(f"wrote {NAME}.csv: {len(table)} tasks, {len(features)} meta-features, "
          f"{len(labels)} learners")


if __name__ == "__main__":
    main()
