"""Growing ranking trees in compiled code (Numba): node by node, each node costing what its rows cost.

:func:`grow_nodes` is the fast path of :func:`rankviz.tree.builder.grow_tree`
for the library's criteria (:func:`has_compiled_form` says which); it grows
the same trees as the NumPy search, without its fixed cost per depth.

Importing this package does not import Numba: :data:`KERNELS`
(:class:`rankviz.jit.LazyKernels`) says whether the compiled code is ready
and builds it, and the names below (:func:`grow_nodes`,
:func:`criterion_spec`, ...) import their modules, and Numba, when first
used (:pep:`562`).
"""

from types import ModuleType

from ...jit import LazyKernels
from ..criteria import Criterion, Gini, Mallows, MeanSpearman, RankingImpurity
from ..criteria.pairwise_entropy import PairwiseEntropy

__all__ = ["CriterionSpec", "GrownNodes", "KERNELS", "criterion_spec", "distances_to_centres", "grow_nodes",
           "has_compiled_form", "node_pair_counts", "node_rankings", "node_sums", "warm_up"]

#: The builder's compiled code: all of it is in :mod:`.kernels`; :func:`rankviz.tree.compiled.warm.warm_up`
#: compiles every function for every kind of argument a fit passes.
def _import_kernels() -> ModuleType:
    from . import kernels
    return kernels


def _warm_up() -> None:
    from .warm import warm_up as compile_all
    compile_all()


KERNELS = LazyKernels("the ranking tree builder", "rankviz.tree.compiled.kernels", load=_import_kernels,
                      warm_up=_warm_up)

# The names that need Numba, and the module of each (imported on first use).
_LAZY = {"CriterionSpec": "specs", "criterion_spec": "specs", "GrownNodes": "growth", "grow_nodes": "growth",
         "distances_to_centres": "kernels", "node_pair_counts": "kernels", "node_rankings": "kernels",
         "node_sums": "kernels", "warm_up": "warm"}


def _module(part: str) -> ModuleType:
    """The submodule ``part`` of :data:`_LAZY`, by plain import statements (no module named by a string)."""
    if part == "specs":
        from . import specs
        return specs
    if part == "growth":
        from . import growth
        return growth
    if part == "kernels":
        from . import kernels
        return kernels
    from . import warm
    return warm


def has_compiled_form(criterion: Criterion) -> bool:
    """Whether the compiled search knows the criterion's formulas (:func:`criterion_spec` is not None).

    Only the library's own classes qualify (``type(criterion) is ...``): a
    subclass may change a formula the compiled code would not know about.
    """
    return type(criterion) in (MeanSpearman, Mallows, RankingImpurity, Gini, PairwiseEntropy)


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(_module(_LAZY[name]), name)
        globals()[name] = value  # found directly from now on
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
