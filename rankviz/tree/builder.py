"""Growing a ranking tree: split search from running sums, and growth order.

The search is level-wise and vectorised: all nodes of one depth are searched
together, and for each attribute every threshold of every node is scored at
once from cumulative sums of the criterion's per-row statistics
(docs/design.md, "The mathematics that makes split search fast").
Rows are sorted once per numeric attribute before growth; each level only
regroups that order by node with a stable (linear-time) integer sort, so no
node sorts its rows again. Statistics that are small whole numbers (the
ordinal criteria's level indicators) are summed in integers, and candidates
are scored in cache-sized blocks; both give exactly the scores of float sums
over whole arrays, only faster (tests/test_ordinal_speed_paths.py).

The tree found does not depend on the order in which nodes are expanded;
:mod:`rankviz.tree.replay` replays the splits one at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, overload

import numpy as np
from numpy.typing import ArrayLike

from ..label_ranking.aggregation import mean_from_sums, rank_by_mean
from . import compiled
from .criteria.pair_relations import pair_relations
from .feature_draws import drawn_features
from .structure import TREE_LEAF, Tree, parent_array

if TYPE_CHECKING:
    from .criteria import Criterion

__all__ = ["PURE_SIMILARITY", "ENGINES", "grow_tree", "find_best_splits", "SearchData", "group_sums", "split_margins",
           "node_pair_counts", "subtree_sums", "use_compiled"]

#: A node this similar (its rankings all identical) cannot become more homogeneous: never split.
PURE_SIMILARITY = 1.0 - 1e-12
#: Labels up to which the nodes' rankings are sorted in compiled code (an insertion sort per node, O(L²)).
_SORTED_IN_COMPILED_CODE = 64
# Scores this close count as equal: running sums and direct sums of the same
# set differ in the last bits, and a tie must not be decided by rounding.
_TIE = 1e-12
# Candidates are scored in blocks of about this many (statistics x candidates)
# values (256 KiB of float64): see find_best_splits.
_BLOCK_ELEMENTS = 2**15
#: How a tree can be grown: "compiled" (node by node, :mod:`rankviz.tree.compiled`), "numpy" (level by
#: level, below), or "auto": compiled where the criterion has compiled formulas and the compiled code is
#: ready (:meth:`rankviz.jit.LazyKernels.request`), else NumPy.
ENGINES = ("auto", "compiled", "numpy")


@overload
def grow_tree(X: np.ndarray, nominal: np.ndarray, Y: np.ndarray, criterion: Criterion, *,
              gamma: float = ..., min_samples_leaf: int = ..., max_depth: int | None = ...,
              feature_names: Sequence[str] | None = ...,
              categories: Sequence[Sequence[Any] | None] | None = ...,
              label_names: Sequence[str] | None = ..., engine: str = ...,
              max_features: int | None = ..., feature_seed: int = ...,
              return_leaves: Literal[False] = ...) -> Tree: ...


@overload
def grow_tree(X: np.ndarray, nominal: np.ndarray, Y: np.ndarray, criterion: Criterion, *,
              gamma: float = ..., min_samples_leaf: int = ..., max_depth: int | None = ...,
              feature_names: Sequence[str] | None = ...,
              categories: Sequence[Sequence[Any] | None] | None = ...,
              label_names: Sequence[str] | None = ..., engine: str = ...,
              max_features: int | None = ..., feature_seed: int = ...,
              return_leaves: Literal[True]) -> tuple[Tree, np.ndarray]: ...


@overload
def grow_tree(X: np.ndarray, nominal: np.ndarray, Y: np.ndarray, criterion: Criterion, *,
              gamma: float = ..., min_samples_leaf: int = ..., max_depth: int | None = ...,
              feature_names: Sequence[str] | None = ...,
              categories: Sequence[Sequence[Any] | None] | None = ...,
              label_names: Sequence[str] | None = ..., engine: str = ...,
              max_features: int | None = ..., feature_seed: int = ...,
              return_leaves: bool = ...) -> Tree | tuple[Tree, np.ndarray]: ...


def grow_tree(X: np.ndarray, nominal: np.ndarray, Y: np.ndarray, criterion: Criterion, *,
              gamma: float = 0.995, min_samples_leaf: int = 2, max_depth: int | None = None,
              feature_names: Sequence[str] | None = None,
              categories: Sequence[Sequence[Any] | None] | None = None,
              label_names: Sequence[str] | None = None, engine: str = "auto",
              max_features: int | None = None, feature_seed: int = 0,
              return_leaves: bool = False) -> Tree | tuple[Tree, np.ndarray]:
    """Grow a ranking tree top-down (TDIDT, Figure 1 of Rebelo, Soares & Costa 2008).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Encoded features (see :class:`rankviz.features.FeatureEncoder`).
    nominal : ndarray of bool, shape (n_features,)
        Which columns are nominal codes.
    Y : ndarray of shape (n_samples, n_labels)
        Rank positions.
    criterion : Criterion
    gamma : float, default=0.995
        Stopping rule (6): a node is split only if
        ``(1 + S_parent) < gamma * (1 + S_split)``. ``np.inf`` grows the
        maximal tree allowed by the other limits.
    min_samples_leaf : int, default=2
    max_depth : int or None, default=None
    feature_names, categories, label_names : lists, optional
        Kept on the tree for display.
    engine : {"auto", "compiled", "numpy"}, default="auto"
        "compiled" grows node by node in compiled code
        (:mod:`rankviz.tree.compiled`; the library's criteria only; the first
        use with an empty cache compiles it, tens of seconds of CPU), "numpy"
        level by level with NumPy. Both grow the same tree. "auto" takes the
        compiled one where the criterion has it and it is ready without
        compiling; otherwise it grows with NumPy and, in the default
        compilation mode, has the compiled code built in the background
        (:mod:`rankviz.jit`).
    max_features : int or None, default=None
        Search each node on this many attributes only, drawn afresh at every
        node (:func:`rankviz.tree.feature_draws.drawn_features`; the split-level draws of random
        forests, Breiman 2001); None searches all. A node whose drawn
        attributes allow no split becomes a leaf.
    feature_seed : int, default=0
        Seed of those draws (>= 0).
    return_leaves : bool, default=False
        Also return the leaf of every row (the growth routes each row to
        it; ``tree.apply(X)`` would route them again).

    Returns
    -------
    tree : Tree
    leaf_of_row : ndarray of int, shape (n_samples,)
        Only with ``return_leaves``.
    """
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    n, d = X.shape
    stats = criterion.row_statistics(Y)
    present = ~np.isnan(Y)
    rank_parts = np.hstack([np.where(present, Y, 0.0), present.astype(float)])
    depth_limit: float = np.inf if max_depth is None else max_depth
    # A binary tree on n rows has at most 2n - 1 nodes, and one of depth D at
    # most 2**(D + 1) - 1: preallocating no more than that matters for shallow
    # trees on many rows (zeroed columns of 2n rows are fresh pages).
    capacity = 2 * n - 1 if depth_limit > 40 else min(2 * n - 1, 2 ** (int(depth_limit) + 1) - 1)
    names = dict(criterion=criterion, feature_names=feature_names or [f"x{j + 1}" for j in range(d)],
                 categories=categories or [None] * d,
                 label_names=label_names or [f"label_{j + 1}" for j in range(Y.shape[1])],
                 missing_features=np.isnan(X).any(axis=0) & ~nominal)

    if engine == "compiled" and not compiled.has_compiled_form(criterion):
        raise ValueError(f"criterion {criterion.name!r} ({type(criterion).__name__}) has no compiled form; "
                         "use engine='numpy' or 'auto'")
    if use_compiled(criterion, engine):
        grown = compiled.grow_nodes(X, nominal, stats, compiled.criterion_spec(criterion), gamma=gamma,
                                    min_samples_leaf=min_samples_leaf, max_depth=depth_limit, capacity=capacity,
                                    max_features=max_features, feature_seed=feature_seed)
        nodes = _NodeTable.of_grown(grown, rank_parts)
        tree = nodes.to_tree(**names)
        return (tree, grown.node_of_row) if return_leaves else tree

    data = SearchData.prepare(X, nominal, stats)
    nodes = _NodeTable(capacity=capacity, n_stats=stats.shape[1], n_labels=Y.shape[1])
    nodes.count[0] = n
    nodes.stat_sum[0] = stats.sum(axis=0)
    nodes.similarity[0] = criterion.node_similarity(n, nodes.stat_sum[0])
    nodes.size = 1
    node_of_row = np.zeros(n, dtype=np.intp)
    frontier = np.array([0])

    while len(frontier):
        searchable = ((nodes.depth[frontier] < depth_limit)
                      & (nodes.count[frontier] >= max(2, 2 * min_samples_leaf))
                      & (nodes.similarity[frontier] < PURE_SIMILARITY)
                      & criterion.can_split(nodes.count[frontier], nodes.stat_sum[frontier]))
        searched = frontier[searchable]
        if not len(searched):
            break
        drawn = (drawn_features(feature_seed, searched, d, max_features)
                 if max_features is not None and 0 < max_features < d else None)
        best = find_best_splits(data, node_of_row, searched, nodes.count[searched],
                                nodes.stat_sum[searched], criterion, min_samples_leaf, drawn)
        s_split = _split_similarity(criterion, best, nodes.count[searched], nodes.stat_sum[searched])
        nodes.split_score[searched] = s_split
        nodes.split_feature[searched] = best.feature
        nodes.split_threshold[searched] = best.threshold
        with np.errstate(invalid="ignore"):
            accepted = (best.feature >= 0) & criterion.accepts_split(
                nodes.similarity[searched], s_split, gamma)
        split_nodes = searched[accepted]
        if not len(split_nodes):
            break

        # New nodes: the children of the j-th split node get ids size + 2j, size + 2j + 1.
        left = nodes.size + 2 * np.arange(len(split_nodes))
        nodes.size += 2 * len(split_nodes)
        nodes.children_left[split_nodes] = left
        nodes.children_right[split_nodes] = left + 1
        nodes.feature[split_nodes] = best.feature[accepted]
        nodes.threshold[split_nodes] = best.threshold[accepted]
        nodes.missing_left[split_nodes] = best.missing_left[accepted]
        nodes.depth[left] = nodes.depth[left + 1] = nodes.depth[split_nodes] + 1

        # Route the rows of the split nodes to their children.
        rows = np.flatnonzero(nodes.children_left[node_of_row] >= 0)
        parent = node_of_row[rows]
        f = nodes.feature[parent]
        x = X[rows, f]
        t = nodes.threshold[parent]
        goes_left = np.where(nominal[f], x == t, np.where(np.isnan(x), nodes.missing_left[parent], x <= t))
        child = nodes.children_left[parent] + ~goes_left  # the right child is left + 1
        node_of_row[rows] = child

        # The split search already summed the left subsets; the right ones are
        # the rest of the parent.
        nodes.count[left] = best.left_count[accepted]
        nodes.count[left + 1] = nodes.count[split_nodes] - nodes.count[left]
        nodes.stat_sum[left] = best.left_sum[accepted]
        nodes.stat_sum[left + 1] = nodes.stat_sum[split_nodes] - nodes.stat_sum[left]
        children = np.arange(left[0], nodes.size)
        nodes.similarity[children] = criterion.node_similarity(
            nodes.count[children], nodes.stat_sum[children])
        frontier = children

    nodes.sum_up(node_of_row, rank_parts)
    tree = nodes.to_tree(**names)
    return (tree, node_of_row) if return_leaves else tree


def use_compiled(criterion: Criterion | None, engine: str = "auto") -> bool:
    """Whether a fit with this criterion and ``engine`` (see :func:`grow_tree`) grows in compiled code.

    For "auto", asking starts the background build of the compiled code when
    it is needed and not ready (:meth:`rankviz.jit.LazyKernels.request`).
    ``criterion`` None asks about the compiled code only (the Mallows node
    models use it whatever grew the tree).
    """
    if engine == "numpy" or (criterion is not None and not compiled.has_compiled_form(criterion)):
        return False
    return engine == "compiled" or compiled.KERNELS.request()


def node_pair_counts(tree: Tree, leaf_of_row: np.ndarray, Y: np.ndarray,
                     engine: str = "auto") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every node's counts of its rows that put each pair's first label ahead, tie the pair, or put it behind.

    :func:`subtree_sums` of :func:`rankviz.tree.criteria.pair_relations.pair_relations`, split into its
    three blocks; in compiled code (:func:`rankviz.tree.compiled.node_pair_counts`, when ``engine`` allows and
    the code is ready: :func:`use_compiled`) without making the rows' table. Both count the same rows, so the
    counts are equal.

    Parameters
    ----------
    tree : Tree
    leaf_of_row : ndarray of int, shape (n_rows,)
        Each row's leaf.
    Y : ndarray of shape (n_rows, n_labels)
        Rank positions (equal = tied, NaN = missing: in no count).
    engine : {"auto", "compiled", "numpy"}, default="auto"

    Returns
    -------
    ahead, tie, behind : ndarray of shape (tree.node_count, n_labels * (n_labels - 1) / 2)
        The pairs ``i < j`` in :func:`numpy.triu_indices` order.
    """
    if use_compiled(None, engine):
        return compiled.node_pair_counts(np.ascontiguousarray(Y, dtype=float), leaf_of_row, tree.children_left,
                                         tree.children_right)
    sums = subtree_sums(leaf_of_row, pair_relations(Y), tree.children_left, tree.children_right,
                        np.asarray(tree.depth))
    ahead, tie, behind = np.split(sums, 3, axis=1)
    return ahead, tie, behind


