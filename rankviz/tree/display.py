"""A fitted tree shows itself in a notebook; an unfitted one shows its parameters."""

from __future__ import annotations

from typing import Any

__all__ = ["TreeDisplayMixin"]


class TreeDisplayMixin:
    """Display for tree estimators: the explorable tree once fitted.

    Before ``fit`` the display is scikit-learn's (the parameter box); after,
    it is :func:`rankviz.viz.tree_view.display.tree_mimebundle`: the
    interactive view where notebook widgets run, the tree's SVG elsewhere.
    """

    @property
    def _repr_html_(self) -> Any:
        # IPython adds every _repr_*_ a class has to its mimebundle: once fitted
        # there is none, so front ends without widgets show the SVG, not the
        # parameter box (a property that raises AttributeError is skipped).
        if getattr(self, "tree_", None) is not None:
            raise AttributeError("a fitted tree displays as its view (_repr_mimebundle_)")
        return super()._repr_html_  # type: ignore[misc]

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        if getattr(self, "tree_", None) is None:
            return super()._repr_mimebundle_(**kwargs)  # type: ignore[misc]
        # Imported here: drawing is a layer above the estimators (viz imports tree).
        from ..viz.tree_view.display import tree_mimebundle
        return tree_mimebundle(self, **kwargs)
