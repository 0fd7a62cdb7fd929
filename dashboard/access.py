"""Who may use the organiser's pages: a password, compared in constant time, behind a
door that slows wrong guesses down and then shuts for a while.

The password is ``$SABOTEUR_ADMIN_PASSWORD``, else ``SABOTEUR_ADMIN_PASSWORD`` in the
Streamlit secrets (``.streamlit/secrets.toml``). With neither set the organiser's pages
stay shut and say how to open them. The password itself is never kept in the session,
nor in the browser, nor in an address.

The right password earns a signed, expiring token (:mod:`dashboard.session`), kept in
the session and in a browser cookie (:data:`COOKIE`, ``HttpOnly``, ``SameSite=Strict``,
``Secure`` over https), so a reload or a typed address finds the organiser still signed in for
:data:`dashboard.session.LIFETIME`. Tokens are signed with a key derived from the
password and the server's secret: ``$SABOTEUR_SESSION_SECRET`` (or the secrets file)
if set, else a random one of this server process, so restarting the server signs
everyone out. Logging out revokes the token for the whole process and clears the
cookie; with a configured secret the revocation is kept in a folder beside the store
too (:func:`_revoked`), as the token outlives the process. Streamlit reads cookies
but cannot set them: a tiny script of our own (``st.html`` with JavaScript allowed, in
the page itself) asks the server to (:func:`keep_cookie`, :mod:`dashboard.handover`),
so no script in the page can read the token. Another tells the
browser the page's language (:func:`keep_language`): Streamlit's page says ``<html lang="en">`` whatever it shows,
and a screen reader read Dutch, German and Norwegian with an English voice.

Guessing is held back per client — its address where Streamlit knows it, else its
session (a browser on the same machine has no address) — by one :class:`Door` for the
whole server process: every wrong password is answered later than the one before, and
after :data:`TRIES` of them the client is turned away for :data:`LOCKOUT` seconds,
whatever it types. A try counts as wrong until it proves right, so tries sent side by
side cannot slip past the count. Behind a reverse proxy every phone comes from the
proxy's address: ``saboteur dashboard --trusted-proxy CIDR`` (``$SABOTEUR_TRUSTED_PROXIES``)
names the proxies whose ``X-Forwarded-For`` is believed, read from the right up to the
first hop that is not one of them (:func:`client_address`); without it the address is
the socket's, whatever a header claims. And the door counts every wrong password of
every client too: after :data:`GLOBAL_TRIES` within :data:`LOCKOUT` seconds it is shut
for everyone who is not signed in already, so a header made up anew for each try buys
no more than that.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import logging
import math
import os
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import streamlit as st

from dashboard import i18n
from dashboard.data import db_path
from dashboard.handover import BROWSER, COOKIE, HANDOVERS, ROUTE
from dashboard.i18n import _, ngettext
from dashboard.session import Revoked, Session, issue, read, session_key

_LOGGER = logging.getLogger(__name__)
SETTING: Final = "SABOTEUR_ADMIN_PASSWORD"
SECRET_SETTING: Final = "SABOTEUR_SESSION_SECRET"
_FLAG: Final = "organiser"
_TOKEN: Final = "organiser_token"
_SIGNED_OUT: Final = "organiser_signed_out"
_HANDED: Final = "organiser_cookie_handover"
_SESSION_KEY: Final = "organiser_door_key"

TRIES: Final = 5
"""Wrong passwords in a row before the door shuts."""
LOCKOUT: Final = 300.0
"""Seconds the door stays shut; also how long a wrong password is remembered."""
DELAY: Final = 1.0
"""Seconds the first wrong password waits for its answer; each next one waits twice as
long, up to :data:`MAX_DELAY`."""
MAX_DELAY: Final = 8.0
GLOBAL_TRIES: Final = 60
"""Wrong passwords from every client together, within :data:`LOCKOUT` seconds, before the
door shuts for everyone not signed in: the bound on guessing however the tries are spread."""
PROXIES_SETTING: Final = "SABOTEUR_TRUSTED_PROXIES"
"""The reverse proxies whose ``X-Forwarded-For`` is believed: networks (CIDR), comma-separated."""
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
        everyone: int = GLOBAL_TRIES,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.tries = tries
        self.lockout = lockout
        self.everyone = everyone
        self.clock = clock
        self.sleep = sleep
        self._lock = threading.Lock()
        self._clients: dict[str, _Tries] = {}
        self._wrong: list[float] = []
        """When each try of the last :attr:`lockout` seconds was made, every client's."""
        self._shut_until = 0.0

    def knock(self, client: str) -> float:
        """Count a try by ``client`` as wrong until :meth:`admit` says otherwise;
        ``0.0`` if it may try now, else the seconds until the door opens again."""
        with self._lock:
            now = self.clock()
            if self._shut_until > now:
                return self._shut_until - now
            seen = self._clients.get(client)
            if seen is not None and seen.shut_until > now:
                return seen.shut_until - now
            self._wrong = [at for at in self._wrong if now - at < self.lockout]
            self._wrong.append(now)
            if len(self._wrong) >= self.everyone:
                self._shut_until = now + self.lockout
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
        """The right password: the client's wrong ones are forgotten (and this try is not
        one of everyone's)."""
        with self._lock:
            self._clients.pop(client, None)
            if self._wrong:
                self._wrong.pop()

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


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def trusted_proxies(text: str | None) -> tuple[Network, ...]:
    """The networks ``$SABOTEUR_TRUSTED_PROXIES`` names (``10.0.0.0/8, ::1``); a
    :class:`ValueError` naming the one that is not a network.

    >>> trusted_proxies("127.0.0.1, 10.0.0.0/8")
    (IPv4Network('127.0.0.1/32'), IPv4Network('10.0.0.0/8'))
    """
    found: list[Network] = []
    for part in (text or "").split(","):
        if part.strip():
            try:
                found.append(ipaddress.ip_network(part.strip(), strict=False))
            except ValueError:
                raise ValueError(f"{part.strip()!r} is not an address or a network (CIDR)") from None
    return tuple(found)


