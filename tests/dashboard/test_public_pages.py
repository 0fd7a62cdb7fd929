"""The pages a player opens on a phone (issue 13, point 1): the Round page, the
standings as text, the player's card — each run by Streamlit's AppTest over the real
store of ``conftest.py``, its text checked against the analytics it lays out."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import polars as pl
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from analytics import browse, records
from analytics.standings import standings
from dashboard import data, names
from ingest.store import Store
from tests.dashboard.conftest import APP, HOSTILE_NAMES, TOURNAMENT, Hostile, markdown_tables, run_page, visible
from tests.dashboard.test_hostile_text import plain_text


def test_the_round_page_lists_every_seated_player_at_their_table(db: Path) -> None:
    seats = browse.seatings(Store(db), TOURNAMENT).filter(pl.col("tournament_round") == 1)
    at = run_page("round", round_number=(1, "preliminary"))
    assert [t.value for t in at.title] == ["Round"]
    find, *tables = markdown_tables(at)
    assert find[0] == ["player", "table", "seat"]
    expected = {(str(n), str(t), str(s)) for n, t, s in seats.select("name", "table", "seat").iter_rows()}
    assert {tuple(r) for r in find[1:]} == expected
    assert len(tables) == seats["table"].n_unique()
    seated = {(name, seat) for t in tables for seat, name in t[1:]}
    assert seated == {(str(n), str(s)) for n, s in seats.select("name", "seat").iter_rows()}
    for t in tables:
        assert [int(seat) for seat, _ in t[1:]] == list(range(1, len(t)))  # seat order


def test_find_my_table_is_alphabetical(db: Path) -> None:
    at = run_page("round", round_number=(2, "preliminary"))
    names = [r[0] for r in markdown_tables(at)[0][1:]]
    assert names == sorted(names, key=str.casefold) and len(names) == 12


def test_the_round_page_opens_the_newest_round_and_names_it_in_its_address(db: Path) -> None:
    at = run_page("round")
    assert at.selectbox(key="round_number").value == (3, "final")
    assert at.query_params["round"] == "3" and at.query_params["tournament"] == TOURNAMENT
    assert len(markdown_tables(at)[0]) == 1 + 6
    assert any(c.value.startswith("Last updated ") for c in at.caption)


def test_the_round_page_takes_its_round_from_the_address(db: Path) -> None:
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["round"] = "1"
    at.query_params["tournament"] = TOURNAMENT
    at.switch_page("views/round.py").run()
    assert not at.exception
    assert at.selectbox(key="round_number").value == (1, "preliminary")


def test_the_round_page_shows_names_as_typed(hostile: Hostile) -> None:
    text = plain_text(run_page("round", round_number=(1, "preliminary")))
    assert all(name in text for name in HOSTILE_NAMES)


FORMULA = '=HYPERLINK("http://example.invalid","win")'


def test_the_standings_download_holds_every_row(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    leader = standings(Store(db), TOURNAMENT).row(0, named=True)
    records.register(Store(db), TOURNAMENT, [(leader["player"], FORMULA)])  # a name a spreadsheet would run
    offered: list[object] = []
    original = st.download_button

    def download_button(label: str, payload: object, **options: Any) -> bool:
        offered.append(payload)
        return original(label, payload, **options)

    monkeypatch.setattr(st, "download_button", download_button)
    run_page()
    (csv, pdf) = offered  # the PDF is made when its button is pressed: tests/dashboard/test_printing_page.py
    assert isinstance(csv, str) and callable(pdf)
    downloaded = pl.read_csv(io.StringIO(csv))
    expected = standings(Store(db), TOURNAMENT)
    # below the cut too; a name written like a formula stays text (a leading ')
    assert downloaded["name"].to_list() == ["'" + FORMULA, *expected["name"].to_list()[1:]]
    assert expected["name"][0] == FORMULA
    assert downloaded["why"].to_list() == expected["why"].to_list()
    assert downloaded["reasons"].to_list() == expected["reasons"].to_list()  # as in the command line's CSV


def test_the_standings_show_full_names_and_the_reasons_of_penalties(db: Path) -> None:
    leader = standings(Store(db), TOURNAMENT).row(0, named=True)
    records.penalty(Store(db), TOURNAMENT, leader["player"], 2, "slow play: 20 minutes late")
    at = run_page()
    tables = markdown_tables(at)
    (columns, *rows) = tables[0]
    names = [cells[columns.index("player")] for cells in rows if not cells[1].startswith("cut line")]
    assert names == standings(Store(db), TOURNAMENT)["name"].to_list()  # full names, every player
    ((_, *taken),) = tables[1:]
    assert taken == [[leader["name"], "-2", "slow play: 20 minutes late"]]
    mine = next(cells for cells in rows if cells[columns.index("player")] == leader["name"])
    assert mine[columns.index("penalty")] == "-2"


def test_the_player_page_shows_the_players_rounds(db: Path) -> None:
    store = Store(db)
    leader = standings(store, TOURNAMENT).row(0, named=True)
    at = run_page("players", players_player=leader["player"], players_tournament=TOURNAMENT)
    played = browse.player_rounds(store, leader["player"], TOURNAMENT)
    cards = markdown_tables(at)
    assert len(cards) == played["game_id"].n_unique()
    assert sum(len(rows) for _, *rows in cards) == played.height
    assert any(f"Place {leader['rank']}" in m.value for m in at.markdown)
    names = browse.player_names(store, TOURNAMENT)
    first = browse.player_games(store, TOURNAMENT, leader["player"]).row(0, named=True)
    assert any(all(names[p] in visible(m.value) for p in first["opponents"]) for m in at.markdown)
    assert at.query_params["player"] == leader["player"]


def test_the_player_card_shows_each_round_as_the_standings_count_it(db: Path) -> None:
    """A star given by a correction: the card's place line counted it ("3 stars") while
    the round's own row said "lost" and the Stars figure above it 2, with nothing said.
    The row says the round as corrected; the figure says it is the rounds as played."""
    store = Store(db)
    leader = standings(store, TOURNAMENT).row(0, named=True)
    played = browse.player_rounds(store, leader["player"], TOURNAMENT)
    plain = played.filter(~pl.col("star") & (pl.col("ruleset") == "tournament")).row(0, named=True)

    def rows() -> list[list[str]]:
        at = run_page("players", players_player=leader["player"], players_tournament=TOURNAMENT)
        return [cells for _, *rows in markdown_tables(at) for cells in rows]

    before = rows()
    records.correct(
        store, TOURNAMENT, plain["game_id"], plain["round"], leader["player"], 4, "the referee's count", star=True
    )
    after = rows()
    changed = [(was, now) for was, now in zip(before, after, strict=True) if was != now]
    assert len(changed) == 1, changed
    ((was, now),) = changed
    assert "star" not in was[2] and "star" in now[2] and now[3] == "4", changed
    at = run_page("players", players_player=leader["player"], players_tournament=TOURNAMENT)
    (stars,) = [m for m in at.metric if m.label == "Stars"]
    assert stars.help and "before corrections" in stars.help


def test_the_player_page_gives_the_rank_the_standings_give(db: Path) -> None:
    """A player level with others on points and stars stands 3= in the standings; the
    player's card said "Place 4", the row's place in a list that has to put one first."""
    table = standings(Store(db), TOURNAMENT)
    level = table.filter(table["shared"]).row(-1, named=True)  # the last of a shared rank: its place is not it
    assert level["place"] != level["rank"]
    at = run_page("players", players_player=level["player"], players_tournament=TOURNAMENT)
    assert any(f"**Place {level['rank']}=**" in m.value for m in at.markdown), [m.value for m in at.markdown]


def test_a_finalists_card_gives_the_place_at_the_final_table(db: Path) -> None:
    """The tournament's winner was told "Place 3 in the preliminary standings" and no
    word of the final."""
    final = standings(Store(db), TOURNAMENT, stage="final")
    winner = final.row(0, named=True)
    at = run_page("players", players_player=winner["player"], players_tournament=TOURNAMENT)
    said = [m.value for m in at.markdown if "at the final table" in m.value]
    assert said and said[0].startswith("**Place 1** at the final table"), said
    assert f"{winner['final_points']} point" in said[0]


def test_players_level_at_the_final_table_share_their_rank_there(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two finalists level on every tie-breaker stand 2= (the command line ranks both 2):
    the page's final table and their cards gave them places 2 and 3."""
    final = standings(Store(db), TOURNAMENT, stage="final")
    level = final.with_columns(rank=pl.when(pl.col("place") == 3).then(2).otherwise(pl.col("rank")))
    monkeypatch.setattr(
        data,
        "standings",
        lambda tournament, stage: level if stage == "final" else standings(Store(db), TOURNAMENT, stage=stage),
    )
    second, third = level.row(1, named=True), level.row(2, named=True)
    for finalist in (second, third):
        at = run_page("players", players_player=finalist["player"], players_tournament=TOURNAMENT)
        said = [m.value for m in at.markdown if "at the final table" in m.value]
        assert said and said[0].startswith("**Place 2=** at the final table"), said
    assert names.ranks(level)[:4] == ["1", "2=", "2=", "4"]


