"""Standings (public): points, stars, penalties and their reasons, the cut line, ties,
why each player stands where they do; beneath, the record's integrity.

The standings are one table of text (every name through
:func:`dashboard.markup.html_table`), not a grid drawn on a canvas: full names on a
phone, found by the browser's search, printed as they show; the cut line is a row inside
it. The table, and the list of why each player stands where they do, are each one
element of HTML, not Markdown, and not one element a player: with 2,000 players
Streamlit's Markdown took some 15 s to draw the table, and the whys were 2,000 elements
sent anew at every refresh. The download holds every row and column, "why" and its
``reasons`` included, as the command line's CSV does, a cell written like a formula
kept text for the spreadsheet.

The standings follow the store by themselves (``dashboard.live``): a game that ends at
its table shows here within a few seconds, with the tournament and stage chosen kept.
They are drawn when the page runs; the live part beneath them only looks every few
seconds whether what they are drawn from changed, and runs the page again if it did:
unchanged, nothing is drawn or sent again. The integrity part is read when the page
runs: while tables are being recorded the chain grows at every entry, and verifying it
at each refresh would be work for nothing."""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Any

import polars as pl
import streamlit as st

from analytics.browse import cut_of
from analytics.penalty_notes import unheld
from analytics.spreadsheet import csv_text
from analytics.standings import above_the_cut
from dashboard import access, data, i18n, names, printout, sentences, widgets
from dashboard.i18n import _, ngettext
from dashboard.live import live
from dashboard.markup import Bold, escape, html_list, html_table, isolated, table
from ingest.store import StoreError

# Chains up to this many events are verified when the page opens; longer ones on request.
AUTO_VERIFY = 50_000
STAGE_OF = "standings_stage_of"  # the tournament the stage chosen belongs to
CUT_MARK = "- - - - -"  # the cells either side of the cut line's words, in its row of the table
# The containers of the two tables and of the whys (their ``st-key-…`` classes), named by PHONE_CSS.
PRELIMINARY_TABLE = "standings_table"
FINAL_TABLE = "standings_final_table"
WHYS = "standings_why"
JUST_DRAWN = "standings_just_drawn"  # set by the page's run for the live part that follows it
# On a phone the standings fit the screen: the table's text a little smaller (a word
# too long for its cell broken there, on every screen: widgets.PAGE_STYLE), and the
# columns a player reads least (rounds played; the final's preliminary points and
# stars) left off. The desk, the paper, the CSV and the PDF keep them all. The whys,
# one list, are spaced as they were when each was an element of its own. (Comments,
# not docstrings: a page's bare string is written on the page.)
PHONE_CSS = """<style>
.st-key-standings_why li + li { margin-top: calc(1rem + 0.2em); }
@media screen and (max-width: 640px) {
  .st-key-standings_table table, .st-key-standings_final_table table { width: 100%; font-size: 0.8rem; }
  .st-key-standings_table th, .st-key-standings_table td,
  .st-key-standings_final_table th, .st-key-standings_final_table td {
    padding: 0.25rem 0.25rem;
  }
  .st-key-standings_table th, .st-key-standings_final_table th { white-space: nowrap; }
  .st-key-standings_table th:nth-child(5), .st-key-standings_table td:nth-child(5),
  .st-key-standings_final_table th:nth-child(n+5):nth-child(-n+6),
  .st-key-standings_final_table td:nth-child(n+5):nth-child(-n+6) { display: none; }
}
</style>"""

st.title(_("Standings"))
tournaments = data.tournaments()
if tournaments.is_empty():
    st.info(_("No tournament is stored yet: ingest a tournament.json or games that name a tournament."))
    st.stop()

left, right = st.columns([3, 2])
with left:
    tournament = widgets.tournament_picker(
        tournaments, key="standings_tournament", label=_("Tournament"), asked=st.query_params.get("tournament")
    )
assert tournament is not None
with right:
    stages = data.stages(tournament)
    if st.session_state.get(STAGE_OF) != tournament:  # a stage chosen for one tournament is not another's
        asked = st.query_params.get("stage") if STAGE_OF not in st.session_state else None  # the address, at first
        st.session_state["standings_stage"] = asked if asked in stages else stages[0]
        st.session_state[STAGE_OF] = tournament
    widgets.keep_choice("standings_stage", stages)
    stage = st.radio(_("Stage"), stages, horizontal=True, format_func=names.stage, key="standings_stage")
assert stage is not None

row = tournaments.filter(pl.col("tournament") == tournament).row(0, named=True)
printout.print_layout(row["name"], stage)
st.html(PHONE_CSS)


