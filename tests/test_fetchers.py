"""The dataset fetchers: download once, check the SHA-256, cache, work offline, fail clearly.

Files are served by a real HTTP server on 127.0.0.1 (a ThreadingHTTPServer
in a thread); the only patching points registry entries at it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest

from rankviz.datasets import (ChecksumError, DataError, FetchError, available_label_ranking_sets,
                              fetch_label_ranking, fetch_letor_example, get_data_home, load_benchmark,
                              load_svmlight)
from rankviz.datasets import fetchers
from rankviz.datasets.fetchers import LABEL_RANKING_SETS, LETOR_EXAMPLE_FILES, RemoteFile

# A small set in the scikit-lr format: n,d,L, then the feature and label names.
SCIKIT_LR = (b"6,2,3,width,height,red,green,blue\n"
             b"0.1,1.5,1,2,3\n0.2,1.0,2,1,3\n-0.3,0.5,3,2,1\n"
             b"0.4,-1.0,1,3,2\n0.5,2.0,2,3,1\n0.6,0.0,3,1,2\n")
# The same numbers in the benchmark format (first line n,d,L alone), CRLF lines as published.
BENCHMARK = SCIKIT_LR.replace(b"6,2,3,width,height,red,green,blue", b"6,2,3").replace(b"\n", b"\r\n")
# Partial rankings: ties written as dense ranks (1,2,2: label 1 first, labels 2 and 3 tied).
PARTIAL = (b"4,1,3,x,a,b,c\n"
           b"0.1,1,2,2\n0.2,2,1,1\n0.3,1,1,2\n0.4,3,2,1\n")
RANK_TRAIN = b"2 1:0.5 3:0.25\n0 2:1.0\n1 1:0.1 2:0.2\n0 1:0.3\n1 3:0.9\n"
RANK_TRAIN_QUERY = b"3\n2\n"
RANK_TEST = b"1 1:0.7\n0 2:0.4\n2 1:0.2 2:0.1\n0 2:0.6\n"
RANK_TEST_QUERY = b"2\n2\n"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def do_GET(self):  # noqa: N802 - the name http.server calls
        self.server.requests.append(self.path)
        body = self.server.files.get(self.path)
        if body is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        if self.path not in self.server.without_length:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class Server:
    """A local HTTP server of in-memory files; ``stop()`` takes it off the network."""

    def __init__(self):
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self.httpd.files, self.httpd.requests, self.httpd.without_length = {}, [], set()
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        self.running = True

    def serve(self, path: str, body: bytes, content_length: bool = True) -> str:
        self.httpd.files[path] = body
        if not content_length:
            self.httpd.without_length.add(path)
        return self.base + path

    @property
    def requests(self):
        return self.httpd.requests

    def stop(self):
        if self.running:
            self.httpd.shutdown()
            self.httpd.server_close()
            self.thread.join(timeout=10)
            self.running = False


@pytest.fixture
def server():
    s = Server()
    try:
        yield s
    finally:
        s.stop()


def point(monkeypatch, name, url, sha=None, max_bytes=None):
    """Point the registry entry ``name`` at ``url`` (the tests' only patching)."""
    entry = LABEL_RANKING_SETS[name]
    monkeypatch.setitem(LABEL_RANKING_SETS, name,
                        dataclasses.replace(entry, remote=RemoteFile(url, sha, max_bytes)))


def files_in(folder):
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def assert_same_dataset(a, b):
    np.testing.assert_array_equal(a.X.to_numpy(), b.X.to_numpy())
    np.testing.assert_array_equal(a.Y, b.Y)
    assert a.label_names == b.label_names


# --------------------------------------------------------------------------- #
# download, cache, offline
# --------------------------------------------------------------------------- #


def test_first_fetch_downloads_and_caches_then_works_offline(server, tmp_path, monkeypatch):
    point(monkeypatch, "iris", server.serve("/iris.csv", SCIKIT_LR), sha256(SCIKIT_LR))
    first = fetch_label_ranking("iris", data_home=tmp_path)
    assert server.requests == ["/iris.csv"]
    cached = tmp_path / "label_ranking" / "iris.csv"
    assert cached.read_bytes() == SCIKIT_LR
    assert files_in(cached.parent) == ["iris.csv"]  # no temporary file left, no checksum to record

    server.stop()
    again = fetch_label_ranking("iris", data_home=tmp_path)
    assert_same_dataset(first, again)
    assert first.name == "iris" and server.base in first.description


def test_scikit_lr_format_reads_as_the_loader_reads_the_same_numbers(server, tmp_path, monkeypatch):
    point(monkeypatch, "iris", server.serve("/iris.csv", SCIKIT_LR))
    fetched = fetch_label_ranking("iris", data_home=tmp_path)
    expected = load_benchmark(io.BytesIO(BENCHMARK), label_names=["red", "green", "blue"])
    assert_same_dataset(fetched, expected)
    assert list(fetched.X.columns) == ["width", "height"]
    assert fetched.label_names == ("red", "green", "blue")


def test_benchmark_format_equals_the_loaders_output_on_the_same_bytes(server, tmp_path, monkeypatch):
    point(monkeypatch, "wine", server.serve("/wine.csv", BENCHMARK), sha256(BENCHMARK))
    fetched = fetch_label_ranking("wine", data_home=tmp_path)
    expected = load_benchmark(io.BytesIO(BENCHMARK), label_names=LABEL_RANKING_SETS["wine"].label_names)
    assert_same_dataset(fetched, expected)
    assert list(fetched.X.columns) == list(expected.X.columns) == ["x1", "x2"]
    assert fetched.label_names == ("class_0", "class_1", "class_2")


def test_partial_rankings_keep_their_ties_as_average_positions(server, tmp_path, monkeypatch):
    point(monkeypatch, "iris-partial", server.serve("/iris-partial.csv", PARTIAL))
    fetched = fetch_label_ranking("iris-partial", data_home=tmp_path)
    np.testing.assert_array_equal(fetched.Y, [[1, 2.5, 2.5], [3, 1.5, 1.5], [1.5, 1.5, 3], [3, 2, 1]])
    assert fetched.label_names == ("a", "b", "c")
    assert LABEL_RANKING_SETS["iris-partial"].rankings == "partial"


def test_letor_example_downloads_train_and_test_and_matches_load_svmlight(server, tmp_path, monkeypatch):
    bodies = {"rank.train": RANK_TRAIN, "rank.train.query": RANK_TRAIN_QUERY,
              "rank.test": RANK_TEST, "rank.test.query": RANK_TEST_QUERY}
    for file, body in bodies.items():
        monkeypatch.setitem(LETOR_EXAMPLE_FILES, file, RemoteFile(server.serve(f"/lambdarank/{file}", body),
                                                                  sha256(body)))
    splits = fetch_letor_example(data_home=tmp_path)
    assert list(splits) == ["train", "test"]
    folder = tmp_path / "letor" / "lightgbm_lambdarank"
    assert files_in(folder) == sorted(bodies)

    train = load_svmlight(io.BytesIO(RANK_TRAIN), query_file=io.BytesIO(RANK_TRAIN_QUERY))
    test = load_svmlight(io.BytesIO(RANK_TEST), query_file=io.BytesIO(RANK_TEST_QUERY), n_features=3)
    for got, want in ((splits["train"], train), (splits["test"], test)):
        np.testing.assert_array_equal(got.X, want.X)
        np.testing.assert_array_equal(got.relevance, want.relevance)
        np.testing.assert_array_equal(got.qid, want.qid)
    assert splits["test"].X.shape[1] == splits["train"].X.shape[1] == 3  # test read at the train width
    assert splits["train"].name == "lightgbm_lambdarank: train"

    server.stop()
    offline = fetch_letor_example(data_home=tmp_path, download_if_missing=False)
    np.testing.assert_array_equal(offline["test"].X, splits["test"].X)


# --------------------------------------------------------------------------- #
# checksums
# --------------------------------------------------------------------------- #


def test_checksum_mismatch_raises_with_both_hashes_and_leaves_no_file(server, tmp_path, monkeypatch):
    wrong = sha256(b"other bytes")
    point(monkeypatch, "iris", server.serve("/iris.csv", SCIKIT_LR), wrong)
    with pytest.raises(ChecksumError) as info:
        fetch_label_ranking("iris", data_home=tmp_path)
    assert wrong in str(info.value) and sha256(SCIKIT_LR) in str(info.value)
    assert isinstance(info.value, OSError)
    assert files_in(tmp_path / "label_ranking") == []


def test_first_download_without_a_known_checksum_is_recorded_and_held_to(server, tmp_path, monkeypatch):
    point(monkeypatch, "iris", server.serve("/iris.csv", SCIKIT_LR), None)
    fetch_label_ranking("iris", data_home=tmp_path)
    cached = tmp_path / "label_ranking" / "iris.csv"
    assert (tmp_path / "label_ranking" / "iris.csv.sha256").read_text().split() == [sha256(SCIKIT_LR), "iris.csv"]

    cached.write_bytes(SCIKIT_LR.replace(b"0.1,1.5", b"0.9,1.5"))
    with pytest.raises(ChecksumError, match="delete it"):
        fetch_label_ranking("iris", data_home=tmp_path)

    # A checksum in the registry is the one that counts, whatever was recorded.
    point(monkeypatch, "iris", server.base + "/iris.csv", sha256(cached.read_bytes()))
    assert fetch_label_ranking("iris", data_home=tmp_path).X.iloc[0, 0] == 0.9


def test_a_cached_file_with_other_bytes_than_the_registry_says_is_refused(tmp_path, monkeypatch):
    point(monkeypatch, "iris", "http://127.0.0.1:9/iris.csv", sha256(SCIKIT_LR))
    folder = tmp_path / "label_ranking"
    folder.mkdir()
    (folder / "iris.csv").write_bytes(BENCHMARK)
    with pytest.raises(ChecksumError) as info:
        fetch_label_ranking("iris", data_home=tmp_path, download_if_missing=False)
    assert sha256(BENCHMARK) in str(info.value) and sha256(SCIKIT_LR) in str(info.value)
    assert (folder / "iris.csv").exists()  # a cached file is never deleted


def test_a_known_copy_in_the_cache_is_accepted(tmp_path, monkeypatch):
    entry = LABEL_RANKING_SETS["iris"]
    monkeypatch.setitem(LABEL_RANKING_SETS, "iris", dataclasses.replace(
        entry, remote=RemoteFile("http://127.0.0.1:9/iris.csv", sha256(SCIKIT_LR)),
        known_copies={sha256(BENCHMARK): "a copy in the benchmark format"}))
    folder = tmp_path / "label_ranking"
    folder.mkdir()
    (folder / "iris.csv").write_bytes(BENCHMARK)
    fetched = fetch_label_ranking("iris", data_home=tmp_path, download_if_missing=False)
    assert fetched.label_names == ("setosa", "versicolor", "virginica")


# --------------------------------------------------------------------------- #
# failures
# --------------------------------------------------------------------------- #


def test_no_server_is_one_clear_error_naming_the_url_and_the_data_home(server, tmp_path, monkeypatch):
    url = server.serve("/iris.csv", SCIKIT_LR)
    server.stop()
    point(monkeypatch, "iris", url)
    with pytest.raises(FetchError) as info:
        fetch_label_ranking("iris", data_home=tmp_path)
    message = str(info.value)
    assert isinstance(info.value, OSError)
    assert url in message and str(tmp_path) in message
    assert f"save it as {tmp_path / 'label_ranking' / 'iris.csv'}" in message
    assert files_in(tmp_path / "label_ranking") == []


def test_a_missing_file_on_the_server_is_a_fetch_error(server, tmp_path, monkeypatch):
    point(monkeypatch, "iris", server.base + "/nothing-here.csv")
    with pytest.raises(FetchError, match="HTTP 404"):
        fetch_label_ranking("iris", data_home=tmp_path)
    assert files_in(tmp_path / "label_ranking") == []


def test_download_if_missing_false_never_uses_the_network(server, tmp_path, monkeypatch):
    point(monkeypatch, "iris", server.serve("/iris.csv", SCIKIT_LR))
    with pytest.raises(FetchError, match="download_if_missing=False") as info:
        fetch_label_ranking("iris", data_home=tmp_path, download_if_missing=False)
    assert server.requests == []
    assert server.base + "/iris.csv" in str(info.value)


@pytest.mark.parametrize("content_length", [True, False], ids=["declared", "streamed"])
def test_a_download_over_the_limit_is_refused(server, tmp_path, monkeypatch, content_length):
    big = SCIKIT_LR + b"0.7,0.1,1,2,3\n" * 200
    point(monkeypatch, "iris", server.serve("/iris.csv", big, content_length=content_length), max_bytes=1000)
    with pytest.raises(FetchError, match="1,000 bytes"):
        fetch_label_ranking("iris", data_home=tmp_path)
    assert files_in(tmp_path / "label_ranking") == []


def test_a_cached_file_that_is_no_label_ranking_file_is_a_data_error(tmp_path, monkeypatch):
    point(monkeypatch, "iris", "http://127.0.0.1:9/iris.csv")
    folder = tmp_path / "label_ranking"
    folder.mkdir()
    (folder / "iris.csv").write_text("a,b,c\n1,2,3\n")
    with pytest.raises(DataError, match="iris.csv"):
        fetch_label_ranking("iris", data_home=tmp_path, download_if_missing=False)


def test_an_unknown_name_lists_the_known_ones():
    with pytest.raises(ValueError, match="calhousing.*yeast-partial"):
        fetch_label_ranking("no-such-set")


# --------------------------------------------------------------------------- #
# data home
# --------------------------------------------------------------------------- #


def test_rankviz_data_is_the_default_data_home(server, tmp_path, monkeypatch):
    monkeypatch.setenv("RANKVIZ_DATA", str(tmp_path / "home"))
    assert get_data_home() == tmp_path / "home"
    assert get_data_home(tmp_path / "elsewhere") == tmp_path / "elsewhere"
    point(monkeypatch, "iris", server.serve("/iris.csv", SCIKIT_LR))
    fetch_label_ranking("iris")
    assert (tmp_path / "home" / "label_ranking" / "iris.csv").read_bytes() == SCIKIT_LR


def test_without_rankviz_data_the_data_home_is_rankviz_data_in_home(tmp_path, monkeypatch):
    monkeypatch.delenv("RANKVIZ_DATA", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert get_data_home() == tmp_path / "rankviz_data"
    assert not (tmp_path / "rankviz_data").exists()  # created only by a download


# --------------------------------------------------------------------------- #
# registry
# --------------------------------------------------------------------------- #


CHENG_TABLE_2 = {"authorship", "bodyfat", "calhousing", "cpu-small", "elevators", "fried", "glass", "housing",
                 "iris", "pendigits", "segment", "stock", "vehicle", "vowel", "wine", "wisconsin"}


def test_the_registry_names_the_whole_collection():
    complete = set(available_label_ranking_sets("complete"))
    assert CHENG_TABLE_2 <= complete
    assert {"cold", "diau", "dtt", "heat", "spo"} <= complete
    partial = available_label_ranking_sets("partial")
    assert len(partial) == 16 and all(name.endswith("-partial") for name in partial)
    assert set(available_label_ranking_sets()) == complete | set(partial)
    for name, entry in LABEL_RANKING_SETS.items():
        assert entry.name == name and entry.rankings in ("complete", "partial")
        assert entry.remote.url.startswith("https://raw.githubusercontent.com/alfaro96/scikit-lr/")
        commit = entry.remote.url.split("/")[5]
        assert len(commit) == 40 and int(commit, 16) >= 0  # pinned to a commit
        assert entry.remote.sha256 is None or len(entry.remote.sha256) == 64
        assert (entry.format == "benchmark") == (entry.remote.sha256 is not None)
        assert all(len(sha) == 64 for sha in entry.known_copies)
    for file, remote in LETOR_EXAMPLE_FILES.items():
        assert remote.url.endswith(f"/v4.6.0/examples/lambdarank/{file}")
    known = {name for name, entry in LABEL_RANKING_SETS.items() if entry.remote.sha256}
    assert known == {"authorship", "calhousing", "glass", "housing", "iris", "stock", "vehicle", "wine"}
    assert fetchers.MAX_DOWNLOAD_BYTES > 0


def test_the_shared_benchmark_iris_reads_offline_and_matches_the_registry(benchmark_data):
    if benchmark_data.name != "label_ranking":
        pytest.skip(f"{benchmark_data} is not a data home's label_ranking folder")
    iris = fetch_label_ranking("iris", data_home=benchmark_data.parent, download_if_missing=False)
    assert iris.n_samples == 150 and iris.n_labels == 3
    assert iris.label_names == ("setosa", "versicolor", "virginica")
    assert sha256((benchmark_data / "iris.csv").read_bytes()) == LABEL_RANKING_SETS["iris"].remote.sha256


def test_every_shared_benchmark_file_has_the_registry_checksum(benchmark_data):
    present = sorted(p.stem for p in benchmark_data.glob("*.csv") if p.stem in LABEL_RANKING_SETS)
    if not present:
        pytest.skip(f"no registry set in {benchmark_data}")
    for name in present:
        assert sha256((benchmark_data / f"{name}.csv").read_bytes()) == LABEL_RANKING_SETS[name].remote.sha256, name
        assert LABEL_RANKING_SETS[name].format == "benchmark"


def test_a_feature_named_like_a_label_is_renamed_and_the_labels_keep_their_names(server, tmp_path, monkeypatch):
    # yeast-partial as published: scores mit, nuc ... beside classes of the same names.
    body = PARTIAL.replace(b"4,1,3,x,a,b,c", b"4,1,3,b,a,b,c")
    point(monkeypatch, "yeast-partial", server.serve("/yeast-partial.csv", body))
    fetched = fetch_label_ranking("yeast-partial", data_home=tmp_path)
    assert list(fetched.X.columns) == ["b (feature)"]
    assert fetched.label_names == ("a", "b", "c")
    np.testing.assert_array_equal(fetched.X.to_numpy().ravel(), [0.1, 0.2, 0.3, 0.4])
