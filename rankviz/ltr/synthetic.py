"""A synthetic learning-to-rank set in the style of web-search data (the bundled sample)."""

from __future__ import annotations

import numpy as np

from ..datasets.queries import QueryDataset

__all__ = ["make_ltr_dataset"]


def _docs_range(docs_per_query):
    if np.ndim(docs_per_query) == 0:
        low = high = int(docs_per_query)
    else:
        low, high = (int(v) for v in docs_per_query)
    if low < 2 or high < low:
        raise ValueError(f"docs_per_query must be an int >= 2 or a range (low, high) with "
                         f"2 <= low <= high, got {docs_per_query!r}")
    return low, high

def _grade_shares(n_levels):
    """Share of documents per grade, halving from one grade to the next (most 0, few top)."""
    shares = 0.5 ** np.arange(n_levels)
    return shares / shares.sum()

def make_ltr_dataset(n_queries: int = 200, docs_per_query: int | tuple[int, int] = (5, 30),
                     n_features: int = 40, n_informative: int = 8, noise: float = 1.0,
                     n_levels: int = 5, seed: int | np.random.Generator = 0,
                     query_shift: float = 1.0) -> QueryDataset:
    """Draw a synthetic learning-to-rank set in the style of web-search data.

    For each query, ``m`` documents (``m`` uniform in ``docs_per_query``)
    get features ``x = z + o_q`` with ``z ~ N(0, I)`` and a per-query offset
    ``o_q ~ N(0, query_shift^2 I)``, so raw feature values are not
    comparable across queries (as with query-dependent web features). Only
    the first ``n_informative`` features matter, through the within-query
    part ``z``::

        latent = sum_j z_j / sqrt(j)        (j = 1..n_informative)
                 + 0.75 [z_2 > 0.5]         (a threshold, if n_informative >= 2)
                 + 0.5 z_3 z_4              (an interaction, if n_informative >= 4)
                 + noise * N(0, 1)

    The latent score is cut at its quantiles into grades ``0..n_levels-1``
    whose shares halve from one grade to the next (for 5 grades about 52%,
    26%, 13%, 6%, 3%): most documents are 0 or 1, few are 4, as in LETOR.
    A query whose documents all got the same grade has its best document
    (highest latent score) moved one grade up (its worst one down if the
    grade is the top one), so every query has at least 2 distinct grades;
    this keeps grades in the order of the latent score.

    Parameters
    ----------
    n_queries : int, default=200
        Number of queries (at least 1), with ids ``1..n_queries``.
    docs_per_query : int or (int, int), default=(5, 30)
        Documents per query: a fixed number, or a range ``(low, high)``
        with both ends included; at least 2.
    n_features : int, default=40
        Number of features ``f1..f<n_features>`` (at least 1).
    n_informative : int, default=8
        The informative features are ``f1..f<n_informative>``, strongest
        first; the others are noise.
    noise : float, default=1.0
        Standard deviation of the noise on the latent score (the signal's is
        about 1.7 with 8 informative features).
    n_levels : int, default=5
        Number of relevance grades (at least 2).
    seed : int or numpy.random.Generator, default=0
        Seed of ``numpy.random.default_rng``; the same seed gives the same
        data.
    query_shift : float, default=1.0
        Standard deviation of the per-query feature offsets.

    Returns
    -------
    QueryDataset
        Query ids ``1..n_queries``, each query's documents contiguous,
        relevance the grades as floats.

    Raises
    ------
    ValueError
        If a size is below its minimum (``n_queries`` 1, ``docs_per_query``
        2, ``n_levels`` 2), ``n_informative`` is not in
        ``1..n_features``, or ``noise`` or ``query_shift`` is negative.

    See Also
    --------
    rankviz.load_ltr_sample : The bundled sample, made by this function.
    rankviz.datasets.split_by_query : Split the set into parts of whole queries.

    Examples
    --------
    >>> from rankviz import make_ltr_dataset
    >>> data = make_ltr_dataset(n_queries=5, docs_per_query=4, n_features=6, n_informative=3, seed=0)
    >>> data
    QueryDataset(name='synthetic LTR', n_queries=5, n_docs=20, n_features=6)
    >>> data.qid[:8], data.query_sizes
    (array([1, 1, 1, 1, 2, 2, 2, 2]), array([4, 4, 4, 4, 4]))
    """
    n_queries, n_features, n_informative, n_levels = (int(v) for v in (n_queries, n_features,
                                                                        n_informative, n_levels))
    low, high = _docs_range(docs_per_query)
    if n_queries < 1:
        raise ValueError(f"n_queries must be at least 1, got {n_queries}")
    if n_features < 1 or not 1 <= n_informative <= n_features:
        raise ValueError(f"expected 1 <= n_informative <= n_features, got n_informative={n_informative}, "
                         f"n_features={n_features}")
    if n_levels < 2:
        raise ValueError(f"n_levels must be at least 2, got {n_levels}")
    if noise < 0 or query_shift < 0:
        raise ValueError(f"noise and query_shift must be >= 0, got {noise} and {query_shift}")
    rng = np.random.default_rng(seed)
    sizes = rng.integers(low, high + 1, size=n_queries)
    query = np.repeat(np.arange(n_queries), sizes)
    Z = rng.standard_normal((len(query), n_features))
    offsets = rng.normal(0.0, query_shift, size=(n_queries, n_features))

    k = n_informative
    latent = Z[:, :k] @ (1.0 / np.sqrt(np.arange(1, k + 1)))
    if k >= 2:
        latent += 0.75 * (Z[:, 1] > 0.5)
    if k >= 4:
        latent += 0.5 * Z[:, 2] * Z[:, 3]
    latent += noise * rng.standard_normal(len(query))

    cuts = np.quantile(latent, np.cumsum(_grade_shares(n_levels))[:-1])
    grades = np.searchsorted(cuts, latent, side="right")
    _spread_grades(grades, latent, sizes, n_levels)
    X = Z + offsets[query]
    description = (f"Synthetic learning-to-rank data: {n_queries} queries, {low}-{high} documents each, "
                   f"{n_features} features (f1..f{k} informative, strongest first), grades 0..{n_levels - 1}, "
                   f"noise {noise:g}, per-query feature offsets with sd {query_shift:g}, seed {seed}.")
    return QueryDataset(X, grades.astype(float), np.arange(1, n_queries + 1)[query],
                        name="synthetic LTR", description=description)

def _spread_grades(grades, latent, sizes, n_levels):
    """In place: give every query (contiguous rows, ``sizes`` each) at least 2 distinct grades."""
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    ends = starts + sizes
    lowest = np.minimum.reduceat(grades, starts)
    flat = lowest == np.maximum.reduceat(grades, starts)
    if not flat.any():
        return
    query = np.repeat(np.arange(len(sizes)), sizes)
    order = np.lexsort((latent, query))          # by query, then latent score
    best, worst = order[ends - 1], order[starts]
    up = flat & (lowest < n_levels - 1)
    down = flat & ~up
    grades[best[up]] += 1
    grades[worst[down]] -= 1
