"""The replay of an observed log (event-log.md, "Observed recording"), rule by rule.

An observed log holds what a referee at a physical table sees: hands and the pile are
counted, the goals are learnt as they are turned up, the roles when they are turned up
at the round's end. Most cases here are a full log written with the builder and passed
through :func:`events.observe.observe` (the contract between the recordings), then
edited where a test needs what a full log cannot hold.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any, Final

import pytest

from events.audit import audit, audit_file
from events.builder import LogBuilder
from events.observe import AlreadyObserved, observe
from tests.conftest import codes, run
from tests.rules.maze_logs import corridor, game, lay
from tests.rules.test_goals import DOUBLE, double_reach

ROOT = Path(__file__).resolve().parents[2]

HAND_WRITTEN = [
    '{"type":"game_started","format":"saboteur-log/1","game_id":"hand:1","ruleset":"tournament",'
    '"players":["ann","bob","cem","dia","eve"],"rounds":1,"recording":"observed"}',
    '{"type":"round_started","round":1,"start_player":"ann","roles":null,"set_aside_role":null,"goals":null,'
    '"setup_card":{"card":"NESW","rotated":false,"turned_over":["map","NESW"]},"hands":null,"draw_pile":null}',
    '{"type":"play_path","player":"ann","card":"EW","x":1,"y":0,"rotated":false}',
    '{"type":"draw","player":"ann","card":null}',
    '{"type":"play_path","player":"bob","card":"EW","x":2,"y":0,"rotated":false}',
    '{"type":"draw","player":"bob","card":null}',
    '{"type":"play_path","player":"cem","card":"EW","x":3,"y":0,"rotated":false}',
    '{"type":"draw","player":"cem","card":null}',
    '{"type":"discard","player":"dia","card":null}',
    '{"type":"draw","player":"dia","card":null}',
    '{"type":"play_path","player":"eve","card":"NESW","x":5,"y":0,"rotated":false}',
    '{"type":"draw","player":"eve","card":null}',
    '{"type":"play_map","player":"ann","card":"map","goal":"middle"}',
    '{"type":"draw","player":"ann","card":null}',
    '{"type":"play_path","player":"bob","card":"NEW","x":6,"y":0,"rotated":false}',
    '{"type":"draw","player":"bob","card":null}',
    '{"type":"play_path","player":"cem","card":"NESW","x":7,"y":0,"rotated":false}',
    '{"type":"goal_revealed","goal":"middle","rotated":false,"card":"goal_gold"}',
    '{"type":"round_ended","round":1,"winner":"gold_diggers","connector":"cem",'
    '"scores":{"ann":2,"bob":2,"cem":3,"dia":0,"eve":0},'
    '"roles":{"ann":"gold_digger","bob":"gold_digger","cem":"gold_digger","dia":"selfish_dwarf","eve":"saboteur"}}',
    '{"type":"game_ended","totals":{"ann":2,"bob":2,"cem":3,"dia":0,"eve":0}}',
]
"""An observed tournament round written by hand from the spec: cem reaches the gold."""


def observed(log: LogBuilder) -> list[str]:
    """The observed log of a builder's full log."""
    return observe(log.text().encode()).decode().splitlines()


def edit(lines: list[str], number: int, **fields: Any) -> list[str]:
    """The lines with line ``number`` (from 1) changed: ``None`` values given as null;
    a field named ``drop_X`` removes field X."""
    obj = json.loads(lines[number - 1])
    for name, value in fields.items():
        if name.startswith("drop_"):
            obj.pop(name[5:])
        else:
            obj[name] = value
    return [*lines[: number - 1], json.dumps(obj), *lines[number:]]


def insert(lines: list[str], after: int, obj: dict[str, Any]) -> list[str]:
    return [*lines[:after], json.dumps(obj), *lines[after:]]


def line_of(lines: list[str], **match: Any) -> int:
    """The number of the first line whose fields include ``match``."""
    for number, text in enumerate(lines, start=1):
        obj = json.loads(text)
        if all(obj.get(k) == v for k, v in match.items()):
            return number
    raise AssertionError(f"no line with {match}")


def malformed_fields(lines: list[str]) -> list[tuple[int, str | None]]:
    return [(f.line, f.field) for f in run(lines).findings if f.code.value == "malformed"]


