"""Lay out Graphviz DOT text and export it as SVG, PNG or PDF.

The DOT comes from :mod:`rankviz.viz.dot` (trees, MPBoost stumps). Two layout
engines are supported and both read the *same* DOT text:

- ``"dot"``: the real Graphviz ``dot`` found on ``PATH`` (Debian's
  ``graphviz`` package); SVG, PNG and PDF natively.
- ``"pure"``: ``graphviz-pure``, a pure-Rust port of ``dot`` shipped as a
  PyPI wheel, so the app works where Graphviz cannot be installed. It writes
  SVG and PNG; PDF is made from its SVG with svglib + reportlab.

This is the only module of rankviz that runs another program: an engine's
binary, fed the DOT text on stdin, never through a shell. It never imports
streamlit.
"""

from __future__ import annotations

import io
import re
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

__all__ = [
    "export_basename",
    "with_png_dpi",
    "DEFAULT_PNG_DPI",
    "DEFAULT_TIMEOUT",
    "EXPORT_FORMATS",
    "RenderError",
    "available_engines",
    "render",
]

#: Export formats for download buttons: format -> (MIME type, file extension).
EXPORT_FORMATS = {
    "svg": ("image/svg+xml", ".svg"),
    "png": ("image/png", ".png"),
    "pdf": ("application/pdf", ".pdf"),
    "dot": ("text/vnd.graphviz", ".dot"),
}

#: Seconds a layout engine may run before it is stopped.
DEFAULT_TIMEOUT = 60.0

#: Resolution of PNG output. Graphviz's default of 96 dpi gives blurry
#: figures once scaled into a document; 150 stays small enough for the app.
DEFAULT_PNG_DPI = 150

_PURE_BINARY = "graphviz-pure"
_ENGINES = ("dot", "pure")


def export_basename(dataset: str, criterion: str | None = None, gamma: float | None = None) -> str:
    """Make a file name (without extension) that says what a drawing holds.

    ``export_basename("Metalearning: ranking 10 classifiers", "mean_spearman", 0.995)``
    is ``"metalearning_mean_spearman_g0.995"``: the data set's name up to its
    first colon, lower case, runs of other characters than letters and digits
    made one ``_``; then the criterion and γ.

    Parameters
    ----------
    dataset : str
        The data set's name (user text is reduced to safe characters).
    criterion : str, optional
        The splitting criterion's name, reduced in the same way; left out
        when None or empty.
    gamma : float, optional
        The γ of the tree, written with three decimals after a ``g``; left
        out when None.

    Returns
    -------
    str
        The parts joined by ``_``; ``"tree"`` when nothing of the data set's
        name is left.

    See Also
    --------
    EXPORT_FORMATS : The extension of each format.

    Examples
    --------
    >>> from rankviz.viz.graphviz import export_basename
    >>> export_basename("Metalearning: ranking 10 classifiers", "mean_spearman", 0.995)
    'metalearning_mean_spearman_g0.995'
    >>> export_basename("My data (v2)")
    'my_data_v2'
    """
    stem = re.sub(r"[^0-9a-z]+", "_", dataset.split(":")[0].strip().lower()).strip("_")[:40] or "tree"
    parts = [stem]
    if criterion:
        parts.append(re.sub(r"[^0-9a-z]+", "_", criterion.lower()).strip("_"))
    if gamma is not None:
        parts.append(f"g{gamma:.3f}")
    return "_".join(parts)


class RenderError(RuntimeError):
    """A drawing could not be laid out: unknown format or engine, or the engine failed.

    Raised by :func:`render` and the exports built on it. The message names
    the engine, the format and the first error line of the engine, so an
    app can show it as it is.

    See Also
    --------
    render : Lay out DOT text.
    available_engines : The engines that can run here.

    Examples
    --------
    >>> from rankviz.viz.graphviz import RenderError, render
    >>> try:
    ...     render("digraph { a -> b }", "gif")
    ... except RenderError as error:
    ...     print(error)
    unknown format 'gif'; expected one of svg, png, pdf, dot
    """


# -- engines ------------------------------------------------------------------

def _pure_binary():
    """Path of graphviz-pure: next to this Python first (the venv's bin/), then PATH."""
    # Not resolved: in a venv sys.executable is a symlink whose *link* directory
    # holds the console scripts of packages installed into that venv.
    candidate = Path(sys.executable).parent / _PURE_BINARY
    if candidate.is_file():
        return str(candidate)
    return shutil.which(_PURE_BINARY)


