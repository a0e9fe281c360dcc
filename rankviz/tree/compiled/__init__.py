"""Growing ranking trees in compiled code (Numba): node by node, each node costing what its rows cost.

:func:`grow_nodes` is the fast path of :func:`rankviz.tree.builder.grow_tree`
for the library's criteria (:func:`criterion_spec` says which); it grows the
same trees as the NumPy search, without its fixed cost per depth.
"""

from .growth import GrownNodes, grow_nodes, warm_up
from .kernels import distances_to_centres, node_sums
from .specs import CriterionSpec, criterion_spec

__all__ = ["CriterionSpec", "GrownNodes", "criterion_spec", "distances_to_centres", "grow_nodes", "node_sums",
           "warm_up"]
