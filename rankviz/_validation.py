"""Checks shared by the estimators and the loaders.

Feature tables (:func:`check_feature_input`, the one entry check of every
estimator's ``fit`` and of every method that takes ``X`` after fitting, and
:func:`check_features` for the numeric-only estimators), rank matrices
(:func:`validate_rank_matrix`, :func:`check_rankings`, which convert any
finite positions to average positions with :func:`rank_rows`), growth parameters of
the trees (:func:`check_growth_params`), and query-document data
(:func:`check_query_data`). Problems in data raise
:class:`rankviz.exceptions.DataError` (a ``ValueError``) with a located
message; invalid parameters raise ``ValueError``.
"""

from __future__ import annotations

import numbers
import os
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy import sparse
from scipy.stats import rankdata
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted, validate_data

from .exceptions import ColumnLabel, data_error, format_number, join_and, show_text

__all__ = ["moved_fit_keyword", "rank_rows", "validate_rank_matrix", "check_rankings", "check_growth_params", "check_labels_used",
           "check_two_present", "check_query_data", "check_features", "check_feature_input"]


def _row_place(i, line_numbers):
    """``{"line": ...}`` or ``{"row": ...}`` for the ``i``-th row (0-based)."""
    if line_numbers is None:
        return {"row": i + 1}
    return {"line": int(line_numbers[i])}

def check_labels_used(present: np.ndarray, label_names: Sequence[str], source: str, what: str,
                      column_offset: int | None = None) -> None:
    """Every label column of a file must hold a rank (score) in at least one row.

    An empty label column is almost surely a wrong choice of columns. (With
    orderings, labels given explicitly may be unused: the label set is then
    chosen on purpose.)
    """
    unused = np.flatnonzero(~present.any(axis=0))
    if len(unused):
        j = unused[0]
        raise data_error(
            f"the label {show_text(label_names[j], 40)} has no {what} in any row; expected every label "
            f"to be ranked in at least one row (leave the column out of the labels otherwise)",
            source, column=_label_columns([j], label_names, column_offset),
        )

def check_two_present(present: np.ndarray, source: str, line_numbers: ArrayLike | None, what: str) -> None:
    """Every row must have at least two present labels."""
    counts = present.sum(axis=1)
    bad = np.flatnonzero(counts < 2)
    if len(bad):
        i = bad[0]
        got = "none" if counts[i] == 0 else "only 1"
        raise data_error(
            f"{got} of the {present.shape[1]} labels has {what}; expected at least 2 per row, "
            f"since a ranking needs 2 labels",
            source, **_row_place(i, line_numbers),
        )

def _label_columns(indices, label_names, column_offset):
    """How messages name the columns of some labels.

    ``column 'a'`` / ``columns 'a' and 'b'`` (a file with a header: the column
    is the label), or ``column 5 (rank of 'label_3')`` / ``columns 3 and 4
    (ranks of 'label_1' and 'label_2')`` when ``column_offset`` (0-based file
    column of the first label, a headerless file) is given.
    """
    indices = list(indices)
    names = join_and([show_text(label_names[j], 40) for j in indices])
    if column_offset is None:
        return ColumnLabel(f"column {names}" if len(indices) == 1 else f"columns {names}")
    numbers = join_and([str(column_offset + j + 1) for j in indices])
    if len(indices) == 1:
        return ColumnLabel(f"column {numbers} (rank of {names})")
    return ColumnLabel(f"columns {numbers} (ranks of {names})")

