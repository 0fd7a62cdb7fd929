"""Issue 34, last point: ``archive build`` plans in pieces. The client read the listing
whole and held every batch's file names (0.4 KB a file: 4 GB at 10 million files); it
now reads the listing twice, a file at a time — once to cut it (:func:`cut`: 24 bytes
a batch), once for the batches' files as the build takes them (:meth:`Cuts.batches`) —
and gives the batches the list-based plan gave: the same keys, files and upload numbers.
"""

from __future__ import annotations

import dataclasses
import os
import tracemalloc
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path

import fsspec
import pytest

from ingest.lake.batch import batch_key
from ingest.lake.build import BATCH_BYTES, BATCH_FILES, Batch, build, cut, first_upload, listing, plan
from ingest.lake.manifest import Entry, SourceFile
from ingest.pipeline import SUFFIXES, collect

AT = datetime(2026, 12, 4, tzinfo=UTC)


# --- the list-based plan and listing as they were, to compare with ---------------------


def listed_plan(
    files: Sequence[tuple[str, int]],
    at: datetime,
    batch_files: int = BATCH_FILES,
    entries: Mapping[str, Entry] | None = None,
    batch_bytes: int = BATCH_BYTES,
) -> list[Batch]:
    """``plan`` before issue 34's last point: the listing and every batch held at once
    (the reference these tests hold the pieces to, and ``benchmarks/lake_plan.py``'s
    baseline)."""
    cuts: list[tuple[int, Sequence[tuple[str, int]]]] = []
    start = held = 0
    for index, (_, size) in enumerate(files):
        if index > start and (index - start >= batch_files or held + max(size, 0) > batch_bytes):
            cuts.append((start, files[start:index]))
            start, held = index, 0
        held += max(size, 0)
    if start < len(files):
        cuts.append((start, files[start:]))
    keys = [batch_key("files", start, *(f"{name}|{size}" for name, size in chunk)) for start, chunk in cuts]
    first = first_upload(entries or {}, [(key, start) for key, (start, _) in zip(keys, cuts, strict=True)])
    return [
        Batch(key, tuple(name for name, _ in chunk), first + start, at, sum(max(size, 0) for _, size in chunk))
        for key, (start, chunk) in zip(keys, cuts, strict=True)
    ]


def _listed(sources: Sequence[str]) -> list[tuple[str, int]]:
    """``listing`` before issue 34's last point: ``collect``'s list, each URL's ``find``."""
    local = [s for s in sources if "://" not in s or s.startswith("file://")]
    found = [(str(path), _size(path)) for path in collect(Path(s.removeprefix("file://")) for s in local)]
    for url in (s for s in sources if s not in local):
        fs, root = fsspec.core.url_to_fs(url)
        protocol = url.split("://", 1)[0]
        details = fs.find(root, detail=True) if fs.isdir(root) else {root: fs.info(root)}
        named = [(f"{protocol}://{path}", int(info["size"])) for path, info in details.items()]
        found.extend(sorted(named, key=lambda item: (not item[0].lower().endswith(".json"), item[0])))
    return [(name, size) for name, size in found if name.lower().endswith(SUFFIXES) or name in sources]


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return -1


# --- synthetic listings and lakes ---------------------------------------------------


def _names(count: int, offset: int = 0) -> Iterator[tuple[str, int]]:
    """``count`` made-up files of a bucket, of mixed sizes: mostly small games, now and
    then a log of megabytes, a file larger than a batch may hold, one of unknown size."""
    for i in range(offset, offset + count):
        size = 20_000 + (i * 7_919) % 40_000
        if i % 97 == 0:
            size = 3 * 2**20 + i
        elif i % 1_009 == 0:
            size = 20 * 2**20
        elif i % 613 == 0:
            size = -1
        yield f"s3://saboteur-archive/logs/day-{i // 5_000:04}/table-{i % 97:02}/game-{i:09}.jsonl", size


def _entry(key: str, first: int, files: int) -> Entry:
    """A committed batch of ``files`` files numbered from ``first``."""
    sources = tuple(
        SourceFile(name=f"f{first + n}", sha256=f"{first + n:064x}", size=1, upload_id=first + n, outcome="accepted")
        for n in range(files)
    )
    return Entry(batch=key, files=sources, parts=(), events=0, head_position=0, head_hash="0" * 64)


