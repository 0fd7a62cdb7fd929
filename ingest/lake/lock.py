"""One writer at a time: the lake's build lock.

Two runs of ``archive build`` (or ``simulate``, ``export``) on one lake at once would
number their uploads from the same committed batches, and a lake's upload numbers must
be unique; so a run takes the lake's lock first and holds it to its end. The lock is a
small JSON object in the lake's root (:data:`LOCK`), naming its holder (a token of its
own, the host, the process, the command) and when it was taken and last renewed; a
thread renews it every :data:`BEAT_SECONDS` while the run lasts.

A second run finds the lock renewed lately and refuses, saying who holds it since when.
A lock not renewed for :data:`STALE_SECONDS` was left by a run that died (``kill -9``, a
machine gone): it is taken over — at once when it names a process of this machine that
is gone. Looking at the lock and writing one's own is one step for every taker:
on a folder, a run looks at the lock and writes its own under an operating-system lock
of a file beside it (``flock``, held for that moment only), so of runs taking it at the
same instant exactly one finds it free; on an object store a run writes the lock with
its token, waits a moment and reads it back — whoever reads their own token holds it,
which leaves a window only for writes further apart than that moment, with a look at the
lock between them (an object store without conditional writes can do no better).
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final

from events.said import Refusal, Said, say
from ingest.lake.layout import Lake, Unusable

try:
    import fcntl
except ImportError:  # not POSIX: a folder's lock is taken as an object store's is
    fcntl = None  # type: ignore[assignment]

LOCK: Final = "_build.lock"
GUARD: Final = "_build.lock.guard"
"""A folder's file whose operating-system lock makes looking at the lock and writing it one step."""
STALE_SECONDS: Final = 120.0
"""A lock not renewed for this long was left by a run that died: it is taken over."""
BEAT_SECONDS: Final = 20.0
"""How often a run renews its lock."""
SETTLE_SECONDS: Final = 0.3
"""How long a run waits after writing the lock before reading it back."""


class LakeBusy(Refusal):
    """Another run holds the lake's lock; the sentence says who, since when, and what to
    do, in the reader's language."""


class LakeLost(LakeBusy):
    """This run's lock was taken over while it was stopped (suspended, or cut off for
    longer than :data:`STALE_SECONDS`: thought dead): it commits nothing more."""


