"""Long computations on a page: a progress bar with the time left, and a Stop button.

Every computation that can take more than about a second goes through here,
in one of three ways, by what the computation offers:

* :class:`StopBar` alone: the page runs the work itself, piece by piece,
  stores each finished piece in ``st.session_state`` and then moves the bar.
  Pressing **Stop** (or any widget) makes Streamlit rerun the script, and it
  interrupts this run at its next call, the bar's update: what was stored
  stays. The Monte Carlo panels and the MPBoost growth work this way.
* :func:`run_jobs`: the same for a list of jobs, e.g. one cross-validation
  per method: a job that fails is noted and the others go on.
* :func:`background`: a library call that reports no progress (growing a
  tree) or reports it seldom runs in a worker thread while the page polls it
  and keeps the bar and Stop alive. Stop then answers at once. Work that takes
  a ``progress`` callback is cancelled at its next call of it; work that takes
  none runs to its end in the background and its result is kept, so coming
  back to the same settings shows it without starting over.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

import streamlit as st
from streamlit.runtime import Runtime
from streamlit.runtime.scriptrunner import get_script_run_ctx

__all__ = ["Cancelled", "StopBar", "abandon", "background", "error_text", "format_duration", "run_jobs", "short_hash",
           "take_stopped"]

#: How long :func:`background` waits for a result before it shows a progress bar.
QUICK_SECONDS = 0.4
#: How often the page polls a background job.
POLL_SECONDS = 0.2
#: Finished background jobs kept for reuse (the newest), per process.
KEPT_JOBS = 32

T = TypeVar("T")
#: ``progress(share, text)`` of a background job: ``share`` in 0..1, or None when unknown.
Progress = Callable[..., None]
#: A job of :func:`run_jobs`: ``(method, label, weight, run)``, ``run(progress)`` with
#: ``progress(done, total)``.
Job = tuple[str, str, float, Callable[[Callable[[int, int], None]], None]]


def format_duration(seconds: float) -> str:
    """A rough duration for estimates and time-left notes: '4.2 s', '35 s', '12 min', '1.5 h'."""
    if seconds < 10:
        return f"{seconds:.1f} s"
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def short_hash(value: object) -> str:
    """A short stable digest of ``repr(value)``, for widget keys derived from a signature."""
    return hashlib.sha1(repr(value).encode()).hexdigest()[:10]


class Cancelled(Exception):
    """Raised inside a background job's ``progress`` call once Stop was pressed."""


def _note_stop(key: str, on_stop: Callable[[], None] | None) -> None:
    st.session_state[f"{key}_stopped"] = True
    if on_stop is not None:
        on_stop()


def take_stopped(key: str) -> bool:
    """True once after the Stop button of ``key`` was pressed (the flag is cleared)."""
    return bool(st.session_state.pop(f"{key}_stopped", False))


class StopBar:
    """A progress bar with elapsed time, an estimate of the time left and a Stop button.

    Parameters
    ----------
    key : str
        The button is ``f"{key}_stop"``; pressing it sets the flag that
        :func:`take_stopped` reads.
    help : str
        The button's tooltip: what Stop keeps.
    text : str, default="Starting…"
        The bar's text until the first :meth:`update`.
    on_stop : callable, optional
        Called (without arguments) when Stop is pressed, before the rerun.
    """

    def __init__(self, key: str, *, help: str = "Stops the computation.", text: str = "Starting…",
                 on_stop: Callable[[], None] | None = None) -> None:
        self.bar = st.progress(0.0, text=text)
        self.slot = st.empty()
        self.slot.button("Stop", key=f"{key}_stop", icon=":material/stop:", help=help,
                         on_click=_note_stop, args=(key, on_stop))
        self.start = time.perf_counter()

    @property
    def elapsed(self) -> float:
        """Seconds since the bar was shown."""
        return time.perf_counter() - self.start

    def update(self, share: float | None, text: str, left: float | None = None) -> None:
        """Move the bar to ``share`` (0..1) with ``text``, the elapsed time and the time left.

        ``share=None`` means the work cannot tell how far it is: the bar then
        creeps on with the elapsed time and the text says so. ``left`` (seconds)
        is the caller's estimate of the time left; by default the elapsed time
        is extrapolated by ``share``.
        """
        elapsed = self.elapsed
        if share is None:
            self.bar.progress(min(0.95, elapsed / (elapsed + 10.0)),
                              text=f"{text} · {elapsed:.1f} s (no estimate of the time left)")
            return
        share = min(1.0, max(0.0, float(share)))
        if left is None:
            left = elapsed * (1 - share) / share if share > 0 else None
        note = f", about {format_duration(left)} left" if left is not None and share < 1 else ""
        self.bar.progress(share, text=f"{text} · {elapsed:.1f} s{note}")

    def close(self) -> None:
        """Remove the bar and the Stop button."""
        # Not needed in a `finally`: when Stop interrupts the run, Streamlit
        # raises from the bar's update and the rerun redraws the page anyway.
        self.bar.empty()
        self.slot.empty()


