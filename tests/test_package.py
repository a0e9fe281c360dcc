"""The package as a user meets it: an installable wheel, a layout that keeps its layers, the README's API.

* A wheel built from the checkout installs into a fresh virtual environment
  with the core dependencies only, and works from another directory:
  ``import rankviz`` imports neither Streamlit nor plotly, and every sample
  that ships as package data loads.
* The layers hold: no Streamlit outside ``rankviz/ui``, no plotly outside
  ``rankviz/viz/figures`` and ``rankviz/ui``, and no module imports another
  module's private names.
* The README's Python examples run, from outside the repository, and its
  "Layout" section lists the subpackages there are.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import venv
from pathlib import Path

import pytest

import rankviz

REPO = Path(__file__).resolve().parents[1]
LIBRARY = REPO / "rankviz"
#: What `pip install rankviz` brings, as the README says: its direct requirements.
CORE_DEPENDENCIES = {"numpy", "scipy", "pandas", "scikit-learn", "numba", "charset-normalizer"}


def library_modules(under: Path = LIBRARY):
    return sorted(p for p in under.rglob("*.py") if "__pycache__" not in p.parts)


def imports_of(path: Path):
    """``(module, names)`` of every import statement, relative imports resolved against the path."""
    package = ".".join(path.relative_to(REPO).with_suffix("").parts[:-1])
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, []
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            yield module, [alias.name for alias in node.names]


# --------------------------------------------------------------------------- #
# layers
# --------------------------------------------------------------------------- #
def test_import_rankviz_imports_neither_streamlit_nor_plotly(tmp_path):
    code = ("import sys, rankviz, rankviz.tree, rankviz.label_ranking, rankviz.ordinal, rankviz.ltr, "
            "rankviz.datasets, rankviz.experiments, rankviz.viz.dot, rankviz.viz.graphviz; "
            "print(sorted(m for m in ('streamlit', 'plotly') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_streamlit_only_in_ui_and_plotly_only_in_figures_and_ui():
    found = []
    for path in library_modules():
        relative = path.relative_to(LIBRARY).as_posix()
        for module, _ in imports_of(path):
            top = module.split(".")[0]
            if top == "streamlit" and not relative.startswith("ui/"):
                found.append(f"{relative}: {module}")
            if top == "plotly" and not relative.startswith(("ui/", "viz/figures/")):
                found.append(f"{relative}: {module}")
    assert found == []


def test_no_module_imports_another_modules_private_names():
    found = []
    for path in library_modules():  # the app and its pages included
        for module, names in imports_of(path):
            if module == "__future__":
                continue
            private = [n for n in names if n.startswith("_") and not (n.startswith("__") and n.endswith("__"))]
            parts = [p for p in module.split(".") if p.startswith("_") and p != "_validation"]
            if private or parts:
                found.append(f"{path.relative_to(REPO)}: from {module} import {', '.join(names)}")
    assert found == []


def test_lower_layers_do_not_import_higher_ones():
    """datasets, label_ranking, ordinal and ltr never import tree, experiments, viz or ui."""
    allowed = {
        "exceptions": set(), "config": set(), "memory": {"config", "exceptions"},
        "_validation": {"exceptions"}, "features": set(), "binning": set(),
        "neighbours": {"features", "jit"}, "neighbour_kernels": {"numba_cache"}, "numba_cache": set(),
        "jit": {"numba_cache"},
        "model_selection": set(), "utils": {"jit", "numba_cache", "viz", "_validation", "label_ranking", "ltr"},
        "ordinal": {"neighbours", "features", "_validation", "exceptions"},
        "label_ranking": {"neighbours", "features", "model_selection", "_validation", "exceptions", "jit",
                          "numba_cache"},
        "datasets": {"exceptions", "_validation", "features", "ordinal", "jit", "numba_cache", "memory"},
        "ltr": {"_validation", "exceptions", "label_ranking", "datasets", "binning", "jit", "numba_cache",
                "memory"},
        "tree": {"label_ranking", "ordinal", "features", "binning", "_validation", "exceptions", "jit",
                 "numba_cache", "memory", "safe_text"},
        "ensemble": {"tree", "label_ranking", "_validation"},
    }
    # The one way up, at call time only: a fitted tree's notebook display is its
    # view (as scikit-learn's BaseEstimator imports its HTML repr when asked).
    display_hook = ("rankviz/tree/display.py", "rankviz.viz.tree_view.display")
    found = []
    for path in library_modules():
        layer = path.relative_to(LIBRARY).parts[0].removesuffix(".py")
        if layer not in allowed:
            continue
        for module, _ in imports_of(path):
            parts = module.split(".")
            if (str(path.relative_to(REPO)), module) == display_hook:
                continue
            if parts[0] == "rankviz" and len(parts) > 1 and parts[1] != layer and parts[1] not in allowed[layer]:
                found.append(f"{path.relative_to(REPO)} imports {module}")
    assert found == []


def test_the_top_level_api_is_what_it_was():
    """Names users import from ``rankviz`` keep working."""
    names = {"ConstraintClassifier", "DefaultRanker", "IBLR", "KNNRanker", "MPBoost", "OrdinalDefault",
             "OrdinalKNN", "OrdinalTree", "QueryDataset", "RankingDataset", "RankingTree", "cross_validate",
             "delete_labels", "load_benchmark", "load_csv", "load_ltr_sample", "load_query_csv", "load_sample",
             "load_svmlight", "make_ltr_dataset", "summarize"}
    assert names <= set(rankviz.__all__)
    assert all(hasattr(rankviz, name) for name in rankviz.__all__)


def test_the_package_is_typed():
    assert (LIBRARY / "py.typed").is_file()


# --------------------------------------------------------------------------- #
# README
# --------------------------------------------------------------------------- #
def readme_section(title: str) -> str:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## )", text, flags=re.S | re.M)
    assert match, f"README has no section {title!r}"
    return match.group(1)


def test_the_readme_layout_lists_the_subpackages_there_are():
    layout = readme_section("Layout")
    listed = set(re.findall(r"^  (\w+)/", layout, flags=re.M))
    subpackages = {p.parent.name for p in LIBRARY.glob("*/__init__.py")}
    assert subpackages <= listed, f"not in the README's layout: {sorted(subpackages - listed)}"
    assert listed - subpackages <= {"rankviz", "sample_data", "scripts", "tests", "benchmarks", "docs",
                                    "examples", "criteria", "dot", "figures", "e2e", "app", "app_pages",
                                    "tree_view", "static"}


GUIDE_PAGES = sorted((REPO / "docs" / "user_guide").glob("*.md"))


@pytest.mark.parametrize("page", [REPO / "README.md", *GUIDE_PAGES], ids=lambda p: p.name)
def test_the_python_examples_of_the_readme_and_the_user_guide_run_outside_the_repository(page, tmp_path):
    """Each page's ```python blocks, in order, as one script in an empty folder: what a reader pastes."""
    text = readme_section("Python API") if page.name == "README.md" else page.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    if not blocks:
        pytest.skip(f"{page.name} has no Python example")
    script = tmp_path / "examples.py"
    script.write_text("\n".join(blocks), encoding="utf-8")
    result = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]


