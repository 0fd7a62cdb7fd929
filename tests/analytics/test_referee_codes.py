"""Referee codes against a real store: a code opens its own table of its round and no
other, is kept in the record by its hash alone, and opens nothing once revoked or
replaced; what the commands refuse, they refuse with a reason."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Final

import duckdb
import pytest
from polars.testing import assert_frame_equal

from analytics import records
from analytics.records import RecordError, RefereeAccess, SeatedPlayer, referee_access
from ingest.rebuild import rebuild
from ingest.schema import SCHEMA_VERSION
from ingest.sources.tournaments import REPLACED
from ingest.store import Store, StoreUnusable
from ingest.verify import verify
from tests.conftest import spied

TID: Final = "ref-cup"
NAMES: Final = {f"p{n:02}": f"Player {n}" for n in range(1, 13)}
TABLE_1: Final = ("p03", "p01", "p05", "p07", "p09", "p11")
TABLE_2: Final = ("p02", "p12", "p04", "p06", "p08", "p10")


@pytest.fixture
def store(tmp_path: Path) -> Store:
    """A tournament of twelve registered players, round 1 seated at two tables."""
    store = Store(tmp_path / "ref.duckdb")
    records.create(store, TID, name="Referee Cup")
    records.register(store, TID, list(NAMES.items()))
    records.publish_seating(store, TID, 1, [TABLE_1, TABLE_2], stage="preliminary", method="by hand", seed=None)
    return store


def payloads(store: Store, *types: str) -> list[dict[str, object]]:
    with store.connect(read_only=True) as con:
        return [json.loads(e.payload) for e in store.read_all(con, types=types)]


def codes_table(store: Store) -> list[tuple[object, ...]]:
    with store.connect(read_only=True) as con:
        return con.execute(
            "SELECT tournament_round, table_label, code_sha256, revoked_seq IS NULL, revoked_reason "
            "FROM referee_codes ORDER BY seq"
        ).fetchall()


def seated(*players: str) -> tuple[SeatedPlayer, ...]:
    return tuple(SeatedPlayer(p, NAMES[p]) for p in players)


def test_each_table_gets_a_code_that_opens_it_and_no_other(store: Store) -> None:
    first, second = records.issue_referee_codes(store, TID, 1)
    assert first.access == RefereeAccess(TID, "Referee Cup", "tournament", 1, "preliminary", "1", seated(*TABLE_1))
    assert second.access.table == "2" and second.access.players == seated(*TABLE_2)
    assert referee_access(store, first.code) == first.access
    assert referee_access(store, second.code) == second.access
    assert first.code != second.code
    assert all(len(c.code) == records.CODE_LENGTH == 32 for c in (first, second))


def test_the_codes_are_printed_before_they_are_recorded(store: Store) -> None:
    """``printed`` (the command writing the cards) is given the codes first: one that
    fails records none, so no table's card is revoked by a code printed nowhere."""
    old_first, old_second = records.issue_referee_codes(store, TID, 1)
    seen: list[list[records.RefereeCode]] = []

    def cannot_print(codes: list[records.RefereeCode]) -> None:
        seen.append(codes)
        assert codes_table(store)[-1][2] == records.code_sha256(old_second.code)  # not recorded yet
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError, match="No space left"):
        records.issue_referee_codes(store, TID, 1, printed=cannot_print)
    assert len(seen) == 1 and len(seen[0]) == 2
    assert [row[2] for row in codes_table(store)] == [records.code_sha256(c.code) for c in (old_first, old_second)]
    assert referee_access(store, old_first.code) is not None and referee_access(store, seen[0][0].code) is None
    printed: list[str] = []
    (code,) = records.issue_referee_codes(
        store, TID, 1, ["2"], printed=lambda codes: printed.extend(c.code for c in codes)
    )
    assert printed == [code.code] and referee_access(store, code.code) == code.access


def test_the_record_keeps_each_codes_hash_and_never_the_code(store: Store) -> None:
    issued = records.issue_referee_codes(store, TID, 1)
    assert payloads(store, "referee_code_issued") == [
        {
            "type": "referee_code_issued",
            "tournament_round": 1,
            "stage": "preliminary",
            "table": code.access.table,
            "code_sha256": hashlib.sha256(code.code.encode()).hexdigest(),
        }
        for code in issued
    ]
    raw = Path(store.path).read_bytes()
    with store.connect(read_only=True) as con:
        stored = " ".join(
            str(row) for table in ("events", "referee_codes") for row in con.execute(f"FROM {table}").fetchall()
        )
    for code in issued:
        assert code.code not in stored and code.code.encode() not in raw
        assert code.code not in repr(code)
        assert code.fingerprint == hashlib.sha256(code.code.encode()).hexdigest()[:8]


