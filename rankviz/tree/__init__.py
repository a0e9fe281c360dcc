"""Ranking trees: the estimators, the tree structure, its growth and its splitting criteria.

The pieces are kept apart as in scikit-learn's ``sklearn.tree``:
:mod:`~rankviz.tree.criteria` (one module per splitting criterion),
:mod:`~rankviz.tree.builder` (level-wise vectorised growth),
:mod:`~rankviz.tree.structure` (the fitted tree as parallel arrays),
:mod:`~rankviz.tree.gamma_path` (every tree of stopping rule (6), cut from
one maximal tree), :mod:`~rankviz.tree.replay` (growth one split at a time),
:mod:`~rankviz.tree.node_inspection` (a node's candidate splits),
:mod:`~rankviz.tree.mallows_nodes` (the Mallows models in the nodes of a
label ranking tree) and the estimators :class:`RankingTree`,
:class:`RankingTreeCV` (leaf size and γ by cross-validation) and :class:`OrdinalTree`.
"""

from .criteria import CRITERIA, Criterion, get_criterion
from .gamma_path import GammaPath
from .node_inspection import inspect_node
from .ordinal_tree import OrdinalTree
from .ranking_tree import RankingTree
from .ranking_tree_cv import RankingTreeCV
from .structure import TREE_LEAF, Tree

__all__ = ["CRITERIA", "Criterion", "GammaPath", "OrdinalTree", "RankingTree", "RankingTreeCV", "TREE_LEAF", "Tree",
           "get_criterion", "inspect_node"]
