"""Setup of a round (rules.md R-S1..R-S7): roles, board, deck, hands, gold, start, setup card.

Each rule has a legal deal (no error findings) and illegal ones (exact code and line).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from events.builder import LogBuilder
from tests.conftest import codes, errors, run

DEAL = 2  # the line of the first round_started

BASE_ROWS = {3: (1, 3), 4: (1, 4), 5: (2, 4), 6: (2, 5), 7: (3, 5), 8: (3, 6), 9: (3, 7), 10: (4, 7)}
"""R-S1 base: saboteurs / gold diggers in the role deck (one card more than players)."""
TOURNAMENT_ROWS = {5: (1, 3, 1), 6: (2, 3, 1), 7: (2, 3, 2), 8: (2, 6, 0), 9: (3, 6, 0), 10: (3, 7, 0)}
"""R-S1 tournament: saboteurs / gold diggers / selfish dwarfs, 10 players by the ruling."""
HAND_SIZES = {3: 6, 4: 6, 5: 6, 6: 5, 7: 5, 8: 4, 9: 4, 10: 4}
"""R-S4: cards per hand by table size."""


def roles_of(log: LogBuilder, saboteurs: int, diggers: int, dwarfs: int = 0) -> dict[str, str]:
    """Roles for the seats in order: gold diggers, selfish dwarfs, then saboteurs."""
    row = ["gold_digger"] * diggers + ["selfish_dwarf"] * dwarfs + ["saboteur"] * saboteurs
    assert len(row) == len(log.players)
    return dict(zip(log.players, row, strict=True))


def deal_line(players: int, ruleset: str, **deal: Any) -> dict[str, Any]:
    """A legal ``round_started`` for round 1 as a dict, to be altered and written raw."""
    probe = LogBuilder(players=players, ruleset=ruleset)
    probe.deal(**deal)
    line: dict[str, Any] = json.loads(probe.lines[-1])
    return line


def resize_hands(line: dict[str, Any], size: int) -> None:
    """Give every hand ``size`` cards, moving cards between hands and pile (the deck stays exact)."""
    for hand in line["hands"].values():
        while len(hand) > size:
            line["draw_pile"].append(hand.pop())
        while len(hand) < size:
            hand.append(line["draw_pile"].pop())


def last_player(log: LogBuilder) -> str:
    """The player of the last line written."""
    player: str = json.loads(log.lines[-1])["player"]
    return player


def left_of(log: LogBuilder, player: str) -> str:
    return log.players[(log.players.index(player) + 1) % len(log.players)]


# -- R-S1 roles ---------------------------------------------------------------------


@pytest.mark.parametrize("n", sorted(BASE_ROWS))
def test_r_s1_base_role_deck_with_gold_digger_set_aside(n: int) -> None:
    """R-S1 base: dealt roles plus the set-aside gold digger are the row of the table size."""
    saboteurs, diggers = BASE_ROWS[n]
    log = LogBuilder(players=n, ruleset="base")
    log.deal(roles=roles_of(log, saboteurs, diggers - 1), set_aside="gold_digger")
    assert codes(log) == []


@pytest.mark.parametrize("n", sorted(BASE_ROWS))
def test_r_s1_base_role_deck_with_saboteur_set_aside(n: int) -> None:
    """R-S1 base: the card set aside may be a saboteur (with 3-4 players: none in play)."""
    saboteurs, diggers = BASE_ROWS[n]
    log = LogBuilder(players=n, ruleset="base")
    log.deal(roles=roles_of(log, saboteurs - 1, diggers), set_aside="saboteur")
    assert codes(log) == []


@pytest.mark.parametrize("n", sorted(BASE_ROWS))
def test_r_s1_base_one_saboteur_too_many_is_bad_roles(n: int) -> None:
    """R-S1 base: a gold digger dealt as a saboteur breaks the row."""
    saboteurs, diggers = BASE_ROWS[n]
    log = LogBuilder(players=n, ruleset="base")
    log.deal(roles=roles_of(log, saboteurs + 1, diggers - 2), set_aside="gold_digger")
    assert codes(log) == [("bad_roles", DEAL)]


@pytest.mark.parametrize("n", sorted(BASE_ROWS))
def test_r_s1_base_one_saboteur_too_few_is_bad_roles(n: int) -> None:
    """R-S1 base: a saboteur dealt as a gold digger breaks the row."""
    saboteurs, diggers = BASE_ROWS[n]
    log = LogBuilder(players=n, ruleset="base")
    log.deal(roles=roles_of(log, saboteurs - 1, diggers), set_aside="gold_digger")
    assert codes(log) == [("bad_roles", DEAL)]


@pytest.mark.parametrize("n", sorted(TOURNAMENT_ROWS))
def test_r_s1_tournament_role_row(n: int) -> None:
    """R-S1 tournament: exactly as many role cards as players, in the row of the table size."""
    log = LogBuilder(players=n, ruleset="tournament")
    log.deal(roles=roles_of(log, *TOURNAMENT_ROWS[n]), set_aside=None)
    assert codes(log) == []


@pytest.mark.parametrize("n", sorted(TOURNAMENT_ROWS))
def test_r_s1_tournament_gold_digger_dealt_as_saboteur_is_bad_roles(n: int) -> None:
    """R-S1 tournament: one saboteur more than the row."""
    saboteurs, diggers, dwarfs = TOURNAMENT_ROWS[n]
    log = LogBuilder(players=n, ruleset="tournament")
    log.deal(roles=roles_of(log, saboteurs + 1, diggers - 1, dwarfs))
    assert codes(log) == [("bad_roles", DEAL)]


@pytest.mark.parametrize("n", sorted(TOURNAMENT_ROWS))
def test_r_s1_tournament_gold_digger_dealt_as_selfish_dwarf_is_bad_roles(n: int) -> None:
    """R-S1 tournament: one selfish dwarf more than the row."""
    saboteurs, diggers, dwarfs = TOURNAMENT_ROWS[n]
    log = LogBuilder(players=n, ruleset="tournament")
    log.deal(roles=roles_of(log, saboteurs, diggers - 1, dwarfs + 1))
    assert codes(log) == [("bad_roles", DEAL)]


@pytest.mark.parametrize("row", [(4, 6, 0), (3, 6, 1), (2, 8, 0)])
def test_r_s1_tournament_ten_players_ruling_is_3_7_0(row: tuple[int, int, int]) -> None:
    """R-S1 ruling: 10 tournament players are 3 saboteurs, 7 gold diggers, no selfish dwarf."""
    log = LogBuilder(players=10, ruleset="tournament")
    log.deal(roles=roles_of(log, *row))
    assert codes(log) == [("bad_roles", DEAL)]


def test_r_s1_options_roles_overrides_the_row() -> None:
    """R-S1: options.roles replaces the row for the game's table size."""
    options = {"roles": {"saboteur": 1, "gold_digger": 4, "selfish_dwarf": 1}}
    log = LogBuilder(players=6, ruleset="tournament", options=options)
    log.deal(roles=roles_of(log, 1, 4, 1))
    assert codes(log) == []


