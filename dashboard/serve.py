"""The dashboard's server: Streamlit's pages and the referee's page, on one port.

``saboteur dashboard`` runs ``streamlit run dashboard/serve.py``: Streamlit finds the
:class:`streamlit.App` below and serves ``app.py`` (every page of the dashboard) with
the referee's routes beside it (:mod:`dashboard.referee.routes`), so a table's card
keeps one address, ``URL/referee?code=…``, and the phones reach one server.
"""

from __future__ import annotations

import importlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import streamlit as st

from dashboard.referee.routes import Referee
from ingest.store import Store


def _store() -> Store:
    # dashboard.data is imported once Streamlit's runtime runs: its caches need it
    from dashboard import data

    return data.store()


@asynccontextmanager
async def _serving(app: st.App) -> AsyncIterator[None]:
    from dashboard import data

    data.keep_store_open()  # before any page runs: after a restart the phones' entries come first
    _import_what_charts_look_up()
    yield


def _import_what_charts_look_up() -> None:
    """Import pandas before the first session needs it.

    Altair takes pandas from ``sys.modules`` without importing it. Sessions run in
    threads of their own, so when several open a chart page at once right after a start,
    one thread's import of pandas is still running while another's chart finds the
    half-made module there and fails ("partially initialized module 'pandas' has no
    attribute 'Timestamp'"). Imported here, once, before any page runs, it is whole.
    """
    for module in ("pandas", "altair"):
        importlib.import_module(module)


app = st.App("app.py", routes=Referee(_store).routes(), lifespan=_serving)
