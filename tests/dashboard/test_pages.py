"""Each page run by Streamlit's AppTest over a real store, its content checked against
the analytics and ingest functions it lays out."""

from __future__ import annotations

import importlib
import json
import re
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from streamlit.testing.v1 import AppTest

from analytics import stats
from analytics.filters import Filters
from analytics.intervals import wilson as wilson_of
from analytics.standings import standings
from dashboard import data, names
from dashboard.replay_view import game_view
from events.simulate.tournament import simulate_tournament
from ingest.pipeline import ingest
from ingest.sources import stored_lines
from ingest.store import Store
from tests.dashboard.conftest import APP, TOURNAMENT, Sample, markdown_tables, maze, page_text, run_page, visible

SKIPPED_GAME = "sim-open-1:final"
SKIPPED_ROUND = 3
"""Where the sample's forgotten draw is (:func:`tests.dashboard.conftest.sample`)."""

Open = Callable[..., AppTest]


def metric(at: AppTest, label: str) -> str:
    return next(str(m.value) for m in at.metric if m.label == label)


def test_standings_show_points_the_cut_line_ties_and_why(open_page: Open, db: Path) -> None:
    at = open_page()
    expected = standings(Store(db), TOURNAMENT)
    assert [t.value for t in at.title] == ["Standings"]
    assert metric(at, "Players") == str(expected.height)
    assert metric(at, "Games") == "3"
    assert metric(at, "Cut") == "top 6"
    ((columns, *rows),) = markdown_tables(at)  # one table of text, the cut line a row inside it
    (cut,) = [i for i, cells in enumerate(rows) if cells[1] == "cut line: the top 6 go on to the final"]
    above, below = (
        [dict(zip(columns, cells, strict=True)) for cells in rows[:cut]],
        [dict(zip(columns, cells, strict=True)) for cells in rows[cut + 1 :]],
    )
    assert [r["player"] for r in above] == expected.filter(pl.col("in_cut"))["name"].to_list()
    assert [r["player"] for r in below] == expected.filter(~pl.col("in_cut"))["name"].to_list()
    assert [int(r["points"]) for r in above] == expected.filter(pl.col("in_cut"))["points"].to_list()
    assert {"rank", "stars", "penalty", "notes"} <= set(columns)
    shown = [r["rank"] for r in above + below]
    assert shown == [
        f"{r}=" if shared else str(r) for r, shared in zip(expected["rank"], expected["shared"], strict=True)
    ]
    flagged = [r["notes"] for r in above + below]
    tied = sum("shared rank" in note or "placed by the cut draw" in note for note in flagged)
    assert tied == expected["shared"].sum()
    assert any("cut line: the top 6" in m.value for m in at.markdown)
    text = "\n".join(visible(m.value) for m in at.markdown)
    assert all(why in text for why in expected["why"])  # "why ranked here", on demand
    assert any(e.label == "Why each player is ranked here" for e in at.expander)
    # the wrong score found in r1-t1 is counted beside the rows of its round's players
    assert expected["open_findings"].sum() > 0
    counted = [int(found) for note in flagged for found in re.findall(r"(\d+) open finding", note)]
    assert sum(counted) == expected["open_findings"].sum()