def notes(item: dict[str, Any]) -> str:
    """What a row of the preliminary standings needs said: a withdrawal, its tie, its
    open findings."""
    said = []
    if item.get("withdrawn"):
        said.append(_("withdrew: the cut passes over them"))
    if item["cut_tie_undrawn"]:
        said.append(_("tied across the cut: not drawn"))
    elif item["cut_drawn"]:
        said.append(_("placed by the cut draw"))
    elif item["shared"]:
        said.append(_("shared rank"))
    if item["open_findings"]:
        said.append(open_findings(item["open_findings"]))
    return "; ".join(said)


def open_findings(count: int) -> str:
    """A row's open findings, as its notes say them; nothing for none."""
    return ngettext("%(num)d open finding", "%(num)d open findings", count) % {"num": count} if count else ""


def penalty(points: int) -> str:
    """A penalty as the points it takes; nothing for none."""
    return f"-{points}" if points else ""


def preliminary_table(frame: pl.DataFrame, cut: int, goes_to: str = "final") -> str:
    """The standings as one table of text (HTML), the cut line a row inside it: the
    top ``cut`` go on to the stage ``goes_to`` (:func:`analytics.browse.cut_of`)."""
    columns = [names.column(c) for c in ("rank", "player", "points", "stars", "rounds", "penalty", "notes")]
    lines: list[list[object]] = [
        [
            f"{item['rank']}=" if item["shared"] else str(item["rank"]),
            item["name"],
            item["points"],
            item["stars"],
            item["rounds"],
            penalty(item["penalty"]),
            notes(item),
        ]
        for item in frame.iter_rows(named=True)
    ]
    above = above_the_cut(frame)
    if above < len(lines):
        # our own words, bold (escaped as every cell is)
        line = (
            _("cut line: the top %(cut)d go on to the semi-final")
            if goes_to == "semifinal"
            else _("cut line: the top %(cut)d go on to the final")
        )
        lines.insert(above, [CUT_MARK, Bold(line % {"cut": cut}), *[CUT_MARK] * (len(columns) - 2)])
    return html_table(columns, lines)


def final_table(frame: pl.DataFrame) -> str:
    """The final table's standings as one table of text (HTML), each row's open findings
    in its notes, as the preliminaries' are."""
    columns = [
        names.column(c)
        for c in ("rank", "player", "points", "stars", "preliminary_points", "preliminary_stars", "penalty", "notes")
    ]
    return html_table(
        columns,
        (
            [
                rank,  # 2= for two level on every tie-breaker, as in the preliminaries
                item["name"],
                item["final_points"],
                item["final_stars"],
                item["preliminary_points"],
                item["preliminary_stars"],
                penalty(item["penalty"]),
                open_findings(item["open_findings"]),  # as the note under the table says: beside the player
            ]
            for rank, item in zip(names.ranks(frame), frame.iter_rows(named=True), strict=True)
        ),
    )


def seating_notice(tournament: str) -> None:
    """Above the standings, while any is open: the players whose game was at another
    table than the published seating gave them — their points count as played until
    the organiser settles it. Counted by player (one at the wrong table in three rounds
    is one player, and three findings, each said)."""
    misplaced = data.open_findings(tournament).filter(pl.col("code") == "wrong_table")
    if misplaced.is_empty():
        return
    players = misplaced["player"].n_unique()
    people = data.player_names(tournament)
    said = "; ".join(escape(sentences.stored(r["said"], r["message"], people)) for r in misplaced.iter_rows(named=True))
    notice = ngettext(
        "Seating: %(num)d player played at another table than the published seating (%(said)s). The games "
        "count as played until the organiser settles this on the Audit page.",
        "Seating: %(num)d players played at another table than the published seating (%(said)s). The games "
        "count as played until the organiser settles this on the Audit page.",
        players,
    )
    st.warning(
        notice % {"num": players, "said": said},
        icon=":material/event_seat:",
    )


def moment_picked(tournament: str, stage: str) -> tuple[int, str] | None:
    """The moment the reader asks the standings as of (R-TS5: they can be replayed):
    after any round of the stage came in; ``None`` for now. The position and its words."""
    choices: dict[int, str] = {  # rounds stored at once share a moment: it is named for the last of them
        int(m["position"]): _("as they stood when round %(num)s's last game came in (%(time)s UTC)")
        % {"num": m["tournament_round"], "time": f"{m['recorded_at']:%Y-%m-%d %H:%M}"}
        for m in data.round_moments(tournament, stage).iter_rows(named=True)
    }
    if len(choices) < 2:  # one moment: as of it is now, or near enough to say nothing
        return None
    options = [0, *choices]  # 0: now
    asked = st.query_params.get("as_of", "")
    widgets.open_on(
        "standings_as_of", options, int(asked) if asked.isascii() and asked.isdigit() else 0
    )  # a link names the moment
    widgets.keep_choice("standings_as_of", options)
    picked = st.selectbox(
        _("Standings"),
        options,
        format_func=lambda p: choices.get(p, _("as they stand now")),
        key="standings_as_of",
    )
    return (int(picked), choices[int(picked)]) if picked else None


