"""Worker processes never outlive their driver (issue 35 §2).

A driver running cells in local processes (joblib's loky) is killed with
SIGKILL while its workers are busy; loky keeps workers for reuse and they
once lived on for minutes holding their memory. Each worker now ends itself
once its parent is no longer the driver.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and reparenting")

DRIVER = """
import os, sys, time
from pathlib import Path
from rankviz.experiments.grid.execution import run_tasks

def busy(folder):
    Path(folder, str(os.getpid())).touch()  # a worker says it started
    time.sleep(120)

for _ in run_tasks(busy, [sys.argv[1]] * 4, backend="processes", n_jobs=2):
    pass
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_workers_end_when_their_driver_is_killed(tmp_path: Path):
    script = tmp_path / "driver.py"
    script.write_text(DRIVER)
    (tmp_path / "started").mkdir()
    driver = subprocess.Popen([sys.executable, str(script), str(tmp_path / "started")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while len(list((tmp_path / "started").iterdir())) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    workers = [int(p.name) for p in (tmp_path / "started").iterdir()]
    assert len(workers) == 2 and all(alive(pid) for pid in workers)
    driver.send_signal(signal.SIGKILL)
    driver.wait()
    deadline = time.monotonic() + 20  # the watch looks once a second
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [pid for pid in workers if alive(pid)]
    for pid in left:  # do not leave them behind if the test fails
        os.kill(pid, signal.SIGKILL)
    assert not left, f"workers {left} outlived their driver"
