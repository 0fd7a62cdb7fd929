"""The organiser's login survives a reload (issue 13, point 3): a signed, expiring
session token, refused when expired, tampered with, signed for another password or
secret, or logged out; brought back by the browser's cookie."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from dashboard import access, handover
from dashboard.session import LIFETIME, Revoked, issue, read, session_key
from tests.dashboard.conftest import PASSWORD, log_in

Open = Callable[..., AppTest]
SECRET = b"the server's secret"
KEY = session_key(SECRET, PASSWORD)
NOW = 1_800_000_000.0


def test_a_token_is_good_until_it_expires() -> None:
    token = issue(KEY, NOW)
    session = read(token, KEY, NOW + LIFETIME - 1)
    assert session is not None and session.expires == int(NOW + LIFETIME)
    assert read(token, KEY, NOW + LIFETIME) is None
    assert PASSWORD not in token and SECRET.decode() not in token


def test_two_logins_are_two_sessions() -> None:
    first, second = read(issue(KEY, NOW), KEY, NOW), read(issue(KEY, NOW), KEY, NOW)
    assert first is not None and second is not None and first.id != second.id


@pytest.mark.parametrize(
    "tamper",
    [
        lambda t: str(int(t.split(".")[0]) + 3600) + t[t.index(".") :],  # a longer life
        lambda t: t[:-1] + ("0" if t[-1] != "0" else "1"),  # the signature
        lambda t: t.split(".")[0] + ".0" + t.split(".", 1)[1],  # another session id
        lambda t: t.rsplit(".", 1)[0],  # no signature
        lambda t: "",
        lambda t: t + "é",
        lambda t: "-1." + t.split(".", 1)[1],
    ],
)
def test_a_tampered_token_is_refused(tamper: Callable[[str], str]) -> None:
    assert read(tamper(issue(KEY, NOW)), KEY, NOW) is None


def test_another_password_or_secret_refuses_every_older_token() -> None:
    token = issue(KEY, NOW)
    assert read(token, session_key(SECRET, PASSWORD + "!"), NOW) is None
    assert read(token, session_key(b"another server", PASSWORD), NOW) is None


def test_a_revoked_session_is_remembered_until_it_expires() -> None:
    revoked = Revoked()
    old = read(issue(KEY, NOW, lifetime=60), KEY, NOW)
    new = read(issue(KEY, NOW), KEY, NOW)
    assert old is not None and new is not None
    revoked.revoke(old, NOW)
    assert old in revoked and new not in revoked
    revoked.revoke(new, NOW + 61)  # the old one has expired: forgotten
    assert old not in revoked and new in revoked


def test_a_revocation_kept_in_a_folder_outlives_the_process_until_it_expires(tmp_path: Path) -> None:
    """With a configured secret a token outlives the server: its revocation must too."""
    place = tmp_path / "ledger.duckdb.signed-out"
    old = read(issue(KEY, NOW, lifetime=60), KEY, NOW)
    new = read(issue(KEY, NOW), KEY, NOW)
    assert old is not None and new is not None
    Revoked(place).revoke(old, NOW)
    restarted = Revoked(place)  # a server started again: nothing in its memory
    assert old in restarted and new not in restarted
    restarted.revoke(new, NOW + 61)  # the old one has expired: its file is gone
    assert sorted(p.name for p in place.iterdir()) == [f"{new.expires}.{new.id}"]
    assert old not in Revoked(place) and new in Revoked(place)


def test_servers_logging_out_at_once_keep_every_revocation(tmp_path: Path) -> None:
    """Servers over one store (each its own :class:`Revoked`, as processes share no
    memory) logging sessions out at one moment, some long expired: each revocation is
    a file of its own, never a file rewritten, so none is lost, and a server started
    afterwards refuses every one."""
    place = tmp_path / "ledger.duckdb.signed-out"
    sessions = [read(issue(KEY, NOW), KEY, NOW) for _ in range(8)]
    assert all(session is not None for session in sessions)
    start = threading.Barrier(len(sessions))

    def log_out(session: Any) -> None:
        server = Revoked(place)
        start.wait()
        server.revoke(session, NOW)

    with ThreadPoolExecutor(len(sessions)) as pool:
        list(pool.map(log_out, sessions))
    restarted = Revoked(place)
    assert all(session in restarted for session in sessions)
    assert len(list(place.iterdir())) == len(sessions)


def test_a_folder_that_cannot_be_written_keeps_the_revocation_for_the_process(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("", encoding="utf-8")
    revoked = Revoked(blocked / "signed-out")
    session = read(issue(KEY, NOW), KEY, NOW)
    assert session is not None
    revoked.revoke(session, NOW)  # no traceback
    assert session in revoked
    (said,) = [r.getMessage() for r in caplog.records if r.name == "dashboard.session"]
    assert "by this server process only" in said and "\n" not in said


# -- in the app: the cookie brings the login back ------------------------------------------


BROWSER_ID = "this browser's id"


def browser_cookies(monkeypatch: pytest.MonkeyPatch, cookies: dict[str, str]) -> None:
    """Sessions from now on begin with ``cookies`` (as a browser's reload sends them),
    the browser's id among them (the server gives it with the first page)."""
    cookies.setdefault(handover.BROWSER, BROWSER_ID)
    monkeypatch.setattr(type(st.context), "cookies", property(lambda _: cookies))


def cookie_scripts(at: AppTest) -> list[str]:
    """The scripts the run laid out that post a handover of the cookie."""
    return [h.value for h in at.html if handover.ROUTE in h.value]


def handed(script: str) -> handover.Handover:
    """What the handover a script posts does to the cookie (taken: it is good once)."""
    (number,) = re.findall(r'const number = "([^"]+)"', script)
    assert handover.HANDOVERS.take(number, "another browser's id") is None  # bound to its browser
    taken = handover.HANDOVERS.take(number, BROWSER_ID)
    assert taken is not None, number
    return taken


def asks_the_password(at: AppTest) -> bool:
    return any(t.label == "Organiser password" for t in at.text_input)


def test_a_reload_brings_the_organiser_back_and_log_out_ends_it(
    open_page: Open, organiser: str, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cookies: dict[str, str] = {}
    browser_cookies(monkeypatch, cookies)
    at = log_in(open_page("upload"), organiser)
    assert at.file_uploader
    token = at.session_state[access._TOKEN]
    (script,) = cookie_scripts(at)
    assert token not in script and PASSWORD not in script  # no script of the page holds either
    assert at.run() and cookie_scripts(at) == [script]  # a rerun posts the same number, not another
    written = handed(script)
    assert written.token == token and written.expires == int(token.split(".")[0]) and not written.stale
    assert handover.HANDOVERS.take(script.split('"')[1], BROWSER_ID) is None  # good once
    assert at.run() and cookie_scripts(at) == [script]  # taken: not offered again

    cookies[access.COOKIE] = token  # the browser reloads with the cookie written
    again = open_page("upload")
    assert again.file_uploader and not asks_the_password(again)
    assert not cookie_scripts(again)  # the cookie already holds the token

    again.sidebar.button[0].click().run()  # log out
    assert not again.file_uploader and asks_the_password(again)
    (clearing,) = cookie_scripts(again)
    cleared = handed(clearing)
    assert cleared.token is None and cleared.stale == (token,)  # clears that token, only it
    stolen = open_page("upload")  # the token, copied before the log out, is useless
    assert not stolen.file_uploader and asks_the_password(stolen)
    # no secret configured: a restart voids every token, nothing is kept beside the store
    assert not (db.parent / (db.name + ".signed-out")).exists()


def test_a_changed_password_signs_every_browser_out(
    open_page: Open, organiser: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    cookies: dict[str, str] = {}
    browser_cookies(monkeypatch, cookies)
    cookies[access.COOKIE] = log_in(open_page("upload"), organiser).session_state[access._TOKEN]
    assert open_page("upload").file_uploader
    monkeypatch.setenv(access.SETTING, "a new password")
    assert not open_page("upload").file_uploader


def test_log_out_outlives_a_restart_with_a_configured_secret(
    open_page: Open, organiser: str, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README advises a secret so that a restart does not sign the organiser out;
    a token copied before the log out then opened the organiser's pages again after a
    restart, for the rest of its 12 hours: the logged-out sessions were in memory only."""
    monkeypatch.setenv(access.SECRET_SETTING, "kept beside the password")
    cookies: dict[str, str] = {}
    browser_cookies(monkeypatch, cookies)
    token = log_in(open_page("upload"), organiser).session_state[access._TOKEN]
    cookies[access.COOKIE] = token
    again = open_page("upload")
    assert again.file_uploader
    again.sidebar.button[0].click().run()  # log out
    assert asks_the_password(open_page("upload"))
    # the server restarts with the same command: its memory starts empty
    monkeypatch.setattr(access, "REVOKED", Revoked())
    monkeypatch.setattr(access, "_KEPT", {}, raising=False)
    copied = open_page("upload")
    assert not copied.file_uploader and asks_the_password(copied)
    assert (db.parent / (db.name + ".signed-out")).is_dir()


def test_a_configured_secret_keeps_tokens_good_across_server_restarts(
    open_page: Open, organiser: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(access.SECRET_SETTING, "kept beside the password")
    signed_elsewhere = issue(session_key(b"kept beside the password", PASSWORD), time.time())
    browser_cookies(monkeypatch, {access.COOKIE: signed_elsewhere})
    assert open_page("upload").file_uploader


def test_a_number_whose_post_was_lost_is_offered_anew_once_its_time_is_over(
    open_page: Open, organiser: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The network lost the page's posts (the script tries over the number's two
    minutes): the session's next run offers a new number, so the script runs again."""
    browser_cookies(monkeypatch, {})
    at = log_in(open_page("upload"), organiser)
    (lost,) = cookie_scripts(at)
    later = time.monotonic() + handover.LIFETIME + 1
    monkeypatch.setattr(handover.HANDOVERS, "clock", lambda: later)
    at.run()
    (again,) = cookie_scripts(at)
    assert again != lost and handed(again).token == at.session_state[access._TOKEN]