def test_the_user_guide_has_the_examples_a_reader_expects():
    with_code = {p.stem for p in GUIDE_PAGES if "```python" in p.read_text(encoding="utf-8")}
    assert {"getting_started", "ranking_trees", "gamma_path", "ordinal", "mpboost", "exporting"} <= with_code


# --------------------------------------------------------------------------- #
# the wheel, in a fresh environment
# --------------------------------------------------------------------------- #
# The three tests of one fresh install run on one pytest-xdist worker, so it is built once (a session
# fixture: the worker may run tests of other modules between them, which would end a module fixture).
_ONE_INSTALL = pytest.mark.xdist_group("fresh_install")


@pytest.fixture(scope="session")
def fresh_install(tmp_path_factory):
    """A wheel of the checkout, installed with its dependencies into a new virtual environment."""
    root = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check", "-q",
                    "-w", str(root / "dist"), str(REPO)], check=True, capture_output=True, text=True)
    (wheel,) = (root / "dist").glob("rankviz-*.whl")
    environment = root / "venv"
    venv.create(environment, with_pip=True)
    python = environment / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--disable-pip-version-check", "-q", str(wheel)],
                   check=True, capture_output=True, text=True)
    return python, wheel


@_ONE_INSTALL
def test_the_wheel_holds_the_package_data_and_the_type_marker(fresh_install):
    import zipfile
    _, wheel = fresh_install
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "rankviz/py.typed" in names
    assert {"rankviz/sample_data/metalearning.csv", "rankviz/sample_data/metalearning.json",
            "rankviz/sample_data/ltr_synthetic/train.txt"} <= names
    assert not any(n.startswith(("tests/", "pages/", "benchmarks/", "scripts/")) for n in names)
    assert not [n for n in names if "/build_" in n or n.endswith("_nb_ranking.py")]  # the samples' builders
    # The app travels with the package: its entry, its pages and its Streamlit settings.
    assert {"rankviz/ui/app/main.py", "rankviz/ui/app/app_pages/ranking_trees.py",
            "rankviz/ui/app/.streamlit/config.toml"} <= names
    # The licence travels with the package (PEP 639: the expression and the file).
    wheel_file = zipfile.ZipFile(wheel)
    meta = wheel_file.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert "License-Expression: BSD-3-Clause" in meta
    licence = next(n for n in names if n.endswith(".dist-info/licenses/LICENSE"))
    assert wheel_file.read(licence).decode().startswith("BSD 3-Clause License")


