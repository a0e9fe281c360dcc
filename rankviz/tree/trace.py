"""One example followed through a fitted tree: its path, its leaf and how well the leaf ranks it.

References
----------
.. [1] C. Rebelo, C. Soares and J. Pinto da Costa, "Empirical evaluation of
       ranking trees on some metalearning problems", Proceedings of the 2nd
       Planning to Learn Workshop (PlanLearn) at ICML/COLT/UAI 2008, 2008.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ..label_ranking.metrics import cs, kendall_tau, lra, wrc
from .structure import Tree

__all__ = ["TRACE_MEASURES", "ExampleTrace", "trace_example"]

#: The measures of a traced example, by the names the papers use.
TRACE_MEASURES = {"CS": cs, "WRC": wrc, "LRA": lra, "Kendall tau": kendall_tau}


@dataclass(frozen=True)
class ExampleTrace:
    """Where one example goes in a tree.

    Attributes
    ----------
    path : ndarray of int
        Node indices from the root to the leaf.
    leaf : int
    predicted : ndarray
        The leaf's ranking (each label's position, 1 = best).
    scores : dict of str -> float
        The leaf's ranking against the example's true one by CS, WRC, LRA and
        Kendall tau (Rebelo et al. 2008, §4); empty without a true ranking.
    """

    path: np.ndarray
    leaf: int
    predicted: np.ndarray
    scores: dict[str, float]


def trace_example(tree: Tree, x_encoded: ArrayLike, y_true: ArrayLike | None = None) -> ExampleTrace:
    """Follow one encoded example from the root to its leaf.

    Parameters
    ----------
    tree : Tree or fitted estimator with ``tree_``
    x_encoded : array-like of shape (n_features,)
        The example's features as the tree sees them (see
        :class:`rankviz.features.FeatureEncoder`); NaN goes the way the
        tree sends missing values.
    y_true : array-like of shape (n_labels,), optional
        The example's true ranking, to score the leaf's.

    Returns
    -------
    ExampleTrace
    """
    tree = getattr(tree, "tree_", tree)
    row = np.asarray(x_encoded, dtype=float).reshape(1, -1)
    steps = tree.decision_paths(row)[0]
    # decision_paths repeats the leaf to the tree's depth; keep each node once.
    path = steps[np.r_[True, steps[1:] != steps[:-1]]]
    leaf = int(path[-1])
    predicted = np.asarray(tree.ranking[leaf])
    scores = {}
    if y_true is not None and not tree.is_ordinal:
        truth = np.asarray(y_true, dtype=float)
        scores = {name: float(measure(truth, predicted)) for name, measure in TRACE_MEASURES.items()}
    return ExampleTrace(path=path, leaf=leaf, predicted=predicted, scores=scores)
