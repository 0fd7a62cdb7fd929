"""The dashboard's server: Streamlit's pages and the referee's page, on one port.

``saboteur dashboard`` runs ``streamlit run dashboard/serve.py``: Streamlit finds the
:class:`streamlit.App` below and serves ``app.py`` (every page of the dashboard) with
the referee's routes beside it (:mod:`dashboard.referee.routes`), so a table's card
keeps one address, ``URL/referee?code=…``, and the phones reach one server; and the
route that sets the organiser's cookie (:mod:`dashboard.handover`).
"""

from __future__ import annotations

import importlib
from collections.abc import AsyncIterator, MutableMapping
from contextlib import asynccontextmanager
from typing import Any, Final

import streamlit as st
from starlette.middleware import Middleware
from starlette.types import ASGIApp, Receive, Scope, Send

from dashboard import handover
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


HEADERS: Final = (
    (b"content-security-policy", b"frame-ancestors 'self'"),
    (b"x-frame-options", b"SAMEORIGIN"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
)
"""What every answer of the server says besides: no page of another site may frame
these (an organiser's page laid under another site's buttons), a file is what its type
says, and no address (a referee's, with its code) is told to another site."""


class Guarded:
    """ASGI middleware that adds :data:`HEADERS` to every HTTP answer (Streamlit's
    pages, its files, the referee's routes), and the browser's id to a page sent to a
    browser that has none (:func:`dashboard.handover.browser_id_cookie`); a websocket is
    passed through as it is."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        brought = b"; ".join(value for name, value in scope.get("headers", []) if name.lower() == b"cookie")
        given = handover.browser_id_cookie(brought.decode("latin-1") or None, secure=scope.get("scheme") == "https")

        async def guarded(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = message.get("headers", [])
                named = {name.lower() for name, _ in headers}
                added = [h for h in HEADERS if h[0] not in named]
                page = any(
                    name.lower() == b"content-type" and value.startswith(b"text/html") for name, value in headers
                )
                if given is not None and page:  # a page, never a file a cache may keep for all
                    added.append((b"set-cookie", given))
                message["headers"] = [*message.get("headers", []), *added]
            await send(message)

        await self.app(scope, receive, guarded)


app = st.App(
    "app.py",
    routes=[*Referee(_store).routes(), *handover.routes()],
    lifespan=_serving,
    middleware=[Middleware(Guarded)],
)
