"""Shared code of ``build_iris_nb.py`` and ``build_wine_nb.py``.

Turns a classification data set into label-ranking data by the naive Bayes
procedure used by Cheng, Hühn & Hüllermeier (2009), "Decision tree and
instance-based learning for label ranking", section 6.1 (A), which follows
Hüllermeier et al. (2008):

    "A naive Bayes classifier is first trained on the complete data set.
    Then, for each example, all the labels present in the data set are
    ordered with respect to the predicted class probabilities (in the case
    of ties, labels with lower index are ranked first)."

Implementation:

* the naive Bayes classifier is scikit-learn's ``GaussianNB`` with default
  settings (class priors from the data, normal class-conditional densities
  per feature; the features are all numeric), fitted on all examples;
* for each example the labels are sorted by decreasing predicted class
  probability.  The sort key is the joint log-likelihood
  ``log P(y) + log p(x | y)``, which orders the labels exactly as the
  posterior probabilities do but cannot underflow to a spurious tie at 0;
  the sort is stable, so remaining ties keep the lower label index first;
* the position of each label in that order (1 = most probable) is written
  to the label's column.  Every row is a strict ranking 1..L (no ties).

Nothing else is done: the true class is *not* forced to the top.  Where the
classifier's most probable class differs from the true class (a training
error of naive Bayes), the row ranks the predicted class first, as the
procedure prescribes.  The true class is not part of the output.
No randomness is involved; the data are scikit-learn's bundled copies
(no download).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.naive_bayes import GaussianNB

# The bundled samples: the package rankviz.sample_data (this script is not shipped).
HERE = Path(__file__).resolve().parents[2] / "sample_data"


def snake(name: str) -> str:
    return re.sub(r"[^0-9a-z]+", "_", name.lower()).strip("_")


def nb_rankings(X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rank positions (n, L) of the labels per example, and the top label."""
    nb = GaussianNB().fit(X, y)
    jll = nb.predict_joint_log_proba(X)               # columns: nb.classes_
    order = np.argsort(-jll, axis=1, kind="stable")   # ties: lower index first
    ranks = np.empty_like(order)
    rows = np.arange(len(X))[:, None]
    ranks[rows, order] = np.arange(1, jll.shape[1] + 1)
    return ranks, nb.classes_[order[:, 0]]


#: The rows are stored in this seed's random order.
SHUFFLE_SEED = 0


def check(df: pd.DataFrame, features, labels) -> None:
    assert list(df.columns) == list(features) + list(labels)
    assert not df.isna().any().any()
    L = len(labels)
    for row in df[labels].to_numpy():
        assert sorted(row) == list(range(1, L + 1)), row


def build(bunch, name: str, title: str, description: str, source: str,
          label_names=None, min_samples_leaf: int = 10) -> pd.DataFrame:
    """Write NAME.csv and NAME.json; ``{n_off}`` in the description becomes
    the number of rows whose top label is not the true class.
    ``min_samples_leaf`` is the app's starting leaf size (``tree_defaults``)."""
    X, y = np.asarray(bunch.data, dtype=float), np.asarray(bunch.target)
    features = [snake(f) for f in bunch.feature_names]
    labels = list(label_names or bunch.target_names)
    ranks, top = nb_rankings(X, y)
    n_off = int((top != y).sum())
    description = description.format(n_off=n_off) + (
        f" The rows are in a fixed random order (seed {SHUFFLE_SEED}), not grouped by species.")
    df = pd.concat([pd.DataFrame(X, columns=features),
                    pd.DataFrame(ranks, columns=labels)], axis=1)
    # The source data are sorted by class: stored in that order, an unshuffled k-fold
    # (scikit-learn's default for cv=k) would test on classes it never trained on.
    df = df.iloc[np.random.default_rng(SHUFFLE_SEED).permutation(len(df))].reset_index(drop=True)
    check(df, features, labels)
    df.to_csv(HERE / f"{name}.csv", index=False, float_format="%.10g")
    meta = {
        "kind": "label_ranking",
        "title": title,
        "description": description,
        "source": source,
        "script": f"scripts/sample_data/build_{name}.py",
        "feature_columns": features,
        "label_columns": labels,
        "tree_defaults": {"min_samples_leaf": min_samples_leaf},
    }
    (HERE / f"{name}.json").write_text(
        json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {name}.csv: {len(df)} rows, {len(features)} features, "
          f"{len(labels)} labels; {n_off} rows whose top label is not the true class; "
          f"{len({tuple(r) for r in ranks})} distinct rankings")
    return df
