"""The penalties beside the standings as numbered notes: the PDF prints them under its
table and ``saboteur tournament standings`` under its own. Apart from
:mod:`analytics.printing`, so the text standings need not load the PDF library (fpdf,
some 0.7 s to import)."""

from __future__ import annotations

import polars as pl


def penalty_notes(frame: pl.DataFrame, penalties: pl.DataFrame) -> tuple[dict[str, list[int]], list[str]]:
    """Each penalised player's note numbers, and the notes: who, how many points, why
    (in the order the penalties were given; only players the standings penalise).

    A note is numbered by its penalty's own number, the one ``withdraw-penalty`` takes:
    numbered 1, 2, 3… down the page, a withdrawal made the notes' numbers differ from
    the penalties', and the organiser who withdrew "penalty 2" as printed withdrew
    another player's."""
    names = dict(zip(frame["player"].to_list(), frame["name"].to_list(), strict=True))
    penalised = set(frame.filter(pl.col("penalty") != 0)["player"].to_list())
    marks: dict[str, list[int]] = {}
    notes: list[str] = []
    for number, player, points, reason in penalties.select("number", "player", "points", "reason").iter_rows():
        if player not in penalised:
            continue
        notes.append(f"[{number}] {names.get(player, player)}: -{points}. {reason}")
        marks.setdefault(player, []).append(int(number))
    return marks, notes


def unheld(frame: pl.DataFrame, penalties: pl.DataFrame) -> list[tuple[str, int, str]]:
    """Penalties the standings cannot count: the player they name is not in them (a
    tournament file stored anew no longer registers them, and they played no round of
    the stage). Each as (player, points, reason), in the order given; the record keeps
    them, and they count again if the player comes back."""
    standing = set(frame["player"].to_list())
    return [
        (str(player), int(points), str(reason))
        for player, points, reason in penalties.select("player", "points", "reason").iter_rows()
        if player not in standing
    ]
