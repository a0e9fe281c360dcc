"""Splitting examples into folds, shared by cross-validation and the estimators' inner searches."""

import numpy as np

__all__ = ["fold_indices"]


def fold_indices(n_samples, cv="loo", seed=0):
    """Test-set indices of each fold.

    Parameters
    ----------
    n_samples : int
    cv : "loo" or int
        Leave-one-out (seed 001's protocol) or the number of folds of a
        shuffled k-fold split.
    seed : int
        Seed of the k-fold shuffle.

    Returns
    -------
    list of ndarray
    """
    if cv == "loo":
        return [np.array([i]) for i in range(n_samples)]
    if not isinstance(cv, (int, np.integer)) or not 2 <= cv <= n_samples:
        raise ValueError(f"cv must be 'loo' or an integer between 2 and {n_samples}, got {cv!r}")
    order = np.random.default_rng(seed).permutation(n_samples)
    return np.array_split(order, cv)
