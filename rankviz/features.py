"""Feature encoding: a table of numeric and nominal attributes to one float matrix.

Numeric columns are kept as they are. Nominal columns (strings, categories,
booleans) become integer codes into a per-column list of category names, so
the split search handles both kinds on one array. A category not seen in
training gets the code -1, which no ``attribute = value`` test matches.

Missing values: a missing numeric value stays NaN (the split search sends it
to whichever side scores better, see :mod:`rankviz.tree.builder`); a missing
nominal value is the category :data:`MISSING_CATEGORY`, so ``A = (missing)``
is a test like any other. Infinite numbers are refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

import numpy as np
import pandas as pd

__all__ = ["FeatureEncoder", "MISSING_CATEGORY", "is_nominal_column", "count_missing"]

#: The category a missing nominal value gets.
MISSING_CATEGORY = "(missing)"


def _nominal_text(column):
    """A nominal column as text, missing values as :data:`MISSING_CATEGORY`."""
    return column.astype(object).where(column.notna(), MISSING_CATEGORY).astype(str)


def count_missing(X: Any) -> int:
    """Count the missing feature values in a table (NaN or None).

    A missing value is what pandas calls one (``isna``): NaN, None or NaT.
    An empty string is not missing here; the loaders read empty cells as
    NaN before this is asked.

    Parameters
    ----------
    X : DataFrame or array-like of shape (n_samples, n_features)
        The feature table.

    Returns
    -------
    int
        The number of missing cells, over all rows and columns.

    Raises
    ------
    ValueError
        If an array ``X`` is not 2-D.

    See Also
    --------
    FeatureEncoder : How missing values are encoded for the trees.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> from rankviz.features import count_missing
    >>> count_missing(pd.DataFrame({"colour": ["red", None], "size": [1.0, np.nan]}))
    2
    """
    return int(_as_frame(X).isna().to_numpy().sum())


def is_nominal_column(column: pd.Series) -> bool:
    """Tell whether the trees treat a column as nominal rather than numeric.

    Strings, categories, booleans and objects are nominal: they are split by
    ``attribute = value`` tests. Integer and float columns are numeric and
    split by thresholds.

    Parameters
    ----------
    column : pandas.Series
        One feature column.

    Returns
    -------
    bool
        True for a nominal column (a non-numeric or boolean dtype), False for
        a numeric one.

    See Also
    --------
    FeatureEncoder : Encode nominal columns as category codes.

    Examples
    --------
    >>> import pandas as pd
    >>> from rankviz.features import is_nominal_column
    >>> is_nominal_column(pd.Series(["a", "b"])), is_nominal_column(pd.Series([True, False]))
    (True, True)
    >>> is_nominal_column(pd.Series([1.5, 2.0]))
    False
    """
    return not pd.api.types.is_numeric_dtype(column) or pd.api.types.is_bool_dtype(column)


class FeatureEncoder:
    """Learn the attribute kinds and categories of a training table.

    The names are what trees and messages show: the column names of a
    DataFrame (as text), ``x1..xd`` for an array. A numeric column is kept
    as it is (NaN when missing); a nominal column becomes codes into its
    sorted categories, a missing value being the category
    :data:`MISSING_CATEGORY` and a category not seen in ``fit`` the code -1.

    Attributes
    ----------
    feature_names : list of str
        The column names, in order.
    nominal : ndarray of bool, shape (n_features,)
        True for a nominal column (see :func:`is_nominal_column`).
    categories : list of (list of str or None)
        Category names of each nominal feature (sorted); None for numeric ones.

    See Also
    --------
    is_nominal_column : Which columns are nominal.
    count_missing : Count the missing values of a table.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> from rankviz.features import FeatureEncoder
    >>> X = pd.DataFrame({"colour": ["red", "blue", None], "size": [1.0, 2.0, np.nan]})
    >>> encoder = FeatureEncoder().fit(X)
    >>> encoder.categories
    [['(missing)', 'blue', 'red'], None]
    >>> encoder.transform(X)
    array([[ 2.,  1.],
           [ 1.,  2.],
           [ 0., nan]])
    >>> encoder.transform(pd.DataFrame({"size": [3.0], "colour": ["green"]}))
    array([[-1.,  3.]])
    """

    def fit(self, X: Any) -> Self:
        """Learn the names, kinds and categories of the columns of ``X``.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            The training table; a DataFrame's column names become the
            feature names.

        Returns
        -------
        self : FeatureEncoder
            The fitted encoder.

        Raises
        ------
        ValueError
            If ``X`` is not 2-D.
        """
        numbers = _numeric_array(X)
        if numbers is not None:  # the common case, without a DataFrame (most of a small fit's time)
            self.feature_names = [f"x{j + 1}" for j in range(numbers.shape[1])]
            self.nominal = np.zeros(numbers.shape[1], dtype=bool)
            self.categories: list[list[str] | None] = [None] * numbers.shape[1]
            return self
        frame = _as_frame(X)
        self.feature_names = [str(c) for c in frame.columns]
        self.nominal = np.array([is_nominal_column(frame[c]) for c in frame.columns], dtype=bool)
        self.categories = [
            sorted(_nominal_text(frame[c]).unique()) if nominal else None
            for c, nominal in zip(frame.columns, self.nominal)
        ]
        return self

    def transform(self, X: Any) -> np.ndarray:
        """Encode a table with the fitted columns into a float matrix.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            A DataFrame's columns are found by name (in any order, extra
            ones ignored); an array's by position.

        Returns
        -------
        ndarray of float, shape (n_samples, n_features)
            Numeric values as they are (NaN if missing), nominal ones as
            codes into ``categories`` (-1 for a category not seen in ``fit``).

        Raises
        ------
        ValueError
            If ``X`` lacks a fitted column or has another number of columns,
            or a numeric column holds text that is not a number or an
            infinite number.
        """
        numbers = _numeric_array(X)
        if numbers is not None and not self.nominal.any() and numbers.shape[1] == len(self.feature_names):
            bad = np.argwhere(np.isinf(numbers))
            if len(bad):
                row, j = bad[0]
                raise ValueError(f"feature {self.feature_names[j]!r}, row {row + 1}: expected a number, "
                                 f"got {numbers[row, j]!r}")
            return np.array(numbers, dtype=float)  # a copy, as the frame path returns
        frame = _as_frame(X, self.feature_names)
        if frame.shape[1] != len(self.feature_names):
            raise ValueError(
                f"X has {frame.shape[1]} features, but the model was fitted with "
                f"{len(self.feature_names)}: {self.feature_names}"
            )
        numbers_only = all(isinstance(dtype, np.dtype) and dtype.kind in "fiu" for dtype in frame.dtypes)
        if numbers_only and not self.nominal.any():
            # Numbers only (the common case): one conversion, not one per column (most of a small fit's time).
            values = frame.to_numpy(dtype=float, copy=True)
            infinite = np.isinf(values)
            if infinite.any():  # the first such column, its first row: as the loop below reports
                j = int(np.flatnonzero(infinite.any(axis=0))[0])
                row = int(np.flatnonzero(infinite[:, j])[0])
                raise ValueError(f"feature {self.feature_names[j]!r}, row {row + 1}: expected a number, "
                                 f"got {frame.iloc[row, j]!r}")
            return values
        encoded = np.empty(frame.shape, dtype=float)
        for j, (name, cats) in enumerate(zip(self.feature_names, self.categories)):
            column = frame.iloc[:, j]
            if cats is None:
                values = (column.to_numpy(dtype=float) if pd.api.types.is_numeric_dtype(column)
                          else pd.to_numeric(column, errors="coerce").to_numpy(dtype=float))
                # NaN is a missing value; text that is not a number, or an
                # infinite number, is an error
                bad_rows = np.flatnonzero(np.isinf(values) | (np.isnan(values) & column.notna().to_numpy()))
                if len(bad_rows):
                    raise ValueError(
                        f"feature {name!r}, row {bad_rows[0] + 1}: expected a number, "
                        f"got {column.iloc[bad_rows[0]]!r}"
                    )
                encoded[:, j] = values
            else:
                lookup = {c: k for k, c in enumerate(cats)}
                encoded[:, j] = _nominal_text(column).map(lookup).fillna(-1).to_numpy(dtype=float)
        return encoded


def _numeric_array(X: Any) -> np.ndarray | None:
    """``X`` itself when it is a 2-D NumPy array of numbers (not booleans, which are nominal), else None."""
    if isinstance(X, np.ndarray) and X.ndim == 2 and X.dtype.kind in "fiu":
        return X
    return None


def _as_frame(X: Any, feature_names: Sequence[str] | None = None) -> pd.DataFrame:
    if isinstance(X, pd.DataFrame):
        if feature_names is not None and list(map(str, X.columns)) != list(feature_names):
            missing = [f for f in feature_names if f not in set(map(str, X.columns))]
            if missing:
                raise ValueError(f"X lacks the feature columns {missing} the model was fitted with")
            return X.rename(columns=str)[list(feature_names)]
        return X
    array = np.asarray(X)
    if array.ndim != 2:
        raise ValueError(f"X must be a 2-D table, got an array of shape {array.shape}")
    names = feature_names
    if names is None or len(names) != array.shape[1]:
        names = [f"x{j + 1}" for j in range(array.shape[1])]
    return pd.DataFrame(array, columns=names)
