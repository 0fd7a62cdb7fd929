"""The organiser's cookie is set by the server, ``HttpOnly``, for a one-time number the
page posts (:mod:`dashboard.handover`): good once, for a while, and only with the browser
it was offered to (a number caught by a script and posted from elsewhere sets nothing);
a clearing clears only the tokens it names; a body is read no further than its bound."""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route
from starlette.testclient import TestClient

from dashboard import handover
from dashboard.handover import COOKIE, ROUTE, Handovers
from dashboard.serve import Guarded

ORIGIN = {"Origin": "http://testserver"}
BROWSER_ID = "the organiser's browser"
TOKEN = f"{int(time.time()) + 3600}.abc.def"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def handovers() -> Handovers:
    return Handovers(lifetime=120, kept=3, clock=Clock())


@pytest.fixture
def client(handovers: Handovers) -> TestClient:
    async def post(request):  # type: ignore[no-untyped-def]
        return await handover.post(request, handovers)

    client = TestClient(Starlette(routes=[Route(ROUTE, post, methods=["POST"])]))
    client.cookies.set(handover.BROWSER, BROWSER_ID)
    return client


def test_a_number_sets_the_cookie_httponly_strict_until_the_token_expires_and_only_once(
    client: TestClient, handovers: Handovers
) -> None:
    number = handovers.offer(BROWSER_ID, TOKEN, expires=int(TOKEN.split(".")[0]))
    answer = client.post(ROUTE, json={"number": number}, headers=ORIGIN)
    assert answer.status_code == 204 and answer.headers["cache-control"] == "no-store"
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}={TOKEN};") and "HttpOnly" in cookie and "SameSite=strict" in cookie
    assert "Path=/" in cookie and "Secure" not in cookie
    age = int(cookie.split("Max-Age=")[1].split(";")[0])
    assert abs(age - (int(TOKEN.split(".")[0]) - time.time())) <= 5  # until the token expires
    again = client.post(ROUTE, json={"number": number}, headers=ORIGIN)
    assert again.status_code == 404 and "set-cookie" not in again.headers


def test_a_page_loaded_over_https_gets_a_secure_cookie(client: TestClient, handovers: Handovers) -> None:
    number = handovers.offer(BROWSER_ID, TOKEN, expires=int(TOKEN.split(".")[0]))
    answer = client.post(ROUTE, json={"number": number, "secure": True}, headers=ORIGIN)
    assert "Secure" in answer.headers["set-cookie"]


def test_a_clearing_clears_the_tokens_it_names_and_leaves_a_newer_one(client: TestClient, handovers: Handovers) -> None:
    client.cookies.set(COOKIE, "a newer token, signed in by another tab")
    kept = client.post(
        ROUTE, json={"number": handovers.offer(BROWSER_ID, None, expires=0, stale=(TOKEN,))}, headers=ORIGIN
    )
    assert kept.status_code == 204 and "set-cookie" not in kept.headers
    client.cookies.set(COOKIE, TOKEN)
    cleared = client.post(
        ROUTE, json={"number": handovers.offer(BROWSER_ID, None, expires=0, stale=(TOKEN,))}, headers=ORIGIN
    )
    assert cleared.status_code == 204
    assert cleared.headers["set-cookie"].startswith(f'{COOKIE}="";') and "Max-Age=0" in cleared.headers["set-cookie"]


def test_a_number_caught_and_posted_by_another_browser_sets_nothing(client: TestClient, handovers: Handovers) -> None:
    """A script in the page may catch the number before the page posts it: posted from
    another machine (no browser id, or another), it sets nothing there, and the page's
    own post still sets the cookie."""
    number = handovers.offer(BROWSER_ID, TOKEN, expires=int(TOKEN.split(".")[0]))
    with TestClient(client.app) as elsewhere:
        assert elsewhere.post(ROUTE, json={"number": number}, headers=ORIGIN).status_code == 404
        elsewhere.cookies.set(handover.BROWSER, "a thief's own id")
        stolen = elsewhere.post(ROUTE, json={"number": number}, headers=ORIGIN)
        assert stolen.status_code == 404 and "set-cookie" not in stolen.headers
    assert handovers.take(number, "ein Dieb, überall") is None  # any text (it raised on one not ASCII)
    assert "set-cookie" in client.post(ROUTE, json={"number": number}, headers=ORIGIN).headers


