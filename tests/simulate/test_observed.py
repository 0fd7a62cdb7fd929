"""The two recordings agree (event-log.md, "Observed recording"): property tests.

A simulated full log and its observed log (:func:`events.observe.observe`, the one
contract between them) audit alike: the same status, outcomes and findings. A mutation
whose violation a referee at the table can see is reported with the same code at the
same line in both; one the table cannot see leaves the observed log exactly as it was,
so nothing is reported there. Referee notes are incidents at their own lines and change
nothing else.
"""

from __future__ import annotations

import functools
import json
from bisect import bisect_left
from collections.abc import Sequence
from random import Random
from typing import Final

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.audit import Audit, audit
from events.findings import Code, Finding
from events.logfile import MAX_DEPTH, parse_line
from events.observe import observe_lines
from events.schema import Event, GameStarted, GoalRevealed, Recording, RefereeNote, RoundEnded, dump_event
from events.simulate.game import quick_game
from events.simulate.mutate import MUTATIONS, mutate
from events.simulate.recording import with_notes
from tests.simulate.strategies import examples, tables

SETTINGS: Final = settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])

UNSEEN: Final = {
    # A discard lies face down: the observed log says "a card", never which, so a card
    # the player did not hold is a card like any other (the counted hand is not empty).
    "card_not_in_hand": "a discarded card is not seen",
    # Only the player sees what they drew; the observed pile is counted, with no top card.
    "wrong_draw": "a drawn card is not seen",
    # The hands are dealt face down; the observed deal holds only their R-S4 counts.
    "bad_hand_size": "the hands dealt are not seen",
    # The pile is face down; a wrong card at its bottom is never laid face up (a card
    # laid more often than the deck holds it would be: that bad_deck the table sees).
    "bad_deck": "the draw pile is not seen",
}
"""Mutations the table cannot see, and why: the observed log of the mutated game is the
observed log of the original one, line for line."""

SEEN_AT_ROUND_END: Final = {
    # The role cards lie face down until the round ends; the observed log names them at
    # round_ended, where R-S1 is judged, not at the deal.
    "bad_roles": "the roles are turned up at the round's end",
}
"""Mutations the table sees later than the deal: reported at the round's end."""

SEEN: Final = sorted(set(MUTATIONS) - set(UNSEEN) - set(SEEN_AT_ROUND_END))
"""Mutations of what is laid face up or done in the open: seen where they happen."""


def full_lines(table: tuple[str, int, int, int]) -> list[str]:
    ruleset, players, rounds, seed = table
    return [dump_event(e) for e in quick_game(players, ruleset, rounds, seed)]


def observed(lines: Sequence[str]) -> list[str]:
    return [raw.decode() for raw in observe_lines(line.encode() for line in lines)]


def verdict(result: Audit) -> tuple[str, list[object], list[Finding]]:
    return result.status, list(result.outcomes), result.findings


def found(result: Audit) -> set[tuple[str, int]]:
    return {(f.code.value, f.line) for f in result.findings}


def test_every_mutation_is_sorted_by_what_the_table_sees() -> None:
    assert set(SEEN) | set(UNSEEN) | set(SEEN_AT_ROUND_END) == set(MUTATIONS)
    assert not set(UNSEEN) & set(SEEN_AT_ROUND_END)


@SETTINGS
@given(tables())
def test_an_observed_game_audits_as_its_full_log(table: tuple[str, int, int, int]) -> None:
    lines = full_lines(table)
    seen = observed(lines)
    header = parse_line(1, seen[0]).event
    assert isinstance(header, GameStarted) and header.observed
    assert len(seen) == len(lines)
    full, table_view = audit(lines), audit(seen)
    assert table_view.status == "clean"
    assert verdict(table_view) == verdict(full)


