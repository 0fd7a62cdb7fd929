"""The referee page's server side (dashboard/referee/desk.py): an entry sent from a
table's phone, done once and in its place, over a real store with a seated round.

An entry carries the id the phone gave it and the draft version it was made against:
sent again it is recorded once; made against a version another phone moved on it is a
conflict with both versions in words; the rules' warning comes before it when the phone
asks (it was online), and after it, as findings, when it was made offline.
"""

from __future__ import annotations

import secrets
import shutil
import uuid
from pathlib import Path
from typing import Any

import pytest

from analytics import records
from analytics.records import revoke_referee_code
from dashboard import i18n
from dashboard.referee.desk import Desk, picture, picture_key, stamp
from dashboard.referee.wire import Finishing, Opened, Scoring, Sent
from events.builder import default_roles
from events.logfile import parse_line
from events.maze import tunnel
from events.recorder import Recorder
from ingest.drafts import read_draft
from ingest.store import Store
from tests.venue.morning import ROUND, TOURNAMENT, Table, morning


@pytest.fixture(scope="session")
def seated_store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Table]]:
    """A store with round 1 seated at tables of six and a code per table, made once."""
    folder = tmp_path_factory.mktemp("seated")
    tables = morning(folder / "venue.duckdb", 2)
    return folder / "venue.duckdb", tables


@pytest.fixture
def venue(seated_store: tuple[Path, list[Table]], tmp_path: Path) -> tuple[Desk, Table]:
    source, tables = seated_store
    shutil.copy(source, tmp_path / "venue.duckdb")
    return Desk(Store(tmp_path / "venue.duckdb")), tables[0]


def entry_id() -> str:
    return uuid.uuid4().hex


def sent(table: Table, base: int, tap: dict[str, Any], *, check: bool = True, entry: str | None = None) -> Sent:
    return Sent.model_validate(
        {"code": table.code, "entry": entry or entry_id(), "base": base, "check": check, "tap": tap}
    )


def event(**fields: Any) -> dict[str, Any]:
    return {"kind": "event", "event": fields}


def deal(table: Table) -> dict[str, Any]:
    setup = {"card": "NESW", "rotated": False, "turned_over": ["NESW"]}
    return event(
        type="round_started",
        round=1,
        start_player=table.players[0],
        roles=None,
        set_aside_role=None,
        goals=None,
        setup_card=setup,
        hands=None,
        draw_pile=None,
    )


def stored_types(desk: Desk, table: Table) -> list[str]:
    draft = read_draft(desk.store, table.game_id)
    assert draft is not None
    types = []
    for line in draft.lines:
        parsed = parse_line(1, line).event
        assert parsed is not None
        types.append(parsed.type)
    return types


def begun(desk: Desk, table: Table) -> int:
    """The table's game begun and dealt: the draft's version."""
    answer = desk.begin(Opened(code=table.code))
    assert answer.status == "recorded" and answer.state is not None
    dealt = desk.send(sent(table, answer.state.version, deal(table)))
    assert dealt.status == "recorded", dealt
    assert dealt.state is not None
    return dealt.state.version


def test_a_code_opens_its_table_with_its_players_in_seat_order_and_nothing_else(venue: tuple[Desk, Table]) -> None:
    desk, table = venue
    view = desk.table(table.code)
    assert view is not None
    assert view.game_id == table.game_id
    assert [seat.player for seat in view.seats] == list(table.players)
    assert view.seats[0].name == "Player 01"
    assert view.state is None and not view.stored
    assert view.tunnels["NES"] == (picture_key(tunnel("NES", False)), picture_key(tunnel("NES", True)))
    assert view.tools["repair_pick_lamp"] == ["pick", "lamp"]
    assert desk.table("x" * 32) is None
    assert desk.table("not a code") is None
    assert desk.begin(Opened(code="x" * 32)).status == "closed"


