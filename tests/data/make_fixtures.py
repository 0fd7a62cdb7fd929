"""Write the fixture logs of ``tests/data`` with the :class:`~events.builder.LogBuilder`.

Every violation code of event-log.md has one small bad log, ``bad/<code>.jsonl``,
beside ``bad/<code>.expected.json`` naming the code and the line where the log departs
from the rules. ``good/`` holds whole games that audit clean. The files are committed;
``tests/test_fixtures.py`` checks that running this script again gives the same bytes.

    python tests/data/make_fixtures.py
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from events.builder import LogBuilder

HERE = Path(__file__).resolve().parent

Fixture = Callable[[], tuple[LogBuilder, int]]
"""Builds a bad log; returns it and the line its finding must name."""

GOLD_IN_TOP = {"top": "goal_gold", "middle": "goal_stone_ne", "bottom": "goal_stone_nw"}
"""Goals with a stone in the middle slot, so a straight path reveals a stone."""


def table(name: str, **header: Any) -> LogBuilder:
    """A tournament game at a table of six (ann, bob, cem gold diggers, dia selfish
    dwarf, eve and fay saboteurs), dealt by the builder with ann to start."""
    return LogBuilder(players=6, ruleset="tournament", game_id=f"fixture:{name}", **header)


def straight_to_middle(log: LogBuilder, players: list[str], *, start: str | None = None, **deal: Any) -> LogBuilder:
    """Deal a tournament round in which ``players`` (one after the other, in turn
    order) lay the straight tunnel (1,0)…(7,0) through the setup card at (4,0); the
    last card reaches the middle goal and is not followed by a draw or a reveal."""
    cells = [1, 2, 3, 5, 6, 7]
    assert len(players) == len(cells)
    codes = ["EW", "EW", "EW", "NESW", "NESW", "NESW"]
    hands: dict[str, list[str]] = {}
    for player, code in zip(players, codes, strict=True):
        hands.setdefault(player, []).append(code)
    log.deal(start=start or players[0], hands=hands, **deal)
    for index, (player, x, code) in enumerate(zip(players, cells, codes, strict=True)):
        last = index == len(cells) - 1
        log.pass_until(player)
        log.path(player, code, x, 0, draw=not last)
    return log


# -- one bad log per code ------------------------------------------------------------


def malformed() -> tuple[LogBuilder, int]:
    log = table("malformed").deal()
    log.raw({"type": "play_path", "player": "ann", "card": "EW", "x": "1", "y": 0, "rotated": False})
    return log, log.line


def bad_deck() -> tuple[LogBuilder, int]:
    log = table("bad_deck").deal(pile=["Nx", "Nx"])  # the deck has one Nx
    return log, log.line


def bad_roles() -> tuple[LogBuilder, int]:
    log = table("bad_roles")
    log.deal(roles={p: "gold_digger" for p in log.players})
    return log, log.line


def bad_hand_size() -> tuple[LogBuilder, int]:
    log = table("bad_hand_size").deal(hands={"bob": ["map", "map", "map", "map", "map", "map"]})
    return log, log.line


def bad_setup_card() -> tuple[LogBuilder, int]:
    log = table("bad_setup_card").deal(setup=None)
    return log, log.line


def wrong_start_player() -> tuple[LogBuilder, int]:
    """A base game: ann lays the last card of round 1, so bob must start round 2."""
    log = LogBuilder(players=["ann", "bob", "cem"], ruleset="base", rounds=2, game_id="fixture:wrong_start_player")
    gold_path(log, ["ann", "bob", "cem", "ann", "bob", "cem", "ann"])
    log.end_round()
    log.deal(start="cem")
    return log, log.line


def out_of_turn() -> tuple[LogBuilder, int]:
    log = table("out_of_turn").deal(start="ann")
    log.discard("bob")
    return log, log.line - 1


def extra_play() -> tuple[LogBuilder, int]:
    log = table("extra_play").deal(start="ann")
    log.discard("ann", draw=False).discard("ann", draw=False)
    return log, log.line


def missed_draw() -> tuple[LogBuilder, int]:
    log = table("missed_draw").deal(start="ann")
    log.discard("ann", draw=False).discard("bob")
    return log, log.line - 1


def wrong_draw() -> tuple[LogBuilder, int]:
    log = table("wrong_draw").deal(start="ann", pile=["NS", "EW"])
    log.discard("ann", draw=False).draw("ann", "EW")
    return log, log.line


def card_not_in_hand() -> tuple[LogBuilder, int]:
    log = table("card_not_in_hand").deal(start="ann", pile=["Nx"])
    log.discard("ann", "Nx")
    return log, log.line - 1


def path_with_broken_tool() -> tuple[LogBuilder, int]:
    log = table("path_with_broken_tool").deal(start="ann", hands={"ann": ["break_pick"], "bob": ["EW"]})
    log.tool("ann", "break_pick", "bob").path("bob", "EW", 1, 0)
    return log, log.line - 1


def illegal_placement() -> tuple[LogBuilder, int]:
    log = table("illegal_placement").deal(start="ann", hands={"ann": ["EW"]})
    log.path("ann", "EW", 2, 0)  # (2,0) touches no card
    return log, log.line - 1


def impossible_action() -> tuple[LogBuilder, int]:
    log = table("impossible_action").deal(start="ann", hands={"ann": ["rockfall"]})
    log.rockfall("ann", 0, 0)  # never the start card
    return log, log.line - 1


def missing_reveal() -> tuple[LogBuilder, int]:
    log = straight_to_middle(table("missing_reveal"), ["ann", "bob", "cem", "dia", "eve", "fay"], goals=GOLD_IN_TOP)
    log.draw("fay")  # the middle stone was reached: its goal_revealed is due here
    return log, log.line


def false_reveal() -> tuple[LogBuilder, int]:
    log = table("false_reveal").deal(start="ann", hands={"ann": ["EW"]})
    log.path("ann", "EW", 1, 0, draw=False).reveal("top").draw("ann")
    return log, log.line - 1


def play_after_round_end() -> tuple[LogBuilder, int]:
    log = straight_to_middle(table("play_after_round_end"), ["ann", "bob", "cem", "dia", "eve", "cem"])
    log.reveal("middle").draw("cem")  # the gold ends the round: no draw
    return log, log.line


def wrong_score() -> tuple[LogBuilder, int]:
    log = straight_to_middle(table("wrong_score"), ["ann", "bob", "cem", "dia", "eve", "cem"])
    log.reveal("middle")
    log.end_round(scores={"ann": 3, "bob": 2, "cem": 2, "dia": 0, "eve": 0, "fay": 0})  # cem connected
    return log, log.line


def table_incident() -> tuple[LogBuilder, int]:
    log = table("table_incident").deal(start="ann")
    log.discard("ann", draw=False).note("face_up_discard", "laid it face up, all saw a map", player="ann")
    log.draw("ann")  # the note took no turn: ann's draw is still hers
    return log, log.line - 1


def incomplete() -> tuple[LogBuilder, int]:
    log = table("incomplete").deal(start="ann")
    log.discard("ann").discard("bob", draw=False)  # the file stops mid-turn
    return log, log.line


BAD: dict[str, Fixture] = {
    "malformed": malformed,
    "bad_deck": bad_deck,
    "bad_roles": bad_roles,
    "bad_hand_size": bad_hand_size,
    "bad_setup_card": bad_setup_card,
    "wrong_start_player": wrong_start_player,
    "out_of_turn": out_of_turn,
    "extra_play": extra_play,
    "missed_draw": missed_draw,
    "wrong_draw": wrong_draw,
    "card_not_in_hand": card_not_in_hand,
    "path_with_broken_tool": path_with_broken_tool,
    "illegal_placement": illegal_placement,
    "impossible_action": impossible_action,
    "missing_reveal": missing_reveal,
    "false_reveal": false_reveal,
    "play_after_round_end": play_after_round_end,
    "wrong_score": wrong_score,
    "table_incident": table_incident,
    "incomplete": incomplete,
}


# -- clean games -----------------------------------------------------------------------


def gold_path(log: LogBuilder, players: list[str]) -> LogBuilder:
    """Deal a base round (no setup card) in which ``players`` lay the straight tunnel
    (1,0)…(7,0) in turn order; the last card reaches the gold in the middle, which is
    revealed. ``round_ended`` is left to the caller."""
    cells = range(1, 8)
    codes = ["EW", "EW", "EW", "NESW", "NESW", "NESW", "NESW"]
    hands: dict[str, list[str]] = {}
    for player, code in zip(players, codes, strict=True):
        hands.setdefault(player, []).append(code)
    log.deal(start=players[0], hands=hands)
    for index, (player, x, code) in enumerate(zip(players, cells, codes, strict=True)):
        log.pass_until(player)
        log.path(player, code, x, 0, draw=index < len(codes) - 1)
    return log.reveal("middle")


def tournament_game() -> LogBuilder:
    """Three rounds at a table of six: cem (gold digger) finds the gold, then dia
    (selfish dwarf) does, then nobody does and the saboteurs win."""
    log = LogBuilder(
        players=6,
        ruleset="tournament",
        game_id="fixture:good:tournament",
        tournament="fixture-open",
        tournament_round=1,
        stage="preliminary",
        table="3",
    )
    straight_to_middle(log, ["ann", "bob", "cem", "ann", "bob", "cem"], start="ann")
    log.reveal("middle").end_round()
    second = ["cem", "dia", "eve", "fay", "ann", "dia"]
    straight_to_middle(log, second, start="cem", setup=("NEW", True), turned_over=["map", "NEW"])
    log.reveal("middle").end_round()
    log.deal(start="fay").pass_out().end_round()
    return log.end_game()


def base_game() -> LogBuilder:
    """Three rounds of the base game with three players (ann and bob dig, cem is the
    saboteur, a gold digger set aside): the gold found twice, then a round passed out."""
    log = LogBuilder(players=["ann", "bob", "cem"], ruleset="base", game_id="fixture:good:base")
    gold_path(log, ["ann", "bob", "cem", "ann", "bob", "cem", "ann"]).end_round()
    gold_path(log, ["bob", "cem", "ann", "bob", "cem", "ann", "bob"]).end_round()
    log.deal(start="cem").pass_out().end_round()
    return log.end_game()


GOOD: dict[str, Callable[[], LogBuilder]] = {
    "tournament_3_rounds": tournament_game,
    "base_3_players": base_game,
}


def write_fixtures(root: Path) -> list[Path]:
    """Write every fixture under ``root`` (``bad/`` and ``good/``); the paths written."""
    written: list[Path] = []
    (root / "bad").mkdir(parents=True, exist_ok=True)
    (root / "good").mkdir(parents=True, exist_ok=True)
    for code, make in BAD.items():
        log, line = make()
        log_path = root / "bad" / f"{code}.jsonl"
        expected_path = root / "bad" / f"{code}.expected.json"
        log_path.write_text(log.text(), encoding="utf-8", newline="")
        expected_path.write_text(json.dumps({"code": code, "line": line}) + "\n", encoding="utf-8", newline="")
        written += [log_path, expected_path]
    for name, make_game in GOOD.items():
        good_path = root / "good" / f"{name}.jsonl"
        good_path.write_text(make_game().text(), encoding="utf-8", newline="")
        written.append(good_path)
    return written


if __name__ == "__main__":
    for path in write_fixtures(HERE):
        print(path.relative_to(HERE))
