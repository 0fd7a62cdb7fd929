"""End of a round (R-E1, R-E2) and who wins what (R-W1 tournament, R-W2 base, R-W3 game).

Every rule has a legal case (no error findings) and illegal ones (exact code and line).
Expected outcomes are computed by hand here, never taken from the engine.

Tournament tables of six (default roles): ann, bob, cem gold diggers, dia the selfish
dwarf, eve and fay saboteurs; a setup card (NESW) lies at (4,0), so a path along y=0 needs
cards at x=1..3 and 5..7: six placements, one per player, the sixth by the connector.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from events.builder import LogBuilder
from events.rules.scoring import gold_passing, saboteur_gold
from events.schema import dump_event
from events.simulate.game import GameSpec, simulate_game
from tests.conftest import codes, errors, run

TOUR_ROW = ((1, "EW"), (2, "EW"), (3, "EW"), (5, "NEW"), (6, "NEW"), (7, "NESW"))
"""The cells and cards of a path to the middle goal around the tournament setup card."""
BASE_ROW = ("EW", "EW", "EW", "NEW", "NEW", "NESW", "NESW")
"""Cards for (1,0)…(7,0) in a base game."""


# -- helpers ---------------------------------------------------------------------------


def seats_from(log: LogBuilder, start: str) -> list[str]:
    at = log.players.index(start)
    return log.players[at:] + log.players[:at]


def gold_path(log: LogBuilder, cells: Sequence[tuple[int, str]]) -> str:
    """Lay ``cells`` (x, card) along y=0 turn by turn; the last card reaches the middle
    goal (the gold unless told otherwise), which is revealed. Returns the connector."""
    player = ""
    for k, (x, card) in enumerate(cells):
        player = log.turn
        last = k == len(cells) - 1
        log.path(player, card, x, 0, draw=not last)
    log.reveal("middle", False)
    return player


def deal_path(log: LogBuilder, cards: Sequence[str], start: str, **deal: Any) -> None:
    """Deal so that the players, in turn order from ``start``, hold ``cards`` in turn."""
    order = seats_from(log, start)
    hands = {p: list(cards[i :: len(order)]) for i, p in enumerate(order)}
    log.deal(start=start, hands=hands, **deal)


def tournament_gold(start: str, players: int = 6, **deal: Any) -> tuple[LogBuilder, str]:
    """A tournament round in which the sixth player from ``start`` reaches the gold."""
    log = LogBuilder(players=players, ruleset="tournament")
    deal_path(log, [card for _, card in TOUR_ROW], start, **deal)
    return log, gold_path(log, TOUR_ROW)


def base_gold(players: int, start: str, rounds: int = 3, **options: Any) -> tuple[LogBuilder, str]:
    """A base round in which the seventh card, laid from ``start`` on, reaches the gold."""
    header: dict[str, Any] = {"options": options} if options else {}
    log = LogBuilder(players=players, ruleset="base", rounds=rounds, **header)
    deal_path(log, BASE_ROW, start)
    return log, gold_path(log, list(enumerate(BASE_ROW, start=1)))


def zeros(log: LogBuilder, **scores: int) -> dict[str, int]:
    return {p: scores.get(p, 0) for p in log.players}


def no_gold(log: LogBuilder, **cards: list[int]) -> dict[str, list[int]]:
    return {p: list(cards.get(p, [])) for p in log.players}


def outcome_of(log: LogBuilder, index: int = 0) -> dict[str, Any]:
    return run(log).report().rounds[index]


# -- R-E1: revealing the gold ends the round at once ----------------------------------------


def test_r_e1_round_ended_right_after_the_gold_reveal() -> None:
    """R-E1: Round ended right after the gold reveal."""
    log, _ = tournament_gold("bob")
    log.end_round()
    assert codes(log) == []


def test_r_e1_the_connectors_draw_after_the_gold_is_play_after_round_end() -> None:
    """R-E1: no draw after the gold: only ``round_ended`` may follow the reveals."""
    log, connector = tournament_gold("bob")
    log.draw(connector)
    line = log.line
    log.end_round()
    assert codes(log) == [("play_after_round_end", line)]
    assert errors(log)[0].player == connector  # event-log.md: the player where one is involved


def test_r_e1_the_next_card_after_the_gold_is_play_after_round_end() -> None:
    """R-E1: The next card after the gold is play after round end."""
    log, _ = tournament_gold("bob")
    log.raw({"type": "discard", "player": "bob", "card": log.hand("bob")[0]})
    line = log.line
    log.end_round()
    assert codes(log) == [("play_after_round_end", line)]


@pytest.mark.parametrize("goal", ["middle", "top"], ids=["the gold again", "a goal not reached"])
def test_r_e1_a_reveal_after_the_gold_s_is_play_after_round_end(goal: str) -> None:
    """R-E1: the round is over once the gold is turned up, so a reveal written after the
    gold's (as a tool turning every goal up at the end might) is a line after the
    round's end, the reveal nobody's; it was ``false_reveal``, which says a goal was
    turned up with no path to it."""
    log, _ = tournament_gold("bob")
    log.reveal(goal)
    line = log.line
    log.end_round()
    assert codes(log) == [("play_after_round_end", line)]
    (finding,) = errors(log)
    assert (finding.rule, finding.player, finding.round) == ("R-E1", None, 1)


def test_r_e1_a_false_reveal_before_the_gold_s_stays_a_false_reveal() -> None:
    """R-G1, R-E1: a goal written as turned up before the gold's own reveal came while
    the round was still on: it is the false reveal it is."""
    log = LogBuilder(players=6, ruleset="tournament")
    deal_path(log, [card for _, card in TOUR_ROW], "bob")
    for k, (x, card) in enumerate(TOUR_ROW):
        log.path(log.turn, card, x, 0, draw=k < 5)
    log.reveal("top")
    false = log.line
    log.reveal("middle")
    log.end_round()
    assert codes(log) == [("false_reveal", false)]


def test_r_e1_stone_reveal_does_not_end_the_round() -> None:
    """R-E1/R-G3: only the gold ends the round; play goes on after a stone."""
    log = LogBuilder(players=6, ruleset="tournament")
    deal_path(
        log,
        [card for _, card in TOUR_ROW],
        "bob",
        goals={"top": "goal_gold", "middle": "goal_stone_ne", "bottom": "goal_stone_nw"},
    )
    for k, (x, card) in enumerate(TOUR_ROW):
        player = log.turn
        log.path(player, card, x, 0, draw=k < 5)
    log.reveal("middle", True).draw("ann")
    log.end_round()
    assert codes(log) == [("wrong_score", log.line)]


# -- R-E2: otherwise when every hand is empty ----------------------------------------------


def test_r_e2_round_ended_when_every_hand_is_empty(six: LogBuilder) -> None:
    """R-E2: Round ended when every hand is empty."""
    six.deal()
    six.pass_out()
    assert not any(six.round.hands.values()) and not six.round.pile
    six.end_round()
    assert codes(six) == []


def test_r_e2_round_ended_while_cards_are_held_is_wrong_score(six: LogBuilder) -> None:
    """R-E2: Round ended while cards are held is wrong score."""
    six.deal()
    six.discard(six.turn)
    six.end_round()
    assert codes(six) == [("wrong_score", six.line)]


def test_r_e2_a_card_after_every_hand_is_empty_is_play_after_round_end(six: LogBuilder) -> None:
    """R-E2: A card after every hand is empty is play after round end."""
    six.deal()
    six.pass_out()
    six.raw({"type": "discard", "player": "ann", "card": "map"})
    line = six.line
    six.end_round()
    assert codes(six) == [("play_after_round_end", line)]
    assert errors(six)[0].player == "ann"


def test_r_e2_a_reveal_after_every_hand_is_empty_is_play_after_round_end(six: LogBuilder) -> None:
    """R-E2: once every card is played out only ``round_ended`` may follow: a goal
    written as turned up then is a line after the round's end (it was ``false_reveal``)."""
    six.deal()
    six.pass_out()
    six.reveal("top")
    line = six.line
    six.end_round()
    assert codes(six) == [("play_after_round_end", line)]
    assert (errors(six)[0].rule, errors(six)[0].player) == ("R-E2", None)


