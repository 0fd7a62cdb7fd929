"""The referee's page on the web: its files and its endpoints, as Starlette routes
that :mod:`dashboard.serve` adds to the dashboard's own server (one port, one process).

    GET  /referee?code=CODE            the page (static/referee.html)
    GET  /referee/app.js, app.css      its script and style; /referee/sw.js its service worker
    GET  /referee/picture/KEY.svg      a card as it lies (cached for good: a key never changes)
    GET  /referee/api/table?code=      the table the code opens, and its game if begun
    POST /referee/api/begin            begin the table's game
    POST /referee/api/entries          one entry, done once: recorded, warning, conflict, refused
    POST /referee/api/score            the end of a round the roles give, before it is recorded
    POST /referee/api/finish           the finished game's log taken in as an upload
    GET  /referee/api/log?code=        the game's log as it stands, as a file to keep
    GET  /referee/api/words            the page's own texts in the phone's language

Each answer speaks the phone's language: the ``lang`` the page asks for (the page's own
address may name one, ``?code=…&lang=nl``), else the browser's ``Accept-Language``, else
English (:func:`dashboard.i18n.speaking`).

Every body is parsed whole into :mod:`dashboard.referee.wire`'s models first (a body
too large or malformed: 413 or 422, with what is wrong). The store's work runs in a
worker thread, never on the event loop that also carries every Streamlit websocket.
Answers are never cached; the status says what became of the entry: 200 recorded (or a
warning, not recorded), 409 conflict, 422 refused, 403 a code that opens no table, 503
the store busy (the page keeps the entry and sends it again).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Final, TypeVar

from pydantic import BaseModel, ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from dashboard import i18n, sentences
from dashboard.i18n import _
from dashboard.referee.desk import Desk, picture, picture_edition
from dashboard.referee.wire import MAX_BODY, Answer, Finishing, Opened, Scoring, Sent
from dashboard.referee.words import page_words
from ingest.store import Store, StoreBusy, StoreError

_LOGGER = logging.getLogger(__name__)
STATIC: Final = Path(__file__).resolve().parent / "static"
_STATUS: Final = {"recorded": 200, "warning": 200, "conflict": 409, "refused": 422, "closed": 403, "busy": 503}
_NO_STORE: Final = {"Cache-Control": "no-store"}
M = TypeVar("M", bound=BaseModel)


class Body(ValueError):
    """A request body that is not what the endpoint takes: ``status`` and why."""

    def __init__(self, status: int, problem: str) -> None:
        super().__init__(problem)
        self.status = status


async def _parsed(request: Request, model: type[M]) -> M:
    """The body, whole, as ``model`` (never more than :data:`MAX_BODY` bytes read)."""
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise Body(413, f"the request is larger than {MAX_BODY // 1024} KiB: an entry is a few hundred bytes")
    try:
        return model.model_validate_json(bytes(body))
    except ValidationError as invalid:
        first = invalid.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the body"
        raise Body(422, f"{where}: {first['msg']}") from None


def _answer(answer: BaseModel) -> JSONResponse:
    status = _STATUS.get(getattr(answer, "status", "recorded"), 200)
    return JSONResponse(answer.model_dump(mode="json"), status_code=status, headers=_NO_STORE)


def _problem(status: int, problem: str) -> JSONResponse:
    return JSONResponse({"status": "refused", "problem": problem}, status_code=status, headers=_NO_STORE)


Handler = Callable[[Request], Awaitable[Response]]


def _guarded(handler: Handler) -> Handler:
    """A body refused, a store busy or broken, or a fault of the server's own is an
    answer the page can show (a fault is logged with its traceback, which the phone
    never sees: the page stops at the entry and shows the problem)."""

    @functools.wraps(handler)
    async def run(request: Request) -> Response:
        with i18n.speaking(spoken(request)):  # worker threads take the context along
            try:
                return await handler(request)
            except Body as body:
                return _problem(body.status, str(body))
            except StoreBusy:
                busy = _("The store is busy: the entry is kept and sent again.")
                return _answer(Answer(status="busy", problem=busy))
            except StoreError as broken:
                return _problem(
                    500,
                    _("The store cannot be written: %(problem)s")
                    % {"problem": sentences.said(broken.said, broken.problem)},
                )
            except Exception:
                _LOGGER.exception("the referee page's %s %s failed", request.method, request.url.path)
                return _problem(500, _("The server could not take this entry (its log says why): tell the organiser."))

    return run


def spoken(request: Request) -> str:
    """The language a phone is answered in: the ``lang`` it asks for, else its browser's."""
    asked = i18n.supported(request.query_params.get("lang"))
    return asked or i18n.accepted(request.headers.get("accept-language")) or i18n.ENGLISH