def test_r_s1_options_roles_makes_the_standard_row_bad() -> None:
    """R-S1: with options.roles the table's usual row (6 players: 2/3/1) no longer fits."""
    options = {"roles": {"saboteur": 1, "gold_digger": 4, "selfish_dwarf": 1}}
    log = LogBuilder(players=6, ruleset="tournament", options=options)
    log.deal(roles=roles_of(log, 2, 3, 1))
    assert codes(log) == [("bad_roles", DEAL)]


def test_r_s1_options_roles_for_ten_players() -> None:
    """R-S1: options.roles can give 10 tournament players another row than the ruling's."""
    options = {"roles": {"saboteur": 4, "gold_digger": 6, "selfish_dwarf": 0}}
    log = LogBuilder(players=10, ruleset="tournament", options=options)
    log.deal(roles=roles_of(log, 4, 6, 0))
    assert codes(log) == []


def test_r_s1_options_roles_is_malformed_in_base() -> None:
    """R-S1 / event-log.md: options.roles is a tournament option; in base the header is unreadable."""
    options = {"roles": {"saboteur": 1, "gold_digger": 3, "selfish_dwarf": 0}}
    log = LogBuilder(players=4, ruleset="base", options=options)
    audit = run(log)
    assert audit.status == "unreadable"
    assert [(f.code.value, f.line) for f in audit.findings] == [("malformed", 1)]


