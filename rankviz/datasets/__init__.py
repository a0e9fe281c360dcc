"""Datasets: the three kinds, their loaders, and the bundled samples.

:mod:`~rankviz.datasets.reading` is the one reading layer every text loader
shares (size limit, text, separators, CSV records, feature cells, located
:class:`~rankviz.exceptions.DataError` messages).
:mod:`~rankviz.datasets.label_ranking` (:class:`RankingDataset`,
:func:`load_benchmark`, :func:`load_csv`), :mod:`~rankviz.datasets.ordinal`
(:class:`OrdinalDataset`, :func:`load_ordinal_csv`),
:mod:`~rankviz.datasets.queries` (:class:`QueryDataset`,
:func:`load_query_csv`, :func:`split_by_query`) and
:mod:`~rankviz.datasets.svmlight` (:func:`load_svmlight`,
:func:`dump_svmlight`) build on it; :mod:`~rankviz.datasets.samples` is
the one registry of the samples that ship with the package;
:mod:`~rankviz.datasets.fetchers` (:func:`fetch_label_ranking`,
:func:`fetch_letor_example`, :func:`get_data_home`) downloads public data
sets once into a checked local cache.
"""

from ..exceptions import DataError
from .fetchers import (LABEL_RANKING_SETS, ChecksumError, FetchError, available_label_ranking_sets,
                       fetch_label_ranking, fetch_letor_example, get_data_home)
from .label_ranking import RankingDataset, load_benchmark, load_csv
from .ordinal import OrdinalDataset, load_ordinal_csv, read_target_values
from .queries import QueryDataset, load_query_csv, split_by_query
from .reading import read_csv_header
from .samples import (list_samples, load_ltr_sample, load_ordinal_sample, load_sample, sample_info,
                      sample_tree_defaults)
from .svmlight import dump_svmlight, load_svmlight

__all__ = ["ChecksumError", "DataError", "FetchError", "LABEL_RANKING_SETS", "OrdinalDataset", "QueryDataset",
           "RankingDataset", "available_label_ranking_sets", "dump_svmlight", "fetch_label_ranking",
           "fetch_letor_example", "get_data_home", "list_samples",
           "load_benchmark", "load_csv", "load_ltr_sample", "load_ordinal_csv", "load_ordinal_sample",
           "load_query_csv", "load_sample", "load_svmlight", "read_csv_header", "read_target_values",
           "sample_info", "sample_tree_defaults", "split_by_query"]
