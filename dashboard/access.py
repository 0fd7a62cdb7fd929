"""Who may use the organiser's pages: a password, compared in constant time, behind a
door that slows wrong guesses down and then shuts for a while.

The password is ``$SABOTEUR_ADMIN_PASSWORD``, else ``SABOTEUR_ADMIN_PASSWORD`` in the
Streamlit secrets (``.streamlit/secrets.toml``). With neither set the organiser's pages
stay shut and say how to open them. A session that gave the right password keeps it
until it logs out; the password itself is never kept in the session.

Guessing is held back per client — its address where Streamlit knows it, else its
session (a browser on the same machine has no address) — by one :class:`Door` for the
whole server process: every wrong password is answered later than the one before, and
after :data:`TRIES` of them the client is turned away for :data:`LOCKOUT` seconds,
whatever it types. A try counts as wrong until it proves right, so tries sent side by
side cannot slip past the count.
"""

from __future__ import annotations

import hmac
import math
import os
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import streamlit as st

SETTING: Final = "SABOTEUR_ADMIN_PASSWORD"
_FLAG: Final = "organiser"
_SESSION_KEY: Final = "organiser_door_key"

TRIES: Final = 5
"""Wrong passwords in a row before the door shuts."""
LOCKOUT: Final = 300.0
"""Seconds the door stays shut; also how long a wrong password is remembered."""
DELAY: Final = 1.0
"""Seconds the first wrong password waits for its answer; each next one waits twice as
long, up to :data:`MAX_DELAY`."""
MAX_DELAY: Final = 8.0
_REMEMBERED: Final = 4096
"""Clients remembered before the stale ones are forgotten."""


@dataclass(slots=True)
class _Tries:
    wrong: int
    last: float
    shut_until: float = 0.0


class Door:
    """Wrong passwords per client, kept for the whole server process (every session's
    script thread asks the same door, so it holds a lock).

    ``clock`` (monotonic seconds) and ``sleep`` are parameters so tests run without
    waiting.
    """

    def __init__(
        self,
        *,
        tries: int = TRIES,
        lockout: float = LOCKOUT,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.tries = tries
        self.lockout = lockout
        self.clock = clock
        self.sleep = sleep
        self._lock = threading.Lock()
        self._clients: dict[str, _Tries] = {}

    def knock(self, client: str) -> float:
        """Count a try by ``client`` as wrong until :meth:`admit` says otherwise;
        ``0.0`` if it may try now, else the seconds until the door opens again."""
        with self._lock:
            now = self.clock()
            seen = self._clients.get(client)
            if seen is not None and seen.shut_until > now:
                return seen.shut_until - now
            if seen is None or now - seen.last >= self.lockout:
                if len(self._clients) >= _REMEMBERED:
                    self._forget(now)
                seen = self._clients[client] = _Tries(0, now)
            seen.wrong += 1
            seen.last = now
            if seen.wrong >= self.tries:
                seen.shut_until = now + self.lockout
            return 0.0

    def admit(self, client: str) -> None:
        """The right password: the client's wrong ones are forgotten."""
        with self._lock:
            self._clients.pop(client, None)

    def turn_away(self, client: str) -> None:
        """Answer a wrong password late: later for each one in a row."""
        with self._lock:
            seen = self._clients.get(client)
            wrong = seen.wrong if seen is not None else 1
        self.sleep(min(DELAY * 2 ** (wrong - 1), MAX_DELAY))

    def _forget(self, now: float) -> None:
        stale = [c for c, t in self._clients.items() if t.shut_until <= now and now - t.last >= self.lockout]
        for client in stale:
            del self._clients[client]


DOOR = Door()
"""The server's one door (module state lives as long as the Streamlit process)."""


def client() -> str:
    """Whom the door counts: the client's address where Streamlit knows it, else this
    session (a random key kept in it)."""
    address = st.context.ip_address
    if isinstance(address, str) and address:
        return f"address {address}"
    if _SESSION_KEY not in st.session_state:
        st.session_state[_SESSION_KEY] = secrets.token_hex(16)
    return f"session {st.session_state[_SESSION_KEY]}"


def configured_password() -> str | None:
    """The organiser's password, from the environment or the secrets; ``None`` if unset."""
    value = os.environ.get(SETTING)
    if value:
        return value
    try:
        secret = st.secrets.get(SETTING)
    except FileNotFoundError:  # no secrets file at all (StreamlitSecretNotFoundError is one)
        return None
    return str(secret) if secret else None


def matches(given: str, expected: str) -> bool:
    """Constant-time comparison (``hmac.compare_digest``) of two passwords.

    >>> matches("gold", "gold"), matches("gold", "stone")
    (True, False)
    """
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))


def is_organiser() -> bool:
    """Whether this session gave the organiser's password (and one is still set)."""
    return bool(st.session_state.get(_FLAG)) and configured_password() is not None


def log_out() -> None:
    st.session_state[_FLAG] = False


def gate() -> bool:
    """Lay out the password form unless this session is the organiser's; whether the
    organiser's page may go on."""
    expected = configured_password()
    if expected is None:
        st.info(
            "The organiser's pages are not enabled. To enable them, start the dashboard with a password in "
            f'the environment (`{SETTING}=… saboteur dashboard`) or put `{SETTING} = "…"` in '
            "`.streamlit/secrets.toml`."
        )
        return False
    if is_organiser():
        return True
    with st.form("organiser_login"):
        given = st.text_input("Organiser password", type="password")
        submitted = st.form_submit_button("Log in")
    if submitted:
        who = client()
        shut = DOOR.knock(who)
        if shut:
            minutes = math.ceil(shut / 60)
            st.error(f"Too many wrong passwords: the door is shut for {minutes} more minute(s).")
        elif matches(given, expected):
            DOOR.admit(who)
            st.session_state[_FLAG] = True
            st.rerun()
        else:
            DOOR.turn_away(who)
            st.error("That is not the organiser's password.")
    return False
