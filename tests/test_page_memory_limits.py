"""Inputs too large for memory, uploaded in the app: a located message on the page, never a traceback.

Issue 35 §1: a 147 KB benchmark file of 10,000 labels put a MemoryError
traceback on the Ranking impurity vs Gini page (its criteria keep labels x
levels numbers per row), and a query CSV of 5 queries x 15,000 documents
one on the MPBoost page (MPBoost kept every pair of a query). The first is
refused by the library's memory budget before anything large is allocated,
with the message the library gives; the app's budget is a share of the
library's (``rankviz.ui.session_memory``). MPBoost no longer needs the pairs
of its largest queries when they do not fit: its memory is then linear in
their documents.
"""

import io
import re

import numpy as np
from scipy import sparse
import pytest
from streamlit.testing.v1 import AppTest

from rankviz import MPBoost, OrdinalTree, RankingTree, config_context, load_benchmark
from rankviz.ltr.mpboost import count_preference_pairs, misordered_share, misordering_loss, preference_pairs
from rankviz.exceptions import MemoryLimitError
from rankviz.ui.upload import upload_digest

LABELS = 10_000


def wide_benchmark() -> bytes:
    """5 rows of 10,000 labels in the benchmark format: about 150 KB."""
    rng = np.random.default_rng(0)
    rows = [f"5,1,{LABELS}"]
    for k in range(5):
        rows.append(",".join([f"{k / 5}", *map(str, rng.permutation(LABELS) + 1)]))
    return ("\n".join(rows) + "\n").encode()


def long_queries() -> bytes:
    """5 queries of 15,000 documents, grades 0..4: about 0.7 MB of CSV."""
    rng = np.random.default_rng(0)
    lines = ["qid,rel,f1"]
    for q in range(5):
        lines += [f"{q},{g},{x:.3f}" for g, x in zip(rng.integers(0, 5, 15_000), rng.random(15_000))]
    return ("\n".join(lines) + "\n").encode()


def page(app_path, name, **state):
    at = AppTest.from_file(app_path, default_timeout=180)
    for key, value in state.items():
        at.session_state[key] = value
    at.switch_page(f"app_pages/{name}.py").run()
    assert not at.exception
    return at


def library_message(fit) -> str:
    with pytest.raises(MemoryLimitError) as refused:
        fit()
    return str(refused.value)


@pytest.mark.parametrize("criterion", ["ranking_impurity", "gini", "mallows"])
def test_the_library_refuses_10000_labels_before_allocating(criterion):
    data = load_benchmark(io.BytesIO(wide_benchmark()), name="wide.txt")
    message = library_message(lambda: RankingTree(criterion=criterion).fit(data.X, data.Y))
    assert f"criterion '{criterion}'" in message and "5 rows of 10,000 labels" in message
    assert "over the memory limit of" in message and "rankviz.set_config(max_memory=...)" in message
    assert "expected at most" in message and "labels for 5 rows" in message


def test_the_largest_input_the_message_names_does_fit():
    """The bound the message gives is the bound the check applies: that many labels are accepted."""
    rng = np.random.default_rng(1)
    with config_context(max_memory="20 MB"):
        Y = np.argsort(rng.random((50, 200)), axis=1) + 1
        message = library_message(lambda: RankingTree(criterion="gini").fit(rng.random((50, 2)), Y))
        labels = int(message.rsplit("at most ", 1)[1].split(" labels")[0].replace(",", ""))
        assert 2 <= labels < 200
        RankingTree(criterion="gini", max_depth=1).fit(rng.random((50, 2)), Y[:, :labels])
        with pytest.raises(MemoryLimitError):
            RankingTree(criterion="gini").fit(rng.random((50, 2)), np.argsort(rng.random((50, labels + 1)), axis=1) + 1)


def test_an_ordinal_target_of_a_level_per_row_is_refused():
    with config_context(max_memory="50 MB"):
        message = library_message(lambda: OrdinalTree().fit(np.random.default_rng(0).random((20_000, 3)),
                                                            np.arange(20_000)))
    assert "19,999 numbers per row" in message and "20,000 rows of 1 label" in message


def test_ranking_impurity_vs_gini_shows_the_limit_for_10000_labels(app_path):
    at = page(app_path, "impurity_vs_gini", ivg_kind="ranking")
    at.selectbox(key="dataset").set_value("__upload__").run()
    content = wide_benchmark()
    at.file_uploader(key="upload_file").set_value(("wide.txt", content, "text/plain")).run()
    kind = f"upload_kind_{upload_digest('wide.txt', content)}"
    if any(radio.key == kind for radio in at.radio):
        at.radio(key=kind).set_value("benchmark").run()
    assert not at.exception, [e.value for e in at.exception]
    shown = " ".join(e.value for e in at.error)
    assert "over the memory limit of" in shown and "10,000 labels" in shown, shown


