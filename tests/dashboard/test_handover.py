"""The organiser's cookie is set by the server, ``HttpOnly``, for a one-time number the
page posts (:mod:`dashboard.handover`): good once, for a while, from the server's own
page; a clearing clears only the tokens it names."""

from __future__ import annotations

import time

import pytest
from starlette.applications import Starlette
from starlette.routing import Route
from starlette.testclient import TestClient

from dashboard import handover
from dashboard.handover import COOKIE, ROUTE, Handovers

ORIGIN = {"Origin": "http://testserver"}
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

    return TestClient(Starlette(routes=[Route(ROUTE, post, methods=["POST"])]))


def test_a_number_sets_the_cookie_httponly_strict_until_the_token_expires_and_only_once(
    client: TestClient, handovers: Handovers
) -> None:
    number = handovers.offer(TOKEN, expires=int(TOKEN.split(".")[0]))
    answer = client.post(ROUTE, json={"number": number}, headers=ORIGIN)
    assert answer.status_code == 204 and answer.headers["cache-control"] == "no-store"
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}={TOKEN};") and "HttpOnly" in cookie and "SameSite=strict" in cookie
    assert "Path=/" in cookie and "Secure" not in cookie
    age = int(cookie.split("Max-Age=")[1].split(";")[0])
    assert 3590 <= age <= 3600
    again = client.post(ROUTE, json={"number": number}, headers=ORIGIN)
    assert again.status_code == 404 and "set-cookie" not in again.headers


def test_a_page_loaded_over_https_gets_a_secure_cookie(client: TestClient, handovers: Handovers) -> None:
    number = handovers.offer(TOKEN, expires=int(TOKEN.split(".")[0]))
    answer = client.post(ROUTE, json={"number": number, "secure": True}, headers=ORIGIN)
    assert "Secure" in answer.headers["set-cookie"]


def test_a_clearing_clears_the_tokens_it_names_and_leaves_a_newer_one(client: TestClient, handovers: Handovers) -> None:
    client.cookies.set(COOKIE, "a newer token, signed in by another tab")
    kept = client.post(ROUTE, json={"number": handovers.offer(None, expires=0, stale=(TOKEN,))}, headers=ORIGIN)
    assert kept.status_code == 204 and "set-cookie" not in kept.headers
    client.cookies.set(COOKIE, TOKEN)
    cleared = client.post(ROUTE, json={"number": handovers.offer(None, expires=0, stale=(TOKEN,))}, headers=ORIGIN)
    assert cleared.status_code == 204
    assert cleared.headers["set-cookie"].startswith(f'{COOKIE}="";') and "Max-Age=0" in cleared.headers["set-cookie"]


def test_another_sites_page_made_up_numbers_and_bodies_are_refused(client: TestClient, handovers: Handovers) -> None:
    number = handovers.offer(TOKEN, expires=int(TOKEN.split(".")[0]))
    assert (
        client.post(ROUTE, json={"number": number}, headers={"Origin": "https://elsewhere.example"}).status_code == 403
    )
    proxied = {"Origin": "https://ledger.example", "X-Forwarded-Host": "ledger.example"}
    assert client.post(ROUTE, json={"number": "made up"}, headers=proxied).status_code == 404
    for body in (
        b"",
        b"[]",
        b'{"number": ""}',
        b'{"number": "x", "token": "y"}',
        b'{"number": "' + b"x" * 2000 + b'"}',
    ):
        answer = client.post(ROUTE, content=body, headers={**ORIGIN, "Content-Type": "application/json"})
        assert answer.status_code == 422 and "set-cookie" not in answer.headers, body
    # the refused posts took nothing: the page's own post still sets the cookie
    assert "set-cookie" in client.post(ROUTE, json={"number": number}, headers=ORIGIN).headers


def test_a_number_is_good_for_its_lifetime_and_the_oldest_go_first_past_the_bound(handovers: Handovers) -> None:
    clock = handovers.clock
    assert isinstance(clock, Clock)
    late = handovers.offer(TOKEN, expires=0)
    clock.now += 121
    assert handovers.take(late) is None
    numbers = [handovers.offer(TOKEN, expires=0) for _ in range(4)]
    assert handovers.take(numbers[0]) is None  # a fourth pushed the first out (three kept)
    assert all(handovers.take(number) is not None for number in numbers[1:])
