"""The organiser's pages: shut without a password, open with the right one, and every
action an appended event (uploads through the ingest's own path)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from streamlit.testing.v1 import AppTest

from analytics import records
from analytics.standings import standings
from dashboard import access, data, names
from dashboard.markup import escape
from events.builder import LogBuilder
from ingest.pipeline import FileResult, Writer
from ingest.sources import Prepared
from ingest.store import Store
from tests.conftest import spied
from tests.dashboard.conftest import PASSWORD, TOURNAMENT, Sample, log_in, page_text

WRONG_SCORE = names.finding("wrong_score")
MISSED_DRAW = names.finding("missed_draw")
"""Two findings' codes as the Audit page shows them: in plain words."""

Open = Callable[..., AppTest]


def events(db: Path) -> list[tuple[str, str]]:
    with Store(db).connect(read_only=True) as con:
        return [
            (str(s), str(t)) for s, t in con.execute("SELECT stream, type FROM events ORDER BY position").fetchall()
        ]


@pytest.mark.parametrize("page", ["upload", "audit"])
def test_without_a_password_the_organiser_pages_say_how_to_enable_them(open_page: Open, page: str) -> None:
    at = open_page(page)
    (info,) = at.info
    assert "not enabled" in info.value and "SABOTEUR_ADMIN_PASSWORD" in info.value
    assert not at.file_uploader and not at.text_input and not at.dataframe


@pytest.mark.parametrize("page", ["upload", "audit"])
def test_a_wrong_password_keeps_them_shut(open_page: Open, organiser: str, page: str) -> None:
    at = log_in(open_page(page), "not the password")
    assert [e.value for e in at.error] == ["That is not the organiser's password."]
    assert not at.file_uploader and not at.dataframe


