"""``saboteur simulate``: write simulated game logs and whole tournaments."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, cast, get_args

import typer
from rich.markup import escape

from cli import counted
from cli.output import Terminal as Console
from cli.paths import checked_output, output_path
from cli.speech import one_of, speaking, told
from events.logfile import write_log
from events.records.tournament_file import NAME_MOST
from events.rules.tournament import CUT, check_cut, check_final_rounds, check_players, check_preliminary_rounds
from events.said import Refusal, Said, say
from events.schema import GAME_ID_CHARACTERS, Recording
from events.simulate.game import GameSpec, simulate_game
from events.simulate.lineup import Lineup
from events.simulate.tournament import simulate_tournament
from events.tables import PLAYER_RANGE, ROUND_LIMIT

app = typer.Typer(
    rich_markup_mode="markdown",  # a docstring's lines join into one paragraph, wrapped to the terminal
    help="Write simulated, rule-abiding game logs and tournaments.",
    no_args_is_help=True,
)

RecordingOption = Annotated[
    str, typer.Option(help="full (every hidden card) or observed (what a referee at the table sees).")
]
NotesOption = Annotated[
    float,
    typer.Option(
        "--referee-notes",
        min=0.0,
        max=1.0,
        help="The chance that a turn gets a referee_note (R-C1) beside it, for tests and demonstrations.",
    ),
]


BotsOption = Annotated[
    str,
    typer.Option(
        "--bots",
        help="Which bots play: basic or strong for every role, or role by role "
        "(gold_digger=strong,saboteur=basic,selfish_dwarf=strong; roles left out play basic).",
    ),
]


def rounds_allowed(ruleset: str) -> Said:
    """The refusal of a number of rounds a game of ``ruleset`` cannot have."""
    return say(
        "under the %(ruleset)s rules a game has 1 to %(most)s rounds", ruleset=ruleset, most=ROUND_LIMIT[ruleset]
    )


def lineup(value: str) -> Lineup:
    """The ``--bots`` lineup asked for, or a usage error saying which part is wrong."""
    try:
        return Lineup.parse(value)
    except Refusal as exc:
        raise typer.BadParameter(told(exc.said), param_hint="--bots") from None


def _recording(value: str) -> Recording:
    """The ``--recording`` asked for, or a usage error naming the two there are."""
    if value not in get_args(Recording):
        raise typer.BadParameter(one_of(*get_args(Recording)), param_hint="--recording")
    return cast(Recording, value)


def _check_id(given: str | None, option: str) -> None:
    """A game's or a tournament's id as the log format allows it (event-log.md), or the
    option refused in words (it was pydantic's, after a folder was made)."""
    if given is not None and not re.fullmatch(GAME_ID_CHARACTERS, given):
        said = say("1 to 128 of A-Z a-z 0-9 _ . : -, not %(given)s", given=repr(given))
        raise typer.BadParameter(told(said), param_hint=option)


@app.command("game")
@speaking
def game(
    out: Annotated[
        Path, typer.Option("-o", "--output", help="The log file to write (.jsonl or .jsonl.gz).", parser=output_path)
    ],
    players: Annotated[int, typer.Option(help="Players at the table.")] = 6,
    ruleset: Annotated[str, typer.Option(help="tournament or base.")] = "tournament",
    rounds: Annotated[int, typer.Option(help="Rounds in the game.")] = 3,
    seed: Annotated[int, typer.Option(help="Seed: the same seed writes the same game.")] = 0,
    game_id: Annotated[str | None, typer.Option(help="The game's id (default: sim:RULESET:PLAYERS:SEED).")] = None,
    recording: RecordingOption = "full",
    referee_notes: NotesOption = 0.0,
    bots: BotsOption = "basic",
) -> None:
    """Simulate one game at one table and write its log."""
    checked_output(out)
    chosen = lineup(bots)
    if ruleset not in PLAYER_RANGE:
        raise typer.BadParameter(one_of(*PLAYER_RANGE), param_hint="--ruleset")
    low, high = PLAYER_RANGE[ruleset]
    if not low <= players <= high:
        said = say(
            "under the %(ruleset)s rules a table seats %(low)s to %(high)s players", ruleset=ruleset, low=low, high=high
        )
        raise typer.BadParameter(told(said), param_hint="--players")
    if not 1 <= rounds <= ROUND_LIMIT[ruleset]:
        raise typer.BadParameter(told(rounds_allowed(ruleset)), param_hint="--rounds")
    _check_id(game_id, "--game-id")
    names = tuple(f"p{i + 1}" for i in range(players))
    spec = GameSpec(
        game_id or f"sim:{ruleset}:{players}:{seed}",
        names,
        ruleset,
        rounds,
        seed,
        recording=_recording(recording),
        referee_notes=referee_notes,
        bots=chosen,
    )
    events = simulate_game(spec)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_log(events, out)
    wrote = say(
        "wrote %(file)s: %(events)s, %(rounds)s at a table of %(players)s",
        file=str(out),
        events=counted.events(len(events)),
        rounds=counted.rounds(rounds),
        players=players,
    )
    Console(stderr=True).print(escape(told(wrote)))


@app.command("tournament")
@speaking
def tournament(
    out: Annotated[
        Path,
        typer.Option("-o", "--output", help="The folder to write the logs and tournament.json to.", parser=output_path),
    ],
    players: Annotated[int, typer.Option(help="Players registered.")] = 36,
    preliminary_rounds: Annotated[int, typer.Option(help="Preliminary tournament rounds (R-TS1).")] = 4,
    seed: Annotated[int, typer.Option(help="Seed: the same seed writes the same tournament.")] = 7,
    cut: Annotated[int, typer.Option(help="Players going to the final table (R-TS3).")] = CUT,
    final_rounds: Annotated[int, typer.Option(help="Rounds at the final table (R-TS4).")] = 4,
    tournament_id: Annotated[str | None, typer.Option("--id", help="The tournament's id.")] = None,
    name: Annotated[str | None, typer.Option(help="The tournament's display name.")] = None,
    gzip: Annotated[bool, typer.Option("--gzip/--no-gzip", help="Write .jsonl.gz logs.")] = False,
    recording: RecordingOption = "full",
    referee_notes: NotesOption = 0.0,
    bots: BotsOption = "basic",
) -> None:
    """Simulate a whole tournament: preliminary rounds, the top cut and the final table."""
    checked_output(out, folder=True)
    chosen = _recording(recording)
    players_bots = lineup(bots)
    for breach, option in (
        (check_players(players), "--players"),
        (check_cut(cut), "--cut"),
        (check_final_rounds(final_rounds), "--final-rounds"),
        (check_preliminary_rounds(preliminary_rounds), "--preliminary-rounds"),
    ):
        if breach is not None:
            raise typer.BadParameter(told(breach.said), param_hint=option)
    if cut > players:
        said = say("a cut of %(cut)s from %(count)s players", cut=cut, count=players)
        raise typer.BadParameter(told(said), param_hint="--cut")
    _check_id(tournament_id, "--id")
    if name is not None and not 0 < len(name) <= NAME_MOST:
        raise typer.BadParameter(told(say("1 to %(most)s characters", most=NAME_MOST)), param_hint="--name")
    record = simulate_tournament(
        out,
        players=players,
        preliminary_rounds=preliminary_rounds,
        seed=seed,
        cut=cut,
        final_rounds=final_rounds,
        tournament_id=tournament_id,
        name=name,
        gzip=gzip,
        recording=chosen,
        referee_notes=referee_notes,
        bots=players_bots,
    )
    wrote = say(
        "wrote %(count)s game logs and tournament.json for %(tournament)s to %(folder)s",
        count=len(record.files),
        tournament=record.id,
        folder=str(out),
    )
    Console(stderr=True).print(escape(told(wrote)))
