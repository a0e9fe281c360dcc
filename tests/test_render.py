"""DOT text of ranking trees and its export to SVG / PNG / PDF with both engines."""

import html
import os
import re
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from rankviz import OrdinalTree, RankingTree
from rankviz.viz import graphviz as render_module
from rankviz.ordinal.levels import median_level, mode_level
from rankviz.viz.dot import drawn_leaves, fitting_depth, node_id, tree_to_dot
from rankviz.viz.dot.common import LEVEL_PALETTE, PALETTE, text_color
from rankviz.viz.graphviz import EXPORT_FORMATS, RenderError, available_engines, render
from rankviz.ordinal.synthetic import make_ordinal_square

X = pd.DataFrame({"A1": ["a", "b", "c", "c", "a", "b", "c", "a"], "A2": [1, 7, 3, 4, 9, 2, 5, 6.0]})
Y = np.array([[1, 3, 2, 4], [2, 1, 4, 3], [4, 3, 2, 1], [4, 3, 1, 2],
              [1, 2, 3, 4], [2, 1, 3, 4], [4, 2, 3, 1], [1, 3, 2, 4]])
LABELS = ["a1", "a2", "a3", "a4"]
NASTY = 'a<b & "c"'
NASTY_ESCAPED = "a&lt;b &amp; &quot;c&quot;"

ENGINES = [
    "pure",
    pytest.param("dot", marks=pytest.mark.skipif(
        shutil.which("dot") is None,
        reason="Graphviz 'dot' not on PATH (apt-get install graphviz)")),
]
FORMATS = ["svg", "png", "pdf"]


@pytest.fixture(scope="module")
def tree():
    # min_samples_leaf=1 pinned: a deep tree with numeric and nominal tests.
    return RankingTree(gamma=1.0, min_samples_leaf=1).fit(X, pd.DataFrame(Y, columns=LABELS)).tree_


@pytest.fixture(scope="module")
def dot_text(tree):
    return tree_to_dot(tree)


@pytest.fixture(scope="module")
def nasty_tree():
    """Every kind of user text (feature, category, label) contains HTML specials."""
    X2 = X.rename(columns={"A1": NASTY}).replace({"c": NASTY})
    labels = [NASTY, "a2", "a3", "a4"]
    return RankingTree(gamma=1.0, min_samples_leaf=1).fit(X2, pd.DataFrame(Y, columns=labels)).tree_


def node_labels(dot):
    """node id -> HTML-like label text, read from the node declarations."""
    found = re.findall(r"^  (node\d+) \[id=\"\1\", label=<(.*)>, fillcolor=", dot, flags=re.M)
    return dict(found)


def parse_label(label):
    """(head lines, n, S text) of one node label."""
    heads = re.findall(r"<B>(.*?)</B>", label)
    n, s = re.search(r"n = (\d+), S = (\S+?)</FONT>", label).groups()
    return heads, int(n), s


def node_line(dot, node):
    (line,) = [ln for ln in dot.splitlines() if ln.startswith(f"  {node_id(node)} [")]
    return line


# -- DOT ------------------------------------------------------------------------

def test_dot_shows_tests_rankings_and_counts(tree, dot_text):
    labels = node_labels(dot_text)
    assert len(labels) == tree.node_count == 13

    heads, n, s = parse_label(labels["node0"])
    assert heads == ["A1 = c"] and n == 8 and s == "-0.093"
    heads, n, s = parse_label(labels["node1"])
    assert heads == ["A2 &lt;= 4.5"] and n == 3 and s == "0.667"
    heads, n, s = parse_label(labels["node4"])  # a leaf
    assert heads == ["a4 &gt; a2 &gt; a3 &gt; a1"] and n == 1 and s == "1.000"

    for node in range(tree.node_count):
        heads, n, s = parse_label(labels[node_id(node)])
        expected = tree.ranking_text(node) if tree.is_leaf[node] else tree.test_text(node)
        assert " ".join(heads) == html.escape(expected)
        assert n == tree.n_samples[node]
        assert s == f"{tree.similarity[node]:.3f}"


