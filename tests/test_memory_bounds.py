"""Inputs that declare or imply sizes far beyond their own (issue 16 §2).

Each hostile input is a few bytes or kilobytes that once asked for gigabytes:
a benchmark header declaring 10^8 labels, an svmlight file whose one large
feature index makes a huge dense matrix, Mallows trees on hundreds of
labels. Each test builds the input, calls the loader or ``fit``, asserts the
message, and asserts with :mod:`tracemalloc` (which sees numpy's
allocations) that the peak stays under :data:`PEAK_BOUND`, far below what
the declared sizes would take.
"""

import tracemalloc

import numpy as np
import pytest

from rankviz.datasets import load_benchmark
from rankviz.exceptions import DataError, MemoryLimitError

#: Peak traced memory allowed while refusing a hostile input (bytes).
PEAK_BOUND = 50 * 1024 * 1024


def peak_memory(call):
    """Run ``call()``; return (its exception or None, peak traced bytes)."""
    tracemalloc.start()
    try:
        call()
    except Exception as error:  # noqa: BLE001 - returned to the test
        raised = error
    else:
        raised = None
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return raised, peak


def test_a_benchmark_header_declaring_10_8_labels_is_refused_before_building_them(tmp_path):
    path = tmp_path / "huge.txt"
    path.write_text("8,2,100000000\n1,2,1,2\n2,1,2,1\n")  # 30 bytes
    error, peak = peak_memory(lambda: load_benchmark(path))
    assert isinstance(error, DataError)
    assert str(error).startswith("huge.txt, line 2: found 4 fields; expected 100000002 numbers")
    assert "as the header '8,2,100000000' says" in str(error)
    assert peak < PEAK_BOUND, peak


def test_a_benchmark_header_declaring_10_8_rows_is_refused(tmp_path):
    path = tmp_path / "rows.txt"
    path.write_text("100000000,1,2\n0.5,1,2\n0.7,2,1\n")
    error, peak = peak_memory(lambda: load_benchmark(path))
    assert isinstance(error, DataError)
    assert "the header says 100000000 data lines but the file has 2" in str(error)
    assert peak < PEAK_BOUND, peak


def test_label_names_of_the_wrong_count_are_still_refused(tmp_path):
    path = tmp_path / "ok.txt"
    path.write_text("2,1,2\n0.5,1,2\n0.7,2,1\n")
    with pytest.raises(DataError, match="3 label names were given but the header says 2 labels"):
        load_benchmark(path, label_names=["a", "b", "c"])
    assert load_benchmark(path, label_names=["a", "b"]).label_names == ("a", "b")


def wide_svmlight(n_documents, index):
    """Two small features per document, and feature ``index`` on line 1 only."""
    lines = [f"{i % 3} qid:{i // 10} 1:0.5 2:0.25" for i in range(n_documents)]
    lines[0] += f" {index}:1"
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("n_documents", [2_000, 20_000])
def test_an_svmlight_file_whose_dense_form_is_too_large_is_refused_at_its_widest_line(tmp_path, n_documents):
    from rankviz.datasets.svmlight import MAX_DENSE_BYTES, load_svmlight

    path = tmp_path / "wide.txt"
    path.write_text(wide_svmlight(n_documents, 100_000))  # 45 KB / 470 KB; dense: 1.5 / 15 GiB
    assert n_documents * 100_000 * 8 > MAX_DENSE_BYTES
    error, peak = peak_memory(lambda: load_svmlight(path))
    assert isinstance(error, DataError)
    message = str(error)
    assert message.startswith("wide.txt, line 1: the feature index 100000 makes the features a dense table of "
                              f"{n_documents:,} documents x 100,000 features")
    assert "over the limit of 400 MiB (rankviz.datasets.svmlight.MAX_DENSE_BYTES)" in message
    assert peak < max(PEAK_BOUND, 40 * path.stat().st_size), peak


def test_sparse_svmlight_lines_within_the_limit_load_as_their_dense_matrix(tmp_path):
    from rankviz.datasets.svmlight import load_svmlight

    path = tmp_path / "sparse.txt"
    path.write_text(wide_svmlight(20, 500))
    ds = load_svmlight(path)
    assert ds.X.shape == (20, 500)
    expected = np.zeros((20, 500))
    expected[:, 0], expected[:, 1], expected[0, 499] = 0.5, 0.25, 1.0
    np.testing.assert_array_equal(np.asarray(ds.X, dtype=float), expected)


def random_rankings(n_rows, n_labels, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_rows, 2))
    Y = np.argsort(rng.random((n_rows, n_labels)), axis=1) + 1.0
    return X, Y


