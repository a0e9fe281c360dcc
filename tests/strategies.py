"""Hypothesis strategies shared by the property tests (tests/test_properties.py).

Small sizes throughout: the properties are about structure (ties, missing
labels, extreme floats, odd names), not about volume.

Conventions as in docs/design.md: rankings are rank *positions*, 1 = best, ties
as average positions, NaN = label missing; :func:`position_matrices` draws
positions in any other convention (dense or competition ties, gaps, any
finite numbers), which the library converts to that form.
"""

import numpy as np
import pandas as pd
from hypothesis import strategies as st
from scipy.stats import rankdata

from rankviz.datasets.reading import MISSING_MARKERS  # cell texts the loaders read as "no value"

# --------------------------------------------------------------------------- #
# numbers
# --------------------------------------------------------------------------- #
#: Any finite float: negative, huge (1e308), tiny, subnormal (5e-324), -0.0.
finite_floats = st.floats(allow_nan=False, allow_infinity=False)

#: Finite floats with the extremes drawn often: overflow in ``(a + b) / 2`` and the like.
extreme_floats = st.one_of(
    finite_floats,
    st.sampled_from([1.7976931348623157e308, -1.7976931348623157e308, 1e308, -1e308, 5e-324, -5e-324]),
)

#: Whole numbers, including ones a float cannot hold exactly (> 2**53).
whole_numbers = st.integers(min_value=-(10**18), max_value=10**18)


# --------------------------------------------------------------------------- #
# rank matrices
# --------------------------------------------------------------------------- #
@st.composite
def rank_rows(draw, n_labels, ties=True, missing=False, min_present=2):
    """One ranking of ``n_labels`` labels as rank positions (NaN = missing).

    Drawn as small integer scores (higher = better) so that ties are common
    when ``ties``; the present labels are then ranked ``1..m`` with average
    positions for ties, exactly as :func:`rankviz.datasets.label_ranking.validate_rank_matrix`
    expects.
    """
    if ties:
        scores = np.array(draw(st.lists(st.integers(0, 3), min_size=n_labels, max_size=n_labels)),
                          dtype=float)
    else:
        scores = np.array(draw(st.permutations(range(n_labels))), dtype=float)
    present = np.ones(n_labels, dtype=bool)
    if missing:
        present = np.array(draw(st.lists(st.booleans(), min_size=n_labels, max_size=n_labels)))
        # keep at least `min_present` labels: the first ones drawn missing come back
        for j in np.flatnonzero(~present)[: max(0, min_present - int(present.sum()))]:
            present[j] = True
    row = np.full(n_labels, np.nan)
    row[present] = rankdata(-scores[present], method="average")
    return row


@st.composite
def rank_matrices(draw, min_rows=2, max_rows=12, min_labels=2, max_labels=6, ties=True,
                  missing=False, n_rows=None, n_labels=None, every_label=False):
    """A rank-position matrix of shape (n_rows, n_labels).

    ``every_label``: each label is ranked in some row (files must not have a
    label column that is empty in every row); a random row is then complete.
    """
    n_labels = draw(st.integers(min_labels, max_labels)) if n_labels is None else n_labels
    n_rows = draw(st.integers(min_rows, max_rows)) if n_rows is None else n_rows
    rows = draw(st.lists(rank_rows(n_labels, ties=ties, missing=missing),
                         min_size=n_rows, max_size=n_rows))
    Y = np.array(rows, dtype=float).reshape(n_rows, n_labels)
    if every_label and missing and n_rows and np.isnan(Y).all(axis=0).any():
        Y[draw(st.integers(0, n_rows - 1))] = draw(rank_rows(n_labels, ties=ties, missing=False))
    return Y


#: A rank position in some convention: small whole numbers often (ties, gaps, 0, negatives), any finite float.
any_positions = st.one_of(st.integers(-3, 6).map(float), extreme_floats)


@st.composite
def position_matrices(draw, min_rows=1, max_rows=10, min_labels=2, max_labels=6, files=False):
    """Rank positions in any convention, as files and callers write them (issue 16 §1).

    Finite numbers, lower = preferred, equal = tied, NaN = missing: dense
    and competition ties, gaps, zero and negative positions, huge and tiny
    floats. With ``files``, every row has at least two present labels and a
    random row is complete (so that every label is ranked somewhere), as
    the loaders require.
    """
    n_labels = draw(st.integers(min_labels, max_labels))
    n_rows = draw(st.integers(min_rows, max_rows))
    cells = st.one_of(any_positions, st.just(np.nan))
    Y = np.array(draw(st.lists(cells, min_size=n_rows * n_labels, max_size=n_rows * n_labels)),
                 dtype=float).reshape(n_rows, n_labels)
    if files and n_rows:
        short = np.flatnonzero((~np.isnan(Y)).sum(axis=1) < 2).tolist() + [draw(st.integers(0, n_rows - 1))]
        for i in short:
            Y[i] = draw(st.lists(any_positions, min_size=n_labels, max_size=n_labels))
    return Y


@st.composite
def ranking_pairs(draw, min_labels=2, max_labels=7, max_rows=6, ties=True, missing=False):
    """Two rank matrices of the same shape (true, predicted)."""
    n_labels = draw(st.integers(min_labels, max_labels))
    n_rows = draw(st.integers(1, max_rows))
    a = draw(rank_matrices(n_rows=n_rows, n_labels=n_labels, ties=ties, missing=missing))
    b = draw(rank_matrices(n_rows=n_rows, n_labels=n_labels, ties=ties, missing=missing))
    return a, b