def _committed(batches: Sequence[Batch]) -> dict[str, Entry]:
    return {b.key: _entry(b.key, b.first_upload, b.size) for b in batches}


def _seen(batches: Sequence[Batch]) -> list[tuple[str, tuple[str, ...], int, datetime]]:
    return [(b.key, b.sources, b.first_upload, b.at) for b in batches]


def _in_pieces(
    files: Sequence[tuple[str, int]], entries: Mapping[str, Entry], batch_files: int, batch_bytes: int
) -> list[Batch]:
    """The batches as ``archive build`` takes them: the listing read twice, as it comes."""
    cuts = cut(iter(files), batch_files, batch_bytes)
    assert cuts.files == len(files)
    return list(cuts.batches(iter(files), AT, entries))


@pytest.mark.parametrize(("batch_files", "batch_bytes"), [(BATCH_FILES, BATCH_BYTES), (7, 2**20), (64, 200_000)])
def test_the_pieces_give_the_batches_the_list_based_plan_gave(batch_files: int, batch_bytes: int) -> None:
    """A new lake; the same listing again on the lake it built, half its batches
    committed, beside other builds' batches (numbered around them: the same numbers);
    a listing grown since, sharing batches with the lake (numbered after every upload)."""
    files = list(_names(3_000))
    new = listed_plan(files, AT, batch_files, {}, batch_bytes)
    assert len(new) > len(files) // batch_files and len({b.size for b in new}) > 3  # cut by files and by bytes
    assert _seen(_in_pieces(files, {}, batch_files, batch_bytes)) == _seen(new)
    assert _seen(plan(files, AT, batch_files, {}, batch_bytes)) == _seen(new)
    assert _seen(plan(iter(files), AT, batch_files, None, batch_bytes)) == _seen(new)

    others = {f"other-{n}": _entry(f"other-{n}", 1 + 40 * n, 40) for n in range(5)}  # uploads 1-200
    built = listed_plan(files, AT, batch_files, others, batch_bytes)
    assert built[0].first_upload == 201
    again = others | _committed(built[::2])
    rerun = listed_plan(files, AT, batch_files, again, batch_bytes)
    assert [b.first_upload for b in rerun] == [b.first_upload for b in built]
    assert _seen(_in_pieces(files, again, batch_files, batch_bytes)) == _seen(rerun)

    grown = files[:1_500] + list(_names(10, offset=90_000)) + files[1_500:]
    on_lake = others | _committed(built)
    past = listed_plan(grown, AT, batch_files, on_lake, batch_bytes)
    assert past[0].first_upload == 1 + max(f.upload_id for e in on_lake.values() for f in e.files)
    assert sum(b.key in on_lake for b in past) > 10
    assert _seen(_in_pieces(grown, on_lake, batch_files, batch_bytes)) == _seen(past)


def test_a_listing_changed_between_its_two_readings_takes_no_number_twice() -> None:
    """Files added while the build runs: the batches up to the change are those planned;
    from the first that is not, numbered after every upload of the lake and of the run."""
    files = list(_names(2_000))
    others = {f"other-{n}": _entry(f"other-{n}", 1 + 40 * n, 40) for n in range(5)}
    built = listed_plan(files, AT, entries=others)
    entries = others | _committed(built[1::3])
    cuts = cut(iter(files))
    planned = list(cuts.batches(iter(files), AT, entries))
    changed = files[:1_000] + list(_names(3, offset=50_000)) + files[1_000:]
    taken = list(cuts.batches(iter(changed), AT, entries))
    same = next(i for i, (a, b) in enumerate(zip(planned, taken, strict=False)) if a.key != b.key)
    assert 0 < same < len(taken) - 1 and _seen(taken[:same]) == _seen(planned[:same])
    numbers = [f.upload_id for e in entries.values() for f in e.files]
    written = [b for b in taken if b.key not in entries]
    numbers += [b.first_upload + n for b in written for n in range(b.size)]
    assert len(numbers) == len(set(numbers)), "a number taken twice"
    assert taken[same].first_upload > max(f.upload_id for e in entries.values() for f in e.files)
    assert [b.first_upload for b in taken] == sorted(b.first_upload for b in taken)


