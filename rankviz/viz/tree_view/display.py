"""How a fitted tree shows itself in a notebook: the explorable view, or its drawing."""

from __future__ import annotations

import sys
from typing import Any

from ..export import export_tree
from ..graphviz import RenderError

__all__ = ["tree_mimebundle"]


def _in_kernel() -> bool:
    """Whether this process is a Jupyter kernel (where a widget front end may run)."""
    shell = sys.modules.get("IPython") and sys.modules["IPython"].get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def tree_mimebundle(estimator: Any, **kwargs: Any) -> dict[str, Any]:
    """The display of a fitted tree: the widget where widgets run, its SVG everywhere.

    A front end with widgets (JupyterLab, Jupyter Notebook, VS Code, Colab)
    shows the :class:`~rankviz.viz.tree_view.TreeView`; the others (GitHub,
    nbconvert without widget state) fall back to the static SVG in the same
    bundle, then to the text.

    Parameters
    ----------
    estimator : fitted RankingTree or OrdinalTree
    **kwargs
        What IPython passes to ``_repr_mimebundle_`` (``include``, ``exclude``).

    Returns
    -------
    dict
        MIME type -> content.
    """
    bundle: dict[str, Any] = {"text/plain": repr(estimator)}
    try:
        bundle["image/svg+xml"] = export_tree(estimator, "svg").decode("utf-8")
    except RenderError:  # no layout engine: the widget and the text still show
        pass
    if _in_kernel():
        try:
            from .widget import TreeView
        except ImportError:  # anywidget not installed: the SVG is the display
            return bundle
        view = TreeView(estimator)._repr_mimebundle_(**kwargs)
        widget = view[0] if isinstance(view, tuple) else view
        bundle["application/vnd.jupyter.widget-view+json"] = widget["application/vnd.jupyter.widget-view+json"]
    return bundle
