"""Utilities for users of rankviz: what is installed, for a bug report.

* :func:`show_versions` -- the versions of Python, rankviz, its dependencies
  and the optional parts (the app, the experiments, Graphviz), as
  :func:`sklearn.show_versions` prints them for scikit-learn.
"""

from .versions import show_versions

__all__ = ["show_versions"]