@pytest.mark.parametrize(
    "code",
    [
        "",
        "short",
        "A" * 32,  # well formed, never issued
        "A" * 31 + "!",
        "A" * 33,
        "A" * 10_000,
        " " + "A" * 31,
        "é" * 32,
    ],
)
def test_an_unknown_or_malformed_code_opens_nothing(store: Store, code: str) -> None:
    records.issue_referee_codes(store, TID, 1)
    assert referee_access(store, code) is None


def test_a_code_with_a_character_changed_opens_nothing(store: Store) -> None:
    (code,) = records.issue_referee_codes(store, TID, 1, ["2"])
    for at in (0, 15, 31):
        changed = code.code[:at] + ("B" if code.code[at] != "B" else "C") + code.code[at + 1 :]
        assert referee_access(store, changed) is None
    assert referee_access(store, code.code.upper() if code.code.upper() != code.code else code.code.lower()) is None


def test_the_hash_is_compared_in_constant_time(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    (code,) = records.issue_referee_codes(store, TID, 1, ["1"])
    calls = spied(monkeypatch, records.codes.hmac, "compare_digest")
    assert referee_access(store, code.code) is not None
    digest = records.code_sha256(code.code)
    assert calls == [(digest, digest)]


def test_a_revoked_code_opens_nothing_and_the_other_tables_stay_open(store: Store) -> None:
    first, second = records.issue_referee_codes(store, TID, 1)
    recorded = records.revoke_referee_code(store, TID, 1, "1", "  card left on the bus  ")
    assert payloads(store, "referee_code_revoked") == [
        {
            "type": "referee_code_revoked",
            "tournament_round": 1,
            "table": "1",
            "code_sha256": records.code_sha256(first.code),
            "reason": "card left on the bus",
        }
    ]
    assert recorded.stream == f"tournament:{TID}"
    assert referee_access(store, first.code) is None
    assert referee_access(store, second.code) == second.access
    with pytest.raises(RecordError, match="table 1 of round 1 of ref-cup has no code to revoke"):
        records.revoke_referee_code(store, TID, 1, "1", "again")


def test_issuing_again_replaces_the_tables_code(store: Store) -> None:
    old_first, old_second = records.issue_referee_codes(store, TID, 1)
    (new_first,) = records.issue_referee_codes(store, TID, 1, ["1", "1"])
    assert new_first.code != old_first.code
    assert referee_access(store, old_first.code) is None
    assert referee_access(store, new_first.code) == new_first.access
    assert referee_access(store, old_second.code) == old_second.access
    digests = [records.code_sha256(c.code) for c in (old_first, old_second, new_first)]
    assert codes_table(store) == [
        (1, "1", digests[0], False, REPLACED),
        (1, "2", digests[1], True, None),
        (1, "1", digests[2], True, None),
    ]
    # a revocation names the live code, not the one replaced
    records.revoke_referee_code(store, TID, 1, "1", "lost")
    assert payloads(store, "referee_code_revoked")[0]["code_sha256"] == digests[2]
    assert referee_access(store, new_first.code) is None
    assert referee_access(store, old_second.code) is not None


def test_the_organisers_list_shows_each_code_by_its_fingerprint(store: Store) -> None:
    first, second = records.issue_referee_codes(store, TID, 1)
    records.revoke_referee_code(store, TID, 1, "2", "lost")
    listed = records.referee_codes(store, TID)
    assert listed.to_dicts() == [
        {
            "tournament_round": 1,
            "stage": "preliminary",
            "table": "2",
            "fingerprint": second.fingerprint,
            "live": False,
            "revoked_reason": "lost",
        },
        {
            "tournament_round": 1,
            "stage": "preliminary",
            "table": "1",
            "fingerprint": first.fingerprint,
            "live": True,
            "revoked_reason": None,
        },
    ]


def test_a_code_opens_its_table_as_the_seating_stands_now(store: Store) -> None:
    first, second = records.issue_referee_codes(store, TID, 1)
    reseated = (*TABLE_1[1:], TABLE_1[0])
    records.publish_seating(
        store, TID, 1, [reseated], stage="preliminary", method="by hand", seed=None, reason="table 2 merged"
    )
    access = referee_access(store, first.code)
    assert access is not None and access.players == seated(*reseated)
    assert referee_access(store, second.code) is None  # table 2 is seated no more


def test_codes_of_one_round_do_not_open_another(store: Store) -> None:
    records.publish_seating(store, TID, 2, [TABLE_2, TABLE_1], stage="preliminary", method="by hand", seed=None)
    (round_1,) = records.issue_referee_codes(store, TID, 1, ["1"])
    (round_2,) = records.issue_referee_codes(store, TID, 2, ["1"])
    assert referee_access(store, round_1.code) == round_1.access
    assert round_1.access.tournament_round == 1 and round_1.access.players == seated(*TABLE_1)
    assert referee_access(store, round_2.code) == round_2.access
    assert round_2.access.tournament_round == 2 and round_2.access.players == seated(*TABLE_2)


@pytest.mark.parametrize(
    ("tournament", "number", "tables", "refusal"),
    [
        ("nope", 1, None, "no tournament nope: create it first"),
        (TID, 2, None, "round 2 of ref-cup is not seated: seat it first"),
        (TID, 1, ["3", "1", "x"], r"round 1 of ref-cup has no table 3, x \(its tables: 1, 2\)"),
        (TID, 1, [], "name a table, or none for every table of the round"),
    ],
)
def test_issuing_refuses_what_it_cannot_find(
    store: Store, tournament: str, number: int, tables: list[str] | None, refusal: str
) -> None:
    with pytest.raises(RecordError, match=refusal):
        records.issue_referee_codes(store, tournament, number, tables)
    assert payloads(store, "referee_code_issued") == []


def test_a_round_seated_in_two_stages_is_refused(store: Store) -> None:
    records.publish_seating(store, TID, 1, [TABLE_2], stage="final", method="by hand", seed=None)
    with pytest.raises(RecordError, match=r"seated in more than one stage \(final, preliminary\)"):
        records.issue_referee_codes(store, TID, 1)


@pytest.mark.parametrize(
    ("tournament", "table", "reason", "refusal"),
    [
        (TID, "1", " ", "a revocation needs a --reason"),
        ("nope", "1", "lost", "no tournament nope"),
        (TID, "7", "lost", "table 7 of round 1 of ref-cup has no code to revoke"),
    ],
)
def test_revoking_refuses_what_it_cannot_find(
    store: Store, tournament: str, table: str, reason: str, refusal: str
) -> None:
    records.issue_referee_codes(store, TID, 1)
    with pytest.raises(RecordError, match=refusal):
        records.revoke_referee_code(store, tournament, 1, table, reason)
    assert payloads(store, "referee_code_revoked") == []


def test_a_rebuild_gives_the_same_codes_and_verify_agrees(store: Store) -> None:
    first, _ = records.issue_referee_codes(store, TID, 1)
    records.issue_referee_codes(store, TID, 1, ["2"])
    records.revoke_referee_code(store, TID, 1, "1", "lost")
    with store.connect(read_only=True) as con:
        before = con.sql("FROM referee_codes ORDER BY seq").pl()
    rebuild(store)
    with store.connect(read_only=True) as con:
        assert_frame_equal(con.sql("FROM referee_codes ORDER BY seq").pl(), before)
    assert verify(store).ok
    assert referee_access(store, first.code) is None


def test_a_store_of_version_3_gets_the_codes_table_in_place(store: Store) -> None:
    """As a store of version 3 was written: no referee_codes table (and no code)."""
    with duckdb.connect(str(store.path)) as con:
        con.execute("DROP TABLE referee_codes")
        con.execute("UPDATE meta SET value = '3' WHERE key = 'schema_version'")
    for command in (lambda: referee_access(store, "A" * 32), lambda: records.issue_referee_codes(store, TID, 1)):
        with pytest.raises(
            StoreUnusable, match=f"schema version 3, older than this program's {SCHEMA_VERSION}: saboteur rebuild"
        ):
            command()
    with store.connect() as con:  # a writer: what ingest and rebuild open
        assert con.execute("SELECT count(*) FROM referee_codes").fetchall() == [(0,)]
    (code,) = records.issue_referee_codes(store, TID, 1, ["2"])
    with store.connect(read_only=True) as con:
        assert con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchall() == [(str(SCHEMA_VERSION),)]
    assert referee_access(store, code.code) == code.access
    assert verify(store).ok