def test_the_password_is_compared_in_constant_time(
    open_page: Open, organiser: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = spied(monkeypatch, access.hmac, "compare_digest")
    at = log_in(open_page("upload"), organiser)
    assert calls == [(PASSWORD.encode(), PASSWORD.encode())]
    assert at.file_uploader


def test_the_password_may_come_from_streamlit_secrets(db: Path) -> None:
    at = AppTest.from_file(str(Path(access.__file__).parent / "app.py"), default_timeout=60)
    at.secrets["SABOTEUR_ADMIN_PASSWORD"] = "from-secrets"
    at.switch_page("views/upload.py").run()
    assert not at.info
    log_in(at, "from-secrets")
    assert at.file_uploader


def test_upload_ingests_logs_like_the_cli_and_reports_duplicates(
    open_page: Open, organiser: str, sample: Sample, db: Path
) -> None:
    before = standings(Store(db), TOURNAMENT)
    at = log_in(open_page("upload"), organiser)
    raw = sample.held_back.read_bytes()
    at.file_uploader[0].set_value(
        [("r2-t2.jsonl", raw, "application/json"), ("notes.jsonl", b"hello\n", "application/json")]
    )
    at.button[0].click().run()
    assert not at.exception
    results = at.dataframe[0].value  # this upload's files; the files received before are below
    assert results["file"].tolist() == ["r2-t2.jsonl", "notes.jsonl"]
    assert results["outcome"].tolist() == ["accepted", "rejected"]
    assert results["games"].tolist() == ["sim-open-1:r2:t2", ""]
    text = page_text(at)
    assert names.finding("malformed") in text  # the rejected file's finding, its code in plain words
    after = standings(Store(db), TOURNAMENT)
    assert after["rounds"].sum() == before["rounds"].sum() + 6 * 3
    assert ("game:sim-open-1:r2:t2", "game_started") in events(db)

    at.file_uploader[0].set_value(("again.jsonl", raw, "application/json"))
    at.button[0].click().run()
    results = at.dataframe[0].value  # this upload's files; the files received before are below
    assert results["outcome"].tolist() == ["duplicate"]
    assert "the same content as upload" in results["note"][0]

    at.switch_page("views/standings.py").run()
    assert next(m.value for m in at.metric if m.label == "Games") == "4"


def test_audit_accepts_the_replays_score_as_an_appended_event(open_page: Open, organiser: str, db: Path) -> None:
    at = log_in(open_page("audit"), organiser)
    found = at.dataframe[0].value
    assert set(found["code"]) == {WRONG_SCORE, MISSED_DRAW}  # the codes in plain words
    wrong = found[found["code"] == WRONG_SCORE].iloc[0]
    at.selectbox(key="audit_finding").set_value(wrong["finding_id"]).run()
    scores = at.dataframe[1].value
    assert {"recorded", "replay", "corrected"} <= set(scores.columns)
    assert set(scores["corrected"]) == {"–"}  # none yet: a dash, not "None"
    assert set(scores["player"]) <= set(data.player_names(TOURNAMENT).values())  # by name, not id
    before = standings(Store(db), TOURNAMENT)
    count = len(events(db))
    at.button(key="FormSubmitter:accept_replay-Accept the replay's score for this round").click().run()
    assert any("Recorded the replay's score" in s.value for s in at.success), page_text(at)
    assert events(db)[count:] == [(f"tournament:{TOURNAMENT}", "replay_accepted")]
    assert set(at.dataframe[0].value["code"]) == {MISSED_DRAW}
    after = standings(Store(db), TOURNAMENT)
    assert after["open_findings"].sum() == 0 < before["open_findings"].sum()
    assert after["points"].sum() == before["points"].sum() - 1  # the sheet gave one point too many


def test_the_replays_score_is_offered_for_a_wrong_score_alone_and_says_it_replaces_corrections(
    open_page: Open, organiser: str
) -> None:
    """On a finding of another kind (a missed draw, a referee's note) accepting the replay
    was offered, said "Recorded the replay's score", left the finding open and replaced
    the round's corrections unasked. It is offered for a wrong score, saying so when the
    round has corrections it replaces."""
    at = log_in(open_page("audit"), organiser)
    found = at.dataframe[0].value
    missed = found[found["code"] == MISSED_DRAW].iloc[0]
    at.selectbox(key="audit_finding").set_value(missed["finding_id"]).run()
    assert not [b for b in at.button if b.key and b.key.startswith("FormSubmitter:accept_replay")]
    assert any("not about the round's score" in i.value for i in at.info), page_text(at)
    wrong = found[found["code"] == WRONG_SCORE].iloc[0]
    game, number = str(wrong["game_id"]), int(wrong["round"])
    someone = str(data.round_scores(TOURNAMENT, game, number)["player"][0])
    data.correct(TOURNAMENT, game, number, someone, 1, "a guess", None)
    at.selectbox(key="audit_finding").set_value(wrong["finding_id"]).run()
    assert [b for b in at.button if b.key and b.key.startswith("FormSubmitter:accept_replay")]
    assert any("replaces the corrections of this round" in c.value for c in at.caption), page_text(at)


def test_audit_corrects_and_dismisses_with_reasons(open_page: Open, organiser: str, db: Path) -> None:
    at = log_in(open_page("audit"), organiser)
    found = at.dataframe[0].value
    wrong = found[found["code"] == WRONG_SCORE].iloc[0]
    at.selectbox(key="audit_finding").set_value(wrong["finding_id"]).run()
    assert at.selectbox(key="correct_star").value == ""  # the star as the round gave it, unless chosen
    # a form's values go in with its button (a run between them would drop them)
    at.number_input(key="correct_points").set_value(3)
    at.selectbox(key="correct_star").set_value("yes")  # the rules' star: a correction without it stays off them
    at.text_input(key="correct_reason").input("the sheet said 4; the table agreed on 3")
    at.button(key="FormSubmitter:correction-Record the correction").click().run()
    assert any("Recorded a correction" in s.value for s in at.success), page_text(at)
    assert events(db)[-1] == (f"tournament:{TOURNAMENT}", "score_corrected")
    with Store(db).connect(read_only=True) as con:
        newest = (
            "SELECT n.name, c.points, c.star FROM corrections c JOIN tournament_players n USING (tournament, player)"
            " WHERE c.tournament = ? ORDER BY c.seq DESC LIMIT 1"
        )  # the player the finding names, picked for the form
        assert con.execute(newest, [TOURNAMENT]).fetchall() == [(wrong["player"], 3, True)]

    missed = at.dataframe[0].value.iloc[0]
    assert missed["code"] == MISSED_DRAW
    at.selectbox(key="audit_finding").set_value(missed["finding_id"]).run()
    at.button(key="FormSubmitter:dismissal-Dismiss the finding").click().run()
    assert any("Give a reason" in e.value and "--" not in e.value for e in at.error)
    at.text_input(key="dismiss_reason").input("the draw was seen by the referee")
    at.button(key="FormSubmitter:dismissal-Dismiss the finding").click().run()
    assert any("Recorded the dismissal" in s.value for s in at.success)
    assert events(db)[-1] == (f"tournament:{TOURNAMENT}", "finding_dismissed")
    assert any("No open findings" in s.value for s in at.success)


def test_any_round_is_corrected_or_its_replay_accepted_with_no_finding(
    open_page: Open, organiser: str, db: Path
) -> None:
    """A score can be wrong though no finding says so (two players' points swapped on a
    sheet that still fits the rules), and a correction made before a game was stored
    anew can count on the new version where it should not: the Upload page sends the
    organiser to the Audit page for it, whose forms all hung from an open finding. Any
    round of the tournament can be corrected there, or its replay accepted (R-TS5)."""
    game, player, counted = _clean_log_round(db)
    at = log_in(open_page("audit"), organiser)
    at.selectbox(key="correct_game").set_value(game).run()
    at.selectbox(key="correct_round").set_value(2).run()
    at.selectbox(key="round_correct_player").set_value(player).run()
    assert at.number_input(key="round_correct_points").value == counted  # as it counts now
    at.number_input(key="round_correct_points").set_value(counted + 1)
    at.text_input(key="round_correct_reason").input("the table agreed on one more")
    at.button(key="FormSubmitter:round_correction-Record the correction").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("Recorded a correction" in s.value for s in at.success), page_text(at)
    assert any("not what the rules give (R-W1)" in w.value for w in at.warning), page_text(at)  # one more is off
    assert events(db)[-1] == (f"tournament:{TOURNAMENT}", "score_corrected")
    with Store(db).connect(read_only=True) as con:
        newest = "SELECT game_id, round, player, points FROM corrections WHERE tournament = ? ORDER BY seq DESC LIMIT 1"
        assert con.execute(newest, [TOURNAMENT]).fetchall() == [(game, 2, player, counted + 1)]
    assert at.selectbox(key="correct_game").value == game and at.selectbox(key="correct_round").value == 2
    at.text_input(key="round_accept_reason").input("the log was right after all")
    at.button(key="FormSubmitter:round_accept_replay-Accept the replay's score for this round").click().run()
    assert any("Recorded the replay's score for round 2" in s.value for s in at.success), page_text(at)
    assert events(db)[-1] == (f"tournament:{TOURNAMENT}", "replay_accepted")
    counts = data.round_scores(TOURNAMENT, game, 2).filter(pl.col("player") == player)["counted"].item()
    assert counts == counted


def _clean_log_round(db: Path) -> tuple[str, str, int]:
    """A log's round 2 of the tournament that no finding names: its game, its last
    player, and the points that player has there."""
    with Store(db).connect(read_only=True) as con:
        (game,) = con.execute(
            "SELECT game_id FROM games g WHERE tournament = ? AND source = 'log' AND rounds_played >= 2 AND NOT EXISTS "
            "(SELECT 1 FROM findings f WHERE f.game_id = g.game_id) ORDER BY game_id LIMIT 1",
            [TOURNAMENT],
        ).fetchone() or (None,)
    assert game is not None
    player, counted = data.round_scores(TOURNAMENT, game, 2).select("player", "counted").row(-1)
    return str(game), str(player), int(counted)


def _any_round_correction(at: AppTest, game: str, player: str, points: int) -> AppTest:
    """``Correct any round``: round 2 of ``game``, ``player`` given ``points``, with a
    reason, laid out (not sent)."""
    at.selectbox(key="correct_game").set_value(game).run()
    at.selectbox(key="correct_round").set_value(2).run()
    at.selectbox(key="round_correct_player").set_value(player).run()
    at.number_input(key="round_correct_points").set_value(points)
    at.text_input(key="round_correct_reason").input(f"the sheet says {points}")
    return at


def _corrections(db: Path, game: str, player: str) -> list[int]:
    with Store(db).connect(read_only=True) as con:
        query = "SELECT points FROM corrections WHERE game_id = ? AND round = 2 AND player = ? ORDER BY seq"
        return [int(p) for (p,) in con.execute(query, [game, player]).fetchall()]


def test_a_correction_sent_for_a_round_corrected_meanwhile_records_nothing(
    open_page: Open, organiser: str, db: Path
) -> None:
    """Two organisers correcting one round (two pages, or a page and a command): the
    second was told "Recorded a correction" too, and its points stood over the first's,
    which was lost unsaid; the page showed "corrected 2" under a notice for 4. Nothing is
    recorded, the page says why, and the form shows the points as they count now."""
    game, player, counted = _clean_log_round(db)
    at = _any_round_correction(log_in(open_page("audit"), organiser), game, player, counted + 1)
    data.correct(TOURNAMENT, game, 2, player, counted + 2, "corrected at the other laptop")
    count = len(events(db))
    at.button(key="FormSubmitter:round_correction-Record the correction").click().run()
    assert len(events(db)) == count, events(db)[count:]
    (error,) = at.error
    assert error.value.startswith("Nothing was recorded: ") and "score in round 2 of" in error.value, error.value
    assert "changed meanwhile" in error.value and not at.success
    assert at.number_input(key="round_correct_points").value == counted + 2  # as it counts now
    assert _corrections(db, game, player) == [counted + 2]
    at.button(key="FormSubmitter:round_correction-Record the correction").click().run()  # sent again, as it says
    assert any("Recorded a correction" in s.value for s in at.success), page_text(at)


def test_two_corrections_of_one_round_at_one_moment_record_one(
    open_page: Open, organiser: str, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other organiser's correction lands after this page's run read the round and
    before its own is written (two presses some 50 ms apart): the record, which judges
    it in the append's transaction against the decisions the form was laid out after,
    refuses it, and the page says so instead of "Recorded"."""
    game, player, counted = _clean_log_round(db)
    at = _any_round_correction(log_in(open_page("audit"), organiser), game, player, counted + 1)
    correct = records.correct

    def at_one_moment(*args: Any, **options: Any) -> records.Recorded:
        store, tournament, game, number, player, points = args[:6]
        correct(store, tournament, game, number, player, points + 1, "corrected at the other laptop")  # first
        return correct(*args, **options)

    monkeypatch.setattr(records, "correct", at_one_moment)
    at.button(key="FormSubmitter:round_correction-Record the correction").click().run()
    assert not at.success, [s.value for s in at.success]
    (error,) = at.error
    assert "was decided meanwhile, after the form was shown" in error.value, error.value
    assert _corrections(db, game, player) == [counted + 2]  # the other's alone


def test_a_replay_accepted_for_a_round_corrected_meanwhile_records_nothing(
    open_page: Open, organiser: str, db: Path
) -> None:
    """Accepting the replay replaces the round's corrections: sent for a round another
    organiser corrected meanwhile, it replaced that correction unseen."""
    game, player, counted = _clean_log_round(db)
    at = log_in(open_page("audit"), organiser)
    at.selectbox(key="correct_game").set_value(game).run()
    at.selectbox(key="correct_round").set_value(2).run()
    data.correct(TOURNAMENT, game, 2, player, counted + 1, "corrected at the other laptop")
    count = len(events(db))
    at.button(key="FormSubmitter:round_accept_replay-Accept the replay's score for this round").click().run()
    assert len(events(db)) == count, events(db)[count:]
    (error,) = at.error
    assert error.value.startswith("Nothing was recorded: round 2 of ") and "changed meanwhile" in error.value


def test_a_findings_correction_sent_for_a_round_corrected_meanwhile_records_nothing(
    open_page: Open, organiser: str, db: Path
) -> None:
    """The finding's own correction tab, as "Correct any round": the finding stays open
    (another player's points corrected is no settling of it), so only the round's
    decisions tell that it changed."""
    at = log_in(open_page("audit"), organiser)
    found = at.dataframe[0].value
    wrong = found[found["code"] == WRONG_SCORE].iloc[0]
    at.selectbox(key="audit_finding").set_value(wrong["finding_id"]).run()
    game, number = str(wrong["game_id"]), int(wrong["round"])
    player = str(at.selectbox(key="correct_player").value)
    replay = data.round_scores(TOURNAMENT, game, number).filter(pl.col("player") == player)["replay"].item()
    at.number_input(key="correct_points").set_value(1)
    at.text_input(key="correct_reason").input("a slip of the pen")
    other = 0 if replay != 0 else 1  # not the replay's: the finding stays open, and the page on it
    data.correct(TOURNAMENT, game, number, player, other, "corrected at the other laptop")
    count = len(events(db))
    at.button(key="FormSubmitter:correction-Record the correction").click().run()
    assert len(events(db)) == count, events(db)[count:]
    (error,) = at.error
    assert "score in round" in error.value and "changed meanwhile" in error.value, error.value


def test_a_correction_starts_at_the_points_that_count_and_says_when_the_round_is_still_wrong(
    open_page: Open, organiser: str, db: Path
) -> None:
    """The correction form started at 0 points whatever the player had, and a correction
    to another wrong score was recorded with no word, where the command line says the
    round is still not what the rules give (and the finding stays open)."""
    at = log_in(open_page("audit"), organiser)
    found = at.dataframe[0].value
    wrong = found[found["code"] == WRONG_SCORE].iloc[0]
    at.selectbox(key="audit_finding").set_value(wrong["finding_id"]).run()
    scores = data.round_scores(TOURNAMENT, wrong["game_id"], int(wrong["round"]))
    player = at.selectbox(key="correct_player").value
    mine = scores.filter(pl.col("player") == player).row(0, named=True)
    assert at.number_input(key="correct_points").value == mine["recorded"]  # as it counts now
    off = 4 if mine["replay"] != 4 else 3  # not the replay's: the round stays wrong
    at.number_input(key="correct_points").set_value(off)
    at.text_input(key="correct_reason").input("a slip of the pen")
    at.button(key="FormSubmitter:correction-Record the correction").click().run()
    assert any("Recorded a correction" in s.value for s in at.success), page_text(at)
    (caution,) = [w.value for w in at.warning if "as corrected" in w.value]
    assert "still not what the rules give" in caution and str(wrong["finding_id"]) in caution, caution
    assert wrong["finding_id"] in set(at.dataframe[0].value["finding_id"])  # open still


def test_the_correction_shows_the_points_of_the_player_chosen(open_page: Open, organiser: str) -> None:
    """The form opened on the finding's player, with their points; another player chosen
    in it kept those points (the form did not run again), and a correction sent so gave
    the second player the first one's points, with nothing said but a warning."""
    at = log_in(open_page("audit"), organiser)
    found = at.dataframe[0].value
    wrong = found[found["code"] == WRONG_SCORE].iloc[0]
    at.selectbox(key="audit_finding").set_value(wrong["finding_id"]).run()
    scores = data.round_scores(TOURNAMENT, wrong["game_id"], int(wrong["round"]))
    counted = dict(zip(scores["player"].to_list(), scores["counted"].to_list(), strict=True))
    first = at.selectbox(key="correct_player").value
    other = next(p for p in counted if counted[p] != counted[first])
    at.selectbox(key="correct_player").set_value(other).run()
    assert at.number_input(key="correct_points").value == counted[other]
    at.selectbox(key="correct_player").set_value(first).run()
    assert at.number_input(key="correct_points").value == counted[first]


def test_a_penalty_sent_for_a_finding_settled_meanwhile_says_it_is_gone_and_keeps_no_points(
    open_page: Open, organiser: str, db: Path
) -> None:
    """The notice said "here it is as it is now: check it and send the form again", over
    another finding's form that kept the points entered: sent again, as it said, a penalty
    went to a player nobody meant. It says the finding is settled and gone, and the form
    is the new finding's, at its first points."""
    at = log_in(open_page("audit"), organiser)
    found = at.dataframe[0].value
    missed = found[found["code"] == MISSED_DRAW].iloc[0]["finding_id"]
    at.selectbox(key="audit_finding").set_value(missed).run()
    at.number_input(key="penalty_points").set_value(4).run()
    data.dismiss(TOURNAMENT, str(missed), "dismissed at the other laptop")
    count = len(events(db))
    at.button(key="FormSubmitter:penalty-Give the penalty for this finding").click().run()
    assert len(events(db)) == count, events(db)[count:]
    (error,) = at.error
    assert "was settled meanwhile" in error.value and "nothing you entered applies to it" in error.value, error.value
    assert at.selectbox(key="audit_finding").value != missed
    assert at.number_input(key="penalty_points").value == 1


def test_a_form_sent_for_a_finding_settled_meanwhile_records_nothing(open_page: Open, organiser: str, db: Path) -> None:
    """Two organisers on the Audit page (or one, and a command): the other one dismissed
    the finding this page shows. The form sent for it here acted on the next open
    finding, which the page's run had opened on: a dismissal (or a penalty naming it)
    that nobody chose, in a record nothing is taken out of. Now nothing is recorded, and
    the page says why."""
    at = log_in(open_page("audit"), organiser)
    found = at.dataframe[0].value
    missed = found[found["code"] == MISSED_DRAW].iloc[0]["finding_id"]
    at.selectbox(key="audit_finding").set_value(missed).run()
    data.dismiss(TOURNAMENT, str(missed), "dismissed at the other laptop")
    count = len(events(db))
    at.text_input(key="dismiss_reason").input("seen by the referee")
    at.button(key="FormSubmitter:dismissal-Dismiss the finding").click().run()
    assert len(events(db)) == count, events(db)[count:]
    (error,) = at.error
    assert error.value.startswith("Nothing was recorded: finding " + str(missed)), error.value
    assert set(at.dataframe[0].value["code"]) == {WRONG_SCORE}  # as the findings are now
    assert at.text_input(key="dismiss_reason").value == ""  # the reason was for the one before


def test_a_penaltys_reason_and_player_are_the_finding_chosen(open_page: Open, organiser: str, db: Path) -> None:
    """The penalty's reason and player, and the correction's player, are filled in with
    the finding they are for: they stayed the first finding's when another was chosen,
    and went into the record so (a penalty for one player, with another's incident as
    its reason)."""
    at = log_in(open_page("audit"), organiser)
    found = at.dataframe[0].value
    ids = {name: player for player, name in data.player_names(TOURNAMENT).items()}
    for code in (MISSED_DRAW, WRONG_SCORE, MISSED_DRAW):
        row = found[found["code"] == code].iloc[0]
        at.selectbox(key="audit_finding").set_value(row["finding_id"]).run()
        assert at.text_input(key="penalty_reason").value.startswith(code), at.text_input(key="penalty_reason").value
        named = ids.get(row["player"], row["player"])  # the table shows the player by name
        assert at.selectbox(key="penalty_player").value == named
        assert at.selectbox(key="correct_player").value == named


def test_a_supersede_sent_without_its_reason_keeps_the_files_chosen(
    open_page: Open, organiser: str, sample: Sample, db: Path
) -> None:
    """The form was emptied on every press of Ingest: sent with "supersede" ticked and
    no reason, it said to give one, and the files had to be chosen again. Now it keeps
    them until they are ingested, and is empty after."""
    at = log_in(open_page("upload"), organiser)
    at.file_uploader[0].set_value(("r2-t2.jsonl", sample.held_back.read_bytes(), "application/json"))
    at.checkbox[0].check()
    at.button[0].click().run()
    assert [e.value for e in at.error] == ["Say why the game is superseded."]
    assert [f.name for f in at.file_uploader[0].value] == ["r2-t2.jsonl"] and at.checkbox[0].value
    at.text_input[0].input("the table's referee sent it again")
    at.button[0].click().run()
    assert not at.error and not at.exception
    results = at.dataframe[0].value  # this upload's files; the files received before are below
    assert results["file"].tolist() == ["r2-t2.jsonl"]
    assert not at.file_uploader[0].value and not at.checkbox[0].value and at.text_input[0].value == ""


def test_a_game_stored_before_is_refused_with_this_page_s_way_to_supersede(
    open_page: Open, organiser: str, sample: Sample
) -> None:
    """Another version of a stored game, "supersede" not ticked: the page said what the
    command line says ("ingest again with --supersede --reason"), where its own checkbox
    does it. The files received below say it the page's way too."""
    at = log_in(open_page("upload"), organiser)
    raw = sample.held_back.read_bytes()
    at.file_uploader[0].set_value(("r2-t2.jsonl", raw, "application/json"))
    at.button[0].click().run()
    first, rest = raw.split(b"\n", 1)
    at.file_uploader[0].set_value(("r2-t2-again.jsonl", first + b" \n" + rest, "application/json"))
    at.button[0].click().run()
    assert not at.exception
    results = at.dataframe[0].value
    assert results["outcome"].tolist() == ["rejected"]
    (note,) = results["note"].tolist()
    assert "tick “Store as the new version of a game already stored”" in note and "--supersede" not in note
    assert "this file differs from the stored version first at line 1;" in note  # which is the referee's to judge
    history = at.dataframe[1].value
    assert "--supersede" not in " ".join(history["note"].tolist())


def test_a_tournament_file_that_cannot_be_read_is_not_said_to_be_a_line_of_a_log(
    open_page: Open, organiser: str
) -> None:
    """A broken tournament.json's finding read "a line of the log cannot be read"."""
    at = log_in(open_page("upload"), organiser)
    at.file_uploader[0].set_value(
        ("tournament.json", b'{"format": "saboteur-tournament/1", "id": ', "application/json")
    )
    at.button[0].click().run()
    assert not at.exception
    found = [m.value for m in at.markdown if m.value.startswith("- line 1")]
    assert found and all("the file cannot be read" in line for line in found), found
    assert not any(names.finding("malformed") in line for line in found), found


def test_ingest_with_no_file_says_which_files_the_box_takes(open_page: Open, organiser: str) -> None:
    """The file box refuses a file of another kind or over the limit before it is sent:
    "Choose files to upload first" told an organiser who had chosen one nothing."""
    at = log_in(open_page("upload"), organiser)
    at.button[0].click().run()
    (warning,) = [w.value for w in at.warning]
    assert warning.startswith("No file to ingest") and ".jsonl.gz" in warning and "64 MiB" in warning
    # a score sheet's own limit is under the box's: said before a sheet is sent
    assert any("a score sheet at most 4 MiB" in caption.value for caption in at.caption)
    assert any("A log holds at most 16 MiB" in caption.value for caption in at.caption)  # events.logfile's limit


def test_the_files_received_before_are_listed_with_their_audits(
    open_page: Open, organiser: str, sample: Sample, db: Path
) -> None:
    """The page showed only the files sent in this visit: an organiser coming back, or
    the one at the next laptop, could not see that a file was refused, nor why. Every
    upload the store holds is listed, the newest first, and each one's audit shown on
    demand: a refused file's finding from the report kept with it."""
    at = log_in(open_page("upload"), organiser)
    at.file_uploader[0].set_value(
        [("r2-t2.jsonl", sample.held_back.read_bytes(), "application/json"), ("notes.jsonl", b"hello\n", "x")]
    )
    at.button[0].click().run()

    again = log_in(open_page("upload"), organiser)  # another visit: nothing sent in it
    assert [h.value for h in again.header] == ["Files received"]
    (history,) = (t.value for t in again.dataframe)
    with Store(db).connect(read_only=True) as con:
        stored = con.execute("SELECT upload_id, name, outcome FROM uploads ORDER BY upload_id DESC").fetchall()
    assert history["upload"].tolist() == [u for u, _, _ in stored]
    assert history["file"].tolist()[:2] == ["notes.jsonl", "r2-t2.jsonl"]
    assert history["outcome"].tolist()[:2] == [names.outcome("rejected"), names.outcome("accepted")]
    refused = stored[0][0]
    again.selectbox(key="upload_received").set_value(refused).run()
    said = [m.value for m in again.markdown if m.value.startswith("- line 1")]
    assert len(said) == 1 and names.finding("malformed") in said[0], said
    again.selectbox(key="upload_received").set_value(stored[1][0]).run()
    assert "No findings: the audit found the file clean." in [c.value for c in again.caption]
    again.file_uploader[0].set_value(("r2-t2 again.jsonl", sample.held_back.read_bytes(), "application/json"))
    again.button[0].click().run()  # a duplicate: the history opens on it, not on the file looked at before
    with Store(db).connect(read_only=True) as con:
        (newest,) = con.execute("SELECT max(upload_id) FROM uploads").fetchone() or (None,)
    assert again.selectbox(key="upload_received").value == newest


# -- one file cannot sink an upload (issue 10, point 2) ------------------------------------


def upload(at: AppTest, files: list[tuple[str, bytes]]) -> dict[str, dict[str, Any]]:
    """Upload ``files`` on the Upload page; each file's row of the results table."""
    at.file_uploader[0].set_value([(name, raw, "application/octet-stream") for name, raw in files])
    at.button[0].click().run()
    assert not at.exception, [e.value for e in at.exception]
    table = at.dataframe[0].value  # this upload's files; the files received before are below
    return {str(row["file"]): row for row in table.to_dict("records")}


def lines_naming(at: AppTest, name: str) -> list[str]:
    return [m.value for m in at.markdown if f"**{escape(name)}**" in m.value]


def assert_no_internals(at: AppTest, *paths: Path) -> None:
    """No traceback and no server path on the page (the organiser's sidebar names the
    store, as ever)."""
    text = page_text(at.main)
    assert "Traceback" not in text and 'File "' not in text
    for path in (*paths, Path(__file__).resolve().parents[2]):
        assert str(path) not in text


def test_files_that_break_the_audit_are_one_line_each_and_the_valid_one_is_stored(
    open_page: Open, organiser: str, sample: Sample, db: Path
) -> None:
    description = json.loads((sample.logs / "tournament.json").read_text())
    broken_draws = json.dumps({**description, "cut_draws": [{}]}).encode()
    header = b"tournament,tournament_round,table,game_id,round,player,role,points,star\n"
    huge_field = header + b'"' + b"x" * (200 * 1024) + b'",1,t1,g,1,ann,saboteur,1,false\n'
    at = log_in(open_page("upload"), organiser)
    rows = upload(
        at,
        [
            ("tournament.json", broken_draws),
            ("huge.csv", huge_field),
            (sample.held_back.name, sample.held_back.read_bytes()),
        ],
    )
    assert rows[sample.held_back.name]["outcome"] == "accepted"
    assert ("game:sim-open-1:r2:t2", "game_started") in events(db)
    for name in ("tournament.json", "huge.csv"):
        assert rows[name]["outcome"] == "rejected" and rows[name]["note"], rows[name]
        (line,) = lines_naming(at, name)
        assert ": rejected (" in line
    assert_no_internals(at, db, sample.logs)


def test_an_unforeseen_failure_in_the_audit_or_the_writer_leaves_out_only_its_file(
    open_page: Open, organiser: str, sample: Sample, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_prepare, real_write = data.prepare_bytes, Writer.write

    def prepare(name: str, raw: bytes) -> Prepared:
        if name == "cursed.jsonl":
            raise OSError(f"[Errno 5] Input/output error: '{db.parent / 'spool' / name}'")
        return real_prepare(name, raw)

    def write(writer: Writer, batch: list[Prepared]) -> list[FileResult]:
        if any(item.name == "poison.jsonl" for item in batch):
            raise RuntimeError(f"constraint failed in {db}")
        return real_write(writer, batch)

    monkeypatch.setattr(data, "prepare_bytes", prepare)
    monkeypatch.setattr(Writer, "write", write)
    poison = LogBuilder(players=5, game_id="test:poison").deal().text()
    at = log_in(open_page("upload"), organiser)
    rows = upload(
        at,
        [
            ("cursed.jsonl", b"{}\n"),
            (sample.held_back.name, sample.held_back.read_bytes()),
            ("poison.jsonl", poison.encode()),
            ("notes.jsonl", b"hello\n"),
        ],
    )
    assert list(rows) == ["cursed.jsonl", sample.held_back.name, "poison.jsonl", "notes.jsonl"]
    assert [r["outcome"] for r in rows.values()] == ["rejected", "accepted", "rejected", "rejected"]
    assert rows["cursed.jsonl"]["note"] == (
        "could not be handled (OSError: [Errno 5] Input/output error: '…'); nothing of it was stored"
    )
    assert (
        rows["poison.jsonl"]["note"]
        == "could not be handled (RuntimeError: constraint failed in …); nothing of it was stored"
    )
    assert names.finding("malformed") in page_text(at)  # notes.jsonl: rejected by the audit (in plain words)
    stored = events(db)
    assert ("game:sim-open-1:r2:t2", "game_started") in stored
    assert not any(stream == "game:test:poison" for stream, _ in stored)
    for name in rows:
        assert len(lines_naming(at, name)) == 1
    assert_no_internals(at, db)