@settings(SETTINGS, max_examples=examples(15))
@given(tables(), st.floats(0, 1))
def test_a_log_cut_short_audits_alike_in_both_recordings(table: tuple[str, int, int, int], where: float) -> None:
    """The same status and findings; the same outcomes of the rounds whose
    ``round_ended`` the cut kept. A round over (its gold turned up, its hands played
    out) and cut before its ``round_ended`` counts in a full log, scored by the roles
    dealt; an observed log turns the roles up at ``round_ended`` only, so there it
    stays unscored. And a cut right after the card that reached the gold, before its
    goal was turned up, ends a round the full log knows is over (it knows where the
    gold lies) and the observed one cannot: the ``incomplete`` warning there counts
    one finished round fewer."""
    lines = full_lines(table)
    cut = 1 + round(where * (len(lines) - 1))  # the game_started stays: an unreadable log is no test
    full, seen = audit(lines[:cut]), audit(observed(lines[:cut]))
    ended = {e.round for n, line in enumerate(lines[:cut], 1) if isinstance(e := parse_line(n, line).event, RoundEnded)}
    assert seen.status == full.status
    assert [f for f in seen.findings if f.code != Code.INCOMPLETE] == [
        f for f in full.findings if f.code != Code.INCOMPLETE
    ]
    stops = [[f for f in audited.findings if f.code == Code.INCOMPLETE] for audited in (full, seen)]
    assert [f.line for f in stops[0]] == [f.line for f in stops[1]] == ([cut] if cut < len(lines) else [])
    counts = [[dict(f.said.values)["count"] for f in found if f.said is not None] for found in stops]
    before_a_reveal = cut < len(lines) and isinstance(parse_line(cut + 1, lines[cut]).event, GoalRevealed)
    assert counts[1] in ([counts[0], [c - 1 for c in counts[0]]] if before_a_reveal else [counts[0]])
    assert list(seen.outcomes) == [o for o in full.outcomes if o.round in ended]


@pytest.mark.parametrize("seed", [3, 8])
def test_the_simulators_observed_log_is_the_contracts(seed: int) -> None:
    """``--recording observed`` writes through :func:`events.observe.observe`: no second writer."""
    as_written = [dump_event(e) for e in quick_game(7, "base", 2, seed, recording="observed")]
    assert as_written == observed([dump_event(e) for e in quick_game(7, "base", 2, seed)])


@settings(SETTINGS, max_examples=examples(40))
@given(tables(), st.sampled_from(SEEN))
def test_a_violation_the_table_sees_is_reported_at_its_line_in_both(
    table: tuple[str, int, int, int], name: str
) -> None:
    mutation = mutate(full_lines(table), name, table[3])
    if mutation is None:  # the game offers no place for it (no rockfall, say)
        return
    wanted = (mutation.code, mutation.line)
    assert wanted in found(audit(mutation.lines))
    assert wanted in found(audit(observed(mutation.lines)))


@SETTINGS
@given(tables())
def test_roles_dealt_wrong_are_reported_where_they_are_turned_up(table: tuple[str, int, int, int]) -> None:
    mutation = mutate(full_lines(table), "bad_roles", table[3])
    assert mutation is not None
    assert (mutation.code, mutation.line) in found(audit(mutation.lines))
    seen = observed(mutation.lines)
    turned_up = next(
        number
        for number, line in enumerate(seen, start=1)
        if number > mutation.line and isinstance(parse_line(number, line).event, RoundEnded)
    )
    assert (mutation.code, turned_up) in found(audit(seen))


@settings(SETTINGS, max_examples=examples(30))
@given(tables(), st.sampled_from(sorted(UNSEEN)))
def test_a_violation_the_table_cannot_see_is_not_reported_observed(table: tuple[str, int, int, int], name: str) -> None:
    lines = full_lines(table)
    mutation = mutate(lines, name, table[3])
    if mutation is None:  # the game offers no place for it (no discard, say)
        return
    assert (mutation.code, mutation.line) in found(audit(mutation.lines))
    seen = observed(mutation.lines)
    assert seen == observed(lines), UNSEEN[name]  # the referee's record is the same
    result = audit(seen)
    assert result.status == "clean"
    assert mutation.code not in {f.code.value for f in result.findings}


