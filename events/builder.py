"""A small, readable way to write game logs line by line.

Tests write the legal and illegal cases of each rule with it, and examples are made
with it. The builder rides on the replay engine: it feeds every line it writes into a
lenient :class:`~events.replay.Replay`, so it always knows the pile, the hands and whose
turn comes next, and can fill in the draw after a card and the scores of a round.
It never refuses a line: writing illegal logs is half its job.

    log = LogBuilder(players=["ann", "bob", "cem"], ruleset="base")
    log.deal(start="ann", hands={"ann": ["EW", "NESW"]})
    log.path("ann", "EW", 1, 0)          # and ann's draw of the top card
    log.discard("bob", log.hand("bob")[0])
    log.end_round()                       # the rules' outcome, as the scorekeeper writes it
"""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from events import cards
from events.logfile import LogLine, UnreadableLog, parse_line
from events.replay import Replay
from events.rules import scoring
from events.rules.turns import whose_turn
from events.schema import FORMAT, Event, dump_event
from events.state import GameState, RoundState
from events.tables import BASE_ROLE_DECK, TOURNAMENT_ROLES, hand_size

DEFAULT_PLAYERS = ("ann", "bob", "cem", "dia", "eve", "fay", "gus", "hal", "ida", "jan")
DEFAULT_GOALS = {"top": "goal_stone_ne", "middle": "goal_gold", "bottom": "goal_stone_nw"}


def default_roles(players: Sequence[str], ruleset: str) -> tuple[dict[str, str], str | None]:
    """Roles by the R-S1 table: saboteurs on the last seats, selfish dwarfs before them;
    in base the one card left over (a gold digger) is set aside."""
    n = len(players)
    if ruleset == "tournament":
        saboteurs, diggers, dwarfs = TOURNAMENT_ROLES[n]
        row = ["gold_digger"] * diggers + ["selfish_dwarf"] * dwarfs + ["saboteur"] * saboteurs
        return dict(zip(players, row, strict=True)), None
    saboteurs, diggers = BASE_ROLE_DECK[n]
    row = ["gold_digger"] * (diggers - 1) + ["saboteur"] * saboteurs
    return dict(zip(players, row, strict=True)), "gold_digger"