def test_dot_structure(tree, dot_text):
    assert isinstance(dot_text, str)
    assert dot_text.startswith("digraph") and dot_text.rstrip().endswith("}")
    assert "rankdir=TB" in dot_text
    assert 'node [shape=box, style="rounded,filled", fontname="Helvetica"' in dot_text
    for node in range(tree.node_count):
        # declared once, with its own SVG id, and referred to only by edges otherwise
        assert len(re.findall(rf'\bid="{node_id(node)}"', dot_text)) == 1
        assert len(re.findall(rf"^  {node_id(node)} \[", dot_text, flags=re.M)) == 1
    assert f'id="node{tree.node_count}"' not in dot_text
    for node in np.flatnonzero(~tree.is_leaf):
        left, right = tree.children_left[node], tree.children_right[node]
        assert f'  node{node} -> node{left} [id="edge{left}", label="yes"];' in dot_text
        assert f'  node{node} -> node{right} [id="edge{right}", label="no"];' in dot_text
    assert dot_text.count(" -> ") == 2 * (tree.node_count - tree.n_leaves)


def test_legend_explains_similarity_and_n(tree, dot_text):
    (legend,) = [ln for ln in dot_text.splitlines() if ln.startswith("  legend [")]
    assert "mean pairwise Spearman correlation" == tree.similarity_label
    assert tree.similarity_label in legend
    assert "training examples" in legend
    for colour in PALETTE:  # the colour bar
        assert f'BGCOLOR="{colour}"' in legend
    assert ">-1<" in legend and ">0<" in legend and ">1<" in legend


def test_fill_follows_similarity(tree, dot_text):
    for node in range(tree.node_count):
        fill = re.search(r'fillcolor="(#[0-9a-f]{6})"', node_line(dot_text, node)).group(1)
        step = round((np.clip(tree.similarity[node], -1, 1) + 1) / 2 * (len(PALETTE) - 1))
        assert fill == PALETTE[step]
    # Most homogeneous = darkest, and its text switches to white to stay readable.
    assert 'fillcolor="#2171b5", fontcolor="#ffffff"' in node_line(dot_text, 4)
    assert 'fontcolor="#000000"' in node_line(dot_text, 0)


def test_tooltips(tree, dot_text):
    assert 'tooltip="#0: split A1 = c with S_split = 0.600"' in node_line(dot_text, 0)
    assert 'tooltip="#4 (leaf): a single example"' in node_line(dot_text, 4)
    # With a small gamma the root stops: (1 - 0.093) >= 0.5 * (1 + 0.6), rule (6).
    stump = RankingTree(gamma=0.5, min_samples_leaf=1).fit(X, pd.DataFrame(Y, columns=LABELS)).tree_
    assert stump.node_count == 1
    assert ('tooltip="#0 (leaf): best split A1 = c with S_split = 0.600 rejected by rule (6)"'
            in tree_to_dot(stump))


@pytest.mark.parametrize("highlight", [2, "node2", np.int64(2)])
def test_highlight_only_on_that_node(tree, highlight):
    dot = tree_to_dot(tree, highlight=highlight)
    assert dot.count("penwidth=3") == 1
    assert dot.count('color="#d62728"') == 1
    line = node_line(dot, 2)
    assert "penwidth=3" in line and 'color="#d62728"' in line
    assert "penwidth=3" not in tree_to_dot(tree)


@pytest.mark.parametrize("bad", [13, -1, "node99", "root", 1.5, True])
def test_highlight_must_be_a_node(tree, bad):
    with pytest.raises(ValueError, match="highlight"):
        tree_to_dot(tree, highlight=bad)


def test_user_text_is_escaped(nasty_tree):
    dot = tree_to_dot(nasty_tree, title=NASTY)
    assert NASTY not in dot and "a<b" not in dot
    assert f"label=<<B>{NASTY_ESCAPED}</B>>;" in dot                      # title
    assert f"<B>{NASTY_ESCAPED} = {NASTY_ESCAPED}</B>" in dot              # feature = category
    assert re.search(rf"<B>[^<]*{re.escape(NASTY_ESCAPED)}[^<]*</B>", dot.split("legend")[0])  # label
    assert f'tooltip="#0: split {NASTY_ESCAPED} = {NASTY_ESCAPED}' in dot


