"""``saboteur tournament …``: the organiser's record of a tournament. Every command
appends events; none edits anything.

Each idea is a module of its own, as the records they append are
(:mod:`analytics.records`), and this one builds the group from them, its commands in
the order ``saboteur tournament --help`` lists them:

- **Players** (:mod:`cli.tournament.players`) — the tournament created, its players
  registered (one by one, or from a CSV list), withdrawn and returned.
- **Seatings** (:mod:`cli.tournament.seatings`) — a round seated, drawn or by hand.
- **Penalties** (:mod:`cli.tournament.penalties`) — given and withdrawn, and the
  findings they are given for or that are dismissed.
- **Corrections** (:mod:`cli.tournament.corrections`) — a round's score put right, or
  its replay accepted.
- **Cuts** (:mod:`cli.tournament.cuts`) — a stage's top cut, a tie at its line drawn.
- **Referee codes** (:mod:`cli.tournament.codes`) — issued on a sheet of cards, and
  revoked.
- **The record** (:mod:`cli.tournament.record`) — its history, and the games checked
  against the seatings and the cuts.

What they share (the console, what a record appended, a record refused) is
:mod:`cli.tournament.common`. The standings the record gives are ``saboteur
standings`` (:mod:`cli.standings`).
"""

from __future__ import annotations

import typer

from cli.tournament.codes import referee_codes, revoke_code
from cli.tournament.corrections import accept_replay, correct
from cli.tournament.cuts import cut
from cli.tournament.penalties import dismiss, penalty, withdraw_penalty
from cli.tournament.players import create, import_players, register, return_player, withdraw_player
from cli.tournament.record import check, log
from cli.tournament.seatings import seat

app = typer.Typer(
    rich_markup_mode="markdown",  # a docstring's lines join into one paragraph, wrapped to the terminal
    help="Create a tournament, register and seat players, and keep its record.",
    no_args_is_help=True,
)
app.command()(create)
app.command()(register)
app.command("import-players")(import_players)
app.command()(seat)
app.command()(penalty)
app.command("withdraw-penalty")(withdraw_penalty)
app.command("withdraw-player")(withdraw_player)
app.command("return-player")(return_player)
app.command()(correct)
app.command("accept-replay")(accept_replay)
app.command()(dismiss)
app.command()(cut)
app.command("referee-codes")(referee_codes)
app.command("revoke-code")(revoke_code)
app.command()(log)
app.command()(check)
