"""Splitting examples into folds, shared by cross-validation and the estimators' inner searches."""

from __future__ import annotations

import numpy as np

__all__ = ["fold_indices"]


def fold_indices(n_samples: int, cv: str | int = "loo", seed: int = 0) -> list[np.ndarray]:
    """Test-set indices of each fold.

    Parameters
    ----------
    n_samples : int
    cv : "loo" or int
        Leave-one-out (the protocol of Rebelo, Soares & Costa 2008) or the
        number of folds of a shuffled k-fold split.
    seed : int
        Seed of the k-fold shuffle.

    Returns
    -------
    list of ndarray of int
        The test rows of each fold; together they hold every row once.

    Raises
    ------
    ValueError
        If ``cv`` is neither "loo" nor an integer between 2 and ``n_samples``.
    """
    if cv == "loo":
        return [np.array([i]) for i in range(n_samples)]
    if not isinstance(cv, (int, np.integer)) or not 2 <= cv <= n_samples:
        raise ValueError(f"cv must be 'loo' or an integer between 2 and {n_samples}, got {cv!r}")
    order = np.random.default_rng(seed).permutation(n_samples)
    return np.array_split(order, cv)
