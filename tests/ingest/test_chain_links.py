"""The writer's hashing (:func:`ingest.chain.linker`) gives the chain's own hashes:
``link(prev, canonical(...))`` for any text (``%`` signs too), numbers and missing values,
each event's hash leading the next one's in a run."""

from __future__ import annotations

from datetime import datetime

from hypothesis import given
from hypothesis import strategies as st

from ingest.chain import GENESIS, canonical, link, linker, moment_text

texts = st.text(alphabet=st.characters(codec="utf-8"), max_size=60)
positions = st.integers(min_value=1, max_value=2**62)


@given(
    prev=st.sampled_from([GENESIS, "f" * 64]),
    position=positions,
    version=st.integers(min_value=1, max_value=2**31 - 1),
    stream=texts,
    type_=texts,
    payload=texts,
    upload_id=st.none() | positions,
    line=st.none() | st.integers(min_value=1, max_value=2**31 - 1),
    recorded_at=st.datetimes(timezones=st.timezones()),
)
def test_the_writers_hash_is_the_chains(
    prev: str,
    position: int,
    version: int,
    stream: str,
    type_: str,
    payload: str,
    upload_id: int | None,
    line: int | None,
    recorded_at: datetime,
) -> None:
    stamp = moment_text(recorded_at)
    expected = link(prev, canonical(position, stream, version, type_, payload, stamp, upload_id, line))
    hashes_of = linker(stream, stamp, upload_id)
    [hashed] = hashes_of(prev.encode("ascii"), position - 1, version - 1, [type_], [payload], [line])
    assert hashed.decode("ascii") == expected


@given(
    position=st.integers(min_value=0, max_value=2**40),
    version=st.integers(min_value=0, max_value=2**20),
    events=st.lists(st.tuples(texts, texts, st.none() | st.integers(min_value=1, max_value=2**31 - 1)), max_size=8),
)
def test_a_runs_hashes_are_the_links_of_its_events_one_after_another(
    position: int, version: int, events: list[tuple[str, str, int | None]]
) -> None:
    stamp = "2026-12-01T00:00:00.000000Z"
    expected, prev = [], GENESIS
    for offset, (type_, payload, line) in enumerate(events, start=1):
        prev = link(prev, canonical(position + offset, "game:g", version + offset, type_, payload, stamp, 4, line))
        expected.append(prev)
    types, payloads, lines = [e[0] for e in events], [e[1] for e in events], [e[2] for e in events]
    hashes = linker("game:g", stamp, 4)(GENESIS.encode("ascii"), position, version, types, payloads, lines)
    assert [h.decode("ascii") for h in hashes] == expected


def test_quotes_controls_and_escapes_hash_alike() -> None:
    payload = '{"say":"a \\"quoted\\" word\\n","tab":"\t","nul":"\\u0000","é":"ü","line\u2028sep":1}'
    stamp = "2026-12-01T00:00:00.000000Z"
    expected = link(GENESIS, canonical(7, "game:x", 3, "play_path", payload, stamp, None, None))
    [hashed] = linker("game:x", stamp, None)(GENESIS.encode(), 6, 2, ["play_path"], [payload], [None])
    assert hashed.decode() == expected


def test_percent_signs_in_what_the_events_share_are_text_not_formatting() -> None:
    stamp = "2026-12-01T00:00:00.000000Z"
    stream = "game:100%d-%b-%%"
    expected = link(GENESIS, canonical(1, stream, 1, "note%s", "{}", stamp, 5, 2))
    [hashed] = linker(stream, stamp, 5)(GENESIS.encode(), 0, 0, ["note%s"], ["{}"], [2])
    assert hashed.decode() == expected