def test_the_player_page_takes_its_player_from_the_address(db: Path) -> None:
    player = standings(Store(db), TOURNAMENT)["player"][3]
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["player"] = player
    at.query_params["tournament"] = TOURNAMENT
    at.switch_page("views/players.py").run()
    assert not at.exception
    assert at.selectbox(key="players_player").value == player
    assert at.selectbox(key="players_tournament").value == TOURNAMENT


def test_a_link_to_a_player_alone_shows_all_their_rounds(db: Path) -> None:
    """An address naming the player and no tournament: the page opened on the newest
    tournament, and a player who never played in it was said to have no rounds."""
    player = standings(Store(db), TOURNAMENT)["player"][0]
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["player"] = player
    at.switch_page("views/players.py").run()
    assert not at.exception
    assert at.selectbox(key="players_tournament").value == "(every tournament and game)"
    assert "tournament" not in at.query_params
    assert not any("No finished rounds" in info.value for info in at.info)


def test_the_player_card_shows_names_as_typed(hostile: Hostile) -> None:
    for player, name in zip(hostile.players, HOSTILE_NAMES, strict=True):
        text = plain_text(run_page("players", players_player=player, players_tournament=TOURNAMENT))
        assert name in text and "Round 1" in text


def test_a_withdrawn_player_stands_above_the_cut_line_and_is_passed_over(db: Path) -> None:
    """The cut line falls under the last player going on: a withdrawn third is above it
    where their points put them, said in the notes, and the seventh goes on."""
    third = standings(Store(db), TOURNAMENT).row(2, named=True)
    records.withdraw_player(Store(db), TOURNAMENT, third["player"], "gone home")
    (columns, *rows) = markdown_tables(run_page())[0]
    line = next(index for index, cells in enumerate(rows) if cells[1].startswith("cut line"))
    assert line == 7, rows  # six players go on, one above them withdrew
    mine = next(cells for cells in rows if cells[columns.index("player")] == third["name"])
    assert "withdrew: the cut passes over them" in mine[columns.index("notes")]


