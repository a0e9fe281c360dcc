"""The text export of a tree's rules and the trace of one example through it."""

from __future__ import annotations

import numpy as np
import pytest

from rankviz import RankingTree, load_sample
from rankviz.features import FeatureEncoder
from rankviz.label_ranking.metrics import cs, kendall_tau, lra, wrc
from rankviz.tree.export import export_text
from rankviz.tree.structure import ranking_text
from rankviz.tree.trace import trace_example


@pytest.fixture(scope="module")
def fitted():
    data = load_sample("metalearning")
    model = RankingTree(min_samples_leaf=5).fit(data.X, data.rankings)
    return data, model, FeatureEncoder().fit(data.X).transform(data.X)


def test_text_export_has_two_lines_per_split_and_one_per_leaf(fitted):
    _, model, _ = fitted
    tree = model.tree_
    lines = export_text(model).splitlines()
    internal = np.flatnonzero(~tree.is_leaf)
    assert len(lines) == 2 * len(internal) + tree.n_leaves
    leaf_lines = [line for line in lines if "ranking: " in line]
    order, stack = [], [0]  # depth-first, the "yes" branch first, as the text is written
    while stack:
        node = stack.pop()
        order.append(node)
        if tree.children_left[node] >= 0:
            stack += [tree.children_right[node], tree.children_left[node]]
    for node, line in zip([n for n in order if tree.is_leaf[n]], leaf_lines, strict=True):
        assert f"ranking: {tree.ranking_text(node)}  [#{tree.node_ids[node]} n = {tree.n_samples[node]}," in line
        assert line.index("|---") == 4 * int(tree.depth[node])
    for node in internal:
        assert sum(line.endswith(f"--- {tree.test_text(node)}") for line in lines) >= 1


def test_text_export_of_a_cut_counts_what_it_leaves_out(fitted):
    _, model, _ = fitted
    tree = model.tree_
    nodes, leaves = tree.subtree_sizes()
    text = export_text(model, max_depth=1)
    for node in np.flatnonzero(~tree.is_leaf & (tree.depth == 1)):
        # brute force: the descendants of the node
        below, stack = [], [tree.children_left[node], tree.children_right[node]]
        while stack:
            child = stack.pop()
            below.append(child)
            if tree.children_left[child] >= 0:
                stack += [tree.children_left[child], tree.children_right[child]]
        assert nodes[node] == len(below) and leaves[node] == int(tree.is_leaf[below].sum())
        assert f"truncated branch: {len(below)} nodes, " in text


def test_a_traced_row_ends_in_the_leaf_apply_gives_and_is_scored_by_the_metrics(fitted):
    data, model, encoded = fitted
    tree = model.tree_
    leaves = tree.apply(encoded)
    for row in range(0, data.n_samples, 7):
        trace = trace_example(model, encoded[row], data.Y[row])
        assert trace.leaf == leaves[row] and trace.path[0] == 0
        assert all(tree.children_left[a] == b or tree.children_right[a] == b
                   for a, b in zip(trace.path[:-1], trace.path[1:]))
        predicted = tree.ranking[trace.leaf]
        for name, measure in (("CS", cs), ("WRC", wrc), ("LRA", lra), ("Kendall tau", kendall_tau)):
            assert trace.scores[name] == pytest.approx(measure(data.Y[row], predicted))


def test_ranking_text_orders_by_position_and_skips_missing_labels():
    assert ranking_text([2, 3, 1], ["a", "b", "c"]) == "c > a > b"
    assert ranking_text([2, np.nan, 1], ["a", "b", "c"]) == "c > a"
    assert ranking_text([1.5, 1.5, 3], ["a", "b", "c"]) == "a = b > c"  # a tie, in label order
    assert ranking_text([1, 2, 3], ["a", "b", "c"], ", ") == "a, b, c"


# -- figures for papers: rankviz.viz.export -------------------------------------------------

import io  # noqa: E402
import re  # noqa: E402
import struct  # noqa: E402

from rankviz.viz.dot import tree_to_dot  # noqa: E402
from rankviz.viz.dot.common import HIGHLIGHT_COLOR, PATH_COLOR, RANK_PALETTE  # noqa: E402
from rankviz.viz.export import (LEGIBLE_SCALE, MAX_PNG_PIXELS, PAGE_WIDTH_CM, export_drawing,  # noqa: E402
                                export_tree, figure_size, fit_to_page, sized_dot)
