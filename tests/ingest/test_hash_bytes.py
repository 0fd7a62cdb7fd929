"""The events' table as schema version 6 declares it (issue 14), and the upgrades to it.

Until version 4 the ``events`` table held ``prev_hash`` and ``hash`` as 64 hex digits
of text, which DuckDB analysed for compression at every write and could not compress
(a hash is random): two fifths of the events' insert. Since version 5 they are ``BLOB``
columns stored uncompressed, read back as the same hex text
(:data:`ingest.tables.Digest`). Until version 5 the table also had a unique key on
``(stream, version)``, a third of the events' insert, which never was what refused a
stale append (``test_store_contract``); since version 6 it has only its key on
``position``. A store of version 4 or 5 is upgraded by the first job that writes, every
event kept.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from ingest.chain import GENESIS, StoredEvent
from ingest.schema import SCHEMA_VERSION
from ingest.store import Store, StoreUnusable
from ingest.tables import Digest, Row, arrow_table, columns, create_table, digests, selected, table
from tests.ingest.conftest import cli, sql

VERSION_4_EVENTS = """
CREATE TABLE events (
    position BIGINT NOT NULL,
    stream VARCHAR NOT NULL,
    version INTEGER NOT NULL,
    type VARCHAR NOT NULL,
    payload VARCHAR NOT NULL,
    recorded_at TIMESTAMPTZ NOT NULL,
    upload_id BIGINT,
    line INTEGER,
    prev_hash VARCHAR NOT NULL,
    hash VARCHAR NOT NULL,
    PRIMARY KEY (position),
    UNIQUE (stream, version)
)
"""
"""The events' table as schema version 4 made it: the hashes as text."""

AS_TEXT = (
    "SELECT position, stream, version, type, payload, recorded_at, upload_id, line, "
    "lower(hex(prev_hash)), lower(hex(hash)) FROM events ORDER BY position"
)
"""Every event with its hashes as hex text (a store of version 5 or later)."""


def as_version(db: Path, version: int) -> None:
    """Turn a store of this version into one of ``version`` (4 or 5), as that program
    left it: the events' table with a unique key on a stream's versions too, and (4)
    the hashes as hex text."""
    table = VERSION_4_EVENTS
    copied = "*"
    if version == 4:
        copied = "* REPLACE (lower(hex(prev_hash)) AS prev_hash, lower(hex(hash)) AS hash)"
    else:
        for column in ("prev_hash", "hash"):
            table = table.replace(f"    {column} VARCHAR", f"    {column} BLOB USING COMPRESSION uncompressed")
    con = duckdb.connect(str(db))
    try:
        con.execute("BEGIN")
        con.execute(f"CREATE TABLE old_events AS SELECT {copied} FROM events")
        con.execute("DROP TABLE events")
        con.execute(table)
        con.execute("INSERT INTO events SELECT * FROM old_events ORDER BY position")
        con.execute("DROP TABLE old_events")
        con.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", [str(version)])
        con.execute("COMMIT")
    finally:
        con.close()


def constraints(db: Path) -> list[tuple[str, list[str]]]:
    """The events' keys, as DuckDB lists them (not their columns' NOT NULL)."""
    rows = sql(
        db,
        "SELECT constraint_type, constraint_column_names FROM duckdb_constraints() WHERE table_name = 'events' "
        "AND constraint_type <> 'NOT NULL' ORDER BY constraint_type",
    )
    return [(str(kind), list(names)) for kind, names in rows]


def column_types(db: Path) -> dict[str, str]:
    rows = sql(db, "SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = 'events'")
    return {str(name): str(kind) for name, kind in rows}


def test_the_events_hold_their_hashes_as_32_bytes_stored_uncompressed(store_file: Path) -> None:
    assert column_types(store_file)["hash"] == column_types(store_file)["prev_hash"] == "BLOB"
    assert sql(store_file, "SELECT DISTINCT octet_length(hash), octet_length(prev_hash) FROM events") == [(32, 32)]
    sql(store_file, "CHECKPOINT")
    found = sql(
        store_file,
        "SELECT DISTINCT column_name, compression FROM pragma_storage_info('events') "
        "WHERE column_name IN ('hash', 'prev_hash') AND segment_type = 'BLOB'",
    )
    assert sorted(found) == [("hash", "Uncompressed"), ("prev_hash", "Uncompressed")]
    # and every reader of the store sees hex text, the first link from the genesis hash
    store = Store(store_file)
    with store.connect(read_only=True) as con:
        first = next(iter(store.read_all(con)))
        position, head = store.head(con)
    assert first.prev_hash == GENESIS and len(first.hash) == 64 and int(first.hash, 16) >= 0
    assert sql(store_file, "SELECT lower(hex(hash)) FROM events WHERE position = ?", [position]) == [(head,)]