def client_address(socket: str | None, forwarded: Sequence[str], trusted: Sequence[Network]) -> str | None:
    """The client's address: the socket's, unless it is a trusted proxy's; then
    ``X-Forwarded-For`` (every header of it, in order) read from the right, past every
    trusted hop, to the first that is not one — the hop a trusted proxy saw. A hop that
    is no address ends the walk there (the proxy's own address stands); with every hop
    trusted, the leftmost.

    >>> nets = trusted_proxies("10.0.0.0/8")
    >>> client_address("10.0.0.2", ["6.6.6.6, 198.51.100.7, 10.0.0.9"], nets)
    '198.51.100.7'
    >>> client_address("198.51.100.7", ["1.2.3.4"], nets)  # not from the proxy: the header is not believed
    '198.51.100.7'
    >>> client_address("10.0.0.2", ["1.2.3.4"], ())  # no proxy trusted
    '10.0.0.2'
    """
    if socket is None or not trusted or not _within(socket, trusted):
        return socket
    hops = [hop.strip() for header in forwarded for hop in header.split(",") if hop.strip()]
    seen = socket
    for hop in reversed(hops):
        try:
            ipaddress.ip_address(hop)
        except ValueError:
            return seen
        seen = hop
        if not _within(hop, trusted):
            return hop
    return seen


def _forwarded() -> list[str]:
    """The request's ``X-Forwarded-For`` headers, in order."""
    return list(st.context.headers.get_all("X-Forwarded-For"))


def _within(address: str, networks: Sequence[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip.version == net.version and ip in net for net in networks)


def client() -> str:
    """Whom the door counts: the client's address where Streamlit knows it (through
    the trusted proxies, :func:`client_address`), else this session (a random key kept
    in it)."""
    try:
        trusted = trusted_proxies(os.environ.get(PROXIES_SETTING))
    except ValueError as wrong:  # set by hand, not through --trusted-proxy: no header is believed
        _LOGGER.error("$%s is not used: %s", PROXIES_SETTING, wrong)
        trusted = ()
    address = client_address(st.context.ip_address, _forwarded() if trusted else [], trusted)
    if isinstance(address, str) and address:
        return f"address {address}"
    if _SESSION_KEY not in st.session_state:
        st.session_state[_SESSION_KEY] = secrets.token_hex(16)
    return f"session {st.session_state[_SESSION_KEY]}"


def _setting(name: str) -> str | None:
    """A setting from the environment, else from the Streamlit secrets; ``None`` if unset."""
    value = os.environ.get(name)
    if value:
        return value
    try:
        secret = st.secrets.get(name)
    except FileNotFoundError:  # no secrets file at all (StreamlitSecretNotFoundError is one)
        return None
    return str(secret) if secret else None


def configured_password() -> str | None:
    """The organiser's password, from the environment or the secrets; ``None`` if unset."""
    return _setting(SETTING)


_PROCESS_SECRET: Final = secrets.token_bytes(32)
"""The secret tokens are signed with when none is configured: this process's own."""
REVOKED = Revoked()
"""Sessions logged out, for the whole server process, when no secret is configured (a
restart signs everyone out then)."""
_KEPT: dict[Path, Revoked] = {}
"""Sessions logged out where a configured secret outlives the process: kept in a folder
beside the store too, one :class:`Revoked` a folder."""
_KEPT_LOCK = threading.Lock()
SIGNED_OUT_SUFFIX: Final = ".signed-out"
"""The folder beside the store (``saboteur.duckdb.signed-out``) that keeps the sessions
logged out while a configured secret holds."""


def _revoked() -> Revoked:
    """Where logged-out sessions are kept: in this process alone when its secret is its
    own (no token outlives it), else in a folder beside the store too, so that a server
    started again with the same secret still refuses them."""
    if not _setting(SECRET_SETTING):
        return REVOKED
    store = db_path()
    place = store.with_name(store.name + SIGNED_OUT_SUFFIX)
    with _KEPT_LOCK:
        return _KEPT.setdefault(place, Revoked(place))


def _key(password: str) -> bytes:
    configured = _setting(SECRET_SETTING)
    return session_key(configured.encode("utf-8") if configured else _PROCESS_SECRET, password)


def _good(token: object, password: str) -> Session | None:
    """The session a token stands for, if it is signed for this password, unexpired and
    not logged out."""
    if not isinstance(token, str):
        return None
    session = read(token, _key(password), time.time())
    return None if session is None or session in _revoked() else session


def matches(given: str, expected: str) -> bool:
    """Constant-time comparison (``hmac.compare_digest``) of two passwords.

    >>> matches("gold", "gold"), matches("gold", "stone")
    (True, False)
    """
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))


