"""
A tree figure for a paper
=========================

A tree drawn for a paper must fit the text width and stay legible at that
width. :func:`rankviz.viz.export.export_tree` makes the figure in one call:
by default a page wide (16 cm) at most, cutting the deepest levels when the
text would otherwise shrink below 60 % of its size; or at an explicit width
in centimetres or inches, as SVG, PNG at a stated resolution, or PDF.

This example draws the ranking tree of Rebelo, Soares & Costa (2008) on the
``metalearning`` sample in a few such ways.
"""

# %%
# Short names
# -----------
# Names written for code (``log10_instances_per_attribute``,
# ``gradient_boosting``) make wide boxes. Renaming the columns and labels
# before fitting gives the figure short names; the tree is the same.

import struct
from pathlib import Path

import pandas as pd

from rankviz import RankingTree, load_sample
from rankviz.viz.export import PAGE_WIDTH_CM, export_tree, figure_size, fit_to_page

data = load_sample("metalearning")
short_features = {
    "log10_n_instances": "log n", "log10_n_attributes": "log d", "log10_instances_per_attribute": "log n/d",
    "n_classes": "classes", "class_entropy": "entropy", "majority_class_prop": "majority",
    "minority_class_prop": "minority", "prop_symbolic_attributes": "nominal", "prop_missing_values": "missing",
    "prop_instances_with_missing": "rows missing", "size": "size", "task_type": "task",
    "attribute_types": "attributes",
}
short_labels = ["SVM-L", "SVM-R", "LogReg", "kNN", "DT", "RF", "ET", "GB", "MLP", "NB"]
X = data.X.rename(columns=short_features)
tree = RankingTree(gamma=0.995, min_samples_leaf=10).fit(X, pd.DataFrame(data.Y, columns=short_labels))
print(f"{tree.tree_.n_leaves} leaves, depth {tree.tree_.max_depth}")

# %%
# The default: a page wide
# ------------------------
# ``export_tree(tree, "svg")`` keeps a drawing narrower than a page at its
# natural size and scales a wider one to the page width,
# :data:`~rankviz.viz.export.PAGE_WIDTH_CM` = 16 cm. Twelve leaves of ten
# labels do not fit 16 cm legibly, so
# :func:`~rankviz.viz.export.fit_to_page` cuts the deepest levels: a cut
# node is drawn dashed, with the number of nodes and leaves below it.

_, width, depth = fit_to_page(tree, show_ids=True)
natural = figure_size(export_tree(tree, "dot", width=None).decode("utf-8"))[0]
print(f"whole tree: {natural * 2.54:.1f} cm wide; page: {PAGE_WIDTH_CM:g} cm; "
      f"drawn to depth {depth} at {width * 2.54:.1f} cm")
Path("page_default_tree.svg").write_bytes(export_tree(tree, "svg", title="Ranking tree, default page figure"))

# %%
# A chosen depth, left to right, with rank strips
# -----------------------------------------------
# Options of the drawing, all passed to ``export_tree``:
#
# * ``max_depth=2`` draws two levels of splits (here the whole left
#   subtree and the first split on the right);
# * ``direction="LR"`` lays the tree out from left to right, so the leaves'
#   rankings stack vertically;
# * ``max_labels=3`` writes the first three labels of each leaf's ranking;
# * ``rank_strips=True`` adds to each leaf one cell per label, in label
#   order, shaded by the label's mean rank (darkest = first), so leaves
#   compare at a glance without reading all ten labels;
# * ``title`` puts a title above the figure.
#
# ``width=16, unit="cm"`` sets the figure's width exactly (the drawing is
# scaled up or down). As PNG, ``dpi=300`` gives 16 cm × 300 / 2.54 ≈ 1890
# pixels across, and the resolution is written into the file, so a word
# processor or LaTeX places it at 16 cm.

options = dict(max_depth=2, direction="LR", max_labels=3, rank_strips=True,
               title="Ranking tree of the metalearning tasks (first two levels)")
png = export_tree(tree, "png", width=16, unit="cm", dpi=300, **options)
Path("paper_16cm_tree.png").write_bytes(png)


def png_size_and_dpi(data: bytes) -> tuple[int, int, float]:
    """Width and height in pixels (IHDR chunk) and resolution in dots per inch (pHYs chunk) of a PNG."""
    width, height = struct.unpack(">II", data[16:24])
    at = data.index(b"pHYs")
    per_metre, _, unit = struct.unpack(">IIB", data[at + 4:at + 13])
    return width, height, per_metre * 0.0254 if unit == 1 else float("nan")


pixels_wide, pixels_high, dpi = png_size_and_dpi(png)
print(f"PNG: {pixels_wide} x {pixels_high} px at {dpi:.0f} dpi = "
      f"{pixels_wide / dpi * 2.54:.2f} x {pixels_high / dpi * 2.54:.2f} cm")

# %%
# The same figure as SVG, which scales without loss (PDF works the same way,
# ``export_tree(tree, "pdf", ...)``):

Path("paper_16cm_tree.svg").write_bytes(export_tree(tree, "svg", width=16, unit="cm", **options))

# %%
# One column of a two-column paper
# --------------------------------
# About 8.5 cm. Here only the small left subtree is drawn in full:
# ``collapsed=[2]`` folds node #2 (its subtree is summarised in its box).
# The legend is left out (a caption explains the colours), node ids too, and
# each leaf names the top two labels. ``figure_size`` tells how much the
# drawing is scaled: here the 12-pt text prints at about 6.5 pt, as small as
# print allows; fold more nodes or draw fewer levels if it gets smaller.

column = dict(collapsed=[2], legend=False, max_labels=2, rank_strips=True, show_ids=False)
natural_width = figure_size(export_tree(tree, "dot", **column).decode("utf-8"))[0]
print(f"natural width {natural_width * 2.54:.1f} cm: scaled by {8.5 / (natural_width * 2.54):.2f} to 8.5 cm")
Path("paper_column_tree.svg").write_bytes(export_tree(tree, "svg", width=8.5, unit="cm", **column))
