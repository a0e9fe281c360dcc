"""Utilities for users of rankviz: bug reports, and building and testing rankers of one's own.

* :func:`show_versions` -- the versions of Python, rankviz, its dependencies
  and the optional parts (the app, the experiments, Graphviz), as
  :func:`sklearn.show_versions` prints them for scikit-learn.
* :func:`check_rankings` -- the check every label ranker makes of its rank
  matrix ``Y``: any tie convention and missing labels in, average positions out.
* :mod:`rankviz.utils.estimator_checks` -- scikit-learn's estimator checks
  for label rankers and query rankers (imported on its own: it loads
  scikit-learn's checks).
"""

from .._validation import check_rankings
from .versions import show_versions

__all__ = ["check_rankings", "show_versions"]
