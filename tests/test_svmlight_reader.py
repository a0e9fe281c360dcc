"""The compiled svmlight reader (issue 37, goal 6) reads what the general reader reads, bit for bit.

:func:`rankviz.load_svmlight` reads a file with the compiled reader of
:mod:`rankviz.datasets.svmlight_kernels` when it is built and every line is
plain, else with the general one (Python). Every file here is loaded both
ways (compilation mode "never" and "wait") and the two results, or the two
errors, must be the same; the plain ones must really take the compiled
path, and the unusual ones must really leave it.
"""

from __future__ import annotations

import io
import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rankviz import jit
from rankviz.datasets import QueryDataset, svmlight
from rankviz.datasets.svmlight import dump_svmlight, load_svmlight
from rankviz.exceptions import DataError

from bad_inputs import CASES


@pytest.fixture(scope="module", autouse=True)
def built_reader():
    svmlight.KERNELS.build()


def load_both(content: bytes, **options):
    """``load_svmlight`` of the same bytes with the general reader and with the compiled one."""
    results = []
    for mode in ("never", "wait"):
        previous = jit.set_compile_mode(mode)
        try:
            results.append(load_svmlight(io.BytesIO(content), name="f", **options))
        except DataError as error:
            results.append(str(error))
        finally:
            jit.set_compile_mode(previous)
    return results


def assert_same(general, compiled):
    if isinstance(general, str) or isinstance(compiled, str):
        assert general == compiled
        return
    assert np.array_equal(general.X, compiled.X)
    assert np.array_equal(np.signbit(general.X), np.signbit(compiled.X))
    assert np.array_equal(general.relevance, compiled.relevance)
    assert general.qid.dtype == compiled.qid.dtype
    assert list(general.qid) == list(compiled.qid)


def takes_compiled_path(content: bytes) -> bool:
    return svmlight._read_compiled(content.decode("utf-8")) is not None


PLAIN = (b"2 qid:1 1:0.5 3:1.2\n0 qid:1 2:0.1\n1 qid:2 1:0.9 2:0.3 # a comment\n"
         b"\n  \t\n# a comment line\n3\tqid:007\t1:-0\t2:+.5e+3 3:5.\n0 qid:7 1:1E-22 2:-9007199254740991\n")


def test_plain_lines_take_the_compiled_path_and_read_the_same():
    assert takes_compiled_path(PLAIN)
    general, compiled = load_both(PLAIN)
    assert_same(general, compiled)
    assert compiled.qid.tolist() == [1, 1, 2, 7, 7]  # '007' is query 7, as the general reader reads it
    assert compiled.X[3, 1] == 500.0 and compiled.X[4, 1] == -9007199254740991.0


@pytest.mark.parametrize("content", [
    "1 qid:é 1:3\n".encode(),                        # outside ASCII
    b"1 qid:1 1:0.1\x0c2:3\n",                          # a form feed, which str.split splits at
    b"1 qid:1 1:123456789012345678901\n",              # 21 significant digits
    b"1 qid:1 1:1e-30\n",                              # beyond the exact powers of ten
    b"1 qid:1 1:9007199254740993\n",                   # a mantissa of 2^53 + 1
    b"1 qid:1 1:1_0\n",                                # Python's float reads it
    b"1 qid:1 1:nan\n",
    b"1 qid:a:b 1:3\n",                                # a ':' in the query id
    b"1 qid:1 1:0.5 1:0.5\n",
    b"1 qid:1 2:1 1:3\n",
    b"1 qid:1 0:1\n",
    b"1 qid:1 100001:1\n",
])
def test_unusual_lines_go_the_general_way_and_read_the_same(content):
    assert not takes_compiled_path(content)
    assert_same(*load_both(content))


@pytest.mark.parametrize("case", [case for case in CASES if case.loader == "svmlight"], ids=lambda case: case.file)
def test_the_bad_input_corpus_reads_the_same_both_ways(case):
    assert_same(*load_both(case.content, **case.options))


@pytest.mark.parametrize("text", ["0", "+.5", "5.", "0.1", "0.30000000000000004", "1e22", "1e-22",
                                  "123456789012345.6", "9007199254740991", "4.35", "-17.0e-5", "2.5E+10",
                                  "0.000000000000000000001", "1234567890123456789"])
def test_numbers_are_python_floats_bit_for_bit(text):
    dataset = load_both(f"1 qid:1 1:{text}\n".encode())[1]
    assert dataset.X[0, 0].tobytes() == np.float64(text).tobytes()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10**15), st.integers(-25, 25), st.booleans()), min_size=1, max_size=30))
def test_random_decimal_texts_read_as_float_does(parts):
    texts = [f"{'-' if negative else ''}{mantissa}e{exponent}" for mantissa, exponent, negative in parts]
    content = "".join(f"0 qid:1 1:{text}\n" for text in texts).encode()
    general, compiled = load_both(content)
    assert_same(general, compiled)
    assert [value for value in compiled.X[:, 0]] == [float(text) for text in texts]  # (a zero's sign aside)
    assert all(x.tobytes() == np.float64(text).tobytes() for x, text in zip(compiled.X[:, 0], texts) if x != 0)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 40), st.integers(1, 6), st.booleans(), st.integers(0, 2**31))
def test_dumped_data_sets_read_back_the_same_both_ways(n_docs, n_features, sparse, seed):
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n_docs, n_features)) * 10.0 ** rng.integers(-3, 4), int(rng.integers(0, 6)))
    X[rng.random(X.shape) < 0.4] = 0.0
    dataset = QueryDataset(X, rng.integers(0, 5, n_docs).astype(float), rng.integers(0, 4, n_docs))
    buffer = io.StringIO()
    dump_svmlight(dataset, buffer, sparse=sparse)
    content = buffer.getvalue().encode()
    assert takes_compiled_path(content)
    general, compiled = load_both(content)
    assert_same(general, compiled)


def test_the_letor_example_reads_the_same_both_ways(tmp_path):
    rng = np.random.default_rng(0)
    lines = []
    for i in range(2000):  # LETOR's shape: graded relevance, queries of 20, a third of 136 features written
        written = np.flatnonzero(rng.random(136) < 0.3) + 1
        features = " ".join(f"{j}:{v:.6g}" for j, v in zip(written, rng.random(written.size) * 100))
        lines.append(f"{rng.integers(0, 5)} qid:{i // 20} {features} #docid = {i}")
    content = ("\n".join(lines) + "\n").encode()
    assert takes_compiled_path(content)
    general, compiled = load_both(content)
    assert_same(general, compiled)
    (tmp_path / "f.query").write_text("\n".join(["20"] * 100) + "\n")
    general, compiled = load_both(content, query_file=tmp_path / "f.query")
    assert_same(general, compiled)
    assert compiled.qid.dtype == np.int64 and compiled.n_queries == 100


def test_a_file_of_colons_asks_for_memory_in_proportion_to_its_size():
    content = b"1 qid:1 " + b":" * 4_000_000 + b"\n"
    tracemalloc.start()
    try:
        general, compiled = load_both(content)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert_same(general, compiled)
    # an entry per ':' would be 20 bytes each (80 MB); a feature takes at least 4 bytes
    assert peak < 12 * len(content)