def subtree_sums(leaf_of_row: np.ndarray, values: np.ndarray, children_left: np.ndarray,
                 children_right: np.ndarray, depth: np.ndarray) -> np.ndarray:
    """Every node's sums of ``values`` over its rows, with NumPy (:func:`rankviz.tree.compiled.node_sums` compiled).

    The leaves sum their rows (in row order), then each depth adds into its
    parents, deepest first, a left child before its sibling: one NumPy call
    per depth.

    Parameters
    ----------
    leaf_of_row : ndarray of int, shape (n_rows,)
    values : ndarray of shape (n_rows, n_values)
    children_left, children_right : ndarray of int, shape (n_nodes,)
    depth : ndarray of int, shape (n_nodes,)

    Returns
    -------
    ndarray of shape (n_nodes, n_values)
    """
    sums = group_sums(leaf_of_row, values, len(children_left))
    parent = parent_array(children_left, children_right)
    for level in range(int(depth.max()), 0, -1):
        at_level = np.flatnonzero(depth == level)
        # Siblings share a parent, so accumulate with add.at, not fancy assignment.
        np.add.at(sums, parent[at_level], sums[at_level])
    return sums


def _split_similarity(criterion, best, node_count, node_sum):
    """``S_split`` of rule (6) for the chosen splits.

    Usually the search score itself; a criterion that searches by another
    score (``search_label`` set: the ranking impurity's unweighted gain) has
    its chosen splits judged by the size-weighted similarity, like every other.
    """
    if not criterion.search_label:
        return best.score
    found = np.flatnonzero(best.feature >= 0)
    s_split = np.full(len(best.score), np.nan)
    left_count, left_sum = best.left_count[found], best.left_sum[found]
    s_split[found] = criterion.split_similarity(left_count, left_sum, node_count[found] - left_count,
                                                node_sum[found] - left_sum)
    return s_split


