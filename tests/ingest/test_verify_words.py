"""``saboteur verify`` and ``saboteur archive verify`` in the language asked for (issue
33): what they find wrong is kept as sentences (``Verdict.said``, ``LakeVerdict.said``)
and printed in the command's language, the English (``problems``) unchanged.

The tests compare the printed line with :func:`events.language.words` of the sentence
the verdict holds, which falls back to English while a catalogue has no translation of
it; the tests named ``…_is_translated`` check that the catalogues have one.
"""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.data import Verification
from dashboard.markup import escape
from events.language import words
from events.said import Said
from ingest.checkpoint import Anchor
from ingest.lake.layout import Lake
from ingest.lake.manifest import committed
from ingest.lake.verify import verify as verify_lake
from ingest.store import Store
from ingest.verify import verify as verify_store
from tests.ingest.conftest import APP, cli, sql

ELSEWHERE = "ab" * 32
"""A head no chain holds."""


def _altered_event(db: Path) -> int:
    """Alter the payload's type of an event in the middle of the chain: its position."""
    ((count,),) = sql(db, "SELECT count(*) FROM events")
    position = int(count) // 2
    assert sql(db, "UPDATE events SET type = type || 'x' WHERE position = ?", [position]) == [(1,)]
    return position


def _store_problem(db: Path) -> Said:
    verdict = verify_store(Store(db))
    assert not verdict.ok and len(verdict.said) == 1, verdict.problems
    return verdict.said[0]


@pytest.fixture(scope="module")
def lake(small_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The small store exported as a lake (no cluster needed)."""
    root = tmp_path_factory.mktemp("words-lake") / "lake"
    result = cli("archive", "export", "--db", small_store, "--to", root)
    assert result.exit_code == 0, result.output
    return root


def _altered_lake(lake: Path, copy: Path) -> Path:
    """A copy of ``lake`` with one byte of its events' part changed."""
    shutil.copytree(lake, copy)
    (entry,) = committed(Lake.at(str(copy))).values()
    part = next(p for p in entry.parts if p.dataset == "events")
    data = (copy / part.path).read_bytes()
    (copy / part.path).write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    return copy


# -- the store -------------------------------------------------------------------------


def test_the_verdict_keeps_sentences_and_their_english(store_file: Path) -> None:
    position = _altered_event(store_file)
    verdict = verify_store(Store(store_file))
    (said,) = verdict.said
    assert verdict.problems == [said.english()]
    assert said.english().startswith(f"event at position {position} (") and said.english().endswith(" was altered")


def test_an_event_stored_twice_is_said_added_not_removed(store_file: Path) -> None:
    """A copy of an event's row inserted: it was "event at position N+1 is missing:
    removed", though nothing was removed."""
    ((count,),) = sql(store_file, "SELECT count(*) FROM events")
    position = int(count) // 2
    sql(store_file, "INSERT INTO events SELECT * FROM events WHERE position = ?", [position])
    assert _store_problem(store_file).english() == f"event at position {position} is stored twice: a row was added"


@pytest.mark.parametrize("change", ["DROP COLUMN recorded_points", "ALTER recorded_points TYPE VARCHAR"])
def test_a_read_model_whose_columns_changed_is_said_so(store_file: Path, change: str) -> None:
    """A read model's column dropped or retyped: compared by the columns left (and cast
    loosely), the table read as equal, verify said ok, and the standings failed on it."""
    sql(store_file, f"ALTER TABLE round_players {change}")
    assert _store_problem(store_file).english() == (
        "read model round_players does not have the columns this program writes: run saboteur rebuild"
    )
    assert cli("rebuild", "--db", store_file).exit_code == 0
    assert verify_store(Store(store_file)).ok


@pytest.mark.parametrize("lang", ["de", "nl", "nb"])
def test_verify_prints_what_it_found_in_the_language_asked_for(store_file: Path, lang: str) -> None:
    _altered_event(store_file)
    said = _store_problem(store_file)
    result = cli("verify", "--db", store_file, "--lang", lang)
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert words(said, lang) in lines, result.output
    english = cli("verify", "--db", store_file)
    assert said.english() in english.output.splitlines(), english.output


def test_verify_names_a_published_head_missing_in_the_language_asked_for(store_file: Path) -> None:
    verdict = verify_store(Store(store_file), anchors=[Anchor(ELSEWHERE, "--expect-head")])
    (said,) = verdict.said
    assert said.english().startswith(f"--expect-head: the published head {ELSEWHERE} is not in the chain")
    result = cli("verify", "--db", store_file, "--expect-head", ELSEWHERE, "--lang", "de")
    assert result.exit_code == 1 and words(said, "de") in result.output.splitlines(), result.output


def test_verify_s_problem_in_german_is_translated(store_file: Path) -> None:
    """Fails until the German catalogue translates verify's sentences."""
    _altered_event(store_file)
    said = _store_problem(store_file)
    result = cli("verify", "--db", store_file, "--lang", "de")
    assert said.english() not in result.output, result.output
    assert words(said, "de") != said.english()


# -- the lake --------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["nl", "de", "nb"])
def test_archive_verify_prints_what_it_found_in_the_language_asked_for(lake: Path, tmp_path: Path, lang: str) -> None:
    copy = _altered_lake(lake, tmp_path / "lake")
    verdict = verify_lake(Lake.at(str(copy)))
    assert not verdict.ok and verdict.problems == [s.english() for s in verdict.said], verdict.problems
    said = verdict.said[0]
    assert "(altered)" in said.english(), said.english()
    result = cli("archive", "verify", copy, "--lang", lang)
    assert result.exit_code == 1, result.output
    assert words(said, lang) in result.output.splitlines(), result.output
    english = cli("archive", "verify", copy)
    assert said.english() in english.output.splitlines(), english.output


def test_archive_verify_s_problem_in_dutch_is_translated(lake: Path, tmp_path: Path) -> None:
    """Fails until the Dutch catalogue translates archive verify's sentences."""
    copy = _altered_lake(lake, tmp_path / "lake")
    said = verify_lake(Lake.at(str(copy))).said[0]
    result = cli("archive", "verify", copy, "--lang", "nl")
    assert said.english() not in result.output, result.output
    assert words(said, "nl") != said.english()


# -- the dashboard's verification ------------------------------------------------------


def test_a_verification_keeps_its_sentences(store_file: Path) -> None:
    _altered_event(store_file)
    said = _store_problem(store_file)
    done = Verification(datetime.now(UTC), 1, "", False, (said,))
    assert done.problems == (said.english(),)


def test_the_standings_page_says_what_verification_found_in_its_language(
    store_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _altered_event(store_file)
    said = _store_problem(store_file)
    monkeypatch.setenv("SABOTEUR_DB", str(store_file))
    monkeypatch.delenv("SABOTEUR_ADMIN_PASSWORD", raising=False)
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["lang"] = "de"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    shown = escape(words(said, "de"))  # as the page writes any text into its Markdown
    (error,) = [str(e.value) for e in at.error if shown in str(e.value)]
    assert not error.startswith("Verification at"), error  # the page's own words are German