PLAYED_OUT_UNSEEN: Final = {
    # The observed hands are counted by R-S4: a hand dealt a card short or long is not
    # seen, so it plays out by other counts there (other turns skipped, R-T5).
    "bad_hand_size": "the hands dealt are counted, not seen",
    # Which goal is the gold is hidden until it is turned up: with that reveal left out,
    # the observed log cannot know the gold was reached and the round over (R-E1).
    "miss_reveal": "a goal's card is seen only when it is revealed",
}
"""Mutations after which the table, not seeing what they changed, sees the rest of the
round play out otherwise: the one exception to "the same findings wherever visible"."""

SEEN_CODES: Final = frozenset(Code) - {
    Code.BAD_HAND_SIZE,  # the hands are counted, not seen
    Code.BAD_DECK,  # the pile is not seen
    Code.WRONG_DRAW,  # "not the top card" is not seen (the other wrong draws are compared below)
    Code.CARD_NOT_IN_HAND,  # "holds NES, played NESW" is not seen ("holds no cards" is compared below)
    Code.BAD_ROLES,  # seen at the round's end (test_roles_dealt_wrong_are_reported_where_they_are_turned_up)
}


def _seen_by_the_table(result: Audit) -> set[tuple[str, int]]:
    """The findings a referee at the table could make, by code and line."""
    return {
        (f.code.value, f.line)
        for f in result.findings
        if f.code in SEEN_CODES
        or (f.code is Code.CARD_NOT_IN_HAND and "holds no cards" in f.message)
        or (f.code is Code.WRONG_DRAW and "top of the pile" not in f.message)
    }


@settings(SETTINGS, max_examples=examples(40))
@given(tables(), st.sampled_from(sorted(set(MUTATIONS) - set(PLAYED_OUT_UNSEEN))))
def test_both_recordings_of_a_mutated_game_give_the_same_findings_wherever_the_table_sees_them(
    table: tuple[str, int, int, int], name: str
) -> None:
    """event-log.md, "Observed recording": the two recordings of one game "give the same
    findings wherever the finding is visible, and the same outcome and scores" — beside
    any mutation, not only at its line. A card played but not held left the full log's
    hand a card longer than the observed count, and a draw out of place was dropped in
    both: the rounds then played out apart (on 15 seeds, 47 of 120 games mutated by
    card_not_in_hand, extra_play, skip_draw or wrong_draw)."""
    mutation = mutate(full_lines(table), name, table[3])
    if mutation is None:
        return
    full, seen = audit(mutation.lines), audit(observed(mutation.lines))
    assert _seen_by_the_table(seen) == _seen_by_the_table(full)
    assert seen.outcomes == full.outcomes


def _events(lines: Sequence[str]) -> list[Event]:
    parsed = [parse_line(number, line).event for number, line in enumerate(lines, start=1)]
    return [event for event in parsed if event is not None]


def _judged(result: Audit, notes: Sequence[int] = ()) -> list[tuple[str, int, int, str, str]]:
    """Every finding but the notes' incidents, at the line it has without the notes."""
    return sorted(
        (f.code.value, f.line - bisect_left(notes, f.line), f.round or 0, f.player or "", f.rule)
        for f in result.findings
        if f.code is not Code.TABLE_INCIDENT
    )


@settings(SETTINGS, max_examples=examples(30))
@given(tables(), st.sampled_from(["full", "observed"]), st.sampled_from([None, *sorted(MUTATIONS)]))
def test_referee_notes_are_incidents_at_their_lines_and_change_nothing_else(
    table: tuple[str, int, int, int], recording: str, name: str | None
) -> None:
    """R-C1: a note is a table_incident at its line and changes no state, in a clean
    game or beside any mutation (a note between a card and its draw is no missed draw)."""
    lines = full_lines(table)
    mutation = mutate(lines, name, table[3]) if name is not None else None
    events = _events(mutation.lines if mutation is not None else lines)
    noted = with_notes(events, 0.3, Random(table[3]))
    plain_lines, noted_lines = [dump_event(e) for e in events], [dump_event(e) for e in noted]
    if recording == "observed":
        plain_lines, noted_lines = observed(plain_lines), observed(noted_lines)
    plain, marked = audit(plain_lines), audit(noted_lines)
    notes = [number for number, event in enumerate(noted, start=1) if isinstance(event, RefereeNote)]
    incidents = [f.line for f in marked.findings if f.code is Code.TABLE_INCIDENT]
    assert incidents == notes
    assert _judged(marked, notes) == _judged(plain)
    assert marked.outcomes == plain.outcomes