def _dot_binary():
    return shutil.which("dot")


def available_engines() -> list[str]:
    """List the layout engines that can run here, in the order ``engine="auto"`` prefers.

    Graphviz's ``dot`` is looked for on ``PATH``; the ``graphviz-pure``
    binary next to this Python first (a virtual environment's ``bin/``),
    then on ``PATH``.

    Returns
    -------
    list of str
        A subset of ``["dot", "pure"]``: ``"dot"`` if Graphviz's ``dot`` is on
        ``PATH``, ``"pure"`` if the ``graphviz-pure`` binary is found.

    See Also
    --------
    render : Lay out DOT text with one of them.

    Examples
    --------
    >>> from rankviz.viz.graphviz import available_engines
    >>> set(available_engines()) <= {"dot", "pure"}
    True
    """
    found = {"dot": _dot_binary(), "pure": _pure_binary()}
    return [name for name in _ENGINES if found[name]]


def render(dot_source: str, fmt: str, engine: str = "auto", *, dpi: float = DEFAULT_PNG_DPI,
           timeout: float = DEFAULT_TIMEOUT) -> bytes:
    """Lay out DOT text and return the file's bytes.

    The engine runs as a separate program, fed the text on its standard
    input, never through a shell, and is stopped after ``timeout`` seconds.

    Parameters
    ----------
    dot_source : str
        DOT text, e.g. from :func:`rankviz.viz.dot.tree_to_dot`.
    fmt : {"svg", "png", "pdf", "dot"}
        Output format; ``"dot"`` returns the source itself, UTF-8 encoded.
    engine : {"auto", "dot", "pure"}, default="auto"
        ``"dot"``: Graphviz's ``dot`` on ``PATH``. ``"pure"``: the
        ``graphviz-pure`` binary (PDF via its SVG, svglib and reportlab).
        ``"auto"``: ``"dot"`` if available, else ``"pure"``.
    dpi : float, default=150
        Resolution of PNG output (ignored for other formats).
    timeout : float, default=60
        Seconds the engine may run.

    Returns
    -------
    bytes
        The file: SVG text (UTF-8), a PNG carrying its ``dpi``, a PDF, or the
        DOT source itself.

    Raises
    ------
    RenderError
        Unknown format or engine, engine not installed, engine failure
        (invalid DOT, ...), empty output or timeout. The message names the
        engine, the format and the first line of the engine's error output.

    See Also
    --------
    rankviz.viz.tree_to_dot : DOT text of a fitted tree.
    rankviz.viz.export_tree : A tree as a figure of a given width, in one call.

    Examples
    --------
    >>> from rankviz.viz import render
    >>> svg = render("digraph { a -> b }", "svg")
    >>> b"<svg" in svg
    True
    >>> render("digraph { a -> b }", "png", dpi=300)[1:4]
    b'PNG'
    """
    if fmt not in EXPORT_FORMATS:
        raise RenderError(f"unknown format {fmt!r}; expected one of {', '.join(EXPORT_FORMATS)}")
    if not isinstance(dot_source, str):
        raise RenderError(f"dot_source must be str, got {type(dot_source).__name__}")
    if fmt == "dot":
        return dot_source.encode("utf-8")
    engine = _resolve_engine(engine)
    if engine == "pure" and fmt == "pdf":
        # graphviz-pure writes no PDF: lay out to SVG, then convert in Python.
        svg = _run(_pure_binary(), "pure", dot_source, "svg", dpi, timeout, label="'pdf' (via svg)")
        return _svg_to_pdf(svg)
    made = _run(_dot_binary() if engine == "dot" else _pure_binary(), engine, dot_source, fmt, dpi, timeout)
    return with_png_dpi(made, dpi) if fmt == "png" and dpi else made


