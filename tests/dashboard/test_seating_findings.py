"""Issue 13: a player at the wrong table is a finding for the organiser — named by
``saboteur ingest``, on the Upload page, the Audit page and above the standings — and
the pages open on the newest tournament, say where they stand in their address, and
mark outcomes without emoji."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import polars as pl
import pytest
from click.testing import Result
from streamlit.testing.v1 import AppTest
from typer.testing import CliRunner

import cli.store
from analytics import browse, records
from analytics.standings import misseated, standings
from cli.main import app
from ingest.pipeline import ingest
from ingest.rebuild import rebuild
from ingest.store import Store
from tests.analytics.test_standings import PLAYERS, T1, T2, TID, description, put, sheet
from tests.dashboard.conftest import APP, PASSWORD, log_in, page_text, run_page

DATA: Final = Path(__file__).resolve().parents[1] / "data"
WRONG: Final = (["ann", "bob", "cem", "dia", "eve", "gus"], ["fay", "hal", "ida", "jan", "kim", "lea"])
"""Round 1's seating with fay and gus swapped: the score sheets seat fay at table 1."""
RIGHT: Final = (["ann", "bob", "cem", "dia", "eve", "fay"], ["gus", "hal", "ida", "jan", "kim", "lea"])
FAY_LINE: Final = "Fay (fay): seated at table 2, but played at table 1 (round 1, hand:r1:t1)"
OWN_PAGES: Final = ("audit", "standings", "upload")


@dataclass(frozen=True)
class Seated:
    db: Path
    files: Path

    @property
    def store(self) -> Store:
        return Store(self.db)

    def cli(self, *args: str) -> Result:
        result = CliRunner().invoke(app, [*args, "--db", str(self.db)])
        assert "Traceback" not in result.output
        return result


def seat(folder: Path, tables: tuple[list[str], list[str]]) -> Seated:
    """The tournament "hand" with round 1 seated as ``tables`` and its two score sheets
    written (not yet ingested), in ``folder``."""
    db = folder / "seated.duckdb"
    files = folder / "files"
    assert put(Store(db), files / "tournament.json", json.dumps(description(TID, PLAYERS))) == "accepted"
    records.publish_seating(Store(db), TID, 1, tables, stage="preliminary", method="by hand", seed=None)
    (files / "r1-t1.csv").write_text(sheet("hand:r1:t1", T1, table="1"), encoding="utf-8")
    (files / "r1-t2.csv").write_text(sheet("hand:r1:t2", T2, table="2"), encoding="utf-8")
    return Seated(db, files)


def in_use(seated: Seated, monkeypatch: pytest.MonkeyPatch) -> Seated:
    """The dashboard reads ``seated``'s store, the organiser's password set."""
    monkeypatch.setenv("SABOTEUR_DB", str(seated.db))
    monkeypatch.setenv("SABOTEUR_ADMIN_PASSWORD", PASSWORD)
    return seated


def seated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tables: tuple[list[str], list[str]]) -> Seated:
    """:func:`seat` in ``tmp_path``, the store the dashboard reads."""
    return in_use(seat(tmp_path, tables), monkeypatch)


Made = Callable[[str, Callable[[Path], Seated], Path], Seated]


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Made:
    """A store made once for the module by ``make`` (in a folder of its own) and copied
    into each test's folder, its store file and its files as made: the two or five jobs
    that make one (a tournament, a seating, an ingest) cost a test 0.2 to 0.7 s."""
    templates: dict[str, Seated] = {}

    def copy(name: str, make: Callable[[Path], Seated], tmp_path: Path) -> Seated:
        if name not in templates:
            templates[name] = make(tmp_path_factory.mktemp(name))
        template = templates[name]
        shutil.copyfile(template.db, tmp_path / template.db.name)
        shutil.copytree(template.files, tmp_path / template.files.name)
        return Seated(tmp_path / template.db.name, tmp_path / template.files.name)

    return copy


@pytest.fixture
def wrong(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, made: Made) -> Seated:
    return in_use(made("wrong", lambda folder: seat(folder, WRONG), tmp_path), monkeypatch)


@pytest.fixture
def right(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, made: Made) -> Seated:
    return in_use(made("right", lambda folder: seat(folder, RIGHT), tmp_path), monkeypatch)


def seating_id(player: str, game: str) -> str:
    return hashlib.sha256(f"seating|{TID}|1|{game}|{player}".encode()).hexdigest()[:12]


