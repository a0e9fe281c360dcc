"""Settings of rankviz, in the manner of :func:`sklearn.set_config`: the memory budget of a fit.

One setting for now: ``max_memory``, the memory budget of a fit. Every
estimator works out from its inputs what a fit will need before it allocates
(:func:`rankviz.memory.check_memory`) and refuses larger inputs with
:class:`rankviz.exceptions.MemoryLimitError`, which names the limit, what
drives the need and the largest input that fits.

The settings are process-wide (:func:`set_config`); :func:`config_context`
overrides them for the current thread only, so that one thread (one app
session, say) can work under a smaller budget than the others.
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["config_context", "default_max_memory", "get_config", "set_config"]

#: The share of the memory this process may use (the machine's, a container's
#: or an address-space limit, the smallest) that one fit may take by default.
DEFAULT_MEMORY_SHARE = 0.25

_global_config: dict[str, Any] = {"max_memory": None}
_local = threading.local()


def get_config() -> dict[str, Any]:
    """Return the current settings (the thread's overrides over the process-wide values).

    The values :func:`set_config` set for the process, with those of any
    :func:`config_context` open in this thread over them.

    Returns
    -------
    dict
        ``max_memory``: the memory budget of a fit in bytes, or ``None`` for
        :func:`default_max_memory`.

    See Also
    --------
    set_config : Change the settings for the process.
    config_context : Change them within a ``with`` block.

    Examples
    --------
    >>> import rankviz
    >>> sorted(rankviz.get_config())
    ['max_memory']
    """
    return {**_global_config, **getattr(_local, "overrides", {})}


def set_config(max_memory: int | str | None = None) -> None:
    """Set rankviz's settings for the whole process.

    Every thread sees them, unless a :func:`config_context` of its own
    overrides them; the app's sessions run in threads, so a limit set here
    applies to all of them.

    Parameters
    ----------
    max_memory : int, str or None, default=None
        The memory one fit may need, in bytes or as text (``"2 GiB"``,
        ``"512 MB"``). ``None`` leaves the setting as it is; ``"auto"``
        returns to :func:`default_max_memory`.

    Raises
    ------
    ValueError
        If ``max_memory`` is not a positive size.

    See Also
    --------
    get_config : The current settings.
    config_context : Change them within a ``with`` block.

    Examples
    --------
    >>> import rankviz
    >>> rankviz.set_config(max_memory="2 GiB")
    >>> rankviz.get_config()["max_memory"]
    2147483648
    >>> rankviz.set_config(max_memory="auto")
    """
    if max_memory is not None:
        _global_config["max_memory"] = _parse_size(max_memory)


@contextmanager
def config_context(*, max_memory: int | str | None = None) -> Iterator[None]:
    """Change rankviz's settings within a ``with`` block, for the current thread.

    Other threads keep their settings; the old values come back when the
    block ends, also when it ends with an exception.

    Parameters
    ----------
    max_memory : int, str or None, default=None
        As for :func:`set_config`; ``None`` keeps the current value.

    Yields
    ------
    None

    See Also
    --------
    get_config : The current settings.
    set_config : Change them for the process.

    Examples
    --------
    >>> import rankviz
    >>> with rankviz.config_context(max_memory="100 MB"):
    ...     rankviz.get_config()["max_memory"]
    100000000
    """
    before = dict(getattr(_local, "overrides", {}))
    changes = {} if max_memory is None else {"max_memory": _parse_size(max_memory)}
    _local.overrides = {**before, **changes}
    try:
        yield
    finally:
        _local.overrides = before


def max_memory() -> int:
    """The memory budget of one fit now, in bytes (the setting, else :func:`default_max_memory`)."""
    value = get_config()["max_memory"]
    return default_max_memory() if value is None else int(value)


def default_max_memory() -> int:
    """:data:`DEFAULT_MEMORY_SHARE` of the memory this process can have, in bytes.

    The smallest of the machine's physical memory, the container's limit
    (cgroup ``memory.max``) and what address-space and data-segment limits
    (``ulimit -v``, ``ulimit -d``) leave above what the process uses now.

    Returns
    -------
    int
        Bytes.

    See Also
    --------
    set_config : Set another budget.

    Examples
    --------
    >>> import rankviz
    >>> rankviz.default_max_memory() > 0
    True
    """
    room = [_physical_memory()]
    cgroup = _cgroup_limit()
    if cgroup is not None:
        room.append(cgroup)
    try:
        import resource
    except ImportError:  # Windows: no rlimits
        pass
    else:
        limits = [resource.RLIMIT_AS, getattr(resource, "RLIMIT_DATA", None)]
        soft = [None if limit is None else resource.getrlimit(limit)[0] for limit in limits]
        if any(value not in (None, resource.RLIM_INFINITY) for value in soft):  # read /proc only under a limit
            for value, used in zip(soft, _process_memory()):  # virtual size for RLIMIT_AS, resident for DATA
                if value not in (None, resource.RLIM_INFINITY):
                    room.append(max(value - used, 0))
    return int(DEFAULT_MEMORY_SHARE * min(room))


#: Assumed when the operating system does not say how much memory there is.
FALLBACK_MEMORY = 8 * 2**30


# The machine's memory and the container's limit are read once per process: every fit checks its
# memory against the budget, and on a 150-row tree the two reads took 6 % of the fit.
@functools.lru_cache(maxsize=1)
def _physical_memory() -> int:
    """The machine's memory in bytes (POSIX ``sysconf``; Windows ``GlobalMemoryStatusEx``)."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):
        pass
    try:
        import ctypes

        class Status(ctypes.Structure):
            _fields_ = [("length", ctypes.c_ulong), ("load", ctypes.c_ulong), ("total", ctypes.c_ulonglong),
                        ("available", ctypes.c_ulonglong), ("page_total", ctypes.c_ulonglong),
                        ("page_available", ctypes.c_ulonglong), ("virtual_total", ctypes.c_ulonglong),
                        ("virtual_available", ctypes.c_ulonglong), ("extended", ctypes.c_ulonglong)]

        status = Status()
        status.length = ctypes.sizeof(Status)
        if ctypes.windll.kernel32.GlobalMemoryStatusEx(ctypes.byref(status)):  # type: ignore[attr-defined]
            return int(status.total)
    except (AttributeError, OSError):
        pass
    return FALLBACK_MEMORY


def _process_memory() -> tuple[int, int]:
    """This process's virtual size and resident memory in bytes (Linux ``/proc``; else 0, 0)."""
    try:
        with open("/proc/self/statm") as file:
            size, resident = (int(field) for field in file.read().split()[:2])
    except (OSError, ValueError):
        return 0, 0
    page = os.sysconf("SC_PAGE_SIZE")
    return size * page, resident * page


@functools.lru_cache(maxsize=1)
def _cgroup_limit() -> int | None:
    """A container's memory limit (cgroup v2 ``memory.max``, or v1), if any."""
    for path in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            with open(path) as file:
                text = file.read().strip()
        except OSError:
            continue
        if text.isdigit() and int(text) < 2**60:  # v1 writes a huge number for "no limit"
            return int(text)
    return None


_UNITS = {"": 1, "b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
          "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40}


def _parse_size(value: int | str) -> int | None:
    """Bytes from ``value`` (a number, or text such as ``"2 GiB"``); ``None`` for ``"auto"``."""
    if isinstance(value, str):
        text = value.strip().lower().replace("_", "").replace(",", "")
        if text == "auto":
            return None
        number = text.rstrip("abcdefghijklmnopqrstuvwxyz").strip()
        unit = text[len(number):].strip()
        if unit not in _UNITS:
            raise ValueError(f"max_memory={value!r}: unknown unit {unit!r}; expected bytes or one of "
                             "kB, MB, GB, TB, KiB, MiB, GiB, TiB (e.g. '2 GiB')")
        try:
            size = float(number) * _UNITS[unit]
        except ValueError:
            raise ValueError(f"max_memory={value!r} is not a size; expected e.g. 2_000_000_000 or '2 GiB'") from None
    elif isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"max_memory={value!r} is not a size; expected e.g. 2_000_000_000 or '2 GiB'")
    else:
        size = float(value)
    if not size > 0 or size != size or size == float("inf"):
        raise ValueError(f"max_memory={value!r}: expected a positive, finite size")
    return int(size)


# The app and a test suite may set the budget before importing rankviz.
if os.environ.get("RANKVIZ_MAX_MEMORY"):
    set_config(max_memory=os.environ["RANKVIZ_MAX_MEMORY"])