def test_r_s1_tournament_sets_no_role_aside(six: LogBuilder) -> None:
    """R-S1 tournament: a set-aside role is bad_roles (the dealt roles are fine)."""
    six.deal(set_aside="gold_digger")
    assert codes(six) == [("bad_roles", DEAL)]
    assert errors(six)[0].rule == "R-S1"


def test_r_s1_base_set_aside_null_is_bad_roles() -> None:
    """R-S1 base: one role card is always set aside; null is bad_roles, once (the deck is
    then also a card short: a second bad_roles at the same line, it was, counting
    without the card it named)."""
    log = LogBuilder(players=4, ruleset="base")
    log.deal(set_aside=None)
    assert codes(log) == [("bad_roles", DEAL)]  # one deal, one finding


def test_r_s1_base_selfish_dwarf_dealt_is_bad_roles() -> None:
    """R-S1 base: the base game has no selfish dwarf."""
    log = LogBuilder(players=4, ruleset="base")
    log.deal(roles={"ann": "gold_digger", "bob": "gold_digger", "cem": "selfish_dwarf", "dia": "saboteur"})
    assert codes(log) == [("bad_roles", DEAL)]  # one deal, one finding


def test_r_s1_base_selfish_dwarf_set_aside_is_bad_roles() -> None:
    """R-S1 base: not even set aside."""
    log = LogBuilder(players=4, ruleset="base")
    log.deal(roles=roles_of(log, 1, 3), set_aside="selfish_dwarf")
    assert codes(log) == [("bad_roles", DEAL)]  # one deal, one finding


def test_r_s1_roles_are_checked_every_round() -> None:
    """R-S1: a later round's deal is checked too (round 2 with a wrong row)."""
    log = LogBuilder(players=5, ruleset="tournament")
    log.deal().pass_out().end_round()
    log.deal(roles=roles_of(log, 2, 3, 0))
    assert codes(log) == [("bad_roles", log.line)]


# -- R-S2 board ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "goals",
    [
        {"top": "goal_gold", "middle": "goal_stone_ne", "bottom": "goal_stone_nw"},
        {"top": "goal_stone_nw", "middle": "goal_stone_ne", "bottom": "goal_gold"},
    ],
)
def test_r_s2_goals_one_gold_two_stones_in_any_order(goals: dict[str, str]) -> None:
    """R-S2: the three goals are one gold and two stones, shuffled."""
    log = LogBuilder(players=3, ruleset="base")
    log.deal(goals=goals)
    assert codes(log) == []


@pytest.mark.parametrize(
    "goals",
    [
        {"top": "goal_gold", "middle": "goal_gold", "bottom": "goal_stone_nw"},
        {"top": "goal_stone_ne", "middle": "goal_stone_nw", "bottom": "goal_stone_ne"},
        {"top": "goal_gold", "middle": "goal_gold", "bottom": "goal_gold"},
        {"top": "goal_stone_ne", "middle": "goal_gold", "bottom": "goal_stone_ne"},
    ],
)
def test_r_s2_goals_not_one_gold_two_stones_is_bad_deck(goals: dict[str, str]) -> None:
    """R-S2 / event-log.md: goal cards that are not one gold and two stones are bad_deck
    (the box has one goal_stone_ne and one goal_stone_nw)."""
    log = LogBuilder(players=3, ruleset="base")
    log.deal(goals=goals)
    assert codes(log) == [("bad_deck", DEAL)]


def test_r_s2_start_and_goal_cells_are_taken() -> None:
    """R-S2: the start card lies at (0,0) and the goals at (8,-2), (8,0), (8,2): no tunnel card goes there."""
    log = LogBuilder(players=3, ruleset="base")
    log.deal(hands={"ann": ["NESW"], "bob": ["NESW"], "cem": ["NESW"]})
    log.path("ann", "NESW", 0, 0)
    first = log.line - 1
    log.path("bob", "NESW", 8, 2)
    second = log.line - 1
    log.path("cem", "NESW", 1, 0)
    assert codes(log) == [("illegal_placement", first), ("illegal_placement", second)]


