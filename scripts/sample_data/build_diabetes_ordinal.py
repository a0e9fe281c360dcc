"""Build the ``diabetes_ordinal`` sample: disease progression in 5 named, ordered levels.

Rows are the 442 diabetes patients of scikit-learn's bundled copy of the data
of Efron, Hastie, Johnstone & Tibshirani (2004), ``sklearn.datasets.
load_diabetes(as_frame=True, scaled=False)`` (no download). The 10 features
are the baseline variables in their original units, renamed after the
data's documentation: age (years), sex (1 or 2, as coded in the source),
bmi (body mass index), bp (average blood pressure), and the six blood serum
measurements s1..s6 as tc (total serum cholesterol), ldl, hdl, tch (total
cholesterol / HDL), ltg (log of serum triglycerides) and glu (blood sugar).

The target ``progression`` is the quantitative measure of disease progression
one year after baseline, cut at its quintiles (``pandas.qcut(q=5)``,
intervals closed on the right) into five named levels, lowest first:
"very low", "low", "medium", "high", "very high". The names sort
alphabetically as high < low < medium < very high < very low, so the order
must come from the description: ``diabetes_ordinal.json`` (``"kind": "ordinal"``)
lists it, and ``rankviz.datasets.samples.load_ordinal_sample`` uses it. The raw
progression value is not a column (it would give the level away).

Run from the repository root: ``python scripts/sample_data/build_diabetes_ordinal.py``
(``--out DIR`` writes elsewhere). Deterministic (no randomness).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pandas as pd
from sklearn.datasets import load_diabetes

# The bundled samples: the package rankviz.sample_data (this script is not shipped).
HERE = Path(__file__).resolve().parents[2] / "sample_data"
NAME = "diabetes_ordinal"
TARGET = "progression"
LEVELS = ["very low", "low", "medium", "high", "very high"]
FEATURES = {"age": "age", "sex": "sex", "bmi": "bmi", "bp": "bp", "s1": "tc", "s2": "ldl",
            "s3": "hdl", "s4": "tch", "s5": "ltg", "s6": "glu"}


def make_frame() -> tuple[pd.DataFrame, list[float]]:
    """The sample table (features, then the level) and the 4 cut points."""
    bunch = load_diabetes(as_frame=True, scaled=False)
    X = bunch.data.rename(columns=FEATURES)[list(FEATURES.values())]
    binned, edges = pd.qcut(bunch.target, q=len(LEVELS), labels=LEVELS, retbins=True)
    frame = X.assign(**{TARGET: binned.astype(str)})
    assert not frame.isna().any().any()
    return frame, [float(e) for e in edges[1:-1]]


def build(out_dir: Path = HERE) -> pd.DataFrame:
    """Write ``NAME.csv`` and ``NAME.json`` into ``out_dir``; return the table."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    frame, cuts = make_frame()
    counts = frame[TARGET].value_counts().reindex(LEVELS)
    frame.to_csv(out_dir / f"{NAME}.csv", index=False, float_format="%.10g", lineterminator="\n")
    bounds = ", ".join(f"{a} up to {b:g}" for a, b in zip(LEVELS, cuts)) + f", {LEVELS[-1]} above {cuts[-1]:g}"
    meta = {
        "kind": "ordinal",
        "title": "Diabetes: disease progression in 5 ordered levels",
        "description": (
            "Each of the 442 rows is a diabetes patient described by 10 baseline variables: "
            "age, sex (coded 1 or 2), body mass index (bmi), average blood pressure (bp) and six "
            "blood serum measurements (tc total cholesterol, ldl and hdl lipoproteins, tch total "
            "cholesterol / HDL, ltg log triglycerides, glu blood sugar). The target 'progression' is "
            "a measure of disease progression one year later, cut at its quintiles into five ordered "
            f"levels ({bounds}), with "
            + ", ".join(f"{n} {a!r}" for a, n in counts.items())
            + " rows. The levels are names, so their order (very low < low < medium < high < very "
            "high) comes from this sample's metadata, not from the alphabet."
        ),
        "source": ("Diabetes data of Efron, Hastie, Johnstone and Tibshirani (2004), 'Least Angle "
                   "Regression', as bundled with scikit-learn (sklearn.datasets.load_diabetes, "
                   "scaled=False, BSD-3-Clause); levels computed by scripts/sample_data/build_diabetes_ordinal.py."),
        "script": f"scripts/sample_data/build_{NAME}.py",
        "target": TARGET,
        "levels": LEVELS,
        "feature_columns": list(FEATURES.values()),
    }
    (out_dir / f"{NAME}.json").write_text(
        json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {NAME}.csv: {len(frame)} rows, {len(FEATURES)} features, levels "
          + ", ".join(f"{a!r}: {n}" for a, n in counts.items()))
    return frame


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE, help="output directory (default: sample_data/)")
    build(parser.parse_args().out)