@_ONE_INSTALL
def test_a_fresh_install_has_the_core_dependencies_only(fresh_install):
    python, _ = fresh_install
    listed = subprocess.run([str(python), "-m", "pip", "list", "--format=freeze", "--disable-pip-version-check"],
                            check=True, capture_output=True, text=True).stdout
    installed = {line.split("==")[0].lower() for line in listed.split()}
    assert not installed & {"streamlit", "plotly", "graphviz-pure", "svglib", "pytest"}
    # Exactly rankviz's requirements and theirs, read from the installed metadata: nothing else.
    code = """
import re
from importlib import metadata
def name(requirement):
    return re.split(r"[^A-Za-z0-9._-]", requirement, maxsplit=1)[0].lower().replace("_", "-")
def direct(dist):
    return {name(r) for r in metadata.requires(dist) or () if "extra ==" not in r and metadata_exists(name(r))}
def metadata_exists(dist):
    try:
        metadata.distribution(dist)
        return True
    except metadata.PackageNotFoundError:
        return False  # a requirement for another platform or Python
print(sorted(direct("rankviz")))
seen, todo = set(), ["rankviz"]
while todo:
    dist = todo.pop()
    if dist not in seen:
        seen.add(dist)
        todo += direct(dist)
print(sorted(seen))
"""
    direct, closure = (eval(line) for line in subprocess.run(
        [str(python), "-c", code], check=True, capture_output=True, text=True).stdout.splitlines())
    assert set(direct) == CORE_DEPENDENCIES
    assert installed - {"pip", "setuptools"} == set(closure)