@dataclass(frozen=True, slots=True)
class Drawn:
    """What the standings now are drawn from (every read of :func:`shown` for now), to
    tell when it changed."""

    standings: pl.DataFrame
    counts: tuple[int, int]
    findings: pl.DataFrame
    penalties: pl.DataFrame
    names: tuple[tuple[str, str], ...]

    @classmethod
    def now(cls, tournament: str, stage: str) -> Drawn:
        return cls(
            data.standings(tournament, stage),
            data.stage_counts(tournament, stage),
            data.open_findings(tournament),
            data.penalties(tournament),
            tuple(sorted(data.player_names(tournament).items())),
        )

    def same(self, other: Drawn) -> bool:
        frames = ((self.standings, other.standings), (self.findings, other.findings), (self.penalties, other.penalties))
        return (self.counts, self.names) == (other.counts, other.names) and all(
            mine.schema == theirs.schema and mine.equals(theirs) for mine, theirs in frames
        )


def standings_now(tournament: str, stage: str, row: dict[str, Any]) -> None:
    """The standings as they stand now, drawn by the page's run, and beneath them the
    live part that runs the page again when they change (:func:`follow`)."""
    try:
        now = Drawn.now(tournament, stage)
        shown(tournament, stage, row, sentences.with_reasons(now.standings))  # "why" in the page's language
    except StoreError as exc:  # busy or unreadable: said by the live part, which tries again in a few seconds
        drawn: Drawn | StoreError = exc
    else:
        drawn = now
    st.session_state[JUST_DRAWN] = True
    follow(tournament, stage, drawn)


@live
def follow(tournament: str, stage: str, drawn: Drawn | StoreError) -> None:
    """Every few seconds: whether the standings ``drawn`` above (or the error that kept
    them from being drawn) are still what the store says; if not, the page runs again
    and draws them anew (a game that ended at its table shows, and the whys, the
    downloads and the counts with it). Unchanged, nothing is sent again: a live part's
    run draws all it holds anew, and with 2,000 players the standings in it were some
    2,400 messages, rendered again by every browser at every run."""
    if st.session_state.pop(JUST_DRAWN, False):  # the page's own run, which has just drawn them
        if isinstance(drawn, StoreError):
            raise drawn  # said here, as a live part says it (``dashboard.live``)
        return
    now = Drawn.now(tournament, stage)  # still busy or unreadable: said here, and tried again
    if isinstance(drawn, StoreError) or not drawn.same(now):
        st.rerun()


def standings_then(tournament: str, stage: str, row: dict[str, Any], moment: tuple[int, str]) -> None:
    """The standings as they stood at a moment: the records and the games as they were
    then, projected afresh (what the organiser would have printed then)."""
    position, words = moment
    st.info(
        _("The standings %(moment)s: games and records that came later are not counted.") % {"moment": words},
        icon=":material/history:",
    )
    frame = sentences.with_reasons(data.standings_as_of(tournament, stage, position))
    shown(tournament, stage, row, frame, position)


def shown(tournament: str, stage: str, row: dict[str, Any], frame: pl.DataFrame, then: int | None = None) -> None:
    """The standings ``frame`` with what goes with them; ``then``: the position they are
    as of (now if ``None``), which leaves out what only the record as it is now says
    (the seating notice, the penalties' reasons, the cut's draw) and the printout."""
    games, rounds = data.stage_counts(tournament, stage)
    players = int(frame.height)

    cut, goes_to = cut_of(row, stage)
    if then is None:
        with st.container(horizontal=True):  # on a phone, the four numbers in a row or two, not a screen
            st.metric(_("Players"), players)
            st.metric(_("Games"), games)
            st.metric(_("Rounds"), rounds)
            st.metric(_("Cut"), _("top %(cut)d") % {"cut": cut} if stage != "final" else _("final table"))
        seating_notice(tournament)
    if frame.is_empty():  # a final seated and not yet played shows who plays it, at 0
        nothing = _("No %(stage)s games of %(tournament)s are stored yet.")
        st.info(nothing % {"stage": names.stage(stage), "tournament": escape(isolated(row["name"]))})
        return
    with st.container(key=FINAL_TABLE if stage == "final" else PRELIMINARY_TABLE):  # named for the phone's style
        shown_table = final_table(frame) if stage == "final" else preliminary_table(frame, cut, goes_to)
        st.markdown(shown_table, unsafe_allow_html=True)  # HTML we wrote, every cell escaped
    if then is None and stage != "final" and frame["cut_tie_undrawn"].any():
        tied = ", ".join(escape(isolated(name)) for name in frame.filter(pl.col("cut_tie_undrawn"))["name"])
        if access.is_organiser():
            undrawn = _("A tie across the cut line is not drawn yet (%(tied)s). This draws it and records the draw:")
            st.warning(undrawn % {"tied": tied})
            st.code(f"saboteur tournament cut {shlex.quote(tournament)} --seed N", language="bash")
        else:  # a spectator is told what happens, not the organiser's command
            st.warning(
                _("A tie across the cut line is not drawn yet (%(tied)s): the organiser draws it.") % {"tied": tied}
            )
    if frame["open_findings"].sum():
        st.caption(
            _(
                "Open findings: the findings of the stage's games not yet settled on the Audit page (a rule "
                "broken, points written down wrong, a game at another table than the seating or of other than "
                "its stage's rounds), each beside the player it names, or beside every player of its game if it "
                "names none."
            )
        )
    if then is not None:
        _why_and_csv(frame, tournament, stage, then)
        return
    called = dict(zip(frame["player"].to_list(), frame["name"].to_list(), strict=True))
    taken = data.penalties(tournament).filter(pl.col("stage") == stage)
    for player, points, reason in unheld(frame, taken):  # the record and the file disagree: say so
        st.warning(
            escape(
                _(
                    "A penalty of %(points)d for %(player)s is not counted: %(player)s is not in these standings "
                    "(the tournament's file no longer registers them). Its reason: %(reason)s"
                )
                % {"points": points, "player": player, "reason": reason}
            )
        )
    if taken.height:
        st.markdown("**" + _("Penalties") + "**")
        st.markdown(
            table(
                [names.column(c) for c in ("player", "points", "reason")],
                (
                    [called.get(p, p), penalty(n), reason]
                    for p, n, reason in taken.select("player", "points", "reason").iter_rows()
                ),
            )
        )
    _why_and_csv(frame, tournament, stage)
    printout.pdf_download(tournament, stage, frame, row)


