"""The sample data sets that ship with rankviz: one registry for every kind.

Each sample is described by a JSON file ``NAME.json`` in the sample
directory, :data:`SAMPLE_DIR` (the package data ``rankviz.sample_data``,
which in a checkout is the repository's ``sample_data/`` folder). Every
description has the keys

``kind``
    ``"label_ranking"``, ``"ordinal"`` or ``"query"`` (:data:`SAMPLE_KINDS`);
``title``, ``description``, ``source``
    what the data is and where it comes from;
``script``
    the file, next to the data, that made it;

and what its kind needs to be read:

* ``label_ranking``: ``feature_columns`` and ``label_columns`` (rank
  positions) of ``NAME.csv``;
* ``ordinal``: ``target``, its ``levels`` (lowest first) and the
  ``feature_columns`` of ``NAME.csv``;
* ``query``: ``splits``, an object mapping each split (``"train"``,
  ``"vali"``, ``"test"``) to an svmlight file, relative to the directory.

A label-ranking description may also have ``tree_defaults``, the settings a
tree on this sample starts from in the app, as an object of
:class:`rankviz.RankingTree` parameters: ``min_samples_leaf`` and
``max_depth``, each a whole number of at least 1 (a 16-row teaching set
wants smaller leaves than a data set of thousands of rows).

:func:`list_samples` lists the samples (of one kind or all),
:func:`sample_info` reads a description, :func:`sample_tree_defaults` its
``tree_defaults`` and :func:`load_sample` loads any
sample as the dataset of its kind; :func:`load_ordinal_sample` and
:func:`load_ltr_sample` do the same for one kind, refusing the others.
"""

from __future__ import annotations

import dataclasses
import json
import os
from importlib import resources
from pathlib import Path

from ..exceptions import data_error, quote_list
from .label_ranking import RankingDataset, load_csv
from .ordinal import OrdinalDataset, load_ordinal_csv
from .queries import QueryDataset
from .svmlight import load_svmlight

__all__ = ["SAMPLE_DIR", "SAMPLE_KINDS", "TREE_DEFAULT_KEYS", "list_samples", "sample_info",
           "sample_tree_defaults", "load_sample", "load_ordinal_sample", "load_ltr_sample"]

#: Directory of the bundled samples: the installed package data ``rankviz.sample_data``.
SAMPLE_DIR = Path(str(resources.files("rankviz.sample_data")))

#: The kinds of sample, and what each is called in messages.
SAMPLE_KINDS = {"label_ranking": "label-ranking", "ordinal": "ordinal", "query": "learning-to-rank"}

#: Keys every description must have, and those of each kind.
_COMMON_KEYS = ("kind", "title", "description", "source", "script")
_KIND_KEYS = {
    "label_ranking": ("feature_columns", "label_columns"),
    "ordinal": ("target", "levels", "feature_columns"),
    "query": ("splits",),
}

#: The tree parameters a description's ``tree_defaults`` may set.
TREE_DEFAULT_KEYS = ("min_samples_leaf", "max_depth")

#: Listed first when present: the sample the app opens with.
_FIRST = "metalearning"


def _directory(directory: str | os.PathLike | None) -> Path:
    return SAMPLE_DIR if directory is None else Path(directory)


def _check_kind(kind: str | None) -> None:
    if kind is not None and kind not in SAMPLE_KINDS:
        raise ValueError(f"kind must be None or one of {quote_list(SAMPLE_KINDS)}, got {kind!r}")


def _kind_of(path: Path) -> str | None:
    """The ``kind`` a description declares, or None when it cannot be read."""
    try:
        kind = json.loads(path.read_text(encoding="utf-8")).get("kind")
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, AttributeError):
        return None
    return kind if kind in SAMPLE_KINDS else None


