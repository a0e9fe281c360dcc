"""The sample data sets of rankviz, installed as the package data ``rankviz.sample_data``.

Each sample is a ``NAME.json`` description beside its data, with the
script that made it (see :mod:`rankviz.datasets.samples`).
"""
