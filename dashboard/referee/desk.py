"""The server's side of the referee's page: an entry sent from a table's phone, made
into its line of the observed log and appended to the game's draft.

Every entry carries the id the phone gave it and the draft version it was made against
(:class:`~dashboard.referee.wire.Sent`). So an entry is done once however often it is
sent (:func:`ingest.drafts.record_line` finds its id), and in its place: one made against
a version another phone has moved on is not appended after lines its referee never saw
but answered ``conflict``, with what the other phone recorded, for the referee to decide.
The line itself is written by the same :class:`~events.recorder.Recorder` as the
Streamlit Record page writes it, and the rules' warning before an entry is the replay's.

Nothing here knows of HTTP or Streamlit: :mod:`dashboard.referee.routes` is the edge. A
desk keeps each game's recorder between entries (re-reading a draft of three rounds
costs a replay of some hundred lines), checked against the draft's version at every
append, so a write by anyone else (the Streamlit page, another server) is never missed.
"""

from __future__ import annotations

import hashlib
import sys
import threading
from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC
from functools import lru_cache
from pathlib import Path
from typing import Final

from analytics import browse, records
from dashboard import card_words, i18n, maze_svg, names, sentences
from dashboard.i18n import _
from dashboard.maze_svg import card_svg
from dashboard.names import card as card_name
from dashboard.names import outcome
from dashboard.recording.entries import now
from dashboard.recording.live import log_name
from dashboard.recording.maze_chart import table_maze
from dashboard.recording.table import GAME_ROUNDS, Table
from dashboard.recording.words import due_words, finding_words
from dashboard.referee.wire import (
    Answer,
    CellView,
    DueView,
    EndGameTap,
    EndRoundTap,
    EventTap,
    Finishing,
    Opened,
    Score,
    Scoring,
    Seat,
    Sent,
    Standing,
    TableView,
    UndoTap,
)
from dashboard.replay_view import describe, won
from events import cards
from events.findings import Finding
from events.logfile import parse_line
from events.maze import Placed, tunnel
from events.recorder import Recorder
from events.schema import (
    FORMAT,
    Discard,
    Draw,
    Event,
    GameStarted,
    RoundEnded,
    RoundStarted,
    dump_event,
    parse_timestamp,
)
from events.tables import Role
from ingest.drafts import (
    Draft,
    DraftError,
    DraftMoved,
    draft_at,
    finish_draft,
    read_draft,
    record_line,
    start_draft,
    undo_line,
)
from ingest.store import Store

RECENT: Final = 6
"""Entries shown in words, newest first."""
_PICTURE_CARDS: Final = frozenset(cards.TUNNEL_CARDS) | frozenset(cards.GOAL_SIDES) | {"start", cards.UNSEEN}
_KINDS: Final = ("start", "tunnel", "goal")
_GAME: Final = GameStarted(
    type="game_started",
    format=FORMAT,
    game_id="g",
    ruleset="base",
    players=["ann", "bob", "cem"],
    rounds=3,
    recording="observed",
)
"""A game for the examples (:func:`stamp`'s: the suite runs them)."""


# -- the cards' pictures ---------------------------------------------------------------------


def picture_key(placed: Placed, *, setup: bool = False) -> str:
    """A card as it lies, as the name of its picture (a face-down goal shows nothing of
    itself: its key is the same whatever it is).

    >>> picture_key(tunnel("NES", True))
    'NES~tunnel~1~13~1~1~0'
    """
    card = cards.UNSEEN if placed.is_face_down_goal else placed.card
    flags = (int(placed.rotated), placed.sides, int(placed.passable), int(placed.face_up), int(setup))
    return "~".join([card, placed.kind, *map(str, flags)])


_DRAWING: Final = (maze_svg, card_words, names, cards, sys.modules[__name__])
"""What draws a card's picture from its key: the pictures, the words on them, the cards
and this module's reading of the key."""


@lru_cache(maxsize=8)
def picture_edition(lang: str) -> str:
    """What the cards' pictures look like in ``lang``, as a short hash of what draws them
    and of the words written on them (the language's catalogue).

    A picture is kept by the phone for good (``immutable``; and by the page's service
    worker): its address names the edition and the language (:func:`pictures`), so a
    picture drawn anew, or its words put otherwise, is a new address, and a phone of
    another language never gets this one's."""
    drawn = hashlib.sha256()
    for module in _DRAWING:
        drawn.update(Path(module.__file__ or "").read_bytes())
    catalogue = i18n.LOCALES / lang / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"
    if catalogue.is_file():
        drawn.update(catalogue.read_bytes())
    return drawn.hexdigest()[:12]


