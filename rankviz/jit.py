"""When rankviz's compiled (Numba) code is built: on first use, and by default in the background.

``import rankviz`` does not import Numba. The compiled code lives in five
modules, :mod:`rankviz.tree.compiled.kernels` (the tree builder),
:mod:`rankviz.ltr.stump_sweep` (MPBoost's stump search),
:mod:`rankviz.label_ranking.bucket_kernels` (bucket orders),
:mod:`rankviz.datasets.svmlight_kernels` (the svmlight reader) and
:mod:`rankviz.neighbour_kernels` (the choice of nearest neighbours), each
described by a :class:`LazyKernels`, and is imported when a fit (or a
load) first needs it.

Compiling the tree builder takes tens of seconds of CPU; loading it from
Numba's on-disk cache (:mod:`rankviz.numba_cache`) a fraction of a second.
So a fit asks its :class:`LazyKernels` whether the compiled code can run
without the compiler (:meth:`LazyKernels.request`):

* yes, when it was built in this process, or an earlier process built it
  into the cache (a stamp file there says for which sources, Numba and
  Python);
* otherwise the fit runs with NumPy, which grows the same tree node for node
  (tests/test_compiled_growth.py; MPBoost: the same stumps, heights equal to
  rounding), and a daemon thread builds the compiled code; fits that start
  after it has finished use it (a fit keeps the engine it started with).

The compilation mode chooses (:func:`set_compile_mode`, or the environment
variable ``RANKVIZ_COMPILE`` at import):

``"background"`` (default)
    as above;
``"wait"``
    compiled code always, compiling in the fit that first needs it (the fit
    waits; benchmarks of the compiled engine use this);
``"never"``
    NumPy always; no fit imports Numba.

MPBoost's stump search works the same way (its NumPy search is
:mod:`rankviz.ltr.stump_numpy`; building the compiled one costs about 12 s
of CPU). ``rankviz warm-up`` fills the cache for both ahead of time.

The background thread holds Python's global interpreter lock for much of
its work (Numba's type inference and lowering are Python code), so it slows
other Python threads of the process while it runs, and its CPU time is the
process's. A process that exits meanwhile stops the build (daemon threads
end with the interpreter); Numba keeps the functions it finished in its
cache, and the next process's build starts again from those.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import threading
import time
import warnings
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from types import ModuleType

from . import numba_cache

__all__ = ["COMPILE_MODES", "ENV_VAR", "LazyKernels", "compile_mode", "kernel_sets", "set_compile_mode",
           "wait_for_compilation"]

#: The compilation modes; see the module's description.
COMPILE_MODES = ("background", "wait", "never")
#: The environment variable that sets the mode at import.
ENV_VAR = "RANKVIZ_COMPILE"

_mode = os.environ.get(ENV_VAR, "background")
if _mode not in COMPILE_MODES:
    warnings.warn(f"{ENV_VAR}={_mode!r} is not one of {', '.join(COMPILE_MODES)}; using 'background'",
                  RuntimeWarning, stacklevel=2)
    _mode = "background"

_registry: list[LazyKernels] = []


def compile_mode() -> str:
    """The compilation mode in effect: one of :data:`COMPILE_MODES`."""
    return _mode


def set_compile_mode(mode: str) -> str:
    """Choose when compiled code is built and used.

    Parameters
    ----------
    mode : {"background", "wait", "never"}
        See :mod:`rankviz.jit`.

    Returns
    -------
    str
        The mode before the call, to restore it.

    Raises
    ------
    ValueError
        If ``mode`` is not one of :data:`COMPILE_MODES`.
    """
    global _mode
    if mode not in COMPILE_MODES:
        raise ValueError(f"mode must be one of {', '.join(COMPILE_MODES)}, got {mode!r}")
    previous, _mode = _mode, mode
    return previous


def kernel_sets() -> list[LazyKernels]:
    """Every :class:`LazyKernels` defined so far (the library's five, once rankviz is imported)."""
    return list(_registry)


def wait_for_compilation(timeout: float | None = None) -> bool:
    """Wait for the background builds that are running; True when none is left running.

    Parameters
    ----------
    timeout : float or None, default=None
        Seconds to wait at most, over all builds; None waits until they end.
    """
    deadline = None if timeout is None else time.monotonic() + timeout
    for kernels in kernel_sets():
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        if not kernels.wait(left):
            return False
    return True


class LazyKernels:
    """A module of compiled code, imported on first use and built (compiled into the cache) once per user.

    Parameters
    ----------
    name : str
        What the code serves, for messages ("ranking trees").
    module : str
        The name of the module that holds the compiled functions (for its
        source file, which the cache stamp follows).
    load : callable
        Imports that module (and so Numba) and returns it. A function with a
        plain ``import`` statement rather than a module name looked up at run
        time: nothing here imports a module named by a string.
    warm_up : callable
        Calls every compiled function with every type of argument the library
        passes, so that all of them are compiled (or loaded from the cache)
        when it returns.
    """

    def __init__(self, name: str, module: str, load: Callable[[], ModuleType],
                 warm_up: Callable[[], object]) -> None:
        self.name = name
        self.module = module
        self._load = load
        self.warm_up = warm_up
        self._lock = threading.Lock()
        self._ready = False  # latched: once built or found in the cache, usable for the rest of the process
        self._built = False  # whether this process compiled it or loaded it from the cache (build)
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None
        self._error_reported = False
        self._module: ModuleType | None = None
        _registry.append(self)

    def load(self) -> ModuleType:
        """The compiled module, imported now (with Numba; functions compile when first called)."""
        if self._module is None:  # kept: every compiled fit asks, and the cache folder's lookup is 10 µs
            numba_cache.configure()  # before the module's `import numba`
            self._module = self._load()
        return self._module

    def build(self) -> float:
        """Compile every function (or load it from the cache) in this thread; returns the CPU seconds taken.

        Afterwards a stamp in the cache folder tells later processes that the
        cache holds this code.
        """
        start = time.process_time()
        self.load()
        self.warm_up()
        self._ready = self._built = True
        self._write_stamp()
        return time.process_time() - start

    def load_cached(self) -> bool:
        """Load the code from the cache into this process, once, when the cache holds it; whether it is loaded.

        Unlike :meth:`build` it never compiles: it warms a process (a Dask
        worker) so that its first fits pay no loading, and costs nothing
        the second time.
        """
        if not self._built and self.is_cached():
            self.build()
        return self._built

    def is_cached(self) -> bool:
        """Whether the cache folder's stamp says this code is there, for these sources, Numba and Python."""
        try:
            return self._stamp_path().read_text(encoding="utf-8") == self._stamp_key()
        except OSError:
            return False

    def ready(self) -> bool:
        """Whether the compiled code runs without compiling: built in this process, or cached.

        The cache is looked at until the answer is yes (a few milliseconds, more than a small fit takes),
        and not while a background build runs.
        """
        if not self._ready and self._thread is None and self.is_cached():
            self._ready = True
        return self._ready

    def request(self) -> bool:
        """Whether a fit should use the compiled code now (see :mod:`rankviz.jit` for the modes).

        In "background" mode, when the code is not :meth:`ready`, a daemon
        thread starts building it (once per process) and False is returned.
        """
        if _mode == "never":
            return False
        if _mode == "wait" or self.ready():
            return True
        with self._lock:
            if self._error is not None:
                self._report_error()
                return False
            if self._thread is None:
                self._thread = threading.Thread(target=self._build_in_background, daemon=True,
                                                name=f"rankviz: compiling {self.name}")
                self._thread.start()
        return False

    def building(self) -> bool:
        """Whether a background build is running."""
        thread = self._thread
        return thread is not None and thread.is_alive()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for a running background build; True when none is running (any more)."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
        return not self.building()

    def _build_in_background(self) -> None:
        try:
            self.build()
        except BaseException as error:  # noqa: BLE001 -- kept, and reported by the next request
            self._error = error

    def _report_error(self) -> None:
        if not self._error_reported:
            self._error_reported = True
            warnings.warn(f"compiling the code of {self.name} failed ({self._error!r}); fits use NumPy",
                          RuntimeWarning, stacklevel=3)

    def _after_fork(self) -> None:
        # A forked child has no build thread (only the forking thread survives a fork).
        self._lock = threading.Lock()
        if self._thread is not None and not self._ready:
            self._thread = None

    def _source(self) -> Path:
        spec = importlib.util.find_spec(self.module)
        if spec is None or spec.origin is None:
            raise OSError(f"no source for {self.module}")
        return Path(spec.origin)

    def _stamp_path(self) -> Path:
        return numba_cache.configure() / f"rankviz-{self.module}.built"

    def _stamp_key(self) -> str:
        """What the cached code depends on: the source file as Numba's cache index sees it (modification
        time and size), Numba's version and the Python that compiled it."""
        source = self._source().stat()
        return (f"{self.module} {source.st_mtime_ns} {source.st_size} numba {_numba_version()} "
                f"python {sys.version.split()[0]} {sys.implementation.cache_tag}\n")

    def _write_stamp(self) -> None:
        path = self._stamp_path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary = path.with_suffix(f".{os.getpid()}.tmp")
            temporary.write_text(self._stamp_key(), encoding="utf-8")
            temporary.replace(path)  # atomic: a reader sees the old stamp or the new one
        except OSError:
            pass  # a read-only cache folder: later processes build again, as they would compile again


@lru_cache(maxsize=1)
def _numba_version() -> str:
    """Numba's version, from its metadata: without importing it."""
    from importlib.metadata import version

    return version("numba")


def _reset_after_fork() -> None:
    for kernels in _registry:
        kernels._after_fork()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_reset_after_fork)
