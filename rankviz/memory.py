"""The memory budget of a fit: check an estimate before allocating, refuse with a located message.

Every estimator whose memory grows faster than its input works out what a
fit will need from the input's shape (statistics per row for a tree's
criterion, document pairs per query for MPBoost, the dense matrix of a sparse
file) and calls :func:`check_memory` first. The limit is one setting,
``rankviz.set_config(max_memory=...)``; by default a quarter of the memory the
process can have (:func:`rankviz.default_max_memory`).
"""

from __future__ import annotations

from .config import max_memory
from .exceptions import MemoryLimitError

__all__ = ["check_memory", "format_bytes", "max_memory"]


def check_memory(need: float, what: str, *, largest: str = "") -> None:
    """Raise :class:`~rankviz.exceptions.MemoryLimitError` if ``need`` bytes exceed the budget.

    Parameters
    ----------
    need : float
        The estimated peak of the fit, in bytes.
    what : str
        What needs it and what drives the need, as the start of a sentence:
        ``"criterion 'gini' keeps one indicator per label and rank level:
        5 rows of 10,000 labels"``.
    largest : str, default=""
        The largest input of the same kind that fits, e.g. ``"at most 3,000
        labels for 5 rows"``: the message ends with "expected <largest>".

    Raises
    ------
    MemoryLimitError
        If ``need`` exceeds ``max_memory`` (:func:`rankviz.get_config`).

    Examples
    --------
    >>> import rankviz
    >>> from rankviz.memory import check_memory
    >>> with rankviz.config_context(max_memory="1 MiB"):
    ...     try:
    ...         check_memory(3 * 2**20, "a test array of 3 MiB", largest="at most 1 MiB")
    ...     except rankviz.DataError as error:
    ...         print(error)
    a test array of 3 MiB needs about 3.0 MiB, over the memory limit of 1.0 MiB (rankviz.set_config(max_memory=...)); expected at most 1 MiB
    """
    limit = max_memory()
    if need > limit:
        text = (f"{what} needs about {format_bytes(need)}, over the memory limit of {format_bytes(limit)} "
                "(rankviz.set_config(max_memory=...))")
        raise MemoryLimitError(f"{text}; expected {largest}" if largest else text)


def format_bytes(size: float) -> str:
    """``"3.7 GiB"``, ``"512.0 MiB"``, ``"900 bytes"``."""
    for unit, scale in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if size >= scale:
            return f"{size / scale:,.1f} {unit}"
    return f"{size:,.0f} bytes"