def gold_round() -> LogBuilder:
    """A tournament game of one round: the corridor reaches the gold in the middle."""
    log = LogBuilder(players=6, ruleset="tournament", rounds=1)
    turns = ["EW", "EW", "EW", "NEW", "NEW", "NESW"]
    log.deal(start="ann", hands={p: [turns[i]] for i, p in enumerate(log.players)})
    corridor(log, 3)
    for x, card in ((5, "NEW"), (6, "NEW")):
        lay(log, card, x, 0)
    lay(log, "NESW", 7, 0, draw=False)
    log.reveal("middle")
    return log.end_round().end_game()


# -- the hand-written log ------------------------------------------------------------


def test_a_hand_written_observed_round_audits_clean_with_the_rules_outcome() -> None:
    result = run(HAND_WRITTEN)
    assert result.status == "clean", result.findings
    (outcome,) = result.outcomes
    assert outcome.winner == "gold_diggers"
    assert outcome.connector == "cem"
    assert outcome.scores == {"ann": 2, "bob": 2, "cem": 3, "dia": 0, "eve": 0}
    assert outcome.stars == ("cem",)


def test_the_scores_come_from_the_roles_turned_up() -> None:
    """In an observed log the roles are learnt at round_ended: a claim that fits
    other roles than the ones turned up is a wrong_score."""
    lines = edit(
        HAND_WRITTEN,
        19,
        roles={
            "ann": "gold_digger",
            "bob": "saboteur",
            "cem": "gold_digger",
            "dia": "selfish_dwarf",
            "eve": "gold_digger",
        },
    )
    assert ("wrong_score", 19) in codes(lines)


# -- the observed projection of full logs ------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "examples/tournament-table.jsonl",
        "examples/base-kitchen-table.jsonl",
        "tests/data/good/tournament_3_rounds.jsonl",
        "tests/data/good/base_3_players.jsonl",
    ],
)
def test_a_clean_full_log_observed_audits_clean_with_the_same_outcome(path: str) -> None:
    data = (ROOT / path).read_bytes()
    full, seen = audit(data.decode()), audit(observe(data).decode())
    assert full.status == seen.status == "clean"
    assert [o.as_report() for o in full.outcomes] == [o.as_report() for o in seen.outcomes]


@pytest.mark.parametrize("lost", [0, 1, 2], ids=["round-1", "round-2", "round-3"])
def test_a_lost_round_ended_gives_the_same_findings_full_and_observed(lost: int) -> None:
    """R-W3: a round over by the rules whose ``round_ended`` is lost still counts. The
    observed log cannot score it (its roles were to be turned up in that line), so it
    judges no total after it; it said the game ended a round short, and judged every
    total as if the lost round gave nothing."""
    data = (ROOT / "tests/data/good/tournament_3_rounds.jsonl").read_bytes()
    lines = data.decode().splitlines()
    ends = [i for i, line in enumerate(lines) if json.loads(line)["type"] == "round_ended"]
    del lines[ends[lost]]
    full = audit("\n".join(lines))
    seen = audit(observe("\n".join(lines).encode()).decode())
    assert [(f.code, f.line) for f in seen.findings] == [(f.code, f.line) for f in full.findings]
    assert len(full.findings) == 1
    assert seen.rounds_over == full.rounds_over == 3


@pytest.mark.parametrize(
    "name",
    [
        "stone-unrevealed-then-gold-through-it",
        "stone-unrevealed-then-the-other-stone",
        "gold-unrevealed",
    ],
)
def test_a_goal_turned_up_without_its_line_gives_the_same_findings_full_and_observed(name: str) -> None:
    """event-log.md: an observed log and its full log give the same findings where the
    finding is visible, and the same outcome. A goal the rules turn up whose
    ``goal_revealed`` the log lacks is one ``missing_reveal`` in both; the observed log
    never names its card, so the card stays unknown (its sides are not compared, the
    path may run on through it) unless the ``round_ended`` says the gold was reached
    there. It was taken for a stone: a card laid beside it was illegal, the gold
    reached through it a false reveal, the other stone a second copy of it, and a gold
    diggers' win scored as the saboteurs'."""
    data = (ROOT / "tests/data/observed" / f"{name}.jsonl").read_bytes()
    full, seen = audit(data.decode()), audit(observe(data).decode())
    assert "missing_reveal" in [f.code.value for f in full.findings]
    assert [(f.code, f.line) for f in seen.findings] == [(f.code, f.line) for f in full.findings]
    assert [o.as_report() for o in seen.outcomes] == [o.as_report() for o in full.outcomes]


def test_an_observed_log_cannot_be_observed_again() -> None:
    with pytest.raises(AlreadyObserved):
        observe("\n".join(HAND_WRITTEN).encode())


