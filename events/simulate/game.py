"""One simulated game at one table: deal, turns, reveals, scoring, written as events.

Every event is fed to a checking :class:`~events.replay.Replay` as it is written; a
finding there is a bug in the simulator, raised at once, so what it writes audits
clean by construction.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from random import Random
from typing import Any

from events import cards
from events.logfile import LogLine
from events.maze import Maze
from events.replay import Replay
from events.rules import scoring
from events.rules.goals import SLOT_ORDER
from events.rules.turns import whose_turn
from events.schema import (
    FORMAT,
    Discard,
    Draw,
    Event,
    GameEnded,
    GameStarted,
    GoalRevealed,
    Goals,
    PlayMap,
    PlayPath,
    PlayRockfall,
    PlayTool,
    Recording,
    RoundEnded,
    RoundStarted,
    SetupCard,
)
from events.simulate.bots import choose
from events.simulate.knowledge import Deed, View, distance, public_target
from events.simulate.lineup import BASIC, Lineup
from events.simulate.moves import Play, open_cells
from events.simulate.recording import written
from events.state import RoundState
from events.tables import BASE_ROLE_DECK, TOURNAMENT_ROLES, base_saboteur_share, hand_size


class SimulationError(RuntimeError):
    """The simulator wrote a line the rules refuse: a bug, never a result."""


@dataclass(frozen=True, slots=True)
class GameSpec:
    """What one simulated game is: who sits where, which rules, how many rounds."""

    game_id: str
    players: tuple[str, ...]
    ruleset: str = "tournament"
    rounds: int = 3
    seed: int = 0
    tournament: str | None = None
    tournament_round: int | None = None
    stage: str | None = None
    table: str | None = None
    start: datetime = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)
    recording: Recording = "full"
    """How the log is written: ``full`` or ``observed`` (the same game either way)."""
    referee_notes: float = 0.0
    """The chance that a turn gets a ``referee_note`` (R-C1) beside it; none by default."""
    bots: Lineup = BASIC
    """Which bot plays each role."""


def reveals_after(maze: Maze, rng: Random) -> list[tuple[str, bool]]:
    """The goals a placement turns up (R-G1) with how each is laid (R-G2), in slot
    order, including goals reached through a stone revealed by the same placement."""
    probe = maze.copy()
    turned: list[tuple[str, bool]] = []
    while True:
        wave = probe.reached_goals()
        if not wave:
            break
        for slot in wave:
            ways = probe.goal_ways(slot)
            rotated = ways[0] if len(ways) == 1 else rng.choice(ways)
            probe.reveal(slot, rotated)
            turned.append((slot, rotated))
    return sorted(turned, key=lambda pair: SLOT_ORDER[pair[0]])


class Table:
    """Plays one game and collects its events."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self.players = list(spec.players)
        self.rng = Random(spec.seed)
        self.replay = Replay(strict=True)
        self.events: list[Event] = []
        self.clock = spec.start
        self.gold: list[int] = []
        self.deeds: list[Deed] = []
        self.connector: str | None = None
        """Who reached the gold this round: the reveals are judged by the replay only
        when the next line comes, so the table keeps its own note."""

    # -- writing -----------------------------------------------------------------

    def _stamp(self) -> str:
        self.clock += timedelta(seconds=self.rng.randint(4, 40))
        return self.clock.strftime("%Y-%m-%dT%H:%M:%SZ")

    def emit(self, model: type[Event], **fields: Any) -> None:
        event = model(at=self._stamp(), **fields)
        self.events.append(event)
        try:
            self.replay.feed(LogLine(len(self.events), event))
        except Exception as exc:  # ReplayError: the simulator broke a rule
            raise SimulationError(f"{self.spec.game_id}: {exc}") from exc

    @property
    def round(self) -> RoundState:
        rs = self.replay.state.round
        assert rs is not None
        return rs

    # -- the game ----------------------------------------------------------------

    def log(self) -> list[Event]:
        """Play the game and write it as the spec asks (its recording, its notes)."""
        spec = self.spec
        return written(self.play(), recording=spec.recording, notes=spec.referee_notes, seed=spec.seed)

    def play(self) -> list[Event]:
        """Play the game; its events as played, a full log without notes."""
        spec = self.spec
        header: dict[str, Any] = {
            "type": "game_started",
            "format": FORMAT,
            "game_id": spec.game_id,
            "ruleset": spec.ruleset,
            "players": self.players,
            "rounds": spec.rounds,
        }
        for name in ("tournament", "tournament_round", "stage", "table"):
            value = getattr(spec, name)
            if value is not None:
                header[name] = value
        self.emit(GameStarted, **header)
        if spec.ruleset == "base":
            self.gold = list(Counter(cards.GOLD_SUPPLY).elements())
            self.rng.shuffle(self.gold)
        for number in range(1, spec.rounds + 1):
            self._deal(number)
            self._turns()
            self._score()
        totals = {p: 0 for p in self.players}
        for outcome in self.replay.state.outcomes:
            for player, score in outcome.scores.items():
                totals[player] += score or 0
        self.emit(GameEnded, type="game_ended", totals=totals)
        return self.events

    def _roles(self) -> tuple[dict[str, str], str | None]:
        n = len(self.players)
        if self.spec.ruleset == "tournament":
            saboteurs, diggers, dwarfs = TOURNAMENT_ROLES[n]
            deck = ["saboteur"] * saboteurs + ["gold_digger"] * diggers + ["selfish_dwarf"] * dwarfs
            self.rng.shuffle(deck)
            return dict(zip(self.players, deck, strict=True)), None
        saboteurs, diggers = BASE_ROLE_DECK[n]
        deck = ["saboteur"] * saboteurs + ["gold_digger"] * diggers
        self.rng.shuffle(deck)
        return dict(zip(self.players, deck[:n], strict=True)), deck[n]

    def _deal(self, number: int) -> None:
        rng = self.rng
        roles, aside = self._roles()
        goal_cards = list(cards.GOAL_SIDES)
        rng.shuffle(goal_cards)
        deck = list(cards.DECK.elements())
        rng.shuffle(deck)
        setup = None
        if self.spec.ruleset == "tournament":
            start = rng.choice(self.players)
            turned: list[str] = []
            while True:
                card = deck.pop(0)
                turned.append(card)
                if cards.is_tunnel(card):
                    break
            deck.extend(turned[:-1])  # the action cards turned over go back (R-S7)
            rng.shuffle(deck)
            setup = SetupCard(card=turned[-1], rotated=rng.random() < 0.5, turned_over=turned)
        elif number == 1:
            start = rng.choice(self.players)
        else:
            last = self.replay.state.last_round_last_player or self.players[0]
            start = self.players[(self.players.index(last) + 1) % len(self.players)]
        size = hand_size(len(self.players))
        hands = {p: [deck.pop() for _ in range(size)] for p in self.players}
        self.deeds = []
        self.emit(
            RoundStarted,
            type="round_started",
            round=number,
            start_player=start,
            roles=roles,
            set_aside_role=aside,
            goals=Goals(top=goal_cards[0], middle=goal_cards[1], bottom=goal_cards[2]),  # type: ignore[arg-type]
            setup_card=setup,
            hands=hands,
            draw_pile=deck,
        )

    def _next_player(self) -> str:
        rs = self.round
        return whose_turn(self.players, rs) or rs.turn

    def _view(self, player: str) -> View:
        rs = self.round
        maze = rs.maze
        seen = {slot: maze.cells[cards.GOAL_CELLS[slot]].card for slot in cards.SLOTS if not maze.face_down(slot)}
        for slot in rs.peeks.get(player, ()):
            seen[slot] = maze.goal_card(slot)
        game = self.replay.state.game
        self_break = bool(game and game.options and game.options.self_break)
        return View(
            player=player,
            role=rs.roles.get(player) or "gold_digger",
            hand=list(rs.hands[player]),
            maze=maze,
            broken={p: set(t) for p, t in rs.broken.items()},
            players=self.players,
            seen_goals=seen,
            pile_count=len(rs.pile),
            deeds=list(self.deeds),
            self_break=self_break,
        )

    def _turns(self) -> None:
        self.connector = None
        while not self.round.over:
            player = self._next_player()
            view = self._view(player)
            play = choose(view, self.rng, self.spec.bots)
            self._record(view, play)
            self._write_play(player, play)
            rs = self.round
            if play.kind == "path":
                turned = reveals_after(rs.maze, self.rng)
                for slot, rotated in turned:
                    self.emit(GoalRevealed, type="goal_revealed", goal=slot, rotated=rotated)
                self.replay.close_reveals()
                if any(rs.maze.goal_card(slot) == cards.GOLD for slot, _ in turned):
                    self.connector = player
                    return
            if self.round.pile:
                self.emit(Draw, type="draw", player=player, card=self.round.pile[-1])

    def _record(self, view: View, play: Play) -> None:
        kind = {"tool": "break" if play.card in cards.BREAK_CARDS else "repair"}.get(play.kind, play.kind)
        gain = toward = 0
        if play.kind == "path":
            assert play.cell is not None
            placed = cards.TUNNEL_CARDS[play.card]
            if placed.dead_end:
                kind = "dead_end"
            else:
                frontier = open_cells(view.maze)
                cell = play.cell

                def closer(goal: tuple[int, int]) -> int:
                    return min((distance(c, goal) for c in frontier), default=99) - distance(cell, goal) + 1

                gain, toward = closer(view.target()), closer(public_target(view.maze))
        cleared = play.kind == "rockfall" and not view.maze.cells[play.cell].passable  # type: ignore[index]
        card = "" if play.kind == "discard" else play.card
        self.deeds.append(Deed(view.player, kind, play.target, gain, card, play.cell, cleared, toward))

    def _write_play(self, player: str, play: Play) -> None:
        if play.kind == "path":
            assert play.cell is not None
            x, y = play.cell
            self.emit(PlayPath, type="play_path", player=player, card=play.card, x=x, y=y, rotated=play.rotated)
        elif play.kind == "tool":
            extra = {"tool": play.tool} if play.tool else {}
            self.emit(PlayTool, type="play_tool", player=player, card=play.card, target=play.target, **extra)
        elif play.kind == "rockfall":
            assert play.cell is not None
            x, y = play.cell
            self.emit(PlayRockfall, type="play_rockfall", player=player, card=play.card, x=x, y=y)
        elif play.kind == "map":
            self.emit(PlayMap, type="play_map", player=player, card=play.card, goal=play.goal)
        else:
            self.emit(Discard, type="discard", player=player, card=play.card)

    # -- scoring -----------------------------------------------------------------

    def _score(self) -> None:
        rs = self.round
        game = self.replay.state.game
        assert game is not None
        connector = self.connector
        gold: dict[str, dict[str, list[int]]] = {}
        if self.spec.ruleset == "tournament":
            outcome = scoring.tournament_outcome(rs.number, self.players, rs.roles, connector)
            scores = {p: s or 0 for p, s in outcome.scores.items()}
        else:
            taken = self._gold_cards(rs, connector)
            supply = Counter(self.replay.state.gold_supply)
            outcome = scoring.base_outcome(rs.number, game, rs.roles, connector, supply, {})
            scores = {p: sum(v) for p, v in taken.items()}
            gold = {"gold_cards": taken}
        self.emit(
            RoundEnded,
            type="round_ended",
            round=rs.number,
            winner=outcome.winner,
            connector=outcome.connector,
            scores=scores,
            **gold,
        )

    def _gold_cards(self, rs: RoundState, connector: str | None) -> dict[str, list[int]]:
        """The gold cards each player takes (R-W2): the connector's draw passed round
        the diggers, each picking the best card left; or the saboteurs' shares."""
        game = self.replay.state.game
        assert game is not None
        taken: dict[str, list[int]] = {p: [] for p in self.players}
        if connector is not None:
            if game.options is not None and game.options.gold_cards_drawn == "gold_diggers":
                count = sum(1 for r in rs.roles.values() if r == "gold_digger")
            else:
                count = min(len(self.players), 9)
            drawn = [self.gold.pop() for _ in range(min(count, len(self.gold)))]
            counts = scoring.gold_passing(self.players, rs.roles, connector, len(drawn))
            at = self.players.index(connector)
            order = [self.players[(at - k) % len(self.players)] for k in range(len(self.players))]
            takers = [p for p in order if counts[p]]
            k = 0
            while drawn:
                player = takers[k % len(takers)]
                if len(taken[player]) < counts[player]:
                    best = max(drawn)
                    drawn.remove(best)
                    taken[player].append(best)
                k += 1
            return taken
        saboteurs = [p for p in self.players if rs.roles.get(p) == "saboteur"]
        if not saboteurs:
            return taken
        takes = scoring.saboteur_gold(Counter(self.gold), base_saboteur_share(len(saboteurs)), len(saboteurs))
        for player, take in zip(saboteurs, takes, strict=True):
            taken[player] = take
            for value in take:
                self.gold.remove(value)
        return taken


def simulate_game(spec: GameSpec) -> list[Event]:
    """The events of one simulated game as its log is written, deterministic for
    ``spec.seed``."""
    return Table(spec).log()


def quick_game(
    players: int | Sequence[str] = 6,
    ruleset: str = "tournament",
    rounds: int = 3,
    seed: int = 0,
    *,
    recording: Recording = "full",
    referee_notes: float = 0.0,
) -> list[Event]:
    """A simulated game with default names and ids, for tests and benchmarks."""
    names = tuple(f"p{i + 1}" for i in range(players)) if isinstance(players, int) else tuple(players)
    spec = GameSpec(f"sim:{ruleset}:{len(names)}:{seed}", names, ruleset, rounds, seed)
    return simulate_game(replace(spec, recording=recording, referee_notes=referee_notes))
