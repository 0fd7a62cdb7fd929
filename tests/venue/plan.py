"""What a referee taps to record a whole game at a table of six, and the log it makes.

A round of the plan has every kind of entry the Record page takes: the start player
and the setup card, path cards laid towards the gold, a pass, a broken tool and its
repair, a map, an entry the page warns about (a card where no path leads, recorded as
it happened after the warning), an entry taken back (a pass undone), the draws, the
gold turned up and the roles. Each step names the button it taps (or the number field
it fills) and the button the next screen shows: the screen "shows the tap taken" when
the page's run has ended and that button is there.

The plan also says which events the game's log must hold when it ends, by type, so a
run can count entries lost (shown as taken, absent from the store) and doubled.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Final, Literal

from events.builder import default_roles

SETUP: Final = "NESW"
"""The setup card every round: a crossing on the middle cell (4, 0)."""

StepKind = Literal["tap", "fill", "open"]


@dataclass(frozen=True, slots=True)
class Step:
    """One thing the referee does: ``tap`` the button ``key``; ``fill`` the number field
    ``key`` with ``value`` and press Enter; ``open`` the part of the page labelled
    ``value`` (no run of the page). ``then``: the button the next screen shows.
    ``entry``: the event type the step records in the draft (``None``: a step on the
    way to an entry), ``undo``: the step takes the last entry back; ``warned``: the page
    names a rule before the entry is recorded."""

    kind: StepKind
    key: str
    then: str | None = None
    value: str = ""
    entry: str | None = None
    undo: bool = False
    warned: bool = False


@dataclass
class GamePlan:
    """A game's steps and the entries its log holds at the end."""

    players: tuple[str, ...]
    rounds: int
    steps: list[Step] = field(default_factory=list)

    def expected(self) -> Counter[str]:
        """The log's event types and how many of each, once every step is done: the
        first line (``game_started``) and the end (``game_ended``) besides the steps'."""
        entries: Counter[str] = Counter({"game_started": 1})
        undone: list[str] = []
        recorded: list[str] = []
        for step in self.steps:
            if step.entry is not None:
                recorded.append(step.entry)
            if step.undo:
                undone.append(recorded.pop())
        entries.update(recorded)
        return entries

    @property
    def taps(self) -> int:
        return sum(1 for step in self.steps if step.kind != "open")