# -- R-S3 deck ----------------------------------------------------------------------


@pytest.mark.parametrize(("players", "ruleset"), [(3, "base"), (10, "base"), (5, "tournament"), (10, "tournament")])
def test_r_s3_whole_deck_dealt(players: int, ruleset: str) -> None:
    """R-S3: hands + pile (+ setup card) are the 67 cards of cards.md."""
    line = deal_line(players, ruleset)
    total = len(line["draw_pile"]) + sum(len(h) for h in line["hands"].values())
    total += 1 if line["setup_card"] else 0
    assert total == 67
    log = LogBuilder(players=players, ruleset=ruleset)
    log.raw(line)
    assert codes(log) == []


def test_r_s3_extra_card_is_bad_deck() -> None:
    """R-S3: a seventh map card."""
    log = LogBuilder(players=3, ruleset="base")
    log.deal(pile=["map"] * 7)
    assert codes(log) == [("bad_deck", DEAL)]


def test_r_s3_missing_card_is_bad_deck() -> None:
    """R-S3: the bottom card of the pile left out."""
    line = deal_line(3, "base")
    line["draw_pile"].pop()
    log = LogBuilder(players=3, ruleset="base").raw(line)
    assert codes(log) == [("bad_deck", DEAL)]
    assert errors(log)[0].rule == "R-S3"


def test_r_s3_one_card_swapped_for_another_is_bad_deck() -> None:
    """R-S3: the right number of cards, but one NS where an EW should be."""
    line = deal_line(5, "tournament", pile=["EW"])
    assert line["draw_pile"][0] == "EW"
    line["draw_pile"][0] = "NS"
    log = LogBuilder(players=5, ruleset="tournament").raw(line)
    assert codes(log) == [("bad_deck", DEAL)]


def test_r_s3_setup_card_counts_in_the_deck() -> None:
    """R-S3: in tournament the setup card is one of the deck's cards; the pile holding
    it as well is one card too many."""
    line = deal_line(5, "tournament")
    line["draw_pile"].append(line["setup_card"]["card"])
    log = LogBuilder(players=5, ruleset="tournament").raw(line)
    assert codes(log) == [("bad_deck", DEAL)]


def test_r_s3_deck_checked_in_later_rounds() -> None:
    """R-S3: every round is dealt from the whole deck again."""
    log = LogBuilder(players=3, ruleset="base", options={"next_round_starter": "any"})
    log.deal().pass_out().end_round()
    log.deal(pile=["rockfall"] * 4)
    assert codes(log) == [("bad_deck", log.line)]


# -- R-S4 hands ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "ruleset"), [(n, "base") for n in range(3, 11)] + [(n, "tournament") for n in range(5, 11)]
)
def test_r_s4_hand_size_by_table_size(n: int, ruleset: str) -> None:
    """R-S4: 6 cards each with 3-5 players, 5 with 6-7, 4 with 8-10."""
    line = deal_line(n, ruleset)
    resize_hands(line, HAND_SIZES[n])
    log = LogBuilder(players=n, ruleset=ruleset).raw(line)
    assert codes(log) == []


@pytest.mark.parametrize("delta", [-1, 1])
@pytest.mark.parametrize(
    ("n", "ruleset"), [(n, "base") for n in range(3, 11)] + [(n, "tournament") for n in range(5, 11)]
)
def test_r_s4_every_hand_one_card_off_is_bad_hand_size(n: int, ruleset: str, delta: int) -> None:
    """R-S4: hands one card bigger or smaller than the table size gives: one finding per hand."""
    line = deal_line(n, ruleset)
    resize_hands(line, HAND_SIZES[n] + delta)
    log = LogBuilder(players=n, ruleset=ruleset).raw(line)
    assert codes(log) == [("bad_hand_size", DEAL)] * n
    assert sorted(f.player or "" for f in errors(log)) == sorted(log.players)