def is_organiser() -> bool:
    """Whether this session is the organiser's: it holds a good token, or the browser
    brought one in its cookie (a reload, a typed address). A token that went bad
    (expired, logged out, signed for an older password) signs the session out."""
    password = configured_password()
    if password is None:
        return False
    for token in (st.session_state.get(_TOKEN), st.context.cookies.get(COOKIE)):
        if _good(token, password) is not None:
            st.session_state[_TOKEN] = token
            st.session_state[_FLAG] = True
            return True
    if _TOKEN in st.session_state:
        del st.session_state[_TOKEN]
        st.session_state[_FLAG] = False
    return bool(st.session_state.get(_FLAG))


def log_out() -> None:
    """Sign this session out and make its token useless wherever it was copied; the
    cookie is cleared by :func:`keep_cookie` on the run that follows."""
    token = st.session_state.pop(_TOKEN, None)
    password = configured_password()
    session = _good(token, password) if password is not None else None
    if session is not None:
        _revoked().revoke(session, time.time())
        st.session_state[_SIGNED_OUT] = token
    st.session_state[_FLAG] = False


# Each script is a block of its own: Streamlit runs a script again in the same document
# whenever its text changes, and a second top-level ``const`` of the same name is a
# SyntaxError there (the language picked a second time was never told).
_COOKIE_SCRIPT: Final = """<script>{
const number = %(number)s, secure = location.protocol === "https:";
let answered = false;
const send = (left, pause) => fetch(%(route)s, {
  method: "POST", credentials: "same-origin", headers: {"Content-Type": "application/json"},
  body: JSON.stringify({number, secure}),
}).then(() => { answered = true; },
  () => { if (left > 0) setTimeout(() => send(left - 1, Math.min(pause * 2, 30000)), pause); });
addEventListener("online", () => { if (!answered) send(0, 0); });
send(8, 1000);
}</script>"""
"""Post a handover's number (:mod:`dashboard.handover`): the answer sets or clears the
cookie. A post the network lost is sent again, eight times over two minutes (the
number's lifetime), and at once when the network comes back; after that the session's
next run offers a new number."""


_LANGUAGE_SCRIPT: Final = """<script>{
const lang = %(lang)s;
if (document.documentElement.lang !== lang) document.documentElement.lang = lang;
}</script>"""


def keep_language() -> None:
    """Tell the browser the language the page speaks (``<html lang>``): a screen reader
    reads the page in its voice, the browser hyphenates and translates by it. Laid out
    on every run of every page (the app calls it through :func:`keep_cookie`, before
    the page itself runs, so a page that stops early is told too); Streamlit runs it
    again when its text changes (another language picked), and setting the same
    language again changes nothing."""
    script = _LANGUAGE_SCRIPT % {"lang": _js(i18n.language())}
    st.html(script, unsafe_allow_javascript=True)  # our own text only: one of the languages spoken


