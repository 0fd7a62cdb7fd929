"""Checks of a turn (R-T1..R-T5): whose turn it is, one card, the draw, the hand.

Each check reads the round as it stands before the line is applied and returns the
breach, if any; the replay applies the line (and, where a line breaks a rule, decides
how the table goes on). R-T3 (a pass discards one card face down) has nothing of its
own to break in the log format: a pass is a ``discard`` line, and its card must come
from the hand (R-T4). R-T5 (an empty hand passes without a line) is the turn order
itself: :func:`next_holder` skips the players who hold no cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from events.findings import Breach, Code
from events.said import say
from events.state import RoundState


def next_holder(players: Sequence[str], after: str, hands: dict[str, list[str]]) -> str | None:
    """The next player clockwise after ``after`` who holds cards (R-T1, R-T5)."""
    at = players.index(after) + 1 if after in players else 0
    for player in (*players[at:], *players[:at]):
        if hands.get(player):
            return player
    return None


def whose_turn(players: Sequence[str], rs: RoundState) -> str | None:
    """R-T1, R-T5: who plays the next card. Before the round's first card (or after a
    draw that came before its card) the turn's own player, if they hold cards; else
    the next holder clockwise. ``None`` once nobody holds cards."""
    if not rs.played and rs.hands.get(rs.turn):
        return rs.turn
    return next_holder(players, rs.turn, rs.hands)


def check_missed_draw(rs: RoundState) -> Breach | None:
    """R-T2: the turn's player draws before the turn passes, while the pile has cards
    (judged at the line that stands where the draw was due)."""
    if rs.draw_due:
        return Breach(
            Code.MISSED_DRAW,
            "R-T2",
            say(
                "%(player)s ended the turn without drawing; the pile had %(count)s card",
                "%(player)s ended the turn without drawing; the pile had %(count)s cards",
                "count",
                player=rs.turn,
                count=len(rs.pile),
            ),
            rs.turn,
        )
    return None


def check_one_card_a_turn(players: Sequence[str], rs: RoundState, player: str) -> Breach | None:
    """R-T1: one card a turn: the player whose turn it is plays no second card, unless
    nobody else holds cards and the turn comes straight back (R-T5)."""
    if not rs.played or player != rs.turn:
        return None
    if rs.draw_due:
        return Breach(Code.EXTRA_PLAY, "R-T1", say("%(player)s played a second card in one turn", player=player))
    following = next_holder(players, rs.turn, rs.hands)
    if following == player:
        return None
    if rs.drew:
        return Breach(
            Code.OUT_OF_TURN,
            "R-T1",
            say(
                "%(player)s already ended the turn with a draw; it is %(turn)s's turn",
                player=player,
                turn=following or player,
            ),
        )
    return Breach(
        Code.EXTRA_PLAY, "R-T1", say("%(player)s played a second card in one turn (the pile is empty)", player=player)
    )


def check_turn_order(players: Sequence[str], rs: RoundState, player: str) -> Breach | None:
    """R-T1: a card is played by the player whose turn it is, clockwise."""
    expected = whose_turn(players, rs)
    if expected is not None and player != expected:
        return Breach(
            Code.OUT_OF_TURN, "R-T1", say("it is %(turn)s's turn, not %(player)s's", turn=expected, player=player)
        )
    return None


def check_card_in_hand(hand: Sequence[str], player: str, card: str) -> Breach | None:
    """R-T4: a card played comes from the player's own hand."""
    if card in hand:
        return None
    if not hand:
        return Breach(
            Code.CARD_NOT_IN_HAND,
            "R-T4",
            say("%(player)s played %(card)s but holds no cards", player=player, card=card),
        )
    said = say("%(player)s played %(card)s but holds %(cards)s", player=player, card=card, cards=tuple(hand))
    return Breach(Code.CARD_NOT_IN_HAND, "R-T4", said)


def check_draw_in_turn(players: Sequence[str], rs: RoundState, player: str) -> Breach | None:
    """R-T1: a draw is made by the player whose turn it is, nobody else."""
    if rs.played and player == rs.turn:
        return None
    if rs.played and rs.draw_due:
        return Breach(
            Code.OUT_OF_TURN, "R-T1", say("%(player)s drew while %(turn)s was due to draw", player=player, turn=rs.turn)
        )
    expected = whose_turn(players, rs)
    if player != expected:
        return Breach(Code.OUT_OF_TURN, "R-T1", say("%(player)s drew in %(turn)s's turn", player=player, turn=expected))
    return None


def check_one_draw(rs: RoundState, player: str) -> Breach | None:
    """R-T2: one draw a turn (a draw made before the turn's card counts as its draw)."""
    if rs.early_draw or (rs.played and player == rs.turn and rs.drew):
        return Breach(Code.WRONG_DRAW, "R-T2", say("%(player)s already drew this turn: one draw a turn", player=player))
    return None


def check_draw_from_pile(rs: RoundState, player: str) -> Breach | None:
    """R-T2: no draw once the pile is empty (no draw was due after the turn's card)."""
    if rs.played and player == rs.turn and not rs.drew and not rs.draw_due:
        return Breach(
            Code.WRONG_DRAW, "R-T2", say("%(player)s drew from an empty draw pile: no draw then", player=player)
        )
    return None


def check_draw_after_card(rs: RoundState, player: str) -> Breach | None:
    """R-T2: the draw comes after the turn's card, not before it."""
    if rs.played and player == rs.turn:
        return None
    return Breach(
        Code.WRONG_DRAW, "R-T2", say("%(player)s drew before playing a card: draw after the turn's card", player=player)
    )


def check_top_card(top: str, player: str, card: str) -> Breach | None:
    """R-T2: the card drawn is the top card of the draw pile."""
    if card != top:
        return Breach(
            Code.WRONG_DRAW,
            "R-T2",
            say("%(player)s drew %(card)s, but the top of the pile was %(top)s", player=player, card=card, top=top),
        )
    return None
