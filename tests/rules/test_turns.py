"""A turn (rules.md R-T1..R-T5): order of play, the draw, passing, cards from the hand.

Each rule has a legal case (no error findings) and illegal ones (exact code and line).
The engine reports one finding per departure: after a missed draw the draw is taken as
done, and a card played out of turn moves the turn to its player.
"""

from __future__ import annotations

import json
from typing import Any

from events.builder import LogBuilder
from tests.conftest import codes, errors, run


def three(start: str = "ann", **deal: Any) -> LogBuilder:
    """A base game at a table of three (ann, bob, cem), round 1 dealt."""
    log = LogBuilder(players=3, ruleset="base")
    log.deal(start=start, **deal)
    return log


def empty_the_pile(log: LogBuilder) -> LogBuilder:
    """Everyone passes in turn until the draw pile is empty."""
    while log.round.pile:
        log.discard(log.turn)
    return log


# -- R-T1 order of play -------------------------------------------------------------


def test_r_t1_clockwise_from_the_starting_player() -> None:
    """R-T1: play goes in seating order from the starting player, wrapping round."""
    log = three(start="bob")
    for player in ["bob", "cem", "ann", "bob", "cem"]:
        log.discard(player)
    assert codes(log) == []


def test_r_t1_clockwise_at_a_table_of_six(six: LogBuilder) -> None:
    """R-T1: a tournament table of six, started by eve."""
    six.deal(start="eve")
    for player in ["eve", "fay", "ann", "bob", "cem", "dia", "eve"]:
        six.discard(player)
    assert codes(six) == []


def test_r_t1_first_card_not_by_the_starting_player_is_out_of_turn() -> None:
    """R-T1: ann starts; bob plays first."""
    log = three(start="ann")
    log.discard("bob")
    assert codes(log) == [("out_of_turn", 3)]
    assert errors(log)[0].rule == "R-T1"


def test_r_t1_out_of_turn_resyncs_to_the_player_who_played() -> None:
    """R-T1: after bob's card out of turn, the turn goes on from bob (one finding, no cascade)."""
    log = three(start="ann")
    log.discard("bob")
    bad = log.line - 1
    log.discard("cem").discard("ann").discard("bob")
    assert codes(log) == [("out_of_turn", bad)]


def test_r_t1_skipping_a_player_is_out_of_turn() -> None:
    """R-T1: after ann, cem plays in bob's turn."""
    log = three(start="ann")
    log.discard("ann")
    log.discard("cem")
    bad = log.line - 1
    log.discard("ann")
    assert codes(log) == [("out_of_turn", bad)]


def test_r_t1_playing_again_after_the_draw_is_out_of_turn() -> None:
    """R-T1 / event-log.md: a card played by the player whose turn ended with a draw is out_of_turn
    (not extra_play: the draw closed the turn)."""
    log = three(start="ann")
    log.discard("ann")
    log.discard("ann")
    bad = log.line - 1
    log.discard("bob")
    assert codes(log) == [("out_of_turn", bad)]


def test_r_t1_draw_by_the_next_player_in_their_turn_before_a_card_is_not_out_of_turn() -> None:
    """R-T1: bob's own turn; drawing before his card is a wrong_draw (R-T2), not out_of_turn."""
    log = three(start="ann")
    log.discard("ann")
    log.draw("bob")
    assert codes(log) == [("wrong_draw", log.line)]


def test_r_t1_draw_before_the_first_card_by_another_player_is_out_of_turn() -> None:
    """R-T1: ann starts; bob draws before anyone has played."""
    log = three(start="ann")
    log.draw("bob")
    bad = log.line
    log.discard("ann").discard("bob")
    assert codes(log) == [("out_of_turn", bad)]


def test_r_t1_draw_by_another_player_is_out_of_turn() -> None:
    """R-T1: ann's turn is over; cem draws in bob's turn."""
    log = three(start="ann")
    log.discard("ann")
    log.draw("cem")
    bad = log.line
    log.discard("bob").discard("cem")
    assert codes(log) == [("out_of_turn", bad)]


def test_r_t1_draw_by_another_player_while_the_draw_is_due_is_out_of_turn() -> None:
    """R-T1: ann played and is to draw; bob draws instead, then ann draws."""
    log = three(start="ann")
    log.discard("ann", draw=False)
    log.draw("bob")
    bad = log.line
    log.draw("ann")
    log.discard("bob")
    assert codes(log) == [("out_of_turn", bad)]