@_ONE_INSTALL
def test_every_sample_loads_from_the_installed_package_in_another_directory(fresh_install, tmp_path):
    python, _ = fresh_install
    code = """
import sys
import rankviz
from rankviz.datasets import list_samples, load_sample
assert 'streamlit' not in sys.modules and 'plotly' not in sys.modules
assert 'site-packages' in rankviz.__file__, rankviz.__file__
for name in list_samples():
    data = load_sample(name)
    print(name, type(data).__name__)
data = load_sample('metalearning')
tree = rankviz.RankingTree(min_samples_leaf=10).fit(data.X, data.Y)
print('leaves', tree.tree_.n_leaves)
"""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    result = subprocess.run([str(python), "-c", code], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr[-3000:]
    lines = result.stdout.split("\n")
    loaded = dict(line.split() for line in lines if line and not line.startswith("leaves"))
    assert set(loaded) == set(rankviz.datasets.list_samples())
    assert {loaded[name] for name in rankviz.datasets.list_samples("label_ranking")} == {"RankingDataset"}
    assert loaded["diabetes_ordinal"] == "OrdinalDataset" and loaded["ltr_synthetic"] == "dict"
    assert "leaves 12" in lines


def test_the_docstring_examples_run():
    """Every ``>>>`` example in the library's docstrings (outside the Streamlit widgets) gives what it shows."""
    import doctest
    import importlib

    failed, attempted = 0, 0
    for path in library_modules():
        relative = path.relative_to(REPO).with_suffix("")
        if relative.parts[1] in ("ui", "sample_data"):
            continue
        module = importlib.import_module(".".join(p for p in relative.parts if p != "__init__"))
        result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
        failed, attempted = failed + result.failed, attempted + result.attempted
    assert attempted >= 20 and failed == 0


def test_every_public_function_has_type_hints():
    """The package ships ``py.typed``: every public function and method of the library is annotated."""
    missing = []
    for path in library_modules():
        if "sample_data" in path.parts:
            continue

        def visit(node, prefix=""):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.ClassDef) and not child.name.startswith("_"):
                    visit(child, f"{prefix}{child.name}.")
                elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    if child.name.startswith("_") and child.name not in ("__init__", "__call__"):
                        continue
                    arguments = child.args.posonlyargs + child.args.args + child.args.kwonlyargs
                    bare = [a.arg for a in arguments if a.annotation is None and a.arg not in ("self", "cls")]
                    if bare or (child.returns is None and child.name != "__init__"):
                        missing.append(f"{path.relative_to(REPO)}:{child.lineno} {prefix}{child.name}")

        visit(ast.parse(path.read_text(encoding="utf-8")))
    assert missing == []


@pytest.fixture(scope="session")
def fresh_app_install(fresh_install, tmp_path_factory):
    """The same wheel with its ``app`` extra, in a new virtual environment of its own."""
    _, wheel = fresh_install
    environment = tmp_path_factory.mktemp("app") / "venv"
    venv.create(environment, with_pip=True)
    python = environment / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--disable-pip-version-check", "-q", f"{wheel}[app]"],
                   check=True, capture_output=True, text=True)
    return python


@_ONE_INSTALL
def test_rankviz_app_starts_from_an_install_with_no_checkout(fresh_app_install, tmp_path, browser):
    """``pip install "rankviz[app]"``, then ``rankviz app`` in an empty folder: every page answers."""
    from conftest import serve_app
    from playwright.sync_api import expect

    python = fresh_app_install
    # NumPy fits only: this install's compiled code would otherwise build for a minute in the background.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"RANKVIZ_COMPILE": "never"}
    located = subprocess.run([str(python), "-c", "import rankviz.ui.app as a; print(a.main_script())"],
                             cwd=tmp_path, capture_output=True, text=True, env=env, check=True).stdout.strip()
    assert "site-packages" in located and not located.startswith(str(REPO))
    with serve_app(str(python), cwd=tmp_path, env=env) as url:
        page = browser.new_page(viewport={"width": 1440, "height": 900})
        # A page's URL first on a fresh server: routed through the app's navigation.
        page.goto(f"{url}/mpboost", timeout=120_000)
        expect(page.get_by_test_id("stSidebarNav")).to_contain_text("Ranking trees", timeout=120_000)
        page.goto(f"{url}/?data=toy", timeout=120_000)
        expect(page.locator(".st-key-tree_view .rv-root")).to_have_attribute("data-ready", "1", timeout=120_000)
        expect(page.get_by_role("heading", name="Ranking trees")).to_be_visible()
        assert page.get_by_test_id("stException").count() == 0
        # The app's own settings reached Streamlit from the installed package: no developer toolbar.
        expect(page.get_by_test_id("stAppDeployButton")).to_have_count(0)
        page.close()
