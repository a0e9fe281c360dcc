"""How a grid splits each data set: k-fold, repeated k-fold, leave-one-out or hold-out.

The splits depend only on the protocol and the number of rows, never on the
method, so every method of a data set is scored on the same folds (the
paired comparisons of a report need that). Repetition ``r`` of a k-fold
protocol shuffles with seed ``seed + r``, as
:func:`rankviz.experiments.cross_validation.compare_methods` does, so the two
give the same folds.

References
----------
.. [1] W. Cheng, J. Hühn and E. Hüllermeier, "Decision tree and
       instance-based learning for label ranking", ICML 2009, pp. 161-168
       (5 × 10-fold cross-validation, labels deleted from the training
       rankings at rate p).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from ...model_selection import fold_indices

__all__ = ["KINDS", "Protocol"]

#: The kinds of protocol.
KINDS = ("kfold", "repeated_kfold", "loo", "holdout")


@dataclass(frozen=True)
class Protocol:
    """The outer evaluation of a grid.

    A protocol says how each data set is split into training and test
    rows, how many labels are deleted from the training rankings, and the
    seed of everything random. The splits depend only on the protocol and
    the number of rows, so every method of a data set is scored on the same
    folds.

    Parameters
    ----------
    kind : {"kfold", "repeated_kfold", "loo", "holdout"}, default="kfold"
        Shuffled k-fold (one repetition), k-fold repeated ``n_repeats``
        times with new shuffles, leave-one-out, or ``n_repeats`` random
        hold-out splits.
    n_splits : int, default=10
        Folds of a k-fold protocol.
    n_repeats : int, default=1
        Repetitions (must be 1 for "kfold" and "loo").
    test_size : float, default=0.2
        Share of the rows held out by "holdout".
    missing_rate : float, default=0.0
        Probability of deleting each label of each *training* ranking
        (:func:`rankviz.label_ranking.incomplete.delete_labels`); test
        rankings stay complete.
    seed : int, default=0
        Seed of the shuffles and, with the cell, of everything random in a cell.

    Raises
    ------
    ValueError
        If a field is out of its range, or ``n_repeats`` is not 1 for
        "kfold" or "loo".

    See Also
    --------
    run_grid : The grid run with a protocol.
    rankviz.experiments.compare_methods : The same k-fold splits for a few methods.

    Examples
    --------
    >>> from rankviz.experiments import Protocol
    >>> protocol = Protocol(kind="repeated_kfold", n_splits=5, n_repeats=2, missing_rate=0.3)
    >>> protocol.tag
    '2x5-fold p=0.3 seed=0'
    >>> [(repetition, fold, len(train), len(test)) for repetition, fold, train, test in protocol.splits(10)][:3]
    [(0, 0, 8, 2), (0, 1, 8, 2), (0, 2, 8, 2)]
    """

    kind: str = "kfold"
    n_splits: int = 10
    n_repeats: int = 1
    test_size: float = 0.2
    missing_rate: float = 0.0
    seed: int = 0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {self.kind!r}")
        if not (isinstance(self.n_repeats, (int, np.integer)) and self.n_repeats >= 1):
            raise ValueError(f"n_repeats must be an integer >= 1, got {self.n_repeats!r}")
        if self.kind in ("kfold", "loo") and self.n_repeats != 1:
            raise ValueError(f"a {self.kind} protocol has one repetition; use 'repeated_kfold' or 'holdout'")
        if self.kind in ("kfold", "repeated_kfold") and not (
                isinstance(self.n_splits, (int, np.integer)) and self.n_splits >= 2):
            raise ValueError(f"n_splits must be an integer >= 2, got {self.n_splits!r}")
        if not 0 < self.test_size < 1:
            raise ValueError(f"test_size must lie strictly between 0 and 1, got {self.test_size!r}")
        if not 0 <= self.missing_rate < 1:
            raise ValueError(f"missing_rate must lie in [0, 1), got {self.missing_rate!r}")
        if not (isinstance(self.seed, (int, np.integer)) and self.seed >= 0):
            raise ValueError(f"seed must be an integer >= 0, got {self.seed!r}")

    @property
    def tag(self) -> str:
        """Short text naming the protocol, part of every cell's id (so a file mixes no protocols)."""
        split = {"kfold": f"{self.n_splits}-fold", "repeated_kfold": f"{self.n_repeats}x{self.n_splits}-fold",
                 "loo": "loo", "holdout": f"{self.n_repeats}x holdout {self.test_size:g}"}[self.kind]
        return f"{split} p={self.missing_rate:g} seed={self.seed}"

    def splits(self, n_samples: int) -> Iterator[tuple[int, int, np.ndarray, np.ndarray]]:
        """Generate the (repetition, fold, train rows, test rows) of a data set of ``n_samples`` rows.

        Parameters
        ----------
        n_samples : int
            Number of rows of the data set.

        Yields
        ------
        repetition, fold : int
            0-based.
        train, test : ndarray of int
            Sorted row indices.
        """
        for repetition in range(self.n_repeats):
            for fold, test in enumerate(self._test_folds(n_samples, repetition)):
                test = np.sort(test)
                train = np.setdiff1d(np.arange(n_samples), test, assume_unique=True)
                yield repetition, fold, train, test

    def _test_folds(self, n_samples: int, repetition: int) -> list[np.ndarray]:
        if self.kind == "loo":
            return fold_indices(n_samples, "loo")
        if self.kind == "holdout":
            n_test = min(max(1, round(self.test_size * n_samples)), n_samples - 1)
            return [np.random.default_rng(self.seed + repetition).permutation(n_samples)[:n_test]]
        return fold_indices(n_samples, self.n_splits, self.seed + repetition)
