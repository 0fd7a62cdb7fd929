"""The organiser's door (issue 10, point 6): the dashboard listens on this machine
only unless told otherwise; wrong passwords are answered later and later and, after a
few, shut the door for a while, per client; the right one opens it again after that."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest
from typer.testing import CliRunner

from cli import dashboard as serve
from cli.main import app
from dashboard import access
from tests.dashboard.conftest import APP, PASSWORD, log_in

Open = Callable[..., AppTest]
WRONG = ["That is not the organiser's password."]


class Clock:
    """Monotonic seconds that move only when slept or told to."""

    def __init__(self) -> None:
        self.now = 1_000.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """A fresh door for the test, on a clock of its own."""
    fake = Clock()
    monkeypatch.setattr(access, "DOOR", access.Door(clock=fake, sleep=fake.sleep))
    return fake


def at_address(monkeypatch: pytest.MonkeyPatch, address: str | None) -> None:
    """Sessions from now on come from ``address`` (``None``: this machine)."""
    monkeypatch.setattr(type(st.context), "ip_address", property(lambda _: address))


def errors(at: AppTest) -> list[str]:
    return [e.value for e in at.error]


def test_25_wrong_passwords_are_slowed_then_shut_out_and_the_right_one_works_after(
    open_page: Open, organiser: str, clock: Clock
) -> None:
    at = open_page("upload")
    answers = [errors(log_in(at, f"guess {n}")) for n in range(25)]
    assert answers[: access.TRIES] == [WRONG] * access.TRIES
    for answer in answers[access.TRIES :]:
        (shut,) = answer
        assert shut.startswith("Too many wrong passwords: the door is shut for")
    # each wrong answer came later than the one before; once shut, none was even compared
    assert clock.slept == [1.0, 2.0, 4.0, 8.0, 8.0]
    assert not at.file_uploader
    # shut: the right password is turned away as well, until the lockout is over
    assert "Too many wrong passwords" in errors(log_in(at, PASSWORD))[0]
    assert not at.file_uploader
    clock.now += access.LOCKOUT
    log_in(at, PASSWORD)
    assert not at.error and at.file_uploader


def test_the_door_counts_per_address_across_sessions(
    open_page: Open, organiser: str, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    at_address(monkeypatch, "203.0.113.7")
    first = open_page("upload")
    for n in range(access.TRIES):
        log_in(first, f"guess {n}")
    again = open_page("upload")  # a new session from the same address
    assert "Too many wrong passwords" in errors(log_in(again, PASSWORD))[0]
    at_address(monkeypatch, "198.51.100.2")
    other = open_page("upload")
    assert errors(log_in(other, "guess")) == WRONG
    log_in(other, PASSWORD)
    assert other.file_uploader


def test_without_an_address_the_door_counts_per_session(open_page: Open, organiser: str, clock: Clock) -> None:
    first = open_page("upload")
    for n in range(access.TRIES):
        log_in(first, f"guess {n}")
    assert "Too many wrong passwords" in errors(log_in(first, PASSWORD))[0]
    second = open_page("upload")
    log_in(second, PASSWORD)
    assert second.file_uploader


def test_tries_side_by_side_cannot_slip_past_the_count() -> None:
    door = access.Door(tries=5, sleep=lambda _: None)
    start = threading.Barrier(40)
    answers: list[float] = []

    def knock() -> None:
        start.wait()
        answers.append(door.knock("address 203.0.113.7"))

    threads = [threading.Thread(target=knock) for _ in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers.count(0.0) == 5


def test_a_wrong_password_is_forgotten_after_a_while_and_a_right_one_forgets_them_all() -> None:
    clock = Clock()
    door = access.Door(tries=3, lockout=60.0, clock=clock, sleep=clock.sleep)
    assert door.knock("a") == door.knock("a") == 0.0
    clock.now += 60.0
    assert door.knock("a") == door.knock("a") == 0.0  # the first two are forgotten
    door.admit("a")
    assert door.knock("a") == door.knock("a") == 0.0
    assert door.knock("a") == 0.0 and door.knock("a") == 60.0


class Served(Exception):
    """The server the command would have become (``os.execve`` stands in for it)."""


def serving(monkeypatch: pytest.MonkeyPatch) -> list[tuple[list[str], dict[str, str]]]:
    """What ``saboteur dashboard`` starts from now on (its command line and environment),
    in place of starting it."""
    started: list[tuple[list[str], dict[str, str]]] = []

    def execve(path: str, line: list[str], env: dict[str, str]) -> None:
        started.append((line, env))
        raise Served

    monkeypatch.setattr(serve.os, "execve", execve)
    monkeypatch.setattr(serve.os, "name", "posix")
    return started


def test_the_dashboard_listens_on_this_machine_unless_told(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    started = serving(monkeypatch)
    db = tmp_path / "ledger.duckdb"
    for extra, address in (([], "127.0.0.1"), (["--address", "0.0.0.0"], "0.0.0.0")):
        result = CliRunner().invoke(app, ["dashboard", "--db", str(db), *extra])
        assert isinstance(result.exception, Served)
        line, _env = started.pop()
        assert line[line.index("--server.address") + 1] == address
        assert f"http://{address}:8501" in result.stdout


def test_served_to_every_network_it_names_the_address_phones_open(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    serving(monkeypatch)
    found: list[str | None] = ["192.168.1.20", None]
    monkeypatch.setattr(serve, "network_address", lambda: found.pop(0))

    def said(*extra: str) -> str:
        result = CliRunner().invoke(app, ["dashboard", "--db", str(tmp_path / "ledger.duckdb"), *extra])
        assert isinstance(result.exception, Served)
        return result.stdout

    every = ("--address", "0.0.0.0", "--port", "8600")
    assert "phones on this network open http://192.168.1.20:8600 (the referee cards' --url)" in said(*every)
    shown = said(*every)
    assert "http://ADDRESS:8600" in shown and "hostname -I" in shown
    assert "phones" not in said()  # this machine only


def test_the_network_address_is_not_the_loopback() -> None:
    found = serve.network_address()
    assert found is None or not found.startswith("127.")


# -- behind a reverse proxy (issue 34) -----------------------------------------------------------


def test_behind_a_trusted_proxy_each_phone_is_counted_by_its_own_address(
    open_page: Open, organiser: str, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every phone comes from the proxy's address: with the proxy trusted, the door
    counts each by the address the proxy saw, so one guesser shuts out no one else."""
    at_address(monkeypatch, "10.0.0.2")
    monkeypatch.setenv(access.PROXIES_SETTING, "10.0.0.0/8")
    forwarded = {"value": "198.51.100.7"}
    monkeypatch.setattr(access, "_forwarded", lambda: [forwarded["value"]])
    guesser = open_page("upload")
    for n in range(access.TRIES):
        log_in(guesser, f"guess {n}")
    assert "Too many wrong passwords" in errors(log_in(open_page("upload"), PASSWORD))[0]
    forwarded["value"] = "203.0.113.9"  # another phone, through the same proxy
    organiser_phone = open_page("upload")
    log_in(organiser_phone, PASSWORD)
    assert organiser_phone.file_uploader


