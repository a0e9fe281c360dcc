"""Receiving an uploaded file: the size limit, the content's digest, one clear message on failure.

Shared by the data pickers of every page, so that each refuses an oversized
file the same way (:data:`rankviz.datasets.label_ranking.MAX_UPLOAD_BYTES`, checked before the
content is read) and shows a loader's :class:`rankviz.datasets.label_ranking.DataError` as one
sentence where the results would be, never a traceback. An accepted file is
kept for the session: Streamlit forgets a file uploader's file on a page
without it, so the pickers read the kept copy when they come back, until
the user removes the file or drops another.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import streamlit as st

from ..datasets.reading import MAX_UPLOAD_MB, check_upload_size, detect_encoding, encoding_name
from ..exceptions import DataError
from .text import md_escape

if TYPE_CHECKING:
    from streamlit.delta_generator import DeltaGenerator


@dataclass(frozen=True)
class Upload:
    """An accepted upload: its bytes, file name and a short digest of both (:func:`upload_digest`).

    Widget choices about a file are keyed by ``digest``: a new file starts
    from fresh defaults instead of inheriting choices about other columns,
    and the choices are kept with the file for the session.
    """

    content: bytes
    name: str
    digest: str

    def buffer(self) -> io.BytesIO:
        """The bytes as a file object carrying the upload's name, for messages that name the file."""
        return named_buffer(self.content, self.name)


def upload_digest(name: str, content: bytes) -> str:
    """12 hex digits identifying a file by its name and content.

    The name counts: two files with the same bytes (say, two empty ones)
    may be meant as different formats, and their choices must not mix.
    """
    return hashlib.sha1(name.encode("utf-8") + b"\0" + content).hexdigest()[:12]


def named_buffer(content: bytes, file_name: str) -> io.BytesIO:
    """``content`` as a binary file object whose ``name`` is ``file_name``."""
    buffer = io.BytesIO(content)
    buffer.name = file_name
    return buffer


def receive_upload(container: DeltaGenerator, label: str, types: Sequence[str] | None, key: str,
                   help: str) -> Upload | None:
    """A file uploader with the size limit; the accepted upload, or None (with a note why).

    ``types``: file extensions accepted; None accepts any name (the content
    decides, and a loader says what is wrong with it).

    ``help`` gets the limit appended. The accepted upload is kept in session
    state under ``f"{key}_kept"``; while the uploader is empty after a visit
    to another page, that upload is returned, with a caption naming it and a
    button to forget it.
    """
    kept_key = f"{key}_kept"
    uploaded = container.file_uploader(label, type=types, key=key, max_upload_size=MAX_UPLOAD_MB,
                                       help=f"{help} At most {MAX_UPLOAD_MB} MB.",
                                       on_change=_forget_removed, args=(key, kept_key))
    if uploaded is None:
        kept = st.session_state.get(kept_key)
        if kept is not None:
            container.caption(f"Using **{md_escape(kept.name)}**, uploaded earlier in this session. "
                              "Drop another file above to replace it.")
            container.button("Forget this file", key=f"{key}_forget", icon=":material/delete:",
                             on_click=st.session_state.pop, args=(kept_key, None))
            _encoding_caption(container, kept)
            return kept
        container.info("Upload a file to continue.")
        return None
    try:
        check_upload_size(uploaded.size, uploaded.name)
    except DataError as error:
        show_problem(container, error)
        return None
    content = uploaded.getvalue()
    upload = Upload(content, uploaded.name, upload_digest(uploaded.name, content))
    st.session_state[kept_key] = upload
    _encoding_caption(container, upload)
    return upload


def _encoding_caption(container: DeltaGenerator, upload: Upload) -> None:
    """Name the text encoding of a file that is not UTF-8 (a loader explains one that is no text)."""
    try:
        encoding = detect_encoding(upload.content, upload.name)
    except DataError:
        return
    if encoding not in ("utf-8", "utf-8-sig"):
        container.caption(f"Read as {encoding_name(encoding)} text.")


def _forget_removed(key: str, kept_key: str) -> None:
    """The uploader changed: a file the user removed is not kept either."""
    if st.session_state.get(key) is None:
        st.session_state.pop(kept_key, None)


def show_problem(container: DeltaGenerator, error: Exception | str) -> None:
    """A loader's message on the page (escaped), and a pointer to it in the sidebar."""
    container.warning("The file could not be read; see the message on the page.")
    st.error(f"**Upload problem.** {md_escape(error)}")