def list_samples(kind: str | None = None, directory: str | os.PathLike | None = None) -> list[str]:
    """List the names of the samples, of one kind or of every kind.

    A sample is a description ``NAME.json`` in the sample directory and its
    data files; the kind of each is read from its description.

    Parameters
    ----------
    kind : {"label_ranking", "ordinal", "query"}, optional
        Only samples of this kind; by default all. A description that
        cannot be read is listed only without ``kind`` (its problem is
        reported by :func:`sample_info`).
    directory : str or os.PathLike, optional
        Where to look; defaults to :data:`SAMPLE_DIR`.

    Returns
    -------
    list of str
        Sorted names, ``"metalearning"`` first when present; empty if the
        directory does not exist.

    Raises
    ------
    ValueError
        For a ``kind`` that is not one of :data:`SAMPLE_KINDS`.

    See Also
    --------
    sample_info : The description of a sample.
    load_sample : Load a sample.

    Examples
    --------
    >>> from rankviz.datasets import list_samples
    >>> list_samples("label_ranking")
    ['metalearning', 'iris_nb', 'toy', 'wine_nb']
    >>> list_samples("ordinal"), list_samples("query")
    (['diabetes_ordinal'], ['ltr_synthetic'])
    """
    _check_kind(kind)
    folder = _directory(directory)
    if not folder.is_dir():
        return []
    names = sorted(path.stem for path in folder.glob("*.json")
                   if kind is None or _kind_of(path) == kind)
    if _FIRST in names:
        names.remove(_FIRST)
        names.insert(0, _FIRST)
    return names


def _read_description(path: Path) -> dict:
    """A description as a dict; the error names the file and what is wrong."""
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise data_error(f"the description cannot be read ({exc}); expected a UTF-8 JSON object",
                         path.name) from None
    if not isinstance(info, dict):
        raise data_error(f"the description is a JSON {type(info).__name__}; expected a JSON object", path.name)
    if info.get("kind") not in SAMPLE_KINDS:
        raise data_error(f"the key 'kind' is {info.get('kind')!r}; expected one of "
                         f"{quote_list(SAMPLE_KINDS)}", path.name)
    required = _COMMON_KEYS + _KIND_KEYS[info["kind"]]
    for key in required:
        if key not in info:
            raise data_error(f"the key {key!r} is missing; expected the keys {quote_list(required)}", path.name)
    _check_kind_keys(info, path.name)
    return info


def _check_kind_keys(info: dict, source: str) -> None:
    for key in ("feature_columns", "label_columns", "levels"):
        value = info.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, (str, int, float)) for v in value):
            raise data_error(f"the key {key!r} is {value!r}; expected a list", source)
    for key in ("feature_columns", "label_columns"):
        if not all(isinstance(v, str) for v in info.get(key, [])):
            raise data_error(f"the key {key!r} is {info[key]!r}; expected a list of column names", source)
    defaults = info.get("tree_defaults", {})
    if not isinstance(defaults, dict) or not all(
            key in TREE_DEFAULT_KEYS and isinstance(value, int) and not isinstance(value, bool) and value >= 1
            for key, value in defaults.items()):
        raise data_error(f"the key 'tree_defaults' is {defaults!r}; expected an object mapping "
                         f"{quote_list(TREE_DEFAULT_KEYS)} to whole numbers of at least 1", source)
    splits = info.get("splits", {"train": ""})
    if not isinstance(splits, dict) or not splits or not all(isinstance(v, str) for v in splits.values()):
        raise data_error(f"the key 'splits' is {splits!r}; expected an object mapping split names to file "
                         f"names, e.g. {{\"train\": \"{info.get('title', 'NAME')}/train.txt\"}}", source)


