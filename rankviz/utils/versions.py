"""What is installed: the facts a bug report needs (after :func:`sklearn.show_versions`).

Versions are read from the installed distributions' metadata, so nothing is
imported: no compiler starts, and Streamlit or Dask are not loaded for this.
"""

from __future__ import annotations

import os
import platform
import sys
from collections.abc import Mapping
from importlib import metadata

from ..jit import compile_mode
from ..numba_cache import cache_dir

#: The distributions ``pip install rankviz`` brings (pyproject's ``dependencies``).
CORE = ("numpy", "scipy", "pandas", "scikit-learn", "numba", "llvmlite", "charset-normalizer")
#: The extras: the app and image export (``[app]``), benchmark grids and reports
#: (``[experiments]``), and the reference LightGBM the tests compare NDCG with.
OPTIONAL = ("streamlit", "plotly", "graphviz-pure", "svglib", "reportlab", "dask", "distributed",
            "scikit-posthocs", "lightgbm", "pytest")


def _version(distribution: str) -> str | None:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def _system_info() -> dict[str, str]:
    return {
        "python": sys.version.replace("\n", " "),
        "executable": sys.executable,
        "machine": platform.platform(),
        "cpus": str(os.cpu_count()),
    }


def _rankviz_info() -> dict[str, str]:
    from .. import __version__  # here: rankviz/__init__ imports this module before defining it
    from ..viz.graphviz import available_engines

    return {
        "rankviz": __version__,
        "layout engines": ", ".join(available_engines()) or "none (install Graphviz or graphviz-pure)",
        "numba cache": str(cache_dir()),
        "compile mode": compile_mode(),
    }


def _dependency_info(names: tuple[str, ...]) -> dict[str, str | None]:
    return {name: _version(name) for name in names}


def show_versions() -> None:
    """Print the system, rankviz's settings and the versions of its dependencies.

    For bug reports: paste its output into the issue. Nothing is imported to
    find the versions (they come from the installed packages' metadata), so it
    is quick and works when a dependency is broken.

    See Also
    --------
    sklearn.show_versions : The same for scikit-learn.

    Examples
    --------
    >>> import rankviz
    >>> rankviz.show_versions()  # doctest: +SKIP
    <BLANKLINE>
    System:
        python: 3.11.7 (main, ...) [GCC 12.2.0]
    ...
    """
    sections: dict[str, Mapping[str, str | None]] = {
        "System": _system_info(),
        "rankviz": _rankviz_info(),
        "Python dependencies": _dependency_info(CORE),
        "Optional dependencies": _dependency_info(OPTIONAL),
    }
    for title, values in sections.items():
        print(f"\n{title}:")
        width = max(len(name) for name in values)
        for name, value in values.items():
            print(f"{name:>{width + 4}}: {value if value is not None else 'not installed'}")