from rankviz.viz.graphviz import available_engines, with_png_dpi  # noqa: E402
from rankviz.viz.layout import layout_dot, svg_size  # noqa: E402

ENGINES = available_engines()


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("width", "unit", "dpi"), [(8, "cm", 300), (3.5, "in", 150), (17, "cm", 600)])
def test_png_width_is_width_times_dpi(fitted, engine, width, unit, dpi):
    _, model, _ = fitted
    inches = width / 2.54 if unit == "cm" else width
    wide, high = png_size(export_tree(model, "png", width=width, unit=unit, dpi=dpi, engine=engine))
    assert abs(wide - inches * dpi) <= 2, (wide, inches * dpi)
    # The height keeps the drawing's proportions.
    natural = svg_size(export_tree(model, "svg", width=None, engine=engine).decode())
    assert high == pytest.approx(wide * natural[1] / natural[0], rel=0.01)
    # SVG and PDF: the width in points.
    svg = export_tree(model, "svg", width=width, unit=unit, engine=engine).decode()
    assert svg_size(svg)[0] == pytest.approx(inches * 72, abs=1)
    assert figure_size(tree_to_dot(model), width=width, unit=unit, engine=engine)[0] == pytest.approx(inches, abs=0.02)


def png_dpi(data: bytes) -> float | None:
    """The DPI a PNG states in its pHYs chunk (None if it has none)."""
    at = 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"pHYs":
            x, y, unit = struct.unpack(">IIB", data[at + 8:at + 17])
            assert unit == 1 and x == y
            return x * 0.0254
        at += 12 + length
    return None


@pytest.mark.parametrize("engine", ENGINES)
def test_a_png_states_its_dpi_so_documents_place_it_at_its_size(fitted, engine):
    from PIL import Image  # Pillow checks every chunk's CRC as it reads

    _, model, _ = fitted
    for dpi in (300, 150):
        png = export_tree(model, "png", width=5, unit="cm", dpi=dpi, engine=engine)
        assert png_dpi(png) == pytest.approx(dpi, abs=0.02)  # whole pixels per metre
        with Image.open(io.BytesIO(png)) as image:
            image.load()
            assert image.info["dpi"][0] == pytest.approx(dpi, abs=0.02)
            assert image.size[0] / image.info["dpi"][0] == pytest.approx(5 / 2.54, abs=0.01)
    assert png_dpi(with_png_dpi(with_png_dpi(png, 72), 600)) == pytest.approx(600, abs=0.02)  # replaced, not added
    assert with_png_dpi(png, 600).count(b"pHYs") == 1
    with pytest.raises(ValueError, match="not a PNG"):
        with_png_dpi(b"GIF89a", 300)


def test_by_default_a_figure_fits_a_page_with_legible_text():
    """Natural size when narrower than a page; else a page wide, cut by levels if the text would be tiny."""
    data = load_sample("metalearning")
    model = RankingTree(min_samples_leaf=10).fit(data.X, data.rankings)
    page = PAGE_WIDTH_CM / 2.54
    natural = figure_size(tree_to_dot(model))[0]
    assert natural * LEGIBLE_SCALE > page  # wide: it needs cutting
    dot, inches, depth = fit_to_page(model)
    assert inches == pytest.approx(page) and depth is not None and 1 <= depth < model.tree_.max_depth
    assert figure_size(dot)[0] * LEGIBLE_SCALE <= page  # the text stays at least LEGIBLE_SCALE of its size
    deeper = tree_to_dot(model, max_depth=depth + 1)
    assert depth + 1 >= model.tree_.max_depth or figure_size(deeper)[0] * LEGIBLE_SCALE > page  # no needless cut
    svg = export_tree(model, "svg").decode()
    assert svg_size(svg)[0] == pytest.approx(page * 72, abs=1)
    assert svg_size(export_tree(model, "svg", width=None).decode())[0] == pytest.approx(natural * 72, abs=1)
    # A depth of the caller's is kept: page wide, whatever the text size.
    assert fit_to_page(model, max_depth=model.tree_.max_depth)[1:] == (pytest.approx(page), model.tree_.max_depth)
    # A narrow tree keeps its natural size.
    toy = load_sample("toy")
    small = RankingTree(min_samples_leaf=4).fit(toy.X, toy.rankings)
    if figure_size(tree_to_dot(small))[0] <= page:
        assert fit_to_page(small)[1:] == (None, None)