def with_png_dpi(png: bytes, dpi: float) -> bytes:
    """Write a resolution into a PNG (a ``pHYs`` chunk), replacing any there was.

    Neither engine writes one, so LaTeX and word processors place the image
    at 72 or 96 dpi, several times too large; with it they place it at its
    intended size (width in pixels / DPI inches).

    Parameters
    ----------
    png : bytes
        A PNG file.
    dpi : float
        Pixels per inch, stored as pixels per metre (rounded).

    Returns
    -------
    bytes
        The same image with one ``pHYs`` chunk, right after the header.

    Raises
    ------
    ValueError
        If ``png`` is not a PNG.

    See Also
    --------
    render : Writes the chunk into every PNG it makes.

    Examples
    --------
    >>> import struct
    >>> from rankviz.viz.graphviz import render, with_png_dpi
    >>> png = with_png_dpi(render("digraph { a -> b }", "png"), 300)
    >>> at = png.index(b"pHYs") + 4
    >>> round(struct.unpack(">I", png[at:at + 4])[0] * 0.0254)  # pixels per metre, back to pixels per inch
    300
    """
    signature = b"\x89PNG\r\n\x1a\n"
    if not png.startswith(signature) or png[12:16] != b"IHDR":
        raise ValueError("not a PNG file")
    per_metre = round(float(dpi) / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", per_metre, per_metre, 1)  # unit 1: the metre
    phys = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body))
    chunks, at = [], len(signature)
    while at + 8 <= len(png):  # each chunk: length, type, data, CRC
        length = struct.unpack(">I", png[at:at + 4])[0]
        end = at + 12 + length
        if png[at + 4:at + 8] != b"pHYs":
            chunks.append(png[at:end])
            if png[at + 4:at + 8] == b"IHDR":
                chunks.append(phys)  # pHYs must come before the image data
        at = end
    return signature + b"".join(chunks)


def _resolve_engine(engine):
    if engine not in ("auto",) + _ENGINES:
        raise RenderError(f"unknown engine {engine!r}; expected 'auto', 'dot' or 'pure'")
    available = available_engines()
    if engine == "auto":
        if not available:
            raise RenderError("no layout engine: neither Graphviz 'dot' on PATH nor 'graphviz-pure' "
                              "(pip install graphviz-pure) was found")
        return available[0]
    if engine not in available:
        hint = ("install Graphviz (apt-get install graphviz)" if engine == "dot"
                else "pip install graphviz-pure")
        raise RenderError(f"engine {engine!r} is not available: {hint}")
    return engine


def _run(binary, engine, dot_source, fmt, dpi, timeout, label=None):
    """Run one engine binary on the DOT text (stdin) and return its stdout."""
    cmd = [binary, f"-T{fmt}"]
    if fmt == "png" and dpi:
        cmd.append(f"-Gdpi={float(dpi):g}")
    where = f"engine {engine!r}, format {label or repr(fmt)}"
    try:
        proc = subprocess.run(cmd, input=dot_source.encode("utf-8"), capture_output=True,
                              timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise RenderError(f"{where}: layout did not finish within {timeout:g} s") from None
    except OSError as exc:
        raise RenderError(f"{where}: could not run {binary}: {exc}") from None
    if proc.returncode != 0:
        raise RenderError(f"{where}: failed (exit code {proc.returncode}): {_first_error(proc.stderr)}")
    if not proc.stdout:
        # Both engines exit 0 with no output for a format they do not know.
        raise RenderError(f"{where}: no output: {_first_error(proc.stderr)}")
    return proc.stdout


def _first_error(stderr):
    """The line of an engine's stderr worth showing: the first error, else the first line.

    Warnings (e.g. graphviz-pure's 'no value for width of non-ASCII
    character') often come first and would hide the actual error.
    """
    lines = [ln.strip() for ln in stderr.decode("utf-8", "replace").splitlines() if ln.strip()]
    for line in lines:
        if "error" in line.lower() or "not recognized" in line.lower():
            return line
    return lines[0] if lines else "(no message)"


def _svg_to_pdf(svg):
    """PDF bytes from SVG bytes with svglib + reportlab (graphviz-pure has no PDF)."""
    try:
        from reportlab.graphics import renderPDF
        from svglib.svglib import svg2rlg
    except ImportError as exc:  # optional dependencies of the "pure" PDF path
        raise RenderError(f"engine 'pure', format 'pdf': needs svglib and reportlab ({exc})") from None
    try:
        drawing = svg2rlg(io.BytesIO(svg))
        if drawing is None:
            raise ValueError("svglib could not parse the SVG")
        return renderPDF.drawToString(drawing)
    except Exception as exc:  # svglib/reportlab raise many types; report one
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise RenderError(f"engine 'pure', format 'pdf': SVG to PDF conversion failed: {first}") from None