def test_an_upgrade_to_hashes_as_bytes_keeps_every_event_and_the_chain(store_file: Path, tmp_path: Path) -> None:
    before = sql(store_file, AS_TEXT)
    code_before = cli("verify", "--db", store_file)
    assert code_before.exit_code == 0, code_before.output
    as_version(store_file, 4)
    assert column_types(store_file)["hash"] == "VARCHAR"
    with pytest.raises(StoreUnusable, match="schema version 4, older"), Store(store_file).connect(read_only=True):
        pass

    with Store(store_file).connect():  # a job that writes upgrades the store
        pass
    assert sql(store_file, "SELECT value FROM meta WHERE key = 'schema_version'") == [(str(SCHEMA_VERSION),)]
    assert column_types(store_file)["hash"] == "BLOB"
    assert sql(store_file, AS_TEXT) == before  # every value of every event, in order
    # no key is left (the projection's row refuses a second appender: StoredEvent)
    assert constraints(store_file) == []
    verified = cli("verify", "--db", store_file)
    assert verified.exit_code == 0, verified.output
    head = before[-1][-1]
    assert f"chain head {head}" in " ".join(verified.output.split())


def test_an_upgrade_from_version_5_drops_the_unique_key_and_keeps_every_event(store_file: Path) -> None:
    before = sql(store_file, AS_TEXT)
    as_version(store_file, 5)
    assert constraints(store_file) == [("PRIMARY KEY", ["position"]), ("UNIQUE", ["stream", "version"])]
    assert column_types(store_file)["hash"] == "BLOB"  # as version 5 left them
    with pytest.raises(StoreUnusable, match="schema version 5, older"), Store(store_file).connect(read_only=True):
        pass

    with Store(store_file).connect():  # a job that writes upgrades the store
        pass
    assert sql(store_file, "SELECT value FROM meta WHERE key = 'schema_version'") == [(str(SCHEMA_VERSION),)]
    assert constraints(store_file) == []
    assert column_types(store_file)["hash"] == "BLOB"
    assert sql(store_file, AS_TEXT) == before
    verified = cli("verify", "--db", store_file)
    assert verified.exit_code == 0, verified.output
    assert f"chain head {before[-1][-1]}" in " ".join(verified.output.split())
    # a store made anew has the same keys as an upgraded one
    with Store(store_file.with_name("new.duckdb")).connect():
        pass
    assert constraints(store_file.with_name("new.duckdb")) == constraints(store_file)


def test_an_upgrade_from_version_8_drops_the_key_on_the_position_and_keeps_every_event(store_file: Path) -> None:
    """Schema 8 to 9: the events' table loses its key on ``position``, whose index
    DuckDB kept in memory until the commit (a 16 MiB log of blank lines failed its
    commit, and the run with it): copied into a table made anew, every value kept."""
    before = sql(store_file, AS_TEXT)
    as_version(store_file, 5)
    with duckdb.connect(str(store_file)) as con:  # version 8 kept the position's key alone
        con.execute("BEGIN")
        con.execute("CREATE TABLE kept AS SELECT * FROM events")
        con.execute("DROP TABLE events")
        con.execute(
            VERSION_4_EVENTS.replace(",\n    UNIQUE (stream, version)", "")
            .replace("    prev_hash VARCHAR", "    prev_hash BLOB")
            .replace("    hash VARCHAR", "    hash BLOB")
        )
        con.execute("INSERT INTO events SELECT * FROM kept ORDER BY position")
        con.execute("DROP TABLE kept")
        con.execute("UPDATE meta SET value = '8' WHERE key = 'schema_version'")
        con.execute("COMMIT")
    assert constraints(store_file) == [("PRIMARY KEY", ["position"])]
    with Store(store_file).connect():
        pass
    assert sql(store_file, "SELECT value FROM meta WHERE key = 'schema_version'") == [(str(SCHEMA_VERSION),)]
    assert constraints(store_file) == []
    assert sql(store_file, AS_TEXT) == before
    verified = cli("verify", "--db", store_file)
    assert verified.exit_code == 0, verified.output


