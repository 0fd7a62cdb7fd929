"""Each finding's sentence and values are kept beside its English message (schema
version 7, issue 33), so a page can say it in the reader's language; a store of version
6 is brought up to it by the first job that writes, every sentence filled in as a
rebuild would fill it."""

from __future__ import annotations

from pathlib import Path

import pytest

from events.language import words
from events.said import read_stored
from events.schema import dump_event
from events.simulate.game import quick_game
from events.simulate.mutate import mutate
from ingest.pipeline import ingest
from ingest.schema import SCHEMA_VERSION
from ingest.store import Store, StoreUnusable
from tests.ingest.conftest import cli, sql


@pytest.fixture
def with_findings(tmp_path: Path) -> Path:
    """A store of two games whose logs break rules (a missed draw, a wrong score)."""
    logs = tmp_path / "logs"
    logs.mkdir()
    for seed, mutation in enumerate(("skip_draw", "mis_score")):
        lines = [dump_event(e) for e in quick_game(5, "tournament", 2, seed=seed)]
        broken = mutate(lines, mutation, seed=seed)
        assert broken is not None
        (logs / f"g{seed}.jsonl").write_text("\n".join(broken.lines) + "\n")
    db = tmp_path / "ledger.duckdb"
    ingest([logs], Store(db), workers=1)
    return db


def test_every_stored_finding_keeps_its_sentence(with_findings: Path) -> None:
    kept = sql(with_findings, "SELECT message, said FROM findings ORDER BY ALL")
    assert kept and all(said is not None for _, said in kept)
    for message, said in kept:
        assert read_stored(said).english() == message
        assert words(read_stored(said), "nl") != message  # and it reads in Dutch


def test_a_version_6_store_gets_every_sentence_by_its_first_write(with_findings: Path) -> None:
    before = sql(with_findings, "SELECT finding_id, said FROM findings ORDER BY ALL")
    with Store(with_findings).connect() as con:  # as version 6 left it
        con.execute("ALTER TABLE findings DROP COLUMN said")
        con.execute("UPDATE meta SET value = '6' WHERE key = 'schema_version'")
    with pytest.raises(StoreUnusable, match="schema version 6, older"), Store(with_findings).connect(read_only=True):
        pass
    with Store(with_findings).connect():  # a job that writes upgrades the store
        pass
    assert sql(with_findings, "SELECT value FROM meta WHERE key = 'schema_version'") == [(str(SCHEMA_VERSION),)]
    assert sql(with_findings, "SELECT finding_id, said FROM findings ORDER BY ALL") == before
    verified = cli("verify", "--db", with_findings)
    assert verified.exit_code == 0, verified.output