def test_codes_guessed_by_the_thousand_are_answered_without_reading_the_store(
    venue: tuple[Desk, Table], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A guesser (or a phone with a card of a round before) tries code after code: each
    is a hash looked up in memory, never a query beside the tables' entries, and the
    real code still opens its table."""
    desk, table = venue
    assert desk.table(table.code) is not None  # the codes in force, read once
    opened: list[bool] = []
    connect = desk.store.connect

    def counted(*args: Any, **kwargs: Any) -> Any:
        opened.append(True)
        return connect(*args, **kwargs)

    monkeypatch.setattr(desk.store, "connect", counted)
    guesses = [secrets.token_urlsafe(records.CODE_BYTES) for _ in range(500)]
    assert all(desk.table(guess) is None for guess in guesses)
    assert desk.begin(Opened(code=guesses[0])).status == "closed"
    assert opened == []
    assert desk.granted(table.code) is not None
    revoke_referee_code(desk.store, TOURNAMENT, ROUND, table.label, "card lost")
    assert desk.table(table.code) is None  # the records changed: the codes in force read again


def test_players_registered_under_one_name_are_told_apart_by_their_ids(venue: tuple[Desk, Table]) -> None:
    """Two players of the tournament registered as "Jan Visser": the page's buttons
    ("Who starts?") and its sentences read "Jan Visser" twice, where the standings and
    the table's card show their ids. The page names them with their ids too."""
    desk, table = venue
    first, second = table.players[:2]
    records.register(desk.store, TOURNAMENT, [(first, "Jan Visser"), (second, "jan  visser")])
    view = desk.table(table.code)
    assert view is not None
    assert [seat.name for seat in view.seats[:3]] == [f"Jan Visser ({first})", f"jan  visser ({second})", "Player 03"]


def test_two_phones_beginning_one_table_take_up_one_game(venue: tuple[Desk, Table]) -> None:
    desk, table = venue
    first = desk.begin(Opened(code=table.code))
    second = Desk(desk.store).begin(Opened(code=table.code))
    assert first.state is not None and second.state is not None
    assert first.state.version == second.state.version == 1
    assert stored_types(desk, table) == ["game_started"]


def test_entries_are_recorded_in_order_and_the_page_is_told_what_comes_next(venue: tuple[Desk, Table]) -> None:
    desk, table = venue
    version = begun(desk, table)
    first = table.players[0]
    laid = desk.send(sent(table, version, event(type="play_path", player=first, card="EW", x=1, y=0, rotated=False)))
    assert laid.status == "recorded" and laid.findings == []
    assert laid.state is not None
    assert laid.state.due.kind == "draw" and laid.state.due.player == first
    assert any(cell.x == 1 and cell.y == 0 and cell.card == "EW" for cell in laid.state.maze)
    drawn = desk.send(sent(table, laid.state.version, event(type="draw", player=first, card=None)))
    assert drawn.state is not None
    assert drawn.state.due.kind == "turn" and drawn.state.due.player == table.players[1]
    assert drawn.state.legal["EW"], "a turn says where each tunnel card fits"
    assert drawn.state.recent[0].endswith("draws a card")
    assert stored_types(desk, table) == ["game_started", "round_started", "play_path", "draw"]


def test_an_entry_sent_again_is_recorded_once_even_after_the_game_moved_on(venue: tuple[Desk, Table]) -> None:
    desk, table = venue
    version = begun(desk, table)
    first = table.players[0]
    again = sent(table, version, event(type="discard", player=first, card=None))
    assert desk.send(again).status == "recorded"
    assert desk.send(again).status == "recorded"
    later = desk.send(sent(table, version + 1, event(type="draw", player=first, card=None)))
    assert later.status == "recorded"
    answer = Desk(desk.store).send(again)  # a restarted server: found in the store, not in memory
    assert answer.status == "recorded" and answer.state is not None
    assert answer.state.version == version + 2
    assert stored_types(desk, table) == ["game_started", "round_started", "discard", "draw"]


def test_an_entry_made_against_a_version_another_phone_moved_on_is_a_conflict_with_both_versions(
    venue: tuple[Desk, Table],
) -> None:
    desk, table = venue
    version = begun(desk, table)
    first = table.players[0]
    other_phone = Desk(desk.store)
    theirs = other_phone.send(
        sent(table, version, event(type="play_path", player=first, card="EW", x=1, y=0, rotated=False))
    )
    assert theirs.status == "recorded"
    mine = desk.send(sent(table, version, event(type="discard", player=first, card=None)))
    assert mine.status == "conflict"
    assert mine.theirs == ["Player 01 lays a straight path (east–west) at column 1, row 0"]
    assert mine.said == "Player 01 passes, a card face down"
    assert mine.state is not None and mine.state.version == version + 1
    assert stored_types(desk, table) == ["game_started", "round_started", "play_path"]


def test_an_entry_the_rules_object_to_is_asked_first_online_and_recorded_with_its_findings_offline(
    venue: tuple[Desk, Table],
) -> None:
    desk, table = venue
    version = begun(desk, table)
    nowhere = event(type="play_path", player=table.players[0], card="NS", x=3, y=3, rotated=False)
    asked = desk.send(sent(table, version, nowhere))
    assert asked.status == "warning"
    assert asked.findings and "R-P" in asked.findings[0]
    assert stored_types(desk, table) == ["game_started", "round_started"]
    recorded = desk.send(sent(table, version, nowhere, check=False))
    assert recorded.status == "recorded"
    assert recorded.findings and "R-P" in recorded.findings[0]
    assert recorded.state is not None and recorded.state.findings >= 1
    assert stored_types(desk, table)[-1] == "play_path"


def test_an_undo_sent_twice_takes_back_one_line(venue: tuple[Desk, Table]) -> None:
    desk, table = venue
    version = begun(desk, table)
    first = table.players[0]
    desk.send(sent(table, version, event(type="discard", player=first, card=None)))
    undo = sent(table, version + 1, {"kind": "undo"})
    once = desk.send(undo)
    assert once.status == "recorded" and once.said.startswith("took back")
    twice = desk.send(undo)
    assert twice.status == "recorded"
    assert stored_types(desk, table) == ["game_started", "round_started"]


@pytest.mark.parametrize(
    "tap",
    [
        event(type="draw", player="p01", card="NESW"),  # only the drawer sees the card
        event(type="discard", player="p01", card="map"),
    ],
)
def test_an_entry_that_shows_a_hidden_card_is_refused_and_nothing_is_stored(
    venue: tuple[Desk, Table], tap: dict[str, Any]
) -> None:
    desk, table = venue
    version = begun(desk, table)
    answer = desk.send(sent(table, version, tap))
    assert answer.status == "refused"
    assert "in an observed log is not named" in answer.problem
    assert stored_types(desk, table) == ["game_started", "round_started"]


def test_the_round_ends_with_every_role_turned_up_and_the_scores_the_rules_give(venue: tuple[Desk, Table]) -> None:
    desk, table = venue
    version = begun(desk, table)
    roles, _ = default_roles(list(table.players), "tournament")
    some = {player: roles[player] for player in table.players[:3]}
    missing = desk.send(sent(table, version, {"kind": "end_round", "roles": some}, check=False))
    assert missing.status == "refused" and "every role" in missing.problem
    stranger = desk.score(Scoring.model_validate({"code": table.code, "roles": {**roles, "zed": "saboteur"}}))
    assert getattr(stranger, "problem", "").startswith("not a player of this game: zed")
    counted = desk.score(Scoring.model_validate({"code": table.code, "roles": roles}))
    assert getattr(counted, "winner", None) == "saboteurs"  # no gold was reached
    # but cards are in hand: the page said "the saboteurs won" of a round the rules then
    # warned was not over, and a round stopped early has no known winner
    assert getattr(counted, "said", "").startswith("Round 1 is not over by the rules"), counted
    ended = desk.send(sent(table, version, {"kind": "end_round", "roles": roles}, check=False))
    assert ended.status == "recorded"
    assert ended.state is not None and ended.state.due.kind == "round" and ended.state.round == 2
    assert stored_types(desk, table)[-1] == "round_ended"


def test_a_whole_game_ends_and_its_log_is_stored_as_an_upload(venue: tuple[Desk, Table]) -> None:
    desk, table = venue
    version = begun(desk, table)
    roles, _ = default_roles(list(table.players), "tournament")
    for number in (1, 2, 3):
        if number > 1:
            dealt = {**deal(table), "event": {**deal(table)["event"], "round": number}}
            answer = desk.send(sent(table, version, dealt, check=False))
            assert answer.status == "recorded", answer
            version += 1
        answer = desk.send(sent(table, version, {"kind": "end_round", "roles": roles}, check=False))
        assert answer.status == "recorded", answer
        version += 1
    early = desk.finish(Finishing(code=table.code, base=version))
    assert early.status == "refused" and "not over" in early.problem
    ended = desk.send(sent(table, version, {"kind": "end_game"}))
    assert ended.status == "recorded" and ended.state is not None and ended.state.due.kind == "over"
    stale = desk.finish(Finishing(code=table.code, base=version))
    assert stale.status == "conflict"
    done = desk.finish(Finishing(code=table.code, base=version + 1))
    assert done.status == "recorded" and done.state is not None and done.state.finished
    assert done.state.upload is not None
    again = desk.finish(Finishing(code=table.code, base=version + 1))
    assert again.status == "recorded"
    with desk.store.connect(read_only=True) as con:
        assert con.execute("SELECT count(*) FROM games WHERE game_id = ?", [table.game_id]).fetchone() == (1,)
    finished = read_draft(desk.store, table.game_id)
    assert finished is not None
    kept = desk.log(table.code)  # the referee keeps the log the standings count
    assert isinstance(kept, tuple) and kept[0] == table.game_id.replace(":", "-") + ".jsonl"
    with desk.store.connect(read_only=True) as con:
        (raw,) = con.execute("SELECT raw FROM uploads WHERE upload_id = ?", [done.state.upload]).fetchone() or (None,)
    assert kept[1].encode() == bytes(raw)
    assert getattr(desk.log("NOT-A-CODE"), "status", None) == "closed"
    with i18n.speaking("nl"):  # a phone that took it back before it heard: told why in its language
        late = desk.send(sent(table, finished.version, {"kind": "undo"}))
    assert late.status == "refused" and "is afgelopen: het logboek is upload" in late.problem, late.problem


def test_a_revoked_code_records_nothing_more(venue: tuple[Desk, Table]) -> None:
    desk, table = venue
    version = begun(desk, table)
    revoke_referee_code(desk.store, TOURNAMENT, ROUND, table.label, "phone lost")
    answer = desk.send(sent(table, version, event(type="discard", player=table.players[0], card=None)))
    assert answer.status == "closed"
    assert desk.table(table.code) is None
    assert stored_types(desk, table) == ["game_started", "round_started"]


def test_an_entry_is_timed_on_the_servers_clock_and_never_before_the_line_before_it(
    venue: tuple[Desk, Table],
) -> None:
    desk, table = venue
    begun(desk, table)
    recorder = Recorder(read_draft(desk.store, table.game_id).lines)  # type: ignore[union-attr]
    last = parse_line(1, recorder.lines[-1]).event
    assert last is not None and last.at is not None
    # a phone whose clock runs an hour slow, an entry made 30 s before it was sent
    moved = stamp(recorder, "2026-12-04T09:00:00Z", "2026-12-04T09:00:30Z", "2099-01-01T10:00:30Z")
    assert moved == "2099-01-01T10:00:00Z"
    # a phone whose clock says the entry was made before the last line was: that line's time
    assert stamp(recorder, "2000-01-01T00:00:00Z", "2000-01-01T00:00:00Z", "2000-01-01T00:00:00Z") == last.at
    # a phone's clock at the ends of time tells nothing (it was a server error): the arrival
    assert stamp(recorder, "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "2099-01-01T10:00:30Z") == (
        "2099-01-01T10:00:30Z"
    )


def test_a_cards_picture_is_drawn_from_its_key_and_a_key_that_names_no_card_draws_nothing() -> None:
    key = picture_key(tunnel("NEx", True))
    drawn = picture(key)
    assert drawn is not None and drawn.startswith("<svg")
    for bad in (
        "",
        "NES",
        "../../etc~tunnel~0~7~1~1~0",
        "NES~tunnel~0~99~1~1~0",
        "NES~robot~0~7~1~1~0",
        "NES~tunnel~2~7~1~1~0",
    ):
        assert picture(bad) is None, bad


def test_a_warning_names_the_players_as_the_page_does(venue: tuple[Desk, Table]) -> None:
    desk, table = venue
    version = begun(desk, table)
    late = event(type="discard", player=table.players[1], card=None)
    (said,) = desk.send(sent(table, version, late)).findings
    assert "it is Player 01's turn, not Player 02's" in said, said


def test_a_goal_turned_up_is_judged_at_once_and_offered_only_the_ways_it_may_lie(venue: tuple[Desk, Table]) -> None:
    """R-G1, R-G2 at the reveal's own entry: a gold turned up that no path reaches is
    warned of there (it was said at the next entry, an innocent draw, and the page
    then offered the round's end); and the goals due carry the ways each card may lie
    and join the path, so the page offers only those."""
    desk, table = venue
    version = begun(desk, table)
    first = table.players[0]
    laid = desk.send(sent(table, version, event(type="play_path", player=first, card="EW", x=1, y=0, rotated=False)))
    assert laid.status == "recorded" and laid.state is not None and laid.state.due.ways == {}
    gold = event(type="goal_revealed", goal="middle", rotated=False, card="goal_gold")
    asked = desk.send(sent(table, laid.state.version, gold))
    assert asked.status == "warning" and asked.findings and "R-G1" in asked.findings[0], asked
    recorded = desk.send(sent(table, laid.state.version, gold, check=False))
    assert recorded.status == "recorded" and recorded.findings and "R-G1" in recorded.findings[0]
    assert recorded.state is not None and recorded.state.due.kind == "draw"  # the round goes on
    drawn = desk.send(sent(table, recorded.state.version, event(type="draw", player=first, card=None)))
    assert drawn.status == "recorded" and not drawn.findings, drawn


def test_the_goals_due_carry_the_ways_each_card_may_lie(venue: tuple[Desk, Table]) -> None:
    desk, table = venue
    version = begun(desk, table)
    answer = None
    for x in (1, 2, 3, 5, 6, 7):  # the setup card, a crossroads, lies at (4,0)
        assert answer is None or answer.state is not None
        player = table.players[0] if answer is None else answer.state.due.player
        card = "EW" if x <= 3 else "NEW"
        laid = event(type="play_path", player=player, card=card, x=x, y=0, rotated=False)
        answer = desk.send(sent(table, version, laid))
        assert answer.status == "recorded" and not answer.findings and answer.state is not None, answer
        version = answer.state.version
        if x < 7:
            answer = desk.send(sent(table, version, event(type="draw", player=player, card=None)))
            assert answer.state is not None
            version = answer.state.version
    assert answer is not None and answer.state is not None
    due = answer.state.due
    assert (due.kind, due.slots) == ("reveal", ["middle"])
    assert due.ways["middle"]["goal_gold"] == [False, True]  # a crossroads joins either way
    (way,) = due.ways["middle"]["goal_stone_ne"]  # a stone's corner joins one way
    wrong = event(type="goal_revealed", goal="middle", rotated=not way, card="goal_stone_ne")
    asked = desk.send(sent(table, version, wrong))
    assert asked.status == "warning" and asked.findings and "R-G2" in asked.findings[0], asked
    right = event(type="goal_revealed", goal="middle", rotated=way, card="goal_stone_ne")
    assert desk.send(sent(table, version, right)).status == "recorded"


def test_a_game_begun_before_its_round_was_seated_anew_keeps_its_own_players(venue: tuple[Desk, Table]) -> None:
    """A round seated anew (a late arrival) after a table's game began: the card still
    opens the table, and the page offers the players of the game it records, by name;
    it offered the new seating's, and every tap naming one was "not a player"."""
    desk, table = venue
    begun(desk, table)
    players = [f"p{n:02d}" for n in range(1, 37)]
    swapped = [players[6:12], players[:6], *(players[i : i + 6] for i in range(12, 36, 6))]
    records.publish_seating(
        desk.store,
        TOURNAMENT,
        ROUND,
        swapped,
        stage="preliminary",
        method="by hand",
        seed=None,
        reason="a late arrival",
    )
    view = desk.table(table.code)
    assert view is not None
    assert [seat.player for seat in view.seats] == list(table.players)
    assert view.seats[0].name == f"Player {table.players[0][1:]}"


def test_the_docstring_examples_run() -> None:
    """They were run by nobody, and two had gone stale (a card's sides as the picture's
    name holds them; a game the rules refuse to begin)."""
    import doctest

    from dashboard.referee import desk

    result = doctest.testmod(desk)
    assert result.failed == 0 and result.attempted >= 3


def test_a_goal_turned_up_is_named_with_its_card_in_the_last_entries() -> None:
    """The referee page's last entries said "the top goal is turned up", and not which
    card: they are said without the maze, which names it elsewhere. The line's card does."""
    from dashboard.referee.desk import line_words

    reveal = '{"type": "goal_revealed", "goal": "top", "rotated": false, "card": "goal_gold"}'
    assert line_words(reveal, {}) == "the top goal is turned up: goal with the treasure"
    unnamed = '{"type": "goal_revealed", "goal": "top", "rotated": false}'  # a full log's reveal need not say
    assert line_words(unnamed, {}) == "the top goal is turned up"