@pytest.mark.parametrize("recording", ["full", "observed"])
def test_the_simulators_notes_leave_the_game_as_it_was_played(recording: Recording) -> None:
    """R-C1 notes are written beside the game, never into it: without them it is the same."""
    played = quick_game(6, "tournament", 3, 12, recording=recording)
    noted = quick_game(6, "tournament", 3, 12, recording=recording, referee_notes=0.25)
    assert any(isinstance(e, RefereeNote) for e in noted), "one turn in four has a note"
    assert [e for e in noted if not isinstance(e, RefereeNote)] == played
    assert not [f for f in audit([dump_event(e) for e in noted]).findings if f.code is not Code.TABLE_INCIDENT]
    assert noted == quick_game(6, "tournament", 3, 12, recording=recording, referee_notes=0.25)


SPOILS: Final = (
    "key-twice-alike",
    "key-twice-apart",
    "inner-key-twice-alike",
    "inner-key-twice-apart",
    "byte-order-mark",
    "half-in-a-key",
    "half-in-the-type",
    "half-in-a-value",
    "half-in-bytes",
    "nested-deep",
    "number-with-a-fraction",
    "stray-field",
    "null-time",
)
"""Ways to make one line of a full log malformed, each a shape a probe of the reading
found observe to crash on or to make valid."""
_MARK: Final = "@SPOILED@"


def _objects(value: object) -> list[dict[str, object]]:
    """Every non-empty object inside a decoded value, the value itself first."""
    found: list[dict[str, object]] = []
    if isinstance(value, dict):
        found += [value] if value else []
        for item in value.values():
            found += _objects(item)
    elif isinstance(value, list):
        for item in value:
            found += _objects(item)
    return found


def _text(value: object, before: dict[int, str]) -> str:
    """Compact JSON, with the text ``before[id(obj)]`` written first inside an object."""
    if isinstance(value, dict):
        pairs = [f"{json.dumps(key)}:{_text(item, before)}" for key, item in value.items()]
        return "{" + ",".join(([before[id(value)]] if id(value) in before else []) + pairs) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_text(item, before) for item in value) + "]"
    return json.dumps(value)


def _spoiled(line: str, how: str, pick: int) -> bytes | None:
    """``line`` made malformed ``how`` (``None`` where it has nothing to spoil so);
    ``pick`` chooses the object, key or value."""
    obj: dict[str, object] = json.loads(line)
    keys = sorted(set(obj) - {"type"})
    key = keys[pick % len(keys)]
    before: dict[int, str] = {}
    if how.startswith(("key-twice", "inner-key-twice")):
        objects = _objects(obj) if how.startswith("inner") else [obj]
        where = objects[pick % len(objects)] if len(objects) > 1 or not how.startswith("inner") else obj
        twice = sorted(where)[pick % len(where)]
        value = where[twice]
        other = value if how.endswith("alike") else (None if value is not None else 0)
        before[id(where)] = f"{json.dumps(twice)}:{json.dumps(other)}"
    elif how == "half-in-a-key":
        obj = {(name + _MARK if name == key else name): item for name, item in obj.items()}
    elif how == "half-in-the-type":
        obj["type"] = f"{obj['type']}{_MARK}"
    elif how == "half-in-a-value" or how == "half-in-bytes" or how == "nested-deep":
        obj[key] = _MARK
    elif how == "number-with-a-fraction":
        numbers = [name for name, item in obj.items() if type(item) is int]
        if not numbers:
            return None
        obj[numbers[pick % len(numbers)]] = _MARK
    elif how == "stray-field":
        obj["remark"] = {"copied": obj.get("roles") or obj.get("card") or obj.get("hands")}
    elif how == "null-time":
        obj["at"] = None
    text = _text(obj, before).encode()
    deep = (MAX_DEPTH, 100, 1_000)[pick % 3]
    mark = json.dumps(_MARK).encode()
    spoiled = {
        "half-in-bytes": (_MARK.encode(), b"\xed\xa0\x80"),
        "nested-deep": (mark, b"[" * deep + b"]" * deep),
        "number-with-a-fraction": (mark, (b"1.0", b"1e0", b"-0.0")[pick % 3]),
    }.get(how, (_MARK.encode(), b"\\ud800"))
    text = text.replace(*spoiled)
    return b"\xef\xbb\xbf" + text if how == "byte-order-mark" else text


