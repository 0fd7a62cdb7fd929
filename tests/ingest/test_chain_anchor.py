"""An anchored chain (issue 10, point 4).

On ``main`` before this, deleting the newest game's events and upload (and its
read-model rows) passed ``verify``; so did editing ``uploads`` (``raw``, ``sha256``,
``outcome``) or deleting an upload; and since the chain had no anchor outside the
file, recomputing it defeated every check. Now every upload has a link in the upload
chain (its columns, its bytes' and its report's SHA-256, and the event head it was
recorded at); ``verify --expect-head`` and a checkpoint signed with the organiser's
Ed25519 key pin a head published earlier; and ``tournament log`` lists each checkpoint
published. What the chain proves and what it cannot: ``docs/chain.md``.
"""

from __future__ import annotations

import json
import stat
from pathlib import Path

import duckdb
import pytest

from events.records import dump
from events.records.tournament import TOURNAMENT_EVENT, CheckpointPublished, json_schema
from ingest.chain import GENESIS, canonical, link, moment_text
from ingest.readmodels import GAME_TABLES
from tests.ingest.conftest import TOURNAMENT, cli, one_line, sql

NEWEST_GAME = 5
"""The upload of the newest game in the session's store (``r1-t2.jsonl``)."""


def verify(db: Path, *options: str | Path) -> tuple[int, str]:
    result = cli("verify", "--db", db, *options)
    return result.exit_code, " ".join(result.output.split())


def head(db: Path) -> tuple[int, str]:
    ((position, digest),) = sql(db, "SELECT position, lower(hex(hash)) FROM events ORDER BY position DESC LIMIT 1")
    return int(position), str(digest)


def uploads_head(db: Path) -> str:
    return str(sql(db, "SELECT hash FROM upload_chain ORDER BY upload_id DESC LIMIT 1")[0][0])


# -- what an attacker with the file and our own program can do ---------------------------


