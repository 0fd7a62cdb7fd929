"""How a simulated game is written down: the full log as played, with referee notes if
asked, in either recording.

The table plays one game; what is written of it is decided afterwards, so neither choice
touches the play: the notes come from a generator of their own (seeded from the game's
seed), and the observed log is the full log passed through :func:`events.observe.observe`,
the one contract between the two recordings (no second writer that could drift from it).
With no notes and the full recording the events are the ones played, unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Final, get_args

from events.logfile import parse_data, write_log
from events.observe import observe
from events.schema import CardEvent, Draw, Event, GameStarted, GoalRevealed, NoteKind, Recording, RefereeNote

NOTE_KINDS: Final = get_args(NoteKind)
NOTE_WORDS: Final = (
    "",
    "seen by the referee",
    "pointed out by a neighbour",
    "corrected at once",
    "second time this game",
    "player warned",
)
"""Short free texts for simulated notes (the empty note is allowed too)."""


def with_notes(events: Sequence[Event], rate: float, rng: Random) -> list[Event]:
    """``events`` with a ``referee_note`` (R-C1) put into each turn with probability
    ``rate``, somewhere in the turn: before its card, between the card and its draw or
    reveals, or after them. A note changes no state, so the game written around it is
    the same; each note names a random kind of error, a random player (or none) and a
    short text. It carries no time (``at`` is optional), so it can never put the log's
    times out of order, whatever lines stand around it.
    """
    if rate <= 0:
        return list(events)
    header = events[0]
    assert isinstance(header, GameStarted), "a log starts with game_started"
    players = (*header.players, None)
    before: dict[int, list[RefereeNote]] = {}
    for start, event in enumerate(events):
        if not isinstance(event, CardEvent) or rng.random() >= rate:
            continue
        end = start + 1  # the turn runs on through its reveals and its draw
        while end < len(events) - 1 and isinstance(events[end], GoalRevealed | Draw):
            end += 1
        at = rng.randint(start, min(end, len(events) - 1))
        note = RefereeNote(
            type="referee_note", player=rng.choice(players), error=rng.choice(NOTE_KINDS), note=rng.choice(NOTE_WORDS)
        )
        before.setdefault(at, []).append(note)
    return [note_or_event for index, event in enumerate(events) for note_or_event in (*before.get(index, ()), event)]


def as_recorded(events: Sequence[Event], recording: Recording) -> list[Event]:
    """A full log's events as ``recording`` writes them: unchanged when ``full``; the
    events of :func:`~events.observe.observe`'s log when ``observed``."""
    if recording == "full":
        return list(events)
    lines = parse_data(observe(write_log(events).encode()))
    return [line.event for line in lines if line.event is not None]


def written(
    events: Sequence[Event], *, recording: Recording = "full", notes: float = 0.0, seed: int = 0
) -> list[Event]:
    """A played game's events as its log is written: notes put in at the per-turn
    ``notes`` rate (deterministic for ``seed``), then in the ``recording`` asked for."""
    return as_recorded(with_notes(events, notes, Random(f"referee-notes:{seed}")), recording)