@pytest.mark.parametrize(
    "event",
    [
        {"type": "discard", "player": "ann", "card": "map"},
        {"type": "draw", "player": "ann", "card": "map"},
        {"type": "goal_revealed", "goal": "top", "rotated": False},
        {"type": "play_path", "player": "ann", "card": "EW", "x": 1, "y": 0, "rotated": False},
    ],
    ids=["discard", "draw", "goal_revealed", "play_path"],
)
def test_r_e2_events_between_round_ended_and_round_started_are_play_after_round_end(
    six: LogBuilder, event: dict[str, Any]
) -> None:
    """R-E2: Events between round ended and round started are play after round end."""
    six.deal()
    six.pass_out()
    six.end_round()
    six.raw(event)
    line = six.line
    six.deal(start="bob")
    assert codes(six) == [("play_after_round_end", line)]
    assert errors(six)[0].player == event.get("player")  # a reveal is nobody's


def test_r_e2_next_round_after_round_ended_is_legal(six: LogBuilder) -> None:
    """R-E2: Next round after round ended is legal."""
    six.deal()
    six.pass_out()
    six.end_round()
    six.deal(start="bob")
    six.discard("bob")
    assert codes(six) == []


# -- R-W1: tournament scoring -------------------------------------------------------------


def test_r_w1_gold_digger_connector_3_and_a_star_other_diggers_2() -> None:
    """R-W1: Gold digger connector 3 and a star other diggers 2."""
    log, connector = tournament_gold("bob")
    assert connector == "ann"
    log.end_round()
    assert codes(log) == []
    assert outcome_of(log) == {
        "round": 1,
        "winner": "gold_diggers",
        "connector": "ann",
        "scores": zeros(log, ann=3, bob=2, cem=2),
        "stars": ["ann"],
    }


