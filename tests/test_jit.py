"""No compiler wait for a library user: Numba is imported on first use, caches per user, builds in the background.

* ``import rankviz`` (and its estimators' modules) does not import Numba.
* Numba's cache goes to ``$XDG_CACHE_HOME/rankviz/numba`` (``~/.cache`` by
  default), or to ``NUMBA_CACHE_DIR`` when the user set it.
* :class:`rankviz.jit.LazyKernels`: a request for code that is not built
  starts one background build and answers "not now"; afterwards the code is
  ready, in this process and, by the stamp in the cache, in later ones,
  until its source changes. The compilation modes decide the engine.
* ``rankviz warm-up`` builds everything and says where the cache is.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import rankviz
from rankviz import cli, jit, numba_cache
from rankviz.tree import compiled
from rankviz.tree.builder import use_compiled
from rankviz.tree.criteria import Criterion, get_criterion


def run_python(code: str, cwd: Path, **env: str) -> str:
    """Run ``code`` in a fresh interpreter with the environment changed by ``env`` (an empty value unsets)."""
    environment = {key: value for key, value in os.environ.items() if key not in env}
    environment.update({key: value for key, value in env.items() if value})
    done = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=environment, capture_output=True,
                          text=True, check=True)
    return done.stdout


# --------------------------------------------------------------------------- #
# import
# --------------------------------------------------------------------------- #
def test_import_rankviz_does_not_import_numba(tmp_path):
    code = ("import sys, rankviz, rankviz.tree, rankviz.ltr, rankviz.label_ranking, rankviz.ordinal, "
            "rankviz.tree.ranking_tree, rankviz.tree.ordinal_tree, rankviz.tree.builder, rankviz.tree.mallows_nodes, "
            "rankviz.tree.compiled, rankviz.ltr.mpboost, rankviz.ltr.stump_search, rankviz.label_ranking.iblr, "
            "rankviz.jit, rankviz.cli; "
            "print(sorted(m for m in ('numba', 'llvmlite') if m in sys.modules))")
    assert run_python(code, tmp_path).strip() == "[]"


def test_a_numpy_fit_does_not_import_numba(tmp_path):
    code = ("import sys, numpy as np, rankviz; rankviz.jit.set_compile_mode('never'); "
            "X = np.arange(12.0)[:, None]; Y = np.tile([[1.0, 2.0, 3.0]], (12, 1)); Y[6:] = Y[6:, ::-1]; "
            "tree = rankviz.RankingTree(criterion='mallows').fit(X, Y); "
            "print(tree.tree_.node_count, 'numba' in sys.modules)")
    assert run_python(code, tmp_path).split() == ["3", "False"]


# --------------------------------------------------------------------------- #
# where Numba caches
# --------------------------------------------------------------------------- #
# One small compiled function called: Numba writes its index (.nbi) and code (.nbc) to the cache folder.
SMALL_COMPILED_CALL = textwrap.dedent("""
    import numpy as np
    from rankviz.tree import compiled
    import numba
    sums = compiled.node_sums(np.zeros(3, dtype=np.intp), np.ones((3, 2)), np.array([-1]), np.array([-1]))
    print(numba.config.CACHE_DIR)
    print(sums.tolist())
""")


def cache_files(folder: Path) -> list[str]:
    return sorted(path.suffix for path in folder.rglob("*") if path.suffix in (".nbi", ".nbc"))


def test_numba_caches_in_the_xdg_cache_folder(tmp_path):
    xdg = tmp_path / "xdg"
    out = run_python(SMALL_COMPILED_CALL, tmp_path, XDG_CACHE_HOME=str(xdg), NUMBA_CACHE_DIR="").splitlines()
    folder = xdg / "rankviz" / "numba"
    assert out == [str(folder), "[[3.0, 3.0]]"]
    assert ".nbi" in cache_files(folder) and ".nbc" in cache_files(folder)


def test_the_users_numba_cache_dir_wins(tmp_path):
    xdg, own = tmp_path / "xdg", tmp_path / "own"
    out = run_python(SMALL_COMPILED_CALL, tmp_path, XDG_CACHE_HOME=str(xdg), NUMBA_CACHE_DIR=str(own)).splitlines()
    assert out[0] == str(own)
    assert ".nbi" in cache_files(own) and ".nbc" in cache_files(own)
    assert not xdg.exists()


def test_default_cache_dir_follows_the_xdg_convention(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert numba_cache.default_cache_dir() == tmp_path / "rankviz" / "numba"
    for ignored in ("", "relative/path"):  # unset, or not absolute: ~/.cache (the specification)
        monkeypatch.setenv("XDG_CACHE_HOME", ignored)
        assert numba_cache.default_cache_dir() == Path.home() / ".cache" / "rankviz" / "numba"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    assert numba_cache.configure() == tmp_path / "mine"
    assert os.environ["NUMBA_CACHE_DIR"] == str(tmp_path / "mine")


# --------------------------------------------------------------------------- #
# LazyKernels: request, background build, stamp
# --------------------------------------------------------------------------- #
FAKE_KERNELS = textwrap.dedent("""
    import threading
    calls = []
    release = threading.Event()

    def warm_up():
        release.wait(30)
        calls.append(threading.current_thread().name)