def pictures(lang: str) -> str:
    """Where the cards' pictures of ``lang`` are: a :func:`picture_key` and ``.svg`` after it."""
    return f"/referee/picture/{picture_edition(lang)}/{lang}/"


@lru_cache(maxsize=4096)
def picture(key: str, lang: str = i18n.ENGLISH) -> str | None:
    """The SVG a :func:`picture_key` names, its words in ``lang``; ``None`` for a key that
    names no card. (Kept by key and language: the words on a goal, the start and the
    setup card are the language's, and the first phone to ask set them for every other.)"""
    parts = key.split("~")
    if len(parts) != 7 or parts[0] not in _PICTURE_CARDS or parts[1] not in _KINDS:
        return None
    if not all(part.isascii() and part.isdigit() and len(part) <= 2 for part in parts[2:]):  # "²" is a digit too
        return None
    rotated, sides, passable, face_up, setup = (int(part) for part in parts[2:])
    if sides > 15 or max(rotated, passable, face_up, setup) > 1:
        return None
    placed = Placed(parts[0], parts[1], bool(rotated), sides, bool(passable), bool(face_up))  # type: ignore[arg-type]
    with i18n.speaking(lang):
        return card_svg(placed, setup=bool(setup))


def tunnel_pictures() -> dict[str, tuple[str, str]]:
    """Each tunnel card's picture key, upright and turned (the page's palette)."""
    return {code: (picture_key(tunnel(code, False)), picture_key(tunnel(code, True))) for code in cards.TUNNEL_CARDS}


def card_names() -> dict[str, str]:
    """Each card's name in the phone's language, and each path card's turned round under
    ``CODE~turned`` (by the sides it opens as it lies: the page reads a card laid turned
    by it).

    >>> names = card_names()
    >>> names["NE"], names["NE~turned"], names["map"]
    ('curve (north–east)', 'curve (south–west), turned', 'map')
    """
    names = {code: card_name(code) for code in sorted(cards.DECK_CARDS)}
    names.update({f"{code}~turned": card_name(code, rotated=True) for code in sorted(cards.TUNNEL_CARDS)})
    return names


# -- the game as the page draws it --------------------------------------------------------------


def standing(recorder: Recorder, draft: Draft, names: Mapping[str, str]) -> Standing:
    """The draft as the phone shows it: what is due, the hands and pile as counted, the
    maze, where each tunnel card may go on a turn, and the last entries in words."""
    due = recorder.due()
    state = recorder.state
    rs = recorder.round
    number = state.rounds_over + 1 if due.kind == "round" or rs is None else rs.number
    maze: list[CellView] = []
    legal: dict[str, list[tuple[int, int, bool]]] = {}
    broken: dict[str, list[str]] = {}
    if rs is not None and not rs.ended:
        shown = table_maze(rs)
        setup = cards.SETUP_CELL if rs.deal.setup_card is not None else None
        for (x, y), placed in sorted(shown.cells.items()):
            maze.append(
                CellView(
                    x=x,
                    y=y,
                    card=cards.UNSEEN if placed.is_face_down_goal else placed.card,
                    picture=picture_key(placed, setup=(x, y) == setup),
                    goal=placed.kind == "goal",
                    face_down=placed.is_face_down_goal,
                )
            )
        broken = {player: sorted(tools) for player, tools in rs.broken.items() if tools}
        if due.kind == "turn":
            legal = {
                code: [(x, y, rotated) for (x, y), rotated in recorder.legal_cells(code)] for code in cards.TUNNEL_CARDS
            }
    return Standing(
        version=draft.version,
        lines=len(draft.lines),
        finished=draft.finished,
        upload=draft.upload_id,
        round=number,
        due=DueView(
            kind=due.kind,
            player=due.player,
            slots=list(due.slots),
            words=due_words(due, number, names),
            ways={
                slot: {card: list(recorder.goal_ways(slot, card)) for card in cards.GOAL_SIDES} for slot in due.slots
            },
        ),
        hands=recorder.hand_counts(),
        pile=recorder.pile_count(),
        broken=broken,
        maze=maze,
        legal=legal,
        recent=[line_words(line, names) for line in reversed(draft.lines[-RECENT:])],
        totals={player: total or 0 for player, total in state.totals().items()},
        findings=len(recorder.findings),
    )


