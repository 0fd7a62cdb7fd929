"""The structure of a tournament (R-TS1..R-TS5): events/rules/tournament.py, and where
its checks meet the records — a ``tournament.json`` ingested, the organiser's commands.

Each rule has a legal case and an illegal one; a ``tournament.json`` that breaks a rule
is refused whole as ``malformed``, its message naming the field and the rule.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from random import Random
from typing import Any, Final

import polars as pl
import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from analytics import records
from analytics.browse import open_findings
from analytics.standings import standings
from cli.main import app
from events.builder import LogBuilder
from events.language import words
from events.records import dump
from events.records.tournament import TOURNAMENT_EVENT, TournamentCreated
from events.rules.tournament import (
    MAX_TABLE,
    MIN_TABLE,
    Standing,
    check_cut,
    check_cut_draw,
    check_final_rounds,
    check_preliminary_rounds,
    check_seating,
    cut_line,
    draw_cut,
    ranking,
    seat,
    table_sizes,
)
from events.simulate.tournament import simulate_tournament, top_cut
from ingest.pipeline import ingest
from ingest.sources import prepare_bytes
from ingest.store import Store

TEN = ("ann", "bob", "cem", "dia", "eve", "fay", "gus", "hal", "ida", "jan")


def description(**fields: Any) -> dict[str, Any]:
    """A tournament.json of ten players, changed by ``fields``."""
    return {
        "format": "saboteur-tournament/1",
        "id": "cup",
        "name": "Cup",
        "preliminary_rounds": 4,
        "cut": 6,
        "final_rounds": 4,
        "players": [{"id": p, "name": p.title()} for p in TEN],
        **fields,
    }


def verdict(**fields: Any) -> tuple[str, list[tuple[str, str]]]:
    """The status of the tournament.json, and the code and message of each violation."""
    prepared = prepare_bytes("tournament.json", json.dumps(description(**fields)).encode("utf-8"))
    report = json.loads(prepared.report)
    return prepared.status, [(v["code"], v["message"]) for v in report["violations"]]


def malformed(field: str, message: str) -> tuple[str, list[tuple[str, str]]]:
    return "unreadable", [("malformed", f"not a tournament file: `{field}`: {message}")]


def seating(
    *tables: tuple[str, ...], stage: str = "preliminary", number: int = 1, labels: tuple[str, ...] = ()
) -> dict[str, Any]:
    return {
        "tournament_round": number,
        "stage": stage,
        "tables": [
            {"table": labels[n - 1] if labels else str(n), "players": list(t)} for n, t in enumerate(tables, start=1)
        ],
    }


# -- R-TS1: preliminary rounds and tables -------------------------------------------------


@pytest.mark.parametrize("players", range(MIN_TABLE, 64))
def test_r_ts1_a_drawn_seating_seats_everyone_at_tables_of_5_to_10(players: int) -> None:
    names = [f"p{i}" for i in range(players)]
    tables = seat(names, Random(players))
    assert not check_seating(tables, names, everyone=True)
    assert [len(t) for t in tables] == list(table_sizes(players))


def test_r_ts1_a_seating_in_tables_of_5_to_10_is_legal() -> None:
    assert verdict(seatings=[seating(TEN[:5], TEN[5:])]) == ("clean", [])
    assert verdict(seatings=[seating(TEN)]) == ("clean", [])


@pytest.mark.parametrize(
    ("tables", "message"),
    [
        ((TEN[:6], TEN[6:]), f"table 2 seats 4 players: a table seats {MIN_TABLE} to {MAX_TABLE}"),
        ((TEN[:5], (*TEN[5:9], "ann")), "table 2: 'ann' is already seated at table 1"),
        ((TEN[:5], (*TEN[5:9], "zed")), "table 2: 'zed' is not a registered player"),
    ],
    ids=["table of four", "seated twice", "not registered"],
)
def test_r_ts1_a_seating_that_breaks_the_tables_is_malformed(tables: tuple[tuple[str, ...], ...], message: str) -> None:
    assert verdict(seatings=[seating(*tables)]) == malformed("seatings.0", f"round 1: {message} (R-TS1)")


@pytest.mark.parametrize(
    ("seatings", "field", "message"),
    [
        (
            [seating(TEN, number=7)],
            "seatings.0",
            "round 7 is not a preliminary round: the tournament announced 4, rounds 1 to 4 (R-TS1)",
        ),
        (
            [seating(TEN[:6], number=6, stage="final")],
            "seatings.0",
            "the final is round 5 of this tournament, not round 6 (R-TS4)",
        ),
        (
            [seating(TEN[:6], number=5, stage="semifinal")],
            "seatings.0",
            "the tournament announced no semi-final (R-TS3)",
        ),
        (
            [seating(TEN), seating(TEN[::-1])],
            "seatings.1",
            "a second seating of round 1: a file seats a round once (R-TS1)",
        ),
        ([seating(TEN[:5], TEN[5:], labels=("7", "7"))], "seatings.0", "round 1: table 7 is labelled twice (R-TS1)"),
        (
            [seating(TEN[:5], (*TEN[5:9], "zed"), labels=("12", "14"))],
            "seatings.0",
            "round 1: table 14: 'zed' is not a registered player (R-TS1)",
        ),
    ],
    ids=[
        "round-not-announced",
        "final-misnumbered",
        "semifinal-not-announced",
        "seated-twice",
        "a-label-twice",
        "named-by-label",
    ],
)
def test_r_ts1_a_tournament_file_is_refused_what_the_seat_command_refuses(
    seatings: list[dict[str, Any]], field: str, message: str
) -> None:
    """rules.md: a record that breaks R-TS is refused by the command and malformed in a
    ``tournament.json``. The file took seatings no command records: a round not
    announced (its games then judged against no seating), a round seated twice (the
    later silently winning), a label twice (a "table 1" of ten). A problem names the
    round and the table's label."""
    assert verdict(seatings=seatings) == malformed(field, message)


