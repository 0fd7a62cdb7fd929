"""The organiser's cookie, set by the server (``HttpOnly``): no script of the page ever
holds the session token.

Streamlit reads a browser's cookies but cannot set them, so the page wrote the
organiser's token into ``document.cookie`` with a script of its own: any script that
ran in the page (an extension, a flaw in a component) could read the token there, and
send it away to open the organiser's pages from elsewhere for the rest of its twelve
hours. Now a session that must write (or clear) the cookie leaves the token here, under
a one-time number (a *handover*, :meth:`Handovers.offer`), and lays out a script that
only posts that number to :data:`ROUTE`; the answer sets the cookie ``HttpOnly``, which
no script can read. The number is good once, for :data:`LIFETIME` seconds: read from
the page after its use, it opens nothing. Only the browser's own page may post it (its
``Origin`` is the server's own: :func:`same_origin`).

A handover that clears the cookie clears it only if the browser still holds one of the
tokens it names: another tab may have signed in since.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

COOKIE: Final = "saboteur_organiser"
"""The browser cookie that holds the organiser's session token."""
ROUTE: Final = "/organiser/cookie"
"""Where the page posts a handover's number."""
LIFETIME: Final = 120.0
"""Seconds a handover waits for its page's post (the page posts it as it is drawn)."""
KEPT: Final = 1024
"""Handovers waiting at most; past it the oldest is dropped (its page, if it ever posts,
is answered 404 and writes no cookie: the next run lays out a new one)."""
MAX_BODY: Final = 1024
"""Bytes a post may hold: a number and a flag."""


@dataclass(frozen=True, slots=True)
class Handover:
    """What a post of the handover's number does to the browser's cookie: set it to
    ``token`` until ``expires`` (Unix seconds), or, with no token, clear it if it holds
    one of ``stale``."""

    token: str | None
    expires: int
    stale: tuple[str, ...]
    made: float


class Handovers:
    """The handovers waiting for their page's post, for the whole server process (every
    session's script thread offers, the server's event loop takes: a lock)."""

    def __init__(self, *, lifetime: float = LIFETIME, kept: int = KEPT, clock: Callable[[], float] = time.monotonic):
        self.lifetime = lifetime
        self.kept = kept
        self.clock = clock
        self._lock = threading.Lock()
        self._waiting: OrderedDict[str, Handover] = OrderedDict()

    def offer(self, token: str | None, *, expires: int, stale: tuple[str, ...] = ()) -> str:
        """A new number for setting the cookie to ``token`` (or, with ``None``, clearing
        one of ``stale``)."""
        number = secrets.token_urlsafe(24)
        with self._lock:
            self._forget_old()
            self._waiting[number] = Handover(token, expires, stale, self.clock())
            while len(self._waiting) > self.kept:
                self._waiting.popitem(last=False)
        return number

    def take(self, number: str) -> Handover | None:
        """The handover of ``number``, once, within its lifetime; else ``None``."""
        with self._lock:
            self._forget_old()
            return self._waiting.pop(number, None)

    def _forget_old(self) -> None:
        """Drop the handovers past their lifetime (the oldest are first)."""
        oldest = self.clock() - self.lifetime
        while self._waiting and next(iter(self._waiting.values())).made < oldest:
            self._waiting.popitem(last=False)


HANDOVERS: Final = Handovers()
"""The server process's handovers (:func:`dashboard.access.keep_cookie` offers them)."""


class Posted(BaseModel):
    """A page's post: the handover's number, and whether the page was loaded over https
    (the cookie is then ``Secure``; behind a proxy the server itself may speak http)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    number: str = Field(min_length=1, max_length=64)
    secure: bool = False


def same_origin(request: Request) -> bool:
    """Whether the post may come from a page of this server: a browser names the page's
    origin in a post's ``Origin``, which must then name the host the post was sent to, as
    the browser saw it (``Host``, or a proxy's ``X-Forwarded-Host``). A page of another
    site may not set or clear the organiser's cookie (it could not anyway: it knows no
    number, and a ``SameSite=Strict`` cookie is not sent with its post to be cleared)."""
    origin = request.headers.get("origin")
    if origin is None:  # not a browser's post: it sets nothing a browser keeps
        return True
    hosts = {request.headers.get("host"), request.headers.get("x-forwarded-host")}
    return origin.partition("://")[2] in hosts - {None}


async def post(request: Request, handovers: Handovers = HANDOVERS) -> Response:
    """Set or clear the cookie a handover names (204); 403 from another site, 422 a body
    that is not a handover's, 404 a number unknown, used or too old."""
    headers = {"Cache-Control": "no-store"}
    if not same_origin(request):
        return Response("not from this server's page", status_code=403, headers=headers, media_type="text/plain")
    body = await request.body()
    try:
        if len(body) > MAX_BODY:
            raise ValueError("too large")
        posted = Posted.model_validate_json(body)
    except (ValidationError, ValueError):
        return Response("not a handover", status_code=422, headers=headers, media_type="text/plain")
    handover = handovers.take(posted.number)
    if handover is None:
        return Response("no such handover", status_code=404, headers=headers, media_type="text/plain")
    answer = Response(status_code=204, headers=headers)
    if handover.token is not None:
        age = max(0, int(handover.expires - time.time()))
        answer.set_cookie(
            COOKIE, handover.token, max_age=age, path="/", secure=posted.secure, httponly=True, samesite="strict"
        )
    elif request.cookies.get(COOKIE) in handover.stale:
        answer.delete_cookie(COOKIE, path="/", secure=posted.secure, httponly=True, samesite="strict")
    return answer


def routes() -> list[Route]:
    """The handover's route, for :mod:`dashboard.serve`."""
    return [Route(ROUTE, post, methods=["POST"])]
