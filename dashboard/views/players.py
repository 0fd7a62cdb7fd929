"""Players (public): one player's rounds, roles, win rates and points over time; with a
tournament chosen, the player's card (chess-results' is the model): where they stand
and why, and round by round their table, seat, the others there, each game round's
role, result and points as the standings count them.

The address names the player (``/players?player=ID``, ``&tournament=ID``), so a
player's card can be shared."""

from __future__ import annotations

from typing import Any

import polars as pl
import streamlit as st

from analytics.filters import Filters
from dashboard import charts, data, i18n, sentences, widgets
from dashboard import names as words
from dashboard.i18n import _, ngettext
from dashboard.markup import escape, isolated, table

# The container of the player's card (its ``st-key-…`` class), named by PHONE_CSS.
CARD = "players_card"
# On a phone each table the player sat at fits the screen: in Dutch, German and
# Norwegian its words ("Partierunde", "egoistischer Zwerg", "gewonnen, Stern") made it
# 357–390 px wide at 320–390 px, and the whole page scrolled sideways. The text a
# little smaller and the cells closer, as the standings' (the headings kept whole, a
# cell's words wrapped between them, hyphenated where the language allows). (A
# comment, not a docstring: a page's bare string is written on the page.)
PHONE_CSS = f"""<style>
@media screen and (max-width: 640px) {{
  .st-key-{CARD} table {{ width: 100%; font-size: 0.8rem; }}
  .st-key-{CARD} th, .st-key-{CARD} td {{ padding: 0.25rem 0.3rem; hyphens: auto; }}
  .st-key-{CARD} th {{ white-space: nowrap; }}
}}
</style>"""


def standing_of(tournament: str, stage: str, player: str) -> dict[str, Any] | None:
    """The player's row of a stage's standings (with ``why``), its rank written as the
    standings write it (``shown``: ``3=`` where shared), or ``None``."""
    standing = sentences.with_reasons(data.standings(tournament, stage))
    found = standing.with_columns(shown=pl.Series(words.ranks(standing))).filter(pl.col("player") == player)
    return found.row(0, named=True) if found.height else None


def standing_line(said: str, row: dict[str, Any], points: int, stars: int) -> None:
    """``said`` ("**Place %(place)s** …, %(points)s, %(stars)s.") filled in for ``row``."""
    scored = ngettext("%(num)d point", "%(num)d points", points) % {"num": points}
    starred = ngettext("%(num)d star", "%(num)d stars", stars) % {"num": stars}
    st.markdown(said % {"place": row["shown"], "points": scored, "stars": starred})


def later_stages(tournament: str, player: str) -> None:
    """Where the player stands in a semi-final or at the final table they played in,
    once that stage has games: a finalist's card told the preliminary place alone."""
    for stage in data.stages(tournament)[1:]:
        if not data.stage_counts(tournament, stage)[0]:
            continue
        row = standing_of(tournament, stage, player)
        if row is None:
            continue
        if stage == "final":
            said = _("**Place %(place)s** at the final table, %(points)s, %(stars)s.")
            standing_line(said, row, row["final_points"], row["final_stars"])
        else:
            said = _("**Place %(place)s** in the semi-final standings, %(points)s, %(stars)s.")
            standing_line(said, row, row["points"], row["stars"])


def card(tournament: str, player: str, rounds: pl.DataFrame) -> None:
    """The player's card in one tournament: standing, then each table they sat at
    (``rounds``: the player's finished rounds there)."""
    row = standing_of(tournament, "preliminary", player)
    if row is not None:
        said = _("**Place %(place)s** in the preliminary standings, %(points)s, %(stars)s.")
        standing_line(said, row, row["points"], row["stars"])
        with st.expander(_("Why ranked here")):
            st.markdown(escape(row["why"]))
    later_stages(tournament, player)
    names = data.player_names(tournament)
    counted = pl.concat([data.scored_rounds(tournament, stage) for stage in data.stages(tournament)])
    # each round's points and star as the standings count them: corrections applied
    scored = {
        (g, r): (p, star)
        for g, r, p, star in counted.filter(pl.col("player") == player)
        .select("game_id", "round", "points", "star")
        .iter_rows()
    }
    for game in data.player_games(tournament, player).iter_rows(named=True):
        others = ", ".join(escape(names.get(p, p)) for p in game["opponents"])
        number = game["tournament_round"]
        heading = _("Round %(num)d") % {"num": number} if number is not None else _("Game")
        where = _("table %(table)s · seat %(seat)s") % {
            "table": escape(isolated(game["table"] or "–")),
            "seat": "–" if game["seat"] is None else game["seat"],
        }
        with_ = _("with %(players)s") % {"players": others}
        st.markdown(f"**{heading} · {escape(words.stage(game['stage']))} · {where}**  \n{with_}")
        played = rounds.filter(pl.col("game_id") == game["game_id"]).sort("round")
        st.markdown(
            table(
                [_("game round"), words.column("role"), _("result"), words.column("points")],
                (
                    [r["round"], words.role(r["role"] or ""), words.result(r["won"], bool(star)), points]
                    for r in played.iter_rows(named=True)
                    for points, star in [scored.get((r["game_id"], r["round"]), (r["points"], r["star"]))]
                ),
            )
        )


st.title(_("Players"))
everyone = data.player_stats(Filters())
if everyone.is_empty():
    st.info(_("No rounds are stored yet."))
    st.stop()

