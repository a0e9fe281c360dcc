"""Build the ``toy`` sample: a 16-row teaching set for ranking trees.

Modelled on Tables 1-3 of Rebelo, Soares & Costa (2008), "Empirical
evaluation of ranking trees on some metalearning problems": four items
(labels) a1..a4, a nominal attribute A1 with values a, b, c and a numeric
attribute A2.  The rankings are hand-written so that the tree's choices can
be seen by eye (rank positions of a1, a2, a3, a4; 1 = best):

* A1 = c (5 rows, A2 spread over 1.5..8.8): a3 first, a1 last, nearly the
  same ranking every time: (4,3,1,2) three times, (4,3,2,1), (3,4,1,2).
* A1 in {a, b} and A2 < 5 (6 rows): a1 first, a4 last, around (1,2,3,4).
  They include the two rankings of the paper's Table 3, (1,3,2,4) and
  (2,1,4,3); the mean ranks of the six rows are (1.17, 2, 3.17, 3.67), so
  this leaf predicts (1,2,3,4), as in Table 3.
* A1 in {a, b} and A2 >= 5 (5 rows): a2 first, around (3,1,2,4).

Both a and b occur on both sides of A2 = 5, and the c rows occur on both
sides too, so no single test except A1 = c isolates a homogeneous group.
With the splitting criterion of the paper (mean pairwise Spearman
correlation of the rankings in each subset, weighted by subset size; the
script prints the table, like the paper's Table 2):

* at the root (mean correlation 0.07) the best split is A1 = c
  (0.84 | 0.50, weighted 0.60), well ahead of A1 = b (0.24) and of any A2
  threshold (<= 0.16);
* in the A1 != c branch (0.50) the best split is A2 < 5
  (0.72 | 0.82, weighted 0.77; next best 0.66).

Deeper splits depend on the stopping rule.  The paper's rule
(1 + S_parent) >= gamma (1 + S_split) with gamma = 0.995 accepts any split
that raises the similarity by more than ~0.01, so on its own it keeps
splitting off single rows (if one row counts as similarity 1).  With at least 2
rows per leaf the A1 = c group stays a leaf and each a/b group is split
once more on A1 (gains 0.08 and 0.02); with at least 3 rows per leaf only
the A2 < 5 group is.  The description's ``tree_defaults`` open the app at 2
rows per leaf (the app's usual 10 would leave the 16 rows unsplit).

Run from the repository root: ``python scripts/sample_data/build_toy.py``.
Deterministic (the rows are written out below).
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import spearmanr

# The bundled samples: the package rankviz.sample_data (this script is not shipped).
HERE = Path(__file__).resolve().parents[2] / "sample_data"
NAME = "toy"
LABELS = ["a1", "a2", "a3", "a4"]
GAMMA = 0.995

#        A1   A2   rank positions of a1, a2, a3, a4
ROWS = [
    ("a", 1.2, (1, 3, 2, 4)),   # Table 3, e1
    ("a", 3.4, (1, 2, 3, 4)),
    ("a", 4.4, (1, 2, 3, 4)),
    ("a", 5.6, (3, 1, 2, 4)),
    ("a", 7.1, (4, 1, 2, 3)),
    ("a", 9.0, (3, 1, 2, 4)),
    ("b", 1.9, (1, 2, 4, 3)),
    ("b", 2.6, (2, 1, 4, 3)),   # Table 3, e2
    ("b", 3.8, (1, 2, 3, 4)),
    ("b", 6.4, (3, 1, 2, 4)),
    ("b", 8.2, (2, 1, 3, 4)),
    ("c", 1.5, (4, 3, 1, 2)),
    ("c", 3.1, (4, 3, 1, 2)),
    ("c", 4.6, (4, 3, 2, 1)),
    ("c", 6.7, (4, 3, 1, 2)),
    ("c", 8.8, (3, 4, 1, 2)),
]


def similarity(R: np.ndarray) -> float:
    """Mean Spearman correlation over all pairs of rankings (1 for one row)."""
    if len(R) < 2:
        return 1.0
    return float(np.mean([spearmanr(a, b)[0]
                          for a, b in itertools.combinations(R, 2)]))


def candidate_splits(df: pd.DataFrame):
    """(weighted similarity, test, S_true, S_false, n_true, n_false), best first."""
    R = df[LABELS].to_numpy(float)
    tests = [(f"A1 = {v}", (df["A1"] == v).to_numpy())
             for v in sorted(df["A1"].unique())]
    values = np.sort(df["A2"].unique())
    tests += [(f"A2 < {(lo + hi) / 2:g}", (df["A2"] < (lo + hi) / 2).to_numpy())
              for lo, hi in zip(values, values[1:])]
    out = []
    for name, mask in tests:
        if mask.all() or not mask.any():
            continue
        s_t, s_f = similarity(R[mask]), similarity(R[~mask])
        w = (mask.sum() * s_t + (~mask).sum() * s_f) / len(df)
        out.append((w, name, s_t, s_f, int(mask.sum()), int((~mask).sum())))
    return sorted(out, key=lambda t: -t[0])


def report(df: pd.DataFrame, title: str, top: int = 4) -> tuple[str, float, float]:
    parent = similarity(df[LABELS].to_numpy(float))
    splits = candidate_splits(df)
    print(f"{title}: {len(df)} rows, mean correlation {parent:.2f}")
    for w, name, s_t, s_f, n_t, n_f in splits[:top]:
        print(f"   {name:<10} {s_t:5.2f} ({n_t}) | {s_f:5.2f} ({n_f})  weighted {w:.2f}")
    best = splits[0]
    split_made = not (1 + parent >= GAMMA * (1 + best[0]))
    print(f"   -> best {best[1]}; split made with gamma={GAMMA}: {split_made}")
    return best[1], parent, best[0]


def check(df: pd.DataFrame, features, labels) -> None:
    assert list(df.columns) == list(features) + list(labels)
    assert not df.isna().any().any()
    for row in df[labels].to_numpy():
        assert sorted(row) == list(range(1, len(labels) + 1)), row
    table3 = {tuple(r) for r in df[labels].to_numpy()}
    assert {(1, 3, 2, 4), (2, 1, 4, 3)} <= table3


def main() -> None:
    df = pd.DataFrame([(a1, a2, *r) for a1, a2, r in ROWS],
                      columns=["A1", "A2", *LABELS])
    check(df, ["A1", "A2"], LABELS)

    root, _, _ = report(df, "root")
    assert root == "A1 = c"
    rest = df[df["A1"] != "c"]
    second, _, _ = report(rest, "A1 != c")
    assert second == "A2 < 5"
    for name, part in [("A1 = c", df[df["A1"] == "c"]),
                       ("A1 != c, A2 < 5", rest[rest["A2"] < 5]),
                       ("A1 != c, A2 >= 5", rest[rest["A2"] >= 5])]:
        sim = similarity(part[LABELS].to_numpy(float))
        print(f"{name}: {len(part)} rows, mean correlation {sim:.2f}, "
              f"mean ranks {part[LABELS].mean().round(2).tolist()}")

    df.to_csv(HERE / f"{NAME}.csv", index=False, float_format="%.10g")
    meta = {
        "kind": "label_ranking",
        "title": "Toy example: 4 items, a nominal and a numeric attribute",
        "description": (
            "A hand-made teaching set in the style of Tables 1-3 of Rebelo, Soares and "
            "Costa (2008): 16 rows, each with a nominal attribute A1 (a, b or c), a "
            "numeric attribute A2 and a ranking of four items a1..a4 (1 = best). Rows "
            "with A1 = c share nearly the same ranking (a3 first, a1 last), so A1 = c "
            "is the best first split; among the other rows A2 < 5 (a1 first) "
            "separates them from A2 >= 5 (a2 first). The rankings (1,3,2,4) and "
            "(2,1,4,3) of the paper's Table 3 are two of the rows."
        ),
        "source": "Made up for this project (no external data); rows listed in scripts/sample_data/build_toy.py.",
        "script": f"scripts/sample_data/build_{NAME}.py",
        "feature_columns": ["A1", "A2"],
        "label_columns": LABELS,
        "tree_defaults": {"min_samples_leaf": 2},
    }
    (HERE / f"{NAME}.json").write_text(json.dumps(meta, indent=2) + "\n")
    print(f"wrote {NAME}.csv: {len(df)} rows, 2 features, {len(LABELS)} labels")


if __name__ == "__main__":
    main()