def test_planning_in_pieces_holds_a_batch_not_the_listing() -> None:
    """The list-based plan holds every name and batch (some 230 bytes a file here; with
    ``collect``'s paths besides, the 0.4 KB of the issue); the pieces hold 24 bytes a
    batch. Measured on 20,000 and 40,000 files, what 20,000 more files add: under 2 bytes
    a file in pieces (a batch's 24 bytes over its 64 files, and the allocator's slack),
    over 100 listed; 200,000 files would add 44 MiB listed and under 1 MiB in pieces."""

    def peak(work: Callable[[], None]) -> int:
        tracemalloc.start()
        try:
            work()
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    def in_pieces(count: int) -> Callable[[], None]:
        def plan() -> None:
            cuts = cut(_names(count))
            assert cuts.files == count
            assert sum(b.size for b in cuts.batches(_names(count), AT, {})) == count

        return plan

    def listed(count: int) -> Callable[[], None]:
        def plan() -> None:
            assert sum(b.size for b in listed_plan(list(_names(count)), AT)) == count

        return plan

    pieces = [peak(in_pieces(count)) for count in (20_000, 40_000)]
    whole = [peak(listed(count)) for count in (20_000, 40_000)]
    per_file = ((pieces[1] - pieces[0]) / 20_000, (whole[1] - whole[0]) / 20_000)
    assert per_file[0] < 2 < 100 < per_file[1], (pieces, whole)
    assert pieces[1] < whole[1] // 50, (pieces, whole)


def _tree(root: Path) -> None:
    """Names that sort apart as paths and as folders (``a.jsonl`` < ``a/…`` < ``a-b/…``
    by name, ``a-b/…`` < ``a/…`` by path), ``.json`` files deep down, a folder linked
    to (not entered), a file linked to (taken), files of other kinds (left)."""
    for name in (
        "a/x.jsonl",
        "a/b/y.csv",
        "a/b/t.JSON",
        "a-b/z.jsonl.gz",
        "a.b/w.jsonl",
        "a.jsonl",
        "a0.csv",
        "A.jsonl",
        "tournament.json",
        "deep/er/still/t2.json",
        "deep/er/g.jsonl",
        "notes.txt",
        "x.jsonl/inside.jsonl",
        ".hidden/h.jsonl",
    ):
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(name * 3)
    os.symlink(root / "a", root / "linked-dir")
    os.symlink(root / "a.jsonl", root / "linked.jsonl")


