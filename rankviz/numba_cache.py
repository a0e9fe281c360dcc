"""Where Numba keeps rankviz's compiled code: a per-user cache folder, not the installed package.

Numba's on-disk cache (``cache=True``) is written, by default, to a
``__pycache__`` folder beside the module's source. In a read-only
site-packages (a system Python, a container image, a shared environment)
that fails silently, and every new process compiles again. Numba reads the
environment variable ``NUMBA_CACHE_DIR`` when it is imported (and again
before each compilation) and, when set, caches there instead [1]_.

:func:`configure` sets that variable, before rankviz's compiled modules
import Numba, to :func:`default_cache_dir` (the XDG base directory
convention [2]_: ``$XDG_CACHE_HOME/rankviz/numba``, by default
``~/.cache/rankviz/numba``). A ``NUMBA_CACHE_DIR`` the user has set is left
as it is. The variable is set in the process environment, so Numba code
compiled later in the same process, and child processes, cache there too.

References
----------
.. [1] Numba documentation, "Environment variables: NUMBA_CACHE_DIR",
       https://numba.readthedocs.io/en/stable/reference/envvars.html
.. [2] XDG Base Directory Specification, freedesktop.org,
       https://specifications.freedesktop.org/basedir-spec/latest/
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

__all__ = ["ENV_VAR", "cache_dir", "configure", "default_cache_dir"]

#: The variable Numba reads its cache folder from.
ENV_VAR = "NUMBA_CACHE_DIR"


def default_cache_dir() -> Path:
    """rankviz's per-user cache folder for compiled code: ``$XDG_CACHE_HOME/rankviz/numba``.

    ``XDG_CACHE_HOME`` defaults to ``~/.cache`` when unset or empty, or when
    it is not an absolute path (the specification says to ignore it then).
    Without a home directory, ``<temporary folder>/rankviz-<user id>/numba``.

    Returns
    -------
    Path
        The folder (not created here; Numba creates it when it first writes).
    """
    base = os.environ.get("XDG_CACHE_HOME", "")
    if base and os.path.isabs(base):
        return Path(base) / "rankviz" / "numba"
    try:
        home = Path.home()
    except RuntimeError:  # no home directory (a service account without HOME): a per-user temporary folder
        owner = os.getuid() if hasattr(os, "getuid") else "user"
        return Path(tempfile.gettempdir()) / f"rankviz-{owner}" / "numba"
    return home / ".cache" / "rankviz" / "numba"


def cache_dir() -> Path:
    """The folder Numba caches compiled code in: ``$NUMBA_CACHE_DIR`` if set, else :func:`default_cache_dir`."""
    chosen = os.environ.get(ENV_VAR)
    return Path(chosen) if chosen else default_cache_dir()


def configure() -> Path:
    """Point Numba's cache at :func:`cache_dir`, unless the user chose a folder; call before importing Numba.

    If Numba was imported already (by the user), its configuration is read
    again, so that functions decorated from now on cache in the folder (Numba
    picks a function's cache folder when it is decorated).

    Returns
    -------
    Path
        The cache folder in effect.
    """
    if not os.environ.get(ENV_VAR):
        os.environ[ENV_VAR] = str(default_cache_dir())
        if "numba" in sys.modules:
            from numba.core import config

            config.reload_config()
    return cache_dir()