# -- at ingest, in the findings, in the standings -------------------------------------------


def test_ingest_lists_a_few_players_at_the_wrong_table_and_counts_the_rest(
    wrong: Seated, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch played on a seating gone wrong has a line a player and game: thousands,
    printed one by one (and each file's looked up in all of them). The ingest lists the
    first few and says how many more ``findings`` lists."""
    monkeypatch.setattr(cli.store, "MOST_MISSEATED", 1)
    result = wrong.cli("ingest", str(wrong.files))
    assert result.exit_code == 0, result.output
    assert f"{seating_id('fay', 'hand:r1:t1')} {FAY_LINE}" in result.output
    assert "Gus (gus)" not in result.output
    assert "and 1 more; saboteur findings hand --open lists them all" in " ".join(result.output.split())


def test_the_rest_of_a_run_of_two_tournaments_is_a_command_for_each(
    wrong: Seated, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Files of two tournaments in one run: the rest was told as "saboteur findings a /
    b --open", a command that does not run. Each tournament has its own, with its own
    count."""
    seat = {"kind": "missing", "table": "1", "tournament_round": 1, "seated_table": "1", "registered": True}
    rows = [  # two tournaments' players at the wrong table, as analytics.standings.misseated gives them
        {**seat, "tournament": t, "game_id": f"{t}:r1:t1", "finding_id": f"{t}{n}", "name": p.title(), "player": p}
        for t, players in (("one", ["ann", "bob", "cem"]), ("two", ["dia", "eve"]))
        for n, p in enumerate(players)
    ]
    monkeypatch.setattr("analytics.standings.misseated", lambda store, games: pl.DataFrame(rows))
    monkeypatch.setattr(cli.store, "MOST_MISSEATED", 1)
    results = [
        cli.store.FileResult(f"{t}.csv", "accepted", "score_sheet", "clean", (f"{t}:r1:t1",), n, 0, "")
        for n, t in enumerate(("one", "two"))
    ]
    out = cli.store.Console(record=True, width=200)
    cli.store._print_misseated(out, wrong.store, results, "en")
    said = " ".join(out.export_text().split())
    assert "and 2 more; saboteur findings one --open lists them all" in said, said
    assert "and 2 more; saboteur findings two --open lists them all" in said, said
    assert " / " not in said


def test_ingest_names_the_player_at_the_wrong_table_and_still_stores_the_game(wrong: Seated) -> None:
    result = wrong.cli("ingest", str(wrong.files / "r1-t1.csv"))
    assert result.exit_code == 0, result.output
    assert "players at the wrong table" in result.output
    assert f"{seating_id('fay', 'hand:r1:t1')} {FAY_LINE}" in result.output
    assert browse.games(wrong.store, TID)["game_id"].to_list() == ["hand:r1:t1"]  # stored as played
    verbose = wrong.cli("ingest", "-v", str(wrong.files / "r1-t2.csv"))
    assert "Gus (gus): seated at table 1, but played at table 2 (round 1, hand:r1:t2)" in verbose.output
    assert "Fay (fay)" not in verbose.output  # each file its own players


def test_a_player_the_tournament_does_not_know_is_said_to_be_unregistered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A mistyped id on a score sheet (zed for fay): the game is stored as played, and
    the finding says zed is not registered, not that zed "is not in the published
    seating", which sent the organiser to the seating for a typo. The command line, the
    stored finding and the Upload page say it alike."""
    for where in ("cli", "page"):
        right = seated(tmp_path / where, monkeypatch, RIGHT)
        typo = right.files / "r1-t1.csv"
        typo.write_text(typo.read_text(encoding="utf-8").replace(",fay,", ",zed,"), encoding="utf-8")
        if where == "page":
            at = log_in(run_page("upload"), PASSWORD)
            at.file_uploader[0].set_value([("r1-t1.csv", typo.read_bytes(), "text/csv")])
            at.button[0].click().run()
            assert not at.exception
            (line,) = [m.value for m in at.markdown if "**zed** (`zed`)" in m.value]
            assert "is not registered in the tournament" in line, line
            assert "a mistyped id, or a player to register" in line, line
            continue
        result = right.cli("ingest", str(typo))
        assert result.exit_code == 0, result.output
        said = " ".join(result.output.split())
        assert (
            "zed (zed): not registered in the tournament (a mistyped id, or a player to register), but played at "
            "table 1 (round 1, hand:r1:t1)"
        ) in said, said
        found = misseated(right.store, tournament=TID)
        zed = found.filter(pl.col("player") == "zed").row(0, named=True)
        assert (zed["kind"], zed["registered"]) == ("unseated", False)
        assert zed["message"] == (
            "zed plays at table 1 in round 1 but is not registered in the tournament: "
            "a mistyped id, or a player to register"
        )
        assert found.filter(pl.col("player") == "fay")["kind"].to_list() == ["missing"]


def test_a_game_that_matches_its_seating_gives_no_finding(right: Seated) -> None:
    result = right.cli("ingest", str(right.files))
    assert result.exit_code == 0 and "wrong table" not in result.output
    assert misseated(right.store, tournament=TID).is_empty()
    assert browse.findings(right.store, TID).is_empty()
    assert standings(right.store, TID)["open_findings"].sum() == 0


def test_a_seating_finding_has_a_stable_id_that_findings_lists_and_the_record_settles(wrong: Seated) -> None:
    wrong.cli("ingest", str(wrong.files))
    fay, gus = seating_id("fay", "hand:r1:t1"), seating_id("gus", "hand:r1:t2")
    listed = browse.findings(wrong.store, TID)
    assert listed.select("finding_id", "code", "player", "status").rows() == [
        (fay, "wrong_table", "fay", "open"),
        (gus, "wrong_table", "gus", "open"),
    ]
    shown = wrong.cli("findings", TID, "--open", "--format", "json")
    assert [(f["finding_id"], f["player"]) for f in json.loads(shown.stdout)] == [(fay, "fay"), (gus, "gus")]
    counted = standings(wrong.store, TID)
    assert dict(counted.select("player", "open_findings").rows()) == {p: int(p in ("fay", "gus")) for p in PLAYERS}

    rebuild(wrong.store)
    assert misseated(wrong.store, tournament=TID)["finding_id"].to_list() == [fay, gus]
    assert wrong.cli("tournament", "dismiss", TID, fay, "--reason", "the referee moved her").exit_code == 0
    penalised = wrong.cli("tournament", "penalty", TID, "--finding", gus, "--points", "1", "--reason", "wrong table")
    assert penalised.exit_code == 0, penalised.output
    statuses = browse.findings(wrong.store, TID).select("finding_id", "status").rows()
    assert statuses == [(fay, "dismissed"), (gus, "penalised")]
    assert standings(wrong.store, TID)["open_findings"].sum() == 0
    assert "no open findings" in wrong.cli("findings", TID, "--open").output


def test_re_seating_the_round_as_played_settles_the_finding(wrong: Seated) -> None:
    wrong.cli("ingest", str(wrong.files))
    records.publish_seating(
        wrong.store, TID, 1, RIGHT, stage="preliminary", method="by hand", seed=None, reason="as played"
    )
    assert misseated(wrong.store, tournament=TID).is_empty()


# -- on the pages ------------------------------------------------------------------------


def test_the_upload_page_names_the_player_at_the_wrong_table(wrong: Seated) -> None:
    at = log_in(run_page("upload"), PASSWORD)
    at.file_uploader[0].set_value([("r1-t1.csv", (wrong.files / "r1-t1.csv").read_bytes(), "text/csv")])
    at.button[0].click().run()
    assert not at.exception
    results = at.dataframe[0].value  # this upload's files; the files received before are below
    # fay plays at table 1, seated at 2; gus, seated at 1, is in no game stored yet: both are said
    assert results["outcome"].tolist() == ["accepted"] and results["wrong table"].tolist() == [2]
    (said, missing) = [m.value for m in at.markdown if "is seated at table" in m.value]
    assert said.startswith(":orange[:material/event_seat:] **Fay** (`fay`) is seated at table 2 in round 1")
    # ids as code: copied into a command as typed (escaped, they held invisible word joiners)
    assert "the game `hand:r1:t1` has them" in said and "\u2060" not in said
    assert "has them at table 1" in said and f"finding `{seating_id('fay', 'hand:r1:t1')}`" in said
    assert missing.startswith(":orange[:material/event_seat:] **Gus** (`gus`) is seated at table 1 in round 1")
    assert "at that table does not have them" in missing and "hand" in missing


def test_the_upload_page_names_a_player_in_two_games_of_one_round(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-TS1, one game a round, judged where no seating is published: a second game of
    round 1 with table 1's players names each of them under the file, with the finding."""
    db = tmp_path / "unseated.duckdb"
    files = tmp_path / "files"
    assert put(Store(db), files / "tournament.json", json.dumps(description(TID, PLAYERS))) == "accepted"
    assert put(Store(db), files / "r1-t1.csv", sheet("hand:r1:t1", T1, table="1")) == "accepted"
    monkeypatch.setenv("SABOTEUR_DB", str(db))
    monkeypatch.setenv("SABOTEUR_ADMIN_PASSWORD", PASSWORD)
    at = log_in(run_page("upload"), PASSWORD)
    at.file_uploader[0].set_value([("r1-t3.csv", sheet("hand:r1:t3", T1, table="3").encode(), "text/csv")])
    at.button[0].click().run()
    assert not at.exception
    said = [m.value for m in at.markdown if "more than one game of round 1" in m.value]
    assert len(said) == len(T1[1]) and said[0].startswith(":orange[:material/event_seat:] **")
    assert all("t3` has them at table 3. Stored as played" in line for line in said), said  # the id as code
    assert all("(penalty or dismissal)" in line for line in said), said


def test_the_audit_page_lists_seating_findings_with_what_to_do(wrong: Seated) -> None:
    wrong.cli("ingest", str(wrong.files))
    at = log_in(run_page("audit"), PASSWORD)
    assert not at.exception
    assert "Players at the wrong table" in [s.value for s in at.header]
    (listed,) = [m.value for m in at.markdown if "what to do" in m.value]
    assert seating_id("fay", "hand:r1:t1") in listed and "Fay is seated at table 2 in round 1" in listed
    assert "saboteur tournament seat hand --round 1 --replace --reason" in listed
    assert "penalty" in listed and "dismiss" in listed
    assert at.metric[0].value == "2"


def test_the_standings_page_shows_a_seating_notice_above_the_table(wrong: Seated) -> None:
    wrong.cli("ingest", str(wrong.files))
    at = run_page("standings")
    (notice,) = [w.value for w in at.warning if "Seating" in w.value]
    assert "2 players played at another table" in notice and "Fay" in notice and "Gus" in notice
    assert "2 open findings" not in page_text(at) and "1 open finding" in page_text(at)


def test_the_command_line_standings_say_so_under_the_table(wrong: Seated) -> None:
    """The same notice under ``saboteur standings``' table, until it is settled: its
    count of open findings alone did not say what they were."""
    wrong.cli("ingest", str(wrong.files))
    said = wrong.cli("standings", TID).output
    assert (
        "2 players played at another table than the published seating: their games count as played until the "
        f"organiser settles it (saboteur findings {TID} --open)" in " ".join(said.split())
    ), said
    records.publish_seating(
        wrong.store, TID, 1, RIGHT, stage="preliminary", method="by hand", seed=None, reason="as played"
    )
    assert "published seating" not in wrong.cli("standings", TID).output


def seat_twice(folder: Path) -> Seated:
    """Two rounds seated as :data:`WRONG` and both rounds' sheets ingested, in ``folder``."""
    db = folder / "twice.duckdb"
    files = folder / "files"
    tournament = description(TID, PLAYERS, preliminary_rounds=2)
    assert put(Store(db), files / "tournament.json", json.dumps(tournament)) == "accepted"
    for number in (1, 2):
        records.publish_seating(Store(db), TID, number, WRONG, stage="preliminary", method="by hand", seed=None)
        for table, game in (("1", T1), ("2", T2)):
            game_id = f"hand:r{number}:t{table}"
            sheet_text = sheet(game_id, game, number=number, table=table)
            (files / f"r{number}-t{table}.csv").write_text(sheet_text, encoding="utf-8")
    seated = Seated(db, files)
    assert seated.cli("ingest", str(files)).exit_code == 0
    return seated


@pytest.fixture
def twice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, made: Made) -> Seated:
    """Fay and gus swapped in both rounds of two: four open findings, two players."""
    seated = in_use(made("twice", seat_twice, tmp_path), monkeypatch)
    found = browse.findings(seated.store, TID).filter(pl.col("code") == "wrong_table")
    assert sorted(found["player"]) == ["fay", "fay", "gus", "gus"]
    return seated


def test_the_standings_page_counts_the_players_at_the_wrong_table_not_their_findings(twice: Seated) -> None:
    """Two players at the wrong table in each of two rounds were "4 players": the
    notice counted the findings. It says 2, and lists each round's finding."""
    (notice,) = [w.value for w in run_page("standings").warning if "Seating" in w.value]
    assert "Seating: 2 players played at another table" in notice, notice
    assert notice.count("Fay") == 2 and notice.count("Gus") == 2, notice


def test_the_command_line_standings_count_the_players_at_the_wrong_table_not_their_findings(twice: Seated) -> None:
    """As the page: two players at the wrong table in two rounds were "4 players"."""
    said = " ".join(twice.cli("standings", TID).output.split())
    assert "2 players played at another table than the published seating" in said, said


def test_no_seating_notice_and_no_seating_list_when_games_match(right: Seated) -> None:
    right.cli("ingest", str(right.files))
    assert not [w for w in run_page("standings").warning if "Seating" in w.value]
    audit = log_in(run_page("audit"), PASSWORD)
    assert "Players at the wrong table" not in [s.value for s in audit.header]


# -- what the pages open on, and their addresses --------------------------------------------


@pytest.fixture
def two(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Store:
    """Two tournaments: "aaa" (alphabetically first) created before "zzz" (the newest)."""
    db = tmp_path / "two.duckdb"
    for tournament in ("aaa", "zzz"):
        assert put(Store(db), tmp_path / tournament / "tournament.json", json.dumps(description(tournament, PLAYERS)))
    monkeypatch.setenv("SABOTEUR_DB", str(db))
    monkeypatch.setenv("SABOTEUR_ADMIN_PASSWORD", PASSWORD)
    return Store(db)


@pytest.mark.parametrize(("page", "key"), [("standings", "standings_tournament"), ("round", "round_tournament")])
def test_pages_open_on_the_newest_tournament(two: Store, page: str, key: str) -> None:
    at = run_page(page)
    assert at.selectbox(key=key).value == "zzz"
    assert at.selectbox(key=key).options == ["Hand Open (aaa)", "Hand Open (zzz)"]  # listed by id, as before


def test_a_page_of_every_tournament_opens_on_the_newest_with_games(two: Store, tmp_path: Path) -> None:
    at = run_page("rounds")
    assert at.selectbox(key="rounds_tournament").value == "(all)"  # no games anywhere: every tournament
    assert put(two, tmp_path / "aaa.csv", sheet("aaa:r1:t1", T1, tournament="aaa")) == "accepted"
    at = run_page("rounds")
    assert at.selectbox(key="rounds_tournament").value == "aaa"  # zzz is newer, but has no games yet


def test_the_audit_page_opens_on_the_newest_tournament_and_names_it_in_its_address(two: Store) -> None:
    at = log_in(run_page("audit"), PASSWORD)
    assert at.selectbox(key="audit_tournament").value == "zzz"
    assert at.query_params["tournament"] == "zzz"
    asked = AppTest.from_file(str(APP), default_timeout=60)
    asked.query_params["tournament"] = "aaa"
    asked.switch_page("views/audit.py").run()
    log_in(asked, PASSWORD)
    assert asked.selectbox(key="audit_tournament").value == "aaa"


def test_the_standings_address_names_tournament_and_stage(two: Store) -> None:
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["tournament"] = "aaa"
    at.query_params["stage"] = "final"
    at.switch_page("views/standings.py").run()
    assert not at.exception
    assert at.selectbox(key="standings_tournament").value == "aaa"
    assert at.radio(key="standings_stage").value == "final"
    at.radio(key="standings_stage").set_value("preliminary").run()
    assert at.query_params["stage"] == "preliminary" and at.query_params["tournament"] == "aaa"


def test_the_stage_chosen_does_not_carry_over_to_another_tournament(two: Store) -> None:
    at = run_page("standings")
    at.radio(key="standings_stage").set_value("final").run()
    assert at.radio(key="standings_stage").value == "final"
    at.selectbox(key="standings_tournament").set_value("aaa").run()
    assert at.radio(key="standings_stage").value == "preliminary"


def test_roles_open_on_the_ruleset_with_the_most_rounds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "rulesets.duckdb"
    games = tmp_path / "games"
    games.mkdir()
    for path in (DATA / "good").glob("*.jsonl"):
        (games / path.name).write_bytes(path.read_bytes())
    again = (DATA / "good" / "tournament_3_rounds.jsonl").read_text(encoding="utf-8")
    (games / "again.jsonl").write_text(again.replace("fixture:good:tournament", "fixture:good:again"), encoding="utf-8")
    ingest([games], Store(db), workers=1)  # tournament: 6 rounds, base: 3
    played = browse.query(
        Store(db), "SELECT ruleset, sum(rounds_played) AS rounds FROM games GROUP BY ruleset ORDER BY rounds DESC"
    )
    assert played.height == 2 and played["rounds"][0] > played["rounds"][1]
    assert browse.rulesets(Store(db)) == ["tournament", "base"] == played["ruleset"].to_list()
    monkeypatch.setenv("SABOTEUR_DB", str(db))
    assert run_page("roles").radio(key="roles_ruleset").value == played["ruleset"][0]


# -- no emoji ------------------------------------------------------------------------------

EMOJI: Final = re.compile("[\u2600-\u27bf\u2b00-\u2bff\ufe0f\U0001f000-\U0001faff]")
"""Characters drawn from an emoji font (symbols, dingbats, pictographs, the emoji
variation selector): an empty box where none is installed."""


@pytest.mark.parametrize("module", [*(f"dashboard/views/{page}.py" for page in OWN_PAGES), "dashboard/widgets.py"])
def test_no_page_of_these_writes_an_emoji(module: str) -> None:
    text = (Path(__file__).resolve().parents[2] / module).read_text(encoding="utf-8")
    found = {f"U+{ord(c):04X} {unicodedata.name(c, '?')}" for c in EMOJI.findall(text)}
    assert not found, found


def test_the_upload_outcomes_are_material_icons(wrong: Seated) -> None:
    at = log_in(run_page("upload"), PASSWORD)
    at.file_uploader[0].set_value([("r1-t1.csv", (wrong.files / "r1-t1.csv").read_bytes(), "text/csv")])
    at.button[0].click().run()
    assert not EMOJI.search(page_text(at))
    assert any(m.value.startswith(":green[:material/check_circle:] **r1-t1.csv**") for m in at.markdown)


# -- stats players says what its points are ------------------------------------------------------


def test_stats_players_labels_its_points_as_round_points(wrong: Seated) -> None:
    wrong.cli("ingest", str(wrong.files))
    records.penalty(wrong.store, TID, "ann", 2, "slow play")
    shown = CliRunner().invoke(
        app, ["stats", "players", "--tournament", TID, "--db", str(wrong.db)], env={"COLUMNS": "200"}
    )  # as wide as the table: at 80 columns (one process, no terminal) it is folded to "…"
    assert shown.exit_code == 0, shown.output
    assert "round points" in shown.output and "before corrections and penalties" in shown.output
    assert "saboteur standings" in shown.output
    ann = standings(wrong.store, TID).filter(pl.col("player") == "ann")
    assert int(ann["points"][0]) == 6 - 2  # the standings take the penalty; stats players says it does not


def test_a_seated_player_missing_from_their_table_s_game_is_a_finding_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34: a game with five of the six players seated at its table — or with a
    stranger in the sixth seat — is said for the one missing as well as for the one who
    should not be there; one who played at another table is said once, there."""
    absent = seated(tmp_path, monkeypatch, RIGHT)
    five = {n: [e for e in entries if e[0] != "fay"] for n, entries in T1.items()}  # fay, seated at 1, in no game
    (absent.files / "five.csv").write_text(sheet("hand:r1:t1", five, table="1"), encoding="utf-8")
    assert absent.cli("ingest", str(absent.files / "five.csv")).exit_code == 0
    found = misseated(absent.store, tournament=TID)
    assert found.select("player", "kind", "game_id").rows() == [("fay", "missing", "hand:r1:t1")]
    (finding,) = browse.findings(absent.store, TID).filter(pl.col("player") == "fay").iter_rows(named=True)
    assert finding["code"] == "wrong_table" and "is not in its game hand:r1:t1" in finding["message"]
    assert standings(absent.store, TID).filter(pl.col("player") == "fay")["open_findings"].to_list() == [1]
    # a stranger in the sixth seat: both the stranger and the one missing are said
    stranger = {n: [("hal", *e[1:]) if e[0] == "fay" else e for e in entries] for n, entries in T1.items()}
    (absent.files / "stranger.csv").write_text(sheet("hand:r1:t1", stranger, table="1"), encoding="utf-8")
    again = absent.cli("ingest", "--supersede", "--reason", "hal sat in", str(absent.files / "stranger.csv"))
    assert again.exit_code == 0, again.output
    kinds = dict(misseated(absent.store, tournament=TID).select("player", "kind").rows())
    assert kinds == {"fay": "missing", "hal": "elsewhere"}