def line_words(line: str, names: Mapping[str, str]) -> str:
    """A line of the log as the page names it (its game's first line too)."""
    event = parse_line(1, line).event
    if event is None:
        return line[:80]
    if event.type == "game_started":
        return _("the game begins")
    return describe(event, {}, names)[0]


def _findings(found: list[Finding], names: Mapping[str, str]) -> list[str]:
    """The findings in the phone's language (i18n.speaking), players by display name."""
    return [finding_words(finding, names) for finding in found]


# -- the desk -------------------------------------------------------------------------------------


class Refused(ValueError):
    """An entry that cannot be recorded at all, with the reason a referee can act on."""


@dataclass(frozen=True, slots=True)
class _Granted:
    access: records.RefereeAccess
    table: Table


@dataclass
class _Kept:
    draft: Draft
    recorder: Recorder


class Desk:
    """The referee's page's entries for the games of one store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._kept: dict[str, _Kept] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()
        self._access: dict[str, tuple[int, _Granted | None]] = {}
        self._live: tuple[int, frozenset[str]] | None = None

    # -- who may record what --------------------------------------------------------------

    def granted(self, code: str) -> Table | None:
        """The table ``code`` opens now."""
        granted = self._granted(code)
        return granted.table if granted is not None else None

    def _granted(self, code: str) -> _Granted | None:
        """What ``code`` opens now (:func:`analytics.records.referee_access`), cached
        while the records stay as they were: a code revoked opens nothing at the next
        request."""
        changes = self.store.records_changes()
        digest = records.code_digest(code)
        if digest is None or digest not in self._live_digests(changes):
            return None  # guessed, mistyped or revoked: answered from memory, the store left alone
        cached = self._access.get(code)
        if cached is not None and cached[0] == changes:
            return cached[1]
        access = records.referee_access(self.store, code)
        granted = None if access is None else _Granted(access, Table.seated(access, self._final_rounds(access)))
        self._access[code] = (changes, granted)
        return granted

    def _live_digests(self, changes: int) -> frozenset[str]:
        """The hashes of the codes not revoked, read once each time the records change:
        codes tried by the thousand (by a guesser, or a phone with an old card) cost a
        hash each, not a query beside the tables' entries."""
        live = self._live
        if live is None or live[0] != changes:
            live = (changes, records.live_code_digests(self.store))
            self._access = {}  # what a code opened stands on the records as they were
            self._live = live
        return live[1]

    def _final_rounds(self, access: records.RefereeAccess) -> int:
        if access.stage != "final":
            return GAME_ROUNDS
        with self.store.connect(read_only=True) as con:
            row = con.execute(
                "SELECT final_rounds FROM tournaments WHERE tournament = ?", [access.tournament]
            ).fetchone()
        return int(row[0]) if row is not None and row[0] is not None else GAME_ROUNDS

    def _stored(self, game_id: str) -> bool:
        with self.store.connect(read_only=True) as con:
            return con.execute("SELECT 1 FROM games WHERE game_id = ?", [game_id]).fetchone() is not None

    # -- the requests ------------------------------------------------------------------------------

    def table(self, code: str) -> TableView | None:
        """What the page shows when it opens: the table, and its game if begun."""
        granted = self._granted(code)
        if granted is None:
            return None
        table = granted.table
        state = None
        seats = [Seat(player=player, name=name) for player, name in table.names.items()]
        with self._lock(table.game_id):
            kept = self._current(table.game_id)
            if kept is not None:
                state = standing(kept.recorder, kept.draft, table.names)
                # the game begun is recorded with its own players, in its own seats: a
                # round seated anew since (seat --replace) changes the table's next game,
                # not this one (its buttons named players the game did not have)
                players = kept.recorder.game.players
                names = table.names
                if not set(players) <= set(names) and table.tournament is not None:
                    names = self._names(table.tournament)
                seats = [Seat(player=p, name=names.get(p) or p) for p in players]
        return TableView(
            game_id=table.game_id,
            tournament=table.tournament,
            tournament_name=granted.access.tournament_name,
            round=table.tournament_round,
            table=table.label,
            ruleset=table.ruleset,
            rounds=table.rounds,
            seats=seats,
            stored=state is None and self._stored(table.game_id),
            state=state,
            tunnels=tunnel_pictures(),
            pictures=pictures(i18n.language()),
            card_names=card_names(),
            tools={
                **{code: [tool] for code, tool in cards.BREAK_CARDS.items()},
                **{code: list(tools) for code, tools in cards.REPAIR_CARDS.items()},
            },
        )

    def _names(self, tournament: str) -> dict[str, str]:
        """Every registered player's display name (those a seating no longer seats too),
        two of one name told apart by their ids, as the table's buttons name them."""
        return browse.player_labels(self.store, tournament)

    def begin(self, opened: Opened) -> Answer:
        """Begin the table's game (one begun already, by another phone, is taken up)."""
        table = self.granted(opened.code)
        if table is None:
            return Answer(status="closed")
        with self._lock(table.game_id):
            if self._current(table.game_id) is None and self._stored(table.game_id):
                return Answer(
                    status="refused", problem=_("This table's game is stored: there is nothing more to record.")
                )
            game = table.game_started(now())  # the server's clock: the phone's may be off
            try:
                draft = start_draft(self.store, table.game_id, dump_event(game))
            except DraftMoved as moved:
                draft = moved.draft
            kept = self._keep(draft)
            return Answer(status="recorded", state=standing(kept.recorder, kept.draft, table.names))

    def send(self, sent: Sent) -> Answer:
        """Do one entry, once: recorded, warned of, in conflict, or refused."""
        table = self.granted(sent.code)
        if table is None:
            return Answer(status="closed")
        names = table.names
        with self._lock(table.game_id):
            kept = self._current(table.game_id)
            if kept is None:
                return Answer(status="refused", problem=_("This table's game has not begun: begin it first."))
            if kept.draft.version != sent.base or sent.entry in kept.draft.entries:
                kept = self._reread(table.game_id) or kept
            draft = kept.draft
            if sent.entry in draft.entries:  # sent before and done: its answer was lost
                return Answer(status="recorded", state=standing(kept.recorder, draft, names))
            if draft.version != sent.base:
                return self._conflict(kept, sent, names)
            try:
                if isinstance(sent.tap, UndoTap):
                    return self._undo(kept, sent, names)
                event = self._event(kept.recorder, sent)
            except Refused as refused:
                return Answer(status="refused", problem=str(refused), state=standing(kept.recorder, draft, names))
            said = _said(event, kept.recorder, names)
            # what the rules find at this entry's own line (a goal turned up judged as
            # its placement's last reveal), said with it whether checked first or not:
            # a finding the next entry brings about an earlier one was said there. An
            # entry sent unchecked (made offline) is not previewed, but a reveal (the
            # preview copies the whole replay): its findings are the recording's own
            previewed = sent.check or event.type == "goal_revealed"
            found = kept.recorder.preview(event) if previewed else []
            if sent.check and found:
                return Answer(
                    status="warning",
                    findings=_findings(found, names),
                    said=said,
                    state=standing(kept.recorder, draft, names),
                )
            line = dump_event(event)
            try:
                after = record_line(self.store, draft, line, sent.entry)
            except DraftMoved as moved:
                kept = self._keep(moved.draft)
                return self._conflict(kept, sent, names)
            except DraftError as refused:  # in the phone's language
                problem = sentences.said(refused.said, str(refused))
                return Answer(status="refused", problem=problem, state=standing(kept.recorder, draft, names))
            if after.version == draft.version + 1 and after.lines == (*draft.lines, line):
                brought = kept.recorder.record(event)
                if not previewed:
                    found = [f for f in brought if f.line == len(kept.recorder.lines)]
                kept.draft = after
            else:  # the draft as stored is not this one line on: read again, nothing to say
                found = []
                kept = self._keep(after)
            return Answer(
                status="recorded",
                findings=_findings(found, names),
                said=said,
                state=standing(kept.recorder, kept.draft, names),
            )

    def score(self, scoring: Scoring) -> Score | Answer:
        """The round's end the roles give, for the page to show before it is recorded."""
        table = self.granted(scoring.code)
        if table is None:
            return Answer(status="closed")
        with self._lock(table.game_id):
            kept = self._current(table.game_id)
            if kept is None or kept.recorder.round is None:
                return Answer(status="refused", problem=_("There is no round to end."))
            try:
                ended = _round_end(kept.recorder, scoring.roles, scoring.gold_cards)
            except Refused as refused:
                return Answer(status="refused", problem=str(refused))
            said = won(ended.winner)
            rs = kept.recorder.round
            if rs is not None and not rs.over:  # R-E2: ended now, it is stopped early, and its winner unknown
                said = _(
                    "Round %(round)s is not over by the rules (the gold not reached, cards still in hand): ended now "
                    "it is stopped early, and no winner is known. Were it over: %(outcome)s."
                ) % {"round": rs.number, "outcome": said}
            return Score(winner=ended.winner, said=said, scores=dict(ended.scores))

    def log(self, code: str) -> tuple[str, str] | Answer:
        """The game's log as it stands, for the referee to keep: a file name (its game id,
        whose colons no file system takes) and the text the upload holds once it is stored;
        or why not (a code that opens no table, a game not begun)."""
        table = self.granted(code)
        if table is None:
            return Answer(status="closed")
        with self._lock(table.game_id):
            kept = self._current(table.game_id)
            if kept is None:
                return Answer(status="refused", problem=_("This table's game has not begun."))
            return table.game_id.replace(":", "-") + ".jsonl", kept.draft.text()

    def finish(self, finishing: Finishing) -> Answer:
        """Take the finished game's log in as an upload, as a file is taken in."""
        table = self.granted(finishing.code)
        if table is None:
            return Answer(status="closed")
        with self._lock(table.game_id):
            kept = self._reread(table.game_id)
            if kept is None:
                return Answer(status="refused", problem=_("This table's game has not begun."))
            if kept.draft.finished:
                return Answer(status="recorded", state=standing(kept.recorder, kept.draft, table.names))
            if kept.draft.version != finishing.base:
                return Answer(
                    status="conflict",
                    problem=_("The record moved on since this phone read it: look at the game as it stands first."),
                    state=standing(kept.recorder, kept.draft, table.names),
                )
            if kept.recorder.due().kind != "over":
                return Answer(
                    status="refused",
                    problem=_("The game is not over: record its last round's end and the game's end first."),
                    state=standing(kept.recorder, kept.draft, table.names),
                )
            try:
                draft, result = finish_draft(self.store, kept.draft, log_name(table.game_id))
            except DraftMoved as moved:
                kept = self._keep(moved.draft)
                return Answer(status="conflict", state=standing(kept.recorder, kept.draft, table.names))
            kept = self._keep(draft)
            if not draft.finished:
                return Answer(
                    status="refused",
                    problem=_("The log was not taken in: %(outcome)s (%(message)s)")
                    % {"outcome": outcome(result.outcome), "message": sentences.said(result.said, result.message)},
                    state=standing(kept.recorder, kept.draft, table.names),
                )
            return Answer(status="recorded", state=standing(kept.recorder, kept.draft, table.names))

    # -- the parts ------------------------------------------------------------------------------------

    def _event(self, recorder: Recorder, sent: Sent) -> Event:
        tap = sent.tap
        event: Event
        if isinstance(tap, EventTap):
            event = tap.event
            _observed(event)
        elif isinstance(tap, EndRoundTap):
            if recorder.round is None:
                raise Refused(_("There is no round to end."))
            event = _round_end(recorder, tap.roles, tap.gold_cards)
        else:
            assert isinstance(tap, EndGameTap)
            event = recorder.game_end()
        # every entry, checked or not: a player who is not at the table is malformed
        # (event-log.md), never a finding of the rules to record and judge later
        _seated(named_players(event), recorder.game.players)
        return event.model_copy(update={"at": stamp(recorder, sent.at, sent.sent_at, now())})

    def _undo(self, kept: _Kept, sent: Sent, names: Mapping[str, str]) -> Answer:
        said = _("took back: %(line)s") % {"line": line_words(kept.draft.lines[-1], names)}
        try:
            after = undo_line(self.store, kept.draft, sent.entry)
        except DraftMoved as moved:
            kept = self._keep(moved.draft)
            return self._conflict(kept, sent, names)
        except DraftError as refused:  # in the phone's language
            problem = sentences.said(refused.said, str(refused))
            return Answer(status="refused", problem=problem, state=standing(kept.recorder, kept.draft, names))
        kept = self._keep(after)
        return Answer(status="recorded", said=said, state=standing(kept.recorder, kept.draft, names))

    def _conflict(self, kept: _Kept, sent: Sent, names: Mapping[str, str]) -> Answer:
        """Another phone recorded since ``sent.base``: what it recorded, in words."""
        then = draft_at(self.store, kept.draft.game_id, sent.base)
        common = 0
        for mine, theirs in zip(then.lines, kept.draft.lines, strict=False):
            if mine != theirs:
                break
            common += 1
        return Answer(
            status="conflict",
            theirs=[line_words(line, names) for line in kept.draft.lines[common:]],
            undone=len(then.lines) - common,
            said=_tap_words(sent, names),
            state=standing(kept.recorder, kept.draft, names),
        )

    def _lock(self, game_id: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(game_id, threading.Lock())

    def _current(self, game_id: str) -> _Kept | None:
        kept = self._kept.get(game_id)
        return kept if kept is not None else self._reread(game_id)

    def _reread(self, game_id: str) -> _Kept | None:
        draft = read_draft(self.store, game_id)
        if draft is None:
            return None
        kept = self._kept.get(game_id)
        if kept is not None and kept.draft == draft:
            return kept
        return self._keep(draft)

    def _keep(self, draft: Draft) -> _Kept:
        kept = _Kept(draft, Recorder(draft.lines))
        self._kept[draft.game_id] = kept
        return kept


def stamp(recorder: Recorder, at: str | None, sent_at: str | None, arrived: str) -> str:
    """When an entry was made, on the server's clock: the phone's ``at`` moved by the
    phone's clock's difference from the server's (``sent_at`` against ``arrived``), never
    after ``arrived`` nor before the line before it (a log's times never go back: then
    it takes that line's time).

    >>> stamp(Recorder.begin(_GAME), "2026-12-04T10:00:00Z", "2026-12-04T10:05:00Z", "2026-12-04T10:07:00Z")
    '2026-12-04T10:02:00Z'
    """
    moment = parse_timestamp(arrived)
    if at is not None and sent_at is not None:
        with suppress(OverflowError):  # a phone's clock at year 1 or 9999: its times tell nothing
            moment = min(moment, moment - (parse_timestamp(sent_at) - parse_timestamp(at)))
    last = _last_at(recorder)
    if last is not None and moment.replace(microsecond=0) < parse_timestamp(last):
        return last
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _last_at(recorder: Recorder) -> str | None:
    for line in reversed(recorder.lines):
        event = parse_line(1, line).event
        if event is not None and event.at is not None:
            return event.at
    return None


def _observed(event: Event) -> None:
    """An observed log shows only what the table sees (event-log.md): a draw's card,
    a pass's card and the deal's hidden parts stay ``null``."""
    if isinstance(event, Draw | Discard) and event.card is not None:
        raise Refused(_("a card drawn or passed in an observed log is not named: only its owner sees it"))
    if isinstance(event, RoundStarted) and any(
        part is not None for part in (event.roles, event.set_aside_role, event.goals, event.hands, event.draw_pile)
    ):
        raise Refused(
            _("an observed deal shows only who starts and the setup card: roles, goals, hands and pile stay hidden")
        )


_PLAYER_FIELDS: Final = ("player", "target", "start_player", "connector")
"""The fields of an entry that hold one player of the game (or ``null``)."""
_PLAYER_MAPS: Final = ("roles", "hands", "scores", "gold_cards", "totals")
"""The fields of an entry that map players of the game to something."""


def named_players(event: Event) -> list[str]:
    """Every player id ``event`` names, in a field a player of the game fills.

    >>> named_players(Discard(type="discard", player="ann", card=None))
    ['ann']
    """
    named: list[str] = []
    for field in _PLAYER_FIELDS:
        value = getattr(event, field, None)
        if isinstance(value, str):
            named.append(value)
    for field in _PLAYER_MAPS:
        value = getattr(event, field, None)
        if isinstance(value, dict):
            named.extend(value)
    return named


def _seated(named: Sequence[str], players: Sequence[str]) -> None:
    """Refuse an entry that names anyone not at the table: the log format calls such a
    line malformed (a player of another table, an id mistyped), whatever the rules say."""
    strangers = sorted(set(named) - set(players))
    if strangers:
        raise Refused(_("not a player of this game: %(players)s") % {"players": ", ".join(strangers)})


def _round_end(
    recorder: Recorder, roles: Mapping[str, Role], gold_cards: Mapping[str, Sequence[int]] | None
) -> RoundEnded:
    players = recorder.game.players
    _seated([*roles, *(gold_cards or {})], players)
    missing = [player for player in players if player not in roles]
    if missing:
        raise Refused(_("every role must be turned up first: %(players)s") % {"players": ", ".join(missing)})
    return recorder.round_end(roles, gold_cards)


def _said(event: Event, recorder: Recorder, names: Mapping[str, str]) -> str:
    rs = recorder.round
    return describe(event, rs.maze.cells if rs is not None else {}, names)[0]


def _tap_words(sent: Sent, names: Mapping[str, str]) -> str:
    tap = sent.tap
    if isinstance(tap, EventTap):
        return describe(tap.event, {}, names)[0]
    if isinstance(tap, EndRoundTap):
        return "the end of the round"
    if isinstance(tap, EndGameTap):
        return "the end of the game"
    return "taking back the last line"