def test_observe_blanks_every_hidden_card_and_names_what_is_turned_up() -> None:
    lines = [json.loads(line) for line in observed(gold_round())]
    assert lines[0]["recording"] == "observed"
    deal = lines[1]
    assert [deal[k] for k in ("roles", "set_aside_role", "goals", "hands", "draw_pile")] == [None] * 5
    assert all(line["card"] is None for line in lines if line["type"] in ("draw", "discard"))
    reveal = next(line for line in lines if line["type"] == "goal_revealed")
    assert reveal["card"] == "goal_gold"
    ended = next(line for line in lines if line["type"] == "round_ended")
    assert set(ended["roles"]) == {"ann", "bob", "cem", "dia", "eve", "fay"}


@pytest.mark.parametrize("slip", [{"comment": "x"}, {"at": "tomorrow"}], ids=["stray-field", "bad-time"])
def test_a_line_malformed_only_by_a_stray_field_or_its_time_stays_malformed_when_observed(slip: dict[str, str]) -> None:
    """A full log's draw with a stray field or a bad time is malformed and still played
    (event-log.md); observed, its card is blanked and the line stays malformed, so both
    recordings give that one finding at that line and the same outcome."""
    full = gold_round().lines
    draw = next(i for i, line in enumerate(full) if json.loads(line)["type"] == "draw")
    full[draw] = json.dumps(json.loads(full[draw]) | slip)
    seen = observe(("\n".join(full) + "\n").encode()).decode().splitlines()
    assert json.loads(seen[draw])["card"] is None
    # a time is the format's own field, kept as written; a stray one keeps its name, and
    # its value (which could say anything) is blanked
    written = json.loads(seen[draw])
    assert written["at"] == slip["at"] if "at" in slip else written["comment"] in BLANKS
    assert codes(full) == codes(seen) == [("malformed", draw + 1)]
    assert [o.as_report() for o in audit(full).outcomes] == [o.as_report() for o in audit(seen).outcomes]


BLANKS: Final = (None, "", [], {}, 0, False)
"""What a blanked value may be: ``null``, or an empty one of the kind that made its line
malformed."""


def blanked(value: object) -> bool:
    """Whether a value is blank: one of :data:`BLANKS`, or a hidden value that made its
    line malformed with its shape kept and nothing in it (every text empty, number 0)."""
    if isinstance(value, list):
        return all(map(blanked, value))
    if isinstance(value, dict):
        return all(map(blanked, value.values()))
    return value in BLANKS


def _a_secret_in(kind: str, line: dict[str, object]) -> dict[str, object]:
    """In place of a line (the deal, or a draw): a deal whose ``round`` is a string, a
    discard by a player who is no id, a draw whose card is a list, an event type nobody
    knows. Each states no event, and each still names a hidden card or a role."""
    if kind == "round_started":
        return line | {"round": "1", "remark": "ann is the saboteur"}
    if kind == "discard":
        return {"type": "discard", "player": 7, "card": "goal_gold"}
    if kind == "draw":
        return line | {"card": ["goal_gold"]}
    return {"type": "peek", "player": "ann", "card": "goal_gold"}


@pytest.mark.parametrize("kind", ["round_started", "discard", "draw", "peek"])
def test_a_line_that_states_no_event_shows_nothing_hidden_when_observed(kind: str) -> None:
    """event-log.md, "Observed recording": an observed log holds "nothing hidden". A
    full log's line that is no valid event was copied into the observed log as it was:
    the whole deal of a round_started with one field of the wrong type, a discarded or
    drawn card. Now its hidden fields are blanked by its type, a field the format does
    not know keeps only its name, and it stays malformed at its line."""
    full = gold_round().lines
    at = next(i for i, line in enumerate(full) if json.loads(line)["type"] in ("draw", kind))
    full[at] = json.dumps(_a_secret_in(kind, json.loads(full[at])))
    observed_lines = observe(("\n".join(full) + "\n").encode()).decode().splitlines()
    seen = json.loads(observed_lines[at])
    hidden = {"round_started": ("roles", "set_aside_role", "goals", "hands", "draw_pile", "remark")}
    for field in hidden.get(kind, ("card",)):
        assert blanked(seen[field]), field
    assert "saboteur" not in json.dumps(seen) and "goal_gold" not in json.dumps(seen)
    assert ("malformed", at + 1) in codes(observed_lines)