def sample_info(name: str, directory: str | os.PathLike | None = None) -> dict:
    """Read the description of a sample.

    The description is the sample's JSON file, checked for the keys every
    sample needs (``kind``, ``title``, ``description``, ``source``,
    ``script``) and those its kind needs to be loaded.

    Parameters
    ----------
    name : str
        Sample name, one of :func:`list_samples`.
    directory : str or os.PathLike, optional
        Where to look; defaults to :data:`SAMPLE_DIR`.

    Returns
    -------
    dict
        ``kind``, ``title``, ``description``, ``source``, ``script`` and the
        keys of the sample's kind (see the module docstring), plus any other
        keys of its JSON file.

    Raises
    ------
    DataError
        If there is no such sample, or its description is unreadable, lacks
        a key or has a key of the wrong type.

    See Also
    --------
    list_samples : The names of the samples.
    sample_tree_defaults : The tree settings of a label-ranking sample.

    Examples
    --------
    >>> from rankviz.datasets import sample_info
    >>> info = sample_info("toy")
    >>> info["kind"], info["feature_columns"], info["label_columns"]
    ('label_ranking', ['A1', 'A2'], ['a1', 'a2', 'a3', 'a4'])
    """
    path = _directory(directory) / f"{name}.json"
    if not path.is_file():
        available = list_samples(directory=directory)
        listed = quote_list(available) if available else "none"
        raise data_error(f"there is no sample {name!r}; available samples: {listed}")
    return dict(_read_description(path))


def sample_tree_defaults(name: str, directory: str | os.PathLike | None = None) -> dict[str, int]:
    """Return the tree settings a sample suggests: its description's ``tree_defaults``.

    The app starts a :class:`rankviz.RankingTree` on the sample from these
    settings: a 16-row teaching set wants smaller leaves than a data set of
    thousands of rows.

    Parameters
    ----------
    name : str
        Sample name, one of :func:`list_samples`.
    directory : str or os.PathLike, optional
        Where to look; defaults to :data:`SAMPLE_DIR`.

    Returns
    -------
    dict of str -> int
        :class:`rankviz.RankingTree` parameters (keys of
        :data:`TREE_DEFAULT_KEYS`) and their values; empty when the sample
        suggests none.

    Raises
    ------
    DataError
        As :func:`sample_info`.

    See Also
    --------
    sample_info : The whole description.

    Examples
    --------
    >>> from rankviz.datasets.samples import sample_tree_defaults
    >>> sample_tree_defaults("toy")
    {'min_samples_leaf': 2}
    """
    return dict(sample_info(name, directory).get("tree_defaults", {}))


def _info_of_kind(name: str, kind: str, directory: str | os.PathLike | None) -> dict:
    noun = SAMPLE_KINDS[kind]
    available = list_samples(kind, directory)
    listed = quote_list(available) if available else "none"
    path = _directory(directory) / f"{name}.json"
    if not path.is_file():
        raise data_error(f"there is no {noun} sample {name!r}; available {noun} samples: {listed}")
    info = _read_description(path)
    if info["kind"] != kind:
        raise data_error(f"the sample {name!r} is {_article(SAMPLE_KINDS[info['kind']])} sample; expected "
                         f"{_article(noun)} sample, one of {listed}")
    return info


def _article(noun: str) -> str:
    return f"an {noun}" if noun[0] in "aeio" else f"a {noun}"


def load_sample(name: str, directory: str | os.PathLike | None = None
                ) -> RankingDataset | OrdinalDataset | dict[str, QueryDataset]:
    """Load a sample as the dataset of its kind.

    The samples ship with the package, so loading one never uses the
    network: ``"toy"``, ``"metalearning"``, ``"iris_nb"`` and ``"wine_nb"``
    (label ranking), ``"diabetes_ordinal"`` (ordinal) and
    ``"ltr_synthetic"`` (learning to rank).

    Parameters
    ----------
    name : str
        Sample name, one of :func:`list_samples`.
    directory : str or os.PathLike, optional
        Where to look; defaults to :data:`SAMPLE_DIR`.

    Returns
    -------
    RankingDataset, OrdinalDataset or dict of str -> QueryDataset
        A label-ranking sample as a :class:`RankingDataset`, an ordinal one
        as an :class:`OrdinalDataset`, a learning-to-rank one as its splits
        (see :func:`load_ltr_sample`). The dataset's ``name`` is the
        sample's title (or its name if the title is empty), its
        ``description`` the sample's description.

    Raises
    ------
    DataError
        If the sample does not exist or its files are malformed.

    See Also
    --------
    list_samples : The names of the samples.
    sample_info : What a sample is and where it comes from.
    load_ordinal_sample, load_ltr_sample : Load a sample of one kind only.

    Examples
    --------
    >>> from rankviz import load_sample
    >>> data = load_sample("toy")
    >>> data.X.shape, data.label_names
    ((16, 2), ('a1', 'a2', 'a3', 'a4'))
    """
    info = sample_info(name, directory)
    folder = _directory(directory)
    title, description = str(info["title"] or name), str(info["description"])
    if info["kind"] == "query":
        return _load_splits(name, info, folder)
    dataset: RankingDataset | OrdinalDataset
    if info["kind"] == "ordinal":
        dataset = load_ordinal_csv(folder / f"{name}.csv", info["target"],
                                   feature_columns=info["feature_columns"], levels=info["levels"], name=name)
    else:
        dataset = load_csv(folder / f"{name}.csv", info["feature_columns"], "ranks", info["label_columns"],
                           name=name)
    return dataclasses.replace(dataset, name=title, description=description)


