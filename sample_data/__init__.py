"""The sample data sets of rankviz, installed as the package data ``rankviz.sample_data``.

Each sample is a ``NAME.json`` description beside its data, naming the
script that made it (in the repository's ``scripts/sample_data/``, which is
not installed; see :mod:`rankviz.datasets.samples`).
"""
