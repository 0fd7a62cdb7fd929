"""The command line as an organiser reads it (issue 13): the findings an organiser
settles, listed with their ids; ``ingest -v`` naming each file's findings; tables that
fit the terminal (``COLUMNS``); flags shown as ``--flag/--no-flag``; times with or
without a zone; a score sheet handed to ``audit``.

The tournament is the hand-computed one of :mod:`tests.analytics.test_standings`.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analytics import records
from cli.main import app
from cli.moments import moment
from events.records.tournament import PlayerRegistered
from tests.analytics.test_standings import TID, Hand, _slip, slipped_log
from tests.analytics.test_standings import hand as hand  # the fixture
from tests.analytics.test_standings import hand_of_two as hand_of_two  # for games of round 2
from tests.analytics.test_standings import hands as hands  # hand's store, made once and copied


def test_findings_lists_ids_that_dismiss_takes_and_open_leaves_settled_ones_out(hand_of_two: Hand) -> None:
    hand = hand_of_two
    finding = _slip(hand)
    listed = hand.cli("findings", TID, "--format", "json")
    assert listed.exit_code == 0, listed.output
    (row,) = [r for r in json.loads(listed.stdout) if r["code"] != "wrong_rounds"]  # the game's one round
    assert (row["finding_id"], row["game_id"], row["round"], row["player"], row["code"]) == (
        finding,
        "hand:r2:t1",
        1,
        "fay",
        "wrong_score",
    )
    assert row["status"] == "open" and row["rule"] and row["line"] and row["message"]
    table = hand.cli("findings", TID, "--open", env={"COLUMNS": "100"})
    assert table.exit_code == 0 and finding in table.output and "wrong_score" in table.output
    assert max(map(len, table.output.splitlines())) <= 100

    assert hand.cli("tournament", "dismiss", TID, finding, "--reason", "fay gave her points up").exit_code == 0
    assert json.loads(hand.cli("findings", TID, "--format", "json").stdout)[0]["status"] == "dismissed"
    assert json.loads(hand.cli("findings", TID, "--open", "--format", "json").stdout) == []
    assert "no open findings of hand" in hand.cli("findings", TID, "--open").output
    everywhere = json.loads(hand.cli("findings", "--format", "json").stdout)
    assert [(r["tournament"], r["finding_id"]) for r in everywhere if r["code"] != "wrong_rounds"] == [(TID, finding)]


def test_findings_of_a_tournament_that_does_not_exist(hand: Hand) -> None:
    result = hand.cli("findings", "nope")
    assert result.exit_code == 1 and "no tournament nope" in result.output


def test_a_penalised_finding_is_no_longer_open(hand_of_two: Hand) -> None:
    hand = hand_of_two
    finding = _slip(hand)
    records.penalty_for(hand.store, TID, finding, 1, "slow scoring")
    listed = json.loads(hand.cli("findings", TID, "--format", "json").stdout)
    assert [r["status"] for r in listed if r["finding_id"] == finding] == ["penalised"]


def test_ingest_verbose_prints_each_files_findings(hand: Hand) -> None:
    path = hand.root / "r2-t1.jsonl"
    path.write_text(slipped_log().text(), encoding="utf-8")
    result = hand.cli("ingest", str(path), "-v", env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    (finding,) = hand.query("SELECT finding_id FROM findings WHERE game_id = 'hand:r2:t1'")
    assert "1 violation" in result.output and "violation(s)" not in result.output
    line = next(line for line in result.output.splitlines() if finding[0] in line)
    assert "round 1 · fay · wrong_score" in line


@pytest.mark.parametrize("width", [40, 50])
def test_a_narrow_terminal_loses_the_counts_before_the_names(hand: Hand, width: int) -> None:
    """Below some 55 columns the standings lost their names, without a word: rows of
    numbers nobody could put a player to. The counts go first, and the note says so."""
    shown = hand.cli("standings", TID, env={"COLUMNS": str(width)})
    assert shown.exit_code == 0, shown.output
    assert "Ann" in shown.output and "Gus" in shown.output, shown.output
    said = " ".join(shown.output.split())
    assert "too narrow for games" in said and "--format csv" in said, shown.output


@pytest.mark.parametrize("width", [80, 120])
def test_standings_fit_the_terminal_and_the_why_comes_on_demand(hand: Hand, width: int) -> None:
    plain = hand.cli("standings", TID, env={"COLUMNS": str(width)})
    assert plain.exit_code == 0, plain.output
    assert max(map(len, plain.output.splitlines())) <= width
    assert "Ann" in plain.output and "why" not in plain.output
    why = hand.cli("standings", TID, "--why", env={"COLUMNS": str(width)})
    assert max(map(len, why.output.splitlines())) <= width
    assert "why" in why.output and "tied across" in why.output


@pytest.mark.parametrize(
    "command",
    [("standings", TID), ("standings", TID, "--why"), ("tournament", "log", TID), ("stats", "players")],
    ids=["standings", "why", "log", "players"],
)
def test_a_name_holding_a_terminals_escape_sequence_is_shown_escaped_never_run(
    hand: Hand, command: tuple[str, ...]
) -> None:
    """A display name is the organiser's (or an imported list's) text: ``ESC [2J ESC
    [H`` cleared the terminal of whoever printed the standings, an OSC sequence retitled
    the window. Every command prints through :class:`cli.output.Terminal`."""
    # as a program before names were one line stored them (register refuses them now)
    hostile = [("ann", "\x1b[2J\x1b[HAnn\u202e"), ("bob", "\x1b]0;pwned\x07Bob")]
    records.append(hand.store, TID, [PlayerRegistered(type="player_registered", player=p, name=n) for p, n in hostile])
    result = hand.cli(*command, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output and "\u202e" not in result.output
    assert "\\x1b[2J\\x1b[HAnn\\u202e" in result.output


@pytest.mark.parametrize(
    "command",
    [("standings", TID), ("tournament", "log", TID), ("stats", "players")],
    ids=["standings", "log", "players"],
)
def test_a_name_that_looks_like_an_emoji_code_is_printed_as_typed(hand: Hand, command: tuple[str, ...]) -> None:
    """Rich turns ``:smile:`` into 😄 unless told not to: a name is the player's text."""
    records.register(hand.store, TID, [("ann", ":smile: Ann :thumbs_up:")])
    result = hand.cli(*command, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert ":smile: Ann :thumbs_up:" in result.output
    assert "\U0001f604" not in result.output and "\U0001f44d" not in result.output


@pytest.mark.parametrize(
    "command",
    [("standings", TID), ("tournament", "log", TID), ("stats", "players")],
    ids=["standings", "log", "players"],
)
def test_a_name_with_the_joiners_a_name_may_hold_is_printed_as_written(hand: Hand, command: tuple[str, ...]) -> None:
    """A name may hold the zero-width joiner and non-joiner (an emoji family, a Persian
    name): every command printed them escaped, ``Lea 👩\\u200d👩\\u200d👧``."""
    records.register(hand.store, TID, [("ann", "Lea 👩\u200d👩\u200d👧"), ("bob", "Mi\u200cna")])
    result = hand.cli(*command, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "Lea 👩\u200d👩\u200d👧" in result.output and "Mi\u200cna" in result.output
    assert "\\u200" not in result.output


def test_audit_names_a_file_with_bytes_that_are_not_utf_8_in_valid_json(hand: Hand) -> None:
    """``audit --json`` wrote such a name's bytes raw, an invalid UTF-8 line no reader
    takes; the name is shown escaped, as ``ingest`` stores it."""
    import os

    path = hand.root / os.fsdecode(b"r9-t1\xff\x1b[2J.jsonl")
    path.write_text(slipped_log().text(), encoding="utf-8")
    result = CliRunner().invoke(app, ["audit", "--json", str(path)])
    report = json.loads(result.stdout_bytes.decode("utf-8").splitlines()[0])
    assert report["file"].endswith("r9-t1\\xff\\x1b[2J.jsonl")


def test_stats_players_fit_the_terminal(hand: Hand) -> None:
    result = hand.cli("stats", "players", env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    assert max(map(len, result.output.splitlines())) <= 100
    assert "Ann" in result.output


@pytest.mark.parametrize(
    "command", [("audit",), ("ingest",), ("stats", "players"), ("tournament", "create"), ("findings",)]
)
def test_help_shows_flags_by_their_names_not_as_bool(command: tuple[str, ...]) -> None:
    result = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0 and "<bool>" not in result.output, result.output


def test_times_with_or_without_a_zone_read_the_same(hand: Hand) -> None:
    assert moment("2026-11-29T14:00", "--since") == datetime(2026, 11, 29, 14, tzinfo=UTC)
    assert moment("2026-11-29T14:00z", "--since") == datetime(2026, 11, 29, 14, tzinfo=UTC)  # RFC 3339's lower z
    zoned = hand.cli("standings", TID, "--format", "json", "--as-of", "2099-01-01T00:00:00Z")
    naive = hand.cli("standings", TID, "--format", "json", "--as-of", "2099-01-01T00:00:00")
    assert naive.exit_code == 0 and json.loads(naive.stdout) == json.loads(zoned.stdout)
    for command in (("standings", TID), ("stats", "players")):
        shown = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": "300"}).output
        assert "UTC when no zone is given" in shown, shown


def test_audit_names_a_score_sheet_and_how_to_take_it_in(hand: Hand) -> None:
    result = CliRunner().invoke(app, ["audit", str(hand.root / "r1-t1.csv")], env={"COLUMNS": "200"})
    assert result.exit_code == 2
    assert "score sheet" in result.output and "saboteur ingest" in result.output
    assert "not JSON" not in result.output


@pytest.mark.parametrize("width", [80, 200])
def test_standings_why_gives_the_penalties_reasons_as_the_pdf_numbers_them(hand: Hand, width: int) -> None:
    records.penalty(hand.store, TID, "fay", 1, "[b]slow[/b] scoring, twice")
    plain = hand.cli("standings", TID, env={"COLUMNS": str(width)})
    assert plain.exit_code == 0, plain.output
    assert "1 penalty took points (pen.): its reason with --why" in " ".join(plain.output.split())
    assert "slow" not in plain.output
    why = hand.cli("standings", TID, "--why", env={"COLUMNS": str(width)})
    assert why.exit_code == 0, why.output
    assert max(map(len, why.output.splitlines())) <= width
    notes = " ".join(why.output.split("penalties:", 1)[1].split())
    assert notes == "[1] Fay: -1. [b]slow[/b] scoring, twice"


def words(text: str) -> set[str]:
    """The words of terminal output, or of what it shows: split at spaces, the
    tables' rules and the punctuation between fields."""
    return set(re.split(r"[\s│┃·,():=]+", text)) - {""}


@pytest.mark.parametrize("width", [80, 200])
def test_findings_and_the_record_break_no_word_at_any_width(hand: Hand, width: int) -> None:
    """At 80 columns a table of findings used to break codes and ids mid-word
    ("wrong_tabl / e", "statu / s") and the record to crop its details: each now fits
    as a table or as a few lines a row, every word whole."""
    _slip(hand)
    records.penalty(hand.store, TID, "fay", 1, "wrote her score down wrong at table 1, and argued")
    found = json.loads(hand.cli("findings", TID, "--format", "json").stdout)
    listed = hand.cli("findings", TID, env={"COLUMNS": str(width)})
    assert listed.exit_code == 0, listed.output
    assert max(map(len, listed.output.splitlines())) <= width
    shown = [
        str(row[c]) for row in found for c in ("finding_id", "game_id", "player", "code", "rule", "status", "message")
    ]
    assert words(" ".join(shown)) <= words(listed.output)
    record = hand.cli("tournament", "log", TID, env={"COLUMNS": str(width)})
    assert record.exit_code == 0, record.output
    assert max(map(len, record.output.splitlines())) <= width
    said = [json.loads(e.payload) for e in records.history(hand.store, TID)]
    texts = [str(v) for data in said for k, v in data.items() if k not in ("tables", "signature")]
    assert words(" ".join(texts)) <= words(record.output)
    assert "…" not in record.output


def test_a_referee_notes_line_break_cannot_forge_a_line_of_the_audit(tmp_path: Path) -> None:
    """A note is the log's free text, printed inside its ``table_incident`` finding: a
    line break in it started a line of its own, which could read as another finding of
    the report. A finding is one line; its breaks are shown escaped, as its controls
    are."""
    from tests.test_bad_input import started

    log = started()
    forged = "x\n  line 9 · round 1 · bob · out_of_turn (R-T1): forged\u2028y"
    log.raw({"type": "referee_note", "player": None, "error": "other", "note": forged})
    path = tmp_path / "noted.jsonl"
    path.write_text(log.text(), encoding="utf-8")
    result = CliRunner().invoke(app, ["audit", str(path)])
    assert result.exit_code == 1, result.output
    found = [line for line in result.output.splitlines() if line.startswith("  line ")]
    assert [line.split(" · ")[2].split(" ")[0] for line in found] == ["table_incident", "incomplete"], result.output
    assert "x\\x0a  line 9" in found[0] and "forged\\u2028y" in found[0]
    stored = CliRunner().invoke(app, ["ingest", "-v", str(path), "--db", str(tmp_path / "s.duckdb")])
    assert "x\\x0a  line 9" in stored.output, stored.output  # ingest -v lists it as one line too
    assert not any(line.lstrip().startswith("line 9 ·") for line in stored.output.splitlines()), stored.output


@pytest.mark.parametrize("lang", ["en", "nl", "de", "nb"])
@pytest.mark.parametrize("width", [40, 60, 80])
def test_standings_keep_place_name_points_and_stars_and_the_why_at_any_width_in_any_language(
    hand: Hand, width: int, lang: str
) -> None:
    """At 40 columns the Dutch and Norwegian heads ("sterren", "stjerner") are wider
    than the English: once the counts were gone, rich cropped the stars column, its
    head to "sterr" and every star, the tie-breaker, blank; ``--why`` lost its column
    (in English squeezed to a letter a line) while each row kept its height. The place,
    rank, name, points and stars show in every language at any width, and each
    player's reasons show whole: in their column, or below the table, the notice
    naming the column that went."""
    long = {"ann": "Anna Maria van Oranje-Nassau", "fay": "Fay Kristiansen"}  # names that wrap
    records.register(hand.store, TID, list(long.items()))
    rows = json.loads(hand.cli("--lang", lang, "standings", TID, "--format", "json").stdout)
    points, stars = ("final_points", "final_stars") if "final_points" in rows[0] else ("points", "stars")
    for asked in ((), ("--why",)):
        shown = hand.cli("--lang", lang, "standings", TID, *asked, env={"COLUMNS": str(width)})
        assert shown.exit_code == 0, shown.output
        lines = shown.output.splitlines()
        assert max(map(len, lines)) <= width, shown.output
        for row in rows:
            rank = f"{row['rank']}=" if row["shared"] else str(row["rank"])
            found = [line.split() for line in lines if line.split()[:2] == [str(row["place"]), rank]]
            assert found, (row, shown.output)
            counts = [token for token in found[0][2:] if token not in row["name"]]
            assert counts[:2] == [str(row[points]), str(row[stars])], (row, shown.output)
        said = words(shown.output)
        assert words(" ".join(row["name"] for row in rows)) <= said, shown.output
        if asked:
            assert words(" ".join(row["why"] for row in rows)) <= said, shown.output
            assert "\n\n\n" not in shown.output, shown.output  # no row the height of a column it lost
