"""Telling file formats from their content (rankviz.datasets.formats), and the pickers that use it."""

from __future__ import annotations

import io

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from rankviz import RankingTree, load_sample
from rankviz.datasets.formats import sniff_label_ranking_format, sniff_query_format
from rankviz.datasets.label_ranking import load_benchmark
from rankviz.exceptions import DataError
from rankviz.ui.tree_panel import DEFAULT_MIN_LEAF
from drawings import tree_views


def benchmark_bytes(name="iris_nb", rows=None):
    data = load_sample(name)
    X, Y = np.asarray(data.X, dtype=float), np.asarray(data.Y)
    if rows is not None:
        X, Y = X[:rows], Y[:rows]
    lines = [f"{len(X)},{X.shape[1]},{Y.shape[1]}"]
    lines += [",".join([*(f"{v:g}" for v in x), *(f"{int(r)}" for r in y)]) for x, y in zip(X, Y)]
    return ("\n".join(lines) + "\n").encode()


def test_benchmark_files_are_told_from_csv():
    content = benchmark_bytes()
    guess = sniff_label_ranking_format(content)
    assert guess.format == "benchmark" and "150,4,3" in guess.reason
    # A BOM, CRLF and a trailing comma on the header change nothing.
    crlf = b"\xef\xbb\xbf" + content.replace(b"150,4,3\n", b"150,4,3,\n").replace(b"\n", b"\r\n")
    assert sniff_label_ranking_format(crlf).format == "benchmark"
    # A header of names, a header whose widths do not match, an empty file: CSV.
    assert sniff_label_ranking_format(b"a,b,c\n1,2,3\n").format == "csv"
    assert sniff_label_ranking_format(b"3,1,2\n1,2\n").format == "csv"  # 2 fields, not 1 + 2 + ... = 3
    assert sniff_label_ranking_format(b"16,1,2\n0.5,1,2\n0.1,2,1\n").format == "benchmark"
    assert sniff_label_ranking_format(b"").format == "csv"


@pytest.mark.parametrize("content", [
    b"3,2,3\n1,2,,2,1\n3,4,2,1,3\n5,6,1,2,3\n",  # a missing label on the first record: still d + L fields
    b"+3,+2,+2\n1,2,1,2\n3,4,2,1\n5,6,1,2\n",  # signs, as the loader allows
    b"3; 2; 2\n1;2;1;2\n3;4;2;1\n5;6;1;2\n",  # the separator of line 1, with blanks
    b"3\t2\t2\n1\t2\t1\t2\n3\t4\t2\t1\n5\t6\t1\t2\n",
    "3;2;2\n1;2;1;2\n3;4;2;1\n5;6;1;2\n".encode("utf-16"),
    # a first record longer than the 64 KiB the sniffer reads at first
    ("3,20000,2\n" + "".join(",".join(["0.123456"] * 20000 + ["1", "2"]) + "\n" for _ in range(3))).encode(),
])
def test_the_sniffer_tells_every_benchmark_file_the_loader_reads(content):
    assert sniff_label_ranking_format(content).format == "benchmark"
    assert load_benchmark(io.BytesIO(content)).n_samples == 3  # and the loader reads it


def test_a_header_that_names_the_columns_after_n_d_l_is_the_benchmark_format():
    """scikit-lr publishes the benchmark files with the d + L column names after n,d,L on line 1 (its yeast
    names a feature and a label alike): the sniffer, and the loader, read them."""
    content = b"3,2,2,mit,size,cyt,mit\n0.1,5,1,2\n0.2,6,2,1\n0.3,7,1,1\n"
    guess = sniff_label_ranking_format(content)
    assert guess.format == "benchmark" and "names" in guess.reason
    data = load_benchmark(io.BytesIO(content))
    assert list(data.X.columns) == ["mit (feature)", "size"] and data.label_names == ("cyt", "mit")
    np.testing.assert_array_equal(data.Y, [[1, 2], [2, 1], [1.5, 1.5]])
    # the loader's own label names win; a feature is renamed only against the labels in effect
    named = load_benchmark(io.BytesIO(content), label_names=["p", "q"])
    assert named.label_names == ("p", "q") and list(named.X.columns) == ["mit", "size"]
    # names of the wrong number are CSV to the sniffer and an error to the loader
    wrong = content.replace(b",mit\n", b"\n", 1)
    assert sniff_label_ranking_format(wrong).format == "csv"
    with pytest.raises(DataError, match=r"names 3 columns after 3,2,2; expected 4 names \(2 features, then 2 labels\)"):
        load_benchmark(io.BytesIO(wrong))
    for bad, message in [(b"3,2,2,a,b,c,c", "label name 'c' appears twice"),
                         (b"3,2,2,a,a,c,d", "feature name 'a' appears twice"),
                         (b"3,2,2,a,,c,d", "column 2 has no name")]:
        with pytest.raises(DataError, match=f"^line 1: .*{message}"):
            load_benchmark(io.BytesIO(content.replace(b"3,2,2,mit,size,cyt,mit", bad)))