@dataclass(frozen=True)
class SearchData:
    """What the split search needs of the training data, laid out once per fit.

    Attributes
    ----------
    X : ndarray (n_rows, n_features)
        Encoded attributes; ``columns`` is the same, transposed and contiguous.
    nominal : ndarray of bool
    stats : ndarray (n_rows, n_statistics)
        The criterion's row statistics; ``stats_t`` transposed and contiguous,
        so gathers and cumulative sums run along contiguous memory (several
        times faster than along axis 0).
    numeric : ndarray of int
        The numeric attributes, and ``presorted`` the row order of each.
    sum_dtype : dtype or None
        Integer type in which running sums of ``stats_t`` are taken when the
        statistics are small whole numbers (``stats_t`` is then stored as
        int8); None for float statistics.
    """

    X: np.ndarray
    nominal: np.ndarray
    stats: np.ndarray
    columns: np.ndarray
    stats_t: np.ndarray
    numeric: np.ndarray
    presorted: np.ndarray
    sum_dtype: type[np.integer] | None = None
    missing: np.ndarray | None = None  # per numeric column (aligned with ``numeric``): has NaN

    @classmethod
    def prepare(cls, X: np.ndarray, nominal: np.ndarray, stats: np.ndarray) -> SearchData:
        """Lay out ``X`` and the row statistics ``stats`` for :func:`find_best_splits`."""
        numeric = np.flatnonzero(~nominal)
        stats_t = np.ascontiguousarray(stats.T)
        sum_dtype = _integer_sum_dtype(stats)
        if sum_dtype is not None:
            stats_t = stats_t.astype(np.int8)
        # argsort puts NaN last, so a node's missing values end its sorted rows
        return cls(X=X, nominal=nominal, stats=stats, columns=np.ascontiguousarray(X.T),
                   stats_t=stats_t, numeric=numeric,
                   presorted=np.argsort(X[:, numeric], axis=0, kind="stable"),
                   sum_dtype=sum_dtype, missing=np.isnan(X[:, numeric]).any(axis=0))