def test_r_t2_a_draw_missed_where_another_player_drew_is_reported_at_that_draw() -> None:
    """R-T2: ann played and is to draw; bob draws instead, then plays. ann's draw never
    comes: it is missed at the line that stood where it was due, bob's draw (event-log.md),
    not at bob's card after it."""
    log = three(start="ann")
    log.discard("ann", draw=False)
    log.draw("bob")
    stood = log.line
    log.discard("bob", draw=False)
    assert codes(log) == [("out_of_turn", stood), ("missed_draw", stood)]


def test_r_t2_a_draw_missed_where_another_player_drew_at_the_round_s_end() -> None:
    """The same when the round ends there: reported at bob's draw."""
    log = three(start="ann")
    log.discard("ann", draw=False)
    log.draw("bob")
    stood = log.line
    log.raw({"type": "round_ended", "round": 1, "winner": "saboteurs", "connector": None, "scores": {}})
    found = [(code, line) for code, line in codes(log) if code in ("out_of_turn", "missed_draw")]
    assert found == [("out_of_turn", stood), ("missed_draw", stood)]


def test_r_t1_out_of_turn_in_a_later_round() -> None:
    """R-T1: the starting player of round 2 plays first there too."""
    log = LogBuilder(players=3, ruleset="base", options={"next_round_starter": "any"})
    log.deal(start="ann").pass_out().end_round()
    log.deal(start="cem")
    log.discard("ann")
    assert codes(log) == [("out_of_turn", log.line - 1)]


# -- R-T2 the draw ------------------------------------------------------------------


def test_r_t2_draw_the_top_card_after_the_card() -> None:
    """R-T2: each turn is one card, then the top card of the pile."""
    log = three(pile=["NS", "map", "EW"])
    log.discard("ann").discard("bob").discard("cem")
    drawn = [json.loads(line)["card"] for line in log.lines if json.loads(line)["type"] == "draw"]
    assert drawn == ["NS", "map", "EW"]
    assert codes(log) == []


def test_r_t2_no_draw_once_the_pile_is_empty() -> None:
    """R-T2: with the pile empty a turn is the card alone; the round plays out."""
    log = empty_the_pile(three())
    log.discard(log.turn, draw=False)
    log.discard(log.turn, draw=False)
    log.pass_out().end_round()
    assert codes(log) == []


def test_r_t2_missed_draw_at_the_next_card() -> None:
    """R-T2: ann does not draw; the finding is at bob's card, which stands where the draw was due."""
    log = three(start="ann")
    log.discard("ann", draw=False)
    log.discard("bob")
    bad = log.line - 1
    log.discard("cem")
    assert codes(log) == [("missed_draw", bad)]
    assert errors(log)[0].player == "ann"
    assert errors(log)[0].rule == "R-T2"


def test_r_t2_a_missed_draw_implies_no_draw() -> None:
    """R-T2 / event-log.md ("nothing is implied between" the lines): the card ann did not
    draw stays on the pile, so bob's draw is that card, and ann never holds it."""
    log = three(start="ann", pile=["NS", "EW"])
    log.discard("ann", draw=False)
    log.discard("bob")  # bob draws the card ann left on top: NS
    bad = log.line - 1
    assert json.loads(log.lines[-1])["card"] == "NS"
    log.discard("cem")
    log.discard("ann", "NS")  # and her draw
    assert codes(log) == [("missed_draw", bad), ("card_not_in_hand", log.line - 1)]
    assert [f.player for f in errors(log)] == ["ann", "ann"]


def test_r_t2_a_draw_recorded_as_if_a_missed_one_had_been_made_is_a_wrong_draw() -> None:
    """R-T2: after ann's missed draw, bob's draw of the card under hers is not the top card."""
    log = three(start="ann", pile=["NS", "EW"])
    log.discard("ann", draw=False)
    log.discard("bob", draw=False)
    log.draw("bob", "EW")
    assert codes(log) == [("missed_draw", log.line - 1), ("wrong_draw", log.line)]


def test_r_t2_missed_draw_before_an_action_card() -> None:
    """R-T2: a missing draw is reported at the line that stands where it was due, whatever the card."""
    log = three(start="ann")
    log.discard("ann", draw=False)
    log.map("bob", "top", draw=False)
    bad = log.line
    assert codes(log)[0] == ("missed_draw", bad)