class LogBuilder:
    """Writes one game log; every method appends lines and returns the builder."""

    def __init__(
        self,
        players: Sequence[str] | int = 6,
        ruleset: str = "tournament",
        rounds: int = 3,
        game_id: str = "test:game",
        **header: Any,
    ) -> None:
        self.players = list(DEFAULT_PLAYERS[:players]) if isinstance(players, int) else list(players)
        self.ruleset = ruleset
        self.lines: list[str] = []
        self._replay = Replay()
        self.raw(
            {
                "type": "game_started",
                "format": FORMAT,
                "game_id": game_id,
                "ruleset": ruleset,
                "players": self.players,
                "rounds": rounds,
                **header,
            }
        )

    # -- reading back ------------------------------------------------------------

    @property
    def state(self) -> GameState:
        return self._replay.state

    @property
    def round(self) -> RoundState:
        assert self.state.round is not None, "deal a round first"
        return self.state.round

    @property
    def line(self) -> int:
        """The number of the last line written."""
        return len(self.lines)

    def hand(self, player: str) -> list[str]:
        return list(self.round.hands.get(player, []))

    @property
    def turn(self) -> str:
        """Who plays next, as the rules have it (R-T1, R-T5)."""
        rs = self.round
        return whose_turn(self.players, rs) or rs.turn

    def text(self) -> str:
        return "".join(line + "\n" for line in self.lines)

    def events(self) -> list[Event]:
        parsed = [parse_line(i, line) for i, line in enumerate(self.lines, start=1)]
        return [p.event for p in parsed if p.event is not None]

    # -- writing -----------------------------------------------------------------

    def raw(self, obj: Mapping[str, Any] | str) -> LogBuilder:
        """Append any line at all (a dict is written as compact JSON)."""
        text = obj if isinstance(obj, str) else json.dumps(obj, separators=(",", ":"))
        self.lines.append(text)
        log_line: LogLine = parse_line(len(self.lines), text)
        with contextlib.suppress(UnreadableLog):  # a bad header: the builder still writes
            self._replay.feed(log_line)
        return self

    def event(self, event: Event) -> LogBuilder:
        return self.raw(dump_event(event))

    def deal(
        self,
        *,
        start: str | None = None,
        roles: Mapping[str, str] | None = None,
        set_aside: str | None = "default",
        goals: Mapping[str, str] | None = None,
        hands: Mapping[str, Sequence[str]] | None = None,
        pile: Sequence[str] = (),
        setup: tuple[str, bool] | str | None = "default",
        turned_over: Sequence[str] | None = None,
        round: int | None = None,
        fill: bool = True,
        **extra: Any,
    ) -> LogBuilder:
        """A ``round_started`` that is legal unless told otherwise.

        ``hands`` and ``pile`` (top first) give the cards that matter to the test; with
        ``fill`` the rest of the deck completes every hand to its R-S4 size and then
        goes under the given pile, in a fixed order, so the deck is exact (R-S3).
        """
        default, aside = default_roles(self.players, self.ruleset)
        if setup == "default":
            setup = ("NESW", False) if self.ruleset == "tournament" else None
        setup_card = None
        if setup is not None:
            assert not isinstance(setup, str)
            card, rotated = setup
            setup_card = {"card": card, "rotated": rotated, "turned_over": list(turned_over or [card])}
            remaining_setup: str | None = card
        else:
            remaining_setup = None
        dealt = {p: list((hands or {}).get(p, [])) for p in self.players}
        remaining = Counter(cards.DECK)
        used: Counter[str] = Counter(pile)
        for hand in dealt.values():
            used.update(hand)
        if remaining_setup is not None:
            used[remaining_setup] += 1
        remaining -= used
        rest = sorted(remaining.elements(), key=_deal_order)
        if fill:
            size = hand_size(len(self.players))
            for player in self.players:
                while len(dealt[player]) < size and rest:
                    dealt[player].append(rest.pop(0))
        number = round if round is not None else self.state.last_round_number + 1
        return self.raw(
            {
                "type": "round_started",
                "round": number,
                "start_player": start or self.players[0],
                "roles": dict(roles or default),
                "set_aside_role": aside if set_aside == "default" else set_aside,
                "goals": dict(goals or DEFAULT_GOALS),
                "setup_card": setup_card,
                "hands": dealt,
                "draw_pile": [*pile, *(rest if fill else [])],
                **extra,
            }
        )

    def _then_draw(self, player: str, draw: bool) -> LogBuilder:
        if draw and self.round.pile:
            self.draw(player)
        return self

    def path(self, player: str, card: str, x: int, y: int, rotated: bool = False, *, draw: bool = True) -> LogBuilder:
        self.raw({"type": "play_path", "player": player, "card": card, "x": x, "y": y, "rotated": rotated})
        return self._then_draw(player, draw)

    def tool(self, player: str, card: str, target: str, tool: str | None = None, *, draw: bool = True) -> LogBuilder:
        obj: dict[str, Any] = {"type": "play_tool", "player": player, "card": card, "target": target}
        if tool is not None:
            obj["tool"] = tool
        self.raw(obj)
        return self._then_draw(player, draw)

    def rockfall(self, player: str, x: int, y: int, *, draw: bool = True) -> LogBuilder:
        self.raw({"type": "play_rockfall", "player": player, "card": "rockfall", "x": x, "y": y})
        return self._then_draw(player, draw)

    def map(self, player: str, goal: str, *, draw: bool = True) -> LogBuilder:
        self.raw({"type": "play_map", "player": player, "card": "map", "goal": goal})
        return self._then_draw(player, draw)

    def discard(self, player: str, card: str | None = None, *, draw: bool = True) -> LogBuilder:
        """Pass (R-T3); by default with the first card of the hand."""
        chosen = card if card is not None else self.hand(player)[0]
        self.raw({"type": "discard", "player": player, "card": chosen})
        return self._then_draw(player, draw)

    def draw(self, player: str, card: str | None = None) -> LogBuilder:
        """Draw; by default the card on top of the pile."""
        chosen = card if card is not None else (self.round.top_of_pile or "NESW")
        return self.raw({"type": "draw", "player": player, "card": chosen})

    def reveal(self, goal: str, rotated: bool = False) -> LogBuilder:
        return self.raw({"type": "goal_revealed", "goal": goal, "rotated": rotated})

    def note(self, error: str, note: str = "", player: str | None = None) -> LogBuilder:
        """A referee's note of an error no card shows (R-C1)."""
        return self.raw({"type": "referee_note", "player": player, "error": error, "note": note})

    def pass_until(self, player: str) -> LogBuilder:
        """Everyone before ``player`` in turn order passes (discards and draws)."""
        for _ in range(len(self.players)):
            if self.turn == player:
                return self
            self.discard(self.turn)
        raise AssertionError(f"{player} never gets a turn")

    def pass_out(self) -> LogBuilder:
        """Everyone passes in turn until every hand is empty (R-E2)."""
        rs = self.round
        while (rs.pile or not rs.hands_empty()) and not rs.over:
            self.discard(self.turn)
        return self

    def outcome(self) -> dict[str, Any]:
        """The ``round_ended`` fields the rules give for the round in play."""
        rs = self._replay.settled().round
        assert rs is not None
        game = self.state.game
        assert game is not None
        connector = rs.connector if rs.gold_found else None
        if self.ruleset == "tournament":
            result = scoring.tournament_outcome(rs.number, self.players, rs.roles, connector)
            return {"winner": result.winner, "connector": result.connector, "scores": dict(result.scores)}
        supply = Counter(self.state.gold_supply)
        probe = scoring.base_outcome(rs.number, game, rs.roles, connector, supply, {})
        gold_cards: dict[str, list[int]] = {p: [] for p in self.players}
        if probe.gold_card_counts and probe.winner == "gold_diggers":
            for player, count in probe.gold_card_counts.items():
                for _ in range(count):
                    value = min(v for v in (1, 2, 3) if supply[v]) if supply.total() else 1
                    supply[value] -= 1
                    gold_cards[player].append(value)
        elif probe.winner == "saboteurs":
            for player, share in probe.scores.items():
                while share:
                    value = max(v for v in (1, 2, 3) if supply[v] and v <= share)
                    supply[value] -= 1
                    gold_cards[player].append(value)
                    share -= value
        scores = {p: sum(v) for p, v in gold_cards.items()}
        return {"winner": probe.winner, "connector": probe.connector, "scores": scores, "gold_cards": gold_cards}

    def end_round(self, **claims: Any) -> LogBuilder:
        """A ``round_ended``: the rules' outcome unless a field is given."""
        fields = {"round": self.round.number, **self.outcome(), **claims}
        return self.raw({"type": "round_ended", **fields})

    def end_game(self, **claims: Any) -> LogBuilder:
        totals = {p: (t if t is not None else 0) for p, t in self.state.totals().items()}
        return self.raw({"type": "game_ended", "totals": claims.get("totals", totals)})


def _deal_order(code: str) -> tuple[int, str]:
    """Fill order: action cards before tunnel cards, so that hands filled for a test
    hold passes rather than tunnels it might play by mistake."""
    return (0 if code in cards.ACTION_CARDS else 1, code)
