"""The dashboard's server: Streamlit's pages and the referee's page, on one port.

``saboteur dashboard`` runs ``streamlit run dashboard/serve.py``: Streamlit finds the
:class:`streamlit.App` below and serves ``app.py`` (every page of the dashboard) with
the referee's routes beside it (:mod:`dashboard.referee.routes`), so a table's card
keeps one address, ``URL/referee?code=…``, and the phones reach one server.
"""

from __future__ import annotations

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
    yield


app = st.App("app.py", routes=Referee(_store).routes(), lifespan=_serving)