def test_max_labels(tree):
    dot = tree_to_dot(tree, max_labels=2)
    heads, _, _ = parse_label(node_labels(dot)["node4"])
    assert heads == ["a4 &gt; a2 &gt; …"]
    assert parse_label(node_labels(tree_to_dot(tree, max_labels=4))["node4"])[0] == [
        "a4 &gt; a2 &gt; a3 &gt; a1"]
    with pytest.raises(ValueError, match="max_labels"):
        tree_to_dot(tree, max_labels=0)


def test_long_rankings_wrap():
    labels = [f"label_{j}" for j in range(1, 11)]
    Y10 = np.array([np.roll(np.arange(1, 11), k) for k in range(4)])
    t = RankingTree().fit(pd.DataFrame({"x": [0.0, 0.0, 0.0, 0.0]}), pd.DataFrame(Y10, columns=labels)).tree_
    heads, n, _ = parse_label(node_labels(tree_to_dot(t))["node0"])
    assert len(heads) > 1 and n == 4
    assert " ".join(heads) == html.escape(t.ranking_text(0))
    assert all(head.startswith("&gt; ") for head in heads[1:])


def test_single_leaf_tree():
    t = RankingTree().fit(X.iloc[:1], pd.DataFrame(Y[:1], columns=LABELS)).tree_
    assert t.node_count == 1
    dot = tree_to_dot(t, highlight=0, title="one leaf")
    heads, n, s = parse_label(node_labels(dot)["node0"])
    assert heads == ["a1 &gt; a3 &gt; a2 &gt; a4"] and n == 1 and s == "1.000"
    assert " -> " not in dot
    svg = render(dot, "svg", "pure")
    assert ET.fromstring(svg).tag.endswith("svg")


# -- ordinal trees --------------------------------------------------------------

CELL = re.compile(
    r'<TD BGCOLOR="(#[0-9a-f]{6})" WIDTH="\d+" HEIGHT="\d+"( BORDER="2" COLOR="#000000")?>'
    r'<FONT POINT-SIZE="9" COLOR="(#[0-9a-f]{6})">(<B>)?([^<]*?)(?:</B>)?</FONT></TD>')


def parse_ordinal_label(label):
    """(head, leaf head in large type?, cells, n, S text) of an ordinal node label.

    Each cell is a dict: fill, text colour, count, boxed (border) and bold.
    """
    head = re.match(r'<TABLE[^>]*><TR><TD>(<FONT POINT-SIZE="14">)?<B>(.*?)</B>', label)
    cells = [dict(fill=fill, font=font, count=float(text), boxed=bool(boxed), bold=bool(bold))
             for fill, boxed, font, bold, text in CELL.findall(label)]
    n, s = re.search(r"n = (\d+), S = (\S+?)</FONT>", label).groups()
    return head.group(2), bool(head.group(1)), cells, int(n), s


def legend_line(dot):
    (legend,) = [ln for ln in dot.splitlines() if ln.startswith("  legend [")]
    return legend


@pytest.fixture(scope="module", params=["ranking_impurity", "gini"])
def ordinal_tree(request):
    X_sq, y_sq = make_ordinal_square(500, seed=0)
    return OrdinalTree(request.param, max_depth=3).fit(X_sq, y_sq).tree_


# Levels 1..4 named; the root holds 5 poor, 0 fair, 4 good, 3 very good: its
# median (row 6 of 12) is "good", its mode "poor".
LEVELS = ["poor", "fair", "good", "very good"]
Y_NAMED = np.array(["poor"] * 5 + ["good"] * 4 + ["very good"] * 3)
X_NAMED = np.arange(12.0)[:, None]


def named_tree(prediction, max_depth=1, levels=LEVELS, y=Y_NAMED):
    return OrdinalTree(max_depth=max_depth, prediction=prediction).set_params(levels=levels).fit(
        X_NAMED, y).tree_