def test_r_w1_gold_digger_connector_given_2_is_wrong_score() -> None:
    """R-W1: Gold digger connector given 2 is wrong score."""
    log, _ = tournament_gold("bob")
    log.end_round(scores=zeros(log, ann=2, bob=2, cem=2))
    assert codes(log) == [("wrong_score", log.line)]


def test_r_w1_selfish_dwarf_connector_4_and_a_star_alone() -> None:
    """R-W1: Selfish dwarf connector 4 and a star alone."""
    log, connector = tournament_gold("eve")
    assert connector == "dia"
    log.end_round()
    assert codes(log) == []
    assert outcome_of(log) == {
        "round": 1,
        "winner": "selfish_dwarf",
        "connector": "dia",
        "scores": zeros(log, dia=4),
        "stars": ["dia"],
    }


def test_r_w1_selfish_dwarf_connector_sharing_with_the_diggers_is_wrong_score() -> None:
    """R-W1: Selfish dwarf connector sharing with the diggers is wrong score."""
    log, _ = tournament_gold("eve")
    log.end_round(scores=zeros(log, dia=4, ann=2, bob=2, cem=2))
    assert codes(log) == [("wrong_score", log.line)]


def test_r_w1_selfish_dwarfs_never_share_not_even_with_each_other() -> None:
    """R-W1: at a table of seven (two selfish dwarfs) the other dwarf gets nothing."""
    log = LogBuilder(players=7, ruleset="tournament")
    # default roles at 7: ann, bob, cem diggers; dia, eve selfish dwarfs; fay, gus saboteurs
    deal_path(log, [card for _, card in TOUR_ROW], "gus")
    assert gold_path(log, TOUR_ROW) == "eve"
    log.end_round(scores=zeros(log, eve=4, dia=4))
    assert codes(log) == [("wrong_score", log.line)]
    assert outcome_of(log)["scores"] == zeros(log, eve=4)


def test_r_w1_saboteur_connector_diggers_2_each_no_star() -> None:
    """R-W1 ruling: a saboteur's connection wins for the gold diggers, without a star."""
    log, connector = tournament_gold("ann")
    assert connector == "fay"
    log.end_round()
    assert codes(log) == []
    assert outcome_of(log) == {
        "round": 1,
        "winner": "gold_diggers",
        "connector": "fay",
        "scores": zeros(log, ann=2, bob=2, cem=2),
        "stars": [],
    }


def test_r_w1_saboteur_connector_scored_as_a_digger_connector_is_wrong_score() -> None:
    """R-W1: Saboteur connector scored as a digger connector is wrong score."""
    log, _ = tournament_gold("ann")
    log.end_round(scores=zeros(log, ann=2, bob=2, cem=2, fay=3))
    assert codes(log) == [("wrong_score", log.line)]


def test_r_w1_saboteur_connector_claimed_as_a_saboteur_win_is_wrong_score() -> None:
    """R-W1: Saboteur connector claimed as a saboteur win is wrong score."""
    log, _ = tournament_gold("ann")
    log.end_round(winner="saboteurs")
    assert codes(log) == [("wrong_score", log.line)]


def test_r_w1_wrong_connector_is_wrong_score() -> None:
    """R-W1: Wrong connector is wrong score."""
    log, _ = tournament_gold("bob")
    log.end_round(connector="bob")
    assert codes(log) == [("wrong_score", log.line)]


def test_r_w1_a_connector_not_at_the_table_is_malformed_and_the_wrong_score_names_no_one() -> None:
    """A finding names "the player where one is involved": one of the game's. A
    connector claimed who is not at the table is malformed at its field, and the wrong
    connector it makes names nobody (it named the stranger)."""
    log, _ = tournament_gold("bob")
    log.end_round(connector="zz")
    found = {f.code.value: f for f in errors(log)}
    assert sorted(found) == ["malformed", "wrong_score"]
    assert found["malformed"].field == "connector"
    assert found["wrong_score"].player is None and "not zz" in found["wrong_score"].message


@pytest.mark.parametrize(
    ("players", "saboteurs", "points"),
    [(5, ["eve"], 4), (6, ["eve", "fay"], 3), (9, ["gus", "hal", "ida"], 3)],
    ids=["one-saboteur", "two-saboteurs", "three-saboteurs"],
)
def test_r_w1_saboteurs_win_when_the_gold_is_not_reached(players: int, saboteurs: list[str], points: int) -> None:
    """R-W1: 4 points with one saboteur, 3 each with two or three; a star each."""
    log = LogBuilder(players=players, ruleset="tournament")
    log.deal()
    log.pass_out()
    log.end_round()
    assert codes(log) == []
    assert outcome_of(log) == {
        "round": 1,
        "winner": "saboteurs",
        "connector": None,
        "scores": zeros(log, **dict.fromkeys(saboteurs, points)),
        "stars": saboteurs,
    }