def test_made_up_numbers_and_bodies_are_refused_reading_no_more_than_the_bound(
    client: TestClient, handovers: Handovers
) -> None:
    number = handovers.offer(BROWSER_ID, TOKEN, expires=int(TOKEN.split(".")[0]))
    assert client.post(ROUTE, json={"number": "made up"}, headers=ORIGIN).status_code == 404
    for body in (b"", b"[]", b'{"number": ""}', b'{"number": "x", "token": "y"}'):
        answer = client.post(ROUTE, content=body, headers={**ORIGIN, "Content-Type": "application/json"})
        assert answer.status_code == 422 and "set-cookie" not in answer.headers, body
    too_large = client.post(ROUTE, content=b'{"number": "' + b"x" * 4000 + b'"}', headers=ORIGIN)
    assert too_large.status_code == 413 and "set-cookie" not in too_large.headers
    # a body that never ends is read no further than the bound (it was read whole first)
    sent: list[int] = []

    async def receive() -> dict[str, object]:
        sent.append(1)
        return {"type": "http.request", "body": b"x" * 256, "more_body": True}

    scope = {"type": "http", "method": "POST", "path": ROUTE, "headers": []}
    answer = asyncio.run(handover.post(Request(scope, receive), handovers))
    assert answer.status_code == 413 and len(sent) == handover.MAX_BODY // 256 + 1
    # the refused posts took nothing: the page's own post still sets the cookie
    assert "set-cookie" in client.post(ROUTE, json={"number": number}, headers=ORIGIN).headers


def test_a_browser_is_given_an_id_once_with_a_page_that_a_link_from_another_site_brings_along() -> None:
    """``SameSite=Lax``: a Strict id was not sent with a page opened by another site's
    link, so the browser was given a new one, and every tab already open stayed bound to
    the old one (its sign-in lost at the next reload). Given with a page only, never a
    file a shared cache may keep for every browser."""
    given = handover.browser_id_cookie(None)
    assert given is not None and b"HttpOnly" in given and b"SameSite=Lax" in given and b"Path=/" in given
    assert b"Secure" not in given and b"; Secure" in (handover.browser_id_cookie(None, secure=True) or b"")
    assert handover.browser_id_cookie("a=b") is not None and handover.browser_id_cookie(None) != given
    assert handover.browser_id_cookie(f"a=b; {handover.BROWSER}=kept") is None

    async def page(request):  # type: ignore[no-untyped-def]
        return HTMLResponse("<p>a page</p>")

    async def picture(request):  # type: ignore[no-untyped-def]
        return Response(b"<svg/>", media_type="image/svg+xml", headers={"Cache-Control": "public, immutable"})

    app = Starlette(routes=[Route("/", page), Route("/picture.svg", picture)], middleware=[Middleware(Guarded)])
    with TestClient(app) as browser:
        assert "set-cookie" not in browser.get("/picture.svg").headers
        first = browser.get("/")
        assert first.headers["set-cookie"].startswith(handover.BROWSER + "=")
        assert "set-cookie" not in browser.get("/").headers  # it has one now


def test_a_number_is_good_for_its_lifetime_and_the_oldest_go_first_past_the_bound(handovers: Handovers) -> None:
    clock = handovers.clock
    assert isinstance(clock, Clock)
    late = handovers.offer(BROWSER_ID, TOKEN, expires=0)
    clock.now += 121
    assert handovers.state(late) is None and handovers.take(late, BROWSER_ID) is None  # its session offers anew
    numbers = [handovers.offer(BROWSER_ID, TOKEN, expires=0) for _ in range(4)]
    assert handovers.take(numbers[0], BROWSER_ID) is None  # a fourth pushed the first out (three kept)
    assert all(handovers.take(number, BROWSER_ID) is not None for number in numbers[1:])
    assert {handovers.state(number) for number in numbers[1:]} == {"taken"}  # its session needs no other


def test_sessions_offering_and_posts_taking_at_once_take_each_number_once() -> None:
    """Every session's script thread offers while the event loop takes: eight threads at
    once, each number offered is taken once, by its own browser only, and none lost."""
    handovers = Handovers(kept=100_000)
    start = threading.Barrier(8)

    def session(index: int) -> list[bool]:
        start.wait()
        taken = []
        for turn in range(300):
            browser = f"browser {index}"
            number = handovers.offer(browser, f"{turn}.token.{index}", expires=0)
            taken.append(handovers.take(number, "browser elsewhere") is None)
            found = handovers.take(number, browser)
            taken.append(found is not None and found.token == f"{turn}.token.{index}")
            taken.append(handovers.take(number, browser) is None and handovers.state(number) == "taken")
        return taken

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(session, range(8)))
    assert all(all(taken) for taken in results) and sum(map(len, results)) == 8 * 300 * 3