names = dict(zip(everyone["player"].to_list(), everyone["name"].to_list(), strict=True))
known_as = data.registered_names()
offered = {player: widgets.player_option(player, known_as.get(player, [])) for player in names}
ordered = sorted(names, key=lambda p: ((known_as.get(p) or [names[p]])[0].casefold(), p))  # by name, not its marks
top = st.columns([2, 2])
EVERY_GAME = _("(every tournament and game)")
asked = st.query_params.get("player")
if asked in names and "players_player" not in st.session_state:
    st.session_state["players_player"] = asked
asked_tournament = st.query_params.get("tournament")
if asked_tournament is not None and "players_tournament" not in st.session_state:
    st.session_state["players_tournament"] = asked_tournament
elif asked in names and "players_tournament" not in st.session_state:
    # a link to a player alone shows all their rounds, not those of the newest tournament
    st.session_state["players_tournament"] = EVERY_GAME
if "players_player" not in st.session_state:
    # the page opens on the tournament the picker opens on: open on a player of it, not on
    # the first name of every tournament ("no finished rounds of this player" at once)
    opening = st.session_state.get("players_tournament")
    if opening is None:
        opening = next(iter(widgets.newest_first(data.tournaments().filter(pl.col("games") > 0))), None)
    if opening is not None and opening != EVERY_GAME:
        played = set(data.player_stats(Filters(tournament=opening))["player"].to_list())
        widgets.open_on("players_player", [p for p in ordered if p in played] or ordered)
with top[0]:
    widgets.keep_choice("players_player", ordered)
    player = st.selectbox(_("Player"), ordered, format_func=offered.__getitem__, key="players_player")
with top[1]:
    tournament = widgets.tournament_picker(
        data.tournaments(), key="players_tournament", label=_("Tournament"), all_option=EVERY_GAME
    )
assert player is not None
widgets.show_in_address(
    {"player": player, **({"tournament": tournament} if tournament else {}), "lang": i18n.language()}
)

rounds = data.player_rounds(player, tournament)
in_tournament = data.player_names(tournament) if tournament is not None else {}
named = widgets.player_heading(player, names[player], known_as.get(player, []), in_tournament)
st.header(escape(named))
if rounds.is_empty():
    if tournament is None:
        st.info(_("No finished rounds of this player match."))
    else:
        st.info(
            _("No finished rounds of this player in this tournament: choose %(all)s to see all their rounds.")
            % {"all": EVERY_GAME}
        )
    st.stop()

mine = data.player_stats(Filters(tournament=tournament)).filter(pl.col("player") == player)
base = rounds.filter(pl.col("ruleset") == "base")
summary = st.columns(6 if base.height else 5)
summary[0].metric(_("Rounds"), rounds.height)
summary[1].metric(_("Wins"), int(rounds["won"].sum()))
summary[2].metric(_("Win rate"), i18n.percent(rounds["won"].cast(pl.Float64).mean()))
summary[3].metric(
    _("Round points"),
    int(rounds.filter(pl.col("ruleset") == "tournament")["points"].fill_null(0).sum()),
    help=_("Each round's points as played, before corrections and penalties: the standings count those."),
)
summary[4].metric(
    _("Stars"),
    int(rounds["star"].sum()),
    help=_("Each round's stars as played, before corrections: the standings count those."),
)
if base.height:
    summary[5].metric(
        _("Gold (base game)"),
        int(base["points"].fill_null(0).sum()),
        help=_("The nuggets of the base game's rounds: not points, so counted apart."),
    )
if mine.height:
    expected = mine["expected_wins"][0]
    if expected is not None:
        average = _(
            "Roles are dealt, not chosen: with the roles dealt, an average player would have won "
            "%(expected)s of these rounds; %(player)s won %(wins)d."
        )
        st.caption(average % {"expected": i18n.number(expected, 1), "player": escape(named), "wins": mine["wins"][0]})

if tournament is not None:
    st.html(PHONE_CSS)
    with st.container(key=CARD):
        card(tournament, player, rounds)

st.subheader(_("By role"))
by_role = data.player_roles(rounds).with_columns(words.plain("role", words.ROLES))
st.dataframe(
    by_role,
    hide_index=True,
    width="stretch",
    column_config={**words.headers(by_role.columns), **widgets.win_rate_columns()},
)

st.subheader(_("Points over time"))
st.altair_chart(charts.points_over_time(rounds), width="stretch")

st.subheader(_("Rounds"))
# the round's role and result first, where it was played after (they stood past the
# table's right edge on a laptop, behind the time, the tournament and the game's id)
shown = ("started_at", "role", "points", "star", "won", "winner", "tournament", "stage", "tournament_round", "table")
listed = rounds.select(*shown, "round", "game_id").with_columns(
    words.plain("stage", words.STAGES), words.plain("role", words.ROLES), words.plain("winner", words.WINNERS)
)
if listed.height > data.ROUNDS_SHOWN:  # a regular of years of club nights: the newest, as the Rounds page caps its list
    newest = _("Showing the newest %(listed)s of %(matched)s rounds.")
    st.caption(newest % {"listed": i18n.number(data.ROUNDS_SHOWN), "matched": i18n.number(listed.height)})
    listed = listed.tail(data.ROUNDS_SHOWN)
st.dataframe(
    words.visible_columns(listed), hide_index=True, width="stretch", column_config=words.headers(listed.columns)
)
