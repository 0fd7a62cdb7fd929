"""Players the pages must tell apart, and a player they must keep one: two registered
under one name ("Jan Peters" twice: each must find their own table on the Round page),
and a player who registered under another name in a later tournament (found by either
name, headed by the name of the tournament chosen). The standings, the referee's page
and the commands told namesakes apart by their ids already; the Round page, a player's
card and the Players page did not."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from analytics import browse, records
from dashboard.markup import isolated
from dashboard.widgets import player_heading, player_option
from ingest.store import Store
from tests.dashboard.conftest import TOURNAMENT, markdown_tables, run_page, visible

NAME = "Jan Peters"


def namesakes(db: Path) -> tuple[str, str]:
    """Two players of the sample tournament renamed to one name (the first two seated
    at different tables in round 1), in a spelling apart as a person reads it alike."""
    store = Store(db)
    seats = browse.seatings(store, TOURNAMENT).filter(pl.col("tournament_round") == 1)
    first = seats.row(0, named=True)
    other = seats.filter(pl.col("table") != first["table"]).row(0, named=True)
    records.register(store, TOURNAMENT, [(first["player"], NAME), (other["player"], " jan  PETERS")])
    return str(first["player"]), str(other["player"])


def test_the_round_page_tells_namesakes_apart_by_their_ids(db: Path) -> None:
    jan, other = namesakes(db)
    at = run_page("round", round_number=(1, "preliminary"))
    find, *tables = markdown_tables(at)
    found = {row[0] for row in find[1:]}
    assert {f"{NAME} ({jan})", f"jan  PETERS ({other})"} <= found, found
    seated = {name for table in tables for _, name in table[1:]}
    assert f"{NAME} ({jan})" in seated and f"jan  PETERS ({other})" in seated
    assert NAME not in found and NAME not in seated


def test_a_players_card_names_the_namesakes_at_their_tables_by_their_ids(db: Path) -> None:
    jan, other = namesakes(db)
    store = Store(db)
    games = browse.player_games(store, TOURNAMENT, jan)
    met = next(
        (g["opponents"] for g in games.iter_rows(named=True) if other in g["opponents"]), None
    )  # the sample's two preliminary rounds need not seat them together: any opponent will do
    opponent = other if met is not None else str(games.row(0, named=True)["opponents"][0])
    at = run_page("players", players_player=jan, players_tournament=TOURNAMENT)
    assert [h.value for h in at.header] == [f"{NAME} ({jan})"]
    text = " ".join(visible(m.value) for m in at.markdown)
    labels = browse.player_labels(store, TOURNAMENT)
    assert labels[opponent] in text
    assert labels == {**browse.player_names(store, TOURNAMENT), jan: f"{NAME} ({jan})", other: f"jan  PETERS ({other})"}


def test_the_players_picker_names_each_player_once_with_their_id(db: Path) -> None:
    jan, _ = namesakes(db)
    at = run_page("players", players_player=jan, players_tournament=TOURNAMENT)
    picker = at.selectbox(key="players_player")
    assert picker.format_func(jan) == f"{NAME} ({jan})"  # not "Jan Peters (jan) (jan)"


def test_a_player_renamed_in_a_later_tournament_is_found_by_either_name(db: Path) -> None:
    store = Store(db)
    player = str(browse.seatings(store, TOURNAMENT)["player"][2])
    before = browse.player_names(store, TOURNAMENT)[player]
    records.create(store, "later-open", name="Later Open")
    records.register(store, "later-open", [(player, "Lena Novak")])
    assert browse.registered_names(store)[player] == ["Lena Novak", before]
    at = run_page("players", players_player=player, players_tournament=None)
    assert at.selectbox(key="players_player").format_func(player) == f"Lena Novak / {isolated(before)} ({player})"
    assert [h.value for h in at.header] == [before]  # every round of theirs played under it
    at = run_page("players", players_player=player, players_tournament="later-open")
    assert [h.value for h in at.header] == ["Lena Novak"]  # as the tournament chosen registered them


def test_the_heading_is_the_tournaments_name_then_the_statistics_then_the_newest_registered() -> None:
    assert player_heading("lk", "lk", ["Lena Novak", "Lena K"], {"lk": "Lena K"}) == "Lena K"
    assert player_heading("lk", "lk", ["Lena Novak", "Lena K"], {}) == "Lena Novak"  # the statistics: two names
    assert player_heading("jp", "Jan Peters (jp)", ["Jan Peters"], {}) == "Jan Peters (jp)"
    assert player_heading("x1", "x1", [], {}) == "x1"


def test_a_player_no_tournament_registered_is_offered_by_their_id_alone() -> None:
    assert player_option("x1", []) == "x1"  # not "x1 (x1)"
    assert player_option("jp", ["Jan Peters"]) == "Jan Peters (jp)"