@pytest.mark.parametrize(
    ("socket", "headers", "trusted", "client"),
    [
        ("10.0.0.2", ["198.51.100.7"], "10.0.0.0/8", "198.51.100.7"),
        ("10.0.0.2", ["6.6.6.6, 198.51.100.7, 10.0.0.9"], "10.0.0.0/8", "198.51.100.7"),  # right to left
        ("10.0.0.2", ["6.6.6.6", "198.51.100.7"], "10.0.0.0/8", "198.51.100.7"),  # two headers, in order
        ("198.51.100.7", ["1.2.3.4"], "10.0.0.0/8", "198.51.100.7"),  # not from the proxy: not believed
        ("10.0.0.2", ["1.2.3.4"], "", "10.0.0.2"),  # no proxy trusted: the socket's
        ("10.0.0.2", ["not-an-address"], "10.0.0.0/8", "10.0.0.2"),  # a hop that is no address
        ("::1", ["2001:db8::5"], "::1", "2001:db8::5"),
        ("10.0.0.2", [], "10.0.0.0/8", "10.0.0.2"),
    ],
)
def test_the_client_is_read_from_the_right_up_to_the_first_untrusted_hop(
    socket: str, headers: list[str], trusted: str, client: str
) -> None:
    assert access.client_address(socket, headers, access.trusted_proxies(trusted)) == client


