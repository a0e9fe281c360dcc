"""Methods and data sets by name, as the command line gives them.

Methods are those of Cheng, Hühn & Hüllermeier (2009) and this project's
baselines (:func:`rankviz.experiments.label_ranking_study.label_ranking_methods`)
plus the ranking tree of Rebelo, Soares & Costa (2008); data sets are the
bundled samples, the public sets of the fetchers, or files in the benchmark
format.

References
----------
.. [1] W. Cheng, J. Hühn and E. Hüllermeier, "Decision tree and
       instance-based learning for label ranking", ICML 2009, pp. 161-168.
.. [2] C. Rebelo, C. Soares and J. Costa, "Empirical evaluation of ranking
       trees on some metalearning problems", 2008.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from sklearn.base import BaseEstimator

from ...datasets.fetchers import available_label_ranking_sets, fetch_label_ranking
from ...datasets.formats import sniff_label_ranking_format
from ...datasets.label_ranking import RankingDataset, load_benchmark
from ...datasets.samples import list_samples, load_sample
from ...ensemble.forest import RankingForest
from ...tree.ranking_tree import RankingTree
from ...tree.ranking_tree_cv import RankingTreeCV
from ..label_ranking_study import label_ranking_methods

__all__ = ["METHOD_ALIASES", "resolve_datasets", "resolve_methods", "standard_methods"]

#: Short names of the standard methods (case does not matter).
METHOD_ALIASES = {"lrt": "LRT", "iblr": "IBLR", "cc": "CC", "knn": "KNN (k=1)", "default": "Default",
                  "rt": "RankingTree", "forest": "RankingForest"}


def standard_methods() -> dict[str, BaseEstimator]:
    """The methods the command line knows, by name, with their default settings.

    Returns
    -------
    dict of str -> estimator
        ``LRT`` (the label ranking tree of Cheng, Hühn & Hüllermeier
        (2009) with its leaf size and γ chosen by inner cross-validation,
        :class:`rankviz.RankingTreeCV`), ``IBLR``, ``CC``, ``KNN (k=1)``,
        ``Default``
        (:func:`~rankviz.experiments.label_ranking_study.label_ranking_methods`)
        , ``RankingTree`` (the mean-Spearman ranking tree, untuned) and
        ``RankingForest`` (100 bagged mean-Spearman trees, :class:`rankviz.RankingForest`).
    """
    return {**label_ranking_methods(lrt=RankingTreeCV(criterion="mallows")),
            "RankingTree": RankingTree(criterion="mean_spearman"), "RankingForest": RankingForest()}


def resolve_methods(names: Sequence[str]) -> dict[str, BaseEstimator]:
    """Standard methods by name or alias, in the order given.

    Parameters
    ----------
    names : sequence of str
        Names of :func:`standard_methods` or keys of :data:`METHOD_ALIASES`.

    Returns
    -------
    dict of str -> estimator

    Raises
    ------
    ValueError
        Naming the first unknown method and the known ones.
    """
    known = standard_methods()
    by_lower = {name.lower(): name for name in known} | METHOD_ALIASES
    methods = {}
    for name in names:
        full = by_lower.get(name.strip().lower())
        if full is None:
            raise ValueError(f"unknown method {name!r}; known: {', '.join(sorted(METHOD_ALIASES))} "
                             f"(or {', '.join(known)})")
        methods[full] = known[full]
    return methods


def _load_file(path: Path) -> RankingDataset:
    with open(path, "rb") as handle:
        head = handle.read(64 * 1024)
    if sniff_label_ranking_format(head).format != "benchmark":
        raise ValueError(f"{path}: not a label-ranking benchmark file (first line n,d,L); "
                         "load other CSV files with rankviz.load_csv and pass the data set to run_grid")
    return load_benchmark(path, name=path.stem)


def resolve_datasets(specs: Sequence[str], data_home: str | os.PathLike | None = None
                     ) -> dict[str, RankingDataset]:
    """Data sets from command-line names: ``sample:NAME``, ``fetch:NAME``, a file, or a bare name.

    Parameters
    ----------
    specs : sequence of str
        ``sample:iris_nb`` (a bundled label-ranking sample,
        :func:`rankviz.datasets.load_sample`), ``fetch:iris`` (a public set,
        :func:`rankviz.datasets.fetch_label_ranking`, downloaded once), a
        path to a file in the benchmark format, or a bare name: a sample if
        one has it, else a public set.
    data_home : str or os.PathLike, optional
        The fetchers' cache folder.

    Returns
    -------
    dict of str -> RankingDataset
        Keyed by the sample's or set's name, or the file's stem.

    Raises
    ------
    ValueError
        Naming the first spec that is none of these, or two specs with one name.
    """
    samples = list_samples("label_ranking")
    public = available_label_ranking_sets()
    datasets = {}
    for spec in specs:
        kind, _, name = spec.partition(":") if spec.startswith(("sample:", "fetch:")) else ("", "", spec)
        if kind == "sample" or (not kind and name in samples):
            if name not in samples:
                raise ValueError(f"unknown sample {name!r}; label-ranking samples: {', '.join(samples)}")
            sample = load_sample(name)
            assert isinstance(sample, RankingDataset)  # a label-ranking sample (list_samples)
            dataset = sample
        elif kind == "fetch" or (not kind and name in public):
            if name not in public:
                raise ValueError(f"unknown public data set {name!r}; known: {', '.join(public)}")
            dataset = fetch_label_ranking(name, data_home=data_home)
        elif Path(spec).is_file():
            name = Path(spec).stem
            dataset = _load_file(Path(spec))
        else:
            raise ValueError(f"unknown data set {spec!r}: not a sample ({', '.join(samples)}), a public set "
                             "(fetch:NAME) or an existing file")
        if name in datasets:
            raise ValueError(f"data set name {name!r} given twice")
        datasets[name] = dataset
    return datasets