def test_a_mallows_tree_on_more_labels_than_its_limit_is_refused_with_the_limit_stated():
    from rankviz import config_context
    from rankviz.tree import RankingTree

    X, Y = random_rankings(10, 2_000)  # once 30 GiB for a label-by-pair matrix, whatever the rows
    with config_context(max_memory="64 MiB"):
        error, peak = peak_memory(lambda: RankingTree(criterion="mallows").fit(X, Y))
        # 10 rows x 1,999,000 pair indicators, 6 times over, and 2 features 5 times: 915 MiB.
        assert isinstance(error, MemoryLimitError)
        assert str(error) == (
            "criterion 'mallows' keeps an indicator per pair of labels for every row (1,999,000 numbers per row "
            "here): a tree on 10 rows of 2,000 labels and 2 features needs about 915.1 MiB, over the memory "
            "limit of 64.0 MiB (rankviz.set_config(max_memory=...)); expected at most 529 labels for 10 rows")
        assert peak < PEAK_BOUND, peak
        # The bound named is the check's: 529 labels grow, 530 do not.
        RankingTree(criterion="mallows", max_depth=1).fit(X, Y[:, :529].argsort(axis=1) + 1)
        with pytest.raises(MemoryLimitError):
            RankingTree(criterion="mallows").fit(X, Y[:, :530].argsort(axis=1) + 1)


def test_a_mallows_tree_on_400_labels_takes_memory_in_proportion_to_its_pair_statistics():
    from rankviz.tree import RankingTree

    X, Y = random_rankings(10, 400)  # once a 51 GB pair-by-pair matrix
    statistics = 10 * (400 * 399 // 2) * 8  # 6.4 MB
    error, peak = peak_memory(lambda: RankingTree(criterion="mallows").fit(X, Y))
    assert error is None
    assert peak < 24 * statistics, peak  # measured: about 14 times


def test_the_sparse_borda_votes_give_the_centres_and_distances_of_the_definition():
    """Summed Kendall distance to the Borda centre, from the criterion and by brute force."""
    from rankviz.label_ranking.mallows import kendall_distance
    from rankviz.tree.criteria.mallows import Mallows

    _, Y = random_rankings(12, 6, seed=3)
    criterion = Mallows()
    stats = criterion.row_statistics(Y)
    distance, held = criterion.total_distance(np.array([12.0, 5.0]),
                                              np.stack([stats.sum(axis=0), stats[:5].sum(axis=0)]))
    for k, rows in enumerate([Y, Y[:5]]):
        votes = (len(Y[0]) - rows).sum(axis=0)  # Borda: higher is better
        center = np.empty(6)
        center[np.lexsort((np.arange(6), -votes))] = np.arange(1, 7)
        assert distance[k] == kendall_distance(rows, center).sum()
    np.testing.assert_array_equal(held, [6, 6])


def test_the_mallows_model_works_in_blocks_whatever_the_rows():
    """40 incomplete rankings of 600 labels: once 360 MiB (rows x labels^2), now blocks of 16 MiB."""
    from rankviz.label_ranking.mallows import BLOCK_SIZE, fit_mallows

    _, Y = random_rankings(40, 600, seed=1)
    Y[:, :300:2] = np.nan
    error, peak = peak_memory(lambda: fit_mallows(Y))
    assert error is None
    assert peak < 6 * 8 * BLOCK_SIZE, peak  # measured: about 3 blocks' worth


def test_blocks_give_the_numbers_of_the_one_shot_computation(monkeypatch):
    from rankviz.label_ranking import mallows

    _, Y = random_rankings(30, 9, seed=2)
    Y[::3, 2] = np.nan
    Y[1::4, 5] = np.nan
    center = np.arange(1.0, 10.0)
    theta = np.linspace(0.05, 5.0, 50)
    whole = (mallows.kendall_distance(np.where(np.isnan(Y), 0, Y), center),
             mallows.extend_rankings(Y, center), mallows.expected_distance(theta, 9),
             mallows._expected_distance_slope(theta, 9))
    monkeypatch.setattr(mallows, "BLOCK_SIZE", 20)  # a few rows / pairs / thetas per block
    blocked = (mallows.kendall_distance(np.where(np.isnan(Y), 0, Y), center),
               mallows.extend_rankings(Y, center), mallows.expected_distance(theta, 9),
               mallows._expected_distance_slope(theta, 9))
    for a, b in zip(whole, blocked):
        np.testing.assert_array_equal(a, b)


def test_the_mallows_page_shows_the_label_limit_as_an_error_not_a_traceback(app_path):
    from streamlit.testing.v1 import AppTest

    from rankviz.ui.data_picker import UPLOAD
    from rankviz.ui.upload import upload_digest

    rng = np.random.default_rng(4)
    rows = [f"{x:.3f}," + ",".join(str(int(v)) for v in rng.permutation(10_000) + 1) for x in rng.random(10)]
    content = ("10,1,10000\n" + "\n".join(rows) + "\n").encode()
    at = AppTest.from_file(app_path, default_timeout=180)
    at.switch_page("app_pages/mallows_trees.py").run()
    at.selectbox(key="dataset").set_value(UPLOAD).run()
    at.sidebar.get("file_uploader")[0].set_value(("many_labels.txt", content, "text/plain")).run()
    at.radio(key=f"upload_kind_{upload_digest('many_labels.txt', content)}").set_value("benchmark").run()
    assert not at.exception, at.exception
    errors = [e.value for e in at.error]
    assert len(errors) == 1, errors
    assert errors[0].startswith("The label ranking tree cannot be grown on this data: criterion 'mallows' "
                                "keeps an indicator per pair of labels for every row (49,995,000 numbers per row "
                                "here): a tree on 10 rows of 10,000 labels")
    assert "labels for 10 rows" in errors[0]
