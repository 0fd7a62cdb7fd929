"""The organiser's session token: what lets a login survive a reload or a typed address.

A token is ``EXPIRES.ID.SIGNATURE``: when it stops being good (Unix seconds), a random
session id, and the HMAC-SHA256 of those two under a key derived from the server's
secret and the organiser's password (:func:`session_key`). The password is never in
the token; changing it changes the key, so every token signed before is refused. A
token holds no rights of its own beyond its lifetime: logging out puts its id in a
:class:`Revoked` set until it would have expired anyway; kept in a folder too where the
server's secret outlives the process, so that a restart does not bring it back.

Pure functions of their arguments (the clock included) but for :func:`issue`'s random
id, so the tests need neither Streamlit nor waiting.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
import threading
from contextlib import suppress
from dataclasses import dataclass
from hmac import compare_digest  # bound here: the password's own comparison is counted apart in the tests
from pathlib import Path
from typing import Final

_LOGGER = logging.getLogger(__name__)

LIFETIME: Final = 12 * 3600
"""Seconds a login lasts: a tournament day."""
_LABEL: Final = b"saboteur-ledger organiser session v1\n"
"""What the key is for, so that the secret signs nothing else by the same key."""
_ID_BYTES: Final = 16


def session_key(secret: bytes, password: str) -> bytes:
    """The key tokens are signed with: the server's secret and the password, so a
    password changed refuses every older token, and a token seen gives no way to test
    guesses of the password without the secret."""
    return hmac.new(secret, _LABEL + password.encode("utf-8"), hashlib.sha256).digest()


def _signature(key: bytes, body: str) -> str:
    return hmac.new(key, body.encode("ascii"), hashlib.sha256).hexdigest()


def issue(key: bytes, now: float, lifetime: float = LIFETIME) -> str:
    """A new token, good until ``now + lifetime``, for a fresh random session id."""
    body = f"{int(now + lifetime)}.{secrets.token_hex(_ID_BYTES)}"
    return f"{body}.{_signature(key, body)}"


@dataclass(frozen=True, slots=True)
class Session:
    """What a good token says: its session id and when it stops being good."""

    id: str
    expires: int


def read(token: str, key: bytes, now: float) -> Session | None:
    """The session ``token`` stands for, if it was signed with ``key`` and has not
    expired at ``now``; ``None`` for anything else (malformed, tampered, signed by
    another password or secret, expired). The signature is compared in constant time.

    >>> key = session_key(b"secret", "gold")
    >>> read(issue(key, now=0.0), key, now=60.0) is not None
    True
    >>> read(issue(key, now=0.0), session_key(b"secret", "stone"), now=60.0) is None
    True
    """
    expires, _, rest = token.partition(".")
    sid, _, signature = rest.partition(".")
    if not (expires.isascii() and expires.isdigit() and sid.isascii() and sid.isalnum()):
        return None
    if not compare_digest(signature.encode("utf-8"), _signature(key, f"{expires}.{sid}").encode("ascii")):
        return None
    if int(expires) <= now:
        return None
    return Session(sid, int(expires))


class Revoked:
    """Session ids logged out, each kept until its token would have expired (then it
    is refused anyway). One set for the whole server process, so a token copied before
    its session logged out is refused too; it holds a lock, every session's script
    thread asks it.

    With a ``place`` (a folder) each one is kept there as well, as an empty file named
    ``EXPIRES.ID``, so a server started again with the same secret still refuses it, and
    every server process over the same folder refuses it at once: a file is made whole
    or not at all, and a revocation is only ever added, never rewritten, so two made at
    the same moment cannot lose each other. Those past their expiry are deleted at the
    next revocation. A folder that cannot be written (read-only, full) is said in the
    server's log in one line: the revocation then holds for this process only.
    """

    def __init__(self, place: Path | None = None) -> None:
        self._lock = threading.Lock()
        self._until: dict[str, int] = {}
        self.place = place

    def revoke(self, session: Session, now: float) -> None:
        with self._lock:
            self._until = {sid: until for sid, until in self._until.items() if until > now}
            self._until[session.id] = session.expires
            if self.place is not None:
                self._keep(self.place, session, now)

    def __contains__(self, session: Session) -> bool:
        with self._lock:
            if session.id in self._until:
                return True
        return self.place is not None and _named(self.place, session).is_file()

    @staticmethod
    def _keep(place: Path, session: Session, now: float) -> None:
        try:
            place.mkdir(parents=True, exist_ok=True)
            _named(place, session).touch()
        except OSError as wrong:
            _LOGGER.warning(
                "a logged-out session is refused by this server process only, not after a restart: "
                "cannot write %s (%s)",
                place,
                wrong.strerror or wrong,
            )
            return
        # the expired ones go (their tokens are refused anyway); one another server
        # removed first, or a folder that went read-only, leaves nothing to do
        with suppress(OSError), os.scandir(place) as kept:
            for entry in kept:
                expires, _, sid = entry.name.partition(".")
                if expires.isascii() and expires.isdigit() and int(expires) <= now and sid.isalnum():
                    with suppress(OSError):
                        os.remove(entry.path)


def _named(place: Path, session: Session) -> Path:
    """The file that keeps ``session`` revoked (its id and expiry are digits and hex
    letters: :func:`read` takes no other)."""
    return place / f"{session.expires}.{session.id}"