def test_a_store_upgraded_already_is_not_copied_again(store_file: Path) -> None:
    as_version(store_file, 5)
    with Store(store_file).connect():
        pass
    table_oid = sql(store_file, "SELECT table_oid FROM duckdb_tables() WHERE table_name = 'events'")
    # a store whose table is as declared already but says version 5 (no program leaves
    # one: the upgrade is one transaction): the step finds nothing to copy
    sql(store_file, "UPDATE meta SET value = '5' WHERE key = 'schema_version'")
    with Store(store_file).connect():
        pass
    assert sql(store_file, "SELECT table_oid FROM duckdb_tables() WHERE table_name = 'events'") == table_oid
    assert sql(store_file, "SELECT value FROM meta WHERE key = 'schema_version'") == [(str(SCHEMA_VERSION),)]


def test_a_version_4_store_whose_hash_is_not_hex_is_refused_and_left_as_it_was(store_file: Path) -> None:
    as_version(store_file, 4)
    sql(store_file, "UPDATE events SET hash = upper(hash) WHERE position = 7")
    before = sql(store_file, "SELECT * FROM events ORDER BY position")
    refused = "position 7 has a hash that is not 64 lowercase hex digits"
    with pytest.raises(StoreUnusable, match=refused), Store(store_file).connect():
        pass
    assert sql(store_file, "SELECT value FROM meta WHERE key = 'schema_version'") == [("4",)]
    assert sql(store_file, "SELECT * FROM events ORDER BY position") == before


# -- the column type ---------------------------------------------------------------------


@table("sealed", key=("name",))
class Sealed(Row):
    name: str
    seal: Digest


def test_a_digest_is_text_in_python_and_32_bytes_in_duckdb() -> None:
    (name, seal) = columns(Sealed)
    assert (seal.sql, str(seal.arrow), seal.digest, name.digest) == (
        "BLOB USING COMPRESSION uncompressed",
        "large_string",
        True,
        False,
    )
    assert "seal BLOB USING COMPRESSION uncompressed NOT NULL" in create_table(Sealed)
    assert selected(Sealed) == "name, lower(hex(seal)) AS seal"
    assert selected(Sealed, but=("name",)) == "lower(hex(seal)) AS seal"
    hashes = ["ab" * 32, "0123456789abcdef" * 4]
    bulk = arrow_table(Sealed, {"name": ["a", "b"], "seal": hashes})
    con = duckdb.connect()
    con.execute(create_table(Sealed))
    con.register("bulk", bulk)
    con.execute("INSERT INTO sealed SELECT * FROM bulk")
    assert con.execute("SELECT octet_length(seal) FROM sealed").fetchall() == [(32,), (32,)]
    assert con.execute(f"SELECT {selected(Sealed)} FROM sealed ORDER BY name").fetchall() == list(
        zip(["a", "b"], hashes, strict=True)
    )


@pytest.mark.parametrize(
    "values",
    [["AB" * 32], ["ab" * 31], ["ab" * 33], ["a" * 63, "a" * 65], ["zz" * 32], ["ab" * 32 + " "]],
    ids=["upper case", "short", "long", "lengths that add up", "not hex", "a space"],
)
def test_what_is_not_a_hash_in_lowercase_hex_is_refused_not_stored(values: list[str]) -> None:
    with pytest.raises(ValueError, match="seal: not hashes of 64"):
        arrow_table(Sealed, {"name": ["x"] * len(values), "seal": values})


def test_hashes_laid_end_to_end_become_one_array_of_their_bytes() -> None:
    joined = b"".join(bytes.fromhex(h).hex().encode() for h in ("00" * 32, "ff" * 32, "0f" * 32))
    array = digests(joined)
    assert array.to_pylist() == [bytes(32), b"\xff" * 32, b"\x0f" * 32]
    assert len(digests(b"")) == 0
    with pytest.raises(ValueError, match="prev_hash: not hashes"):
        digests(joined[:-1], "prev_hash")


def test_the_events_row_type_declares_both_hashes_as_digests() -> None:
    digested = [c.name for c in columns(StoredEvent) if c.digest]
    assert digested == ["prev_hash", "hash"]