def test_svmlight_is_told_from_csv():
    assert sniff_query_format(b"# LETOR\n2 qid:1 1:0.5 2:0.1\n0 qid:1 1:0.2\n").format == "svmlight"
    assert sniff_query_format(b"1 1:0.5 3:2e-3\n").format == "svmlight"  # no qid (a group file elsewhere)
    assert sniff_query_format(b"qid,relevance,f1\n1,2,0.5\n", "data.txt").format == "csv"
    # Content that decides nothing: the name does.
    assert sniff_query_format(b"", "train.txt").format == "svmlight"
    assert sniff_query_format(b"", "train.csv").format == "csv"


def test_a_benchmark_upload_without_extension_is_detected_and_grown(app_path):
    content = benchmark_bytes()
    at = AppTest.from_file(app_path, default_timeout=120)
    at.session_state["dataset"] = "__upload__"
    at.run()
    at.file_uploader(key="upload_file").set_value(("iris_rankings", content, "application/octet-stream")).run()
    assert not at.exception
    kind = next(r for r in at.radio if (r.key or "").startswith("upload_kind_"))
    assert kind.value == "benchmark"
    assert any("Detected the benchmark format" in c.value for c in at.caption)
    data = load_benchmark(io.BytesIO(content), name="iris_rankings")
    expected = RankingTree(min_samples_leaf=DEFAULT_MIN_LEAF).fit(data.X, data.Y).tree_
    (view,) = tree_views(at)
    assert len(view["nodes"]) == expected.node_count


def test_an_upload_naming_its_columns_after_n_d_l_is_grown_with_those_names(app_path):
    """scikit-lr's yeast-partial as published names its scores and classes alike: once read as CSV with a
    header, the upload was refused for a name appearing twice."""
    rng = np.random.default_rng(8)
    x = rng.random((40, 2))
    ranks = np.where(x[:, :1] < 0.5, [1, 2, 2], [2, 2, 1])  # the rankings follow the first score
    rows = [",".join([f"{v:.2f}" for v in features] + [str(r) for r in ranking]) for features, ranking in zip(x, ranks)]
    content = ("40,2,3,nuc,mit,cyt,nuc,mit\n" + "\n".join(rows) + "\n").encode()
    at = AppTest.from_file(app_path, default_timeout=120)
    at.session_state["dataset"] = "__upload__"
    at.run()
    at.file_uploader(key="upload_file").set_value(("yeast_like.csv", content, "text/csv")).run()
    assert not at.exception and not at.error
    kind = next(r for r in at.radio if (r.key or "").startswith("upload_kind_"))
    assert kind.value == "benchmark"
    (view,) = tree_views(at)
    text = str(view)
    assert "nuc (feature)" in text and "cyt" in text  # the split on the first score, the labels by name


def test_the_picker_names_an_encoding_that_is_not_utf8(app_path):
    content = "f1,f2,a,b,c\n0.1,u,1,2,3\n0.2,v,2,1,3\n0.3,café,1,3,2\n0.4,w,3,2,1\n".encode("utf-16")
    at = AppTest.from_file(app_path, default_timeout=120)
    at.session_state["dataset"] = "__upload__"
    at.run()
    at.file_uploader(key="upload_file").set_value(("excel.csv", content, "text/csv")).run()
    assert not at.exception
    assert any(c.value == "Read as UTF-16 text." for c in at.sidebar.caption)
    assert next(r for r in at.radio if (r.key or "").startswith("upload_kind_")).value == "csv"
