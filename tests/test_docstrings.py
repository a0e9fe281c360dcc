"""The public API's docstrings follow numpydoc: ``numpydoc.validate`` finds nothing outside the ignore list.

The public API is every class and function named in the ``__all__`` of the
modules below and, for a class, the public methods and properties it defines
itself (what it inherits from scikit-learn is scikit-learn's to document).
Each object is checked with :func:`numpydoc.validate.validate`, by its
``__module__`` and ``__qualname__``, as scikit-learn and scikit-lr check
theirs. The codes in :data:`IGNORED` and :data:`IGNORED_ON_MEMBERS` are
scikit-lr's ignore list, each with its reason; everything else, from a
parameter left undocumented or a summary over two lines to a class or a
function without an example, is a finding.
"""

from __future__ import annotations

import functools
import importlib
import inspect

import pytest

numpydoc_validate = pytest.importorskip("numpydoc.validate")

#: The modules whose ``__all__`` is the public API.
PUBLIC_MODULES = [
    "rankviz",
    "rankviz.datasets",
    "rankviz.tree",
    "rankviz.ensemble",
    "rankviz.label_ranking",
    "rankviz.ordinal",
    "rankviz.ltr",
    "rankviz.experiments",
    "rankviz.viz",
    "rankviz.viz.export",
    "rankviz.viz.graphviz",
    "rankviz.viz.tree_view",
    "rankviz.features",
    "rankviz.utils",
]

#: Names loaded lazily through a module ``__getattr__`` that need an optional dependency.
OPTIONAL = {"TreeView": "anywidget"}

#: Codes ignored on every object: scikit-lr's (and scikit-learn's) choices of layout.
IGNORED = {
    # The summary starts on the line of the opening quotes (PEP 257), not on the line after them.
    "GL01",
    # A one-line docstring closes its quotes on its own line (PEP 257).
    "GL02",
    # A Returns entry may name the value it returns ("tree : RankingTree"), not only its type.
    "RT02",
}

#: Codes ignored on methods and properties as well, which the page of their class introduces (scikit-lr's).
IGNORED_ON_MEMBERS = {
    # No extended summary: the class's docstring gives the context a method's summary leaves out.
    "ES01",
    # No See Also section: the class's See Also points to the related classes and functions.
    "SA01",
    # No Examples section: the class's Examples show its methods and properties in use.
    "EX01",
}

#: Methods scikit-learn generates or owns, even when a class lists them itself.
SKLEARN_MEMBERS = {"get_metadata_routing"}


def members(cls):
    """The public methods and properties ``cls`` defines itself, scikit-learn's generated ones left out."""
    for name, member in vars(cls).items():
        if name.startswith("_") or name in SKLEARN_MEMBERS:
            continue
        if name.startswith("set_") and name.endswith("_request"):
            continue  # scikit-learn's metadata-routing setters
        if isinstance(member, (staticmethod, classmethod)):
            member = member.__func__
        if isinstance(member, (property, functools.cached_property)) or inspect.isfunction(member):
            yield name


def public_objects(optional: bool = False):
    """``(name, is_member)`` of every public class, function, method and property, without duplicates.

    With ``optional`` the names of :data:`OPTIONAL` only (their dependency must be
    installed), without it every other name.
    """
    seen, found = set(), []

    def add(name, is_member):
        if name not in seen:
            seen.add(name)
            found.append((name, is_member))

    for module_name in PUBLIC_MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            if (name in OPTIONAL) != optional:
                continue
            obj = getattr(module, name)
            if not (inspect.isclass(obj) or inspect.isfunction(obj)):
                continue  # constants and registries: documented by ``#:`` comments
            add(f"{obj.__module__}.{obj.__qualname__}", False)
            if inspect.isclass(obj):
                for member in members(obj):
                    add(f"{obj.__module__}.{obj.__qualname__}.{member}", True)
    return found


def findings(objects):
    """``(object, code, message)`` of every numpydoc finding outside the ignore lists."""
    found = []
    for name, is_member in objects:
        ignored = IGNORED | (IGNORED_ON_MEMBERS if is_member else set())
        for code, message in numpydoc_validate.validate(name)["errors"]:
            if code not in ignored:
                found.append((name, code, message))
    return found


def assert_no_findings(found):
    report = "\n".join(f"{name}: {code} {message}" for name, code, message in found)
    assert not found, f"{len(found)} numpydoc findings:\n{report}"


def test_the_public_api_is_collected():
    names = [name for name, _ in public_objects()]
    assert len(names) == len(set(names))
    assert {"rankviz.tree.ranking_tree.RankingTree", "rankviz.tree.ranking_tree.RankingTree.fit",
            "rankviz.ltr.mpboost.MPBoost", "rankviz.datasets.samples.load_sample",
            "rankviz.ordinal.levels.OrdinalLevels.from_target",  # a classmethod
            "rankviz.tree.structure.Tree.n_leaves"} <= set(names)  # a property
    # What BaseEstimator and the mixins give is not the classes' own to document.
    assert "rankviz.tree.ranking_tree.RankingTree.get_params" not in names
    assert not [n for n in names if n.endswith(("_request", "get_metadata_routing"))]


def test_the_ignore_lists_do_not_cover_what_must_be_checked():
    must = {"PR01", "PR02", "PR03", "PR04", "PR06", "PR07", "PR08", "PR10", "RT01", "RT03", "GL08", "SS01",
            "SS02", "YD01"}
    assert not must & (IGNORED | IGNORED_ON_MEMBERS)
    assert "EX01" not in IGNORED  # classes and module-level functions keep their examples


def test_the_public_api_docstrings_follow_numpydoc():
    assert_no_findings(findings(public_objects()))


# numpydoc lists the widget's members, among them ipywidgets' deprecated class attributes.
@pytest.mark.filterwarnings("ignore:Widget.* is deprecated:DeprecationWarning")
def test_the_notebook_widget_docstrings_follow_numpydoc():
    """:class:`~rankviz.viz.tree_view.TreeView` is loaded on first use and needs ``anywidget``."""
    pytest.importorskip("anywidget")
    objects = public_objects(optional=True)
    assert objects
    assert_no_findings(findings(objects))