def _hand_standings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, final: list[str] | None = None
) -> tuple[AppTest, Store]:
    """The Standings page over the tournament "hand" of the standings' tests, after its
    one preliminary round (cem and lea tied across the cut line, undrawn); of its final,
    seated at one table of ``final`` and not yet played, if given."""
    from tests.analytics.test_standings import TID, _hand

    hand = _hand(tmp_path, 1)
    if final is not None:
        records.publish_seating(hand.store, TID, 2, [final], stage="final", method="by hand", seed=None)
    monkeypatch.setenv("SABOTEUR_DB", str(hand.db))
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["tournament"] = TID
    at.query_params["stage"] = "preliminary" if final is None else "final"
    at.switch_page("views/standings.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at, hand.store


def test_a_spectator_is_told_the_organiser_draws_the_tie_and_the_organiser_is_shown_how(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, organiser: str
) -> None:
    """A tie across the cut line showed every spectator the organiser's command
    (``saboteur tournament cut hand --seed N``): a spectator reads that the organiser
    draws it; the organiser, signed in, is shown the command."""
    at, _ = _hand_standings(tmp_path, monkeypatch)
    assert any("not drawn yet (Cem, Lea): the organiser draws it" in w.value for w in at.warning)
    assert not any("saboteur" in c.value for c in at.code)
    at.switch_page("views/upload.py").run()
    at.text_input[0].input(organiser)
    at.button[0].click().run()
    at.switch_page("views/standings.py").run()
    assert [c.value for c in at.code if "saboteur tournament cut" in c.value] == [
        "saboteur tournament cut hand --seed N"
    ]


def test_a_final_seated_and_not_yet_played_shows_who_plays_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The final table seated, its first game not in, the page said "No final games of
    hand are stored yet" where the command line (and the page as of a moment) shows the
    finalists at 0, in their preliminary order."""
    at, store = _hand_standings(tmp_path, monkeypatch, final=["ann", "bob", "cem", "gus", "hal", "lea"])
    assert not any("are stored yet" in i.value for i in at.info)
    ((columns, *rows),) = markdown_tables(at)
    expected = standings(store, "hand", stage="final")["name"].to_list()
    assert [cells[columns.index("player")] for cells in rows] == expected and len(expected) == 6