def _integer_sum_dtype(stats):
    """The integer type that sums ``stats`` exactly, or None if they are not small whole numbers.

    The ordinal criteria's statistics are 0/1 level indicators. Summed as
    floats they are exact (whole numbers far below 2**53), so summing them as
    integers gives the very same sums, hence the same scores and splits; but
    a running integer sum is several times faster than a float one (each
    float addition waits for the rounding of the one before) and the int8
    rows it reads are an eighth of the memory.
    """
    if not stats.size:
        return None
    largest = float(np.abs(stats).max())
    if largest > np.iinfo(np.int8).max or not np.array_equal(stats, np.trunc(stats)):
        return None
    # The largest running sum is at most n_rows * largest.
    return np.int32 if len(stats) * largest < np.iinfo(np.int32).max else np.int64


@dataclass
class BestSplits:
    """Best split per searched node: score (NaN if none), feature (-1 if none),
    threshold, and the count and statistic sums of its left ("yes") subset."""

    score: np.ndarray
    feature: np.ndarray
    threshold: np.ndarray
    left_count: np.ndarray
    left_sum: np.ndarray
    missing_left: np.ndarray
    margin: np.ndarray  # of a numeric threshold (see split_margins); 0 for a nominal test

    @classmethod
    def empty(cls, n_nodes: int, n_stats: int) -> BestSplits:
        return cls(np.full(n_nodes, np.nan), np.full(n_nodes, -1), np.full(n_nodes, np.nan),
                   np.zeros(n_nodes, dtype=np.intp), np.zeros((n_nodes, n_stats)),
                   np.zeros(n_nodes, dtype=bool), np.zeros(n_nodes))

    def update(self, feature: int | np.integer, found: np.ndarray, score: np.ndarray, threshold: np.ndarray,
               left_count: np.ndarray, left_sum: np.ndarray,
               missing_left: bool | np.ndarray = False, margin: float | np.ndarray = 0.0) -> None:
        """Keep, for the nodes in ``found``, this feature's split where it is better.

        Ties (within rounding) go to the wider margin, then to the earlier
        attribute (a nominal test's margin is 0).
        """
        current = np.where(np.isnan(self.score[found]), -np.inf, self.score[found])
        better = score > current
        tie = np.isfinite(current) & (np.abs(score - current) <= _TIE * (1.0 + np.abs(current)))
        margin = np.asarray(margin, dtype=float)
        if tie.any():
            tied_margin = margin[tie] if margin.ndim else margin
            kept = self.margin[found[tie]]
            better[tie] = (tied_margin > kept) | ((tied_margin == kept) & (feature < self.feature[found[tie]]))
        nodes = found[better]
        self.margin[nodes] = margin[better] if margin.ndim else margin
        self.score[nodes] = score[better]
        self.feature[nodes] = feature
        self.threshold[nodes] = threshold[better]
        self.left_count[nodes] = left_count[better]
        self.left_sum[nodes] = left_sum[better]
        self.missing_left[nodes] = np.broadcast_to(missing_left, better.shape)[better]