def _told_of_the_deal_only(line: bytes, original: dict[str, object], seen: Audit) -> set[int]:
    """The observed log's lines that needed what only the spoiled deal told: a deal whose
    ``goals`` (or ``roles``) key is spoiled is read with them null (left out, and so
    ``null``: :data:`events.schema.NULL_IF_LEFT_OUT`), and the full log plays on without
    them; its observed log, written from it, can name neither the reveals' cards nor the
    roles at the round's end, which an observed log must (each its own ``malformed``)."""
    if original["type"] != "round_started":
        return set()
    read = parse_line(2, line).event
    unread = {
        field: said
        for field, said in (("goals", "card"), ("roles", "roles"))
        if original.get(field) is not None and read is not None and getattr(read, field) is None
    }
    return {f.line for f in seen.findings if f.code is Code.MALFORMED and f.field in unread.values() and f.line > 2}


@functools.cache
def _a_game(seed: int) -> tuple[bytes, ...]:
    """A full log of one tournament round at five (a few, each made once: the line
    spoiled, not the game, is what varies)."""
    return tuple(line.encode() for line in full_lines(("tournament", 5, 1, seed)))


@settings(SETTINGS, max_examples=examples(60))
@given(
    st.integers(0, 3),
    st.sampled_from(SPOILS),
    st.sampled_from(["round_started", "draw", "discard", "play_path", "goal_revealed", "round_ended", "game_ended"]),
    st.integers(0, 1_000),
)
def test_a_line_spoiled_in_any_of_the_probes_ways_is_malformed_alike_in_both_recordings(
    seed: int, how: str, kind: str, pick: int
) -> None:
    """A full log's line made malformed as a probe of the reading did it (a key written
    twice, alike or apart, at the top or inside; a byte-order mark before it; half a
    character; nesting past the limit; a number with a fraction; a stray field; a null
    time): its observed log is written (observe crashed on half a character, and on the
    deep nesting), that line is malformed in both (observed, a key written twice was
    read into one, a byte-order mark dropped: the line became valid, a violation
    gone), shows nothing hidden, and the table sees the same findings and outcome."""
    full = list(_a_game(seed))
    at = next((i for i, line in enumerate(full) if json.loads(line)["type"] == kind), None)
    spoiled = _spoiled(full[at].decode(), how, pick) if at is not None else None
    if at is None or spoiled is None:
        return
    original = json.loads(full[at])
    full[at] = spoiled
    seen_lines = list(observe_lines(full))
    assert len(seen_lines) == len(full)
    full_result, seen_result = audit(full), audit(seen_lines)
    assert all(line.decode("utf-8") for line in seen_lines)  # what observe writes is text
    for result in (full_result, seen_result):
        assert ("malformed", at + 1) in found(result), (how, full[at], seen_lines[at])
    told = _told_of_the_deal_only(full[at], original, seen_result)
    seen_by_the_table = _seen_by_the_table(seen_result) - {("malformed", line) for line in told}
    assert seen_by_the_table == _seen_by_the_table(full_result), (how, full[at], seen_lines[at])
    if kind != "round_ended" or parse_line(at + 1, full[at]).event is not None:
        assert seen_result.outcomes == full_result.outcomes  # a round_ended lost: no roles to score it observed
    hidden = {"draw": ("card",), "discard": ("card",), "round_started": ("roles", "goals")}.get(kind, ())
    for name in hidden:
        secrets = original[name].values() if isinstance(original[name], dict) else [original[name]]
        assert not any(f'"{secret}"'.encode() in seen_lines[at] for secret in secrets), (name, seen_lines[at])