@pytest.mark.parametrize(
    "cut",
    [
        b'{"type":"draw","player":"ann","card":"goal_',
        b"[1, 2]",
        b'"NESW"',
        b"[" * 100_000 + b"]" * 100_000,
        b'{"type":"draw","player":"ann","card":' + b"[" * 600 + b'"goal_gold"' + b"]" * 600 + b"}",
    ],
    ids=["cut-off", "array", "string", "deep-over-64-KiB", "deep-600"],
)
def test_a_line_that_is_no_json_object_is_written_as_null_when_observed(cut: bytes) -> None:
    """A line cut off (which may end inside a hand), JSON that is no object, or JSON
    nested past what the format reads (``events.logfile.MAX_DEPTH``): nothing in it can
    be told hidden from seen, so the observed log has ``null`` there, still malformed at
    that line. Nested 600 deep, the line was decoded, and writing it out again ran out of
    recursion: observe ended in a traceback."""
    full = [line.encode() for line in gold_round().lines]
    full[5] = cut
    seen = observe(b"\n".join(full) + b"\n").splitlines()
    assert seen[5] == b"null"
    assert ("malformed", 6) in codes([line.decode() for line in seen])


@pytest.mark.parametrize(
    "spoil",
    [
        lambda line: line.replace(b'"card"', b'"ca\\ud800rd"'),
        lambda line: line.replace(b'"type":"draw"', b'"type":"\\udc00"'),
        lambda line: line.replace(b'"card"', b'"ca\xed\xa0\x80rd"'),
    ],
    ids=["escape-in-a-key", "escape-in-the-type", "bytes-in-a-key"],
)
def test_half_a_character_in_a_key_or_the_type_is_observed_malformed(spoil: Any, tmp_path: Path) -> None:
    """A lone surrogate (``\\ud800``, or its three bytes, which are no UTF-8) where a
    field's name or the type stands: observe ended in a traceback, the line's text not
    being UTF-8 when written out. An escape is written back as it was read; a line whose
    bytes are no UTF-8 is no line to read, as in the log's reading (``null``): malformed
    at its line in both, its card unseen, and the game's outcome the same."""
    full = [line.encode() for line in gold_round().lines]
    at = next(i for i, line in enumerate(full) if json.loads(line)["type"] == "draw")
    full[at] = spoil(full[at])
    (tmp_path / "full.jsonl").write_bytes(b"\n".join(full) + b"\n")
    (tmp_path / "seen.jsonl").write_bytes(observe((tmp_path / "full.jsonl").read_bytes()))
    seen = (tmp_path / "seen.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(seen) == len(full)
    written = json.loads(seen[at])
    assert written is None or all(blanked(value) for key, value in written.items() if key not in ("type", "player"))
    both = audit_file(tmp_path / "full.jsonl"), audit_file(tmp_path / "seen.jsonl")
    for result in both:
        assert ("malformed", at + 1) in [(f.code.value, f.line) for f in result.findings]
    assert [o.as_report() for o in both[0].outcomes] == [o.as_report() for o in both[1].outcomes]


def _written_badly(lines: list[str], how: str) -> tuple[list[str], int]:
    """The lines with one written as no writer should (a key twice, a byte-order mark
    before it, a card that is no goal), and that line's number."""
    kind = {"goal-no-goal": "goal_revealed"}.get(how, "round_started" if how.startswith("hand") else "draw")
    number = line_of(lines, type=kind)
    line = lines[number - 1]
    hands = json.loads(line)["hands"] if kind == "round_started" else {"": []}
    first = next(iter(hands))
    hand = f'"hands":{{"{first}":'  # the first hand dealt
    line = {
        "player-twice-apart": line.replace("{", '{"player":"fay",', 1),
        "player-twice-alike": line.replace('"player":', '"player":"ann","player":', 1),
        "card-twice-apart": line.replace("{", '{"card":"map",', 1),
        "hand-twice-alike": line.replace(
            f'"hands":{{"{first}":', f'"hands":{{"{first}":{json.dumps(hands[first])},"{first}":', 1
        ),
        "hand-twice-apart": line.replace(hand, f'{hand}["map"],"{first}":', 1),
        "byte-order-mark": "\ufeff" + line,
        "goal-no-goal": line.replace("{", '{"card":"goal_x",', 1),
    }[how]
    return [*lines[: number - 1], line, *lines[number:]], number


@pytest.mark.parametrize(
    "how",
    [
        "player-twice-apart",
        "player-twice-alike",
        "card-twice-apart",
        "hand-twice-alike",
        "hand-twice-apart",
        "byte-order-mark",
        "goal-no-goal",
    ],
)
def test_a_line_written_badly_stays_malformed_when_observed(how: str) -> None:
    """observe read a malformed line again with the standard decoder, which keeps the
    last of a key written twice and drops a byte-order mark, and wrote it back: a draw
    by two players, a hand dealt twice, a line after a stray byte-order mark became a
    valid event in the observed log, and the findings after it went apart (13 in the
    full log, none observed). Now the line is as malformed observed as in the full log,
    states the same event or none, and the table sees the same findings and outcome. A
    reveal naming a card that is no goal names the one dealt, written twice over."""
    full, number = _written_badly(gold_round().lines, how)
    seen = observe(("\n".join(full) + "\n").encode()).decode("utf-8").splitlines()
    assert ("malformed", number) in codes(full)
    assert ("malformed", number) in codes(seen)
    assert {line for code, line in codes(seen) if code == "malformed"} == {
        line for code, line in codes(full) if code == "malformed"
    }
    assert [o.as_report() for o in run(seen).outcomes] == [o.as_report() for o in run(full).outcomes]
    assert "goal_x" not in seen[number - 1] and ("player" in how or '"map"' not in seen[number - 1])


# -- malformed: each new field in the wrong recording -------------------------------------


@pytest.mark.parametrize("field", ["roles", "goals", "hands", "draw_pile", "set_aside_role"])
def test_a_hidden_part_of_the_deal_in_an_observed_log_is_malformed(field: str) -> None:
    full = json.loads(gold_round().lines[1])
    value = full[field] if full[field] is not None else "gold_digger"
    lines = edit(observed(gold_round()), 2, **{field: value})
    assert (2, field) in malformed_fields(lines)
    assert codes(lines) == [("malformed", 2)]  # and then not used: the round is judged as seen


@pytest.mark.parametrize("hand", [[], ["map"] * 5], ids=["empty", "five-maps"])
def test_hands_given_in_an_observed_log_are_malformed_and_not_read(hand: list[str]) -> None:
    """event-log.md: in an observed log `bad_hand_size` and a card the hand does not
    hold "cannot be seen and are never reported", even where the deal lists hands it
    should not: the hands stay counted."""
    players = ["ann", "bob", "cem", "dia", "eve"]
    lines = edit(HAND_WRITTEN, 2, hands=dict.fromkeys(players, hand))
    assert codes(lines) == [("malformed", 2)]
    assert [f.round for f in audit(lines).findings if f.line == 2] == [1]  # the round the line starts


@pytest.mark.parametrize("field", ["roles", "goals", "hands", "draw_pile"])
def test_a_null_deal_field_in_a_full_log_is_malformed(field: str) -> None:
    lines = edit(gold_round().lines, 2, **{field: None})
    assert (2, field) in malformed_fields(lines)


@pytest.mark.parametrize("kind", ["draw", "discard"])
def test_a_hidden_card_named_in_an_observed_log_is_malformed(kind: str) -> None:
    log = LogBuilder(players=5, ruleset="tournament")
    log.deal(start="ann").discard("ann")
    lines = observed(log)
    number = line_of(lines, type=kind)
    assert malformed_fields(edit(lines, number, card="NESW")) == [(number, "card")]


@pytest.mark.parametrize("kind", ["draw", "discard"])
def test_a_null_card_in_a_full_log_is_malformed(kind: str) -> None:
    log = LogBuilder(players=5, ruleset="tournament")
    log.deal(start="ann").discard("ann")
    number = line_of(log.lines, type=kind)
    assert malformed_fields(edit(log.lines, number, card=None)) == [(number, "card")]


def test_a_reveal_without_its_card_in_an_observed_log_is_malformed() -> None:
    lines = observed(gold_round())
    number = line_of(lines, type="goal_revealed")
    assert malformed_fields(edit(lines, number, drop_card=True)) == [(number, "card")]


def test_a_full_log_may_name_the_goal_revealed_but_only_the_card_dealt_there() -> None:
    lines = gold_round().lines
    number = line_of(lines, type="goal_revealed")
    assert run(edit(lines, number, card="goal_gold")).status == "clean"
    assert malformed_fields(edit(lines, number, card="goal_stone_ne")) == [(number, "card")]


def test_roles_at_round_ended_are_for_observed_logs_only() -> None:
    full = gold_round().lines
    ended = line_of(full, type="round_ended")
    roles = json.loads(full[1])["roles"]
    assert malformed_fields(edit(full, ended, roles=roles)) == [(ended, "roles")]
    lines = observed(gold_round())
    assert malformed_fields(edit(lines, ended, drop_roles=True)) == [(ended, "roles")]
    partial = dict(list(roles.items())[:-1])
    assert malformed_fields(edit(lines, ended, roles=partial)) == [(ended, "roles")]


@pytest.mark.parametrize("turned_up", ["none", "all but one"])
def test_a_round_ended_without_its_roles_ends_the_round_unscored(turned_up: str) -> None:
    """R-W1, R-W3: in an observed log only the roles turned up at round_ended can score
    the round. Without them (or without one of them) the line is malformed and the
    round ends, but the rules give it no outcome: no winner is made up from unknown
    roles (it said "nobody won … not the gold diggers" and "the rules give 0" for each
    player's points), and no total is judged from then on, as for a round whose
    round_ended is lost."""
    lines = HAND_WRITTEN
    roles = json.loads(lines[18])["roles"]
    if turned_up == "none":
        edited = edit(lines, 19, drop_roles=True)
    else:
        edited = edit(lines, 19, roles=dict(list(roles.items())[:-1]))
    result = run(edited)
    assert [(f.code.value, f.line, f.field) for f in result.findings] == [("malformed", 19, "roles")]
    assert result.outcomes == []
    assert result.rounds_over == 1


def test_a_note_of_an_unknown_kind_or_over_500_characters_is_malformed() -> None:
    lines = gold_round().lines
    note = {"type": "referee_note", "player": "ann", "error": "face_up_discard", "note": "x" * 500}
    assert malformed_fields(insert(lines, 2, note)) == []
    assert malformed_fields(insert(lines, 2, {**note, "error": "cheating"})) == [(3, "error")]
    assert malformed_fields(insert(lines, 2, {**note, "note": "x" * 501})) == [(3, "note")]
    assert malformed_fields(insert(lines, 2, {**note, "player": "zed"})) == [(3, "player")]
    assert malformed_fields(insert(lines, 2, {**note, "player": None})) == []


def test_an_unknown_recording_makes_the_log_unreadable() -> None:
    lines = edit(gold_round().lines, 1, recording="seen")
    result = run(lines)
    assert result.status == "unreadable"
    assert result.findings[0].code.value == "malformed"


# -- counted, not seen ------------------------------------------------------------------


def test_r_t5_r_e2_an_observed_round_ends_when_the_counted_cards_are_played_out() -> None:
    log = LogBuilder(players=5, ruleset="tournament", rounds=1)
    log.deal(start="ann").pass_out().end_round().end_game()
    lines = observed(log)
    assert codes(lines) == []
    early = [*lines[:-3], *lines[-2:]]  # the last discard is missing: a hand still holds a card
    assert ("wrong_score", len(early) - 1) in codes(early)


def test_r_t2_an_observed_missed_draw_is_judged_on_the_counted_pile() -> None:
    log = LogBuilder(players=5, ruleset="tournament")
    log.deal(start="ann").discard("ann", draw=False).discard("bob")
    assert codes(observed(log)) == [("missed_draw", 4)] == codes(log)


def test_r_t2_a_draw_from_the_counted_empty_pile_is_wrong_draw() -> None:
    log = LogBuilder(players=5, ruleset="tournament", rounds=1)
    log.deal(start="ann").pass_out()
    lines = observed(log)
    last = json.loads(lines[-1])
    extra = insert(lines, len(lines) - 1, {"type": "draw", "player": last["player"], "card": None})
    # the pile is empty: the last card's player may not draw, counted or not
    assert ("wrong_draw", len(lines)) in codes(extra)


def test_r_t2_not_the_top_card_cannot_be_seen_in_an_observed_log() -> None:
    log = LogBuilder(players=5, ruleset="tournament")
    log.deal(start="ann").discard("ann", draw=False).draw("ann", "map")
    assert codes(log) == [("wrong_draw", 4)]
    assert codes(observed(log)) == []


def test_r_t4_a_card_from_a_counted_empty_hand_is_card_not_in_hand() -> None:
    log = LogBuilder(players=5, ruleset="tournament", rounds=1)
    log.deal(start="ann")
    while log.round.pile or all(log.hand(p) for p in log.players):
        log.discard(log.turn)
    (out,) = [p for p in log.players if not log.hand(p)]
    lines = observed(log)  # one player has played out their hand; the others still hold cards
    extra = [*lines, json.dumps({"type": "discard", "player": out, "card": None})]
    assert ("card_not_in_hand", len(extra)) in codes(extra)


def test_r_t4_a_card_the_player_does_not_hold_cannot_be_seen_in_an_observed_log() -> None:
    log = LogBuilder(players=5, ruleset="tournament")
    log.deal(start="ann", hands={"ann": ["map"]})
    log.path("ann", "EW", 1, 0)
    assert ("card_not_in_hand", 3) in codes(log)
    assert codes(observed(log)) == []


def test_r_s4_hand_sizes_cannot_be_seen_in_an_observed_log() -> None:
    log = LogBuilder(players=5, ruleset="tournament")
    log.deal(start="ann", hands={"ann": ["map"] * 1}, fill=False, pile=["NESW"] * 3)
    assert "bad_hand_size" in {code for code, _ in codes(log)}
    assert codes(observed(log)) == []


def test_r_s3_more_copies_laid_than_the_deck_holds_is_bad_deck() -> None:
    """The setup card counts: it and five more NESW are six, the deck has five."""
    lines = observed(gold_round())
    plays = [n for n, text in enumerate(lines, start=1) if json.loads(text)["type"] == "play_path"]
    for number in plays:
        lines = edit(lines, number, card="NESW")
    assert codes(lines) == [("bad_deck", plays[4]), ("bad_deck", plays[5])]


def test_r_s3_setup_cards_turned_over_go_back_into_the_deck() -> None:
    """Six maps turned over for the setup card and a map played are not seven maps."""
    lines = observed(gold_round())
    setup = json.loads(lines[1])["setup_card"]
    lines = edit(lines, 2, setup_card={**setup, "turned_over": ["map"] * 6 + [setup["card"]]})
    lines = insert(lines, 2, {"type": "play_map", "player": "ann", "card": "map", "goal": "top"})
    lines = insert(lines, 3, {"type": "draw", "player": "ann", "card": None})
    assert "bad_deck" not in {code for code, _ in codes(lines)}


def test_r_s2_goal_cards_turned_up_that_cannot_be_one_gold_and_two_stones_are_bad_deck() -> None:
    """One placement reaches the top and the middle goal: two stones, one of each, are
    legal; the same stone turned up twice cannot be."""
    stones = {"top": "goal_stone_ne", "middle": "goal_stone_nw", "bottom": "goal_gold"}
    log = next(
        candidate
        for ways in itertools.product((False, True), repeat=2)
        if not codes(candidate := _double(stones, list(zip(("top", "middle"), ways, strict=True))))
    )
    lines = observed(log)
    assert codes(lines) == []
    second = line_of(lines, type="goal_revealed", goal="middle")
    assert codes(edit(lines, second, card="goal_stone_ne")) == [("bad_deck", second)]


def _double(goals: dict[str, str], reveals: list[tuple[str, bool]]) -> LogBuilder:
    log = game(DOUBLE, goals=goals)
    double_reach(log, reveals)
    return log


def test_r_g1_a_goal_reached_without_its_reveal_is_deduced_where_the_others_are_known() -> None:
    log = gold_round()
    lines = observed(log)
    reveal = line_of(lines, type="goal_revealed")
    missing = [*lines[: reveal - 1], *lines[reveal:]]
    assert codes(missing)[0] == ("missing_reveal", reveal)


def test_r_s1_the_roles_turned_up_are_judged_at_round_ended() -> None:
    lines = observed(gold_round())
    ended = line_of(lines, type="round_ended")
    roles = json.loads(lines[ended - 1])["roles"]
    assert ("bad_roles", ended) not in codes(lines)
    wrong = edit(lines, ended, roles=dict.fromkeys(roles, "gold_digger"))
    assert ("bad_roles", ended) in codes(wrong)


def test_r_s1_base_roles_turned_up_fit_the_role_deck_less_one_card() -> None:
    """Four players: the deck is one saboteur and four diggers, one card set aside
    unseen; four diggers (the saboteur aside) fit, two saboteurs do not."""
    log = LogBuilder(players=4, ruleset="base", rounds=1)
    log.deal(start="ann").pass_out().end_round()
    lines = observed(log)
    ended = line_of(lines, type="round_ended")
    diggers = edit(
        lines,
        ended,
        roles=dict.fromkeys(["ann", "bob", "cem", "dia"], "gold_digger"),
        winner="nobody",
        scores=dict.fromkeys(["ann", "bob", "cem", "dia"], 0),
        gold_cards={p: [] for p in ["ann", "bob", "cem", "dia"]},
    )
    assert "bad_roles" not in {c for c, _ in codes(diggers)}
    two = {"ann": "saboteur", "bob": "saboteur", "cem": "gold_digger", "dia": "gold_digger"}
    assert ("bad_roles", ended) in codes(edit(lines, ended, roles=two))


def test_r_e1_the_gold_turned_up_in_an_observed_log_ends_the_round() -> None:
    lines = observed(gold_round())
    reveal = line_of(lines, type="goal_revealed")
    late = insert(lines, reveal, {"type": "discard", "player": "ann", "card": None})
    assert ("play_after_round_end", reveal + 1) in codes(late)


# -- referee notes (R-C1) ------------------------------------------------------------------


def test_r_c1_a_referee_note_is_a_table_incident_at_its_line() -> None:
    log = LogBuilder(players=5, ruleset="tournament")
    log.deal(start="ann").discard("ann")
    assert codes(log) == []
    log.note("drew_from_discard", "took the map back", player="bob")
    (finding,) = [f for f in run(log).findings if f.code.value == "table_incident"]
    assert (finding.line, finding.player, finding.rule, finding.round) == (log.line, "bob", "R-C1", 1)
    assert "took the map back" in finding.message


def test_r_c1_a_note_between_a_card_and_its_draw_is_not_a_missed_draw() -> None:
    for lines in (gold_round().lines, observed(gold_round())):
        draw = line_of(lines, type="draw")
        noted = insert(lines, draw - 1, {"type": "referee_note", "player": None, "error": "other", "note": ""})
        assert codes(noted) == [("table_incident", draw)]


def test_r_c1_a_note_between_a_placement_and_its_reveal_interrupts_nothing() -> None:
    lines = observed(gold_round())
    reveal = line_of(lines, type="goal_revealed")
    noted = insert(
        lines, reveal - 1, {"type": "referee_note", "player": "ann", "error": "showed_goal_card", "note": "peeked"}
    )
    assert codes(noted) == [("table_incident", reveal)]


def test_r_c1_a_note_after_game_ended_is_malformed() -> None:
    lines = [*gold_round().lines, json.dumps({"type": "referee_note", "player": None, "error": "other", "note": ""})]
    assert malformed_fields(lines) == [(len(lines), None)]


@pytest.mark.parametrize("slip", ["reveal", "roles"])
def test_what_a_full_log_wrote_wrong_in_sight_is_observed_as_dealt(slip: str) -> None:
    """A full log's reveal naming another card than the one dealt there, or its
    round_ended naming roles (malformed in a full log): the table sees the card and the
    roles dealt, and the observed log names those. Copied as written, the stone named
    for the gold scored the round as the saboteurs', and roles swapped moved the points."""
    lines = gold_round().lines
    if slip == "reveal":
        number = line_of(lines, type="goal_revealed")
        full = edit(lines, number, card="goal_stone_ne")
    else:
        number = line_of(lines, type="round_ended")
        roles = json.loads(lines[1])["roles"]
        dealt = list(roles.values())
        swapped = dict(zip(roles, [*dealt[1:], dealt[0]], strict=True))
        full = edit(lines, number, roles=swapped)
    seen = observe("\n".join(full).encode()).decode().splitlines()
    assert malformed_fields(full) == [(number, "card" if slip == "reveal" else "roles")]
    assert [o.as_report() for o in run(seen).outcomes] == [o.as_report() for o in run(full).outcomes]


@pytest.mark.parametrize(("kind", "field"), [("play_map", "goal"), ("play_path", "x")])
def test_a_card_play_past_applying_stays_malformed_when_observed(kind: str, field: str) -> None:
    """A card laid face up whose line lacks what it needs is malformed in both logs: the
    observed log wrote it over with the turn it took, a face-down discard, which read as
    valid (the finding gone, and a play recorded as a pass)."""
    log = LogBuilder(players=6, ruleset="tournament", rounds=1)
    log.deal(start="ann", hands={"ann": ["map", "EW"]})
    log.map("ann", "top") if kind == "play_map" else lay(log, "EW", 1, 0)
    number = line_of(log.lines, type=kind)
    full = edit(log.lines, number, **{f"drop_{field}": True})
    seen = observe("\n".join(full).encode()).decode().splitlines()
    assert json.loads(seen[number - 1])["type"] == kind
    assert [(f.code, f.line) for f in run(seen).findings] == [(f.code, f.line) for f in run(full).findings]