def test_r_t2_missed_draw_at_round_ended() -> None:
    """R-T2, R-E2 / event-log.md: a draw missing before round_ended is reported at the round_ended line
    (the event that stands where the draw was due); the early round_ended is also wrong_score."""
    log = three(start="ann")
    log.discard("ann", draw=False)
    log.end_round()
    assert sorted(codes(log)) == [("missed_draw", log.line), ("wrong_score", log.line)]


def test_r_t2_file_ending_mid_turn_is_only_incomplete() -> None:
    """R-T2 / event-log.md: a file that stops before the draw gets only `incomplete`."""
    log = three(start="ann")
    log.discard("ann", draw=False)
    assert codes(log) == []
    assert [(f.code.value, f.line) for f in run(log).findings] == [("incomplete", 3)]


def test_r_e2_a_file_that_stops_once_every_hand_is_played_out_still_counts_the_round() -> None:
    """R-E2, event-log.md: every hand played out, the round is over; a file that stops
    there, before its round_ended, is ``incomplete`` and the round counts, scored by
    the rules, as it does when the next deal follows."""
    log = three(start="ann").pass_out()
    result = run(log)
    assert [(f.code.value, f.line) for f in result.findings] == [("incomplete", log.line)]
    assert [(o.round, o.winner) for o in result.outcomes] == [(1, log.outcome()["winner"])]
    assert log.outcome()["winner"] in ("saboteurs", "nobody")  # the gold was not reached
    assert result.rounds_over == 1


def test_r_t2_wrong_card_drawn() -> None:
    """R-T2: the drawn card is not the top of the pile."""
    log = three(start="ann", pile=["NS", "EW"])
    log.discard("ann", draw=False)
    log.draw("ann", "EW")
    assert codes(log) == [("wrong_draw", log.line)]


def test_r_t2_never_from_the_discard_pile() -> None:
    """R-T2: ann discards a map and takes it back instead of the top card (NS)."""
    log = three(start="ann", hands={"ann": ["map"]}, pile=["NS"])
    log.discard("ann", "map", draw=False)
    log.draw("ann", "map")
    assert codes(log) == [("wrong_draw", log.line)]


def test_r_t2_draw_from_an_empty_pile() -> None:
    """R-T2: no draw once the pile is empty."""
    log = empty_the_pile(three())
    player = log.turn
    log.discard(player)
    log.draw(player, "NESW")
    bad = log.line
    log.discard(log.turn)
    assert codes(log) == [("wrong_draw", bad)]


def test_r_t2_draw_before_the_card() -> None:
    """R-T2, R-T3: ann draws first, then plays (a pass: a card discarded, not just a draw);
    one finding, her discard is then her card, and bob's turn follows normally."""
    log = three(start="ann")
    log.draw("ann")
    bad = log.line
    log.discard("ann", draw=False)
    log.discard("bob")
    assert codes(log) == [("wrong_draw", bad)]


def test_r_t2_second_draw() -> None:
    """R-T2: one draw a turn."""
    log = three(start="ann", pile=["NS", "EW"])
    log.discard("ann")
    log.draw("ann", "EW")
    bad = log.line
    assert codes(log) == [("wrong_draw", bad)]


def test_r_t2_a_second_draw_still_takes_its_card_from_the_pile() -> None:
    """R-T2, event-log.md "Violations": the second draw is reported and still made, as
    recorded: the card leaves the pile, so bob's draw of the card under it is right, and
    the table's pile and hands stay what they are (dropped, every later draw of the
    round was off by one)."""
    log = three(start="ann", pile=["NS", "EW", "NESW"])
    dealt = len(log.round.pile)
    log.discard("ann")
    log.draw("ann", "EW")
    bad = log.line
    log.discard("bob", draw=False).draw("bob", "NESW")
    assert len(log.round.pile) == dealt - 3
    log.pass_out().end_round()
    assert codes(log) == [("wrong_draw", bad)]


def test_r_t1_a_draw_in_anothers_turn_still_takes_its_card_from_the_pile() -> None:
    """R-T1, event-log.md "Violations": bob draws while ann is due to draw; reported,
    and made: the card is bob's, ann's missing draw is hers, and the rest of the round
    draws from the pile as it is."""
    log = three(start="ann", pile=["NS", "EW", "NESW"])
    dealt = len(log.round.pile)
    log.discard("ann", draw=False)
    log.draw("bob", "NS")
    out_of_turn = log.line
    log.discard("bob", draw=False)
    log.draw("bob", "EW").discard("cem", draw=False).draw("cem", "NESW")
    assert len(log.round.pile) == dealt - 3
    # ann's draw is missed where it was due: at bob's draw, which stood in its place
    assert codes(log) == [("out_of_turn", out_of_turn), ("missed_draw", out_of_turn)]


