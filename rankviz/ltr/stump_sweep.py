"""Compiled (Numba) sweep of MPBoost's stump search: every threshold of a feature in one pass.

All of MPBoost's compiled code is in this one module: Numba's on-disk cache
checks only the file that defines a function, so a kernel calling into
another module could run stale code after that module changed.

The arithmetic is explained in :mod:`rankviz.ltr.stump_search`; this module
walks each feature's documents in the order of their bin codes, moving one
document at a time from "above" the threshold to "below" it and keeping
``S1`` and ``S2`` as running sums. The weight of the pairs a document forms
with the documents already below is ``sum_h factors[m, h] * T[q, h, g]``:
the pair weights factor per query and pair of grades, so the state is one
``grades x grades`` block per query and a step costs ``O(grades)``, whatever
the number of pairs.

Indices are unsigned on purpose: Numba adds a wrap-around check for negative
values to every access with a signed index, which in this loop of a few
loads and adds per step cost a third of the time.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["feature_tops", "stump_tables", "sweep_feature"]


@numba.njit(cache=True, nogil=True)
def sweep_feature(k: int, order: np.ndarray, sorted_codes: np.ndarray, payload: np.ndarray,
                  n_grades: np.uint64, read_at: np.ndarray, write_at: np.ndarray, state: np.ndarray,
                  floor: float, threshold: float, s1_out: np.ndarray, s2_out: np.ndarray,
                  record: bool) -> tuple:
    """Sweep feature ``k``: its largest gain, and the first bin whose gain reaches ``threshold`` with that gain.

    Parameters
    ----------
    k : int
        The feature.
    order, sorted_codes : ndarray of uint32, shape (n_features, n_documents)
        Each feature's documents in the order of their bin codes, and the codes.
    payload : ndarray of float64, shape (n_documents * (n_grades + 2),)
        Per document: ``factors[m, 0..G-1]``, the weight ``W_m`` of its pairs
        and ``p_m`` (:class:`rankviz.ltr.stump_search.StumpSearch`).
    n_grades : uint64
    read_at, write_at : ndarray of uint64
        Per document: where its column (``T[q, :, g]``, stride ``n_grades``)
        and its row (``T[q, g, :]``) of the state start.
    state : ndarray of float64
        ``T``, one ``n_grades x n_grades`` block per query; zeroed here.
    floor : float
        Lower bound of ``S2`` in a gain (a threshold splitting no pair).
    threshold : float
        The gain to look for (``inf`` for none).
    s1_out, s2_out : ndarray, shape (n_features, width)
        With ``record``, ``S1`` and ``S2`` of every threshold go to row
        ``k`` (the thresholds in a gap between two codes split the
        documents alike and get equal sums).
    record : bool
    """
    one = np.uint64(1)
    stride = n_grades + np.uint64(2)
    state[:] = 0.0
    s1 = 0.0   # sum of p above the threshold: p sums to 0 over all documents
    s2 = 0.0   # weight of the pairs the threshold separates
    top = 0.0
    first_bin = -1
    first_gain = 0.0
    n = order.shape[1]
    for i in range(n):
        m = np.uint64(order[k, i])
        row = m * stride
        read, write = read_at[m], write_at[m]
        # pairs of m with documents already below stop being split, every
        # other pair of m becomes split
        below = 0.0
        h = np.uint64(0)
        while h < n_grades:
            factor = payload[row + h]
            below += factor * state[read + h * n_grades]
            state[write + h] += factor
            h += one
        s2 += payload[row + n_grades] - 2.0 * below
        s1 -= payload[row + n_grades + one]
        if i + 1 < n:
            code, next_code = sorted_codes[k, i], sorted_codes[k, i + 1]
            if next_code != code:
                denominator = max(s2, floor)
                if record:
                    for b in range(code, next_code):
                        s1_out[k, b] = s1
                        s2_out[k, b] = s2
                # compare before dividing: most thresholds beat neither
                square = s1 * s1
                if square > top * denominator:
                    top = square / denominator
                if first_bin < 0 and square >= threshold * denominator:
                    first_bin = code
                    first_gain = square / denominator
    return top, first_bin, first_gain


@numba.njit(cache=True, nogil=True)
def feature_tops(start: int, stop: int, order: np.ndarray, sorted_codes: np.ndarray, payload: np.ndarray,
                 n_grades: np.uint64, read_at: np.ndarray, write_at: np.ndarray, state: np.ndarray,
                 floor: float, tops: np.ndarray) -> None:
    """Write the largest gain of each feature ``start..stop-1`` to ``tops``."""
    unused = np.empty((1, 1))
    for k in range(start, stop):
        tops[k] = sweep_feature(k, order, sorted_codes, payload, n_grades, read_at, write_at, state,
                                floor, np.inf, unused, unused, False)[0]


@numba.njit(cache=True, nogil=True)
def stump_tables(order: np.ndarray, sorted_codes: np.ndarray, payload: np.ndarray, n_grades: np.uint64,
                 read_at: np.ndarray, write_at: np.ndarray, state: np.ndarray, floor: float,
                 s1_out: np.ndarray, s2_out: np.ndarray) -> None:
    """Fill ``s1_out`` and ``s2_out`` (features x thresholds) with the sums of every stump."""
    for k in range(order.shape[0]):
        sweep_feature(k, order, sorted_codes, payload, n_grades, read_at, write_at, state, floor,
                      np.inf, s1_out, s2_out, True)