def test_r_w1_two_saboteurs_given_4_each_is_wrong_score(six: LogBuilder) -> None:
    """R-W1: Two saboteurs given 4 each is wrong score."""
    six.deal()
    six.pass_out()
    six.end_round(scores=zeros(six, eve=4, fay=4))
    assert codes(six) == [("wrong_score", six.line)]


def test_r_w1_saboteurs_win_claimed_for_the_diggers_is_wrong_score(six: LogBuilder) -> None:
    """R-W1: Saboteurs win claimed for the diggers is wrong score."""
    six.deal()
    six.pass_out()
    six.end_round(winner="gold_diggers")
    assert codes(six) == [("wrong_score", six.line)]


# -- R-W2: base scoring ---------------------------------------------------------------------


def test_r_w2_passing_counter_clockwise_skipping_saboteurs_unit() -> None:
    """R-W2: five seats ann..eve, bob and eve saboteurs, cem connects with 5 cards:
    counter-clockwise from cem: cem, bob (skip), ann, eve (skip), dia, then round again:
    cem, ann. So cem 2, ann 2, dia 1."""
    players = ["ann", "bob", "cem", "dia", "eve"]
    roles: dict[str, Any] = {
        "ann": "gold_digger",
        "bob": "saboteur",
        "cem": "gold_digger",
        "dia": "gold_digger",
        "eve": "saboteur",
    }
    assert gold_passing(players, roles, "cem", 5) == {"ann": 2, "bob": 0, "cem": 2, "dia": 1, "eve": 0}


FIVE_ROLES = {"ann": "gold_digger", "bob": "saboteur", "cem": "gold_digger", "dia": "gold_digger", "eve": "saboteur"}


def five_player_gold(**options: Any) -> tuple[LogBuilder, str]:
    """Five base players, bob and eve saboteurs (a gold digger set aside); from bob on
    the seventh card is cem's: cem reaches the gold."""
    header: dict[str, Any] = {"options": options} if options else {}
    log = LogBuilder(players=5, ruleset="base", **header)
    deal_path(log, BASE_ROW, "bob", roles=FIVE_ROLES)
    return log, gold_path(log, list(enumerate(BASE_ROW, start=1)))


def test_r_w2_passing_round_and_round_some_diggers_get_more() -> None:
    """R-W2: Passing round and round some diggers get more."""
    log, connector = five_player_gold()
    assert connector == "cem"
    cards = no_gold(log, cem=[3, 2], ann=[1, 1], dia=[3])
    log.end_round(scores=zeros(log, cem=5, ann=2, dia=3), gold_cards=cards)
    assert codes(log) == []
    assert run(log).outcomes[0].gold_card_counts == {"ann": 2, "bob": 0, "cem": 2, "dia": 1, "eve": 0}
    assert outcome_of(log)["scores"] == zeros(log, cem=5, ann=2, dia=3)


def test_r_w2_passing_clockwise_is_wrong_score() -> None:
    """R-W2: clockwise would give dia 2 and ann 1: both counts are wrong."""
    log, _ = five_player_gold()
    cards = no_gold(log, cem=[3, 2], dia=[1, 1], ann=[3])
    log.end_round(scores=zeros(log, cem=5, dia=2, ann=3), gold_cards=cards)
    assert set(codes(log)) == {("wrong_score", log.line)}


def test_r_w2_gold_to_a_saboteur_is_wrong_score() -> None:
    """R-W2: Gold to a saboteur is wrong score."""
    log, _ = five_player_gold()
    cards = no_gold(log, cem=[3, 2], ann=[1, 1], dia=[3], bob=[1])
    log.end_round(scores=zeros(log, cem=5, ann=2, dia=3, bob=1), gold_cards=cards)
    assert set(codes(log)) == {("wrong_score", log.line)}


def test_r_w2_gold_to_a_saboteur_is_one_finding() -> None:
    """R-W2, One departure, one finding: bob (a saboteur) took a card he may not take; the
    score written is the sum of that card."""
    log, _ = five_player_gold()
    cards = no_gold(log, cem=[3, 2], ann=[1, 1], dia=[3], bob=[1])
    log.end_round(scores=zeros(log, cem=5, ann=2, dia=3, bob=1), gold_cards=cards)
    assert codes(log) == [("wrong_score", log.line)]


def test_r_w2_gold_cards_drawn_by_gold_diggers_option() -> None:
    """R-W2 ruling: ``options.gold_cards_drawn: "gold_diggers"``: three diggers in play,
    three cards: cem, ann, dia one each."""
    log, _ = five_player_gold(gold_cards_drawn="gold_diggers")
    log.end_round(scores=zeros(log, cem=3, ann=2, dia=1), gold_cards=no_gold(log, cem=[3], ann=[2], dia=[1]))
    assert codes(log) == []
    assert run(log).outcomes[0].gold_card_counts == {"ann": 1, "bob": 0, "cem": 1, "dia": 1, "eve": 0}


def test_r_w2_gold_diggers_option_five_cards_is_wrong_score() -> None:
    """R-W2: Gold diggers option five cards is wrong score."""
    log, _ = five_player_gold(gold_cards_drawn="gold_diggers")
    cards = no_gold(log, cem=[3, 2], ann=[1], dia=[3])
    log.end_round(scores=zeros(log, cem=5, ann=1, dia=3), gold_cards=cards)
    assert codes(log) == [("wrong_score", log.line)]


