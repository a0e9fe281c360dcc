"""rankviz.set_config / get_config / config_context: the memory budget of a fit."""

import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import rankviz
from rankviz import RankingTree, config_context, default_max_memory, get_config, set_config
from rankviz.exceptions import MemoryLimitError


@pytest.fixture(autouse=True)
def restore():
    before = get_config()["max_memory"]
    yield
    set_config(max_memory="auto" if before is None else before)


@pytest.mark.parametrize("text, size", [("2 GiB", 2 * 2**30), ("512MB", 512 * 10**6), ("1_000", 1000),
                                        (" 1.5 kib ", 1536), (4096, 4096)])
def test_sizes_are_read_in_bytes_and_units(text, size):
    set_config(max_memory=text)
    assert get_config()["max_memory"] == size


@pytest.mark.parametrize("bad", ["2 parsecs", "lots", -5, 0, float("nan"), True, [1]])
def test_a_size_that_is_not_one_is_refused_by_name(bad):
    with pytest.raises(ValueError, match="max_memory"):
        set_config(max_memory=bad)


def test_auto_returns_to_the_default_and_the_context_is_per_thread():
    set_config(max_memory="auto")
    assert get_config()["max_memory"] is None and default_max_memory() > 0
    seen = {}
    with config_context(max_memory="1 MiB"):
        assert get_config()["max_memory"] == 2**20
        other = threading.Thread(target=lambda: seen.update(get_config()))
        other.start()
        other.join()
    assert seen["max_memory"] is None  # another thread keeps the process-wide value
    assert get_config()["max_memory"] is None


def test_a_fit_under_the_limit_grows_and_over_it_is_refused_before_allocating():
    rng = np.random.default_rng(0)
    X, Y = rng.random((40, 3)), np.argsort(rng.random((40, 30)), axis=1) + 1
    RankingTree(criterion="gini").fit(X, Y)
    need = 8 * 40 * (6 * 30 * 29 + 5 * 3)  # 6 x the statistics (labels x levels) and 5 x the features
    with config_context(max_memory=need):
        RankingTree(criterion="gini", max_depth=1).fit(X, Y)
    with config_context(max_memory=need - 1), pytest.raises(MemoryLimitError, match="over the memory limit"):
        RankingTree(criterion="gini").fit(X, Y)


def run(code, env_limit=None):
    env = {"RANKVIZ_MAX_MEMORY": env_limit} if env_limit else {}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **env}, check=True).stdout


def test_the_environment_sets_the_budget_at_import():
    assert run("import rankviz; print(rankviz.get_config()['max_memory'])", "3 GiB").strip() == str(3 * 2**30)


def test_the_default_respects_an_address_space_limit():
    """``ulimit -v 4G`` (as a test harness or a batch system sets it): the default is a share of what is left."""
    code = ("import resource; resource.setrlimit(resource.RLIMIT_AS, (4 * 2**30, 4 * 2**30)); "
            "import rankviz; print(rankviz.default_max_memory())")
    pytest.importorskip("resource")
    limited = int(run(code))
    assert 0 < limited < 0.25 * 4 * 2**30 + 1


def test_the_public_names():
    assert {"set_config", "get_config", "config_context", "default_max_memory", "MemoryLimitError"} <= set(rankviz.__all__)
