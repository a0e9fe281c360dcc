"""Fetch public data sets once, check them, and read them from a local cache.

In the manner of scikit-learn's ``fetch_*`` functions:

* :func:`fetch_label_ranking` reads one set of the public label-ranking
  collection, :data:`LABEL_RANKING_SETS`: the complete-ranking sets of
  Cheng, Hühn & Hüllermeier [1]_ (the 16 semi-synthetic sets of their
  Table 2 and the five real-world biological ones of [2]_) and the
  partial-ranking sets with ties of Alfaro, Aledo & Gámez [3]_ (names
  ending in ``-partial``), as a :class:`~rankviz.datasets.RankingDataset`;
* :func:`fetch_letor_example` reads LightGBM's small learning-to-rank
  example [4]_ (svmlight / LETOR lines and ``.query`` group files) as
  train and test :class:`~rankviz.datasets.QueryDataset` splits.

Data home
---------
Files are kept under a *data home*: the ``data_home`` argument, else the
environment variable ``RANKVIZ_DATA``, else ``~/rankviz_data``
(:func:`get_data_home`). The layout is ``<data_home>/label_ranking/<name>.csv``
and ``<data_home>/letor/lightgbm_lambdarank/<file>``, so a folder that
already holds the benchmark files (e.g. ``RANKVIZ_DATA=shared/data`` with
``shared/data/label_ranking/iris.csv``) is used as it is, without network.
A file that is not there is downloaded from its public URL (at most
:data:`MAX_DOWNLOAD_BYTES` or the entry's own limit, read in chunks) into a
temporary file beside its final place and renamed into place only after
its SHA-256 has been checked; ``download_if_missing=False`` never uses the
network.

Checksums
---------
Each file's registry entry (:class:`RemoteFile`) records the SHA-256 of
the bytes its URL serves when it is known. When it is known, a download
with other bytes is deleted and :class:`ChecksumError` names both hashes.
When it is not known (``sha256=None``, which the registry says of every
URL whose bytes could not be obtained when it was written), the
first download is trusted: its SHA-256 is written beside it as
``<file>.sha256`` (the ``sha256sum`` format) and the cached file is held to
it from then on. A label-ranking entry may also list the checksums of
other known copies of the same set (:attr:`LabelRankingSet.known_copies`,
e.g. a copy with other line endings), which a cache may hold instead.
Unlike scikit-learn, a cached file is checked on every fetch (hashing a
few megabytes takes milliseconds): when a checksum is known for
what its URL serves (the registry's, else the ``.sha256`` beside it), the
file must have it or be a known copy, else :class:`ChecksumError`; when
none is known (e.g. a file placed by hand for a URL whose checksum is
unknown), the file is read as it is. A cached file is never deleted.

Errors
------
Every failure to get a file is a :class:`FetchError`, an :class:`OSError`
whose message names the URL, the data home and the path where a file
downloaded by hand is read from.

References
----------
.. [1] W. Cheng, J. Hühn and E. Hüllermeier, "Decision tree and
       instance-based learning for label ranking", Proceedings of the 26th
       International Conference on Machine Learning (ICML), pp. 161-168,
       2009.
.. [2] E. Hüllermeier, J. Fürnkranz, W. Cheng and K. Brinker, "Label
       ranking by learning pairwise preferences", Artificial Intelligence
       172, pp. 1897-1916, 2008.
.. [3] J. C. Alfaro, J. A. Aledo and J. A. Gámez, "Algoritmos basados en
       árboles de decisión para partial label ranking", Actas de la XVIII
       Conferencia de la Asociación Española para la Inteligencia
       Artificial (CAEPIA), pp. 15-20, 2018; the files as the scikit-lr
       package (https://github.com/alfaro96/scikit-lr) published them.
.. [4] G. Ke, Q. Meng, T. Finley, T. Wang, W. Chen, W. Ma, Q. Ye and
       T.-Y. Liu, "LightGBM: A highly efficient gradient boosting decision
       tree", Advances in Neural Information Processing Systems 30, 2017;
       the files ``examples/lambdarank/rank.{train,test}[.query]`` of
       https://github.com/microsoft/LightGBM.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import os
import tempfile
import urllib.error
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .label_ranking import RankingDataset, load_benchmark
from .queries import QueryDataset
from .reading import MAX_UPLOAD_BYTES
from .svmlight import load_svmlight

__all__ = [
    "ChecksumError", "DATA_HOME_ENV", "FetchError", "LABEL_RANKING_SETS", "LETOR_EXAMPLE_FILES",
    "LabelRankingSet", "MAX_DOWNLOAD_BYTES", "RemoteFile", "available_label_ranking_sets",
    "fetch_label_ranking", "fetch_letor_example", "get_data_home",
]

#: The environment variable naming the data home.
DATA_HOME_ENV = "RANKVIZ_DATA"

#: Largest download, in bytes, unless an entry states its own limit: the
#: loaders' :data:`~rankviz.datasets.reading.MAX_UPLOAD_BYTES` (50 MiB), as a
#: larger file could not be read anyway.
MAX_DOWNLOAD_BYTES = MAX_UPLOAD_BYTES

#: Seconds to wait for the server before giving up.
TIMEOUT_SECONDS = 60.0

_CHUNK_BYTES = 64 * 1024


class FetchError(OSError):
    """A data set file could not be had: no network, no cached copy, too large, or other bytes.

    Raised by :func:`fetch_label_ranking` and :func:`fetch_letor_example`.
    As an :class:`OSError` it is caught by code that handles other I/O
    failures; its message names the URL, the data home and the path where
    a copy downloaded by hand is read from.

    See Also
    --------
    ChecksumError : The subclass for a file whose bytes are not the recorded ones.
    get_data_home : The folder the message refers to.

    Examples
    --------
    A set that is not cached, with the network ruled out:

    >>> import tempfile
    >>> from rankviz.datasets import FetchError, fetch_label_ranking
    >>> with tempfile.TemporaryDirectory() as home:
    ...     try:
    ...         fetch_label_ranking("iris", data_home=home, download_if_missing=False)
    ...     except FetchError as error:
    ...         print("download_if_missing=False" in str(error))
    True
    """


class ChecksumError(FetchError):
    """A file's SHA-256 is not the one recorded for it.

    The recorded checksum is the registry's (:class:`RemoteFile`), else the
    one written beside the file at its first download. A download with other
    bytes is deleted; a cached file with other bytes is kept, and the message
    says to delete it to download it again.

    See Also
    --------
    FetchError : The parent class, for every other failure to get a file.

    Examples
    --------
    >>> from rankviz.datasets import ChecksumError, FetchError
    >>> issubclass(ChecksumError, FetchError), issubclass(ChecksumError, OSError)
    (True, True)
    """


@dataclass(frozen=True)
class RemoteFile:
    """One public file: where it is served and what its bytes hash to.

    Attributes
    ----------
    url : str
        The public URL, pinned to a commit or tag so the bytes do not change.
    sha256 : str or None
        Hex SHA-256 of the bytes the URL serves; None when it could not be
        established (then the first download's checksum is recorded beside
        the cached file and held to from then on).
    max_bytes : int or None
        The largest download accepted; None means :data:`MAX_DOWNLOAD_BYTES`.
    """

    url: str
    sha256: str | None = None
    max_bytes: int | None = None


@dataclass(frozen=True)
class LabelRankingSet:
    """A registry entry of :data:`LABEL_RANKING_SETS`.

    Attributes
    ----------
    name : str
        The name :func:`fetch_label_ranking` takes; the cached file is
        ``<data_home>/label_ranking/<name>.csv``.
    remote : RemoteFile
        Where the set is downloaded from.
    rankings : {"complete", "partial"}
        ``"complete"``: every row ranks all labels strictly; ``"partial"``:
        rows have ties (bucket orders, written as dense ranks ``1,2,2``).
    format : str
        The format the URL serves, as far as it is known: ``"benchmark"``,
        a first line ``n,d,L`` alone and then ``n`` lines of ``d`` features
        and ``L`` rank positions (:func:`~rankviz.datasets.load_benchmark`);
        ``"scikit-lr"``, the same with the ``d`` feature and ``L`` label
        names after ``n,d,L`` on the first line (ties as dense ranks
        ``1,2,2``); ``"benchmark or scikit-lr"`` where the bytes were not
        seen. The fetcher reads either, whichever the first line shows.
    label_names : tuple of str or None
        Label names for a cached file whose format has none (the benchmark
        format); None leaves ``label_1..label_L``.
    known_copies : mapping of str to str
        SHA-256 of other known copies of the set that a cache may hold, and
        what each copy is.
    description : str
        What the set is, for the dataset's ``description``.
    """

    name: str
    remote: RemoteFile
    rankings: str
    format: str = "benchmark or scikit-lr"
    label_names: tuple[str, ...] | None = None
    known_copies: Mapping[str, str] = field(default_factory=dict)
    description: str = ""


# --------------------------------------------------------------------------- #
# registry
# --------------------------------------------------------------------------- #

_SCIKIT_LR = "https://raw.githubusercontent.com/alfaro96/scikit-lr/{commit}/sklr/datasets/data/{folder}/{file}.csv"

# Commits of github.com/alfaro96/scikit-lr at which each file is published
# (before the data moved to ranks/ subfolders); a file is pinned to one of them.
_C030 = "c030b3e9eaadb946a36719fd605c8d5768fccca5"
_EFF5 = "eff5cf3c7bcab0a71cc7c7988f0db7f205cc6418"
_251A = "251aec165e92f95b33ad72b3d5a955795ca87478"
_5311 = "5311a496112bed21e213dbe7a6fa9b7788e860e4"
_4AC4 = "4ac4e5aec0258f326dffea6a365ba1b9e5d07463"
_DD20 = "dd20ce9bacb1f695810d53b7356747dacd1504b9"

def _classes(n):
    return tuple(f"class_{j}" for j in range(n))


# name, file, commit, kind of set, label names (for files without them), SHA-256 of the URL's bytes.
# The eight checksums are those of the benchmark-format files (first line n,d,L alone, CRLF lines, five
# decimals) that the project's shared benchmark folder holds; the stored copies of these URLs have the
# same length, CRLF included, and the same lines (iris and glass read line by line), so they are these
# files. The other URLs' bytes were not available: None.
_COMPLETE = [
    ("authorship", "authorship", _5311, "semi-synthetic", ("austen", "london", "milton", "shakespeare"),
     "9b418484945778a82f088077b98a6157b72e1f15f39cf1b536023334091d9621"),
    ("bodyfat", "bodyfat", _EFF5, "semi-synthetic", None, None),
    ("calhousing", "calhousing", _4AC4, "semi-synthetic", _classes(4),
     "2648e480e567df38994b2e80bc565a993a9219b079ea8c0e2baba6e87298ef8b"),
    ("cpu-small", "cpu", _251A, "semi-synthetic", None, None),
    ("elevators", "elevators", _4AC4, "semi-synthetic", None, None),
    ("fried", "fried", _5311, "semi-synthetic", None, None),
    ("glass", "glass", _5311, "semi-synthetic", None,
     "dc69d19c4178da4e5765920e0e766026dbd39347bc5a48d7118a6708afe6d796"),
    ("housing", "housing", _4AC4, "semi-synthetic", _classes(6),
     "2046a0e63e81c6a38e571d63bac10fc4fbb55a7cd1bd780bb6905359ed533cd7"),
    ("iris", "iris", _4AC4, "semi-synthetic", ("setosa", "versicolor", "virginica"),
     "b06d2d56bc1f5364fa483f3fdaf15548003fb80f9b914813b5cc8841734149e2"),
    ("pendigits", "pendigits", _251A, "semi-synthetic", None, None),
    ("segment", "segment", _C030, "semi-synthetic", None, None),
    ("stock", "stock", _4AC4, "semi-synthetic", _classes(5),
     "ce420bd1b62151ac9664b54182e802dd106f3c2cec4d53019ee2f5c943d35a55"),
    ("vehicle", "vehicle", _5311, "semi-synthetic", ("opel", "saab", "bus", "van"),
     "6cef189afb88816bbc3bf17d7719833ebc893501c965828e1f8b222448d05d58"),
    ("vowel", "vowel", _DD20, "semi-synthetic", None, None),
    ("wine", "wine", _4AC4, "semi-synthetic", _classes(3),
     "27d0560470b01827e16d4ad698723a223fbfac596a08689f5b202fc0a53d15b1"),
    ("wisconsin", "wisconsin", _5311, "semi-synthetic", None, None),
    ("cold", "cold", _251A, "real-world biological", None, None),
    ("diau", "diau", _C030, "real-world biological", None, None),
    ("dtt", "dtt", _5311, "real-world biological", None, None),
    ("heat", "heat", _251A, "real-world biological", None, None),
    ("spo", "spo", _EFF5, "real-world biological", None, None),
]

# name of the set, commit of its partial_label_ranking/<name>.csv
_PARTIAL = [
    ("authorship", _5311), ("blocks", _DD20), ("breast", _4AC4), ("ecoli", _4AC4), ("glass", _4AC4),
    ("iris", _DD20), ("letter", _C030), ("libras", _DD20), ("pendigits", _251A), ("satimage", _C030),
    ("segment", _C030), ("shuttle", _C030), ("vehicle", _EFF5), ("vowel", _C030), ("wine", _251A),
    ("yeast", _EFF5),
]


def _registry() -> dict[str, LabelRankingSet]:
    sets = {}
    for name, file, commit, kind, label_names, sha256 in _COMPLETE:
        sets[name] = LabelRankingSet(
            name=name,
            remote=RemoteFile(_SCIKIT_LR.format(commit=commit, folder="label_ranking", file=file), sha256),
            rankings="complete",
            format="benchmark" if sha256 else "benchmark or scikit-lr",
            label_names=label_names,
            description=(f"The {kind} label-ranking set {name!r} of the collection of Cheng, Hühn & "
                         f"Hüllermeier (2009): complete rankings."),
        )
    for name, commit in _PARTIAL:
        key = f"{name}-partial"
        sets[key] = LabelRankingSet(
            name=key,
            remote=RemoteFile(_SCIKIT_LR.format(commit=commit, folder="partial_label_ranking", file=name)),
            rankings="partial",
            description=(f"The partial label-ranking set {name!r} of Alfaro, Aledo & Gámez (2018): "
                         f"rankings with ties."),
        )
    return sets


#: The label-ranking registry, by name: the 21 complete-ranking sets of
#: Cheng et al. (2009) and Hüllermeier et al. (2008) and the 16
#: partial-ranking sets of Alfaro et al. (2018), named ``<set>-partial``.
#: Every URL is a raw GitHub file of scikit-lr pinned to a commit. The
#: SHA-256 is recorded for the eight sets whose bytes are known (authorship,
#: calhousing, glass, housing, iris, stock, vehicle, wine: the benchmark
#: files of Cheng et al.); for the others it could not be established when
#: this was written (``sha256=None``: the first download's is recorded).
LABEL_RANKING_SETS: dict[str, LabelRankingSet] = _registry()

_LIGHTGBM = "https://raw.githubusercontent.com/microsoft/LightGBM/v4.6.0/examples/lambdarank/{}"

#: LightGBM's lambdarank example (tag v4.6.0): svmlight lines without
#: ``qid:`` and ``.query`` files of query sizes. The SHA-256 of these bytes
#: could not be established when this was written (``sha256=None``).
LETOR_EXAMPLE_FILES: dict[str, RemoteFile] = {
    file: RemoteFile(_LIGHTGBM.format(file))
    for file in ("rank.train", "rank.train.query", "rank.test", "rank.test.query")
}

_LETOR_FOLDER = ("letor", "lightgbm_lambdarank")


def available_label_ranking_sets(rankings: str | None = None) -> list[str]:
    """List the names :func:`fetch_label_ranking` takes, sorted.

    The names are the keys of :data:`LABEL_RANKING_SETS`: the 21
    complete-ranking sets of Cheng, Hühn & Hüllermeier (2009) and the 16
    partial-ranking sets of Alfaro, Aledo & Gámez (2018), whose names end in
    ``-partial``. Listing them never uses the network.

    Parameters
    ----------
    rankings : {"complete", "partial"}, optional
        Only the sets with complete rankings, or only those with ties; by
        default (None) both.

    Returns
    -------
    list of str
        The set names in alphabetical order.

    Raises
    ------
    ValueError
        For another value of ``rankings``.

    See Also
    --------
    fetch_label_ranking : Load one of these sets.

    Examples
    --------
    >>> from rankviz.datasets import available_label_ranking_sets
    >>> len(available_label_ranking_sets("complete")), len(available_label_ranking_sets("partial"))
    (21, 16)
    >>> available_label_ranking_sets("partial")[:3]
    ['authorship-partial', 'blocks-partial', 'breast-partial']
    """
    if rankings not in (None, "complete", "partial"):
        raise ValueError(f"rankings must be 'complete', 'partial' or None, got {rankings!r}")
    return sorted(name for name, entry in LABEL_RANKING_SETS.items()
                  if rankings is None or entry.rankings == rankings)


# --------------------------------------------------------------------------- #
# data home, download, cache
# --------------------------------------------------------------------------- #


def get_data_home(data_home: str | os.PathLike | None = None) -> Path:
    """Return the folder fetched files are kept in.

    The label-ranking sets are kept under ``<data_home>/label_ranking/`` and
    LightGBM's example under ``<data_home>/letor/lightgbm_lambdarank/``, so a
    folder that already holds these files is used without network.

    Parameters
    ----------
    data_home : str or os.PathLike, optional
        The folder; by default ``$RANKVIZ_DATA``, else ``~/rankviz_data``.
        ``~`` is expanded. The folder is not created here (only a download
        creates what it needs), so a read-only folder of files works.

    Returns
    -------
    pathlib.Path
        The folder, with ``~`` expanded; it need not exist.

    See Also
    --------
    fetch_label_ranking, fetch_letor_example : The fetchers that read from it.

    Examples
    --------
    >>> from rankviz.datasets import get_data_home
    >>> get_data_home("~/shared/data").name
    'data'
    >>> get_data_home("/data/rankviz").as_posix()
    '/data/rankviz'
    """
    if data_home is None:
        data_home = os.environ.get(DATA_HOME_ENV) or Path("~") / "rankviz_data"
    return Path(data_home).expanduser()


def _sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _sidecar(path: Path) -> Path:
    return path.with_name(path.name + ".sha256")


def _recorded_sha256(path: Path) -> str | None:
    try:
        text = _sidecar(path).read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError):
        return None
    token = text.split()[0].lower() if text.split() else ""
    return token if len(token) == 64 else None


def _how_to_place(path: Path, remote: RemoteFile, data_home: Path) -> str:
    checksum = f"its SHA-256 should be {remote.sha256}" if remote.sha256 else "no SHA-256 is recorded for it"
    return (f"to use a copy made by hand (e.g. without network here), download {remote.url} elsewhere "
            f"and save it as {path} "
            f"({checksum}), or point {DATA_HOME_ENV} (data_home=) at a folder that holds "
            f"{path.relative_to(data_home)}")


def _download(remote: RemoteFile, path: Path, data_home: Path) -> None:
    """Download ``remote`` to ``path``: a temporary file, the checksum, then an atomic rename."""
    limit = MAX_DOWNLOAD_BYTES if remote.max_bytes is None else remote.max_bytes
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = tempfile.NamedTemporaryFile(dir=path.parent, prefix=f".{path.name}.", suffix=".part",
                                             delete=False)
    except OSError as exc:
        raise FetchError(f"cannot write to the data home {data_home} ({exc.strerror or exc}); "
                         f"{_how_to_place(path, remote, data_home)}") from exc
    temporary = Path(handle.name)
    digest = hashlib.sha256()
    try:
        with handle:
            try:
                with urllib.request.urlopen(remote.url, timeout=TIMEOUT_SECONDS) as response:
                    declared = response.headers.get("Content-Length")
                    if declared is not None and declared.isdigit() and int(declared) > limit:
                        raise FetchError(f"{remote.url} is {int(declared):,} bytes; expected at most {limit:,} "
                                         f"bytes, the download limit; nothing was saved in {data_home}")
                    size = 0
                    while chunk := response.read(_CHUNK_BYTES):
                        size += len(chunk)
                        if size > limit:
                            raise FetchError(f"{remote.url} sent more than {limit:,} bytes, the download "
                                             f"limit; nothing was saved in {data_home}")
                        digest.update(chunk)
                        handle.write(chunk)
            except FetchError:
                raise
            except (urllib.error.URLError, OSError, ValueError) as exc:
                reason: object  # text, or the exception itself
                if isinstance(exc, urllib.error.HTTPError):
                    reason = f"HTTP {exc.code} {exc.reason}"
                else:
                    reason = getattr(exc, "reason", None) or exc
                raise FetchError(f"cannot download {remote.url} ({reason}); the data home is {data_home}; "
                                 f"{_how_to_place(path, remote, data_home)}") from exc
        actual = digest.hexdigest()
        if remote.sha256 is not None and actual != remote.sha256.lower():
            raise ChecksumError(f"{remote.url} has SHA-256 {actual}; expected {remote.sha256}; the download "
                                f"was deleted and nothing was saved in {data_home}")
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    if remote.sha256 is None:  # trust on first download: record what was fetched
        try:
            _sidecar(path).write_text(f"{actual}  {path.name}\n", encoding="ascii")
        except OSError:
            pass


def _cached_bytes(path: Path, remote: RemoteFile, data_home: Path, download_if_missing: bool,
                  also_accepted: Mapping[str, str] | None = None) -> bytes:
    """The bytes of ``path``, downloaded first if needed, checked against every checksum there is."""
    if not path.is_file():
        if not download_if_missing:
            raise FetchError(f"{path} is not in the data home {data_home} and download_if_missing=False; "
                             f"{_how_to_place(path, remote, data_home)}, or call again with "
                             f"download_if_missing=True")
        _download(remote, path, data_home)
    limit = MAX_DOWNLOAD_BYTES if remote.max_bytes is None else remote.max_bytes
    try:
        size = path.stat().st_size
        if size > limit:
            raise FetchError(f"{path} is {size:,} bytes; expected at most {limit:,} bytes")
        data = path.read_bytes()
    except FetchError:
        raise
    except OSError as exc:
        raise FetchError(f"cannot read {path} ({exc.strerror or exc})") from exc
    # The file is held to a checksum only when one is known for what the URL
    # serves: the registry's, else the one recorded at the first download;
    # known copies are then accepted too. Without either, nothing says what
    # the bytes should be.
    accepted = {}
    if remote.sha256:
        accepted[remote.sha256.lower()] = f"the file {remote.url} serves"
    elif recorded := _recorded_sha256(path):
        accepted[recorded] = f"its first download, recorded in {_sidecar(path).name}"
    if accepted:
        accepted.update(also_accepted or {})
    actual = _sha256_of(data)
    if accepted and actual not in accepted:
        raise ChecksumError(f"the cached file {path} has SHA-256 {actual}; expected "
                            f"{' or '.join(sorted(accepted))} ({'; '.join(accepted.values())}); delete it "
                            f"(and {_sidecar(path).name} if there is one) to download it again")
    return data


def _named_buffer(data: bytes, path: Path) -> io.BytesIO:
    buffer = io.BytesIO(data)
    buffer.name = str(path)
    return buffer


# --------------------------------------------------------------------------- #
# fetchers
# --------------------------------------------------------------------------- #


def fetch_label_ranking(name: str, *, data_home: str | os.PathLike | None = None,
                        download_if_missing: bool = True) -> RankingDataset:
    """Load a public label-ranking set, downloading it once into the data home.

    The file is looked for at ``<data_home>/label_ranking/<name>.csv`` and
    downloaded from its pinned URL only when it is not there; its SHA-256 is
    checked on every call (see the module's notes on checksums).

    Parameters
    ----------
    name : str
        One of :func:`available_label_ranking_sets`: ``"iris"``,
        ``"calhousing"``, ... (complete rankings) or ``"iris-partial"``,
        ``"yeast-partial"``, ... (rankings with ties).
    data_home : str or os.PathLike, optional
        The cache folder (:func:`get_data_home`); the set is
        ``<data_home>/label_ranking/<name>.csv``.
    download_if_missing : bool, default=True
        Download the file when it is not cached; with False a missing file
        is a :class:`FetchError` and the network is never used.

    Returns
    -------
    RankingDataset
        Named ``name``. A file in the scikit-lr format gets its feature and
        label names from its first line (a feature named like a label is
        renamed ``<name> (feature)``); one in the benchmark format
        (``n,d,L`` alone) has features ``x1..xd`` and the registry's label
        names. Ties (dense ranks ``1,2,2``) become average positions, as
        :func:`~rankviz.datasets.load_benchmark` reads them.

    Raises
    ------
    ValueError
        For a name not in :data:`LABEL_RANKING_SETS`.
    FetchError
        When the file is not cached and cannot be downloaded (the message
        names the URL, the data home and where to save a copy made by
        hand), or is larger than the download limit.
    ChecksumError
        When a download or the cached file has another SHA-256 than the one
        recorded; a download is then deleted.
    DataError
        When the file is not a label-ranking file of either format.

    See Also
    --------
    available_label_ranking_sets : The names this function takes.
    get_data_home : Where the files are cached.
    rankviz.datasets.load_benchmark : Read a benchmark file already on disk.

    References
    ----------
    .. [1] W. Cheng, J. Hühn and E. Hüllermeier, "Decision tree and
           instance-based learning for label ranking", ICML 2009,
           pp. 161-168.
    .. [2] J. C. Alfaro, J. A. Aledo and J. A. Gámez, "Algoritmos basados
           en árboles de decisión para partial label ranking", CAEPIA 2018,
           pp. 15-20.

    Examples
    --------
    >>> from rankviz.datasets import fetch_label_ranking
    >>> iris = fetch_label_ranking("iris")  # doctest: +SKIP
    >>> iris.n_samples, iris.n_labels  # doctest: +SKIP
    (150, 3)
    >>> from rankviz.datasets import LABEL_RANKING_SETS
    >>> LABEL_RANKING_SETS["iris"].rankings, LABEL_RANKING_SETS["iris"].label_names
    ('complete', ('setosa', 'versicolor', 'virginica'))
    """
    entry = LABEL_RANKING_SETS.get(name)
    if entry is None:
        raise ValueError(f"no label-ranking set is named {name!r}; expected one of "
                         f"{', '.join(available_label_ranking_sets())}")
    home = get_data_home(data_home)
    path = home / "label_ranking" / f"{name}.csv"
    data = _cached_bytes(path, entry.remote, home, download_if_missing, entry.known_copies)
    # scikit-lr's copies name their columns after n,d,L on line 1 (load_benchmark reads them, and they win);
    # the registry names the labels of the benchmark files, which name none
    named = data.partition(b"\n")[0].rstrip(b"\r, ").count(b",") > 2
    dataset = load_benchmark(_named_buffer(data, path), name=name, label_names=None if named else entry.label_names)
    return dataclasses.replace(dataset, description=f"{entry.description} Published at {entry.remote.url}.")


def fetch_letor_example(*, data_home: str | os.PathLike | None = None,
                        download_if_missing: bool = True) -> dict[str, QueryDataset]:
    """Load LightGBM's lambdarank example, a small public LETOR-format set.

    The four files ``rank.train``, ``rank.train.query``, ``rank.test`` and
    ``rank.test.query`` (:data:`LETOR_EXAMPLE_FILES`, LightGBM v4.6.0) are
    downloaded once into ``<data_home>/letor/lightgbm_lambdarank/`` and
    read with :func:`~rankviz.datasets.load_svmlight`: lines
    ``relevance index:value ...`` whose queries come from the ``.query``
    files (one number of documents per line).

    Parameters
    ----------
    data_home : str or os.PathLike, optional
        The cache folder (:func:`get_data_home`).
    download_if_missing : bool, default=True
        Download missing files; with False a missing file is a
        :class:`FetchError`.

    Returns
    -------
    dict of str -> QueryDataset
        ``"train"`` and ``"test"`` (as :func:`~rankviz.datasets.load_ltr_sample`
        returns splits), named ``"lightgbm_lambdarank: train"`` and so on;
        the test split is read at the training split's number of features.

    Raises
    ------
    FetchError, ChecksumError
        As for :func:`fetch_label_ranking`.
    DataError
        When a file is not in the svmlight format.

    See Also
    --------
    rankviz.datasets.load_ltr_sample : A bundled learning-to-rank sample, without network.
    rankviz.datasets.load_svmlight : Read svmlight / LETOR files already on disk.

    References
    ----------
    .. [1] G. Ke et al., "LightGBM: A highly efficient gradient boosting
           decision tree", NeurIPS 2017; ``examples/lambdarank`` of
           https://github.com/microsoft/LightGBM.
    .. [2] T. Qin, T.-Y. Liu, J. Xu and H. Li, "LETOR: A benchmark
           collection for research on learning to rank for information
           retrieval", Information Retrieval 13(4), pp. 346-374, 2010.

    Examples
    --------
    >>> from rankviz.datasets import fetch_letor_example
    >>> splits = fetch_letor_example()  # doctest: +SKIP
    >>> sorted(splits)  # doctest: +SKIP
    ['test', 'train']
    >>> from rankviz.datasets.fetchers import LETOR_EXAMPLE_FILES
    >>> sorted(LETOR_EXAMPLE_FILES)
    ['rank.test', 'rank.test.query', 'rank.train', 'rank.train.query']
    """
    home = get_data_home(data_home)
    folder = home.joinpath(*_LETOR_FOLDER)
    data = {file: _cached_bytes(folder / file, remote, home, download_if_missing)
            for file, remote in LETOR_EXAMPLE_FILES.items()}
    description = (f"LightGBM's lambdarank example (learning to rank, svmlight lines with .query files), "
                   f"from {LETOR_EXAMPLE_FILES['rank.train'].url.rsplit('/', 1)[0]}/.")
    splits: dict[str, QueryDataset] = {}
    n_features = None
    for split in ("train", "test"):
        file = f"rank.{split}"
        dataset = load_svmlight(_named_buffer(data[file], folder / file), name=f"lightgbm_lambdarank: {split}",
                                query_file=_named_buffer(data[f"{file}.query"], folder / f"{file}.query"),
                                n_features=n_features)
        n_features = dataset.X.shape[1]
        splits[split] = dataclasses.replace(dataset, description=description)
    return splits