def test_r_w2_ten_players_draw_nine_cards() -> None:
    """R-W2: ten seats, gus..jan saboteurs; from jan on the seventh card is fay's.
    Counter-clockwise from fay: fay, eve, dia, cem, bob, ann, (jan, ida, hal, gus
    skipped), fay, eve, dia: nine cards."""
    log, connector = base_gold(10, "jan")
    assert connector == "fay"
    log.end_round()
    assert codes(log) == []
    assert run(log).outcomes[0].gold_card_counts == zeros(log, fay=2, eve=2, dia=2, cem=1, bob=1, ann=1)


def test_r_w2_ten_players_ten_cards_is_wrong_score() -> None:
    """R-W2: Ten players ten cards is wrong score."""
    log, _ = base_gold(10, "jan")
    cards = no_gold(log, fay=[1, 1], eve=[1, 1], dia=[1, 1], cem=[1], bob=[1], ann=[1, 2])
    log.end_round(scores={p: sum(v) for p, v in cards.items()}, gold_cards=cards)
    assert codes(log) == [("wrong_score", log.line)]


def test_r_w2_saboteur_connector_keeps_none() -> None:
    """R-W2 ruling: cem (the saboteur) connects: counter-clockwise bob, ann, bob."""
    log, connector = base_gold(3, "cem")
    assert connector == "cem"
    cards = no_gold(log, bob=[2, 1], ann=[3])
    log.end_round(scores=zeros(log, bob=3, ann=3), gold_cards=cards)
    assert codes(log) == []
    outcome = run(log).outcomes[0]
    assert (outcome.winner, outcome.connector) == ("gold_diggers", "cem")
    assert outcome.gold_card_counts == {"ann": 1, "bob": 2, "cem": 0}


def test_r_w2_saboteur_connector_keeping_a_card_is_wrong_score() -> None:
    """R-W2: Saboteur connector keeping a card is wrong score."""
    log, _ = base_gold(3, "cem")
    cards = no_gold(log, cem=[1], bob=[2, 1], ann=[3])
    log.end_round(scores=zeros(log, cem=1, bob=3, ann=3), gold_cards=cards)
    assert set(codes(log)) == {("wrong_score", log.line)}


@pytest.mark.parametrize(
    ("players", "saboteurs", "nuggets"),
    [(3, ["cem"], 4), (5, ["dia", "eve"], 3), (8, ["fay", "gus", "hal"], 3), (10, ["gus", "hal", "ida", "jan"], 2)],
    ids=["one", "two", "three", "four"],
)
def test_r_w2_saboteurs_nuggets_by_count(players: int, saboteurs: list[str], nuggets: int) -> None:
    """R-W2: gold not reached: 4 nuggets for one saboteur, 3 each for 2 or 3, 2 for 4."""
    log = LogBuilder(players=players, ruleset="base")
    log.deal()
    log.pass_out()
    log.end_round()
    assert codes(log) == []
    report = outcome_of(log)
    assert report["winner"] == "saboteurs"
    assert report["scores"] == zeros(log, **dict.fromkeys(saboteurs, nuggets))


def test_r_w2_one_saboteur_any_cards_making_4() -> None:
    """R-W2: One saboteur any cards making 4."""
    log = LogBuilder(players=3, ruleset="base")
    log.deal()
    log.pass_out()
    log.end_round(scores=zeros(log, cem=4), gold_cards=no_gold(log, cem=[2, 1, 1]))
    assert codes(log) == []


def test_r_w2_one_saboteur_taking_5_is_wrong_score() -> None:
    """R-W2: One saboteur taking 5 is wrong score."""
    log = LogBuilder(players=3, ruleset="base")
    log.deal()
    log.pass_out()
    log.end_round(scores=zeros(log, cem=5), gold_cards=no_gold(log, cem=[3, 2]))
    assert codes(log) == [("wrong_score", log.line)]


def test_r_w2_two_saboteurs_taking_4_each_is_wrong_score() -> None:
    """R-W2: Two saboteurs taking 4 each is wrong score."""
    log = LogBuilder(players=5, ruleset="base")
    log.deal()
    log.pass_out()
    log.end_round(scores=zeros(log, dia=4, eve=4), gold_cards=no_gold(log, dia=[3, 1], eve=[3, 1]))
    assert set(codes(log)) == {("wrong_score", log.line)}


def test_r_w2_largest_sum_below_the_share_unit() -> None:
    """R-W2 ruling: where the cards left cannot make the share, the largest sum below it."""

    def alone(supply: dict[int, int], share: int) -> int:
        (take,) = saboteur_gold(Counter(supply), share, 1)
        return sum(take)

    assert alone({1: 16, 2: 8, 3: 4}, 4) == 4
    assert alone({3: 2}, 4) == 3
    assert alone({3: 1, 2: 1}, 4) == 3
    assert alone({2: 2}, 3) == 2
    assert alone({}, 2) == 0