def rank_rows(Y: np.ndarray, method: str = "average") -> np.ndarray:
    """Rank the present values of every row of ``Y`` (NaN stays NaN), all rows at once.

    ``scipy.stats.rankdata(Y, axis=1, method=method, nan_policy="omit")``;
    with ``"average"`` (the default) this is the internal form of a ranking:
    the present labels of a row at positions ``1..m`` in the order of their
    values (lower = preferred), tied labels at the average of the positions
    they fill.

    Parameters
    ----------
    Y : numpy.ndarray of float, shape (n, L)
        Finite numbers or NaN.
    method : {"average", "dense", "min", ...}, default="average"
        How ties are ranked, as for :func:`scipy.stats.rankdata`.

    Returns
    -------
    numpy.ndarray of float, shape (n, L)

    References
    ----------
    Kendall, M. G., & Gibbons, J. D. (1990). *Rank Correlation Methods* (5th
    ed.). Edward Arnold. §3.1 (tied ranks as the mean of the ranks they fill).
    """
    if Y.size == 0:
        return np.array(Y, dtype=float)
    if not np.isnan(Y).any():
        # Rows that already hold the positions 1..L once each are their own ranks under every
        # method: the usual input, returned without scipy (506 x 6: 0.04 ms against 0.12 ms)
        ordered = np.sort(Y, axis=1)
        if np.array_equal(ordered, np.broadcast_to(np.arange(1.0, Y.shape[1] + 1), Y.shape)):
            return np.array(Y, dtype=float)
        # Rankings with ties given in average positions (the form files of partial rankings take, and
        # this function's output) are their own average ranks: 150 x 3 0.02 against 0.06 ms
        if method == "average" and _in_average_positions(ordered):
            return np.array(Y, dtype=float)
        return rankdata(Y, axis=1, method=method).astype(float)
    return rankdata(Y, axis=1, method=method, nan_policy="omit").astype(float)