def find_best_splits(data: SearchData, node_of_row: np.ndarray, nodes: np.ndarray,
                     node_count: np.ndarray, node_sum: np.ndarray, criterion: Criterion,
                     min_samples_leaf: int, drawn: np.ndarray | None = None) -> BestSplits:
    """Best binary split of each of several nodes, over all attributes.

    Parameters
    ----------
    data : SearchData
    node_of_row : ndarray of int
        Node id of every row.
    nodes : ndarray of int
        The nodes to search.
    node_count, node_sum : arrays
        Row count and summed statistics of each of ``nodes``.
    criterion : Criterion
    min_samples_leaf : int
    drawn : ndarray of bool, shape (len(nodes), n_features), optional
        The attributes each node may split on (:func:`rankviz.tree.feature_draws.drawn_features`); all if None.

    Returns
    -------
    BestSplits
        Aligned with ``nodes``.
    """
    n_nodes = len(nodes)
    slot_of_node = np.full(node_of_row.max() + 1, -1, dtype=_slot_dtype(n_nodes))
    slot_of_node[nodes] = np.arange(n_nodes)
    slot = slot_of_node[node_of_row]
    best = BestSplits.empty(n_nodes, data.stats.shape[1])

    # Once the searched rows are grouped by node (slot), position p holds a row
    # of node slot_at[p] with left_count[p] of that node's rows at or before
    # it. That layout is the same for every attribute, so it is computed once.
    n_searched = int(node_count.sum())
    seg_start = np.cumsum(node_count) - node_count  # first position of each node
    slot_at = np.repeat(np.arange(n_nodes, dtype=slot.dtype), node_count)
    left_count = np.arange(1, n_searched + 1) - seg_start[slot_at]
    right_count = node_count[slot_at] - left_count
    leaves_ok = (left_count >= min_samples_leaf) & (right_count >= min_samples_leaf)
    # Statistics first, nodes second, as the running sums are laid out.
    node_sum_t = np.ascontiguousarray(np.asarray(node_sum, dtype=float).T)
    block = max(256, _BLOCK_ELEMENTS // max(1, node_sum_t.shape[0]))
    # Which numeric columns have NaN: SearchData.prepare computes it; a SearchData built without it
    # (the field's default, None) would otherwise fail below.
    missing = data.missing if data.missing is not None else np.isnan(data.X[:, data.numeric]).any(axis=0)

    for column, f in enumerate(data.numeric):
        rows = data.presorted[:, column]
        if n_searched < len(slot):
            rows = rows[slot[rows] >= 0]
        if n_nodes > 1:
            # Stable sort by node keeps each node's rows sorted by x; on 16-bit
            # keys numpy uses a linear-time radix sort.
            rows = rows[np.argsort(slot[rows], kind="stable")]
        x = data.columns[f].take(rows)
        # A threshold lies between two consecutive distinct values of one node
        # (NaN compares False, so never next to a missing value).
        boundary = np.zeros(len(x), dtype=bool)
        boundary[:-1] = x[1:] > x[:-1]
        has_missing = missing[column]
        if drawn is not None:
            boundary &= drawn[slot_at, f]  # only the nodes that drew this attribute
        if has_missing:
            # Missing values end each node's rows. Each threshold is scored
            # twice: with them on the "no" side (as the sort puts them) and
            # moved to the "yes" side; the better side is kept.
            is_missing = np.isnan(x)
            n_missing = np.bincount(slot_at[is_missing], minlength=n_nodes)
            missing_sum_t = group_sums(slot_at[is_missing], data.stats[rows[is_missing]], n_nodes).T
            shifted_ok = ((left_count + n_missing[slot_at] >= min_samples_leaf)
                          & (right_count - n_missing[slot_at] >= min_samples_leaf))
            cand = np.flatnonzero(boundary & (leaves_ok | shifted_ok))
        else:
            cand = np.flatnonzero(boundary & leaves_ok)
        if not len(cand):
            continue
        # `take` along the contiguous axis: several times faster than fancy indexing.
        cumulative = np.cumsum(data.stats_t.take(rows, axis=1), axis=1, dtype=data.sum_dtype)
        # Running sums up to the row before each node's first; node 0 starts at 0.
        start_sum = np.zeros((cumulative.shape[0], n_nodes), dtype=cumulative.dtype)
        start_sum[:, 1:] = cumulative[:, seg_start[1:] - 1]
        # Score the candidates a block at a time: the criterion's temporaries
        # then stay small, in cache and recycled by the allocator. Whole-size
        # temporaries are fresh memory each time, and on 50,000 rows their page
        # faults alone cost about a quarter of the growth time.
        score = np.empty(len(cand))
        to_left = np.zeros(len(cand), dtype=bool)
        for lo in range(0, len(cand), block):
            at = cand[lo:lo + block]
            s = slot_at[at]
            left_sum = _left_sums(cumulative, start_sum, at, s)
            right_sum = node_sum_t.take(s, axis=1) - left_sum
            score[lo:lo + block] = _split_scores(criterion, left_count[at], left_sum, right_count[at], right_sum)
            if has_missing:
                score[lo:lo + block] = np.where(leaves_ok[at], score[lo:lo + block], -np.inf)
                moved = missing_sum_t.take(s, axis=1)
                moved_score = _split_scores(criterion, left_count[at] + n_missing[s], left_sum + moved,
                                            right_count[at] - n_missing[s], right_sum - moved)
                moved_score = np.where(shifted_ok[at], moved_score, -np.inf)
                # Ties (within rounding) keep the missing values where the sort put them ("no").
                kept = score[lo:lo + block]
                with np.errstate(invalid="ignore"):  # -inf (no split with them on "no") stays -inf
                    margin = np.where(np.isfinite(kept), _TIE * (1.0 + np.abs(kept)), 0.0)
                to_left[lo:lo + block] = moved_score > kept + margin
                score[lo:lo + block] = np.maximum(score[lo:lo + block], moved_score)
        # Each node's range of x: its first value to its last present one (missing values end it).
        last_present = seg_start + node_count - 1 - (n_missing if has_missing else 0)

        def margins_of(i):  # of candidates cand[i], only asked for those that tie a node's best score
            at = cand[i]
            node = slot_at[at]
            return split_margins(x[at], x[at + 1], x[seg_start[node]], x[last_present[node]])

        pick = _argmax_per_sorted_group(slot_at[cand], score, n_nodes, margins_of)
        found = np.flatnonzero(pick >= 0)
        at = cand[pick[found]]
        low, high = x[at], x[at + 1]
        mid = low / 2.0 + high / 2.0  # (low + high) / 2 can overflow
        threshold = np.where(mid < high, mid, low)  # guard against rounding up to `high`
        chosen_left = to_left[pick[found]]
        left_sum = _left_sums(cumulative, start_sum, at, found)
        count = left_count[at]
        if has_missing:
            left_sum = left_sum + np.where(chosen_left, missing_sum_t.take(found, axis=1), 0.0)
            count = count + np.where(chosen_left, n_missing[found], 0)
        best.update(f, found, score[pick[found]], threshold, count, left_sum.T, chosen_left,
                    margins_of(pick[found]))

    # Nominal attributes: count and sum the rows of each (node, value) pair.
    nominal_features = np.flatnonzero(data.nominal)
    if not len(nominal_features):
        return best
    rows = np.flatnonzero(slot >= 0)
    row_slot = slot[rows].astype(np.intp)
    row_stats = data.stats[rows]
    for f in nominal_features:
        codes = data.columns[f].take(rows).astype(np.intp)
        n_values = int(codes.max()) + 1
        key = row_slot * n_values + codes
        value_count = np.bincount(key, minlength=n_nodes * n_values)
        value_sum = group_sums(key, row_stats, n_nodes * n_values)
        key_slot = np.repeat(np.arange(n_nodes), n_values)
        right_count = node_count[key_slot] - value_count
        allowed = (value_count >= min_samples_leaf) & (right_count >= min_samples_leaf)
        if drawn is not None:
            allowed &= drawn[key_slot, f]
        cand = np.flatnonzero(allowed)
        if not len(cand):
            continue
        sc = key_slot[cand]
        score = criterion.split_score(value_count[cand], value_sum[cand],
                                      right_count[cand], node_sum[sc] - value_sum[cand])
        pick = _argmax_per_sorted_group(sc, score, n_nodes)
        found = np.flatnonzero(pick >= 0)
        chosen = cand[pick[found]]
        best.update(f, found, score[pick[found]], (chosen % n_values).astype(float),
                    value_count[chosen], value_sum[chosen])
    return best


def _split_scores(criterion, left_count, left_sum, right_count, right_sum):
    """The criterion's scores of candidates given (statistics, candidates) sums."""
    left_sum, right_sum = _as_criterion_takes(criterion, left_sum, right_sum)
    return criterion.split_score(left_count, left_sum, right_count, right_sum)


def _left_sums(cumulative, start_sum, at, slots):
    """Summed statistics of the rows of each node up to positions ``at``, (n_statistics, len(at)).

    The running sum at the position less the one before the node's first row:
    element for element the same subtraction whichever positions are asked, so
    a candidate's sums do not depend on the block it is scored in. Integer
    sums (see :func:`_integer_sum_dtype`) convert to float exactly.
    """
    left = cumulative.take(at, axis=1)
    left -= start_sum.take(slots, axis=1)
    return left.astype(float, copy=False)


def _as_criterion_takes(criterion, *sums):
    """(statistics, candidates) sums as the (candidates, statistics) arrays a criterion scores.

    Both layouts hold the same numbers. A criterion that sets
    ``columnwise_sums = True`` (the ordinal ones) gets transposed views, in
    which each statistic is one contiguous vector. Others get C-contiguous
    copies: the layout their scores have always been computed in, since
    ``einsum`` sums in a layout-dependent order and another layout could
    change a score in its last bit.
    """
    if getattr(criterion, "columnwise_sums", False):
        return [a.T for a in sums]
    return [np.ascontiguousarray(a.T) for a in sums]


def _slot_dtype(n_slots):
    """Narrowest signed integer type for slot numbers (-1 = not searched)."""
    return np.int16 if n_slots < 2**15 else np.int32 if n_slots < 2**31 else np.int64


def split_margins(low: ArrayLike, high: ArrayLike, smallest: ArrayLike, largest: ArrayLike) -> np.ndarray:
    """The margin of thresholds between ``low`` and ``high``: the gap over the node's range of the attribute.

    Splits whose scores tie part the training rows equally well; the tree
    takes the widest margin, which leaves the most room to rows it has not
    seen. The compiled search computes the same numbers (its ``_widest_best``).

    Parameters
    ----------
    low, high : array-like of float
        The values either side of each threshold (consecutive distinct
        values of the node's rows).
    smallest, largest : array-like of float
        The node's smallest and largest present value of the attribute.

    Returns
    -------
    ndarray of float
        ``(high - low) / (largest - smallest)``, in (0, 1]; 0 where the
        range overflows.
    """
    with np.errstate(invalid="ignore", over="ignore"):
        margin = (np.asarray(high, dtype=float) - low) / (np.asarray(largest, dtype=float) - smallest)
    return np.where(margin > 0.0, margin, 0.0)


def _argmax_per_sorted_group(group, score, n_groups, margins_of=None):
    """Index (into ``score``) of the best candidate of each group, -1 if empty.

    ``group`` must be non-decreasing (candidates come grouped by node).
    Ties go to the widest margin (``margins_of(indices)``, asked for the tied
    candidates only), then to the first candidate, i.e. the lowest threshold.
    """
    score = np.where(np.isnan(score), -np.inf, score)
    new_group = _starts(group)
    maxima = np.maximum.reduceat(score, np.flatnonzero(new_group))[np.cumsum(new_group) - 1]
    at_max = np.flatnonzero(score >= maxima - _TIE * (1.0 + np.abs(maxima)))
    opens = _starts(group[at_max])
    pick = np.full(n_groups, -1)
    pick[group[at_max[opens]]] = at_max[opens]
    if margins_of is None or len(at_max) == np.count_nonzero(opens):  # no group with two at its maximum
        return pick
    shared = np.ones(len(at_max), dtype=bool)  # in a group with another candidate at its maximum
    shared[:-1] = ~(opens[:-1] & opens[1:])
    shared[-1] = not opens[-1]
    # widest first within each such group; the sort is stable, so then the first
    tied = at_max[shared]
    tied = tied[np.lexsort((-margins_of(tied), group[tied]))]
    widest = tied[_starts(group[tied])]
    pick[group[widest]] = widest
    return pick


def _starts(group: np.ndarray) -> np.ndarray:
    """Where each run of equal values of ``group`` starts (np.r_ costs more than the comparison)."""
    starts = np.empty(len(group), dtype=bool)
    starts[:1] = True
    np.not_equal(group[1:], group[:-1], out=starts[1:])
    return starts


def group_sums(keys: ArrayLike, values: np.ndarray, n_groups: int) -> np.ndarray:
    """Sum the rows of ``values`` (n, k) by integer key into (n_groups, k), one bincount."""
    k = values.shape[1]
    flat_keys = (np.asarray(keys, dtype=np.intp)[:, None] * k + np.arange(k)).ravel()
    return np.bincount(flat_keys, weights=values.ravel(), minlength=n_groups * k).reshape(n_groups, k)


class _NodeTable:
    """Preallocated node columns (``capacity`` bounds the number of nodes),
    frozen into a :class:`Tree` of the used size at the end."""

    def __init__(self, capacity, n_stats, n_labels):
        self.size = 0
        self.children_left = np.full(capacity, TREE_LEAF, dtype=np.intp)
        self.children_right = np.full(capacity, TREE_LEAF, dtype=np.intp)
        self.feature = np.full(capacity, TREE_LEAF, dtype=np.intp)
        self.split_feature = np.full(capacity, TREE_LEAF, dtype=np.intp)
        self.threshold = np.full(capacity, np.nan)
        self.missing_left = np.zeros(capacity, dtype=bool)
        self.split_threshold = np.full(capacity, np.nan)
        self.split_score = np.full(capacity, np.nan)
        self.similarity = np.full(capacity, np.nan)
        # each node's distance to its Mallows centre: only the compiled grower sums it (see to_tree)
        self.distance: np.ndarray | None = None
        self.depth = np.zeros(capacity, dtype=np.intp)
        self.count = np.zeros(capacity, dtype=np.intp)
        self.stat_sum = np.zeros((capacity, n_stats))
        # Per label: the sum of its positions, then the number of rankings holding it.
        self.rank_part = np.zeros((capacity, 2 * n_labels))

    @classmethod
    def of_grown(cls, grown, row_values):
        """The table of nodes grown by :func:`rankviz.tree.compiled.grow_nodes` (all of them used), with the
        per-label rank sums of ``row_values`` (as :meth:`sum_up`, in one compiled pass)."""
        table = cls.__new__(cls)
        table.size = len(grown.count)
        for name in ("children_left", "children_right", "feature", "threshold", "missing_left", "split_feature",
                     "split_threshold", "split_score", "similarity", "distance", "depth", "count"):
            setattr(table, name, getattr(grown, name))
        table.rank_part = compiled.node_sums(grown.node_of_row, row_values, grown.children_left,
                                             grown.children_right)
        return table

    def sum_up(self, leaf_of_row, row_values):
        """Per-label rank sums of every node (:func:`subtree_sums`)."""
        used = self.size
        self.rank_part[:used] = subtree_sums(leaf_of_row, row_values, self.children_left[:used],
                                             self.children_right[:used], self.depth[:used])

    def to_tree(self, criterion, feature_names, categories, label_names, missing_features=None):
        used = slice(0, self.size)
        rank_part = self.rank_part[used]
        n_labels = rank_part.shape[1] // 2
        if n_labels <= _SORTED_IN_COMPILED_CODE and use_compiled(None):
            mean_rank, ranking = compiled.node_rankings(np.ascontiguousarray(rank_part, dtype=float))
        else:
            mean_rank = mean_from_sums(rank_part[:, :n_labels], rank_part[:, n_labels:])
            ranking = rank_by_mean(mean_rank)
        return Tree(
            children_left=self.children_left[used].copy(),
            children_right=self.children_right[used].copy(),
            feature=self.feature[used].copy(),
            threshold=self.threshold[used].copy(),
            n_samples=self.count[used].copy(),
            similarity=self.similarity[used].copy(),
            split_score=self.split_score[used].copy(),
            split_feature=self.split_feature[used].copy(),
            split_threshold=self.split_threshold[used].copy(),
            mean_rank=mean_rank,
            ranking=ranking,
            depth=self.depth[used].copy(),
            feature_names=list(feature_names),
            categories=list(categories),
            label_names=[str(name) for name in label_names],
            criterion=criterion.name,
            similarity_label=criterion.similarity_label,
            missing_left=self.missing_left[used].copy(),
            extras=self._extras(used, missing_features),
        )

    def _extras(self, used, missing_features):
        """The tree's extras: the attributes with missing values, and the Mallows nodes' distances to their
        centres where the grower summed them (``"node_distance"``, read by
        :func:`rankviz.tree.mallows_nodes.node_models`)."""
        extras: dict = {} if missing_features is None else {"missing_features": missing_features}
        if self.distance is not None and not np.isnan(self.distance[used]).any():
            extras["node_distance"] = self.distance[used].copy()
        return extras