def game_plan(players: tuple[str, ...], rounds: int = 3, played: int | None = None) -> GamePlan:
    """The steps of a game of ``rounds`` rounds at a table of six (``players`` in seat
    order), from the table's first tap (Begin recording) through ``played`` rounds (all
    of them unless said): a whole game ends with the tap that ends it, and its log is
    taken in."""
    if len(players) != 6:
        raise ValueError(f"the plan is for a table of six, not {len(players)}")
    played = rounds if played is None else played
    plan = GamePlan(players, played)
    roles, _ = default_roles(list(players), "tournament")
    steps = plan.steps
    # the first tap begins the draft with the game's first line (game_started, counted apart)
    steps.append(Step("tap", "record_begin", then=f"record_start_{players[0]}"))
    for number in range(1, played + 1):
        start = (number - 1) % len(players)
        seat = [players[(start + i) % len(players)] for i in range(len(players) * 2)]
        steps += [
            Step("tap", f"record_start_{seat[0]}", then=f"record_setup_{SETUP}"),
            Step("tap", f"record_setup_{SETUP}", then="record_deal"),
            Step("tap", "record_deal", then="record_kind_path", entry="round_started"),
        ]
        steps += _path("EW", 1)  # turn 1
        steps += _discard()  # turn 2: a pass
        steps += [  # turn 3 breaks the pick of the player after
            Step("tap", "record_kind_break", then="record_card_break_pick"),
            Step("tap", "record_card_break_pick", then=f"record_target_{seat[3]}"),
            Step("tap", f"record_target_{seat[3]}", then="record_draw", entry="play_tool"),
            _draw(),
        ]
        steps += [  # turn 4 mends it
            Step("tap", "record_kind_repair", then="record_card_repair_pick"),
            Step("tap", "record_card_repair_pick", then=f"record_target_{seat[3]}"),
            Step("tap", f"record_target_{seat[3]}", then="record_draw", entry="play_tool"),
            _draw(),
        ]
        steps += [  # turn 5: a card where no path leads; the page warns, the table leaves it there
            Step("tap", "record_kind_path", then="record_card_NS"),
            Step("tap", "record_card_NS", then="record_other"),
            Step("open", "record_other", value="Another cell (as it happened)"),
            Step("fill", "record_other_x", then="record_other", value="3"),
            Step("fill", "record_other_y", then="record_other", value="3"),
            Step("tap", "record_other", then="record_confirm", warned=True),
            Step("tap", "record_confirm", then="record_draw", entry="play_path"),
            _draw(),
        ]
        steps += [  # turn 6: a pass tapped by mistake, taken back; then the card laid
            Step("tap", "record_kind_discard", then="record_draw", entry="discard"),
            Step("tap", "record_undo", then="record_kind_path", undo=True),
        ]
        steps += _path("EW", 2)
        steps += _path("EW", 3)  # turn 7
        steps += _path("NEW", 5)  # turn 8, beyond the setup card
        steps += [  # turn 9: a map on the top goal
            Step("tap", "record_kind_map", then="record_slot_top"),
            Step("tap", "record_slot_top", then="record_draw", entry="play_map"),
            _draw(),
        ]
        steps += _path("NEW", 6)  # turn 10
        steps += [  # turn 11 reaches the middle goal: the gold
            Step("tap", "record_kind_path", then="record_card_NESW"),
            Step("tap", "record_card_NESW", then="record_cell_7_0"),
            Step("tap", "record_cell_7_0", then="record_reveal_goal_gold_printed", entry="play_path"),
            Step(
                "tap",
                "record_reveal_goal_gold_printed",
                then=f"record_role_{players[0]}_{roles[players[0]]}",
                entry="goal_revealed",
            ),
        ]
        steps += [
            Step("tap", f"record_role_{player}_{roles[player]}", then=f"record_role_{player}_{roles[player]}")
            for player in players
        ]
        last = number == rounds
        following = "record_end_game" if last else f"record_start_{players[number % len(players)]}"
        steps.append(Step("tap", "record_end_round", then=following, entry="round_ended"))
    if played == rounds:
        steps.append(Step("tap", "record_end_game", then="record_download", entry="game_ended"))
    return plan


def _draw() -> Step:
    return Step("tap", "record_draw", then="record_kind_path", entry="draw")


def _path(card: str, x: int) -> list[Step]:
    return [
        Step("tap", "record_kind_path", then=f"record_card_{card}"),
        Step("tap", f"record_card_{card}", then=f"record_cell_{x}_0"),
        Step("tap", f"record_cell_{x}_0", then="record_draw", entry="play_path"),
        _draw(),
    ]


def _discard() -> list[Step]:
    return [Step("tap", "record_kind_discard", then="record_draw", entry="discard"), _draw()]


def recorded_after(plan: GamePlan, done: int) -> list[str]:
    """The entries the draft holds, in order, once the first ``done`` steps are done
    (the game's first line left out)."""
    recorded: list[str] = []
    for step in plan.steps[:done]:
        if step.entry is not None:
            recorded.append(step.entry)
        if step.undo:
            recorded.pop()
    return recorded


def resume_at(plan: GamePlan, stored: list[str] | None) -> int:
    """Where a referee carries on, given the entries the store holds (in order, the
    game's first line left out; ``None``: no draft begun): the step after the last one
    that made the draft what it is, and that left no entry half made (a step on the way
    to an entry is done again, as a referee does it again on a page that forgot it)."""
    if stored is None:
        return 0
    best = 1  # the draft is begun: its first line is there
    for done in range(1, len(plan.steps) + 1):
        if recorded_after(plan, done) == stored and (
            done == 0 or plan.steps[done - 1].entry or plan.steps[done - 1].undo
        ):
            best = done
    if recorded_after(plan, best) != stored:
        raise ValueError(f"the store's entries are no prefix of the plan: {stored}")
    return best