def test_r_s4_one_short_hand_names_the_player() -> None:
    """R-S4: one hand of 5 at a table of 3 (the card lies at the bottom of the pile)."""
    line = deal_line(3, "base")
    line["draw_pile"].append(line["hands"]["bob"].pop())
    log = LogBuilder(players=3, ruleset="base").raw(line)
    assert codes(log) == [("bad_hand_size", DEAL)]
    assert errors(log)[0].player == "bob"
    assert errors(log)[0].rule == "R-S4"


def test_r_s4_hand_of_the_next_size_class_is_bad(six: LogBuilder) -> None:
    """R-S4: at a table of six each hand has 5 cards, not 6 as with five players."""
    line = deal_line(6, "tournament")
    resize_hands(line, 6)
    six.raw(line)
    assert codes(six) == [("bad_hand_size", DEAL)] * 6


# -- R-S5 gold ----------------------------------------------------------------------


def test_r_s5_base_round_lists_gold_cards() -> None:
    """R-S5 base: the gold nugget cards taken are listed in round_ended."""
    log = LogBuilder(players=3, ruleset="base")
    log.deal().pass_out().end_round()
    ended = json.loads(log.lines[-1])
    assert ended["gold_cards"] == {"ann": [], "bob": [], "cem": [3, 1]}
    assert codes(log) == []


def test_r_s5_base_round_without_gold_cards_is_malformed() -> None:
    """R-S5 base: round_ended must say which gold cards were taken."""
    log = LogBuilder(players=3, ruleset="base")
    log.deal().pass_out()
    outcome = log.outcome()
    del outcome["gold_cards"]
    log.raw({"type": "round_ended", "round": 1, **outcome})
    assert codes(log) == [("malformed", log.line)]


def test_r_s5_tournament_has_no_gold_cards(six: LogBuilder) -> None:
    """R-S5 tournament: no gold cards; a gold_cards field is malformed."""
    six.deal().pass_out()
    six.end_round(gold_cards={p: [] for p in six.players})
    assert codes(six) == [("malformed", six.line)]


def test_r_s5_tournament_round_without_gold_cards(six: LogBuilder) -> None:
    """R-S5 tournament: points only, on the score sheet."""
    six.deal().pass_out().end_round()
    assert "gold_cards" not in json.loads(six.lines[-1])
    assert codes(six) == []


# -- R-S6 starting player -----------------------------------------------------------


@pytest.mark.parametrize("start", ["ann", "bob", "cem"])
def test_r_s6_base_round_one_any_player_starts(start: str) -> None:
    """R-S6 base: round 1 is started by any player."""
    log = LogBuilder(players=3, ruleset="base")
    log.deal(start=start)
    log.discard(start)
    assert codes(log) == []


def finish_with_a_discard(log: LogBuilder) -> str:
    """Play a 3-player base round out: cem lays the only tunnel card, then all discard;
    the player of the last card (the starter ann: she drew the last card of the pile)."""
    log.deal(start="ann", hands={"cem": ["EW"]})
    log.discard("ann").discard("bob")
    log.path("cem", "EW", 1, 0)
    log.pass_out()
    last = last_player(log)
    assert json.loads(log.lines[-1])["type"] == "discard"
    log.end_round()
    return last


def finish_with_a_tunnel(log: LogBuilder) -> str:
    """Play a 3-player base round out so that its last card is bob's Ex laid at (-1,0)
    (bob starts, so he draws the last card of the pile and plays last)."""
    log.deal(start="bob", hands={"bob": ["Ex"]})
    rs = log.round
    while rs.pile or sum(len(h) for h in rs.hands.values()) > 1:
        player = log.turn
        log.discard(player, next(c for c in log.hand(player) if c != "Ex"))
    assert log.turn == "bob"
    assert log.hand("bob") == ["Ex"]
    log.path("bob", "Ex", -1, 0)
    log.end_round()
    return "bob"