def test_the_listing_comes_in_the_order_collect_gives(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "logs"
    _tree(root)
    other = tmp_path / "more"
    _tree(other)
    monkeypatch.chdir(tmp_path)
    for sources in (
        ["."],
        ["logs/", "./more/a", "more/a.jsonl"],
        [str(root)],
        [str(other), str(root)],
        [str(root / "a"), str(root)],
        [f"file://{root}", str(root / "notes.txt"), str(root / "a.jsonl"), str(tmp_path / "missing.jsonl")],
        [str(root / "deep"), str(root / "tournament.json"), str(root / "deep")],
    ):
        listed = _listed(sources)
        found = list(listing(sources))
        assert [(name, size) for name, size, *_ in found] == listed, sources
        assert len(listed) > 1
        assert all(rest[0] for _, size, *rest in found if size >= 0)  # when each was written: in the batch's key


def test_a_url_is_listed_as_find_lists_it(tmp_path: Path) -> None:
    _tree(tmp_path / "logs")
    fs = fsspec.filesystem("memory")
    for path in sorted((tmp_path / "logs").rglob("*")):
        if path.is_file() and not path.is_symlink():
            fs.pipe(f"/plan-test/{path.relative_to(tmp_path / 'logs')}", path.read_bytes())
    try:
        for sources in (
            ["memory://plan-test"],
            ["memory://plan-test/a", str(tmp_path / "logs"), "memory://plan-test/deep/er/g.jsonl"],
        ):
            listed = _listed(sources)
            found = list(listing(sources))
            assert [(name, size) for name, size, *_ in found] == listed, sources
            assert any(name.startswith("memory://") for name, _ in listed)
            assert all(rest[0] for _, _, *rest in found)
    finally:
        fs.rm("/plan-test", recursive=True)


@pytest.mark.parametrize(("size", "ahead"), [(0, 8), (BATCH_BYTES, 4)], ids=["small-batches", "large-batches"])
def test_a_build_takes_its_batches_as_the_cluster_is_ready_for_them(tmp_path: Path, size: int, ahead: int) -> None:
    """``build`` given an iterator: a few batches ahead of the writes, never the listing:
    eight for two worker threads, and of batches of 16 MiB of files (each audited is
    held by its worker until it is written) two a thread."""
    from events.logfile import write_log
    from events.simulate.game import quick_game
    from ingest.lake.build import cluster
    from tests.ingest.dask_cluster import local_cluster

    logs = tmp_path / "logs"
    logs.mkdir()
    for seed in range(30):
        write_log(quick_game(3, "base", 1, seed), logs / f"g{seed:02}.jsonl")
    cuts = cut(listing([str(logs)]), batch_files=1)
    taken = done = most = 0

    def batches() -> Iterator[Batch]:
        nonlocal taken, most
        for batch in cuts.batches(listing([str(logs)]), AT, {}):
            taken += 1
            most = max(most, taken - done)
            yield dataclasses.replace(batch, bytes=size) if size else batch

    def on_done(_: object) -> None:
        nonlocal done
        done += 1

    with local_cluster() as address, cluster(address) as client:
        results = build(client, str(tmp_path / "lake"), batches(), {}, on_done)
    assert len(results) == done == taken == 30
    assert sum(r.files for r in results) == 30 and not any(r.skipped for r in results)
    assert most <= ahead, most


def test_the_look_ahead_counts_batches_and_their_bytes_once_each_thread_has_one() -> None:
    from ingest.lake.build import _Ahead

    ahead = _Ahead(batches=8, bytes=2 * BATCH_BYTES, least=2)
    big = [Batch(f"k{i}", (f"f{i}",), i + 1, AT, BATCH_BYTES) for i in range(3)]
    small = [Batch(f"s{i}", (f"s{i}",), i + 1, AT, 2**20) for i in range(9)]
    assert ahead.room([]) and ahead.room(big[:1])
    assert not ahead.room(big[:2])  # 32 MiB held: no more
    assert ahead.room(small[:7]) and not ahead.room(small[:8])  # 8 at most, whatever their bytes
    assert _Ahead(batches=8, bytes=BATCH_BYTES, least=3).room(big[:2])  # every thread has one first
    assert _Ahead(batches=8, bytes=0, least=1).room([])  # a cluster with no thread yet still starts


def test_the_ledger_of_a_build_of_many_files_stays_off_the_client_s_heap() -> None:
    """The ledger keeps what a build met in SQLite on disk (its page cache bounded): the
    client's Python heap holds a batch at a time, not every content of the build."""
    import tracemalloc

    from ingest.lake.ledger import Held, Ledger
    from ingest.lake.manifest import SourceFile

    def batch(first: int) -> list[SourceFile]:
        return [
            SourceFile(
                name=f"{n}.jsonl",
                sha256=f"{n:064x}",
                size=1,
                upload_id=n,
                outcome="accepted",
                streams={f"game:g{n}": 40},
            )
            for n in range(first, first + 500)
        ]

    with Ledger() as ledger:
        ledger.record(batch(1))
        tracemalloc.start()
        try:
            for first in range(501, 60_001, 500):
                ledger.record(batch(first))
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert peak < 2 * 1024 * 1024, peak  # in dicts (before): 22 MiB for these 60,000 files
        held = ledger.before(50_000, [f"{7:064x}", f"{55_000:064x}", "game:g7", "game:g9"])
        assert held == Held({f"{7:064x}": (7, "accepted")}, {"game:g7": (40, 7), "game:g9": (40, 9)})
