"""Write the example logs of ``examples/`` (run from the repository root).

Small games written with :class:`events.builder.LogBuilder`: a tournament game of three
rounds at a table of six (a gold digger reaches the gold, a selfish dwarf does, and the
saboteurs hold out), a base game of three players, and the final table of the same
tournament as a referee at a physical table records it: four rounds written in full and
turned into the observed log by :func:`events.observe.observe`, the one way from the one
recording to the other. All of them audit clean.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from events.builder import LogBuilder
from events.observe import observe

HERE = Path(__file__).parent
SIX = ["ann", "bob", "cem", "dia", "eve", "fay"]


def _pass(log: LogBuilder, player: str, keep: tuple[str, ...] = ()) -> None:
    """``player`` passes with a card they will not need."""
    log.discard(player, next(c for c in log.hand(player) if c not in keep))


def _example_open(**header: Any) -> LogBuilder:
    """A table of six at the example tournament, its first three rounds played."""
    log = LogBuilder(players=SIX, ruleset="tournament", tournament="example-open", **header)
    _diggers_reach_the_gold(log)
    _the_selfish_dwarf_reaches_the_gold(log)
    _the_saboteurs_hold_out(log)
    return log


def tournament_game() -> LogBuilder:
    return _example_open(game_id="example-open:r1:t1", tournament_round=1, stage="preliminary", table="1").end_game()


def _diggers_reach_the_gold(log: LogBuilder) -> None:
    """cem starts; the diggers dig east along y=0, through the setup card."""
    log.deal(
        start="cem",
        hands={
            "cem": ["EW", "NEW", "map"],
            "dia": ["break_pick"],
            "eve": ["NS"],
            "fay": ["NESW"],
            "ann": ["EW", "NESW"],
            "bob": ["NEW", "repair_pick"],
        },
        setup=("NESW", False),
    )
    log.path("cem", "EW", 1, 0)
    log.tool("dia", "break_pick", "ann")
    log.discard("eve", "NS")
    log.path("fay", "NESW", 2, 0)
    _pass(log, "ann", keep=("EW", "NESW"))
    log.tool("bob", "repair_pick", "ann")
    log.path("cem", "NEW", 3, 0)
    for player in ("dia", "eve", "fay"):
        _pass(log, player)
    log.path("ann", "EW", 5, 0)
    log.path("bob", "NEW", 6, 0)
    log.map("cem", "middle")
    for player in ("dia", "eve", "fay"):
        _pass(log, player)
    log.path("ann", "NESW", 7, 0, draw=False)
    log.reveal("middle")
    log.end_round()


def _the_selfish_dwarf_reaches_the_gold(log: LogBuilder) -> None:
    """A rockfall slows the diggers; the selfish dwarf dia reaches the gold."""
    log.deal(
        start="ann",
        goals={"top": "goal_stone_ne", "middle": "goal_stone_nw", "bottom": "goal_gold"},
        hands={
            "ann": ["EW", "NESW", "EW"],
            "bob": ["NESW", "NS", "NEW"],
            "cem": ["NES", "NEW"],
            "dia": ["NESW", "NE"],
            "eve": ["NESW"],
            "fay": ["rockfall"],
        },
        setup=("NS", False),
    )
    keep = ("EW", "NESW", "NEW", "NE")
    log.path("ann", "EW", 1, 0)
    log.path("bob", "NESW", 2, 0)
    log.path("cem", "NES", 3, 0, rotated=True)
    log.path("dia", "NESW", 3, 1)
    log.path("eve", "NESW", 4, 1)
    log.rockfall("fay", 4, 1)
    log.path("ann", "NESW", 4, 1)
    log.discard("bob", "NS")
    _pass(log, "cem", keep)
    _pass(log, "dia", keep)
    _pass(log, "eve")
    _pass(log, "fay")
    log.path("ann", "EW", 5, 1)
    log.path("bob", "NEW", 6, 1)
    log.path("cem", "NEW", 7, 1)
    log.path("dia", "NE", 8, 1, rotated=True, draw=False)
    log.reveal("bottom")
    log.end_round()


def _the_saboteurs_hold_out(log: LogBuilder) -> None:
    """Nobody digs; every hand runs out and the saboteurs win."""
    log.deal(start="eve", setup=("NES", True), turned_over=["map", "break_lamp", "NES"])
    log.pass_out()
    log.end_round()


def _a_stone_then_the_gold(log: LogBuilder) -> None:
    """bob starts; a broken lamp is mended, the middle goal turns up a stone, and the
    diggers branch north to the gold at the top, which cem found with a map."""
    log.deal(
        start="bob",
        goals={"top": "goal_gold", "middle": "goal_stone_ne", "bottom": "goal_stone_nw"},
        hands={
            "bob": ["EW", "EW", "repair_lamp", "NES"],
            "cem": ["map", "NESW", "NESW", "NESW"],
            "dia": ["EW", "NEW"],
            "eve": ["break_lamp"],
            "ann": ["NS"],
        },
    )
    keep = ("NEW", "NS", "NES", "NESW", "repair_lamp")
    log.path("bob", "EW", 1, 0)
    log.map("cem", "top")
    log.path("dia", "EW", 2, 0)
    log.tool("eve", "break_lamp", "ann")
    _pass(log, "fay")
    _pass(log, "ann", keep)
    log.path("bob", "EW", 3, 0)
    log.path("cem", "NESW", 5, 0)
    for player in ("dia", "eve", "fay", "ann"):
        _pass(log, player, keep)
    log.tool("bob", "repair_lamp", "ann")
    log.path("cem", "NESW", 6, 0)
    log.path("dia", "NEW", 7, 0, draw=False)
    log.reveal("middle", rotated=True)
    log.draw("dia")
    _pass(log, "eve")
    _pass(log, "fay")
    log.path("ann", "NS", 6, -1)
    log.path("bob", "NES", 6, -2)
    log.path("cem", "NESW", 7, -2, draw=False)
    log.reveal("top")
    log.end_round()


def final_table() -> LogBuilder:
    """The tournament's final table (R-TS4): four rounds, written in full."""
    log = _example_open(rounds=4, game_id="example-open:final", tournament_round=5, stage="final", table="final")
    _a_stone_then_the_gold(log)
    return log.end_game()