def test_r_s6_base_round_two_left_of_last_discard() -> None:
    """R-S6 base: round 2 starts left of whoever played the last card (a discard here),
    not left of whoever laid the last tunnel card."""
    log = LogBuilder(players=3, ruleset="base")
    last = finish_with_a_discard(log)
    assert (last, left_of(log, last)) == ("ann", "bob")  # not cem (last tunnel card) nor ann (left of it)
    log.deal(start="bob")
    assert codes(log) == []


@pytest.mark.parametrize("wrong", [1, 2])
def test_r_s6_base_round_two_wrong_start_after_discard(wrong: int) -> None:
    """R-S6 base: any other starter of round 2 is wrong_start_player, at the round_started line."""
    log = LogBuilder(players=3, ruleset="base")
    last = finish_with_a_discard(log)
    start = log.players[(log.players.index(last) + 1 + wrong) % 3]
    assert start != left_of(log, last)
    log.deal(start=start)
    assert codes(log) == [("wrong_start_player", log.line)]


def test_r_s6_base_round_two_left_of_last_tunnel_card() -> None:
    """R-S6 base: when the last card of the round is laid, its player's left neighbour starts."""
    log = LogBuilder(players=3, ruleset="base")
    finish_with_a_tunnel(log)
    log.deal(start="cem")
    assert codes(log) == []


@pytest.mark.parametrize("start", ["ann", "bob"])
def test_r_s6_base_round_two_wrong_start_after_tunnel(start: str) -> None:
    """R-S6 base: bob laid the last card, so neither ann nor bob starts round 2."""
    log = LogBuilder(players=3, ruleset="base")
    finish_with_a_tunnel(log)
    log.deal(start=start)
    assert codes(log) == [("wrong_start_player", log.line)]
    assert errors(log)[0].rule == "R-S6"


def test_r_s6_base_round_three_left_of_last_card() -> None:
    """R-S6 base: each later round, not only the second."""
    log = LogBuilder(players=3, ruleset="base")
    last = finish_with_a_discard(log)
    log.deal(start=left_of(log, last)).pass_out()
    last = last_player(log)
    log.end_round()
    log.deal(start=last)
    assert codes(log) == [("wrong_start_player", log.line)]


@pytest.mark.parametrize("right", [True, False], ids=["left-of-its-last-card", "left-of-round-1s"])
def test_r_s6_after_a_round_left_unfinished_the_next_starts_left_of_its_last_card(right: bool) -> None:
    """R-S6 base: a round broken off without its round_ended (malformed where the next
    round starts) is still the previous round: its last card names the next starter.
    The last card of the round before it was used."""
    log = LogBuilder(players=3, ruleset="base")
    first = finish_with_a_discard(log)
    log.deal(start=left_of(log, first))
    log.discard(log.turn)
    broken_off = log.turn
    log.discard(broken_off)
    start = left_of(log, broken_off) if right else left_of(log, first)
    assert left_of(log, broken_off) != left_of(log, first)
    unfinished = [*log.lines, *LogBuilder(players=3, ruleset="base").deal(start=start).lines[1:]]
    third = json.loads(unfinished[-1]) | {"round": 3}
    unfinished[-1] = json.dumps(third)
    expected = [("malformed", len(unfinished))] + ([] if right else [("wrong_start_player", len(unfinished))])
    assert codes(unfinished) == expected


@pytest.mark.parametrize("start", ["ann", "bob", "cem"])
def test_r_s6_next_round_starter_any_turns_the_check_off(start: str) -> None:
    """R-S6 ruling: options.next_round_starter "any" lets anyone start a later base round."""
    log = LogBuilder(players=3, ruleset="base", options={"next_round_starter": "any"})
    finish_with_a_discard(log)
    log.deal(start=start)
    assert codes(log) == []


@pytest.mark.parametrize("start", ["ann", "cem", "fay"])
def test_r_s6_tournament_any_player_starts_every_round(six: LogBuilder, start: str) -> None:
    """R-S6 tournament: the 3-nugget draw picks the starter: any player, every round."""
    six.deal(start="bob").pass_out().end_round()
    six.deal(start=start)
    six.discard(start)
    assert codes(six) == []


# -- R-S7 setup card ----------------------------------------------------------------