def load_ordinal_sample(name: str, directory: str | os.PathLike | None = None) -> OrdinalDataset:
    """Load an ordinal sample (``kind: "ordinal"``) with its level order.

    As :func:`load_sample`, but a sample of another kind is refused, so the
    result is always an :class:`~rankviz.datasets.OrdinalDataset` whose
    levels are ordered as the sample's description says.

    Parameters
    ----------
    name : str
        Sample name, one of ``list_samples("ordinal")``.
    directory : str or os.PathLike, optional
        Where to look; defaults to :data:`SAMPLE_DIR`.

    Returns
    -------
    OrdinalDataset
        The sample, named by its title, with the levels of its description
        (lowest first).

    Raises
    ------
    DataError
        If there is no ordinal sample of that name or its files are malformed.

    See Also
    --------
    load_sample : Load a sample of any kind.

    Examples
    --------
    >>> from rankviz.datasets import load_ordinal_sample
    >>> data = load_ordinal_sample("diabetes_ordinal")
    >>> data.n_samples, data.target, data.levels
    (442, 'progression', ['very low', 'low', 'medium', 'high', 'very high'])
    """
    _info_of_kind(name, "ordinal", directory)
    dataset = load_sample(name, directory)
    assert isinstance(dataset, OrdinalDataset)  # an ordinal sample: _info_of_kind checked
    return dataset


def load_ltr_sample(name: str = "ltr_synthetic", directory: str | os.PathLike | None = None
                    ) -> dict[str, QueryDataset]:
    """Load the splits of a learning-to-rank sample (``kind: "query"``).

    The splits are svmlight / LETOR files of whole queries, read with
    :func:`~rankviz.datasets.load_svmlight`; a sample of another kind is
    refused.

    Parameters
    ----------
    name : str, default="ltr_synthetic"
        Sample name, one of ``list_samples("query")``.
    directory : str or os.PathLike, optional
        Where to look; defaults to :data:`SAMPLE_DIR`.

    Returns
    -------
    dict of str -> QueryDataset
        One dataset per split in the description's order (``"train"``,
        ``"vali"``, ``"test"`` for the bundled sample), each named
        ``"<name>: <split>"`` and described by the sample's description.

    Raises
    ------
    DataError
        If there is no learning-to-rank sample of that name or a file is
        malformed.

    See Also
    --------
    load_sample : Load a sample of any kind.
    rankviz.make_ltr_dataset : The generator that made the bundled sample.

    Examples
    --------
    >>> from rankviz import load_ltr_sample
    >>> splits = load_ltr_sample()
    >>> list(splits)
    ['train', 'vali', 'test']
    >>> splits["train"]
    QueryDataset(name='ltr_synthetic: train', n_queries=120, n_docs=1940, n_features=40)
    """
    info = _info_of_kind(name, "query", directory)
    return _load_splits(name, info, _directory(directory))


def _load_splits(name: str, info: dict, folder: Path) -> dict[str, QueryDataset]:
    out = {}
    for split, file_name in info["splits"].items():
        dataset = load_svmlight(folder / file_name, name=f"{name}: {split}")
        out[split] = QueryDataset(dataset.X, dataset.relevance, dataset.qid, dataset.feature_names,
                                  name=dataset.name, description=str(info["description"]))
    return out