def _extrapolated(spent: float, in_job: float, done: int, steps: int, before: float, weight: float,
                  later: float) -> float | None:
    """What is left of a run of jobs, extrapolated from what was spent (any unit; the bar passes seconds).

    The current job's remaining steps at its own rate (``in_job`` for ``done`` of ``steps``), the later
    jobs' ``later`` weight at the rate per unit of weight of the jobs finished (``spent - in_job`` for weight
    ``before``), else of the current job. The weights are guesses: on 1,484 leave-one-out folds of yeast KNN
    took six times the tree, where its weight said a third, and the bar's share alone promised 7 s of 118.
    """
    if done <= 0:
        return None
    job_left = in_job * (steps - done) / done
    rate = (spent - in_job) / before if before > 0 else in_job * steps / done / max(weight, 1e-9)
    return job_left + later * rate


def error_text(error: BaseException) -> str:
    """An error as one line for the page: a ValueError's message, else its type and message."""
    text = str(error) or type(error).__name__
    return text if isinstance(error, ValueError) else f"{type(error).__name__}: {text}"


def run_jobs(jobs: Sequence[Job], result: dict[str, Any], key: str, *,
             help: str = "Stops after the current fold; the finished methods stay.") -> None:
    """Run ``jobs`` one after the other with one progress bar, a time estimate and a Stop button.

    ``jobs`` are ``(method, label, weight, run)``: ``run(progress)`` computes a
    piece, stores it in ``result`` itself and calls ``progress(done, total)``
    after each of its steps (folds); ``weight`` (its estimated seconds)
    apportions the bar, so the time left is not thrown off by one slow method.
    A job that raises is noted in ``result["errors"][method]`` (the later jobs
    of that method are skipped). ``result["complete"]`` turns True at the end
    and ``result["seconds"]`` holds the time spent. Stop interrupts at the
    next progress update: what was stored stays.
    """
    bar = StopBar(key, help=help)
    total = sum(weight for _, _, weight, _ in jobs) or 1.0
    finished = 0.0
    for number, (method, label, weight, run) in enumerate(jobs):
        if method in result["errors"]:
            finished += weight
            continue
        later = sum(w for m, _, w, _ in jobs[number + 1:] if m not in result["errors"])
        started = time.perf_counter()

        def progress(done: int, steps: int, base: float = finished, weight: float = weight, label: str = label,
                     later: float = later, started: float = started) -> None:
            bar.update((base + weight * done / steps) / total, f"{label} · fold {done} of {steps}",
                       left=_extrapolated(bar.elapsed, time.perf_counter() - started, done, steps, base, weight, later))

        try:
            run(progress)
        except Exception as error:  # noqa: BLE001 — shown as a message, the other methods go on
            result["errors"][method] = error_text(error)
        finished += weight
        result["seconds"] = bar.elapsed
    result["complete"] = True
    bar.close()


# -- work in a worker thread ------------------------------------------------------

def _session_id() -> str | None:
    """The id of the browser session running this script, or None outside a served app (AppTest)."""
    ctx = get_script_run_ctx()
    return ctx.session_id if ctx is not None and Runtime.exists() else None


def _session_alive(session_id: str) -> bool:
    """Whether the browser session ``session_id`` is still connected."""
    return Runtime.exists() and Runtime.instance().is_active_session(session_id)


class _Job:
    """``compute(progress)`` running in a daemon thread; ``progress(share, text)`` is polled.

    ``owners`` are the sessions that asked for the value. A cancellable job
    stops at its next ``progress`` call once none of them is connected: a
    closed tab must not leave the server computing for minutes.
    """

    def __init__(self, compute: Callable[[Progress], Any], cancellable: bool = True) -> None:
        self.share: float | None = None
        self.text = ""
        self.cancelled = False
        self.cancellable = cancellable
        self.owners: set[str] = set()
        self.start = time.perf_counter()
        self.value: Any = None
        self.error: BaseException | None = None
        self.done = threading.Event()
        threading.Thread(target=self._run, args=(compute,), daemon=True,
                         name="rankviz-background").start()

    def _run(self, compute: Callable[[Progress], Any]) -> None:
        try:
            self.value = compute(self.progress)
        except BaseException as error:  # noqa: BLE001 — handed to the page that waits
            self.error = error
        finally:
            self.done.set()

    def progress(self, share: float | None, text: str = "") -> None:
        if self.cancellable and self.owners and not any(_session_alive(o) for o in tuple(self.owners)):
            self.cancelled = True
        if self.cancelled:
            raise Cancelled()
        self.share, self.text = share, text