""")


@pytest.fixture
def fake_kernels(tmp_path, monkeypatch):
    """A LazyKernels over a plain module whose warm-up waits for ``release``, the cache in ``tmp_path``."""
    name = f"fake_kernels_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text(FAKE_KERNELS, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    previous = jit.set_compile_mode("background")
    module = importlib.import_module(name)
    yield module, jit.LazyKernels("fake", name, load=lambda: module, warm_up=module.warm_up)
    jit.set_compile_mode(previous)
    module.release.set()


def test_a_request_starts_one_background_build_and_then_the_code_is_ready(fake_kernels):
    module, kernels = fake_kernels
    assert not kernels.ready()
    assert kernels.request() is False
    assert kernels.request() is False  # still building: no second build
    assert kernels.building()
    module.release.set()
    assert kernels.wait(30)
    assert module.calls == ["rankviz: compiling fake"]
    assert kernels.ready() and kernels.request() is True
    # a later process (a new LazyKernels) finds the stamp in the cache
    assert jit.LazyKernels("fake", module.__name__, load=lambda: module, warm_up=kernels.warm_up).is_cached()


def test_an_edited_source_makes_the_stamp_stale(fake_kernels, tmp_path):
    module, kernels = fake_kernels
    module.release.set()
    kernels.build()
    later = jit.LazyKernels("fake", module.__name__, load=lambda: module, warm_up=kernels.warm_up)
    assert later.is_cached()
    Path(module.__file__).write_text(FAKE_KERNELS + "\n# edited\n", encoding="utf-8")
    assert not later.is_cached()


def test_a_failed_build_is_reported_once_and_fits_keep_numpy(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    previous = jit.set_compile_mode("background")
    try:
        def missing():
            raise ModuleNotFoundError("No module named 'rankviz.no_such_module'")

        broken = jit.LazyKernels("broken", "rankviz.no_such_module", load=missing, warm_up=lambda: None)
        assert broken.request() is False
        assert broken.wait(30)
        with pytest.warns(RuntimeWarning, match="compiling the code of broken failed"):
            assert broken.request() is False
        assert broken.request() is False
    finally:
        jit.set_compile_mode(previous)


def test_the_compilation_modes_choose_the_engine(fake_kernels):
    _, kernels = fake_kernels
    criterion = get_criterion("gini")
    jit.set_compile_mode("never")
    assert not kernels.request() and not use_compiled(criterion, "auto")
    assert use_compiled(criterion, "compiled")  # an explicit engine is obeyed in any mode
    jit.set_compile_mode("wait")
    assert kernels.request() and use_compiled(criterion, "auto")
    assert not use_compiled(criterion, "numpy")
    assert not kernels.building()  # neither mode builds in the background
    with pytest.raises(ValueError, match="mode must be one of"):
        jit.set_compile_mode("sometimes")


def test_a_criterion_without_compiled_form_never_asks_for_the_compiled_code():
    class Tweaked(type(get_criterion("mean_spearman"))):
        pass

    assert isinstance(Tweaked(), Criterion) and not compiled.has_compiled_form(Tweaked())
    previous = jit.set_compile_mode("wait")
    try:
        assert not use_compiled(Tweaked(), "auto")
        assert use_compiled(get_criterion("mean_spearman"), "auto")
    finally:
        jit.set_compile_mode(previous)


# --------------------------------------------------------------------------- #
# the estimators in each mode grow the same trees
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("criterion", ["mean_spearman", "ranking_impurity", "gini", "mallows", "pairwise_entropy"])
def test_a_fit_with_numpy_equals_the_compiled_fit(criterion):
    rng = np.random.default_rng(7)
    X = rng.normal(size=(300, 5))
    Y = np.argsort(np.argsort(X @ rng.normal(size=(5, 4)) + rng.normal(scale=0.7, size=(300, 4)), axis=1),
                   axis=1) + 1.0
    previous = jit.set_compile_mode("never")
    try:
        numpy_tree = rankviz.RankingTree(criterion=criterion, gamma=np.inf).fit(X, Y).tree_
        jit.set_compile_mode("wait")
        compiled_tree = rankviz.RankingTree(criterion=criterion, gamma=np.inf).fit(X, Y).tree_
    finally:
        jit.set_compile_mode(previous)
    assert numpy_tree.node_count > 20
    # the same splits and predictions; the scores are sums in another order (tests/test_compiled_growth.py)
    for name in ("children_left", "children_right", "feature", "threshold", "n_samples", "ranking"):
        np.testing.assert_array_equal(getattr(numpy_tree, name), getattr(compiled_tree, name), err_msg=name)
    for name in ("similarity", "split_score") + (("theta",) if criterion == "mallows" else ()):
        np.testing.assert_allclose(getattr(numpy_tree, name), getattr(compiled_tree, name), rtol=1e-9,
                                   atol=1e-12, err_msg=name)


# --------------------------------------------------------------------------- #
# rankviz warm-up
# --------------------------------------------------------------------------- #
def test_warm_up_builds_everything_and_names_the_cache(capsys):
    assert cli.main(["warm-up"]) == 0
    out = capsys.readouterr().out
    assert f"Numba cache: {numba_cache.cache_dir()}" in out
    for kernels in (compiled.KERNELS, rankviz.ltr.stump_search.KERNELS, rankviz.label_ranking.bucket_order.KERNELS,
                    rankviz.datasets.svmlight.KERNELS, rankviz.neighbours.KERNELS):
        assert f"{kernels.name} ({kernels.module}):" in out
        assert kernels.ready()
    assert "s of CPU" in out