class Referee:
    """The routes, over the store ``store`` opens (a function, so that a test or a
    restart points it anew)."""

    def __init__(self, store: Callable[[], Store]) -> None:
        self._store = store
        self._desk: Desk | None = None

    @property
    def desk(self) -> Desk:
        store = self._store()
        if self._desk is None or self._desk.store.path != store.path:
            self._desk = Desk(store)
        return self._desk

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/referee", self.page, methods=["GET"]),
            Route("/referee/app.js", _static("app.js", "text/javascript"), methods=["GET"]),
            Route("/referee/app.css", _static("app.css", "text/css"), methods=["GET"]),
            Route("/referee/sw.js", _static("sw.js", "text/javascript", scope="/referee"), methods=["GET"]),
            Route("/referee/picture/{edition}/{lang}/{key}.svg", self.picture, methods=["GET"]),
            Route("/referee/picture/{key}.svg", self.picture, methods=["GET"]),  # a page loaded before editions
            Route("/referee/api/table", _guarded(self.table), methods=["GET"]),
            Route("/referee/api/begin", _guarded(self._posted(Opened, lambda desk: desk.begin)), methods=["POST"]),
            Route("/referee/api/entries", _guarded(self._posted(Sent, lambda desk: desk.send)), methods=["POST"]),
            Route("/referee/api/score", _guarded(self._posted(Scoring, lambda desk: desk.score)), methods=["POST"]),
            Route("/referee/api/finish", _guarded(self._posted(Finishing, lambda desk: desk.finish)), methods=["POST"]),
            Route("/referee/api/words", _guarded(self.words), methods=["GET"]),
            Route("/referee/api/log", _guarded(self.log), methods=["GET"]),
        ]

    async def page(self, request: Request) -> Response:
        return FileResponse(STATIC / "referee.html", media_type="text/html", headers={"Cache-Control": "no-cache"})

    async def picture(self, request: Request) -> Response:
        """A card's picture, its words in the language its address names (else the
        phone's), kept for good when the address names the pictures as they are drawn now
        (:func:`~dashboard.referee.desk.picture_edition`), else asked again each time."""
        named = request.path_params.get("lang")
        lang = i18n.supported(named) if named is not None else spoken(request)
        svg = picture(str(request.path_params["key"]), lang) if lang is not None else None
        if svg is None or lang is None:
            return Response("no such card", status_code=404, media_type="text/plain")
        current = request.path_params.get("edition") == picture_edition(lang)
        headers = {"Cache-Control": "public, max-age=31536000, immutable" if current else "no-cache"}
        if named is None:  # the language is the browser's
            headers["Vary"] = "Accept-Language"
        return Response(svg, media_type="image/svg+xml", headers=headers)

    async def words(self, request: Request) -> Response:
        """The page's texts in the language it is answered in (kept on the phone with the
        table, for the hours without a network)."""
        lang = i18n.language()
        return JSONResponse({"lang": lang, **page_words(lang)}, headers=_NO_STORE)

    async def table(self, request: Request) -> Response:
        code = request.query_params.get("code", "")
        if not code or len(code) > 128:
            return _problem(403, _("This card opens no table: ask the organiser for the table's card."))
        desk = self.desk
        view = await run_in_threadpool(desk.table, code)
        if view is None:
            return _answer(Answer(status="closed"))
        return JSONResponse(view.model_dump(mode="json"), headers=_NO_STORE)

    async def log(self, request: Request) -> Response:
        """The game's log, to download (the game's id names the file: its characters are
        the ids' own, safe in a header)."""
        code = request.query_params.get("code", "")
        if not code or len(code) > 128:
            return _problem(403, _("This card opens no table: ask the organiser for the table's card."))
        found = await run_in_threadpool(self.desk.log, code)
        if isinstance(found, Answer):  # a code that opens no table (403), a game not begun (422)
            return _answer(found)
        name, text = found
        disposition = {"Content-Disposition": f'attachment; filename="{name}"'}
        return Response(text, media_type="application/x-ndjson", headers={**_NO_STORE, **disposition})

    def _posted(self, model: type[M], act: Callable[[Desk], Callable[[M], BaseModel]]) -> Handler:
        """An endpoint whose body is one ``model``, answered by the desk's ``act`` — the
        desk as it stands at the request (a restart may point it at another store) —
        in a worker thread: it writes."""

        async def handle(request: Request) -> Response:
            body = await _parsed(request, model)
            return _answer(await run_in_threadpool(act(self.desk), body))

        return handle


def _static(name: str, media_type: str, *, scope: str | None = None) -> Handler:
    """A file of the page, checked again at every load (``no-cache``: a new version
    reaches the phones at once; the service worker keeps a copy for offline)."""
    headers = {"Cache-Control": "no-cache"}
    if scope is not None:
        headers["Service-Worker-Allowed"] = scope

    async def serve(request: Request) -> Response:
        return FileResponse(STATIC / name, media_type=media_type, headers=headers)

    return serve
