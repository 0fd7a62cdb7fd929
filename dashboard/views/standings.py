"""Standings (public): points, stars, penalties and their reasons, the cut line, ties,
why each player stands where they do; beneath, the record's integrity.

The standings are one table of text (Markdown, every name through
:func:`dashboard.markup.table`), not a grid drawn on a canvas: full names on a phone,
found by the browser's search, printed as they show; the cut line is a row inside it.
The download holds every row and column, "why" included.

The standings follow the store by themselves (``dashboard.live``): a game that ends at
its table shows here at the next run, with the tournament and stage chosen kept. The
integrity part is read when the page runs: while tables are being recorded the chain
grows at every entry, and verifying it at each refresh would be work for nothing."""

from __future__ import annotations

import shlex
from typing import Any

import polars as pl
import streamlit as st

from dashboard import data, printout, widgets
from dashboard.live import live
from dashboard.markup import escape, table
from dashboard.markup import row as table_row

# Chains up to this many events are verified when the page opens; longer ones on request.
AUTO_VERIFY = 50_000
STAGE_OF = "standings_stage_of"  # the tournament the stage chosen belongs to
CUT_MARK = "- - - - -"  # the cells either side of the cut line's words, in its row of the table

st.title("Standings")
tournaments = data.tournaments()
if tournaments.is_empty():
    st.info("No tournament is stored yet: ingest a tournament.json or games that name a tournament.")
    st.stop()

left, right = st.columns([3, 2])
with left:
    tournament = widgets.tournament_picker(
        tournaments, key="standings_tournament", asked=st.query_params.get("tournament")
    )
assert tournament is not None
with right:
    stages = data.stages(tournament)
    if st.session_state.get(STAGE_OF) != tournament:  # a stage chosen for one tournament is not another's
        asked = st.query_params.get("stage") if STAGE_OF not in st.session_state else None  # the address, at first
        st.session_state["standings_stage"] = asked if asked in stages else stages[0]
        st.session_state[STAGE_OF] = tournament
    widgets.keep_choice("standings_stage", stages)
    stage = st.radio("Stage", stages, horizontal=True, key="standings_stage")
assert stage is not None
st.query_params.update(tournament=tournament, stage=stage)  # the address names what is shown

row = tournaments.filter(pl.col("tournament") == tournament).row(0, named=True)
printout.print_layout(row["name"], stage)


def notes(item: dict[str, Any]) -> str:
    """What a row of the preliminary standings needs said: its tie, its open findings."""
    said = []
    if item["cut_tie_undrawn"]:
        said.append("tied across the cut: not drawn")
    elif item["cut_drawn"]:
        said.append("placed by the cut draw")
    elif item["shared"]:
        said.append("shared rank")
    if item["open_findings"]:
        said.append(f"{item['open_findings']} open finding{'s' if item['open_findings'] != 1 else ''}")
    return "; ".join(said)


def penalty(points: int) -> str:
    """A penalty as the points it takes; nothing for none."""
    return f"-{points}" if points else ""