class _Registry:
    """Background jobs by signature, shared by every session of the process."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.jobs: OrderedDict[Hashable, _Job] = OrderedDict()

    def job(self, signature: Hashable, compute: Callable[[Progress], Any], cancellable: bool = True) -> _Job:
        with self.lock:
            job = self.jobs.get(signature)
            if job is None or job.cancelled:
                job = self.jobs[signature] = _Job(compute, cancellable)
            self.jobs.move_to_end(signature)
            finished = [s for s, j in self.jobs.items() if j.done.is_set()]
            for old in finished[:max(0, len(finished) - KEPT_JOBS)]:
                del self.jobs[old]
            return job

    def peek(self, signature: Hashable) -> _Job | None:
        with self.lock:
            return self.jobs.get(signature)

    def forget(self, signature: Hashable, job: _Job) -> None:
        with self.lock:
            if self.jobs.get(signature) is job:
                del self.jobs[signature]


@st.cache_resource(show_spinner=False)
def _registry() -> _Registry:
    return _Registry()


def _stop_job(key: str, signature: Hashable, job: _Job, cancel: bool) -> None:
    st.session_state[f"{key}_stopped_job"] = signature
    if cancel:
        job.cancelled = True
        _registry().forget(signature, job)


def _resume(key: str) -> None:
    st.session_state.pop(f"{key}_stopped_job", None)


def _own(key: str, signature: Hashable, job: _Job) -> None:
    """Note that this session waits for ``job`` under ``key``, and gives up the job it waited for before."""
    abandon(key, unless=signature)
    session = _session_id()
    if session is not None:
        job.owners.add(session)
    st.session_state[f"{key}_owned"] = (signature, job)


def abandon(key: str, unless: Hashable | None = None) -> None:
    """This session no longer wants the background job it started under ``key`` (unless it is for ``unless``).

    A page calls this when the inputs of a job it started have changed: a
    cancellable job that no other connected session waits for stops at its
    next progress report.
    """
    owned = st.session_state.get(f"{key}_owned")
    if owned is None or owned[0] == unless:
        return
    del st.session_state[f"{key}_owned"]
    _, job = owned
    job.owners.discard(_session_id() or "")
    if job.cancellable and not job.done.is_set() and not job.owners:
        job.cancelled = True


def background(compute: Callable[[Progress], T], *, key: str, signature: Hashable, label: str,
               cancel: bool = True, keep: bool = True, restart: bool = False,
               stopped_text: str = "", resume_button: bool = True) -> T | None:
    """Run ``compute(progress)`` in a worker thread; show progress and Stop while it runs.

    Parameters
    ----------
    compute : callable
        ``compute(progress)`` returns the value; it may call
        ``progress(share, text)`` (``share`` in 0..1, or None when unknown).
    key : str
        Prefix of the widget and session-state keys.
    signature : hashable
        What the value depends on: a running or kept job of the same
        signature (from any session) is reused instead of starting another.
    label : str
        What is being computed, for the bar and the stop note.
    cancel : bool, default=True
        Stop cancels the job at its next ``progress`` call. False: Stop only
        stops waiting; the job runs on and its value is kept (for work that
        reports no progress, e.g. growing a tree).
    keep : bool, default=True
        Keep the finished job for reuse (a cache of :data:`KEPT_JOBS`); False
        for values the page stores itself.
    restart : bool, default=False
        Forget an earlier Stop of this signature (for runs started by a button).
    stopped_text : str
        Advice after the stop note, e.g. what makes the computation quicker.
    resume_button : bool, default=True
        Show a **Continue** / **Start again** button under the stop note;
        False when the page has its own (e.g. "Continue the benchmark").

    Returns
    -------
    object or None
        The value, or None when the user stopped the job: until the
        signature changes, later runs show a note and a **Continue** (or
        **Start again**) button instead. An exception of ``compute`` is raised.

    Notes
    -----
    The job needs no Streamlit: it must not call ``st`` functions.
    """
    state = st.session_state
    registry = _registry()
    if restart:
        _resume(key)
    if state.get(f"{key}_stopped_job") == signature:
        job = registry.peek(signature)
        if job is None or not job.done.is_set():
            state.pop(f"{key}_stopped", None)
            st.warning(f"Stopped: {label}. {stopped_text}".strip(), icon=":material/pause_circle:")
            if resume_button:
                st.button("Start again" if cancel else "Continue", key=f"{key}_resume",
                          icon=":material/play_arrow:", on_click=_resume, args=(key,),
                          help="Compute it after all." if cancel else
                               "Wait for it again: it went on in the background.")
            return None
        _resume(key)  # it finished in the background meanwhile
    else:
        job = registry.job(signature, compute, cancellable=cancel)
        _own(key, signature, job)
        if not job.done.wait(QUICK_SECONDS):
            bar = StopBar(key, text=label, on_stop=lambda: _stop_job(key, signature, job, cancel),
                          help="Stops waiting" + (" and cancels the computation." if cancel else
                                                  "; the computation goes on in the background and "
                                                  "is kept for these settings."))
            bar.start = job.start
            while not job.done.wait(POLL_SECONDS):
                bar.update(job.share, f"{label} · {job.text}" if job.text else label)
            bar.close()
    if not keep or (job.error is not None and not isinstance(job.error, ValueError)):
        registry.forget(signature, job)
    if isinstance(job.error, Cancelled):
        return None
    if job.error is not None:
        raise job.error
    return job.value