def relink_uploads(db: Path) -> None:
    """Link every upload afresh to the event head as it stands: the upgrade from a store
    without an upload chain does exactly that, so ``rebuild`` after dropping the chain
    and calling the store version 1 makes a new one."""
    sql(db, "DROP TABLE upload_chain")
    sql(db, "UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    assert cli("rebuild", "--db", db).exit_code == 0


def cut_the_newest_game(db: Path, *, careful: bool) -> None:
    """Delete the newest game's events and any after them, its upload and its read-model
    rows, and move the read models' position back; a ``careful`` attacker also links
    the uploads anew."""
    (game,) = sql(db, "SELECT game_id FROM games WHERE upload_id = ?", [NEWEST_GAME])[0]
    sql(
        db, "DELETE FROM events WHERE position >= (SELECT min(position) FROM events WHERE upload_id = ?)", [NEWEST_GAME]
    )
    sql(db, "DELETE FROM upload_chain WHERE upload_id = ?", [NEWEST_GAME])
    sql(db, "DELETE FROM uploads WHERE upload_id = ?", [NEWEST_GAME])
    for table in GAME_TABLES:
        sql(db, f"DELETE FROM {table} WHERE game_id = ?", [game])
    sql(db, "UPDATE projection SET position = (SELECT max(position) FROM events)")
    if careful:
        relink_uploads(db)


def rewrite_history(db: Path) -> None:
    """Change a stored event, recompute every hash after it and link the uploads anew,
    then rebuild the read models: a whole new chain, consistent in itself."""
    con = duckdb.connect(str(db))
    try:
        (position,) = con.execute("SELECT min(position) FROM events WHERE type = 'round_started'").fetchall()[0]
        con.execute(
            "UPDATE events SET payload = replace(payload, '\"round\":1', '\"round\": 1') WHERE position = ?", [position]
        )
        rows = con.execute(
            "SELECT position, stream, version, type, payload, recorded_at, upload_id, line FROM events ORDER BY 1"
        ).fetchall()
        prev, links = GENESIS, []
        for number, stream, version, kind, payload, recorded_at, upload_id, line in rows:
            text = canonical(number, stream, version, kind, payload, moment_text(recorded_at), upload_id, line)
            links.append((prev, link(prev, text), number))
            prev = links[-1][1]
        con.executemany("UPDATE events SET prev_hash = unhex(?), hash = unhex(?) WHERE position = ?", links)
    finally:
        con.close()
    relink_uploads(db)


# -- uploads in the chain ------------------------------------------------------------------


def test_every_upload_has_its_link_and_verify_prints_both_heads(store_file: Path) -> None:
    assert sql(store_file, "SELECT upload_id FROM upload_chain ORDER BY 1") == [(n,) for n in range(1, 6)]
    position, digest = head(store_file)
    # every upload of the one ingest names the event head its transaction left
    assert sql(store_file, "SELECT DISTINCT position, head FROM upload_chain") == [(position, digest)]
    code, output = verify(store_file)
    assert code == 0, output
    assert f"{position:,} events, chain head {digest}" in output
    assert f"5 uploads, uploads head {uploads_head(store_file)}" in output


UPLOAD_EDITS = {
    "raw": "raw = raw || 'x'::BLOB",
    "raw and sha256": "raw = raw || 'x'::BLOB, sha256 = sha256(raw || 'x'::BLOB)",
    "sha256": "sha256 = repeat('0', 64)",
    "outcome": "outcome = 'rejected'",
    "name": "name = 'other.jsonl'",
    "size": "size = size + 1",
    "report": "report = replace(report, 'clean', 'fine')",
    "received_at": "received_at = received_at + INTERVAL 1 SECOND",
    "game_ids": "game_ids = ['someone:else']",
    "reason": "reason = 'looked fine'",
}


@pytest.mark.parametrize("edit", list(UPLOAD_EDITS))
def test_an_edited_upload_is_caught(store_file: Path, edit: str) -> None:
    assert sql(store_file, f"UPDATE uploads SET {UPLOAD_EDITS[edit]} WHERE upload_id = 3") == [(1,)]
    for options in ((), ("--chain-only",)):
        code, output = verify(store_file, *options)
        assert code == 1, output
        assert "upload 3 " in output and "altered" in output, output


def test_an_edited_rejected_upload_is_caught(store_file: Path) -> None:
    sql(store_file, "UPDATE uploads SET outcome = 'accepted', raw = 'fine'::BLOB WHERE upload_id = 2")
    code, output = verify(store_file)
    assert code == 1 and "upload 2 " in output, output


@pytest.mark.parametrize("upload", [2, 3, NEWEST_GAME])
def test_a_deleted_upload_is_caught(store_file: Path, upload: int) -> None:
    sql(store_file, "DELETE FROM uploads WHERE upload_id = ?", [upload])
    code, output = verify(store_file)
    assert code == 1, output
    assert f"upload {upload} " in output and "removed" in output, output


@pytest.mark.parametrize("upload", [2, 3])
def test_an_upload_deleted_with_its_link_is_caught(store_file: Path, upload: int) -> None:
    sql(store_file, "DELETE FROM uploads WHERE upload_id = ?", [upload])
    sql(store_file, "DELETE FROM upload_chain WHERE upload_id = ?", [upload])
    code, output = verify(store_file)
    assert code == 1 and f"upload {upload} " in output and "removed" in output, output


def test_an_upload_added_by_hand_is_caught(store_file: Path) -> None:
    sql(store_file, "INSERT INTO uploads SELECT * REPLACE (6 AS upload_id) FROM uploads WHERE upload_id = 2")
    code, output = verify(store_file)
    assert code == 1 and "upload 6 " in output and "not in the chain" in output, output


# -- cutting the tail ----------------------------------------------------------------------


def test_cutting_the_newest_game_breaks_the_links_of_its_batch(store_file: Path) -> None:
    cut_the_newest_game(store_file, careful=False)
    code, output = verify(store_file)
    assert code == 1 and "removed" in output, output


def test_a_careful_cut_passes_verify_alone_but_not_a_published_head(store_file: Path) -> None:
    _, published = head(store_file)
    cut_the_newest_game(store_file, careful=True)
    code, output = verify(store_file)
    assert code == 0, output  # consistent in itself: what no check inside the file can see
    code, output = verify(store_file, "--expect-head", published)
    assert code == 1, output
    assert published in output and "not in the chain" in output, output


def test_an_earlier_published_head_is_still_contained(store_file: Path) -> None:
    """A head published before the newest events holds as the chain grows."""
    (earlier,) = sql(store_file, "SELECT lower(hex(hash)) FROM events WHERE position = 10")[0]
    position, newest = head(store_file)
    code, output = verify(store_file, "--expect-head", earlier, "--expect-head", newest)
    assert code == 0, output
    assert "position 10" in output and f"position {position}" in output, output
    code, output = verify(store_file, "--expect-head", uploads_head(store_file))
    assert code == 0 and "upload 5" in output, output


def test_an_unknown_head_is_not_in_the_chain(store_file: Path) -> None:
    code, output = verify(store_file, "--expect-head", "ab" * 32)
    assert code == 1 and "not in the chain" in output, output


def test_an_expected_head_must_look_like_one(store_file: Path) -> None:
    result = cli("verify", "--db", store_file, "--expect-head", "not-a-hash")
    assert result.exit_code == 2, result.output


def test_a_rewritten_history_passes_verify_alone_but_not_a_published_head(store_file: Path) -> None:
    _, published = head(store_file)
    rewrite_history(store_file)
    assert head(store_file)[1] != published
    code, output = verify(store_file)
    assert code == 0, output
    code, output = verify(store_file, "--expect-head", published)
    assert code == 1 and "not in the chain" in output, output


# -- checkpoints -------------------------------------------------------------------------


@pytest.fixture
def keys(tmp_path: Path) -> tuple[Path, Path]:
    key = tmp_path / "organiser.key"
    result = cli("checkpoint", "keygen", "--key", key)
    assert result.exit_code == 0, result.output
    public = tmp_path / "organiser.key.pub"
    assert key.exists() and public.exists()
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert "PRIVATE KEY" in key.read_text() and "PUBLIC KEY" in public.read_text()
    return key, public


def publish(db: Path, key: Path, out: Path) -> dict[str, object]:
    result = cli("checkpoint", "publish", "--db", db, "--key", key, "-o", out)
    assert result.exit_code == 0, result.output
    published: dict[str, object] = json.loads(out.read_text(encoding="utf-8"))
    return published


def test_a_checkpoint_no_record_could_note_is_not_published(
    store_file: Path, keys: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The record refused (a full disk, say): no checkpoint file, nothing announced. The
    file was written and announced first, then the record failed: a checkpoint
    published that no record notes."""
    from analytics import records
    from ingest.store import StoreError

    def full(store: object, *_: object, **__: object) -> None:
        raise StoreError(store_file, "the database failed: No space left on device")

    monkeypatch.setattr(records, "append", full)
    out = tmp_path / "cp.json"
    result = cli("checkpoint", "publish", "--db", store_file, "--key", keys[0], "-o", out)
    assert result.exit_code == 2, result.output
    assert "No space left" in one_line(result) and "checkpoint cp.json" not in result.output
    assert list(tmp_path.glob("*cp.json*")) == []


def test_keygen_never_overwrites_a_key(keys: tuple[Path, Path]) -> None:
    key, _ = keys
    before = key.read_bytes()
    result = cli("checkpoint", "keygen", "--key", key)
    assert result.exit_code == 2 and "exists" in one_line(result), result.output
    assert key.read_bytes() == before


def test_a_published_checkpoint_verifies_and_is_in_the_tournaments_record(
    store_file: Path, keys: tuple[Path, Path], tmp_path: Path
) -> None:
    key, public = keys
    position, digest = head(store_file)
    checkpoint = publish(store_file, key, tmp_path / "cp.json")
    assert checkpoint["format"] == "saboteur-checkpoint/1"
    assert (checkpoint["position"], checkpoint["head"]) == (position, digest)
    assert (checkpoint["uploads"], checkpoint["uploads_head"]) == (5, uploads_head(store_file))
    code, output = verify(store_file, "--checkpoint", tmp_path / "cp.json", "--public-key", public)
    assert code == 0, output
    assert "checkpoint" in output and f"position {position}" in output, output

    # the record notes it: the event is the checkpoint, type and all
    stored = sql(store_file, "SELECT payload FROM events WHERE type = 'checkpoint_published'")
    fields = {k: v for k, v in checkpoint.items() if k != "format"}
    assert [json.loads(p) for (p,) in stored] == [{"type": "checkpoint_published", **fields}]
    result = cli("tournament", "log", TOURNAMENT, "--db", store_file)
    assert result.exit_code == 0 and "checkpoint_published" in result.output, result.output
    assert f"position={position}" in result.output.replace(" ", ""), result.output
    # the standings project the same as before it
    assert cli("verify", "--db", store_file).exit_code == 0


def test_a_checkpoint_still_holds_after_more_is_recorded(
    store_file: Path, keys: tuple[Path, Path], tmp_path: Path
) -> None:
    key, public = keys
    publish(store_file, key, tmp_path / "cp.json")
    result = cli("tournament", "register", TOURNAMENT, "newbie", "--name", "New Bie", "--db", store_file)
    other = tmp_path / "other.jsonl"
    other.write_bytes(b"not a log either\n")
    assert cli("ingest", other, "--db", store_file, "--workers", "1").exit_code == 1
    code, output = verify(store_file, "--checkpoint", tmp_path / "cp.json", "--public-key", public)
    assert code == 0, (result.output, output)


def test_a_checkpoint_catches_a_careful_cut(store_file: Path, keys: tuple[Path, Path], tmp_path: Path) -> None:
    key, public = keys
    publish(store_file, key, tmp_path / "cp.json")
    cut_the_newest_game(store_file, careful=True)
    code, output = verify(store_file, "--checkpoint", tmp_path / "cp.json", "--public-key", public)
    assert code == 1 and "not in the chain" in output, output


def test_a_checkpoint_catches_a_rewritten_history(store_file: Path, keys: tuple[Path, Path], tmp_path: Path) -> None:
    key, public = keys
    publish(store_file, key, tmp_path / "cp.json")
    rewrite_history(store_file)
    assert verify(store_file)[0] == 0
    code, output = verify(store_file, "--checkpoint", tmp_path / "cp.json", "--public-key", public)
    assert code == 1 and "not in the chain" in output, output


def test_a_checkpoint_catches_a_rejected_upload_cut_from_the_end(
    store_file: Path, keys: tuple[Path, Path], tmp_path: Path
) -> None:
    """An upload that brought no event is pinned by the uploads head the checkpoint
    carries: its removal from the end of the uploads leaves the events as they were."""
    key, public = keys
    other = tmp_path / "other.jsonl"
    other.write_bytes(b"not a log either\n")
    assert cli("ingest", other, "--db", store_file, "--workers", "1").exit_code == 1
    checkpoint = publish(store_file, key, tmp_path / "cp.json")
    assert checkpoint["uploads"] == 6
    sql(store_file, "DELETE FROM uploads WHERE upload_id = 6")
    sql(store_file, "DELETE FROM upload_chain WHERE upload_id = 6")
    assert verify(store_file)[0] == 0
    code, output = verify(store_file, "--checkpoint", tmp_path / "cp.json", "--public-key", public)
    assert code == 1 and "upload 6" in output and "not in the chain" in output, output


@pytest.mark.parametrize(
    "field, value", [("position", 1), ("head", "ab" * 32), ("uploads", 1), ("published_at", "2020-01-01T00:00:00Z")]
)
def test_an_altered_checkpoint_fails_its_signature(
    store_file: Path, keys: tuple[Path, Path], tmp_path: Path, field: str, value: object
) -> None:
    key, public = keys
    checkpoint = publish(store_file, key, tmp_path / "cp.json")
    (tmp_path / "cp.json").write_text(json.dumps({**checkpoint, field: value}), encoding="utf-8")
    code, output = verify(store_file, "--checkpoint", tmp_path / "cp.json", "--public-key", public)
    assert code == 1 and "signature" in output, output


def test_a_checkpoint_signed_by_another_key_fails(store_file: Path, keys: tuple[Path, Path], tmp_path: Path) -> None:
    key, _ = keys
    publish(store_file, key, tmp_path / "cp.json")
    assert cli("checkpoint", "keygen", "--key", tmp_path / "other.key").exit_code == 0
    code, output = verify(store_file, "--checkpoint", tmp_path / "cp.json", "--public-key", tmp_path / "other.key.pub")
    assert code == 1 and "signature" in output, output


def test_unusable_checkpoint_inputs_are_one_line(store_file: Path, keys: tuple[Path, Path], tmp_path: Path) -> None:
    key, public = keys
    publish(store_file, key, tmp_path / "cp.json")
    (tmp_path / "junk.json").write_text("{not json", encoding="utf-8")
    (tmp_path / "deep.json").write_text("[" * 100_000, encoding="utf-8")  # json's recursion, not a traceback
    for options in (
        ("--checkpoint", tmp_path / "junk.json", "--public-key", public),
        ("--checkpoint", tmp_path / "deep.json", "--public-key", public),
        ("--checkpoint", tmp_path / "missing.json", "--public-key", public),
        ("--checkpoint", tmp_path / "cp.json", "--public-key", tmp_path / "cp.json"),
        ("--checkpoint", tmp_path / "cp.json", "--public-key", key),
    ):
        result = cli("verify", "--db", store_file, *options)
        assert result.exit_code == 2, result.output
        one_line(result)
    result = cli("verify", "--db", store_file, "--checkpoint", tmp_path / "cp.json")
    assert result.exit_code == 2 and "--public-key" in result.output, result.output
    result = cli("checkpoint", "publish", "--db", store_file, "--key", public, "-o", tmp_path / "x.json")
    assert result.exit_code == 2 and "private key" in one_line(result), result.output


def test_publish_names_the_tournament_when_the_store_holds_several(
    store_file: Path, keys: tuple[Path, Path], tmp_path: Path
) -> None:
    key, _ = keys
    assert cli("tournament", "create", "second-cup", "--name", "Second Cup", "--db", store_file).exit_code == 0
    result = cli("checkpoint", "publish", "--db", store_file, "--key", key, "-o", tmp_path / "cp.json")
    assert result.exit_code == 2 and "--tournament" in one_line(result), result.output
    assert not (tmp_path / "cp.json").exists()
    result = cli(
        "checkpoint",
        "publish",
        "--db",
        store_file,
        "--key",
        key,
        "-o",
        tmp_path / "cp.json",
        "--tournament",
        "second-cup",
    )
    assert result.exit_code == 0, result.output
    stored = sql(store_file, "SELECT stream FROM events WHERE type = 'checkpoint_published'")
    assert stored == [("tournament:second-cup",)]


def test_a_store_of_no_tournament_and_no_event_is_published_too(keys: tuple[Path, Path], tmp_path: Path) -> None:
    """The first checkpoint may come before any event: the genesis hash at position 0,
    and the uploads so far; no tournament's record to note it in."""
    key, public = keys
    db = tmp_path / "early.duckdb"
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(b"not a log\n")
    assert cli("ingest", broken, "--db", db, "--workers", "1").exit_code == 1
    result = cli("checkpoint", "publish", "--db", db, "--key", key, "-o", tmp_path / "cp.json")
    assert result.exit_code == 0 and "in no record" in result.output, result.output
    checkpoint = json.loads((tmp_path / "cp.json").read_text(encoding="utf-8"))
    assert (checkpoint["position"], checkpoint["head"], checkpoint["uploads"]) == (0, GENESIS, 1)
    code, output = verify(db, "--checkpoint", tmp_path / "cp.json", "--public-key", public)
    assert code == 0, output
    sql(db, "DELETE FROM upload_chain")
    sql(db, "DELETE FROM uploads")
    assert verify(db)[0] == 0  # an empty store is consistent in itself
    code, output = verify(db, "--checkpoint", tmp_path / "cp.json", "--public-key", public)
    assert code == 1 and "upload 1" in output, output


def test_the_checkpoint_event_reads_and_writes_back_byte_for_byte(
    store_file: Path, keys: tuple[Path, Path], tmp_path: Path
) -> None:
    key, _ = keys
    publish(store_file, key, tmp_path / "cp.json")
    ((payload,),) = sql(store_file, "SELECT payload FROM events WHERE type = 'checkpoint_published'")
    event = TOURNAMENT_EVENT.validate_json(payload)
    assert isinstance(event, CheckpointPublished)
    assert dump(event) == payload
    assert '"const": "checkpoint_published"' in json.dumps(json_schema())