def test_ordinal_nodes_show_level_and_counts(ordinal_tree):
    tree = ordinal_tree
    assert tree.is_ordinal and tree.node_count == 15
    dot = tree_to_dot(tree, similarity_range=(0, 1))
    labels = node_labels(dot)
    assert len(labels) == tree.node_count
    predicted = tree.predicted_level
    for node in range(tree.node_count):
        head, large, cells, n, s = parse_ordinal_label(labels[node_id(node)])
        if tree.is_leaf[node]:
            assert large and head == f"rank {tree.class_names[predicted[node]]}"
        else:
            assert not large and head == html.escape(tree.test_text(node))
        # One cell per level, lowest first, holding the node's rows at that level.
        assert [c["count"] for c in cells] == tree.class_counts[node].tolist()
        assert n == tree.n_samples[node] == sum(c["count"] for c in cells)
        assert s == f"{tree.similarity[node]:.3f}"
        # Exactly the predicted level's cell is boxed and bold.
        assert [k for k, c in enumerate(cells) if c["boxed"]] == [predicted[node]]
        assert [k for k, c in enumerate(cells) if c["bold"]] == [predicted[node]]
    # The trivial one-label "ranking" of an ordinal tree (its target name) is not drawn.
    assert "<B>y</B>" not in dot


def test_ordinal_leaves_of_the_synthetic_tree(ordinal_tree):
    """Spot checks against the counts printed by hand (seed 0, depth 3)."""
    labels = node_labels(tree_to_dot(ordinal_tree, similarity_range=(0, 1)))
    head, _, cells, n, _ = parse_ordinal_label(labels["node0"])
    assert [c["count"] for c in cells] == [62, 170, 123, 92, 53] and n == 500
    assert [c["boxed"] for c in cells] == [False, False, True, False, False]  # median: rank 3
    leaves = {parse_ordinal_label(labels[node_id(i)])[0] for i in np.flatnonzero(ordinal_tree.is_leaf)}
    assert leaves <= {f"rank {k}" for k in range(1, 6)} and {"rank 1", "rank 5"} <= leaves


def test_ordinal_cell_shading(ordinal_tree):
    labels = node_labels(tree_to_dot(ordinal_tree, similarity_range=(0, 1)))
    top = len(LEVEL_PALETTE) - 1
    for node in range(ordinal_tree.node_count):
        _, _, cells, n, _ = parse_ordinal_label(labels[node_id(node)])
        for c in cells:
            step = LEVEL_PALETTE.index(c["fill"])
            if c["count"] == 0:
                assert step == 0  # empty level: white
            else:
                assert step == max(1, round(c["count"] / n * top))
            assert c["font"] == text_color(c["fill"])
        # More rows, never a lighter cell.
        by_count = sorted(cells, key=lambda c: c["count"])
        steps = [LEVEL_PALETTE.index(c["fill"]) for c in by_count]
        assert steps == sorted(steps)
    # A pure node is darkest, with white text on it.
    pure = '<TD BGCOLOR="#525252"'
    dot = tree_to_dot(named_tree("median"))
    assert pure in node_line(dot, 1) and 'COLOR="#ffffff"><B>5</B>' in node_line(dot, 1)


def test_ordinal_legend(ordinal_tree):
    dot = tree_to_dot(ordinal_tree, similarity_range=(0, 1))
    legend = legend_line(dot)
    assert html.escape(ordinal_tree.similarity_label) in legend  # S as for ranking trees
    assert "cells: rows at levels 1..5, low to high" in legend
    assert "boxed: <B>median</B> level" in legend
    assert "ranking, best first" not in legend
    assert ">0<" in legend and ">0.5<" in legend and ">1<" in legend  # the range passed
    for colour in PALETTE:
        assert f'BGCOLOR="{colour}"' in legend
    # Node fill still follows S on the caller's range.
    for node in range(ordinal_tree.node_count):
        fill = re.search(r'fillcolor="(#[0-9a-f]{6})"', node_line(dot, node)).group(1)
        step = round(np.clip(ordinal_tree.similarity[node], 0, 1) * (len(PALETTE) - 1))
        assert fill == PALETTE[step]