def test_a_global_limit_holds_however_the_tries_are_spread() -> None:
    """A header made up anew for each try is a new client each time: the door still
    shuts for everyone after :data:`GLOBAL_TRIES` wrong passwords in its window."""
    clock = Clock()
    door = access.Door(tries=5, lockout=60.0, everyone=20, clock=clock, sleep=clock.sleep)
    answers = [door.knock(f"address 198.51.100.{n}") for n in range(25)]
    assert answers[:19] == [0.0] * 19 and all(a > 0 for a in answers[20:])
    assert door.knock("address 203.0.113.1") > 0  # someone new is turned away too
    clock.now += 60.0
    assert door.knock("address 203.0.113.1") == 0.0  # until the window passes


def test_trusted_proxies_are_given_to_the_server_and_checked(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    started = serving(monkeypatch)
    db = str(tmp_path / "ledger.duckdb")
    result = CliRunner().invoke(app, ["dashboard", "--db", db, "--trusted-proxy", "10.0.0.7", "--trusted-proxy", "::1"])
    assert isinstance(result.exception, Served)
    assert started[-1][1][access.PROXIES_SETTING] == "10.0.0.7/32,::1/128"
    refused = CliRunner().invoke(app, ["dashboard", "--db", db, "--trusted-proxy", "my-proxy"])
    assert refused.exit_code == 2 and "is not an address or a network" in refused.output


def test_trusted_proxies_set_in_the_environment_are_checked_alike(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``$SABOTEUR_TRUSTED_PROXIES`` is "the same" as ``--trusted-proxy``: a value that
    is no network stops the start with the same usage error (the server started, and
    believed no proxy), and good values reach the server as networks."""
    started = serving(monkeypatch)
    db = str(tmp_path / "ledger.duckdb")
    monkeypatch.setenv(access.PROXIES_SETTING, "10.0.0.7, ::1")
    result = CliRunner().invoke(app, ["dashboard", "--db", db])
    assert isinstance(result.exception, Served)
    assert started[-1][1][access.PROXIES_SETTING] == "10.0.0.7/32,::1/128"
    monkeypatch.setenv(access.PROXIES_SETTING, "10.0.0.7,my-proxy")
    refused = CliRunner().invoke(app, ["dashboard", "--db", db])
    said = " ".join(refused.output.replace("│", " ").split())
    assert refused.exit_code == 2
    assert "Invalid value for $SABOTEUR_TRUSTED_PROXIES: 'my-proxy' is not an address or a network" in said


def test_a_trusted_proxies_setting_that_is_no_network_believes_no_header(
    open_page: Open, organiser: str, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``$SABOTEUR_TRUSTED_PROXIES`` set by hand to what is no network: the login page
    still works, counting by the socket's address (no traceback, no header believed)."""
    at_address(monkeypatch, "10.0.0.2")
    monkeypatch.setenv(access.PROXIES_SETTING, "my-proxy")
    monkeypatch.setattr(access, "_forwarded", lambda: ["198.51.100.7"])
    at = open_page("upload")
    assert errors(log_in(at, "guess")) == WRONG
    assert access.client_address("10.0.0.2", ["198.51.100.7"], ()) == "10.0.0.2"


def test_the_organisers_link_signs_in_once_past_a_door_shut_for_everyone(
    open_page: Open, organiser: str, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A dozen addresses in the hall, five wrong passwords each, shut the door for
    everyone (the global bound): the organiser at the laptop too. The link
    ``saboteur dashboard`` prints in its terminal signs them in once, past it; used
    again, or made up, it opens nothing and says so."""
    token = "a" * 32
    monkeypatch.setenv(access.LINK_SETTING, token)
    monkeypatch.setattr(access, "_LINK_USED", threading.Event())
    for n in range(access.GLOBAL_TRIES):
        access.DOOR.knock(f"address 198.51.100.{n}")
    assert "shut" in errors(log_in(open_page("upload"), PASSWORD))[0]

    def with_link(given: str) -> AppTest:
        at = AppTest.from_file(str(APP), default_timeout=60)
        at.switch_page("views/upload.py")
        at.query_params["sign_in"] = given
        return at.run()

    made_up = with_link("b" * 32)
    assert not made_up.file_uploader and made_up.warning[0].value.startswith("This sign-in link opens nothing")
    signed_in = with_link(token)
    assert signed_in.file_uploader and not signed_in.error and "sign_in" not in signed_in.query_params
    again = with_link(token)
    assert not again.file_uploader and again.warning[0].value.startswith("This sign-in link opens nothing")


def test_the_dashboard_prints_the_organisers_link_when_it_has_a_password(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    started = serving(monkeypatch)
    db = tmp_path / "ledger.duckdb"
    monkeypatch.delenv(serve.PASSWORD_VARIABLE, raising=False)
    plain = CliRunner().invoke(app, ["dashboard", "--db", str(db)])
    assert "sign_in" not in plain.stdout and serve.LINK_VARIABLE not in started.pop()[1]
    monkeypatch.setenv(serve.PASSWORD_VARIABLE, PASSWORD)
    told = CliRunner().invoke(app, ["dashboard", "--db", str(db), "--address", "0.0.0.0", "--port", "8600"])
    token = started.pop()[1][serve.LINK_VARIABLE]
    assert len(token) >= 32 and f"http://localhost:8600/upload?sign_in={token}" in told.stdout
    # on this machine only: the host the server's own line names (a cookie is kept per
    # host: a sign-in by a link to localhost was none at the 127.0.0.1 it printed)
    here = CliRunner().invoke(app, ["dashboard", "--db", str(db), "--port", "8601"])
    token = started.pop()[1][serve.LINK_VARIABLE]
    assert f"http://127.0.0.1:8601/upload?sign_in={token}" in here.stdout and "localhost" not in here.stdout
    assert (serve.PASSWORD_VARIABLE, serve.LINK_VARIABLE) == (access.SETTING, access.LINK_SETTING)


@pytest.mark.parametrize("place", ["home", "folder"])
def test_the_dashboard_prints_the_organisers_link_for_a_password_in_the_secrets_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, place: str
) -> None:
    """The password kept where the page tells the organiser to keep it, Streamlit's
    secrets file (in the home folder or the one the server starts in), gives the link
    too; a secrets file without it, or one Streamlit cannot read, none."""
    started = serving(monkeypatch)
    monkeypatch.delenv(serve.PASSWORD_VARIABLE, raising=False)
    home, folder = tmp_path / "home", tmp_path / "here"
    monkeypatch.setenv("HOME", str(home))
    folder.mkdir()
    monkeypatch.chdir(folder)
    secrets_file = (home if place == "home" else folder) / ".streamlit" / "secrets.toml"
    secrets_file.parent.mkdir(parents=True)
    args = ["dashboard", "--db", str(tmp_path / "ledger.duckdb")]
    for text in ('OTHER = "x"\n', f'{serve.PASSWORD_VARIABLE} = "\n'):  # none given; a file TOML cannot read
        secrets_file.write_text(text, encoding="utf-8")
        told = CliRunner().invoke(app, args)
        assert "sign_in" not in told.stdout and serve.LINK_VARIABLE not in started.pop()[1]
    secrets_file.write_text(f'{serve.PASSWORD_VARIABLE} = "{PASSWORD}"\n', encoding="utf-8")
    told = CliRunner().invoke(app, args)
    token = started.pop()[1][serve.LINK_VARIABLE]
    assert f"/upload?sign_in={token}" in told.stdout


def test_the_organisers_link_is_taken_once_by_sessions_giving_it_at_the_same_moment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A link opened in two tabs, or sent on by someone who saw it, at the same moment:
    one session signs in."""
    monkeypatch.setenv(access.LINK_SETTING, "t" * 32)
    monkeypatch.setattr(access, "_LINK_USED", threading.Event())
    sessions = 16
    start = threading.Barrier(sessions)
    taken: list[bool] = []

    def give() -> None:
        start.wait()
        taken.append(access.take_link("t" * 32))

    threads = [threading.Thread(target=give) for _ in range(sessions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(taken) == [False] * (sessions - 1) + [True]
