"""Receiving an uploaded file: the size limit, the content's digest, one clear message on failure.

Shared by the data pickers of every page, so that each refuses an oversized
file the same way (:data:`rankviz.datasets.label_ranking.MAX_UPLOAD_BYTES`, checked before the
content is read) and shows a loader's :class:`rankviz.datasets.label_ranking.DataError` as one
sentence where the results would be, never a traceback.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import streamlit as st

from ..datasets.reading import MAX_UPLOAD_MB, check_upload_size
from ..exceptions import DataError
from .text import md_escape

if TYPE_CHECKING:
    from streamlit.delta_generator import DeltaGenerator


@dataclass(frozen=True)
class Upload:
    """An accepted upload: its bytes, file name and a short digest of the content.

    Widget choices about a file are keyed by ``digest``: a new file starts
    from fresh defaults instead of inheriting choices about other columns.
    """

    content: bytes
    name: str
    digest: str

    def buffer(self) -> io.BytesIO:
        """The bytes as a file object carrying the upload's name, for messages that name the file."""
        return named_buffer(self.content, self.name)


def named_buffer(content: bytes, file_name: str) -> io.BytesIO:
    """``content`` as a binary file object whose ``name`` is ``file_name``."""
    buffer = io.BytesIO(content)
    buffer.name = file_name
    return buffer


def receive_upload(container: DeltaGenerator, label: str, types: Sequence[str], key: str,
                   help: str) -> Upload | None:
    """A file uploader with the size limit; the accepted upload, or None (with a note why).

    ``help`` gets the limit appended.
    """
    uploaded = container.file_uploader(label, type=types, key=key, max_upload_size=MAX_UPLOAD_MB,
                                       help=f"{help} At most {MAX_UPLOAD_MB} MB.")
    if uploaded is None:
        container.info("Upload a file to continue.")
        return None
    try:
        check_upload_size(uploaded.size, uploaded.name)
    except DataError as error:
        show_problem(container, error)
        return None
    content = uploaded.getvalue()
    return Upload(content, uploaded.name, hashlib.sha1(content).hexdigest()[:12])


def show_problem(container: DeltaGenerator, error: Exception | str) -> None:
    """A loader's message on the page (escaped), and a pointer to it in the sidebar."""
    container.warning("The file could not be read; see the message on the page.")
    st.error(f"**Upload problem.** {md_escape(error)}")