def test_ordinal_tooltips(ordinal_tree):
    dot = tree_to_dot(ordinal_tree)
    tree = ordinal_tree
    for node in range(tree.node_count):
        tooltip = re.search(r'tooltip="([^"]*)"', node_line(dot, node)).group(1)
        if tree.is_leaf[node]:
            level = tree.class_names[tree.predicted_level[node]]
            assert tooltip.startswith(f"#{node} (leaf): predicts rank {level} "
                                      f"(median of {tree.n_samples[node]} rows); ")
        else:
            assert tooltip.startswith(f"#{node}: split ") and "predicts" not in tooltip
    stump = named_tree("median", max_depth=0)
    assert ('tooltip="#0 (leaf): predicts good (median of 12 rows); '
            'no split searched or possible (size or depth limit)"') in tree_to_dot(stump)
    pure = named_tree("mode")
    assert 'tooltip="#1 (leaf): predicts poor (mode of 5 rows); all rows at one level"' in (
        tree_to_dot(pure))
    one = OrdinalTree(max_depth=0).set_params(levels=LEVELS).fit(X_NAMED[:1], Y_NAMED[:1]).tree_
    assert "predicts poor (median of 1 row); a single example" in tree_to_dot(one)


def test_ordinal_median_and_mode_differ_where_the_rules_do():
    median, mode = named_tree("median", max_depth=0), named_tree("mode", max_depth=0)
    assert median.class_counts[0].tolist() == [5, 0, 4, 3]
    dots = {"median": tree_to_dot(median), "mode": tree_to_dot(mode)}
    for rule, level, k in (("median", "good", 2), ("mode", "poor", 0)):
        head, large, cells, n, _ = parse_ordinal_label(node_labels(dots[rule])["node0"])
        assert large and head == level and n == 12
        assert [c["boxed"] for c in cells] == [i == k for i in range(4)]
        assert f"boxed: <B>{rule}</B> level" in legend_line(dots[rule])
        assert f"predicts {level} ({rule} of 12 rows)" in dots[rule]

    # On the synthetic tree: the two rules' drawings differ exactly at the nodes
    # where the median and the mode of the counts differ.
    X_sq, y_sq = make_ordinal_square(500, seed=0)
    tree = OrdinalTree("gini", max_depth=3).fit(X_sq, y_sq).tree_
    as_mode = replace(tree, prediction="mode")
    differ = median_level(tree.class_counts) != mode_level(tree.class_counts)
    assert differ.any() and not differ.all()
    med_labels, mode_labels = node_labels(tree_to_dot(tree)), node_labels(tree_to_dot(as_mode))
    for node in range(tree.node_count):
        same = med_labels[node_id(node)] == mode_labels[node_id(node)]
        assert same == (not differ[node])
        boxed = [c["boxed"] for c in parse_ordinal_label(mode_labels[node_id(node)])[2]]
        assert boxed.index(True) == mode_level(tree.class_counts[node])


def test_ordinal_named_levels_are_escaped():
    levels = ["low", NASTY, "high"]
    y = np.array(["low"] * 3 + [NASTY] * 5 + ["high"] * 4)
    dot = tree_to_dot(named_tree("median", levels=levels, y=y), title=NASTY)
    assert NASTY not in dot and "a<b" not in dot
    labels = node_labels(dot)
    assert parse_ordinal_label(labels["node0"])[0] == "x1 &lt;= 7.5"
    heads = {parse_ordinal_label(labels[n])[0] for n in ("node1", "node2")}
    assert heads == {NASTY_ESCAPED, "high"}  # named levels: no "rank" before them
    assert "cells: rows at levels low..high, low to high" in legend_line(dot)
    assert f"predicts {NASTY_ESCAPED} (median of 8 rows)" in dot


def test_ordinal_part_grown_and_ids():
    tree = named_tree("median")
    sub, _ = tree.keep_splits([])  # the root's split postponed
    dot = tree_to_dot(sub, show_ids=True, highlight=0)
    assert ('tooltip="#0: predicts good (median of 12 rows); will split x1 &lt;= 4.5 with '
            "S_split = ") in dot
    head, large, cells, n, _ = parse_ordinal_label(node_labels(dot)["node0"])
    assert head == "good" and large and n == 12
    assert "#0 · n = 12" in dot and "penwidth=3" in node_line(dot, 0)


def test_ordinal_text_is_ascii(ordinal_tree):
    """All the text the library writes is ASCII (graphviz-pure sizes other glyphs as spaces)."""
    dot = tree_to_dot(ordinal_tree, title="Tree A", similarity_range=(0, 1))
    assert dot.replace(html.escape(ordinal_tree.similarity_label), "").isascii()