def _in_average_positions(ordered: np.ndarray) -> bool:
    """Whether every row of sorted values holds average positions: each run of equal values, filling the
    sorted places ``first..last`` (1-based), equals ``(first + last) / 2``."""
    n_labels = ordered.shape[1]
    places = np.arange(1, n_labels + 1)
    starts = np.ones(ordered.shape, dtype=bool)
    starts[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    ends = np.ones(ordered.shape, dtype=bool)
    ends[:, :-1] = starts[:, 1:]
    first = np.maximum.accumulate(np.where(starts, places, 0), axis=1)
    last = np.minimum.accumulate(np.where(ends, places, n_labels + 1)[:, ::-1], axis=1)[:, ::-1]
    return bool(np.array_equal(2.0 * ordered, first + last))


def validate_rank_matrix(Y: ArrayLike, label_names: Sequence[str], source: str = "", *,
                         line_numbers: ArrayLike | None = None, allow_short_rows: bool = False,
                         column_offset: int | None = None) -> np.ndarray:
    """Check a matrix of rank positions and convert it to average positions.

    Any finite numbers are accepted as the positions of a row's present
    (non-NaN) labels: lower = preferred, equal numbers = tied. Every
    convention of writing ties (average positions ``1, 2.5, 2.5, 4``, dense
    ranks ``1, 2, 2, 3``, competition ranks ``1, 2, 2, 4``) and positions
    with gaps (``4, NaN, NaN, NaN, 1, 5``, as deleting labels from complete
    rankings leaves them, or ``10, 20, 30``) are read the same way: only the
    order of the present labels is kept, since that is all any model here
    uses. The result is the internal form, :func:`rank_rows` with
    ``"average"``: positions ``1..m`` of the ``m`` present labels, ties as
    average positions. Which convention a matrix was written in is told by
    :func:`rankviz.datasets.rank_conventions.rank_convention`.

    Parameters
    ----------
    Y : array_like, shape (n, L)
        Rank positions, NaN for a missing label.
    label_names : sequence of str
        The ``L`` label names.
    source : str, optional
        File or dataset name put at the start of error messages.
    line_numbers : array_like of int, optional
        The file line of each row; messages then say ``line k`` instead of
        ``row i`` (1-based row of ``Y``).
    column_offset : int, optional
        For a file without a header (the benchmark format): the 0-based
        file column of the first label, so that messages name columns by
        number (``column 5 (rank of 'label_3')``); by default a column is
        named by its label (``column 'c'``).
    allow_short_rows : bool, default=False
        Accept rows with fewer than two present labels. Files must not have
        them, but training data after deleting labels at random (the protocol
        of Cheng, Hühn & Hüllermeier 2009,
        :func:`rankviz.label_ranking.incomplete.delete_labels`) does; estimators
        keep such rows, which order no pair.

    Returns
    -------
    numpy.ndarray of float, shape (n, L)
        The average positions of every row's present labels, NaN where a
        label is missing; equal to ``Y`` when ``Y`` is in that form already.

    Raises
    ------
    DataError
        If ``Y`` is not numeric, not 2-D, its width differs from
        ``len(label_names)``, a position is infinite, or (unless
        ``allow_short_rows``) a row has fewer than two present labels. The
        message names the first such row and the column, e.g. ``"iris.csv,
        line 7, column 'b': label 'b' has the infinite position inf; expected
        finite numbers (lower = preferred, equal = tied), NaN for a missing
        label"``.

    References
    ----------
    Cheng, W., Hühn, J., & Hüllermeier, E. (2009). Decision tree and
    instance-based learning for label ranking. *Proceedings of the 26th
    International Conference on Machine Learning (ICML)*, 161-168.
    """
    try:
        Y = np.asarray(Y, dtype=float)
    except (TypeError, ValueError) as exc:
        raise data_error(f"the rank matrix is not numeric ({exc}); expected numbers or NaN", source) from None
    if Y.ndim != 2:
        raise data_error(f"the rank matrix has shape {Y.shape}; expected a 2-D table (examples x labels)", source)
    if Y.shape[1] != len(label_names):
        raise data_error(
            f"the rank matrix has {Y.shape[1]} columns but there are {len(label_names)} label names; "
            f"expected one column per label",
            source,
        )
    if Y.shape[0] == 0:
        return Y
    infinite = np.isinf(Y)
    if infinite.any():
        i, j = np.argwhere(infinite)[0]
        raise data_error(
            f"label {show_text(label_names[j], 40)} has the infinite position {format_number(Y[i, j])}; "
            f"expected finite numbers (lower = preferred, equal = tied), or "
            f"{'NaN' if line_numbers is None else 'an empty cell'} for a missing label",
            source, **_row_place(i, line_numbers), column=_label_columns([j], label_names, column_offset),
        )
    if not allow_short_rows:
        check_two_present(~np.isnan(Y), source, line_numbers, "a rank position")
    return rank_rows(Y)


def check_growth_params(gamma: float, min_samples_leaf: int, max_depth: int | None) -> None:
    """Raise ``ValueError`` naming the first invalid growth parameter of a tree estimator.

    Raises
    ------
    ValueError
        If ``gamma`` is not a positive number, ``min_samples_leaf`` not an
        integer >= 1, or ``max_depth`` neither None nor an integer >= 0.
    """
    if not (isinstance(gamma, (int, float)) and gamma > 0):
        raise ValueError(f"gamma must be a positive number, got {gamma!r}")
    if not (isinstance(min_samples_leaf, (int, np.integer)) and min_samples_leaf >= 1):
        raise ValueError(f"min_samples_leaf must be an integer >= 1, got {min_samples_leaf!r}")
    if max_depth is not None and not (isinstance(max_depth, (int, np.integer)) and max_depth >= 0):
        raise ValueError(f"max_depth must be None or an integer >= 0, got {max_depth!r}")


def features_drawn(max_features: Any, n_features: int, name: str = "max_features") -> int:
    """How many of ``n_features`` attributes a ``max_features`` setting draws (scikit-learn's forms).

    None: all; ``"sqrt"``, ``"log2"``: the square root or base-2 logarithm
    of their number (at least one); an int (at most all of them); a fraction
    in (0, 1] of them (at least one).

    Raises
    ------
    ValueError
        For any other value, naming the parameter ``name``.
    """
    m = max_features
    if m is None:
        return n_features
    if m == "sqrt":
        return max(1, int(np.sqrt(n_features)))
    if m == "log2":
        return max(1, int(np.log2(n_features)))
    if isinstance(m, (int, np.integer)) and not isinstance(m, bool) and m >= 1:
        return min(int(m), n_features)
    if isinstance(m, (float, np.floating)) and 0 < m <= 1:
        return max(1, int(m * n_features))
    raise ValueError(f"{name} must be None, 'sqrt', 'log2', an integer >= 1 or a fraction in (0, 1]; got {m!r}.")


def check_rankings(Y: ArrayLike, n_rows: int | None = None) -> np.ndarray:
    """Validate a rank-position matrix and return it in average positions, a 2-D float array.

    The one check of ``Y`` in every label ranker's ``fit`` (and ``score``).
    Any finite numbers are accepted as the positions of a row's present
    labels, lower = preferred, equal = tied: average positions, dense ranks
    (``1, 2, 2, 3``), competition ranks (``1, 2, 2, 4``) and positions with
    gaps (``4, NaN, NaN, NaN, 1, 5``) alike. They are converted to the
    internal form (positions ``1..m`` of the ``m`` present labels, ties as
    average positions; :func:`validate_rank_matrix`), which keeps only the
    order of the present labels, all the models use; so fitting ``Y``
    equals fitting the converted matrix. Rows with fewer than two present
    labels are accepted: deleting labels at random (the protocol of Cheng,
    Hühn & Hüllermeier 2009) makes them, and they simply order no pair.

    Parameters
    ----------
    Y : array-like of shape (n_samples, n_labels)
        Rank positions, lower = more preferred, NaN for a missing label.
    n_rows : int, optional
        The number of rows ``Y`` must have (those of ``X``).

    Returns
    -------
    ndarray of shape (n_samples, n_labels)
        Average positions ``1..m`` per row, NaN where a label is missing.

    Raises
    ------
    ValueError
        If ``Y`` is not 2-D, has another number of rows than ``n_rows``,
        fewer than 2 labels or no row; a :class:`rankviz.exceptions.DataError`
        (a ``ValueError``) naming the row and label if a position is
        infinite or ``Y`` is not numeric.

    See Also
    --------
    rankviz.label_ranking.delete_labels : Makes incomplete rankings, as Cheng et al. do.
    rankviz.RankingDataset : Stores rank positions in the same form.

    References
    ----------
    Cheng, W., Hühn, J., & Hüllermeier, E. (2009). Decision tree and
    instance-based learning for label ranking. *Proceedings of the 26th
    International Conference on Machine Learning (ICML)*, 161-168.

    Examples
    --------
    >>> import numpy as np
    >>> from rankviz.utils import check_rankings
    >>> check_rankings([[1, 2, 2, 3], [4, np.nan, 1, 5]])  # dense ranks; positions with a gap
    array([[1. , 2.5, 2.5, 4. ],
           [2. , nan, 1. , 3. ]])
    """
    Y = np.asarray(Y, dtype=float)
    if Y.ndim != 2:
        raise ValueError(f"Y must be a 2-D matrix of rank positions, got shape {Y.shape}")
    if n_rows is not None and len(Y) != n_rows:
        raise ValueError(f"X has {n_rows} rows but Y has {len(Y)}")
    if Y.shape[1] < 2:
        raise ValueError(f"Y must rank at least 2 labels, got {Y.shape[1]}")
    if len(Y) < 1:
        raise ValueError("Y has no rows")
    return validate_rank_matrix(Y, [f"label_{j + 1}" for j in range(Y.shape[1])], source="Y",
                                allow_short_rows=True)


def check_query_data(X: ArrayLike, y: ArrayLike, qid: ArrayLike | None
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Documents ``X``, grades ``y`` and query ids ``qid`` as arrays, checked against each other.

    Parameters
    ----------
    X : array-like of shape (n_documents, n_features)
        Numeric features; NaN marks a missing value.
    y : array-like of shape (n_documents,)
        Relevance grades.
    qid : array-like of shape (n_documents,)
        Query id of each document.

    Returns
    -------
    X : ndarray of float, shape (n_documents, n_features)
        A sparse ``X`` as a float CSC matrix.
    y : ndarray of float, shape (n_documents,)
    qid : ndarray of shape (n_documents,)

    Raises
    ------
    ValueError
        If ``X`` is not 2-D, ``y`` or ``qid`` does not hold one value per
        document, ``qid`` is None, ``X`` holds an infinite value or ``y`` a
        missing or infinite one.
    """
    X = sparse.csc_matrix(X, dtype=float) if sparse.issparse(X) else np.asarray(X, dtype=float)
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-D array (documents x features); got shape {X.shape}.")
    y = np.asarray(y, dtype=float)
    if y.shape != (X.shape[0],):
        raise ValueError(f"y must hold one relevance grade per document: {X.shape[0]} values; got shape {y.shape}.")
    if qid is None:
        raise ValueError("qid is required: one query id per document (fit(X, y, qid=...)).")
    qid = np.asarray(qid)
    if qid.shape != (X.shape[0],):
        raise ValueError(f"qid must hold one query id per document: {X.shape[0]} values; got shape {qid.shape}.")
    infinite = _infinite_cells(X)
    if len(infinite):
        row, col = infinite[0]
        raise ValueError(f"X holds an infinite value at document {row}, feature {col}; expected a finite "
                         "number or NaN for a missing value.")
    if not np.isfinite(y).all():
        raise ValueError(f"y holds a missing or infinite grade at document {int(np.flatnonzero(~np.isfinite(y))[0])}.")
    return X, y, qid


def _infinite_cells(X: Any) -> np.ndarray:
    """(row, column) of every infinite value of a dense or CSC matrix, in row order."""
    if not sparse.issparse(X):
        return np.argwhere(np.isinf(X))
    at = np.flatnonzero(np.isinf(X.data))
    cells = np.stack([X.indices[at], np.searchsorted(X.indptr, at, side="right") - 1], axis=1)
    return cells[np.lexsort((cells[:, 1], cells[:, 0]))]


def check_feature_input(estimator: BaseEstimator, X: Any, y: Any = "no_validation", *,
                        reset: bool, accept_sparse: bool = False) -> np.ndarray | pd.DataFrame | sparse.csc_matrix:
    """Check a feature table and record (``reset=True``) or compare its features.

    The one entry check of every estimator: ``fit`` calls it with
    ``reset=True``, every method that takes ``X`` after fitting with
    ``reset=False``. ``X`` may be a DataFrame with nominal (string,
    category, bool) columns, so :func:`sklearn.utils.check_array`, which
    makes one numeric array, cannot be applied to it as a whole; this
    function checks what holds for every table, leaves the values as they
    are, and then lets :func:`sklearn.utils.validation.validate_data`
    (``skip_check_array=True``) record or compare ``n_features_in_`` and
    ``feature_names_in_`` the standard way. NaN (a missing value) passes.

    Parameters
    ----------
    estimator : BaseEstimator
        The estimator whose ``fit`` (``reset=True``) or prediction
        (``reset=False``) takes ``X``.
    X : DataFrame or array-like of shape (n_samples, n_features)
        The feature table.
    y : object, optional
        With ``reset=True``, the target given to ``fit``: None raises
        scikit-learn's "requires y to be passed" error when the estimator's
        tags say it needs a target. Not checked otherwise.
    reset : bool
        True in ``fit``: set ``n_features_in_``, and ``feature_names_in_``
        when ``X`` is a DataFrame with string column names (deleting it
        otherwise). False after fitting: the estimator must be fitted, and
        ``X`` must have the features it was fitted with.
    accept_sparse : bool, default=False
        Whether a scipy sparse matrix (or array) is accepted; it is returned
        as a float CSC matrix, its duplicate entries summed.

    Returns
    -------
    DataFrame, ndarray or scipy.sparse.csc_matrix
        ``X`` itself if it is a DataFrame, else ``numpy.asarray(X)``
        (values unconverted: a column of strings stays strings); a sparse
        ``X`` (``accept_sparse``) as a float CSC matrix.

    Raises
    ------
    sklearn.exceptions.NotFittedError
        With ``reset=False``, if the estimator is not fitted.
    TypeError
        If ``X`` is sparse and ``accept_sparse`` is False (convert it with ``X.toarray()``).
    ValueError
        If ``X`` holds complex numbers ("Complex data not supported"), is
        not 2-D, has no feature, has no row (in ``fit``; an empty table
        after fitting gives an empty prediction), or, after fitting, has
        another number of features or other feature names than in ``fit``.
    """
    name = type(estimator).__name__
    if not reset:
        check_is_fitted(estimator)
    if (sparse.issparse(X) and not accept_sparse) or (isinstance(X, pd.DataFrame) and any(
            isinstance(dtype, pd.SparseDtype) for dtype in X.dtypes)):
        raise TypeError(
            f"{name} does not accept sparse input (got {type(X).__name__}): it needs a dense table. "
            "Convert it first with X.toarray() (X.sparse.to_dense() for a DataFrame of sparse columns)."
        )
    if isinstance(X, pd.DataFrame):
        # Only numpy dtypes can be complex or hide complex objects; string and
        # categorical columns are not converted to be looked at.
        complex_columns = [str(X.columns[j]) for j, dtype in enumerate(X.dtypes)
                           if isinstance(dtype, np.dtype) and dtype.kind in "cO"
                           and _holds_complex(X.iloc[:, j].to_numpy())]
        if complex_columns:
            raise ValueError(f"Complex data not supported: the column(s) {complex_columns} of X hold complex "
                             f"numbers; {name} expects real numbers or categories (take the real part or the "
                             "absolute value first if that is what you mean).")
    else:
        is_sparse = sparse.issparse(X)
        X = X if is_sparse else np.asarray(X)
        if X.dtype.kind == "c" if is_sparse else _holds_complex(X):
            raise ValueError(f"Complex data not supported: X holds complex numbers; {name} expects real numbers "
                             "(take X.real or abs(X) first if that is what you mean).")
        if is_sparse:
            X = sparse.csc_matrix(X, dtype=float)
            X.sum_duplicates()
        elif X.ndim == 0:
            raise ValueError(f"Expected a 2-D table (samples x features), got a scalar ({type(X.item()).__name__}) "
                             "instead.")
        elif X.ndim == 1:
            raise ValueError(
                f"Expected a 2-D table (samples x features), got a 1-D array of shape {X.shape} instead. "
                "Reshape your data either using X.reshape(-1, 1) if it has a single feature or X.reshape(1, -1) "
                "if it holds a single sample."
            )
        elif X.ndim > 2:
            raise ValueError(f"Expected a 2-D table (samples x features), got an array of shape {X.shape} "
                             f"({X.ndim} dimensions).")
    shape = tuple(int(n) for n in X.shape)
    if shape[1] == 0:
        raise ValueError(f"Found array with 0 feature(s) (shape={shape}) while a minimum of 1 is required "
                         f"by {name}.")
    if reset and shape[0] == 0:
        raise ValueError(f"Found array with 0 sample(s) (shape={shape}) while a minimum of 1 is required "
                         f"by {name}.")
    if reset and isinstance(X, np.ndarray) and y is not None:
        # What validate_data records for an array, which has no feature names, without its lookups of
        # the estimator's tags (they only matter when y is None) and of dataframe libraries: 15 µs, a
        # tenth of a tree's fit on a file of 150 rows.
        estimator.n_features_in_ = shape[1]
        if hasattr(estimator, "feature_names_in_"):
            delattr(estimator, "feature_names_in_")
    elif reset:
        validate_data(estimator, X, y, skip_check_array=True, reset=True)
    else:
        validate_data(estimator, X, skip_check_array=True, reset=False)
    return X


def _holds_complex(values: np.ndarray) -> bool:
    """Whether an array holds complex numbers: a complex dtype, or complex objects in an object array."""
    if values.dtype.kind == "c":
        return True
    if values.dtype != object or not values.size:
        return False
    kind = pd.api.types.infer_dtype(values.ravel(), skipna=True)
    if kind == "complex":
        return True
    # Only a mixture can hide a complex number among others; strings, the
    # common object column, are told apart without a Python loop.
    return kind.startswith("mixed") and any(isinstance(v, (complex, np.complexfloating)) for v in values.ravel())


def check_features(estimator: BaseEstimator, X: ArrayLike) -> np.ndarray:
    """``X`` as a float array for a fitted estimator of numeric features.

    :func:`check_feature_input` with ``reset=False``, then the conversion
    to float.

    Raises
    ------
    sklearn.exceptions.NotFittedError
        If ``estimator`` is not fitted.
    ValueError
        If ``X`` is not a 2-D table of numbers with the features ``estimator``
        was fitted with (see :func:`check_feature_input`).
    """
    return np.asarray(check_feature_input(estimator, X, reset=False), dtype=float)


def check_n_jobs(n_jobs: int | None) -> int:
    """The number of threads ``n_jobs`` asks for, as in scikit-learn.

    None means 1; a negative value counts back from the CPUs (-1: all of
    them, -2: all but one), never below 1.

    Raises
    ------
    ValueError
        If ``n_jobs`` is 0 or not an integer.
    """
    if n_jobs is None:
        return 1
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral) or n_jobs == 0:
        raise ValueError(f"n_jobs must be None or a nonzero integer; got {n_jobs!r}.")
    if n_jobs < 0:
        return max(1, (os.cpu_count() or 1) + 1 + int(n_jobs))
    return int(n_jobs)


def moved_fit_keyword(estimator: Any, name: str, instead: str) -> None:
    """Warn that ``fit``'s ``name=`` keyword is deprecated (target metadata belongs elsewhere).

    scikit-learn's ``clone`` and grid searches keep only constructor
    parameters: metadata passed to ``fit`` is lost in them. The keyword still
    works for one release (0.2) and is removed in 0.3.

    Parameters
    ----------
    estimator : estimator instance
        Whose ``fit`` got the keyword.
    name : str
        The keyword.
    instead : str
        What to do instead, as a phrase.
    """
    warnings.warn(f"{type(estimator).__name__}.fit({name}=...) is deprecated since 0.2 and will be removed "
                  f"in 0.3: {instead}.", FutureWarning, stacklevel=3)