def base_game() -> LogBuilder:
    log = LogBuilder(players=["ann", "bob", "cem"], ruleset="base", game_id="example-base:kitchen-table")
    log.deal(start="ann", hands={"ann": ["EW", "EW", "EW"], "bob": ["NESW", "NESW"], "cem": ["NEW", "NEW"]})
    for x, player, card in (
        (1, "ann", "EW"),
        (2, "bob", "NESW"),
        (3, "cem", "NEW"),
        (4, "ann", "EW"),
        (5, "bob", "NESW"),
        (6, "cem", "NEW"),
    ):
        log.path(player, card, x, 0)
    log.path("ann", "EW", 7, 0, draw=False)
    log.reveal("middle")
    log.end_round()
    # ann laid the last card, so bob (to her left) starts round 2 (R-S6).
    log.deal(start="bob", roles={"ann": "saboteur", "bob": "gold_digger", "cem": "gold_digger"})
    log.pass_out()
    log.end_round()
    last = log.round.last_card_player or "ann"
    following = log.players[(log.players.index(last) + 1) % 3]
    log.deal(
        start=following, roles={"ann": "gold_digger", "bob": "gold_digger", "cem": "gold_digger"}, set_aside="saboteur"
    )
    log.pass_out()
    log.end_round()
    return log.end_game()


def write_examples(root: Path) -> list[Path]:
    """Write every example log into ``root``; the files written."""
    texts = {
        "tournament-table.jsonl": tournament_game().text().encode(),
        "base-kitchen-table.jsonl": base_game().text().encode(),
        "observed-final-table.jsonl": observe(final_table().text().encode()),
    }
    for name, data in texts.items():
        (root / name).write_bytes(data)
    return [root / name for name in texts]


if __name__ == "__main__":
    write_examples(HERE)