@pytest.mark.parametrize(
    ("draws", "field", "message"),
    [
        (
            [{"stage": "final", "tied": ["ann", "bob"], "places": 1, "drawn": ["ann"]}],
            "cut_draws.0",
            "a draw at the cut of the final, which has none (R-TS4)",
        ),
        (
            [
                {"tied": ["ann", "bob"], "places": 1, "drawn": ["ann"]},
                {"tied": ["ann", "bob"], "places": 1, "drawn": ["bob"]},
            ],
            "cut_draws.1",
            "a second draw at the cut: a tie at the cut line is drawn once (R-TS2)",
        ),
    ],
    ids=["at-the-final", "twice"],
)
def test_r_ts2_a_tournament_file_is_refused_a_draw_the_cut_command_refuses(
    draws: list[dict[str, Any]], field: str, message: str
) -> None:
    assert verdict(cut_draws=draws) == malformed(field, message)


@pytest.mark.parametrize("rounds", [0, 21])
def test_r_ts1_preliminary_rounds_announced_within_limits(rounds: int) -> None:
    assert not check_preliminary_rounds(4)
    assert not check_preliminary_rounds(5)
    message = f"a tournament plays 1 to 20 preliminary rounds, not {rounds} (R-TS1)"
    assert verdict(preliminary_rounds=rounds) == malformed("preliminary_rounds", message)


@pytest.mark.parametrize(
    ("options", "notes"),
    [
        ([], []),
        (["--preliminary-rounds", "5"], []),
        (["--preliminary-rounds", "3"], ["note: 3 preliminary rounds, where the tournament rules announce 4 or 5"]),
        (
            ["--cut", "8", "--final-rounds", "3"],
            [
                "the best 8 go on, where the tournament rules take 6 (R-TS3)",
                "a final of 3 rounds, where the tournament rules play 4 (R-TS4)",
            ],
        ),
    ],
)
def test_r_ts1_3_4_a_tournament_announced_otherwise_is_created_with_a_note(
    tmp_path: Path, options: list[str], notes: list[str]
) -> None:
    """R-TS1, R-TS3, R-TS4: 4 or 5 preliminary rounds, the best 6, a final of 4 rounds.
    An organiser may announce otherwise (a club evening of 3 rounds, a final of 8): the
    tournament is created as announced, and each departure is said, so a typo is seen."""
    db = tmp_path / "ledger.duckdb"
    result = CliRunner().invoke(app, ["tournament", "create", "cup", "--name", "Cup", "--db", str(db), *options])
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert all(note in said for note in notes), said
    assert said.count("note:") == len(notes)


# -- R-TS2: the ranking and the draw at the cut line ----------------------------------------


def test_r_ts2_ranked_by_points_then_stars() -> None:
    standings = {"ann": Standing(9, 0), "bob": Standing(9, 2), "cem": Standing(12, 0), "dia": Standing(9, 2)}
    assert ranking(standings) == ["cem", "bob", "dia", "ann"]


def test_r_ts2_one_draw_replayable_from_its_seed_and_legal() -> None:
    """The simulator and ``saboteur tournament cut`` draw with the same function: the
    same tie and seed give the same draw, and the draw fits its tie."""
    standings = {p: Standing(10, 1) for p in "bcdefgh"} | {"a": Standing(20, 2)}
    finalists, draws = top_cut(standings, 6, Random(5))
    clear, tie = cut_line(standings, 6)
    assert tie is not None and (clear, tie.places) == (["a"], 5)
    drawn = draw_cut(tie.tied, tie.places, Random(5))
    assert finalists == ["a", *drawn]
    assert draws == [{"tied": list("bcdefgh"), "places": 5, "drawn": drawn, "points": 10, "stars": 1}]
    assert draw_cut(reversed(tie.tied), tie.places, Random(5)) == drawn  # the order given does not matter
    assert not check_cut_draw(list(tie.tied), tie.places, drawn)
    registered = [{"id": p, "name": p.upper()} for p in "abcdefgh"]  # a draw is among registered players
    assert verdict(cut_draws=draws, players=registered) == ("clean", [])


@pytest.mark.parametrize(
    ("draw", "message"),
    [
        ({"tied": ["ann", "ann"], "places": 1, "drawn": ["ann"]}, "a draw is among two or more different tied players"),
        ({"tied": ["ann", "bob"], "places": 2, "drawn": ["ann", "bob"]}, "2 tied players draw for 1 to 1 places"),
        (
            {"tied": ["ann", "bob"], "places": 1, "drawn": ["cem"]},
            "'cem' is drawn but not among the tied (ann and bob)",
        ),
        (
            {"tied": ["ann", "bob", "cem"], "places": 2, "drawn": ["ann"]},
            "a draw for 2 places names 2 different players",
        ),
    ],
    ids=["tied twice", "no place short", "drawn not tied", "too few drawn"],
)
def test_r_ts2_a_recorded_draw_that_does_not_fit_its_tie_is_malformed(draw: dict[str, Any], message: str) -> None:
    assert verdict(cut_draws=[draw]) == malformed("cut_draws.0", f"{message} (R-TS2)")


# -- R-TS3: the top cut ---------------------------------------------------------------------


def test_r_ts3_the_best_six_go_on() -> None:
    standings = {p: Standing(points, 0) for points, p in enumerate(TEN)}
    assert cut_line(standings, 6) == (list(reversed(TEN))[:6], None)
    assert not check_cut(6)
    assert verdict(cut=6)[0] == "clean"


@pytest.mark.parametrize("cut", [4, 11])
def test_r_ts3_a_cut_that_cannot_fill_the_final_table_is_refused(cut: int, tmp_path: Path) -> None:
    message = f"a cut of 5 to 10 players fills the final table, not {cut}"
    assert verdict(cut=cut) == malformed("cut", f"{message} (R-TS3)")
    with pytest.raises(records.RecordError, match=f"^{message}$"):
        records.create(Store(tmp_path / "s.duckdb"), "cup", name="Cup", cut=cut)
    result = CliRunner().invoke(app, ["simulate", "tournament", "--cut", str(cut), "-o", str(tmp_path / "sim")])
    assert result.exit_code == 2 and "fills the final table" in result.output


# -- R-TS4: the final -------------------------------------------------------------------------