def test_ranking_trees_have_no_level_cells(dot_text):
    assert "HEIGHT=\"13\"" not in dot_text and "cells:" not in dot_text and "predicts" not in dot_text


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_render_ordinal_tree(ordinal_tree, engine, fmt):
    dot = tree_to_dot(ordinal_tree, title="ordinal", similarity_range=(0, 1))
    data = render(dot, fmt, engine=engine)
    if fmt != "svg":
        check_png_or_pdf = {"png": lambda d: d[:8] == b"\x89PNG\r\n\x1a\n",
                            "pdf": lambda d: d.startswith(b"%PDF")}[fmt]
        assert check_png_or_pdf(data)
        return
    root = ET.fromstring(data)
    texts = [el.text or "" for el in root.iter("{http://www.w3.org/2000/svg}text")]
    leaves = np.flatnonzero(ordinal_tree.is_leaf)
    for leaf in leaves:
        assert f"rank {ordinal_tree.class_names[ordinal_tree.predicted_level[leaf]]}" in texts
    assert "170" in texts and "123" in texts  # the root's cells
    assert "cells: rows at levels 1..5, low to high" in texts
    assert 'id="node14"' in data.decode("utf-8")


# -- rendering ------------------------------------------------------------------

def check_file(data, fmt):
    assert isinstance(data, bytes) and data
    if fmt == "svg":
        root = ET.fromstring(data)  # well-formed XML
        assert root.tag in ("svg", "{http://www.w3.org/2000/svg}svg")
        text = data.decode("utf-8")
        assert "a4 &gt; a2 &gt; a3 &gt; a1" in text  # a leaf's ranking, with its label names
        assert 'id="node0"' in text and 'id="node12"' in text  # ids usable by the app
    elif fmt == "png":
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        length, chunk, width, height = struct.unpack(">I4sII", data[8:24])
        assert chunk == b"IHDR" and length == 13
        assert width > 50 and height > 50
    elif fmt == "pdf":
        assert data.startswith(b"%PDF")
        assert data.rstrip().endswith(b"%%EOF")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_render_valid_files(dot_text, engine, fmt):
    check_file(render(dot_text, fmt, engine=engine), fmt)


@pytest.mark.parametrize("engine", ENGINES)
def test_render_escaped_names(nasty_tree, engine):
    svg = render(tree_to_dot(nasty_tree, title=NASTY), "svg", engine=engine)
    root = ET.fromstring(svg)
    texts = [el.text or "" for el in root.iter("{http://www.w3.org/2000/svg}text")]
    assert NASTY in texts  # the title, drawn as written
    assert any(NASTY in t and "=" in t for t in texts)  # the test on the nasty feature


@pytest.mark.parametrize("engine", ENGINES)
def test_png_dpi(dot_text, engine):
    small = render(dot_text, "png", engine=engine, dpi=72)
    large = render(dot_text, "png", engine=engine, dpi=144)
    w_small = struct.unpack(">I", small[16:20])[0]
    w_large = struct.unpack(">I", large[16:20])[0]
    assert w_large == pytest.approx(2 * w_small, rel=0.05)


def test_render_auto_and_dot_format(dot_text):
    assert render(dot_text, "dot") == dot_text.encode("utf-8")
    check_file(render(dot_text, "svg"), "svg")


def test_available_engines():
    engines = available_engines()
    assert "pure" in engines
    assert ("dot" in engines) == (shutil.which("dot") is not None)
    assert engines == [e for e in ("dot", "pure") if e in engines]  # auto prefers "dot"


def test_export_formats():
    assert set(EXPORT_FORMATS) == {"svg", "png", "pdf", "dot"}
    assert EXPORT_FORMATS["svg"] == ("image/svg+xml", ".svg")
    assert EXPORT_FORMATS["png"] == ("image/png", ".png")
    assert EXPORT_FORMATS["pdf"] == ("application/pdf", ".pdf")
    assert all(ext.startswith(".") for _, ext in EXPORT_FORMATS.values())


# -- errors ---------------------------------------------------------------------