def _why_and_csv(frame: pl.DataFrame, tournament: str, stage: str, then: int | None = None) -> None:
    """Why each player is ranked where they are, and the standings as CSV (named for the
    moment they are as of)."""
    with st.expander(_("Why each player is ranked here")), st.container(key=WHYS):
        # one list in place order (``place`` runs 1, 2, 3, …: the list's own numbers), each escaped
        whys = html_list(
            [Bold(isolated(item["name"])), ": ", item["why"]]
            for item in frame.select("name", "why").iter_rows(named=True)
        )
        st.markdown(whys, unsafe_allow_html=True)
    st.download_button(
        _("Download the standings (CSV)"),
        csv_text(frame),  # a name written like a formula stays text in the spreadsheet
        file_name=f"standings-{tournament}-{stage}" + (f"-as-of-{then}" if then is not None else "") + ".csv",
        mime="text/csv",
        icon=":material/download:",
    )


moment = moment_picked(tournament, stage)
# the address names what is shown, the moment too, to be shared
widgets.show_in_address({"tournament": tournament, "stage": stage, **({"as_of": str(moment[0])} if moment else {})})
if moment is None:
    standings_now(tournament, stage, row)
else:
    standings_then(tournament, stage, row, moment)

st.divider()
st.header(_("The record's integrity"))
state = data.integrity()
verified = state.verified
if state.events and state.events <= AUTO_VERIFY and (verified is None or verified.head != state.head):
    verified = data.verify_chain()
cells = st.columns([1, 3])
cells[0].metric(_("Events"), i18n.number(state.events))
with cells[1]:
    st.markdown(_("Chain head (the hash of the newest event)"))
    st.code(state.head, language=None)
    uploads = _(
        "Uploads head (the link of the newest of %(num)s files received): `%(head)s`. "
        "A head published now is checked later with `saboteur verify --expect-head HASH`."
    )
    st.caption(uploads % {"num": i18n.number(state.uploads), "head": state.uploads_head})
if verified is None:
    st.info(_("The hash chain has not been verified since the dashboard started."))
elif not verified.ok:
    problems = "; ".join(escape(sentences.said(problem, problem.english())) for problem in verified.said)
    failed = _("Verification at %(time)s UTC failed: %(problems)s")
    st.error(failed % {"time": f"{verified.at:%Y-%m-%d %H:%M:%S}", "problems": problems})
else:
    since = state.events - verified.events
    intact = {"time": f"{verified.at:%Y-%m-%d %H:%M:%S}", "num": i18n.number(verified.events)}
    if since > 0:
        later = ngettext(
            "Last verified %(time)s UTC: the chain of %(num)s events is intact; %(since)s event recorded since.",
            "Last verified %(time)s UTC: the chain of %(num)s events is intact; %(since)s events recorded since.",
            since,
        )
        st.success(later % {**intact, "since": i18n.number(since)})
    else:
        st.success(_("Last verified %(time)s UTC: the chain of %(num)s events is intact.") % intact)
if st.button(_("Verify the chain now")):
    data.verify_chain()
    st.rerun()