def test_r_w2_the_saboteurs_sums_where_the_cards_run_short_unit() -> None:
    """R-W2 ruling, for every saboteur at once: each in turn takes the largest sum the
    cards left can make, and leaves the others the most."""

    def sums(supply: dict[int, int], share: int, saboteurs: int) -> list[int]:
        return [sum(take) for take in saboteur_gold(Counter(supply), share, saboteurs)]

    assert sums({1: 16, 2: 8, 3: 4}, 3, 3) == [3, 3, 3]
    assert sums({3: 2, 2: 8}, 3, 3) == [3, 3, 2]
    assert sums({3: 1, 1: 3}, 3, 2) == [3, 3]  # the 3 for one, the three 1s for the other
    assert sums({2: 3}, 3, 2) == [2, 2]
    assert sums({2: 1, 1: 1}, 2, 4) == [2, 1, 0, 0]
    assert sums({}, 4, 1) == [0]
    taken = Counter(v for take in saboteur_gold(Counter({3: 1, 1: 3}), 3, 2) for v in take)
    assert taken == Counter({3: 1, 1: 3})


def _short_of_gold() -> tuple[list[dict[str, Any]], int, list[str]]:
    """A simulated 9-player base game whose first two rounds the diggers won, nine gold
    cards each, rewritten so that they took the sixteen 1s and two 3s: its third round,
    won by three saboteurs, leaves them two 3s and eight 2s. Returns the events, the
    index of the third round's ``round_ended`` and its saboteurs."""
    for seed in range(200):
        spec = GameSpec("short", tuple(f"p{i}" for i in range(1, 10)), "base", 3, seed)
        events = [json.loads(dump_event(e)) for e in simulate_game(spec)]
        ends = [i for i, e in enumerate(events) if e["type"] == "round_ended"]
        winners = [events[i]["winner"] for i in ends]
        dealt = [e for e in events if e["type"] == "round_started"][2]
        saboteurs = [p for p, role in dealt["roles"].items() if role == "saboteur"]
        if winners != ["gold_diggers", "gold_diggers", "saboteurs"] or len(saboteurs) != 3:
            continue
        pool = [3, 3] + [1] * 16
        for i in ends[:2]:
            for player, cards in events[i]["gold_cards"].items():
                events[i]["gold_cards"][player] = [pool.pop() for _ in cards]
                events[i]["scores"][player] = sum(events[i]["gold_cards"][player])
        return events, ends[2], saboteurs
    raise AssertionError("no seed under 200 gives such a game")


@pytest.mark.parametrize(
    ("takes", "found"),
    [
        ([[3], [3], [2]], False),
        ([[2], [3], [3]], False),  # which saboteur took the smaller sum is the table's to say
        ([[3], [2], [2]], True),  # one of them took less than the cards left allowed
        ([[3], [3], []], True),
    ],
    ids=["3-3-2", "2-3-3", "3-2-2", "3-3-0"],
)
def test_r_w2_saboteurs_short_of_gold_are_judged_together(takes: list[list[int]], found: bool) -> None:
    """R-W2 ruling: judged one saboteur at a time against what the others claimed, 3, 2
    and 2 made each 2 look short of a 3 the cards could not give both, and 3, 3 and 3
    (a 3 that is not left) was said to be due 2 each."""
    events, at, saboteurs = _short_of_gold()
    ended = events[at]
    for saboteur, take in zip(saboteurs, takes, strict=True):
        ended["gold_cards"][saboteur] = take
        ended["scores"][saboteur] = sum(take)
    totals = dict.fromkeys(events[0]["players"], 0)
    for event in events:
        if event["type"] == "round_ended":
            for player, score in event["scores"].items():
                totals[player] += score
    events[-1]["totals"] = totals
    audit = run([json.dumps(e) for e in events])
    assert [(f.code, f.line, f.rule) for f in audit.findings] == ([("wrong_score", at + 1, "R-W2")] if found else [])
    scores = [audit.outcomes[2].scores[s] for s in saboteurs]
    assert scores == ([None] * 3 if found else [sum(t) for t in takes])


def all_diggers(players: int) -> tuple[LogBuilder, dict[str, str]]:
    log = LogBuilder(players=players, ruleset="base")
    roles = dict.fromkeys(log.players, "gold_digger")
    log.deal(roles=roles, set_aside="saboteur")
    log.pass_out()
    return log, roles


@pytest.mark.parametrize("players", [3, 4])
def test_r_w2_no_saboteur_in_play_nobody_wins(players: int) -> None:
    """R-W2: 3-4 players, the saboteur set aside, the gold not reached: nobody gets gold."""
    log, _ = all_diggers(players)
    log.end_round()
    assert codes(log) == []
    report = outcome_of(log)
    assert (report["winner"], report["connector"], report["scores"]) == ("nobody", None, zeros(log))
    assert log.lines[-1].count("[]") == players  # every player's gold_cards is empty