def test_unknown_format_or_engine(dot_text):
    assert issubclass(RenderError, RuntimeError)
    with pytest.raises(RenderError, match="unknown format 'gif'"):
        render(dot_text, "gif")
    with pytest.raises(RenderError, match="unknown engine 'neato'"):
        render(dot_text, "svg", engine="neato")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_invalid_dot(engine, fmt):
    with pytest.raises(RenderError) as info:
        render("digraph { a -> ", fmt, engine=engine)
    message = str(info.value)
    assert f"engine '{engine}'" in message
    assert "syntax error" in message
    assert "\n" not in message
    assert not isinstance(info.value.__cause__, subprocess.CalledProcessError)


def test_timeout_is_a_render_error(dot_text, monkeypatch):
    def too_slow(cmd, **kwargs):
        raise subprocess.TimeoutExpired(cmd, kwargs.get("timeout"))

    monkeypatch.setattr(render_module.subprocess, "run", too_slow)
    with pytest.raises(RenderError, match="within 5 s"):
        render(dot_text, "svg", engine="pure", timeout=5)


def test_missing_engines(dot_text, monkeypatch):
    monkeypatch.setattr(render_module, "_pure_binary", lambda: None)
    monkeypatch.setattr(render_module, "_dot_binary", lambda: None)
    assert available_engines() == []
    with pytest.raises(RenderError, match="no layout engine"):
        render(dot_text, "svg")
    with pytest.raises(RenderError, match="'dot' is not available"):
        render(dot_text, "png", engine="dot")
    assert render(dot_text, "dot") == dot_text.encode()  # needs no engine


def test_library_does_not_import_streamlit(repo_root):
    code = "import sys, rankviz.viz.graphviz; sys.exit('streamlit' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], cwd=repo_root,
                            env={**os.environ, "PYTHONPATH": str(repo_root)})
    assert result.returncode == 0


def test_direction_and_legend_options(tree):
    sideways = tree_to_dot(tree, direction="LR", legend=False)
    assert "rankdir=LR" in sideways and "ranksep=0.3" in sideways
    assert "legend [" not in sideways and "legend [" in tree_to_dot(tree)
    # The nodes and edges are the same drawing, only laid out otherwise.
    nodes = [line for line in tree_to_dot(tree).split("\n") if line.startswith("  node")]
    assert nodes == [line for line in sideways.split("\n") if line.startswith("  node")]
    with pytest.raises(ValueError, match="direction"):
        tree_to_dot(tree, direction="BT")


# -- drawing to a depth (large trees) -------------------------------------------------

def drawn_nodes(dot):
    return sorted(int(n) for n in re.findall(r"^  node(\d+) \[", dot, flags=re.M))


def edges(dot):
    return set(re.findall(r"^  node(\d+) -> node(\d+) ", dot, flags=re.M))


def below(tree, node):
    """Nodes strictly below ``node``, by walking the child arrays."""
    found, stack = [], [int(tree.children_left[node]), int(tree.children_right[node])]
    while stack:
        child = stack.pop()
        if child < 0:
            continue
        found.append(child)
        stack += [int(tree.children_left[child]), int(tree.children_right[child])]
    return found


@pytest.fixture(scope="module")
def big_tree():
    from rankviz import load_sample
    data = load_sample("metalearning")
    return RankingTree(gamma=1.0, min_samples_leaf=1).fit(
        data.X, data.rankings).tree_


