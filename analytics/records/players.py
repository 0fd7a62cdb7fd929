"""A tournament's players: registered (one by one, or from a CSV list), withdrawn and
returned, each with why; who is registered and who has withdrawn, as the other commands
ask (a penalty goes to a registered player, a seating leaves the withdrawn out); and the
names that players share.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import duckdb
from pydantic import TypeAdapter, ValidationError

from analytics.csvrows import spreadsheet_rows
from analytics.records.stream import Recorded, RecordError, append, shaped, stream_events, stream_of
from analytics.records.tournaments import require, valid_id
from analytics.standings import NAME_KEY
from events.records.tournament import PlayerRegistered, PlayerReturned, PlayerWithdrawn, TournamentEvent
from events.records.tournament_file import NAME_MOST, one_line, shows_nothing
from events.said import Said, say
from events.schema import PlayerId
from ingest.store import Store

_PLAYER_ID: TypeAdapter[str] = TypeAdapter(PlayerId)


def register(store: Store, tournament: str, players: Sequence[tuple[str, str]]) -> Recorded:
    """Register players (id, display name); a second registration renames."""
    events: list[TournamentEvent] = []
    for player, name in players:
        valid_id(_PLAYER_ID, player, "player")
        if shows_nothing(name):
            raise RecordError(say("player %(player)s needs a name", player=player))
        if len(name.strip()) > NAME_MOST or not one_line(name):
            raise RecordError(
                say(
                    "player %(player)s: a name is one line of at most %(most)s characters, with no control or "
                    "text-direction characters",
                    player=player,
                    most=NAME_MOST,
                )
            )
        events.append(PlayerRegistered(type="player_registered", player=player, name=name.strip()))
    if not events:
        raise RecordError(say("no players to register"))
    return append(store, tournament, events)


def registered_before(store: Store, tournament: str, player: str) -> str | None:
    """The name ``player`` was registered under before their newest registration (a
    second registration renames), or ``None`` for a first one."""
    with store.connect(read_only=True) as con:
        events, _, _ = stream_events(store, con, stream_of(tournament))
    names = [e["name"] for e in events if e["type"] == "player_registered" and e["player"] == player]
    return str(names[-2]) if len(names) > 1 else None


def withdraw_player(store: Store, tournament: str, player: str, reason: str) -> Recorded:
    """A player who leaves the tournament, with why (:class:`PlayerWithdrawn`): their
    rounds stand, no later round seats them, and a cut passes them over."""
    if not reason.strip():
        raise RecordError(say("a withdrawal needs a --reason"))
    with store.connect(read_only=True) as con:
        require(con, tournament)
        if player not in registered_in(con, tournament):
            raise RecordError(
                say("%(player)s is not registered in %(tournament)s", player=player, tournament=tournament)
            )
    with shaped():
        event = PlayerWithdrawn(type="player_withdrawn", player=player, reason=reason.strip())
    return append(store, tournament, [event])


def return_player(store: Store, tournament: str, player: str, reason: str) -> Recorded:
    """A withdrawn player back in the tournament, with why (:class:`PlayerReturned`)."""
    if not reason.strip():
        raise RecordError(say("a return needs a --reason"))
    with store.connect(read_only=True) as con:
        require(con, tournament)
        if player not in registered_in(con, tournament):  # not "has not withdrawn", as if they might
            raise RecordError(
                say("%(player)s is not registered in %(tournament)s", player=player, tournament=tournament)
            )
    with shaped():
        event = PlayerReturned(type="player_returned", player=player, reason=reason.strip())
    return append(store, tournament, [event])


def registered_in(con: duckdb.DuckDBPyConnection, tournament: str) -> set[str]:
    rows = con.execute("SELECT player FROM tournament_players WHERE tournament = ?", [tournament]).fetchall()
    return {str(r[0]) for r in rows}


def withdrawn_in(con: duckdb.DuckDBPyConnection, tournament: str) -> dict[str, str]:
    """The players withdrawn from ``tournament``, each with why."""
    rows = con.execute(
        "SELECT player, withdrawn_reason FROM tournament_players WHERE tournament = ? AND withdrawn_seq IS NOT NULL",
        [tournament],
    ).fetchall()
    return {str(player): str(reason) for player, reason in rows}


def withdrawn(store: Store, tournament: str) -> dict[str, str]:
    """The players withdrawn from ``tournament`` (and not back), each with why."""
    with store.connect(read_only=True) as con:
        return withdrawn_in(con, tournament)


def namesakes(store: Store, tournament: str, players: Collection[str]) -> list[tuple[str, list[str]]]:
    """Each name that ``players`` share with another registered player of
    ``tournament`` (as a person reads a name: :data:`analytics.standings.NAME_KEY`),
    with every player registered under it, by id. The standings tell such players apart
    by their ids; a name of their own is clearer to read out."""
    key = NAME_KEY.replace("{name}", "name")
    with store.connect(read_only=True) as con:
        rows = con.execute(
            "SELECT any_value(name ORDER BY player), list(player ORDER BY player) FROM tournament_players "
            f"WHERE tournament = ? GROUP BY {key} HAVING count(*) > 1 ORDER BY 1",
            [tournament],
        ).fetchall()
    wanted = set(players)
    return [(str(name), [str(p) for p in ids]) for name, ids in rows if wanted & set(ids)]


def _refused_at(line: int, said: Said) -> RecordError:
    return RecordError(say("line %(line)s: %(problem)s", line=line, problem=(said,)))


def read_player_list(text: str) -> list[tuple[str, str]]:
    """A player list as CSV with the header ``player,name`` (commas, or semicolons as
    Excel writes them in many countries); each player once; errors name the line."""
    _, rows = spreadsheet_rows(text, _refused_at)
    header = [h.strip() for h in next(rows, [])]
    if header != ["player", "name"]:
        found = ",".join(header)
        raise RecordError(
            say("line 1: the columns must be player,name; found %(found)s", found=found)
            if found
            else say("line 1: the columns must be player,name; found nothing")
        )
    people = []
    listed: dict[str, int] = {}
    for number, row in enumerate(rows, start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != 2:
            raise RecordError(
                say("line %(line)s: two values (player,name), found %(count)s", line=number, count=len(row))
            )
        player, name = (cell.strip() for cell in row)
        try:
            _PLAYER_ID.validate_python(player)
        except ValidationError:
            raise RecordError(
                say("line %(line)s: %(given)s is not a valid player id", line=number, given=repr(player))
            ) from None
        if shows_nothing(name):
            raise RecordError(say("line %(line)s: %(player)s needs a name", line=number, player=player))
        if player in listed:
            # the second name replaced the first person, and the count said two were registered
            raise RecordError(
                say(
                    "line %(line)s: %(player)s is listed already, on line %(first)s",
                    line=number,
                    player=player,
                    first=listed[player],
                )
            )
        listed[player] = number
        people.append((player, name))
    return people
