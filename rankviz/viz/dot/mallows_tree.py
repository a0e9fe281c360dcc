"""Drawer of Mallows label ranking trees (Cheng, Hühn & Hüllermeier 2009).

A tree grown with ``criterion="mallows"`` (``tree.theta is not None``) is
drawn as a ranking tree whose boxes show the Mallows spread ``θ̂`` of their
rankings instead of ``S``, and each leaf also its reliability (``θ̂`` times
the leaf's share of the training rows); leaves show their centre ranking.
By default the leaves are coloured by reliability on an orange scale and
the internal nodes are grey.
"""

from __future__ import annotations

import math

import numpy as np

from ...tree.structure import Tree
from .common import INTERNAL_FILL, RELIABILITY_PALETTE, DrawOptions, fill_color, legend_attrs
from .ranking_tree import RankingTreeDrawer

__all__ = ["MallowsTreeDrawer", "fmt_theta", "reliability_fill"]


def fmt_theta(value: float) -> str:
    """``1.25``, ``∞`` (all rankings agree) or ``n/a`` (NaN)."""
    value = float(value)
    return "∞" if math.isinf(value) else "n/a" if math.isnan(value) else f"{value:.2f}"


def reliability_fill(value: float, rmin: float, rmax: float) -> str:
    """Colour of a leaf's reliability: finite values over all but the darkest orange.

    A pure leaf (θ̂ = ∞) gets the darkest, so it is never confused with the
    most reliable finite leaf.
    """
    if math.isinf(value):
        return RELIABILITY_PALETTE[-1]
    return fill_color(value, rmin, rmax, RELIABILITY_PALETTE[:-1])


class MallowsTreeDrawer(RankingTreeDrawer):
    """A label ranking tree: θ̂ and reliability in every box, leaves coloured by reliability.

    Parameters
    ----------
    tree : Tree
        A tree with ``theta``.
    options : DrawOptions
    by_reliability : bool, default=True
        Colour leaves by reliability (internal nodes grey); else every node
        by similarity, as a ranking tree.
    reliability_range : (float, float), optional
        Finite reliabilities mapped to the lightest and the second darkest
        orange; default from 0 to the largest finite leaf reliability.
    """

    def __init__(self, tree: Tree, options: DrawOptions, *, by_reliability: bool = True,
                 reliability_range: tuple[float, float] | None = None) -> None:
        super().__init__(tree, options)
        reliability = tree.reliability
        assert reliability is not None  # a tree with theta (drawer_for chooses this drawer for those only)
        self.reliability = reliability
        self.by_reliability = by_reliability
        if by_reliability:
            self.rmin, self.rmax = reliability_range or (0.0, _largest_finite(self.reliability[self.is_leaf]))

    def stats(self, node: int) -> str:
        """``n = 40, θ̂ = 1.25``, and for a leaf ``, rel = 0.31``."""
        theta = self.tree.theta
        assert theta is not None  # a tree with theta (__init__)
        stats = f"n = {int(self.tree.n_samples[node])}, θ̂ = {fmt_theta(theta[node])}"
        if self.is_leaf[node]:
            stats += f", rel = {fmt_theta(self.reliability[node])}"
        return stats

    def fill(self, node: int) -> str:
        """A leaf's reliability, an internal node grey; or the similarity."""
        if not self.by_reliability:
            return super().fill(node)
        if not self.is_leaf[node]:
            return INTERNAL_FILL
        return reliability_fill(float(self.reliability[node]), self.rmin, self.rmax)

    def legend(self, cut_depth: int | None, collapsed: bool = False) -> str:
        """The reliability scale (``∞`` last) and what θ̂ means; or the similarity legend."""
        if not self.by_reliability:
            return super().legend(cut_depth, collapsed)
        steps = len(RELIABILITY_PALETTE)
        swatches = [(fill, "∞" if k == steps - 1 else f"{self.rmin + k * (self.rmax - self.rmin) / (steps - 2):.2g}")
                    for k, fill in enumerate(RELIABILITY_PALETTE)]
        return legend_attrs("leaf colour: reliability (rel), θ̂ × the leaf's share of rows", swatches,
                            ["θ̂: the Mallows spread (∞: all agree); leaves: centre ranking",
                             *self.strip_notes()], cut_depth,
                            swatch_width=32, font_size=self.options.sizes.legend, collapsed=collapsed)


def _largest_finite(values: np.ndarray) -> float:
    """Top of the default reliability scale: the largest finite value (1 if none)."""
    finite = np.asarray(values, dtype=float)
    finite = finite[np.isfinite(finite)]
    return float(finite.max()) if len(finite) and finite.max() > 0 else 1.0