def keep_cookie() -> None:
    """Make the browser's cookie follow the session: write a token it lacks, clear one
    that no longer signs in (logged out, expired). A cookie the browser changed since
    this session began is left alone when clearing (another tab may have signed in).
    The server writes it, ``HttpOnly`` (:mod:`dashboard.handover`): the page's script
    holds a one-time number bound to this browser, never the token. The script is laid
    out on every run that needs it, with the same number while the session wants the
    same change and the number may still be (or was) taken (Streamlit runs a script
    again only when its text changes); a number whose post was lost and whose time ran
    out is replaced, and the new script posts again. The page's language is kept first
    (:func:`keep_language`): every page of the app calls this one."""
    keep_language()
    brought = st.context.cookies.get(COOKIE)
    token = st.session_state.get(_TOKEN) if is_organiser() else None
    if isinstance(token, str):
        if token == brought:
            return
        change: tuple[str | None, int, tuple[str, ...]] = (token, _expiry(token), ())
    else:
        stale = tuple(dict.fromkeys(t for t in (brought, st.session_state.get(_SIGNED_OUT)) if isinstance(t, str)))
        if not stale:
            return
        change = (None, 0, stale)
    browser = st.context.cookies.get(BROWSER)
    if not browser:  # a browser that keeps no cookie: there is none to write
        return
    handed = st.session_state.get(_HANDED)
    if not (isinstance(handed, tuple) and handed[0] == (browser, change)):
        handed = None
    elif handed[2] != "taken":  # once taken, the session asks no more
        handed = (*handed[:2], HANDOVERS.state(handed[1]))
    if handed is None or handed[2] is None:
        handed = ((browser, change), HANDOVERS.offer(browser, change[0], expires=change[1], stale=change[2]), "waiting")
    st.session_state[_HANDED] = handed
    script = _COOKIE_SCRIPT % {"number": _js(handed[1]), "route": _js(ROUTE)}
    st.html(script, unsafe_allow_javascript=True)  # our own text only: the values pass through _js


def _expiry(token: str) -> int:
    """When a good token stops being good (Unix seconds: its first part)."""
    return int(token.partition(".")[0])


def _js(value: object) -> str:
    """``value`` as a JavaScript literal inside a ``<script>`` (a cookie the browser
    brought is anyone's text: no ``</script>`` of its own)."""
    return json.dumps(value).replace("<", "\\u003c")


LINK_SETTING: Final = "SABOTEUR_SIGN_IN_LINK"
"""The token of the organiser's one-time sign-in link, which ``saboteur dashboard`` makes
for the server it starts and prints in its terminal (:func:`_signed_in_by_link`)."""
_LINK_USED = threading.Event()
_LINK_LOCK = threading.Lock()


def take_link(given: str) -> bool:
    """Whether ``given`` is this server's sign-in token, not used yet: then it is used
    (once, however many sessions give it at the same moment)."""
    token = os.environ.get(LINK_SETTING, "")
    with _LINK_LOCK:
        good = bool(token) and not _LINK_USED.is_set() and hmac.compare_digest(given.encode(), token.encode())
        if good:
            _LINK_USED.set()
    return good


def _signed_in_by_link(expected: str) -> bool:
    """Sign the organiser in by the link ``saboteur dashboard`` printed in its terminal
    (``?sign_in=TOKEN``): once per server, past the door. Someone in the hall with a
    dozen addresses can keep the door shut for everyone (:data:`GLOBAL_TRIES`); the
    terminal is the organiser's alone. The token (192 bits) is compared in constant time
    and taken out of the address at once; a link used already, or not this server's,
    opens nothing and says so."""
    given = st.query_params.get("sign_in")
    if given is None:
        return False
    del st.query_params["sign_in"]
    if not take_link(given):
        st.warning(
            _("This sign-in link opens nothing (it was used already, or is not this server's): give the password.")
        )
        return False
    st.session_state[_TOKEN] = issue(_key(expected), time.time())
    st.session_state[_FLAG] = True
    return True


def gate() -> bool:
    """Lay out the password form unless this session is the organiser's; whether the
    organiser's page may go on."""
    expected = configured_password()
    if expected is None:
        disabled = _(
            "The organiser's pages are not enabled. To enable them, start the dashboard with a password in "
            'the environment (`%(setting)s=… saboteur dashboard`) or put `%(setting)s = "…"` in '
            "`.streamlit/secrets.toml`."
        )
        st.info(disabled % {"setting": SETTING})
        return False
    if is_organiser():
        return True
    if _signed_in_by_link(expected):
        st.rerun()  # the sidebar and the cookie, laid out before the page, learn it at once
    with st.form("organiser_login"):
        given = st.text_input(_("Organiser password"), type="password")
        submitted = st.form_submit_button(_("Log in"))
    if submitted:
        who = client()
        shut = DOOR.knock(who)
        if shut:
            minutes = math.ceil(shut / 60)
            shut_for = ngettext(
                "Too many wrong passwords: the door is shut for %(num)d more minute.",
                "Too many wrong passwords: the door is shut for %(num)d more minutes.",
                minutes,
            )
            st.error(shut_for % {"num": minutes})
        elif matches(given, expected):
            DOOR.admit(who)
            st.session_state[_TOKEN] = issue(_key(expected), time.time())
            st.session_state[_FLAG] = True
            st.rerun()
        else:
            DOOR.turn_away(who)
            st.error(_("That is not the organiser's password."))
    return False