def test_r_ts4_the_final_is_one_game_of_at_most_four_rounds(tmp_path: Path) -> None:
    assert not check_final_rounds(4)
    record = simulate_tournament(tmp_path, players=12, preliminary_rounds=1, seed=2, final_rounds=4)
    final = json.loads((tmp_path / "final.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert (final["stage"], final["rounds"], len(final["players"])) == ("final", 4, 6)
    assert record.description["seatings"][-1]["tables"] == [{"table": "final", "players": final["players"]}]
    for rounds in (0, 5):
        message = f"the final is one game of 1 to 4 rounds, not {rounds} (R-TS4)"
        assert verdict(final_rounds=rounds) == malformed("final_rounds", message)


# -- R-TS5: the record ------------------------------------------------------------------------

SHEET = """tournament,tournament_round,table,game_id,round,player,role,points,star
cup,1,1,cup:r1:t1,1,ann,gold_digger,2,0
cup,1,1,cup:r1:t1,1,bob,gold_digger,2,0
cup,1,1,cup:r1:t1,1,cem,saboteur,0,0
cup,1,1,cup:r1:t1,1,dia,gold_digger,2,0
cup,1,1,cup:r1:t1,1,eve,selfish_dwarf,0,0
cup,1,1,cup:r1:t1,2,ann,saboteur,4,0
cup,1,1,cup:r1:t1,2,bob,gold_digger,0,0
cup,1,1,cup:r1:t1,2,cem,selfish_dwarf,0,0
cup,1,1,cup:r1:t1,2,dia,gold_digger,0,0
cup,1,1,cup:r1:t1,2,eve,gold_digger,0,0
cup,1,1,cup:r1:t1,3,ann,gold_digger,2,0
cup,1,1,cup:r1:t1,3,bob,gold_digger,2,0
cup,1,1,cup:r1:t1,3,cem,saboteur,0,0
cup,1,1,cup:r1:t1,3,dia,gold_digger,2,0
cup,1,1,cup:r1:t1,3,eve,selfish_dwarf,0,0
"""
"""Round 2: ann, the saboteur, holds out (4 points) but the star is not ticked. Rounds 1
and 3: cem, the saboteur, connects: the gold diggers 2 each."""


def test_r_ts5_a_wrong_score_is_put_right_by_a_correction_and_nothing_is_erased(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.duckdb")
    (tmp_path / "tournament.json").write_text(json.dumps(description()), encoding="utf-8")
    (tmp_path / "r1-t1.csv").write_text(SHEET, encoding="utf-8")
    outcomes = [r.outcome for r in ingest([tmp_path], store, workers=1)]
    assert outcomes == ["accepted", "accepted_with_findings"]
    assert open_findings(store, "cup")["code"].to_list() == ["wrong_score"]
    # a correction that leaves the round still none of the outcomes R-W1 allows settles nothing
    records.correct(store, "cup", "cup:r1:t1", 2, "ann", 3, "3 points, as the star was not ticked")
    assert open_findings(store, "cup")["code"].to_list() == ["wrong_score"]
    records.correct(store, "cup", "cup:r1:t1", 2, "ann", 4, "the star was not ticked", star=True)
    records.penalty(store, "cup", "bob", 1, "late")
    assert not len(open_findings(store, "cup"))  # settled by the correction
    with store.connect(read_only=True) as con:
        kept = con.execute("SELECT code FROM findings").fetchall()
        reasons = con.execute("SELECT reason FROM corrections UNION ALL SELECT reason FROM penalties").fetchall()
    assert kept == [("wrong_score",)]  # nothing erased: the finding stays in the record
    assert sorted(reasons) == [("3 points, as the star was not ticked",), ("late",), ("the star was not ticked",)]


def _open_beside(store: Store) -> dict[str, int]:
    return {p: n for p, n in standings(store, "cup").select("player", "open_findings").rows() if n}


def test_r_ts5_the_standings_count_the_open_findings_the_findings_list_has(tmp_path: Path) -> None:
    """A finding penalised, dismissed or settled is no longer open, in the findings list
    and beside the standings alike; a finding of any code stands there while it is open
    (the standings counted only wrong_score, and went on counting it once penalised)."""
    store = Store(tmp_path / "s.duckdb")
    (tmp_path / "tournament.json").write_text(json.dumps(description()), encoding="utf-8")
    roles = SHEET.replace("cup,1,1,cup:r1:t1,1,eve,selfish_dwarf", "cup,1,1,cup:r1:t1,1,eve,saboteur")
    (tmp_path / "r1-t1.csv").write_text(roles, encoding="utf-8")
    ingest([tmp_path], store, workers=1)
    listed = open_findings(store, "cup")
    assert sorted(listed["code"]) == ["bad_roles", "wrong_score"]
    assert _open_beside(store) == dict.fromkeys(["ann", "bob", "cem", "dia", "eve"], 2)  # each names no one
    (wrong,) = listed.filter(pl.col("code") == "wrong_score")["finding_id"]
    records.penalty_for(store, "cup", wrong, 1, "the star was not ticked", player="ann")
    assert open_findings(store, "cup")["code"].to_list() == ["bad_roles"]
    assert _open_beside(store) == dict.fromkeys(["ann", "bob", "cem", "dia", "eve"], 1)
    (roles_finding,) = open_findings(store, "cup")["finding_id"]
    records.dismiss(store, "cup", roles_finding, "the roles were dealt right; the sheet was misread")
    assert _open_beside(store) == {}
    # one finding, one decision: a second penalty counted twice; a dismissal after a
    # penalty showed the finding dismissed with its penalty still deducted
    with pytest.raises(records.RecordError, match=f"^finding {wrong} has had its penalty already$"):
        records.penalty_for(store, "cup", wrong, 1, "again", player="ann")
    with pytest.raises(records.RecordError, match=f"^finding {wrong} has had its penalty already$"):
        records.dismiss(store, "cup", wrong, "it was fine after all")
    with pytest.raises(records.RecordError, match=f"^finding {roles_finding} was dismissed already$"):
        records.penalty_for(store, "cup", roles_finding, 1, "after all", player="bob")
    assert standings(store, "cup")["penalty"].sum() == 1


def _table_seven(store: Store, folder: Path, game_id: str = "cup:r1:t7") -> None:
    """Table 7's game of round 1 of "cup" (its five players pass out one round), ingested."""
    log = LogBuilder(players=list(TEN[5:]), game_id=game_id, tournament="cup", tournament_round=1, table="7")
    log.deal().pass_out()
    log.end_round()
    log.end_game()
    (folder / f"{game_id}.jsonl").write_text(log.text(), encoding="utf-8")
    ingest([folder / f"{game_id}.jsonl"], store, workers=1)


def test_r_ts1_a_seating_by_hand_keeps_the_halls_table_labels(tmp_path: Path) -> None:
    """`seat --from-csv` with tables labelled 3 and 7, as the hall numbers them: the
    seating keeps those labels (it numbered them 1 and 2), so the log of table 7 matches
    its seating and `check` finds nothing."""
    store = Store(tmp_path / "s.duckdb")
    (tmp_path / "tournament.json").write_text(json.dumps(description()), encoding="utf-8")
    ingest([tmp_path / "tournament.json"], store, workers=1)
    by_hand = tmp_path / "seating.csv"
    by_hand.write_text("table,player\n" + "".join(f"{3 if i < 5 else 7},{p}\n" for i, p in enumerate(TEN)))
    db = ["--db", str(tmp_path / "s.duckdb")]
    seated = CliRunner().invoke(app, ["tournament", "seat", "cup", "--round", "1", "--from-csv", str(by_hand), *db])
    assert seated.exit_code == 0, seated.output
    with store.connect(read_only=True) as con:
        tables = con.execute("SELECT DISTINCT table_label FROM seatings ORDER BY ALL").fetchall()
    assert tables == [("3",), ("7",)]
    _table_seven(store, tmp_path)
    checked = CliRunner().invoke(app, ["tournament", "check", "cup", *db])
    assert checked.exit_code == 0, checked.output
    assert "every game matches its published seating" in checked.output


def test_r_ts1_a_tables_game_stored_twice_is_said_even_where_every_seat_matches(tmp_path: Path) -> None:
    """R-TS1, one game a round: table 7's log stored a second time under another game
    id. Every player sits where the seating puts them, so nothing was said, and all of
    them were counted twice; now each is `wrong_table` (twice) and `check` names the
    table."""
    store = Store(tmp_path / "s.duckdb")
    (tmp_path / "tournament.json").write_text(json.dumps(description()), encoding="utf-8")
    ingest([tmp_path / "tournament.json"], store, workers=1)
    db = ["--db", str(tmp_path / "s.duckdb")]
    by_hand = tmp_path / "seating.csv"
    by_hand.write_text("table,player\n" + "".join(f"{3 if i < 5 else 7},{p}\n" for i, p in enumerate(TEN)))
    assert CliRunner().invoke(app, ["tournament", "seat", "cup", "--round", "1", "--from-csv", str(by_hand), *db])
    for game_id in ("cup:r1:t7", "cup:r1:t7-again"):
        _table_seven(store, tmp_path, game_id)
    twice = open_findings(store, "cup").filter(pl.col("code") == "wrong_table")
    assert sorted(twice["player"]) == sorted(TEN[5:] * 2)
    assert standings(store, "cup").filter(pl.col("open_findings") > 0)["player"].sort().to_list() == sorted(TEN[5:])
    checked = CliRunner().invoke(app, ["tournament", "check", "cup", *db])
    assert checked.exit_code == 1
    assert checked.output.count("2 games of this round are at this table") == 2
    assert "a header without its tournament" in " ".join(checked.output.split())  # what takes the copy out
    rounds = standings(store, "cup").filter(pl.col("player") == TEN[5])["rounds"].item()
    # as check says: the copy superseded by its log with no tournament in its header
    copy = LogBuilder(players=list(TEN[5:]), game_id="cup:r1:t7-again")
    copy.deal().pass_out()
    copy.end_round()
    copy.end_game()
    (tmp_path / "again.jsonl").write_text(copy.text(), encoding="utf-8")
    (result,) = ingest([tmp_path / "again.jsonl"], store, workers=1, supersede=True, reason="stored twice")
    assert result.outcome.startswith("accepted"), result
    assert standings(store, "cup").filter(pl.col("player") == TEN[5])["rounds"].item() == rounds // 2
    assert CliRunner().invoke(app, ["tournament", "check", "cup", *db]).exit_code == 0
    assert open_findings(store, "cup").filter(pl.col("code") == "wrong_table").is_empty()


def _four_at_once(record: Callable[[int], object]) -> list[str]:
    """What each of four threads that start ``record(0)`` … ``record(3)`` at one moment
    was told: "recorded", or the refusal's words (two organisers, two threads of one
    server)."""
    start = threading.Barrier(4)

    def one(kind: int) -> str:
        start.wait()
        try:
            record(kind)
        except records.RecordError as exc:
            return str(exc)
        return "recorded"

    with ThreadPoolExecutor(4) as pool:
        return list(pool.map(one, range(4)))


def test_r_ts5_two_organisers_deciding_one_finding_at_once_record_one_decision(tmp_path: Path) -> None:
    """One finding, one decision, also when two organisers (two threads of one server,
    at one moment) give it a penalty and dismiss it at once: one is recorded, the other
    refused; the check stood outside the append's transaction, and both passed."""
    store = Store(tmp_path / "s.duckdb")
    (tmp_path / "tournament.json").write_text(json.dumps(description()), encoding="utf-8")
    (tmp_path / "r1-t1.csv").write_text(SHEET, encoding="utf-8")
    ingest([tmp_path], store, workers=1)
    (finding,) = open_findings(store, "cup")["finding_id"]

    def decide(kind: int) -> None:
        if kind % 2:
            records.dismiss(store, "cup", finding, "the sheet was right")
        else:
            records.penalty_for(store, "cup", finding, 1, "a wrong sheet", player="ann")

    said = _four_at_once(decide)
    assert said.count("recorded") == 1, said
    with store.connect(read_only=True) as con:
        decided = con.execute(
            "SELECT (SELECT count(*) FROM penalties WHERE finding = $f) + "
            "(SELECT count(*) FROM dismissals WHERE finding_id = $f)",
            {"f": finding},
        ).fetchone()
    assert decided == (1,)


def test_r_ts5_two_organisers_withdrawing_a_player_or_accepting_a_replay_at_once_record_it_once(
    tmp_path: Path,
) -> None:
    """A player withdrawn (or a round's replay accepted) by two organisers at one moment
    was recorded twice: the check stood outside the append's transaction. One is
    recorded, the others refused; a seating made as the player withdraws seats them
    only if it came first."""
    store = Store(tmp_path / "s.duckdb")
    (tmp_path / "tournament.json").write_text(json.dumps(description()), encoding="utf-8")
    (tmp_path / "r1-t1.csv").write_text(SHEET, encoding="utf-8")
    ingest([tmp_path], store, workers=1)

    said = _four_at_once(lambda _: records.withdraw_player(store, "cup", "ann", "gone home"))
    assert said.count("recorded") == 1 and said.count("ann has withdrawn already") == 3, said
    said = _four_at_once(lambda _: records.return_player(store, "cup", "ann", "back"))
    assert said.count("recorded") == 1 and said.count("ann has not withdrawn from cup") == 3, said
    _table_seven(store, tmp_path)
    game, number = "cup:r1:t7", 1  # a log's round: it has a replay to accept
    said = _four_at_once(lambda _: records.accept_replay(store, "cup", game, number))
    assert said.count("recorded") == 1, said
    assert said.count(f"the replay of round {number} of {game} is accepted already") == 3, said

    def seat_or_leave(kind: int) -> None:
        if kind % 2:
            records.withdraw_player(store, "cup", "ann", "gone home")
        else:
            records.publish_seating(store, "cup", 2, [TEN[:5], TEN[5:]], stage="preliminary", method="x", seed=None)

    said = _four_at_once(seat_or_leave)
    kinds = [event.type for event in records.history(store, "cup")]
    withdrawn_at = kinds.index("player_withdrawn", kinds.index("player_returned"))
    assert "seating_published" not in kinds[withdrawn_at:], (said, kinds)  # none seats her after she left
    assert kinds.count("player_withdrawn") == 2  # once before the return, once now
    assert CliRunner().invoke(app, ["verify", "--db", str(store.path)]).exit_code == 0


def test_r_ts5_two_organisers_correcting_one_round_at_once_record_one_correction(tmp_path: Path) -> None:
    """Two organisers correcting one player's round at one moment (two threads of one
    server, each a form laid out after the same decisions on it) were both told
    "recorded": the later correction stood and the earlier was lost unsaid, and a replay
    accepted over a correction made meanwhile replaced it unseen. One is recorded, the
    others told the round was decided meanwhile; the command line, which names no
    decisions seen, corrects as before, and a correction of another player is its own."""
    store = Store(tmp_path / "s.duckdb")
    (tmp_path / "tournament.json").write_text(json.dumps(description()), encoding="utf-8")
    (tmp_path / "r1-t1.csv").write_text(SHEET, encoding="utf-8")
    ingest([tmp_path], store, workers=1)
    game, meanwhile = "cup:r1:t1", "round 1 of cup:r1:t1 was decided meanwhile, after the form was shown"
    seen = records.decisions(store, "cup", game, 1, "ann")
    said = _four_at_once(
        lambda points: records.correct(store, "cup", game, 1, "ann", points, f"the sheet says {points}", seen=seen)
    )
    assert said.count("recorded") == 1 and sum(s.startswith(meanwhile) for s in said) == 3, said
    assert records.decisions(store, "cup", game, 1, "ann") == seen + 1
    with store.connect(read_only=True) as con:
        (points,) = con.execute("SELECT points FROM corrections WHERE player = 'ann'").fetchone() or (None,)
    assert said[points] == "recorded"  # the correction that stands is the one told so
    with pytest.raises(records.RecordError, match=f"^{meanwhile}"):
        records.correct(store, "cup", game, 1, "ann", 1, "laid out before", seen=seen)
    assert records.correct(store, "cup", game, 1, "bob", 1, "bob's own", seen=0).version  # another player's
    assert records.correct(store, "cup", game, 1, "ann", 3, "saboteur tournament correct").version  # the CLI's
    assert records.decisions(store, "cup", game, 1, "ann") == seen + 2 and records.decisions(store, "cup", game, 1) == 3

    _table_seven(store, tmp_path)  # a log's round: it has a replay to accept
    seven = "cup:r1:t7"
    player = TEN[5]
    mine, whole = records.decisions(store, "cup", seven, 1, player), records.decisions(store, "cup", seven, 1)

    def correct_or_accept(kind: int) -> None:
        if kind % 2:
            records.accept_replay(store, "cup", seven, 1, seen=whole)
        else:
            records.correct(store, "cup", seven, 1, player, 1, "a slip", seen=mine)

    said = _four_at_once(correct_or_accept)
    assert said.count("recorded") == 1, said
    assert records.decisions(store, "cup", seven, 1) == whole + 1
    assert CliRunner().invoke(app, ["verify", "--db", str(store.path)]).exit_code == 0


def test_r_ts1_r_ts2_two_organisers_seating_a_round_or_drawing_a_tie_at_once_record_it_once(tmp_path: Path) -> None:
    """A round seated (or a tie at the cut line drawn) by two organisers at one moment
    was recorded twice: the check that it was seated stood outside the append's
    transaction, and each organiser was shown a seating (a draw) of their own, the later
    one standing. One is recorded, the others told it is seated (drawn) already; a
    seating that says why it replaces the round's is recorded, and a draw of the same
    players for other places is another tie."""
    store = Store(tmp_path / "s.duckdb")
    (tmp_path / "tournament.json").write_text(json.dumps(description()), encoding="utf-8")
    ingest([tmp_path], store, workers=1)
    seated = "round 2 of cup is already seated: to seat it anew, say why with --replace --reason"
    said = _four_at_once(
        lambda kind: records.publish_seating(
            store, "cup", 2, [TEN[:5], TEN[5:]], stage="preliminary", method="mixed", seed=kind
        )
    )
    assert said.count("recorded") == 1 and sum(s.startswith(seated) for s in said) == 3, said
    said = _four_at_once(
        lambda kind: records.publish_seating(
            store, "cup", 2, [TEN[:5], TEN[5:]], stage="preliminary", method="mixed", seed=kind, reason="a table short"
        )
    )
    assert said == ["recorded"] * 4
    tie = {"stage": "preliminary", "tied": ["cem", "ann", "bob"], "places": 1, "points": 4, "stars": 2}
    said = _four_at_once(lambda seed: records.cut_draw(store, "cup", **tie, seed=seed))
    drawn = "the tie at the cut line among ann, bob and cem is drawn already"
    assert said.count("recorded") == 1 and sum(s.startswith(drawn) for s in said) == 3, said
    records.cut_draw(store, "cup", **{**tie, "places": 2}, seed=1)  # the same players, another tie
    kinds = [event.type for event in records.history(store, "cup")]
    assert kinds.count("seating_published") == 1 + 4 and kinds.count("cut_drawn") == 2, kinds


def test_r_ts5_records_without_their_reason_are_refused(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.duckdb")
    records.create(store, "cup", name="Cup")
    records.register(store, "cup", [("ann", "Ann")])
    with pytest.raises(records.RecordError, match=r"^a penalty needs a --reason$"):
        records.penalty(store, "cup", "ann", 2, " ")
    with pytest.raises(records.RecordError, match=r"^a penalty deducts a positive number of points$"):
        records.penalty(store, "cup", "ann", 0, "nothing")
    with pytest.raises(ValidationError, match="reason"):
        TOURNAMENT_EVENT.validate_json('{"type":"penalty_given","player":"ann","points":2,"reason":""}')
    recorded = records.penalty(store, "cup", "ann", 2, "slow play")
    assert [dump(e) for e in recorded.events] == [
        '{"type":"penalty_given","player":"ann","points":2,"stage":"preliminary","reason":"slow play"}'
    ]


def _penalties(store: Store) -> list[tuple[Any, ...]]:
    with store.connect(read_only=True) as con:
        return con.execute("SELECT number, player, points, withdrawn_reason FROM penalties ORDER BY number").fetchall()


@pytest.mark.parametrize(
    "reason",
    ["late\nsecond line", "bidi \u202eevil", "escape \x1b[2J", "R" * 1_001],
    ids=["line break", "bidi override", "control", "too long"],
)
def test_r_ts5_a_reason_is_one_line_of_text(tmp_path: Path, reason: str) -> None:
    """R-TS5's reasons show on the Standings page, in the PDF and on the command line, as
    a display name does: one that turned the text after it backwards ("bidienil itlum
    live"), printed a line of its own, or ran to 20 KB is refused, and nothing recorded."""
    store = Store(tmp_path / "s.duckdb")
    (tmp_path / "tournament.json").write_text(json.dumps(description()), encoding="utf-8")
    ingest([tmp_path], store, workers=1)
    before = len(records.history(store, "cup"))
    with pytest.raises(records.RecordError, match=r"^a reason "):
        records.penalty(store, "cup", "ann", 1, reason)
    with pytest.raises(records.RecordError, match=r"^a reason "):
        records.withdraw_player(store, "cup", "ann", reason)
    assert len(records.history(store, "cup")) == before
    assert records.penalty(store, "cup", "ann", 1, "slow play: 20 minutes late ‘again’").penalties == 1


def test_r_ts5_a_penalty_withdrawn_stays_in_the_record_and_no_longer_counts(tmp_path: Path) -> None:
    """A penalty given in error (the wrong player, the wrong points) is taken back by a
    record of its own, with a reason: the penalty stays, numbered as it was given, and
    the standings count it no longer — as of any moment after the withdrawal, and only
    then. A penalty is withdrawn once, and only one that was given."""
    store = Store(tmp_path / "s.duckdb")
    (tmp_path / "tournament.json").write_text(json.dumps(description()), encoding="utf-8")
    (tmp_path / "r1-t1.csv").write_text(SHEET.replace(",4,0\n", ",4,1\n"), encoding="utf-8")
    ingest([tmp_path], store, workers=1)
    assert records.penalty(store, "cup", "ann", 3, "slow play").penalties == 1
    assert records.penalty(store, "cup", "bob", 1, "late").penalties == 2
    with store.connect(read_only=True) as con:
        (given,) = con.execute("SELECT max(position) FROM events").fetchone() or (None,)
    recorded = records.withdraw_penalty(store, "cup", 1, "it was bob who played slowly")
    assert [dump(e) for e in recorded.events] == [
        '{"type":"penalty_withdrawn","penalty":1,"reason":"it was bob who played slowly"}'
    ]
    assert _penalties(store) == [(1, "ann", 3, "it was bob who played slowly"), (2, "bob", 1, None)]
    table = {
        p: (points, pen) for p, points, pen in standings(store, "cup").select("player", "points", "penalty").rows()
    }
    assert table["ann"] == (8, 0) and table["bob"] == (3, 1)  # ann 2 + 4 + 2; bob 2 + 0 + 2 - 1
    assert standings(store, "cup", as_of=given).filter(pl.col("player") == "ann")["penalty"].to_list() == [3]
    assert records.penalty(store, "cup", "bob", 2, "slow play").penalties == 3  # numbers go on from the last
    # the standings' notes (under --why, and in the PDF) name each penalty by its number,
    # the one withdraw-penalty takes: not 1 and 2 down the page
    why = CliRunner().invoke(app, ["standings", "cup", "--why", "--db", str(store.path)], env={"COLUMNS": "200"})
    assert "[2] " in why.output and "[3] " in why.output and "[1] " not in why.output, why.output
    assert "-1. late" in why.output.split("[2] ")[1].split("\n")[0], why.output
    with pytest.raises(records.RecordError, match=r"^penalty 1 was withdrawn already$"):
        records.withdraw_penalty(store, "cup", 1, "again")
    with pytest.raises(records.RecordError, match=r"^no penalty 4: the tournament has been given 3$"):
        records.withdraw_penalty(store, "cup", 4, "never given")
    with pytest.raises(records.RecordError, match=r"^a withdrawal needs a --reason$"):
        records.withdraw_penalty(store, "cup", 2, " ")
    # a value out of the record's range, said as a log's field is, in the reader's language (it was
    # pydantic's English, "Input should be greater than or equal to 1", whatever the language)
    with pytest.raises(records.RecordError, match=r"^`penalty`: 0 is not a number from 1$") as refused:
        records.withdraw_penalty(store, "cup", 0, "never given")
    assert words(refused.value.said, "nl") == "`penalty`: 0 is geen getal vanaf 1"
    assert _penalties(store)[1:] == [(2, "bob", 1, None), (3, "bob", 2, None)]
    # the same read models from the events alone
    assert CliRunner().invoke(app, ["verify", "--db", str(store.path)]).exit_code == 0


def test_r_ts5_a_finding_whose_penalty_is_withdrawn_is_open_to_decide_again(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.duckdb")
    (tmp_path / "tournament.json").write_text(json.dumps(description()), encoding="utf-8")
    (tmp_path / "r1-t1.csv").write_text(SHEET, encoding="utf-8")
    ingest([tmp_path], store, workers=1)
    (finding,) = open_findings(store, "cup")["finding_id"]
    records.penalty_for(store, "cup", finding, 1, "a wrong sheet", player="bob")
    assert not len(open_findings(store, "cup"))
    records.withdraw_penalty(store, "cup", 1, "bob wrote it down right")
    assert open_findings(store, "cup")["finding_id"].to_list() == [finding]
    assert standings(store, "cup").filter(pl.col("player") == "bob")[["penalty", "open_findings"]].row(0) == (0, 1)
    records.dismiss(store, "cup", finding, "the star was ticked after all")
    assert not len(open_findings(store, "cup"))
    with pytest.raises(records.RecordError, match=f"^finding {finding} was dismissed already$"):
        records.penalty_for(store, "cup", finding, 1, "after all", player="ann")


def test_r_ts5_withdraw_penalty_names_the_penalty_as_penalty_and_the_log_number_it(tmp_path: Path) -> None:
    db = ["--db", str(tmp_path / "s.duckdb")]
    runner = CliRunner()
    assert runner.invoke(app, ["tournament", "create", "cup", "--name", "Cup", *db]).exit_code == 0
    assert runner.invoke(app, ["tournament", "register", "cup", "ann", "--name", "Ann", *db]).exit_code == 0
    given = runner.invoke(app, ["tournament", "penalty", "cup", "ann", "--points", "2", "--reason", "late", *db])
    assert given.exit_code == 0 and "recorded penalty 1 for ann" in given.output, given.output
    taken = runner.invoke(app, ["tournament", "withdraw-penalty", "cup", "1", "--reason", "on time", *db])
    assert taken.exit_code == 0 and "recorded the withdrawal of penalty 1" in taken.output, taken.output
    again = runner.invoke(app, ["tournament", "withdraw-penalty", "cup", "1", "--reason", "on time", *db])
    assert again.exit_code == 1 and "penalty 1 was withdrawn already" in again.output, again.output
    log = runner.invoke(app, ["tournament", "log", "cup", *db], env={"COLUMNS": "300"})
    assert "penalty=1, player=ann, points=2" in log.output and "penalty_withdrawn" in log.output, log.output
    # values as the record's JSON writes them, a field it left empty left out (not Python's False, None)
    assert "semifinal=false" in log.output and "None" not in log.output and "False" not in log.output, log.output


@pytest.mark.parametrize(
    "name",
    [
        "W" * 201,
        "Ann\nde Vries",
        "Ann\tde Vries",
        "Ida \u202eBrown",
        "\u2066Ida",
        "Ida\u2028Brown",
        "Ida\x85",
        "Wout Ols\u200ben",
        "Ida\u200f",
        "Jan Visser\u2064",
        "\u3164",
        "Jan\u00adVisser",
        "Jan\u034fVisser",
    ],
    ids=[
        "201-characters",
        "a-newline",
        "a-tab",
        "an-override",
        "an-isolate",
        "a-line-separator",
        "a-c1-control",
        "a-zero-width-space",
        "a-direction-mark",
        "an-invisible-operator",
        "a-hangul-filler",
        "a-soft-hyphen",
        "a-grapheme-joiner",
    ],
)
def test_r_ts5_a_display_name_is_one_line_of_at_most_200_characters(tmp_path: Path, name: str) -> None:
    """A name of 1,500 letters broke the standings' PDF (a row taller than a page), a
    newline split a standings row in two, and a right-to-left override turned the rest
    of a sentence about the player backwards on the Standings page: refused by the
    command and in a file."""
    store = Store(tmp_path / "s.duckdb")
    records.create(store, "cup", name="Cup")
    refusal = (
        r"^player ann: a name is one line of at most 200 characters, with no control or text-direction characters$"
    )
    with pytest.raises(records.RecordError, match=refusal):
        records.register(store, "cup", [("ann", name)])
    status, found = verdict(players=[{"id": "ann", "name": name}])
    assert status == "unreadable" and found[0][1].startswith("not a tournament file: `players.0.name`"), found
    records.register(store, "cup", [("ann", "W" * 200)])
    records.register(
        store,
        "cup",
        [("bob", "Bob \U0001f468\u200d\U0001f469\u200d\U0001f467 \u0627\u0644\u0639\u0631\u0628\u064a\u0629")],
    )


ANNOUNCED: Final = {"preliminary_rounds": 4, "cut": 6, "final_rounds": 4}


@pytest.mark.parametrize(
    "name",
    ["W" * 201, "Club Cup\nSpring", "A\x1b[31mB", "Zweites \u202eTurnier", "\u2066Cup", "Cup\u200b", "Cup\x85"],
    ids=["201-characters", "a-newline", "an-escape", "an-override", "an-isolate", "a-zero-width-space", "a-c1"],
)
def test_r_ts5_a_tournaments_name_is_held_to_what_a_players_is(tmp_path: Path, name: str) -> None:
    """``tournament create --name`` refused a blank name and nothing else: an escape
    sequence, a right-to-left override, a line break (which then broke the referee
    cards) or 201 characters were recorded, though a tournament file and ``register``
    refuse each. The command refuses them as ``register`` does; a tournament created
    before, its name stored as it was, is read and shown as ever."""
    store = Store(tmp_path / "s.duckdb")
    refusal = (
        r"^a tournament's name is one line of at most 200 characters, with no control or text-direction characters$"
    )
    with pytest.raises(records.RecordError, match=refusal):
        records.create(store, "cup", name=name)
    assert not store.path.exists()
    db = ["--db", str(tmp_path / "cli.duckdb")]
    result = CliRunner().invoke(app, ["tournament", "create", "cup", "--name", name, *db], env={"COLUMNS": "300"})
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert "a tournament's name is one line of at most 200 characters" in " ".join(result.output.split())
    records.create(store, "cup", name="W" * 200)
    records.create(
        store, "fam", name="Fam \U0001f468\u200d\U0001f469\u200d\U0001f467 \u0627\u0644\u0639\u0631\u0628\u064a\u0629"
    )
    old = TournamentCreated(type="tournament_created", tournament="old", name=name, ruleset="tournament", **ANNOUNCED)
    records.append(store, "old", [old], creating=True)  # as a store written before holds it
    records.register(store, "old", [(f"p{n}", f"P {n}") for n in range(5)])
    assert standings(store, "old").height == 5
    log = CliRunner().invoke(app, ["tournament", "log", "old", "--db", str(store.path)], env={"COLUMNS": "300"})
    assert log.exit_code == 0 and "tournament_created" in log.output, log.output


@pytest.mark.parametrize("name", ["\u200d", " \u200c\u200d ", "\u3000"])
def test_r_ts5_a_name_of_zero_width_joiners_alone_is_no_name(tmp_path: Path, name: str) -> None:
    """A name of a zero-width joiner alone shows nothing, as a name of spaces does:
    refused for a tournament and for a player alike."""
    store = Store(tmp_path / "s.duckdb")
    with pytest.raises(records.RecordError, match=r"^a tournament needs a name$"):
        records.create(store, "cup", name=name)
    records.create(store, "cup", name="Cup")
    with pytest.raises(records.RecordError, match=r"^player ann needs a name$"):
        records.register(store, "cup", [("ann", name)])


def test_a_key_written_twice_in_a_tournament_file_is_malformed() -> None:
    """JSON takes the last of a key written twice: a file with ``cut`` 6 then 9 was a
    cut of 9, unsaid. A log's line with a key twice is malformed; so is such a file."""
    text = json.dumps(description())
    doubled = text.replace('"cut": 6', '"cut": 6, "cut": 9', 1)
    assert doubled != text
    prepared = prepare_bytes("tournament.json", doubled.encode("utf-8"))
    report = json.loads(prepared.report)
    assert prepared.status == "unreadable"
    assert [v["message"] for v in report["violations"]] == [
        "not a tournament file: key 'cut' appears twice in one object"
    ]
    nested = text.replace('"name": "Ann"', '"name": "Ann", "name": "Anna"', 1)
    assert nested != text
    assert prepare_bytes("tournament.json", nested.encode("utf-8")).status == "unreadable"


def test_r_ts5_two_organisers_withdrawing_one_penalty_at_once_record_one_withdrawal(tmp_path: Path) -> None:
    """A penalty is withdrawn once, also when two organisers (two threads of one server,
    at one moment) withdraw it at once: judged in the append's own transaction."""
    store = Store(tmp_path / "s.duckdb")
    records.create(store, "cup", name="Cup")
    records.register(store, "cup", [("ann", "Ann")])
    records.penalty(store, "cup", "ann", 2, "slow play")
    said = _four_at_once(lambda _: records.withdraw_penalty(store, "cup", 1, "it was someone else"))
    assert said.count("recorded") == 1, said
    assert set(said) - {"recorded"} == {"penalty 1 was withdrawn already"}
    with store.connect(read_only=True) as con:
        assert con.execute("SELECT count(*) FROM events WHERE type = 'penalty_withdrawn'").fetchone() == (1,)


def test_r_ts2_players_registered_under_one_name_are_told_apart_by_their_ids(tmp_path: Path) -> None:
    """Two players registered as "José" (one written with a combining accent, as some
    keyboards write it, and one in capitals) stood in the standings, the PDF and the
    "why" sentences as three Josés: nobody could tell which one made the cut. The
    standings give each such name its id; registering one says so."""
    store = Store(tmp_path / "s.duckdb")
    (tmp_path / "tournament.json").write_text(json.dumps(description()), encoding="utf-8")
    (tmp_path / "r1-t1.csv").write_text(SHEET, encoding="utf-8")
    ingest([tmp_path], store, workers=1)
    runner = CliRunner()
    db = ["--db", str(store.path)]
    assert runner.invoke(app, ["tournament", "register", "cup", "ann", "--name", "José", *db]).exit_code == 0
    told = runner.invoke(app, ["tournament", "register", "cup", "bob", "--name", "JOSE\u0301", *db])
    assert told.exit_code == 0, told.output
    assert "ann and bob are registered under one name, José:" in " ".join(told.output.split()), told.output
    names = dict(standings(store, "cup").select("player", "name").iter_rows())
    assert names["ann"] == "José (ann)" and names["bob"] == "JOSE\u0301 (bob)"
    assert all("(" not in name for player, name in names.items() if player not in ("ann", "bob"))
    # spaces around and between the words, and "ß" for "ss", are no other name either
    spaced = runner.invoke(app, ["tournament", "register", "cup", "cy", "--name", " josé ", *db])
    assert "ann, bob and cy are registered under one name" in " ".join(spaced.output.split()), spaced.output
    runner.invoke(app, ["tournament", "register", "cup", "dan", "--name", "Straße", *db])
    sharp = runner.invoke(app, ["tournament", "register", "cup", "eve", "--name", "STRASSE", *db])
    assert "dan and eve are registered under one name" in " ".join(sharp.output.split()), sharp.output
    runner.invoke(app, ["tournament", "register", "cup", "fay", "--name", "Σοφος", *db])
    sigma = runner.invoke(
        app, ["tournament", "register", "cup", "gus", "--name", "ΣΟΦΟΣ", *db]
    )  # the final ς in capitals
    assert "fay and gus are registered under one name" in " ".join(sigma.output.split()), sigma.output
    why = " ".join(standings(store, "cup")["why"])
    assert "José (ann)" in why or "JOSE\u0301 (bob)" in why, why
    assert records.namesakes(store, "cup", ["cem"]) == []
    renamed = runner.invoke(app, ["tournament", "register", "cup", "bob", "--name", "Bob", *db])
    assert "recorded player bob, renamed from JOSÉ" in " ".join(renamed.output.split()), renamed.output
    again = runner.invoke(app, ["tournament", "register", "cup", "bob", "--name", "Bob", *db])
    assert "renamed" not in again.output and "recorded player bob" in again.output, again.output