@pytest.mark.parametrize("setup", [("NESW", False), ("NE", True), ("NSx", False)])
def test_r_s7_setup_card_is_the_first_tunnel_card_turned_over(setup: tuple[str, bool]) -> None:
    """R-S7: a tunnel card, as printed or turned, after action cards turned over."""
    log = LogBuilder(players=5, ruleset="tournament")
    log.deal(setup=setup, turned_over=["map", "break_lamp", setup[0]])
    assert codes(log) == []


def test_r_s7_setup_card_missing_in_tournament(six: LogBuilder) -> None:
    """R-S7: a tournament round lays a setup card; null is bad_setup_card."""
    six.deal(setup=None)
    assert codes(six) == [("bad_setup_card", DEAL)]
    assert errors(six)[0].rule == "R-S7"


def test_r_s7_setup_card_present_in_base() -> None:
    """R-S7: the base game has no setup card."""
    log = LogBuilder(players=3, ruleset="base")
    log.deal(setup=("NESW", False))
    assert codes(log) == [("bad_setup_card", DEAL)]


@pytest.mark.parametrize("turned_over", [["NS", "NESW"], ["map", "EW", "rockfall", "NESW"], ["NESW", "NESW"]])
def test_r_s7_not_the_first_tunnel_card_turned_over(six: LogBuilder, turned_over: list[str]) -> None:
    """R-S7: turning over stops at the first tunnel card; an earlier one means the wrong setup card."""
    six.deal(setup=("NESW", False), turned_over=turned_over)
    assert codes(six) == [("bad_setup_card", DEAL)]


@pytest.mark.parametrize("turned_over", [["NESW", "map"], ["map"], [], ["map", "NS"]])
def test_r_s7_turned_over_must_end_with_the_setup_card(six: LogBuilder, turned_over: list[str]) -> None:
    """R-S7: turned_over lists every card turned over, the setup card last."""
    line = deal_line(6, "tournament", setup=("NESW", False))
    line["setup_card"]["turned_over"] = turned_over
    six.raw(line)
    assert codes(six) == [("bad_setup_card", DEAL)]


@pytest.mark.parametrize(
    ("turned_over", "legal"),
    [(["map"] * 6 + ["NESW"], True), (["map"] * 7 + ["NESW"], False), (["rockfall"] * 4 + ["NESW"], False)],
    ids=["six-maps", "seven-maps", "four-rockfalls"],
)
def test_r_s7_no_more_cards_turned_over_than_the_deck_holds(
    six: LogBuilder, turned_over: list[str], legal: bool
) -> None:
    """R-S3, R-S7: the cards turned over come from the deck (cards.md: 6 maps, 3 rockfalls)."""
    six.deal(setup=("NESW", False), turned_over=turned_over)
    assert codes(six) == ([] if legal else [("bad_setup_card", DEAL)])


def test_r_s7_setup_card_must_be_a_tunnel_card(six: LogBuilder) -> None:
    """R-S7: action cards turned over go back into the deck; one cannot be the setup card."""
    six.deal(setup=("map", False), turned_over=["map"])
    assert codes(six) == [("bad_setup_card", DEAL)]


def test_r_s7_setup_card_lies_at_4_0(six: LogBuilder) -> None:
    """R-S7 ruling: the setup card lies at (4,0), so that cell is taken."""
    six.deal(hands={"ann": ["NESW"]})
    six.path("ann", "NESW", 4, 0)
    assert codes(six) == [("illegal_placement", six.line - 1)]


def test_r_s7_setup_card_can_be_removed_by_rockfall(six: LogBuilder) -> None:
    """R-S7: the setup card is a tunnel card of the maze; a rockfall may remove it."""
    six.deal(hands={"ann": ["rockfall"], "bob": ["NESW"]})
    six.rockfall("ann", 4, 0)
    six.path("bob", "NESW", 1, 0)
    assert codes(six) == []


def test_r_s7_setup_card_checked_every_round(six: LogBuilder) -> None:
    """R-S7: each tournament round has its own setup card."""
    six.deal().pass_out().end_round()
    six.deal(setup=None)
    assert codes(six) == [("bad_setup_card", six.line)]
