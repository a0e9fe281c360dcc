"""Build the ``ltr_synthetic`` sample: a small learning-to-rank set in the LETOR format.

MPBoost (Zhu et al. 2009) learns to rank documents per query and
is evaluated on LETOR-style data: one line per query-document pair,
``relevance qid:Q 1:v 2:v ...``, split by query into train / vali / test.
Real LETOR sets cannot be bundled (size, licence), so this script draws a
synthetic one with :func:`rankviz.datasets.queries.make_ltr_dataset` that has the
features that matter for such methods:

* 200 queries with 5 to 30 documents each (3,316 documents);
* 40 features, of which f1..f8 are informative (f1 strongest) and f9..f40
  noise; the informative ones act through a weighted sum plus a threshold
  (f2 > 0.5) and an interaction (f3 * f4), so a linear scorer is not enough
  and stumps pay off;
* a per-query offset on every feature, so raw values are not comparable
  across queries (a threshold that separates documents in one query may lie
  outside the range of another), as with query-dependent web features;
* grades 0..4 from quantiles of a noisy latent score, skewed as in real data
  (about 52% grade 0, 26% 1, 13% 2, 6% 3, 3% 4); every query has at least
  two distinct grades, so every query has pairs to learn from.

The queries are split 60/20/20 (120/40/40 queries) by
:func:`rankviz.datasets.queries.split_by_query`. Feature values are written with 4
significant digits to keep the three files small (about 1.3 MB together);
the files, not the generator, are the sample. Each file starts with a ``#``
comment line saying what it is. ``ltr_synthetic.json`` (kind, title,
description, source, script, splits) lets :func:`rankviz.load_ltr_sample` find them.

Run from the repository root: ``python scripts/sample_data/build_ltr_synthetic.py``
(``--out DIR`` writes elsewhere). Deterministic (fixed seeds).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from rankviz.datasets.queries import split_by_query
from rankviz.datasets.samples import load_ltr_sample
from rankviz.datasets.svmlight import dump_svmlight
from rankviz.ltr.synthetic import make_ltr_dataset

# The bundled samples: the package rankviz.sample_data (this script is not shipped).
HERE = Path(__file__).resolve().parents[2] / "sample_data"

NAME = "ltr_synthetic"
SETTINGS = dict(n_queries=200, docs_per_query=(5, 30), n_features=40, n_informative=8,
                noise=1.0, n_levels=5, seed=2009, query_shift=1.0)
FRACTIONS = (0.6, 0.2, 0.2)
SPLIT_SEED = 0
DIGITS = 4


def grade_counts(dataset) -> list[int]:
    return np.bincount(dataset.relevance.astype(int), minlength=SETTINGS["n_levels"]).tolist()


def build(out_dir: Path = HERE) -> dict:
    """Write ``NAME/train.txt``, ``NAME/vali.txt``, ``NAME/test.txt`` and ``NAME.json`` into ``out_dir``."""
    out_dir = Path(out_dir)
    (out_dir / NAME).mkdir(parents=True, exist_ok=True)
    full = make_ltr_dataset(**SETTINGS)
    parts = dict(zip(("train", "vali", "test"), split_by_query(full, FRACTIONS, seed=SPLIT_SEED)))
    splits = {}
    for split, part in parts.items():
        file_name = f"{NAME}/{split}.txt"
        comment = (f"{NAME} {split} split: {part.n_queries} queries, {part.n_docs} documents, "
                   f"{part.n_features} features (f1..f{SETTINGS['n_informative']} informative), "
                   f"grades 0..{SETTINGS['n_levels'] - 1}; made by scripts/sample_data/build_{NAME}.py")
        dump_svmlight(part, out_dir / file_name, significant_digits=DIGITS, comment=comment)
        splits[split] = file_name
    counts = grade_counts(full)
    meta = {
        "kind": "query",
        "title": "Synthetic learning-to-rank data (LETOR format, 200 queries)",
        "description": (
            f"{full.n_queries} queries with 5 to 30 documents each ({full.n_docs} documents), "
            f"{full.n_features} features per query-document pair, of which f1..f8 are informative "
            "(f1 strongest; a weighted sum plus a threshold on f2 and an interaction of f3 and f4) and "
            "f9..f40 are noise. Every feature carries a per-query offset, so raw values are comparable "
            "only within a query, as with web-search features. Relevance grades 0..4 come from quantiles "
            "of a noisy latent score and are skewed as in real data ("
            + ", ".join(f"{n} documents of grade {g}" for g, n in enumerate(counts))
            + "); every query has at least two distinct grades. Split by query 60/20/20 into train, "
            "validation and test files in the svmlight/LETOR format (rel qid:Q 1:v 2:v ...), feature "
            f"values rounded to {DIGITS} significant digits."
        ),
        "source": ("Made up for this project (no external data): rankviz.ltr.synthetic.make_ltr_dataset with "
                   + ", ".join(f"{k}={v!r}" for k, v in SETTINGS.items())
                   + f"; split_by_query(fractions={FRACTIONS}, seed={SPLIT_SEED})."),
        "script": f"scripts/sample_data/build_{NAME}.py",
        "splits": splits,
        "n_features": full.n_features,
        "informative_features": [f"f{j + 1}" for j in range(SETTINGS["n_informative"])],
        "levels": list(range(SETTINGS["n_levels"])),
    }
    (out_dir / f"{NAME}.json").write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n",
                                          encoding="utf-8")

    # Read the files back as a user would, and say what was written.
    loaded = load_ltr_sample(NAME, directory=out_dir)
    total = 0
    for split, part in loaded.items():
        size = (out_dir / splits[split]).stat().st_size
        total += size
        assert part.n_queries == parts[split].n_queries and part.n_docs == parts[split].n_docs
        print(f"{splits[split]}: {part.n_queries} queries, {part.n_docs} documents, grades "
              f"{grade_counts(part)}, {size / 1e3:.0f} kB")
    print(f"total {total / 1e6:.2f} MB; grades of all documents {counts}")
    return meta


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE,
                        help="output directory (default: sample_data/)")
    build(parser.parse_args().out)