def test_r_t1_extra_play_with_the_draw_due() -> None:
    """R-T1: ann plays two cards before her draw."""
    log = three(start="ann")
    log.discard("ann", draw=False)
    log.discard("ann")
    bad = log.line - 1
    log.discard("bob")
    assert codes(log) == [("extra_play", bad)]


def test_r_t1_extra_play_after_the_pile_is_empty() -> None:
    """R-T1: with no draw to close the turn, a second card by the same player is extra_play."""
    log = empty_the_pile(three())
    player = log.turn
    log.discard(player)
    log.discard(player)
    bad = log.line
    assert codes(log) == [("extra_play", bad)]


def test_r_t1_extra_play_of_a_tunnel_card() -> None:
    """R-T1: one card a turn, whatever the cards."""
    log = three(start="ann", hands={"ann": ["EW", "NESW"]})
    log.path("ann", "EW", 1, 0, draw=False)
    log.path("ann", "NESW", 2, 0)
    assert codes(log) == [("extra_play", log.line - 1)]


# -- R-T3 passing -------------------------------------------------------------------


def test_r_t3_pass_with_any_hand_card() -> None:
    """R-T3: a pass puts one hand card, tunnel or action, face down on the discard pile."""
    log = three(start="ann", hands={"ann": ["NESW"], "bob": ["map"], "cem": ["break_pick"]})
    log.discard("ann", "NESW").discard("bob", "map").discard("cem", "break_pick")
    assert codes(log) == []


def test_r_t3_pass_by_drawing_only() -> None:
    """R-T3, R-T2, R-T1: ann "passes" by drawing only (wrong_draw); bob's card then comes in ann's turn
    (out_of_turn) and his own draw after it is his turn's draw, not a second one."""
    log = three(start="ann")
    log.draw("ann")
    drew = log.line
    log.discard("bob")
    bob = log.line - 1
    assert codes(log) == [("wrong_draw", drew), ("out_of_turn", bob)]


def test_r_t3_pass_with_a_card_not_held() -> None:
    """R-T3, R-T4: the discarded card must come from the player's hand."""
    log = three(start="ann", hands={"ann": ["EW"], "bob": ["map"]})
    assert "map" not in log.hand("ann")
    log.discard("ann", "map")
    assert codes(log) == [("card_not_in_hand", log.line - 1)]


# -- R-T4 cards from the hand -------------------------------------------------------


def test_r_t4_play_a_card_drawn_earlier() -> None:
    """R-T4: a drawn card joins the hand and can be played."""
    log = three(start="ann", hands={"ann": ["map"] * 6}, pile=["EW"])
    log.discard("ann")
    assert "EW" in log.hand("ann")
    log.discard("bob").discard("cem")
    log.path("ann", "EW", 1, 0)
    assert codes(log) == []


def test_r_t4_tunnel_card_not_in_hand() -> None:
    """R-T4: ann lays an EW she does not hold (the placement itself is legal)."""
    log = three(start="ann", hands={"ann": ["map"] * 6})
    log.path("ann", "EW", 1, 0)
    assert codes(log) == [("card_not_in_hand", log.line - 1)]


def test_r_t4_action_card_not_in_hand() -> None:
    """R-T4: ann plays a map she does not hold."""
    log = three(start="ann", hands={"ann": ["EW"] * 3 + ["NS"] * 3})
    log.map("ann", "middle")
    assert codes(log) == [("card_not_in_hand", log.line - 1)]


def test_r_t4_the_same_card_played_twice() -> None:
    """R-T4: ann's only rockfall is gone once played."""
    log = three(start="ann", hands={"ann": ["rockfall", "NS", "NS", "NS", "NS", "EW"]})
    log.path("ann", "EW", 1, 0).discard("bob").discard("cem")
    log.discard("ann", "rockfall")
    log.discard("bob").discard("cem")
    log.discard("ann", "rockfall")
    assert codes(log) == [("card_not_in_hand", log.line - 1)]


def test_r_t4_card_of_another_players_hand() -> None:
    """R-T4: bob holds the break_lamp; ann cannot play it."""
    log = three(start="ann", hands={"ann": ["map"] * 6, "bob": ["break_lamp"]})
    log.tool("ann", "break_lamp", "cem")
    assert codes(log) == [("card_not_in_hand", log.line - 1)]
    assert errors(log)[0].rule == "R-T4"


