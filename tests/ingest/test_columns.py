"""Read-model rows as columns (:class:`ingest.tables.Columns`): as lists from a file's
projection, as Arrow slices of a pool task's record batch, and joined into one insert."""

from __future__ import annotations

import pyarrow as pa
import pytest

from ingest.tables import BigInt, Columns, Row, arrow_table, record_batch, table


@table("tally_test", key=("name",))
class Tally(Row):
    name: str
    count: BigInt
    note: str | None


@table("other_test", key=("name",))
class Other(Row):
    name: str


def tally(*rows: tuple[str, int, str | None]) -> Columns:
    return Columns.of(Tally, [Tally(name=n, count=c, note=t) for n, c, t in rows])


def test_lists_join_as_lists() -> None:
    joined = Columns.joined(Tally, [tally(("a", 1, None)), tally(("b", 2, "x"), ("c", 3, None))])
    assert joined.data == {"name": ["a", "b", "c"], "count": [1, 2, 3], "note": [None, "x", None]}


def test_arrow_slices_and_stamped_lists_join_in_order() -> None:
    """A task's batch sliced per file, one file's upload stamped as a list, joined with
    rows that came as lists: one Arrow column each, the values in the order given."""
    batch = record_batch(tally(("a", 1, None), ("b", 2, "x"), ("c", 3, None)))
    first, second = Columns.sliced(Tally, batch, 0, 1), Columns.sliced(Tally, batch, 1, 2)
    stamped = second.with_value("count", 9)
    joined = Columns.joined(Tally, [first, tally(("z", 5, "y")), stamped, tally(("w", 6, None))])
    assert len(joined) == 5
    assert all(isinstance(values, pa.ChunkedArray) for values in joined.data.values())
    assert joined.values("name") == ["a", "z", "b", "c", "w"]
    assert joined.values("count") == [1, 5, 9, 9, 6]
    assert joined.values("note") == [None, "y", "x", None, None]
    assert arrow_table(Tally, joined.data).to_pylist()[2] == {"name": "b", "count": 9, "note": "x"}


def test_a_slice_shares_its_batchs_buffers() -> None:
    batch = record_batch(tally(("a", 1, None), ("b", 2, "x")))
    sliced = Columns.sliced(Tally, batch, 1, 1)
    assert sliced.values("name") == ["b"]
    assert sliced.data["count"].buffers()[1].address == batch.column("count").buffers()[1].address


def test_rows_of_another_table_are_not_joined() -> None:
    with pytest.raises(ValueError, match="rows of other_test joined to tally_test"):
        Columns.joined(Tally, [tally(("a", 1, None)), Columns.of(Other, [Other(name="b")])])


def test_an_empty_task_batch_keeps_the_tables_types() -> None:
    batch = record_batch(Columns.of(Tally, []))
    assert batch.num_rows == 0
    assert batch.schema.names == ["name", "count", "note"]
