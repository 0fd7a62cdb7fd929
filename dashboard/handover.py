"""The organiser's cookie, set by the server (``HttpOnly``): no script of the page ever
holds the session token, nor anything that gets it elsewhere.

Streamlit reads a browser's cookies but cannot set them, so the page wrote the
organiser's token into ``document.cookie`` with a script of its own: any script that
ran in the page (an extension, a flaw in a component) could read the token there, and
send it away to open the organiser's pages from elsewhere for the rest of its twelve
hours. Now a session that must write (or clear) the cookie leaves the token here, under
a one-time number (a *handover*, :meth:`Handovers.offer`), and lays out a script that
only posts that number to :data:`ROUTE`; the answer sets the cookie ``HttpOnly``, which
no script can read. The number is good once, for :data:`LIFETIME` seconds, and only
with the browser it was offered to: every browser gets a random id of its own in an
``HttpOnly``, ``SameSite=Lax`` cookie (:data:`BROWSER`, :func:`browser_id_cookie`)
with the first page it loads, the session reads it from the websocket's handshake, and
the post must bring the same. A script that catches the number can only set the cookie
in the browser it already runs in; a page of another site cannot post with that cookie.

A handover that clears the cookie clears it only if the browser still holds one of the
tokens it names: another tab may have signed in since.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

COOKIE: Final = "saboteur_organiser"
"""The browser cookie that holds the organiser's session token."""
BROWSER: Final = "saboteur_browser"
"""The cookie that holds a browser's random id, which a handover is bound to."""
ROUTE: Final = "/organiser/cookie"
"""Where the page posts a handover's number."""
LIFETIME: Final = 120.0
"""Seconds a handover waits for its page's post (the page posts it as it is drawn)."""
KEPT: Final = 4096
"""Handovers waiting at most; past it the oldest is dropped (its page, if it ever posts,
is answered 404 and writes no cookie: the session's next run offers a new one)."""
MAX_BODY: Final = 1024
"""Bytes a post may hold: a number and a flag."""


@dataclass(frozen=True, slots=True)
class Handover:
    """What a post of the handover's number by the browser ``browser`` does to its
    cookie: set it to ``token`` until ``expires`` (Unix seconds), or, with no token,
    clear it if it holds one of ``stale``."""

    browser: str
    token: str | None
    expires: int
    stale: tuple[str, ...]
    made: float


class Handovers:
    """The handovers waiting for their page's post, for the whole server process (every
    session's script thread offers and asks, the server's event loop takes: a lock)."""

    def __init__(self, *, lifetime: float = LIFETIME, kept: int = KEPT, clock: Callable[[], float] = time.monotonic):
        self.lifetime = lifetime
        self.kept = kept
        self.clock = clock
        self._lock = threading.Lock()
        self._waiting: OrderedDict[str, Handover] = OrderedDict()
        self._taken: OrderedDict[str, float] = OrderedDict()

    def offer(self, browser: str, token: str | None, *, expires: int, stale: tuple[str, ...] = ()) -> str:
        """A new number for setting ``browser``'s cookie to ``token`` (or, with ``None``,
        clearing one of ``stale``)."""
        number = secrets.token_urlsafe(24)
        with self._lock:
            self._forget_old()
            self._waiting[number] = Handover(browser, token, expires, stale, self.clock())
            while len(self._waiting) > self.kept:
                self._waiting.popitem(last=False)
        return number

    def take(self, number: str, browser: str | None) -> Handover | None:
        """The handover of ``number``, once, within its lifetime, for the browser it was
        offered to; else ``None`` (a post by another browser takes nothing)."""
        with self._lock:
            self._forget_old()
            handover = self._waiting.get(number)
            if handover is None or browser is None:
                return None
            if not hmac.compare_digest(handover.browser.encode(), browser.encode()):  # any text: a cookie is anyone's
                return None
            del self._waiting[number]
            self._taken[number] = self.clock()
            while len(self._taken) > self.kept:
                self._taken.popitem(last=False)
            return handover

    def state(self, number: str) -> Literal["waiting", "taken"] | None:
        """Whether ``number`` may still be taken, or was lately; ``None`` for a number
        dropped unused, its lifetime over (its session offers a new one)."""
        with self._lock:
            self._forget_old()
            if number in self._waiting:
                return "waiting"
            return "taken" if number in self._taken else None

    def _forget_old(self) -> None:
        """Drop the handovers past their lifetime (the oldest are first), and what was
        taken long before."""
        oldest = self.clock() - self.lifetime
        while self._waiting and next(iter(self._waiting.values())).made < oldest:
            self._waiting.popitem(last=False)
        while self._taken and next(iter(self._taken.values())) < oldest - self.lifetime:
            self._taken.popitem(last=False)


HANDOVERS: Final = Handovers()
"""The server process's handovers (:func:`dashboard.access.keep_cookie` offers them)."""


class Posted(BaseModel):
    """A page's post: the handover's number, and whether the page was loaded over https
    (the cookie is then ``Secure``; behind a proxy the server itself may speak http)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    number: str = Field(min_length=1, max_length=64)
    secure: bool = False


async def _body(request: Request) -> bytes | None:
    """The body, never more than :data:`MAX_BODY` bytes read (``None`` past it)."""
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return None
    return bytes(body)


async def post(request: Request, handovers: Handovers = HANDOVERS) -> Response:
    """Set or clear the cookie a handover names (204); 413 a body past :data:`MAX_BODY`,
    422 one that is not a handover's, 404 a number unknown, used, too old or offered to
    another browser."""
    headers = {"Cache-Control": "no-store"}
    body = await _body(request)
    if body is None:
        return Response("too large", status_code=413, headers=headers, media_type="text/plain")
    try:
        posted = Posted.model_validate_json(body)
    except ValidationError:
        return Response("not a handover", status_code=422, headers=headers, media_type="text/plain")
    handover = handovers.take(posted.number, request.cookies.get(BROWSER))
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


def browser_id_cookie(cookie_header: str | None, *, secure: bool = False) -> bytes | None:
    """The ``Set-Cookie`` header's value that gives a browser its id, for a page sent
    to a browser whose ``Cookie`` header (``cookie_header``) holds none; else ``None``.
    ``SameSite=Lax``: a page opened by a link on another site brings it along (a Strict
    one did not, and the browser was given a new id that left every open tab's session
    bound to the old one, unable to keep the organiser's cookie), while another site's
    post still goes without it. Kept a year: no credential alone, only what a handover
    is bound to."""
    if cookie_header and any(part.strip().startswith(BROWSER + "=") for part in cookie_header.split(";")):
        return None
    flags = "; Secure" if secure else ""
    return f"{BROWSER}={secrets.token_urlsafe(24)}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax{flags}".encode()


def routes() -> list[Route]:
    """The handover's route, for :mod:`dashboard.serve`."""
    return [Route(ROUTE, post, methods=["POST"])]
