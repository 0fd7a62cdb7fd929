"""The simulator: tables, tournaments, bots that know only what they may, the CLI."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from random import Random

import pytest
from typer.testing import CliRunner

from cli.main import app
from events import cards
from events.audit import audit_file
from events.logfile import LogLine, write_log
from events.observe import observe
from events.replay import Replay
from events.rules.tournament import table_sizes
from events.schema import GameStarted, RoundEnded, dump_event
from events.simulate.bots import choose
from events.simulate.game import GameSpec, Table, quick_game
from events.simulate.mutate import mutate
from events.simulate.tournament import Standing, simulate_tournament, top_cut

runner = CliRunner()


@pytest.mark.parametrize(
    ("players", "sizes"),
    [
        (5, (5,)),
        (6, (6,)),
        (11, (6, 5)),
        (12, (6, 6)),
        (36, (6,) * 6),
        (37, (7, 6, 6, 6, 6, 6)),
        (40, (6,) * 5 + (5, 5)),
    ],
)
def test_r_ts1_tables_of_six_where_possible(players: int, sizes: tuple[int, ...]) -> None:
    assert table_sizes(players) == sizes


@pytest.mark.parametrize("players", range(5, 130))
def test_r_ts1_every_table_seats_five_to_ten(players: int) -> None:
    sizes = table_sizes(players)
    assert sum(sizes) == players
    assert all(5 <= size <= 10 for size in sizes)


def test_fewer_than_five_players_cannot_be_seated() -> None:
    with pytest.raises(ValueError, match="5 to 10"):
        table_sizes(4)


def test_a_seed_writes_the_same_game_and_another_seed_another() -> None:
    first = [dump_event(e) for e in quick_game(6, "tournament", 3, 42)]
    assert first == [dump_event(e) for e in quick_game(6, "tournament", 3, 42)]
    assert first != [dump_event(e) for e in quick_game(6, "tournament", 3, 43)]


def test_games_see_every_kind_of_play_and_outcome() -> None:
    """Plausible games: over a few dozen, every card play and every winner shows up."""
    kinds: Counter[str] = Counter()
    winners: Counter[str] = Counter()
    for seed in range(40):
        for event in quick_game(6, "tournament", 3, seed):
            kinds[event.type] += 1
            if isinstance(event, RoundEnded):
                winners[event.winner] += 1
    assert {"play_path", "play_tool", "play_rockfall", "play_map", "discard", "draw", "goal_revealed"} <= set(kinds)
    assert {"gold_diggers", "saboteurs", "selfish_dwarf"} <= set(winners)


def test_base_games_with_three_or_four_players_can_have_no_saboteur() -> None:
    winners = Counter(
        e.winner for seed in range(60) for e in quick_game(3, "base", 3, seed) if isinstance(e, RoundEnded)
    )
    assert winners["nobody"] > 0
    assert winners["gold_diggers"] > 0


def _mid_game_table(seed: int) -> Table:
    table = Table(GameSpec("knowledge", ("a", "b", "c", "d", "e", "f"), "tournament", 1, seed))
    for event in quick_game(["a", "b", "c", "d", "e", "f"], "tournament", 1, seed)[:30]:
        table.events.append(event)
        table.replay.feed(LogLine(len(table.events), event))
    return table


@pytest.mark.parametrize("seed", range(8))
def test_bots_choose_from_what_their_player_can_know(seed: int) -> None:
    """Swapping the face-down goals a player has not seen never changes their play."""
    table = _mid_game_table(seed)
    rs = table.round
    player = table._next_player()
    view = table._view(player)
    before = choose(view, Random(seed))
    unseen = [s for s in cards.SLOTS if rs.maze.face_down(s) and s not in view.seen_goals]
    if len(unseen) < 2:
        pytest.skip("fewer than two unseen goals in this position")
    a, b = (cards.GOAL_CELLS[s] for s in unseen[:2])
    rs.maze.cells[a].card, rs.maze.cells[b].card = rs.maze.cells[b].card, rs.maze.cells[a].card
    assert choose(table._view(player), Random(seed)) == before


def test_a_tournament_is_written_whole_and_audits_clean(tmp_path: Path) -> None:
    record = simulate_tournament(tmp_path, players=13, preliminary_rounds=2, seed=3, cut=6, final_rounds=4)
    description = json.loads((tmp_path / "tournament.json").read_text())
    assert description["id"] == record.id
    assert len(description["players"]) == 13
    assert len({p["name"] for p in description["players"]}) == 13
    assert [s["tournament_round"] for s in description["seatings"]] == [1, 2, 3]
    seated = {(s["tournament_round"], t["table"]): t["players"] for s in description["seatings"] for t in s["tables"]}
    for path in record.files:
        result = audit_file(path)
        assert result.status == "clean", [f.describe() for f in result.findings]
        header = json.loads(path.read_text().splitlines()[0])
        game = GameStarted.model_validate(header)
        assert game.tournament == record.id
        assert seated[(game.tournament_round, game.table)] == game.players
        assert game.rounds == (4 if game.stage == "final" else 3)
    final = json.loads((tmp_path / "final.jsonl").read_text().splitlines()[0])
    assert final["stage"] == "final" and len(final["players"]) == 6


def test_r_ts2_a_tie_at_the_cut_line_is_drawn_and_recorded() -> None:
    standings = {p: Standing(10, 1) for p in "abcdefgh"}
    standings["a"] = Standing(20, 2)
    chosen, draws = top_cut(standings, 6, Random(1))
    assert chosen[0] == "a"
    assert len(chosen) == 6
    assert draws == [{"tied": list("bcdefgh"), "places": 5, "drawn": chosen[1:], "points": 10, "stars": 1}]


def test_r_ts2_stars_break_a_points_tie_without_a_draw() -> None:
    standings = {p: Standing(10, 0) for p in "abcdefg"}
    standings["g"] = Standing(10, 3)
    standings["a"] = Standing(9, 5)
    chosen, draws = top_cut(standings, 6, Random(1))
    assert chosen[0] == "g" and "a" not in chosen and draws == []


def test_cli_simulate_game_writes_a_clean_log(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl.gz"
    result = runner.invoke(
        app, ["simulate", "game", "--players", "4", "--ruleset", "base", "--seed", "7", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert audit_file(out).status == "clean"


def test_cli_simulate_refuses_a_table_the_rules_do_not_allow(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["simulate", "game", "--players", "4", "--ruleset", "tournament", "-o", str(tmp_path / "x")]
    )
    assert result.exit_code == 2
    assert "5 to 10" in " ".join(re.sub("[│╭╮╰╯─]", " ", result.output).split())


def test_cli_simulate_tournament(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        ["simulate", "tournament", "--players", "12", "--preliminary-rounds", "1", "--seed", "2", "-o", str(tmp_path)],
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "tournament.json").exists()
    assert sorted(p.name for p in tmp_path.glob("*.jsonl")) == ["final.jsonl", "r1-t1.jsonl", "r1-t2.jsonl"]


def test_mutate_names_its_mutations() -> None:
    lines = [dump_event(e) for e in quick_game(5, "tournament", 1, 0)]
    with pytest.raises(KeyError, match="known"):
        mutate(lines, "no_such_thing")


def test_simulated_lines_replay_without_findings_in_strict_mode() -> None:
    engine = Replay(strict=True)
    text = write_log(quick_game(10, "base", 3, 5))
    for number, line in enumerate(text.splitlines(), start=1):
        from events.logfile import parse_line

        engine.feed(parse_line(number, line))
    assert not engine.finish()


def test_cli_simulate_writes_either_recording_of_the_same_game(tmp_path: Path) -> None:
    full, seen = tmp_path / "full.jsonl", tmp_path / "seen.jsonl"
    game = ["simulate", "game", "--players", "7", "--seed", "4"]
    assert runner.invoke(app, [*game, "-o", str(full)]).exit_code == 0
    result = runner.invoke(app, [*game, "--recording", "observed", "-o", str(seen)])
    assert result.exit_code == 0, result.output
    assert seen.read_bytes() == observe(full.read_bytes())  # one contract, no second writer
    assert audit_file(seen).status == "clean"
    assert audit_file(seen).outcomes == audit_file(full).outcomes


def test_cli_simulate_puts_referee_notes_in_on_request(tmp_path: Path) -> None:
    out = tmp_path / "noted.jsonl"
    result = runner.invoke(app, ["simulate", "game", "--seed", "4", "--referee-notes", "0.2", "-o", str(out)])
    assert result.exit_code == 0, result.output
    notes = [n for n, line in enumerate(out.read_text().splitlines(), start=1) if '"type":"referee_note"' in line]
    assert notes
    assert [(f.code.value, f.line) for f in audit_file(out).findings] == [("table_incident", n) for n in notes]


@pytest.mark.parametrize("option", [["--recording", "seen"], ["--referee-notes", "1.5"], ["--referee-notes", "-0.1"]])
def test_cli_simulate_refuses_a_recording_or_rate_it_does_not_know(tmp_path: Path, option: list[str]) -> None:
    result = runner.invoke(app, ["simulate", "game", *option, "-o", str(tmp_path / "x.jsonl")])
    assert result.exit_code == 2
    assert not (tmp_path / "x.jsonl").exists()


def test_cli_simulate_an_observed_tournament_with_notes(tmp_path: Path) -> None:
    args = ["--players", "12", "--preliminary-rounds", "1", "--seed", "2", "--recording", "observed"]
    result = runner.invoke(app, ["simulate", "tournament", *args, "--referee-notes", "0.1", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    logs = sorted(tmp_path.glob("*.jsonl"))
    assert [p.name for p in logs] == ["final.jsonl", "r1-t1.jsonl", "r1-t2.jsonl"]
    for path in logs:
        assert '"recording":"observed"' in path.read_text().splitlines()[0]
        assert {f.code.value for f in audit_file(path).findings} <= {"table_incident"}
