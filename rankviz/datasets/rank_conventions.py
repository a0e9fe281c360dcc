"""Conventions for writing a ranking as numbers, and which one a rank matrix uses.

Everything in rankviz keeps a ranking in one internal form: the present
labels of a row hold the positions ``1..m`` (``m`` labels present), tied
labels the average of the positions they fill (``1, 2.5, 2.5, 4``), and a
missing label is NaN; :func:`rankviz._validation.rank_rows`
converts to it. Files and callers write rankings in other ways too, and
every one of them is accepted, since the models here use only the *order*
of the present labels of a row (lower number = preferred, equal numbers =
tied):

average positions
    The internal form: ``1, 2.5, 2.5, 4`` (the "fractional ranking" of
    Kendall & Gibbons 1990, §3.1; :func:`scipy.stats.rankdata` ``"average"``).
dense ranks
    Tied labels share one position and the next label takes the next
    number: ``1, 2, 2, 3`` (``rankdata(..., "dense")``). The partial
    rankings of the KEBI benchmark files (Cheng, Hühn & Hüllermeier 2009)
    are written so: ``1, 2, 2, 2, 2``.
competition ranks
    Tied labels share the first of their positions and the next label
    skips the positions they fill: ``1, 2, 2, 4`` (``rankdata(..., "min")``,
    "standard competition ranking").
other positions
    Anything else: positions with gaps, as deleting labels from complete
    rankings leaves them (``4, NaN, NaN, NaN, 1, 5``), or numbers on another
    scale (``10, 20, 30``, ``0, 1, 2``).
mixed conventions
    Rows in different tie conventions, each row fitting one of them
    (``1, 2, 2, 3`` dense and ``1, 1, 3, 4`` competition in one matrix).

A row without ties and gaps (a permutation of ``1..m``) is written the same
way in all three tie conventions. A row such as ``1, 2, 2`` is both dense
and competition ranks; either way it means the same order, and so converts
to the same average positions ``1, 2.5, 2.5``. Since only the order is kept,
no convention changes what is read from a row: :func:`rank_convention` does
not decide how to read a matrix, it says what the matrix looked like, so
that a loader can tell the user what it converted (see
:attr:`rankviz.datasets.label_ranking.RankingDataset.rank_convention`).

References
----------
Kendall, M. G., & Gibbons, J. D. (1990). *Rank Correlation Methods* (5th
ed.). Edward Arnold. §3.1 (tied ranks as the mean of the ranks they fill).

Cheng, W., Hühn, J., & Hüllermeier, E. (2009). Decision tree and
instance-based learning for label ranking. *Proceedings of the 26th
International Conference on Machine Learning (ICML)*, 161-168.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from .._validation import rank_rows
from ..exceptions import format_number

__all__ = ["AVERAGE", "COMPETITION", "DENSE", "MIXED", "OTHER", "RankConvention", "RankExample", "rank_convention"]

AVERAGE = "average positions"
DENSE = "dense ranks"
COMPETITION = "competition ranks"
MIXED = "mixed conventions"
OTHER = "other positions"

#: The tie conventions in the order of precedence: the first that every row fits names the matrix.
_TIE_CONVENTIONS = ((AVERAGE, "average"), (DENSE, "dense"), (COMPETITION, "min"))
#: What each kind means, for the sentence of :attr:`RankConvention.text`.
_MEANING = {
    DENSE: "tied labels share one position, the next label takes the next number",
    COMPETITION: "tied labels share the first of their positions",
}
_TOLERANCE = 1e-9
_SHOWN = 12


@dataclass(frozen=True)
class RankExample:
    """One row of a rank matrix as given and as converted.

    Parameters
    ----------
    kind : str
        The convention the row fits (:data:`DENSE`, :data:`COMPETITION`, or
        :data:`OTHER` when it fits none of the tie conventions).
    place : str
        Where the row is: ``"line 3"`` (a file) or ``"row 3"`` (1-based).
    given, converted : tuple of float
        The row's numbers, and its average positions (NaN = missing).
    """

    kind: str
    place: str
    given: tuple[float, ...]
    converted: tuple[float, ...]


@dataclass(frozen=True)
class RankConvention:
    """How the rank positions of a matrix were written, and what converting them changed.

    Parameters
    ----------
    kind : str
        :data:`AVERAGE` (every row already in the internal form: nothing
        converted), :data:`DENSE` or :data:`COMPETITION` (every row fits
        it), :data:`MIXED` (every row fits one of the tie conventions, but
        no one fits all) or :data:`OTHER` (a row fits none: gaps, another
        scale).
    also : tuple of str
        Further conventions every row fits (``(COMPETITION,)`` for rows such
        as ``1, 2, 2``, which are dense ranks as well); they read the same.
    n_rows : int
        Rows of the matrix.
    n_converted : int
        Rows whose numbers converting changed.
    examples : tuple of RankExample
        The first converted row, or for :data:`MIXED` and :data:`OTHER` the
        first converted row of each convention met (dense, competition,
        other), for messages.
    """

    kind: str
    also: tuple[str, ...]
    n_rows: int
    n_converted: int
    examples: tuple[RankExample, ...]

    @property
    def converted(self) -> bool:
        """Whether converting to average positions changed any number."""
        return self.n_converted > 0

    @property
    def text(self) -> str:
        """One sentence for the user, e.g. ``"Rank positions read as dense ranks ..."``.

        ``"Rank positions given as average positions; nothing converted."``
        when nothing changed; otherwise the convention, what it means, an
        example row as given and as converted, and how many rows changed.
        """
        if not self.converted:
            return "Rank positions given as average positions; nothing converted."
        if self.kind in (MIXED, OTHER):
            name = "positions with gaps or on another scale" if self.kind == OTHER else "ranks in several conventions"
            shown = "; ".join(_example_text(e, with_kind=True) for e in self.examples)
            head = f"Rank positions read as {name} ({shown})"
        else:
            name = " or ".join([self.kind.removesuffix(" ranks")] + [a.removesuffix(" ranks") for a in self.also])
            meaning = "tied labels share one position" if self.also else _MEANING[self.kind]
            head = (f"Rank positions read as {name} ranks ({meaning}; "
                    f"{_example_text(self.examples[0], with_kind=False)})")
        rows = f"{self.n_converted:,} of {self.n_rows:,} rows" if self.n_rows > 1 else "the row"
        return f"{head}; {rows} converted to average positions, which keep only the order of the labels."


def _numbers(values):
    shown = [format_number(v) for v in values[:_SHOWN]]
    if len(values) > _SHOWN:
        shown.append(f"... ({len(values)} labels)")
    return ", ".join(shown)

def _example_text(example, with_kind):
    kind = f"{example.kind}, " if with_kind and example.kind != OTHER else ""
    return f"{kind}{example.place}: {_numbers(example.given)} read as {_numbers(example.converted)}"


def _fits(Y, present, ranks):
    """Rows whose present values equal ``ranks`` (boolean, one per row)."""
    return np.where(present, np.abs(ranks - Y) <= _TOLERANCE, True).all(axis=1)


def rank_convention(Y: ArrayLike, line_numbers: ArrayLike | None = None) -> RankConvention:
    """Which convention the rows of a rank matrix are written in.

    Every row is compared with its average positions, dense ranks and
    competition ranks (:func:`scipy.stats.rankdata` with ``"average"``,
    ``"dense"``, ``"min"``, NaN omitted); the matrix gets the first of these
    that every row fits, in that order of precedence, so a matrix already in
    the internal form is :data:`AVERAGE` (nothing to convert) even where
    a row would fit another convention too (``1, 2, 3``). Which convention is
    named never changes the result: the conversion keeps only the order.

    Parameters
    ----------
    Y : array_like of shape (n_rows, n_labels)
        Rank positions: finite numbers, lower = preferred, equal = tied, NaN
        for a missing label.
    line_numbers : array_like of int, optional
        The file line of each row; examples then say ``line k`` instead of
        ``row k`` (1-based).

    Returns
    -------
    RankConvention
        Its :attr:`~RankConvention.text` is the sentence to show.

    Raises
    ------
    ValueError
        If ``Y`` is not a 2-D array of numbers or holds an infinite value
        (:func:`rankviz._validation.validate_rank_matrix` refuses both with
        a located message first).

    References
    ----------
    Kendall, M. G., & Gibbons, J. D. (1990). *Rank Correlation Methods*
    (5th ed.), §3.1.

    Examples
    --------
    >>> import numpy as np
    >>> from rankviz.datasets.rank_conventions import rank_convention
    >>> found = rank_convention([[1, 2, 2, 2, 2], [1, 2, 3, 4, 5]], line_numbers=[2, 3])
    >>> found.kind, found.also, found.n_converted
    ('dense ranks', ('competition ranks',), 1)
    >>> rank_convention([[4, np.nan, 1, 5], [1, 2, 3, 4]]).kind
    'other positions'
    """
    Y = np.asarray(Y, dtype=float)
    if Y.ndim != 2:
        raise ValueError(f"Y must be a 2-D matrix of rank positions, got shape {Y.shape}")
    if np.isinf(Y).any():
        raise ValueError("Y holds an infinite position; expected finite numbers or NaN")
    present = ~np.isnan(Y)
    fits = {}
    converted = None
    for kind, method in _TIE_CONVENTIONS:
        ranks = rank_rows(Y, method)
        fits[kind] = _fits(Y, present, ranks)
        if kind == AVERAGE:
            converted = ranks
    changed = ~fits[AVERAGE]
    n_converted = int(changed.sum())
    if n_converted == 0:
        return RankConvention(AVERAGE, (), len(Y), 0, ())
    every = [kind for kind, _ in _TIE_CONVENTIONS[1:] if fits[kind].all()]

    def example(kind, i):
        place = f"row {i + 1}" if line_numbers is None else f"line {int(np.asarray(line_numbers)[i])}"
        return RankExample(kind, place, tuple(Y[i].tolist()), tuple(converted[i].tolist()))

    if every:
        first = int(np.flatnonzero(changed)[0])
        return RankConvention(every[0], tuple(every[1:]), len(Y), n_converted, (example(every[0], first),))
    # No tie convention fits every row: show the first converted row of each kind met.
    row_kind = np.where(fits[DENSE], 0, np.where(fits[COMPETITION], 1, 2))
    examples = []
    for code, kind in enumerate((DENSE, COMPETITION, OTHER)):
        rows = np.flatnonzero(changed & (row_kind == code))
        if len(rows):
            examples.append(example(kind, int(rows[0])))
    kind = OTHER if (row_kind[changed] == 2).any() else MIXED
    return RankConvention(kind, (), len(Y), n_converted, tuple(examples))