def test_r_t4_a_card_played_but_not_held_still_leaves_the_hand_a_card_shorter() -> None:
    """R-T4, event-log.md "Observed recording": with the pile gone, ann discards a card
    she does not hold; one card still leaves her hand, as the table counts it. Which
    one is a guess that her later cards put right: the card guessed gone plays without
    a finding, and her hand runs out when the count says it does (kept, it was a card
    long for the rest of the round, and the full and observed logs parted ways)."""
    log = empty_the_pile(three(start="ann")).pass_until("ann")
    held = log.hand("ann")
    unheld = next(card for card in ["NESW", "map", "rockfall", "EW", "NS", "break_lamp"] if card not in held)
    log.discard("ann", unheld)
    bad = log.line
    assert len(log.hand("ann")) == len(held) - 1
    log.pass_until("ann").discard("ann", held[-1])  # the card the guess took: she held it after all
    assert len(log.hand("ann")) == len(held) - 2
    log.pass_out().end_round()
    assert codes(log) == [("card_not_in_hand", bad)]


# -- R-T5 empty hands late in the round ---------------------------------------------


def short_hand_for_cem() -> LogBuilder:
    """A base round at three where cem is dealt 5 cards (one to the bottom of the pile):
    her hand runs out one turn before the others'. The deal's one finding is bad_hand_size."""
    probe = LogBuilder(players=3, ruleset="base")
    probe.deal(start="ann")
    line = json.loads(probe.lines[-1])
    line["draw_pile"].append(line["hands"]["cem"].pop())
    log = LogBuilder(players=3, ruleset="base").raw(line)
    empty_the_pile(log)
    while log.hand("cem"):
        log.discard(log.turn)
    assert (len(log.hand("ann")), len(log.hand("bob"))) == (2, 2)
    assert log.turn == "ann"
    return log


def test_r_t5_player_with_an_empty_hand_is_skipped() -> None:
    """R-T5, R-T1: cem has no cards; ann and bob go on in turn, nothing logged for cem."""
    log = short_hand_for_cem()
    log.discard("ann").discard("bob").discard("ann").discard("bob")
    log.end_round()
    assert codes(log) == [("bad_hand_size", 2)]  # the short deal, and nothing else
    assert not [code for code, _ in codes(log) if code in ("out_of_turn", "extra_play", "missed_draw")]


def test_r_t5_next_holder_plays_not_anyone() -> None:
    """R-T5, R-T1: after cem's last card the turn goes to ann, the next player holding cards."""
    log = short_hand_for_cem()
    log.discard("bob")
    assert codes(log) == [("bad_hand_size", 2), ("out_of_turn", log.line)]


def test_r_t5_player_with_no_cards_cannot_play() -> None:
    """R-T5, R-T1, R-T4: cem, whose hand is empty, logs a card in ann's turn."""
    log = short_hand_for_cem()
    log.discard("ann").discard("bob")
    log.discard("cem", "map")
    bad = log.line
    assert sorted(codes(log)) == [("bad_hand_size", 2), ("card_not_in_hand", bad), ("out_of_turn", bad)]


def test_r_t5_skipped_after_an_extra_play() -> None:
    """R-T5, R-T1: ann's extra card leaves her hand empty first; the others play on without her."""
    log = empty_the_pile(three())
    first = log.turn
    log.discard(first)
    log.discard(first)
    bad = log.line
    while log.hand(first):
        log.discard(log.turn)
    others = [p for p in log.players if p != first]
    while any(log.hand(p) for p in others):
        assert log.turn != first
        log.discard(log.turn)
    log.end_round()
    assert codes(log) == [("extra_play", bad)]


def test_r_t5_the_last_holder_plays_turn_after_turn() -> None:
    """R-T5: ann, dealt two cards too many, is the last to hold cards; bob and cem pass
    without a line, so ann's cards come one turn after another, each legal."""
    probe = LogBuilder(players=3, ruleset="base")
    probe.deal(start="ann")
    line = json.loads(probe.lines[-1])
    line["hands"]["ann"] += [line["draw_pile"].pop(), line["draw_pile"].pop()]
    log = LogBuilder(players=3, ruleset="base").raw(line)
    empty_the_pile(log)
    while log.hand("bob") or log.hand("cem"):
        log.discard(log.turn)
    assert len(log.hand("ann")) == 2
    log.discard("ann").discard("ann")
    log.end_round()
    assert codes(log) == [("bad_hand_size", 2)]