def test_r_w2_no_saboteur_in_play_claimed_for_the_saboteurs_is_wrong_score() -> None:
    """R-W2: No saboteur in play claimed for the saboteurs is wrong score."""
    log, _ = all_diggers(3)
    log.end_round(winner="saboteurs")
    assert codes(log) == [("wrong_score", log.line)]


def test_r_w2_no_saboteur_in_play_gold_taken_is_wrong_score() -> None:
    """R-W2: No saboteur in play gold taken is wrong score."""
    log, _ = all_diggers(3)
    log.end_round(scores=zeros(log, ann=4), gold_cards=no_gold(log, ann=[3, 1]))
    assert set(codes(log)) == {("wrong_score", log.line)}


def test_r_w2_wrong_number_of_gold_cards_is_wrong_score() -> None:
    """R-W2: three players, ann connects: ann 2 cards, bob 1 (cem the saboteur skipped)."""
    log, connector = base_gold(3, "ann")
    assert connector == "ann"
    log.end_round(scores=zeros(log, ann=3, bob=1), gold_cards=no_gold(log, ann=[1, 1, 1], bob=[1]))
    assert codes(log) == [("wrong_score", log.line)]


def test_r_w2_score_not_the_sum_of_gold_cards_is_wrong_score() -> None:
    """R-W2: Score not the sum of gold cards is wrong score."""
    log, _ = base_gold(3, "ann")
    log.end_round(scores=zeros(log, ann=3, bob=1), gold_cards=no_gold(log, ann=[1, 1], bob=[1]))
    assert set(codes(log)) == {("wrong_score", log.line)}


def test_r_w2_score_not_the_sum_of_gold_cards_is_one_finding() -> None:
    """R-W2, One departure, one finding: the score differs from the sum of the cards."""
    log, _ = base_gold(3, "ann")
    log.end_round(scores=zeros(log, ann=3, bob=1), gold_cards=no_gold(log, ann=[1, 1], bob=[1]))
    assert codes(log) == [("wrong_score", log.line)]


def two_base_rounds(second: dict[str, list[int]], rounds: int = 3) -> LogBuilder:
    """Three players. Round 1: ann connects, takes [3, 3], bob [3]. Round 2 (started by
    bob, left of ann who laid the last card): bob connects, takes two cards, ann one."""
    log, _ = base_gold(3, "ann", rounds=rounds)
    log.end_round(scores=zeros(log, ann=6, bob=3), gold_cards=no_gold(log, ann=[3, 3], bob=[3]))
    deal_path(log, BASE_ROW, "bob")
    assert gold_path(log, list(enumerate(BASE_ROW, start=1))) == "bob"
    log.end_round(scores={p: sum(v) for p, v in second.items()}, gold_cards=second)
    return log


def test_r_w2_gold_cards_the_supply_can_give() -> None:
    """R-W2: four 3-nugget cards over the game is all the box has: legal."""
    log = two_base_rounds({"ann": [1], "bob": [3, 2], "cem": []})
    assert codes(log) == []


def test_r_w2_five_3_nugget_cards_over_the_game_is_wrong_score() -> None:
    """R-W2: the box has four 3-nugget cards; round 1 took three."""
    log = two_base_rounds({"ann": [1], "bob": [3, 3], "cem": []})
    assert codes(log) == [("wrong_score", log.line)]


# -- R-W3: the game ---------------------------------------------------------------------------


def tournament_game(played: int, planned: int) -> LogBuilder:
    """Round 1: ann connects (ann 3, bob 2, cem 2). Round 2, if played: nobody reaches
    the gold (eve 3, fay 3)."""
    log = LogBuilder(players=6, ruleset="tournament", rounds=planned)
    deal_path(log, [card for _, card in TOUR_ROW], "bob")
    gold_path(log, TOUR_ROW)
    log.end_round()
    if played >= 2:
        log.deal(start="cem")
        log.pass_out()
        log.end_round()
    return log


TOURNAMENT_TOTALS = {"ann": 3, "bob": 2, "cem": 2, "dia": 0, "eve": 3, "fay": 3}


def test_r_w3_totals_are_the_sums_of_the_rounds() -> None:
    """R-W3: Totals are the sums of the rounds."""
    log = tournament_game(2, planned=2)
    log.raw({"type": "game_ended", "totals": TOURNAMENT_TOTALS})
    assert codes(log) == []


def test_r_w3_wrong_totals_are_wrong_score() -> None:
    """R-W3: the totals of round 1 only."""
    log = tournament_game(2, planned=2)
    log.raw({"type": "game_ended", "totals": {**TOURNAMENT_TOTALS, "eve": 0, "fay": 0}})
    assert codes(log) == [("wrong_score", log.line)]


def test_r_w3_base_totals_are_the_sums_of_the_gold() -> None:
    """R-W3: Base totals are the sums of the gold."""
    log = two_base_rounds({"ann": [1], "bob": [3, 2], "cem": []}, rounds=2)
    log.raw({"type": "game_ended", "totals": {"ann": 7, "bob": 8, "cem": 0}})
    assert codes(log) == []