@dataclass(frozen=True)
class Holder:
    """Who holds the lock: a token of its own, where it runs, what, since when, last seen."""

    token: str
    host: str
    pid: int
    command: str
    since: float
    beat: float

    def dumps(self) -> bytes:
        return json.dumps(self.__dict__).encode("utf-8")

    @classmethod
    def loads(cls, data: bytes) -> Holder | None:
        """The holder a lock names; ``None`` for a lock that cannot be read (a write cut
        short): such a lock holds nothing."""
        try:
            found = json.loads(data)
            return cls(
                str(found["token"]),
                str(found["host"]),
                int(found["pid"]),
                str(found["command"]),
                float(found["since"]),
                float(found["beat"]),
            )
        except (ValueError, KeyError, TypeError):
            return None

    def said(self) -> Said:
        since = datetime.fromtimestamp(self.since, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
        seen = datetime.fromtimestamp(self.beat, UTC).strftime("%H:%M:%S UTC")
        return say(
            "%(command)s on %(host)s (process %(pid)s), since %(since)s, last seen %(seen)s",
            command=self.command,
            host=self.host,
            pid=str(self.pid),
            since=since,
            seen=seen,
        )


def _current(lake: Lake) -> Holder | None:
    if not lake.exists(LOCK):
        return None
    try:
        return Holder.loads(lake.read(LOCK))
    except FileNotFoundError:  # released between the two looks
        return None


@contextmanager
def _one_at_a_time(lake: Lake) -> Iterator[None]:
    """On a folder, the block run by one process (or thread) at a time: an operating-system
    lock of :data:`GUARD`, held for the block only and let go by the kernel if the process
    dies in it. On an object store, nothing: :func:`take` reads its write back instead."""
    if not lake.local or fcntl is None:
        yield
        return
    path = lake.path(GUARD)
    lake.fs.makedirs(os.path.dirname(path), exist_ok=True)
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # closing lets the lock go


def take(
    lake: Lake,
    command: str,
    *,
    clock: Callable[[], float] = time.time,
    stale: float = STALE_SECONDS,
    settle: float = SETTLE_SECONDS,
) -> Holder:
    """Take the lake's lock for ``command``, or raise :class:`LakeBusy` naming who holds
    it; :class:`~ingest.lake.layout.Unusable` when it cannot be written (a read-only
    file system, a folder not one's own), which said only the system's words and the
    guard's path."""
    try:
        return _take(lake, command, clock=clock, stale=stale, settle=settle)
    except OSError as exc:
        said = say(
            "%(lake)s: cannot write the lake's lock: %(problem)s", lake=lake.url, problem=exc.strerror or str(exc)
        )
        raise Unusable(said) from None


def _take(lake: Lake, command: str, *, clock: Callable[[], float], stale: float, settle: float) -> Holder:
    now = clock()
    mine = Holder(secrets.token_hex(16), socket.gethostname(), os.getpid(), command, now, now)
    with _one_at_a_time(lake):
        held = _current(lake)
        if held is not None and now - held.beat < stale and not _died_here(held):
            raise LakeBusy(_busy(lake, held, stale))
        lake.write(LOCK, mine.dumps())  # free, stale, or cut short: now this run's
        if lake.local and fcntl is not None:
            return mine
    time.sleep(settle)
    now_held = _current(lake)
    if now_held is None or now_held.token != mine.token:
        raise LakeBusy(_busy(lake, now_held, stale))
    return mine


def _died_here(held: Holder) -> bool:
    """Whether the lock was taken on this machine by a process that is gone (killed,
    crashed): then it is taken over at once, not after :data:`STALE_SECONDS`."""
    if held.host != socket.gethostname() or held.pid == os.getpid():
        return False
    try:
        os.kill(held.pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # alive, another user's
        return False
    return False


def _busy(lake: Lake, held: Holder | None, stale: float) -> Said:
    who = held.said() if held is not None else say("another run")
    return say(
        "the lake %(lake)s is being written by %(who)s: wait for it to end; a run that died leaves its lock, "
        "which the next run takes over once it is %(seconds)s s old",
        lake=lake.url,
        who=(who,),
        seconds=round(stale),
    )


def renew(lake: Lake, holder: Holder, *, clock: Callable[[], float] = time.time) -> Holder | None:
    """Renew the lock if it is still ``holder``'s; the renewed holder, or ``None`` if
    another run took it over (this one was thought dead)."""
    with _one_at_a_time(lake):
        held = _current(lake)
        if held is None or held.token != holder.token:
            return None
        renewed = Holder(holder.token, holder.host, holder.pid, holder.command, holder.since, clock())
        lake.write(LOCK, renewed.dumps())
    return renewed


def still_held(lake: Lake, token: str) -> None:
    """Raise :class:`LakeLost` unless the lock still holds ``token``: asked before each
    commit (on whichever worker makes it), so a run stopped for longer than
    :data:`STALE_SECONDS` — ``kill -STOP``, Ctrl-Z, a laptop's lid shut — and taken over
    meanwhile commits nothing when it goes on. It numbered its uploads from the lake as
    it stood when it began; another run has added to it since, and each batch it went on
    to commit stored again what that run had (games and upload ids twice)."""
    held = _current(lake)
    if held is None or held.token != token:
        now = say("%(holder)s holds it now", holder=(held.said(),)) if held is not None else say("nobody holds it now")
        raise LakeLost(
            say(
                "the lake %(lake)s: this run's lock was taken over while it was stopped (%(now)s): it commits "
                "nothing more; what it committed before stands, and a run started anew adds the rest",
                lake=lake.url,
                now=(now,),
            )
        )


def release(lake: Lake, holder: Holder) -> None:
    """Let the lock go, if it is still ``holder``'s (never another run's)."""
    with _one_at_a_time(lake):
        held = _current(lake)
        if held is not None and held.token == holder.token:
            lake.fs.rm_file(lake.path(LOCK))


@contextmanager
def holding(lake: Lake, command: str, *, beat: float = BEAT_SECONDS) -> Iterator[Holder]:
    """The lake's lock held for the block, renewed every ``beat`` seconds by a thread of
    its own, and let go after it (whatever the block raised)."""
    holder = take(lake, command)
    stop = threading.Event()
    current = [holder]

    def renewing() -> None:
        while not stop.wait(beat):
            renewed = renew(lake, current[0])
            if renewed is None:
                return
            current[0] = renewed

    thread = threading.Thread(target=renewing, name="lake-lock", daemon=True)
    thread.start()
    try:
        yield holder
    finally:
        stop.set()
        thread.join(timeout=5)
        release(lake, current[0])
