"""How large one uploaded file may be: one limit for ``saboteur ingest`` and the
dashboard's Upload page, so a file one of them takes the other takes too."""

from __future__ import annotations

from typing import Final

MAX_UPLOAD_MIB: Final = 64
"""Mebibytes of one upload: far past any log's 16 MiB limit, and in the unit Streamlit's
``server.maxUploadSize`` counts (it multiplies by 1024 × 1024)."""

MAX_UPLOAD_BYTES: Final = MAX_UPLOAD_MIB * 1024 * 1024
"""Bytes of one upload; a larger file is refused unread, with its true size."""
