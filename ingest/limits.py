"""How large one uploaded file may be: one limit for ``saboteur ingest`` and the
dashboard's Upload page, so a file one of them takes the other takes too."""

from __future__ import annotations

from typing import Final

MAX_UPLOAD_MIB: Final = 64
"""Mebibytes of one upload: far past any log's 16 MiB limit, and in the unit Streamlit's
``server.maxUploadSize`` counts (it multiplies by 1024 × 1024)."""

MAX_UPLOAD_BYTES: Final = MAX_UPLOAD_MIB * 1024 * 1024
"""Bytes of one upload; a larger file is refused unread, with its true size."""

MAX_SHEET_MIB: Final = 4
"""Mebibytes of one score sheet: some 90,000 rows (5,000 games of six players and three
rounds), a hundred times a big tournament's paper. A sheet is read whole, every row an
object, and its games' events and rows built before the store takes them: 8 MiB of the
shortest rows took an ingest to 519 MiB and 64 MiB past DuckDB's own memory limit, where
a log's 16 MiB stays under 300 MiB (issue 31: every command under 512 MiB)."""

MAX_SHEET_BYTES: Final = MAX_SHEET_MIB * 1024 * 1024
"""Bytes of one score sheet; a larger one is refused, its bytes kept as any upload's."""