def test_a_png_larger_than_graphviz_writes_is_refused(fitted):
    _, model, _ = fitted
    with pytest.raises(ValueError, match=f"more than the {MAX_PNG_PIXELS:,} px"):
        export_tree(model, "png", width=150, unit="in", dpi=300)
    with pytest.raises(ValueError, match="width must be"):
        export_tree(model, "svg", width=0)
    with pytest.raises(ValueError, match="unit must be"):
        sized_dot("digraph {}", 3, unit="mm")
    with pytest.raises(ValueError, match="dpi must be"):
        export_drawing("digraph {}", "png", dpi=5)
    with pytest.raises(ValueError, match="fmt must be"):
        export_tree(model, "jpg")


def test_sized_dot_sets_the_width_last_with_a_small_margin():
    sized = sized_dot('digraph { graph [size="1,1", pad=0.5]; a -> b }\n', 2.54, unit="cm")
    assert sized.rstrip().endswith('graph [size="1.0000,10000!", pad=0.0208];\n}')


def test_exports_have_no_highlight_unless_asked(fitted):
    data, model, encoded = fitted
    tree = model.tree_
    plain = export_tree(model, "dot").decode()
    assert HIGHLIGHT_COLOR not in plain and PATH_COLOR not in plain
    path = np.unique(tree.decision_paths(encoded[:1])[0])  # node indices, root first
    lit = export_tree(model, "dot", highlight=3, path=path).decode()
    assert lit.count(f'color="{HIGHLIGHT_COLOR}"') == 1
    # The edges into the path's nodes (all but the root) are orange, no other.
    orange = sorted(int(k) for k in re.findall(rf'id="edge(\d+)"[^]\n]*color="{PATH_COLOR}"', lit))
    assert orange == sorted(int(n) for n in path[1:])
    # Its leaf is outlined (the one apply gives), unless it is the highlighted node.
    leaf = int(tree.apply(encoded[:1])[0])
    assert re.search(rf'  node{leaf} \[[^\n]*color="{PATH_COLOR}"', lit) or leaf == 3


def test_current_view_export_has_the_cut(fitted):
    _, model, _ = fitted
    tree = model.tree_
    cut = export_tree(model, "dot", max_depth=2, collapsed=[1]).decode()
    drawn = {int(n) for n in re.findall(r"^  node(\d+) \[", cut, flags=re.M)}
    assert drawn == {0, 1, *np.flatnonzero((tree.depth <= 2) & ~np.isin(np.arange(tree.node_count),
                                                                          _below(tree, 1)))}
    assert "dashed: subtree not drawn (deeper than 2 or collapsed)" in cut
    text = export_tree(model, "txt", max_depth=2, collapsed=[1], title="Figure 3").decode()
    assert text == "Figure 3\n\n" + export_text(model, max_depth=2, collapsed=[1])


def _below(tree, node):
    """Indices of the nodes under ``node``."""
    found, stack = [], [tree.children_left[node], tree.children_right[node]]
    while stack:
        child = stack.pop()
        if child >= 0:
            found.append(child)
            stack += [tree.children_left[child], tree.children_right[child]]
    return found


def test_rank_strips_shade_each_label_by_its_mean_rank(fitted):
    _, model, _ = fitted
    tree = model.tree_
    dot = tree_to_dot(tree, rank_strips=True)
    assert "strip: mean rank of each label" in dot
    for leaf in np.flatnonzero(tree.is_leaf)[:5]:
        line = re.search(rf"^  node{leaf} \[.*$", dot, flags=re.M).group(0)
        colours = re.findall(r'<TD BGCOLOR="(#[0-9a-f]{6})" WIDTH', line)
        assert len(colours) == len(tree.label_names)
        steps = [RANK_PALETTE.index(c) for c in colours]
        ranks, k, top = tree.mean_rank[leaf], len(tree.label_names), len(RANK_PALETTE) - 1
        # Darker for a better (smaller) mean rank, on one scale for every leaf:
        # rank 1 darkest, rank k lightest, label by label in label order.
        assert steps == [round((k - r) / (k - 1) * top) for r in ranks]
        order = np.argsort(ranks, kind="stable")
        assert all(steps[a] >= steps[b] for a, b in zip(order, order[1:]))
    assert "strip:" not in tree_to_dot(tree) and "<TD BGCOLOR" not in tree_to_dot(tree).split("legend")[0]


def test_layout_dot_lays_out_any_drawing():
    layout = layout_dot('digraph { a -> b; a -> c }')
    assert layout.nodes == [] and layout.width > 0 and layout.height > 0
    assert (layout.width, layout.height) == svg_size(layout.svg)
