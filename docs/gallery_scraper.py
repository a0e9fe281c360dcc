"""The gallery's image scraper: the figure files an example writes become part of its page.

An example saves what it shows as a user would: ``export_tree(tree, "svg")`` or
``"html"`` (the explorable view) to a file, a plotly figure with
``fig.write_html(path, include_plotlyjs="directory")``. After each block the
files it wrote in its folder are moved out of the source tree: SVG and PNG
into the gallery's images (shown with ``.. image::``), HTML into the site's
``gallery/`` folder (shown in an iframe, with plotly.js from the site itself).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import plotly

_SHOWN = (".svg", ".png", ".html")
_DOCS = Path(__file__).resolve().parent


def _written(folder: Path) -> list[Path]:
    return sorted((p for p in folder.iterdir() if p.suffix in _SHOWN and p.is_file()),
                  key=lambda p: p.stat().st_mtime_ns)


def file_scraper(block, block_vars, gallery_conf):
    """sphinx-gallery scraper: the rST that shows the files written by this block."""
    source = Path(block_vars["src_file"])
    example = source.stem
    folder = source.parent
    images = iter(block_vars["image_path_iterator"])
    extra = _DOCS / "_gallery_extra" / "gallery"
    extra.mkdir(parents=True, exist_ok=True)
    rst = []
    for path in _written(folder):
        if path.name == "plotly.min.js":
            path.unlink()
            continue
        if path.suffix == ".html":
            target = extra / f"{example}_{path.name}"
            shutil.move(path, target)
            if not (extra / "plotly.min.js").exists():
                shutil.copy(Path(plotly.__file__).parent / "package_data" / "plotly.min.js",
                            extra / "plotly.min.js")
            height = 560 if "tree" in path.stem else 480
            rst.append(f".. raw:: html\n\n    <iframe class=\"rv-gallery-frame\" src=\"../gallery/{target.name}\" "
                       f"title=\"{path.stem}\" loading=\"lazy\" style=\"width: 100%; height: {height}px; "
                       "border: 1px solid #d5d6d9; border-radius: 6px;\"></iframe>\n"
                       f"\n    <p><a href=\"../gallery/{target.name}\">Open {path.name} on its own</a></p>\n")
        else:
            image = Path(next(images)).with_suffix(path.suffix)
            shutil.move(path, image)
            relative = image.relative_to(Path(gallery_conf["src_dir"])).as_posix()
            rst.append(f".. image:: /{relative}\n    :alt: {path.stem}\n    :class: sphx-glr-single-img\n")
    for leftover in folder.glob("plotly.min.js"):
        leftover.unlink()
    return "\n".join(rst)


def _get_sg_image_scraper():
    """How sphinx-gallery finds this scraper from its module name (picklable configuration)."""
    return file_scraper