def preliminary_table(frame: pl.DataFrame, cut: int) -> str:
    """The standings as one Markdown table of text, the cut line a row inside it."""
    columns = ["rank", "player", "points", "stars", "rounds", "penalty", "notes"]
    lines = [
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
    above = int(frame["in_cut"].sum())
    shown = table(columns, lines[:above])
    if above < len(lines):
        # our own words, bold: the only cells of the table that are not user text escaped
        words = f"**cut line: the top {cut} go on to the final**"
        shown += "\n| " + " | ".join([CUT_MARK, words, *[CUT_MARK] * (len(columns) - 2)]) + " |\n"
        shown += "\n".join(table_row(cells) for cells in lines[above:])
    return shown


def final_table(frame: pl.DataFrame) -> str:
    """The final table's standings as one Markdown table of text."""
    columns = ["#", "player", "points", "stars", "prelim. points", "prelim. stars", "penalty"]
    return table(
        columns,
        (
            [
                item["place"],
                item["name"],
                item["final_points"],
                item["final_stars"],
                item["preliminary_points"],
                item["preliminary_stars"],
                penalty(item["penalty"]),
            ]
            for item in frame.iter_rows(named=True)
        ),
    )


def seating_notice(tournament: str) -> None:
    """Above the standings, while any is open: the players whose game was at another
    table than the published seating gave them — their points count as played until
    the organiser settles it."""
    misplaced = data.open_findings(tournament).filter(pl.col("code") == "wrong_table")
    if misplaced.is_empty():
        return
    said = "; ".join(escape(message) for message in misplaced["message"])
    st.warning(
        f"Seating: {misplaced.height} player{'s' if misplaced.height != 1 else ''} played at another table than "
        f"the published seating ({said}). The games count as played until the organiser settles this on the "
        "Audit page.",
        icon=":material/event_seat:",
    )


@live
def standings_now(tournament: str, stage: str, row: dict[str, Any]) -> None:
    """The standings as they stand now: a game taken in shows at the next run."""
    frame = data.standings(tournament, stage)
    games, rounds = data.stage_counts(tournament, stage)
    players = int(frame.height)

    with st.container(horizontal=True):  # on a phone, the four numbers in a row or two, not a screen
        st.metric("Players", players)
        st.metric("Games", games)
        st.metric("Rounds", rounds)
        st.metric("Cut", f"top {row['cut']}" if stage != "final" else "final table")

    seating_notice(tournament)
    if frame.is_empty() or (stage == "final" and games == 0):
        st.info(f"No {stage} games of {escape(row['name'])} are stored yet.")
        return
    st.markdown(final_table(frame) if stage == "final" else preliminary_table(frame, row["cut"]))
    if stage != "final" and frame["cut_tie_undrawn"].any():
        tied = ", ".join(escape(name) for name in frame.filter(pl.col("cut_tie_undrawn"))["name"])
        st.warning(f"A tie across the cut line is not drawn yet ({tied}). This draws it and records the draw:")
        st.code(f"saboteur tournament cut {shlex.quote(tournament)} --seed N", language="bash")
    if frame["open_findings"].sum():
        st.caption(
            "Open findings: `wrong_score` findings touching a player's rounds, and a player's game at another "
            "table than the seating, not yet settled on the Audit page."
        )
    names = dict(zip(frame["player"].to_list(), frame["name"].to_list(), strict=True))
    taken = data.penalties(tournament).filter(pl.col("stage") == stage)
    if taken.height:
        st.markdown("**Penalties**")
        st.markdown(
            table(
                ["player", "points", "reason"],
                (
                    [names.get(p, p), penalty(n), reason]
                    for p, n, reason in taken.select("player", "points", "reason").iter_rows()
                ),
            )
        )
    with st.expander("Why each player is ranked here"):
        for item in frame.select("place", "name", "why").iter_rows(named=True):
            st.markdown(f"{item['place']}. **{escape(item['name'])}**: {escape(item['why'])}")
    st.download_button(
        "Download the standings (CSV)",
        frame.write_csv(),
        file_name=f"standings-{tournament}-{stage}.csv",
        mime="text/csv",
        icon=":material/download:",
    )
    printout.pdf_download(tournament, stage, frame, row)


standings_now(tournament, stage, row)

st.divider()
st.subheader("The record's integrity")
state = data.integrity()
verified = state.verified
if state.events and state.events <= AUTO_VERIFY and (verified is None or verified.head != state.head):
    verified = data.verify_chain()
cells = st.columns([1, 3])
cells[0].metric("Events", f"{state.events:,}")
with cells[1]:
    st.markdown("Chain head (the hash of the newest event)")
    st.code(state.head, language=None)
    st.caption(
        f"Uploads head (the link of the newest of {state.uploads:,} files received): `{state.uploads_head}`. "
        "A head published now is checked later with `saboteur verify --expect-head HASH`."
    )
if verified is None:
    st.info("The hash chain has not been verified since the dashboard started.")
elif not verified.ok:
    problems = "; ".join(escape(problem) for problem in verified.problems)
    st.error(f"Verification at {verified.at:%Y-%m-%d %H:%M:%S} UTC failed: {problems}")
else:
    since = state.events - verified.events
    later = f"; {since:,} events recorded since" if since > 0 else ""
    st.success(
        f"Last verified {verified.at:%Y-%m-%d %H:%M:%S} UTC: the chain of {verified.events:,} events is intact{later}."
    )
if st.button("Verify the chain now"):
    data.verify_chain()
    st.rerun()