# --------------------------------------------------------------------------- #
# names and text cells
# --------------------------------------------------------------------------- #
_NAME_ALPHABET = st.sampled_from(list("abcxyzABQ019_- ,'\"éß中"))


def _is_number_text(text):
    try:
        float(text)
        return True
    except ValueError:
        pass
    try:
        pd.to_numeric(pd.Series([text], dtype=object))
        return True
    except (ValueError, TypeError):
        return False


def _clean_text(text):
    """Kept as is by the CSV loaders: not padded, not a missing marker, not a number."""
    return (text != "" and text == text.strip() and text not in MISSING_MARKERS
            and not _is_number_text(text))


#: Short text: letters, digits, spaces inside, commas and quotes (CSV quoting), non-ASCII.
text_cells = st.text(_NAME_ALPHABET, min_size=1, max_size=6).filter(_clean_text)

#: Column names (no '>' or '=' so that they can be ordering labels too).
column_names = st.text(_NAME_ALPHABET, min_size=1, max_size=6).filter(
    lambda s: s == s.strip() and s != "")


@st.composite
def distinct_names(draw, n, avoid=()):
    """``n`` distinct column names, none in ``avoid``."""
    return draw(st.lists(column_names.filter(lambda s: s not in set(avoid)),
                         min_size=n, max_size=n, unique=True))


# --------------------------------------------------------------------------- #
# feature tables
# --------------------------------------------------------------------------- #
@st.composite
def feature_columns(draw, n_rows, missing=False):
    """One feature column: ("float", values), ("int", values) or ("text", values).

    With ``missing``, some cells are None (a missing value; every cell may be).
    """
    kind = draw(st.sampled_from(["float", "int", "text"]))
    element = {"float": finite_floats, "int": whole_numbers, "text": text_cells}[kind]
    if missing:
        element = st.one_of(element, st.none())
    values = draw(st.lists(element, min_size=n_rows, max_size=n_rows))
    return kind, values


@st.composite
def feature_tables(draw, n_rows, avoid_names=(), missing=False):
    """A dict name -> (kind, values) of 1..4 feature columns."""
    n_features = draw(st.integers(1, 4))
    names = draw(distinct_names(n_features, avoid=avoid_names))
    return {name: draw(feature_columns(n_rows, missing=missing)) for name in names}


# --------------------------------------------------------------------------- #
# tree data
# --------------------------------------------------------------------------- #
@st.composite
def tree_problems(draw, min_rows=4, max_rows=24, max_labels=5, missing=False, nominal=True):
    """Features (DataFrame: numeric columns with ties, maybe a nominal one) and rankings."""
    n_rows = draw(st.integers(min_rows, max_rows))
    n_numeric = draw(st.integers(1, 3))
    columns = {}
    for j in range(n_numeric):
        # few distinct values: ties in the attributes, as in real data
        values = draw(st.lists(st.integers(-3, 3), min_size=n_rows, max_size=n_rows))
        scale = draw(st.sampled_from([1.0, 0.5, 0.1, 1e3]))
        columns[f"x{j + 1}"] = np.array(values, dtype=float) * scale
    if nominal and draw(st.booleans()):
        columns["colour"] = draw(st.lists(st.sampled_from(["red", "green", "blue"]),
                                          min_size=n_rows, max_size=n_rows))
    X = pd.DataFrame(columns)
    Y = draw(rank_matrices(n_rows=n_rows, min_labels=2, max_labels=max_labels, missing=missing))
    return X, Y


# --------------------------------------------------------------------------- #
# query–document data
# --------------------------------------------------------------------------- #
@st.composite
def query_ids(draw, n_docs, min_per_query=2, strings=None):
    """Query ids for ``n_docs`` documents, every query with >= ``min_per_query`` documents,
    the rows of a query not necessarily contiguous."""
    max_queries = max(1, n_docs // min_per_query)
    n_queries = draw(st.integers(1, min(max_queries, 5)))
    # every query gets min_per_query documents, the rest go anywhere
    codes = list(np.repeat(np.arange(n_queries), min_per_query))
    codes += draw(st.lists(st.integers(0, n_queries - 1), min_size=n_docs - len(codes),
                           max_size=n_docs - len(codes)))
    codes = draw(st.permutations(codes))
    strings = draw(st.booleans()) if strings is None else strings
    if strings:
        labels = draw(st.lists(st.text(st.sampled_from(list("abqz_-.:")), min_size=0, max_size=4),
                               min_size=n_queries, max_size=n_queries, unique=True))
        names = np.array(["q" + s for s in labels], dtype=object)
    else:
        names = np.array(draw(st.lists(st.integers(-(10**12), 10**12), min_size=n_queries,
                                       max_size=n_queries, unique=True)), dtype=np.int64)
    return names[np.asarray(codes, dtype=np.intp)]


@st.composite
def ltr_data(draw, min_docs=2, max_docs=20, max_features=4, grades=(0, 4), feature_values=None,
             strings=None):
    """(X, relevance, qid) of a small learning-to-rank set."""
    n_docs = draw(st.integers(min_docs, max_docs))
    n_features = draw(st.integers(1, max_features))
    qid = draw(query_ids(n_docs, strings=strings))
    relevance = np.array(draw(st.lists(st.integers(*grades), min_size=n_docs, max_size=n_docs)),
                         dtype=float)
    element = feature_values if feature_values is not None else finite_floats
    X = np.array(draw(st.lists(element, min_size=n_docs * n_features, max_size=n_docs * n_features)),
                 dtype=float).reshape(n_docs, n_features)
    return X, relevance, qid