def test_mpboost_page_fits_15000_documents_per_query_without_their_pairs(app_path):
    """562 million pairs would take 57 GiB; the fit walks those queries per document instead."""
    at = page(app_path, "mpboost", mpb_rounds=10)
    at.selectbox(key="ltr_dataset").set_value("__upload__").run()
    at.file_uploader(key="ltr_upload_file").set_value(("long.csv", long_queries(), "text/csv")).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    shown = " ".join(c.value for c in at.caption) + " ".join(m.value for m in at.markdown)
    # the page fits the training split: its pairs are counted, not built
    assert re.search(r"[\d,]{9,} training pairs", shown), shown


def test_mpboost_fits_one_query_of_20000_documents_in_linear_memory():
    """A query of 20,000 documents (160 million pairs, 16 GiB as pairs): the fit builds none of them."""
    rng = np.random.default_rng(0)
    X, y, qid = rng.random((20_000, 3)), rng.integers(0, 5, 20_000), np.zeros(20_000)
    with config_context(max_memory="300 MB"):
        model = MPBoost(n_rounds=5).fit(X, y, qid=qid)
        assert model.n_pairs_ == count_preference_pairs(y, qid) > 10**8
        assert model._pairs is None  # not built
        with pytest.raises(MemoryLimitError):  # built only if asked for, and if they fit
            model.pairs_
    peak = peak_of(lambda: MPBoost(n_rounds=5).fit(X, y, qid=qid), max_memory="300 MB")
    assert peak < 100 * 2**20, peak  # a few arrays of documents x grades, not 16 GiB of pairs


def test_mpboost_refuses_a_feature_table_over_the_limit_by_its_numbers_not_by_pairs():
    """When the features alone are over the budget, no number of pairs would fit: the message names the features
    (it said "at most 0 pairs, e.g. one query of at most 0 documents")."""
    rng = np.random.default_rng(0)
    X, y, qid = rng.random((4_000, 50)), rng.integers(0, 3, 4_000), np.repeat(np.arange(40), 100)
    with config_context(max_memory="4 MB"), pytest.raises(MemoryLimitError) as refused:  # 200,000 numbers: 8 MB
        MPBoost(n_rounds=2).fit(X, y, qid=qid)
    message = str(refused.value)
    assert "4,000 documents whose features hold 200,000 numbers" in message, message
    assert f"at most {4 * 10**6 // 40:,} numbers" in message and "sparse" in message, message
    assert "0 pairs" not in message, message
    with config_context(max_memory="4 MB"), pytest.raises(MemoryLimitError, match="200,000 numbers"):
        MPBoost(n_rounds=2).fit(sparse.csr_matrix(X), y, qid=qid)  # as many values held: refused the same way


def peak_of(fit, max_memory):
    """The peak of NumPy's allocations during ``fit`` (tracemalloc follows them), in bytes."""
    import tracemalloc

    with config_context(max_memory=max_memory):
        tracemalloc.start()
        try:
            fit()
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()


def test_without_the_walked_pairs_the_fit_is_the_same():
    """A budget too small for every pair changes how the sums are made, not the stumps."""
    rng = np.random.default_rng(3)
    qid = np.r_[np.zeros(1_500), rng.integers(1, 60, 500)]  # one large query, many small ones
    X, y = rng.random((2_000, 4)), rng.integers(0, 4, 2_000).astype(float)
    full = MPBoost(n_rounds=15).fit(X, y, qid=qid)
    with config_context(max_memory="40 MB"):  # under the ~100 MB of the 0.9 million pairs
        lean = MPBoost(n_rounds=15).fit(X, y, qid=qid)
    assert full._pairs is not None and lean._pairs is None
    np.testing.assert_array_equal(lean.feature_, full.feature_)
    np.testing.assert_array_equal(lean.threshold_, full.threshold_)
    np.testing.assert_allclose(lean.value_, full.value_, rtol=1e-9)
    np.testing.assert_allclose(lean.normalizer_, full.normalizer_, rtol=1e-9)
    np.testing.assert_array_equal(lean.pairs_[0], full.pairs_[0])  # built on demand: the same pairs
    np.testing.assert_allclose(lean.distance_, full.distance_)


def test_misordered_share_counts_per_grade_what_the_pairs_count():
    rng = np.random.default_rng(4)
    for trial in range(200):
        n = int(rng.integers(2, 80))
        qid = rng.integers(0, int(rng.integers(1, 6)), n)
        y = rng.integers(0, int(rng.integers(1, 5)), n).astype(float)
        scores = rng.integers(0, 4, n).astype(float) if trial % 2 else rng.normal(size=n)  # ties, or none
        expected = misordering_loss(scores, *preference_pairs(y, qid))
        got = misordered_share(scores, y, qid)
        assert (np.isnan(expected) and np.isnan(got)) or got == pytest.approx(expected, abs=1e-12)
