"""Referee codes: a code opens the recording of one table of one round's seating, and
nothing else. Issued for a round's tables (the codes returned are the only copy there
is, for the tables' cards; the record keeps each one's SHA-256), revoked with a reason,
and looked up for the referee's page (:func:`referee_access`) so that trying codes
tells nothing of which exist.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final
from urllib.parse import urlencode

import duckdb
import polars as pl

from analytics.records.stream import Recorded, RecordError, append, shaped
from analytics.records.tournaments import as_stage, require
from analytics.standings import NAME_KEY
from analytics.table_order import by_table
from events.records.tournament import RefereeCodeIssued, RefereeCodeRevoked
from events.said import say
from ingest.store import Store

RECORD_PAGE: Final = "referee"
"""The referee's page on the dashboard's server (``dashboard/referee``, which keeps a
table's entries on the phone while the network is away): a table's card opens
``BASE/referee?code=CODE`` (:func:`record_url`). The Streamlit Record page takes the
same code too (``BASE/record?code=CODE``), for cards printed before."""
CODE_PARAMETER: Final = "code"
"""The query parameter of :data:`RECORD_PAGE` that carries the referee code."""
CODE_BYTES: Final = 24
"""Random bytes in a referee code: 192 bits, beyond guessing, written as 32 characters
of URL-safe base64 (a QR code a phone reads at a glance)."""
CODE_LENGTH: Final = CODE_BYTES * 4 // 3
"""Characters in a referee code: base64 writes 3 bytes as 4 characters."""
_CODE: Final = re.compile(rf"[A-Za-z0-9_-]{{{CODE_LENGTH}}}")
"""What a referee code looks like (:func:`secrets.token_urlsafe` of :data:`CODE_BYTES`)."""


def record_url(base: str, code: str) -> str:
    """The address a table's card opens: the referee's page with the table's code.

    >>> record_url("http://localhost:8501/", "abc")
    'http://localhost:8501/referee?code=abc'
    """
    return f"{base.rstrip('/')}/{RECORD_PAGE}?{urlencode({CODE_PARAMETER: code})}"


def code_sha256(code: str) -> str:
    """What the record keeps of a referee code: the hex SHA-256 of its text."""
    return hashlib.sha256(code.encode("utf-8")).hexdigest()


def code_digest(code: str) -> str | None:
    """The SHA-256 of ``code`` if it looks like a referee code, else ``None``: a string
    that could never have been drawn is not worth a hash, nor a look in the store."""
    return code_sha256(code) if _CODE.fullmatch(code) else None


def live_code_digests(store: Store) -> frozenset[str]:
    """The SHA-256 of every referee code not revoked: what a server holds in memory to
    answer a code guessed without reading the store (:func:`referee_access` then finds
    the table of a code among them, as the seating stands)."""
    with store.connect(read_only=True) as con:
        rows = con.execute("SELECT code_sha256 FROM referee_codes WHERE revoked_seq IS NULL").fetchall()
    return frozenset(str(row[0]) for row in rows)


@dataclass(frozen=True, slots=True)
class SeatedPlayer:
    """A player at a table, with the display name the tournament registered (``None``
    where it registered none), and whether another player of the tournament is
    registered under that name (:data:`analytics.standings.NAME_KEY`): such players are
    shown with their ids, as the standings show them."""

    player: str
    name: str | None
    namesake: bool = False


@dataclass(frozen=True, slots=True)
class RefereeAccess:
    """What a referee code opens: one table of one round's seating, as the seating
    stands now — the tournament (its name and ruleset), the round and its stage, the
    table's label and its players in seat order."""

    tournament: str
    tournament_name: str
    ruleset: str
    tournament_round: int
    stage: str
    table: str
    players: tuple[SeatedPlayer, ...]


@dataclass(frozen=True, slots=True)
class RefereeCode:
    """A code just issued and the table it opens: what a table's card prints. The code
    stays out of the ``repr``, which may end up in a log."""

    code: str = field(repr=False)
    access: RefereeAccess

    @property
    def fingerprint(self) -> str:
        """The start of the code's SHA-256, as ``tournament log`` shows it: names the
        card without giving its code away."""
        return code_sha256(self.code)[:8]


def _seated(
    con: duckdb.DuckDBPyConnection, tournament: str, number: int, *, stage: str | None = None, table: str | None = None
) -> list[RefereeAccess]:
    """The tables of the round's seating (of one stage, or one table, if given), in
    table order, each with its players in seat order and their names."""
    key = NAME_KEY.replace("{name}", "name")
    rows = con.execute(
        "SELECT t.name, t.ruleset, s.stage, s.table_label, s.player, p.name, coalesce(p.same > 1, false) "
        "FROM seatings s JOIN tournaments t USING (tournament) "
        f"LEFT JOIN (SELECT player, name, count(*) OVER (PARTITION BY {key}) AS same "
        "FROM tournament_players WHERE tournament = ? AND name IS NOT NULL) p ON p.player = s.player "
        "WHERE s.tournament = ? AND s.tournament_round = ? "
        "AND (s.stage = ? OR ? IS NULL) AND (s.table_label = ? OR ? IS NULL) "
        f"ORDER BY s.stage, {by_table('s.table_label')}, s.seat",
        [tournament, tournament, number, stage, stage, table, table],
    ).fetchall()
    tables: dict[tuple[str, str], list[SeatedPlayer]] = {}
    names: tuple[str, str] = ("", "")
    for name, ruleset, at_stage, label, player, player_name, namesake in rows:
        names = (str(name), str(ruleset))
        seated = SeatedPlayer(str(player), player_name, bool(namesake))
        tables.setdefault((str(at_stage), str(label)), []).append(seated)
    return [
        RefereeAccess(tournament, names[0], names[1], number, at_stage, label, tuple(players))
        for (at_stage, label), players in tables.items()
    ]


def issue_referee_codes(
    store: Store,
    tournament: str,
    tournament_round: int,
    tables: Sequence[str] | None = None,
    *,
    printed: Callable[[list[RefereeCode]], object] | None = None,
) -> list[RefereeCode]:
    """A new referee code for each table of the round's seating (``None``) or for each
    of ``tables``, recorded by its SHA-256 alone: the codes returned are the only copy
    there is, for the tables' cards. A table that had a code gets a new one, which
    revokes the old (:class:`~events.records.tournament.RefereeCodeIssued`).

    ``printed`` is given the codes before they are recorded, to write their cards: if
    it raises, no code is recorded (a code recorded and printed nowhere is lost, and it
    has revoked the table's card that worked)."""
    if tables is not None and not tables:
        raise RecordError(say("name a table, or none for every table of the round"))
    with store.connect(read_only=True) as con:
        require(con, tournament)
        seated = _seated(con, tournament, tournament_round)
    if not seated:
        raise RecordError(
            say(
                "round %(round)s of %(tournament)s is not seated: seat it first (saboteur tournament seat)",
                round=tournament_round,
                tournament=tournament,
            )
        )
    stages = sorted({table.stage for table in seated})
    if len(stages) > 1:
        raise RecordError(
            say(
                "round %(round)s of %(tournament)s is seated in more than one stage (%(stages)s): a code could "
                "not tell its tables apart",
                round=tournament_round,
                tournament=tournament,
                stages=", ".join(stages),
            )
        )
    by_label = {table.table: table for table in seated}
    wanted = list(dict.fromkeys(tables)) if tables is not None else list(by_label)
    unknown = [label for label in wanted if label not in by_label]
    if unknown:
        raise RecordError(
            say(
                "round %(round)s of %(tournament)s has no table %(tables)s (its tables: %(known)s)",
                round=tournament_round,
                tournament=tournament,
                tables=", ".join(unknown),
                known=", ".join(by_label),
            )
        )
    issued = [RefereeCode(secrets.token_urlsafe(CODE_BYTES), by_label[label]) for label in wanted]
    events = [
        RefereeCodeIssued(
            type="referee_code_issued",
            tournament_round=tournament_round,
            stage=as_stage(stages[0]),
            table=code.access.table,
            code_sha256=code_sha256(code.code),
        )
        for code in issued
    ]
    if printed is not None:
        printed(issued)
    append(store, tournament, events)
    return issued


def revoke_referee_code(store: Store, tournament: str, tournament_round: int, table: str, reason: str) -> Recorded:
    """Revoke the code of one table of a round, with a reason: from then on it opens
    nothing (a new one may be issued)."""
    if not reason.strip():
        raise RecordError(say("a revocation needs a --reason"))
    with store.connect(read_only=True) as con:
        require(con, tournament)
        rows = con.execute(
            "SELECT code_sha256 FROM referee_codes WHERE tournament = ? AND tournament_round = ? "
            "AND table_label = ? AND revoked_seq IS NULL",
            [tournament, tournament_round, table],
        ).fetchall()
    if not rows:
        raise RecordError(
            say(
                "table %(table)s of round %(round)s of %(tournament)s has no code to revoke",
                table=table,
                round=tournament_round,
                tournament=tournament,
            )
        )
    with shaped():
        event = RefereeCodeRevoked(
            type="referee_code_revoked",
            tournament_round=tournament_round,
            table=table,
            code_sha256=str(rows[0][0]),
            reason=reason.strip(),
        )
    return append(store, tournament, [event])


def referee_access(store: Store, code: str) -> RefereeAccess | None:
    """The table ``code`` opens, as the seating stands now; ``None`` for anything else —
    a code malformed, unknown, revoked, or for a table the round's seating no longer
    has — all alike, so that trying codes tells nothing of which exist.

    The code is found by its SHA-256, and only the hash is compared: the record shows
    every hash anyway, so a lookup by hash tells nothing of a code, and the hash found
    is checked once more in constant time (:func:`hmac.compare_digest`)."""
    digest = code_digest(code)
    if digest is None:
        return None
    with store.connect(read_only=True) as con:
        rows = con.execute(
            "SELECT tournament, tournament_round, stage, table_label, code_sha256 FROM referee_codes "
            "WHERE code_sha256 = ? AND revoked_seq IS NULL",
            [digest],
        ).fetchall()
        for tournament, number, stage, table, stored in rows:
            if hmac.compare_digest(str(stored), digest):
                seated = _seated(con, str(tournament), int(number), stage=str(stage), table=str(table))
                return seated[0] if seated else None
    return None


def referee_codes(store: Store, tournament: str) -> pl.DataFrame:
    """Every referee code of the tournament, newest first: its round, stage and table,
    its fingerprint (the start of its SHA-256, as the card and ``tournament log`` show
    it), and whether it still opens its table or why not."""
    with store.connect(read_only=True) as con:
        frame: pl.DataFrame = con.sql(
            "SELECT tournament_round, stage, table_label AS table, left(code_sha256, 8) AS fingerprint, "
            "revoked_seq IS NULL AS live, revoked_reason FROM referee_codes WHERE tournament = ? "
            "ORDER BY seq DESC",
            params=[tournament],
        ).pl()
    return frame