def test_standings_as_they_stood_when_a_round_came_in(
    open_page: Open, sample: Sample, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The standings "as of any moment": the command line had them (``--as-of``), the
    page only now. After each round of the stage came in, projected afresh (the sample's
    store took every file in one ingest: one moment there, which is now)."""
    from analytics.browse import round_moments
    from ingest.pipeline import ingest
    from tests.dashboard.conftest import in_use

    assert round_moments(Store(sample.db), TOURNAMENT, "preliminary")["position"].n_unique() == 1
    store = Store(tmp_path / "played.duckdb")
    for files in ("tournament.json", "r1-*.jsonl", "r2-*.jsonl"):  # as a tournament day goes
        ingest(sorted(sample.logs.glob(files)), store, workers=1)
    before = round_moments(store, TOURNAMENT, "preliminary")
    again = json.loads((sample.logs / "r1-t1.jsonl").read_text().splitlines()[0])  # round 1's game, put right later
    text = (
        (sample.logs / "r1-t1.jsonl").read_text()
        + json.dumps({"type": "referee_note", "player": None, "error": "other", "note": "resent"})
        + "\n"
    )
    copy = tmp_path / "r1-t1.jsonl"
    copy.write_text(text)
    assert ingest([copy], store, workers=1, supersede=True, reason="the note was left out")[0].outcome != "rejected"
    db = in_use(store.path, tmp_path / "ledger.duckdb", monkeypatch)
    moments = round_moments(Store(db), TOURNAMENT, "preliminary")
    assert moments["tournament_round"].to_list() == [1, 2] and again["tournament_round"] == 1
    assert moments["position"].to_list() == before["position"].to_list()  # a game came in when it first did
    first = int(moments["position"][0])
    then = standings(Store(db), TOURNAMENT, as_of=first)
    assert then["points"].to_list() != standings(Store(db), TOURNAMENT)["points"].to_list()
    at = open_page()
    at.selectbox(key="standings_as_of").set_value(first).run()
    assert not at.exception
    notes = [i.value for i in at.info]
    assert any(n.startswith("The standings as they stood when round 1's last game came in") for n in notes), notes
    ((columns, *rows),) = markdown_tables(at)
    listed = [dict(zip(columns, cells, strict=True)) for cells in rows if not cells[1].startswith("cut line")]
    assert [(r["player"], int(r["points"])) for r in listed] == list(then.select("name", "points").iter_rows())
    assert [m.label for m in at.metric] == ["Events"]  # the record's; not now's numbers beside the standings then
    assert at.query_params["as_of"] == str(first)  # a link to the standings then
    linked = AppTest.from_file(str(APP), default_timeout=60)
    linked.query_params.update({"tournament": TOURNAMENT, "as_of": str(first)})
    linked.run()
    assert linked.selectbox(key="standings_as_of").value == first
    odd = AppTest.from_file(str(APP), default_timeout=60)  # "²" is a digit too, and no number int() reads
    odd.query_params.update({"tournament": TOURNAMENT, "as_of": "²"})
    odd.run()
    assert not odd.exception and odd.selectbox(key="standings_as_of").value == 0
    at.selectbox(key="standings_as_of").set_value(0).run()
    assert "as_of" not in at.query_params
    assert metric(at, "Games") == str(len(list(sample.logs.glob("r*.jsonl"))))
    assert not any(i.value.startswith("The standings as they stood") for i in at.info)


def test_standings_show_the_records_integrity(open_page: Open, db: Path) -> None:
    at = open_page()
    store = Store(db)
    with store.connect(read_only=True) as con:
        position, head = store.head(con)
    assert metric(at, "Events") == f"{position:,}"
    assert [c.value for c in at.code] == [head]
    assert any("Last verified" in s.value and f"{position:,} events is intact" in s.value for s in at.success)


def test_spectators_verifying_the_chain_at_once_walk_it_once(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """ "Verify the chain now" is on every spectator's Standings page, and a walk reads
    every event: thirty spectators pressing it at once walked the chain thirty times
    over on the laptop that serves the referees' phones. A click while a walk runs
    waits for it and takes its result; a click after it walks again."""
    walks: list[int] = []
    real = data.verify

    def slow(*args: Any, **kwargs: Any) -> Any:
        walks.append(1)
        time.sleep(0.5)
        return real(*args, **kwargs)

    monkeypatch.setattr(data, "verify", slow)
    start = threading.Barrier(6)

    def click(_: int) -> data.Verification:
        start.wait()
        return data.verify_chain()

    with ThreadPoolExecutor(6) as pool:
        seen = list(pool.map(click, range(6)))
    assert len(walks) == 1 and len(set(seen)) == 1 and seen[0].ok, (walks, seen)
    assert data.verify_chain().at > seen[0].at and len(walks) == 2


def test_standings_of_the_final_table(open_page: Open, db: Path) -> None:
    at = open_page()
    at.radio(key="standings_stage").set_value("final").run()
    expected = standings(Store(db), TOURNAMENT, stage="final")
    ((columns, *rows),) = markdown_tables(at)
    assert [cells[columns.index("player")] for cells in rows] == expected["name"].to_list()
    assert {"prelim. points", "prelim. stars"} <= set(columns)
    # the open findings beside the players, as the note under the table says (the final's skipped draw)
    counted = expected["open_findings"].to_list()
    assert any(counted)
    shown = [cells[columns.index("notes")] for cells in rows]
    assert shown == [f"{n} open finding{'s' if n > 1 else ''}" if n else "" for n in counted]
    text = "\n".join(visible(m.value) for m in at.markdown)
    assert all(why in text for why in expected["why"])
    assert metric(at, "Cut") == "final table"
    assert not any("cut line" in m.value for m in at.markdown)


def test_roles_chart_and_table_follow_the_filters(open_page: Open, db: Path) -> None:
    at = open_page("roles")
    assert len(at.get("vega_lite_chart")) == 1
    table = at.dataframe[0].value
    expected = stats.role_win_rates(Store(db), Filters(ruleset="tournament"))
    assert table["n"].tolist() == expected["n"].to_list()
    assert set(table["role"]) <= {"gold digger", "saboteur", "selfish dwarf"}  # plain names, not codes
    assert {"table", "rate", "low", "high", "n < 30"} <= set(table.columns)
    bots, rounds = stats.played_by_bots(Store(db), Filters(ruleset="tournament"))
    assert bots == rounds > 0  # the simulator's tournament: said plainly above the chart
    (warning,) = at.warning
    assert f"Every one of these {rounds} rounds was played by the simulator's bots." in warning.value
    at.checkbox(key="roles_clean").check().run()
    clean = at.dataframe[0].value
    assert sum(clean["dealt"]) < sum(table["dealt"])  # two rounds with errors left out
    at.selectbox(key="roles_stage").set_value("final").run()
    final = stats.role_win_rates(Store(db), Filters(ruleset="tournament", stage="final", clean_only=True))
    assert at.dataframe[0].value["n"].tolist() == final["n"].to_list()


def test_players_page_shows_one_players_rounds_roles_and_points(open_page: Open, db: Path) -> None:
    leader = standings(Store(db), TOURNAMENT).row(0, named=True)
    at = open_page("players", players_player=leader["player"])
    assert [h.value for h in at.header] == [leader["name"]]
    everyone = stats.player_stats(Store(db))
    row = everyone.filter(pl.col("player") == leader["player"]).row(0, named=True)
    assert metric(at, "Rounds") == str(row["rounds"])
    assert metric(at, "Wins") == str(row["wins"])
    assert metric(at, "Stars") == str(row["stars"])
    by_role, listed = (t.value for t in at.dataframe)
    assert sum(by_role["rounds"]) == row["rounds"]
    assert len(listed) == row["rounds"]
    # a round's role and result first, where it was played after (they stood past a laptop's edge)
    assert list(listed.columns)[:6] == ["started_at", "role", "points", "star", "won", "winner"], listed.columns
    assert len(at.get("vega_lite_chart")) == 1
    # only finished rounds: the players of the unfinished game are nobody's to pick
    assert "ann" not in at.selectbox(key="players_player").options


def test_a_players_rounds_past_the_pages_list_are_the_newest_and_say_so(
    open_page: Open, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A regular of years of club nights (4,500 rounds) had every round sent to the
    browser: 1.45 MB and 4 s. The list keeps the newest, as many as the Rounds page lists,
    and says how many there are; the counts and the chart keep every round."""
    leader = standings(Store(db), TOURNAMENT).row(0, named=True)
    every = data.player_rounds(leader["player"], None)
    assert every.height > 3
    monkeypatch.setattr(data, "ROUNDS_SHOWN", 3)
    at = open_page("players", players_player=leader["player"])
    by_role, listed = (t.value for t in at.dataframe)
    assert sum(by_role["rounds"]) == every.height  # counted whole
    assert listed["game_id"].tolist() == every["game_id"].tail(3).to_list()
    assert listed["round"].tolist() == every["round"].tail(3).to_list()
    assert f"Showing the newest 3 of {every.height} rounds." in [c.value for c in at.caption]


def test_players_page_opens_on_a_player_of_the_tournament_it_opens_on(db: Path, tmp_path: Path) -> None:
    """The page opens on the newest tournament: it opened on the first name of every
    tournament, there "No finished rounds of this player in this tournament"."""
    later = tmp_path / "later"
    simulate_tournament(
        later, players=6, preliminary_rounds=1, seed=2, tournament_id="sim-later", cut=6, final_rounds=1
    )
    ingest([later], Store(db), workers=1)
    everyone = stats.player_stats(Store(db)).sort("name")
    played = set(stats.player_stats(Store(db), Filters(tournament="sim-later"))["player"])
    assert everyone["player"][0] not in played  # the first name of all is not at the newest tournament
    at = run_page("players")
    assert at.selectbox(key="players_tournament").value == "sim-later"
    assert at.selectbox(key="players_player").value in played
    assert not at.info, [i.value for i in at.info]
    assert int(metric(at, "Rounds")) > 0


def test_rounds_page_lists_every_finished_round_with_its_verdict(open_page: Open, sample: Sample) -> None:
    at = open_page("rounds")
    table = at.dataframe[0].value
    assert len(table) == 13  # three preliminary games of 3 rounds and the final's 4; the unfinished round is not
    assert "test:unfinished" not in set(table["game_id"])
    assert sorted(set(table["verdict"])) == ["1 violation", "clean"]
    people = set(data.player_names(TOURNAMENT).values())
    assert set(table["connector"]) - {""} <= people and "" in set(table["connector"])  # by name; nobody: blank
    at.selectbox(key="rounds_code").set_value("wrong_score").run()
    (row,) = at.dataframe[0].value.to_dict("records")
    assert (row["game_id"], row["round"], row["verdict"]) == ("sim-open-1:r1:t1", 1, "1 violation")
    findings = at.dataframe[1].value
    assert findings["code"].tolist() == ["the points written down are wrong"]  # wrong_score, in plain words
    assert findings["line"].tolist() == [sample.wrong_score_line]
    at.selectbox(key="rounds_code").set_value("(all)").run()
    at.selectbox(key="rounds_table").set_value("final").run()
    assert set(at.dataframe[0].value["game_id"]) == {"sim-open-1:final"}
    at.selectbox(key="rounds_verdict").set_value("violations").run()
    (row,) = at.dataframe[0].value.to_dict("records")
    assert (row["game_id"], row["round"]) == (SKIPPED_GAME, SKIPPED_ROUND)
    at.selectbox(key="rounds_code").set_value("wrong_score").run()
    assert any("No finished round matches" in i.value for i in at.info)


def test_rounds_page_opens_a_round_in_replay(open_page: Open) -> None:
    at = open_page("rounds")
    at.selectbox(key="rounds_code").set_value("missed_draw").run()
    at.button[0].click().run()
    assert [t.value for t in at.title] == ["Replay"]
    assert at.selectbox(key="replay_game").value == SKIPPED_GAME
    assert at.selectbox(key="replay_round").value == SKIPPED_ROUND


def test_replay_of_a_tournament_with_no_games_yet_says_so(open_page: Open, db: Path) -> None:
    """A tournament created, none of its games in yet: the page said the store held no
    games, beside a store of dozens."""
    from analytics import records

    records.create(Store(db), "club", name="Club night")
    at = open_page("replay", replay_tournament="club")
    assert [i.value for i in at.info] == ["This tournament has no games yet."]


def _frames(db: Path, game_id: str, number: int) -> list[int]:
    """Steps of round ``number`` with findings (the viewer's own fold, for the expected values)."""
    with Store(db).connect(read_only=True) as con:
        rows = con.execute(
            "SELECT type, payload, line FROM events WHERE stream = ? ORDER BY version", [f"game:{game_id}"]
        ).fetchall()
    view = game_view(stored_lines(rows))
    return [step for step, _ in view.rounds[number].violations]


def test_replay_steps_through_a_round_and_shows_each_violation_at_its_step(
    open_page: Open, db: Path, sample: Sample
) -> None:
    at = open_page("replay", replay_game=SKIPPED_GAME, replay_round=SKIPPED_ROUND)
    assert any(m.value.startswith("**Step 0 of") for m in at.markdown)
    svg = maze(at)
    assert svg.startswith("<svg") and 'class="card start"' in svg and "setup" in svg
    assert svg.count('class="card goal-back"') == 3
    at.button[2].click().run()  # Next
    assert any(m.value.startswith("**Step 1 of") for m in at.markdown)
    assert at.slider(key="replay_step").value == 1
    (step,) = _frames(db, SKIPPED_GAME, SKIPPED_ROUND)
    at.slider(key="replay_step").set_value(step).run()
    errors = [e.value for e in at.error]
    assert any(names.finding("missed_draw") in e and "R-T2" in e for e in errors), errors  # the code in plain words
    assert metric(at, "Draw pile").isdigit() and metric(at, "Discards").isdigit()
    public = at.dataframe[0].value
    assert "role" not in public.columns and "hand" not in public.columns
    assert {"seat", "player", "cards", "broken tools"} <= set(public.columns)
    # a finished round: the referee's view is open to all
    at.radio(key="replay_view").set_value("Referee").run()
    referee = at.dataframe[0].value
    assert {"role", "hand", "looked at"} <= set(referee.columns)
    assert 'data-card="goal_gold"' in maze(at)
    at.button[3].click().run()  # Last
    assert any("by the rules" in s.value for s in at.success)


def test_without_a_store_the_pages_say_how_to_make_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    missing = tmp_path / "none.duckdb"
    monkeypatch.setenv("SABOTEUR_DB", str(missing))
    importlib.reload(data)  # importing the data module reads nothing
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    assert not at.exception
    assert any("There is no store" in i.value and "saboteur ingest" in i.value for i in at.info)
    assert not missing.exists()


def test_a_public_page_names_the_store_without_the_servers_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = tmp_path / "none.duckdb"
    monkeypatch.setenv("SABOTEUR_DB", str(missing))
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    text = page_text(at) + page_text(at.sidebar)
    assert "none.duckdb" in text and str(tmp_path) not in text


def test_a_players_win_rate_by_role_counts_the_rounds_whose_winner_is_known() -> None:
    """The Players page's table by role: a score sheet's round that fits no outcome of the
    rules has no winner (``won`` null, as :func:`analytics.browse.player_rounds` gives
    it). Its points count; as a round it counts in no win rate, as the statistics count
    it (it was a round lost, and the rate 1 of 2 where it is 1 of 1), and the table says
    the rate's trials beside the rounds. The base game's nuggets are counted apart, never
    added to the points (a saboteur's 4 points and 3 nuggets made 7 points)."""
    rounds = pl.DataFrame(
        {
            "ruleset": ["tournament", "tournament", "tournament", "base"],
            "role": ["saboteur", "saboteur", "gold_digger", "saboteur"],
            "won": [True, None, None, True],
            "points": [4, 4, 0, 3],
            "star": [True, True, False, False],
            "winner": ["saboteurs", None, None, "saboteurs"],
        }
    )
    by_role = {r["role"]: r for r in data.player_roles(rounds).iter_rows(named=True)}
    saboteur = by_role["saboteur"]
    assert (saboteur["rounds"], saboteur["n"], saboteur["wins"], saboteur["rate"]) == (3, 2, 2, 1.0)
    assert (saboteur["round_points"], saboteur["nuggets"], saboteur["stars"]) == (8, 3, 2)
    assert (saboteur["low"], saboteur["high"]) == pytest.approx(wilson_of(2, 2))
    digger = by_role["gold_digger"]
    assert (digger["rounds"], digger["n"], digger["rate"], digger["low"], digger["high"]) == (1, 0, None, None, None)
    assert "nuggets" not in data.player_roles(rounds.filter(pl.col("ruleset") == "tournament")).columns