def test_r_w3_base_wrong_totals_are_wrong_score() -> None:
    """R-W3: Base wrong totals are wrong score."""
    log = two_base_rounds({"ann": [1], "bob": [3, 2], "cem": []}, rounds=2)
    log.raw({"type": "game_ended", "totals": {"ann": 7, "bob": 5, "cem": 0}})
    assert codes(log) == [("wrong_score", log.line)]


def test_r_w3_game_ended_before_the_planned_rounds_is_wrong_score() -> None:
    """R-W3: right totals, but two rounds of the three planned."""
    log = tournament_game(2, planned=3)
    log.raw({"type": "game_ended", "totals": TOURNAMENT_TOTALS})
    assert codes(log) == [("wrong_score", log.line)]


def test_r_w3_game_ended_with_a_round_open_is_wrong_score(six: LogBuilder) -> None:
    """R-W3: Game ended with a round open is wrong score."""
    six.deal()
    six.discard(six.turn)
    six.raw({"type": "game_ended", "totals": zeros(six)})
    assert codes(six) == [("wrong_score", six.line)]
    assert [f.round for f in errors(six)] == [1]  # the round left open is the one named


def test_r_w3_the_games_own_findings_belong_to_no_round() -> None:
    """Totals that disagree with the rounds, and a game ended before its planned rounds,
    are the game's, not its last round's: their ``round`` is null, and round 2 — played
    and scored by the rules — has no error (``stats --clean-only`` keeps it)."""
    short = tournament_game(2, planned=3)
    short.raw({"type": "game_ended", "totals": {**TOURNAMENT_TOTALS, "eve": 0}})
    audited = run(short)
    assert [(f.code.value, f.line, f.round) for f in audited.findings] == [
        ("wrong_score", short.line, None),
        ("wrong_score", short.line, None),
    ]
    assert audited.errors_by_round[2] == 0 and audited.errors_by_round[None] == 2


def test_r_w3_a_round_over_whose_round_ended_is_missing_still_counts() -> None:
    """R-E1, R-W3, event-log.md "Audit report": round 1 reached the gold, and its
    round_ended line is missing. One finding, where round 2 starts; round 1 counts with
    the outcome the rules give, so the game played both its planned rounds and the
    right totals are right (before: "ended after 1 of its 2 planned rounds", and every
    total of round 1 judged wrong)."""
    log = LogBuilder(players=6, ruleset="tournament", rounds=2)
    deal_path(log, [card for _, card in TOUR_ROW], "bob")
    gold_path(log, TOUR_ROW)
    log.deal(start="cem")
    missing = log.line
    log.pass_out().end_round()
    log.raw({"type": "game_ended", "totals": TOURNAMENT_TOTALS})
    audit = run(log)
    assert codes(log) == [("malformed", missing)]
    assert [r["round"] for r in audit.report().rounds] == [1, 2]
    assert audit.report().rounds[0]["scores"] == zeros(log, ann=3, bob=2, cem=2)


def test_r_w3_a_round_not_over_whose_round_ended_is_missing_counts_for_nothing(six: LogBuilder) -> None:
    """R-E2: a round cut off mid-play (cards still in hands) has no outcome to count:
    the next round_started is malformed, and the game is short of a round."""
    six.deal().discard(six.turn).deal(round=2)
    six.pass_out().end_round()
    six.raw({"type": "game_ended", "totals": zeros(six)})
    assert [r["round"] for r in run(six).report().rounds] == [2]
    assert ("wrong_score", six.line) in codes(six)


def test_r_w3_a_base_round_over_whose_round_ended_is_missing_leaves_the_diggers_nuggets_unknown() -> None:
    """R-W2: the diggers pick their nuggets, which only a round_ended says: game_ended
    with round 1 over and unclaimed counts the round, the winners' scores unknown."""
    log, connector = base_gold(3, "ann", rounds=1)
    log.raw({"type": "game_ended", "totals": {"ann": 6, "bob": 3, "cem": 0}})
    audit = run(log)
    assert codes(log) == [("wrong_score", log.line)]  # game_ended while round 1 has no round_ended
    (outcome,) = audit.report().rounds
    assert outcome["winner"] == "gold_diggers" and outcome["connector"] == connector
    assert outcome["scores"][connector] is None


def test_r_w3_report_rounds_hold_the_rules_outcome_whatever_the_log_claimed() -> None:
    """R-W3: Report rounds hold the rules outcome whatever the log claimed."""
    log, _ = tournament_gold("bob")
    log.end_round(winner="saboteurs", connector=None, scores=zeros(log, eve=3, fay=3))
    audit = run(log)
    assert {f.code.value for f in audit.findings if f.severity == "error"} == {"wrong_score"}
    assert audit.report().rounds == [
        {
            "round": 1,
            "winner": "gold_diggers",
            "connector": "ann",
            "scores": zeros(log, ann=3, bob=2, cem=2),
            "stars": ["ann"],
        }
    ]
    assert audit.report().status == "violations"