@pytest.mark.parametrize("depth", [0, 1, 2, 4, 7])
def test_cut_tree_has_exactly_the_nodes_up_to_the_depth(big_tree, depth):
    tree = big_tree
    dot = tree_to_dot(tree, max_depth=depth)
    expected = np.flatnonzero(tree.depth <= depth)
    assert drawn_nodes(dot) == list(expected)
    # Edges join drawn nodes only: every drawn non-root node hangs from its parent.
    assert edges(dot) == {(str(p), str(c)) for p in expected if not tree.is_leaf[p] and tree.depth[p] < depth
                          for c in (tree.children_left[p], tree.children_right[p])}
    labels = node_labels(dot)
    cut = [n for n in expected if tree.depth[n] == depth and not tree.is_leaf[n]]
    assert dot.count("<I>+ ") == len(cut) > 0
    for node in cut:
        hidden = below(tree, node)
        leaves = sum(bool(tree.is_leaf[h]) for h in hidden)
        assert f"<I>+ {len(hidden)} nodes, {leaves} {'leaf' if leaves == 1 else 'leaves'}</I>" in labels[node_id(node)]
        line = node_line(dot, node)
        assert 'style="rounded,filled,dashed"' in line
        assert f"{len(hidden)} nodes, {leaves} {'leaf' if leaves == 1 else 'leaves'} not drawn" in line  # the tooltip
    # Nodes above the cut and leaves at it are drawn as usual.
    for node in expected:
        if node not in cut:
            assert "dashed" not in node_line(dot, node)
    assert f"dashed: subtree not drawn (deeper than {depth})" in dot  # the legend says so
    assert drawn_leaves(tree, depth) == len(cut) + int(np.sum(tree.is_leaf & (tree.depth <= depth)))


def test_cut_at_or_below_the_tree_depth_draws_everything(big_tree, tree, dot_text):
    assert tree_to_dot(tree, max_depth=tree.max_depth) == dot_text
    assert tree_to_dot(tree, max_depth=tree.max_depth + 5) == dot_text
    assert tree_to_dot(tree, max_depth=None) == dot_text
    full = tree_to_dot(big_tree)
    assert "dashed" not in full and drawn_nodes(full) == list(range(big_tree.node_count))
    assert drawn_leaves(big_tree) == big_tree.n_leaves == drawn_leaves(big_tree, big_tree.max_depth)


def test_cut_highlight_moves_to_the_drawn_ancestor(big_tree):
    deep = int(np.flatnonzero(big_tree.depth == big_tree.max_depth)[0])
    dot = tree_to_dot(big_tree, highlight=deep, max_depth=2)
    marked = [n for n in drawn_nodes(dot) if "penwidth=3" in node_line(dot, n)]
    assert len(marked) == 1 and big_tree.depth[marked[0]] == 2 and deep in below(big_tree, marked[0])


@pytest.mark.parametrize("bad", [-1, 1.5, "2", True])
def test_cut_depth_must_be_a_depth(tree, bad):
    with pytest.raises(ValueError, match="max_depth"):
        tree_to_dot(tree, max_depth=bad)


def test_fitting_depth_is_the_deepest_legible_cut(big_tree, tree):
    for limit in (2, 10, 30, 60):
        depth = fitting_depth(big_tree, limit)
        assert drawn_leaves(big_tree, depth) <= limit
        assert drawn_leaves(big_tree, depth + 1) > limit
    assert fitting_depth(tree, 100) == tree.max_depth  # fits whole
    assert fitting_depth(big_tree, 1) == 1  # never below the root's children


def test_cut_ordinal_and_mallows_trees():
    from rankviz import load_sample
    X_train, y_train = make_ordinal_square(2000, seed=1)
    ordinal = OrdinalTree("ranking_impurity", max_depth=None).fit(X_train, y_train).tree_
    dot = tree_to_dot(ordinal, max_depth=3)
    assert drawn_nodes(dot) == list(np.flatnonzero(ordinal.depth <= 3))
    assert " nodes, " in dot and "cells: rows at levels" in dot
    data = load_sample("metalearning")
    lrt = RankingTree(criterion="mallows", gamma=np.inf, min_samples_leaf=2).fit(
        data.X, data.rankings).tree_
    dot = tree_to_dot(lrt, max_depth=2)
    assert drawn_nodes(dot) == list(np.flatnonzero(lrt.depth <= 2))
    assert "dashed: subtree not drawn (deeper than 2)" in dot and "reliability" in dot


@pytest.mark.parametrize("engine", ENGINES)
def test_render_cut_tree(big_tree, engine):
    svg = render(tree_to_dot(big_tree, max_depth=3, show_ids=True), "svg", engine=engine)
    root = ET.fromstring(svg)
    ids = {el.get("id") for el in root.iter() if el.get("id")}
    shown = np.flatnonzero(big_tree.depth <= 3)
    assert {node_id(n) for n in shown} <= ids
    assert node_id(int(np.flatnonzero(big_tree.depth == 4)[0])) not in ids
    assert b" nodes, " in svg
