"""``ingest.arrays``: a store's rows made Arrow without pandas or Polars give the arrays
Polars gave (the reference, still at hand for the analytics), value for value and type
for type, and refuse what Polars refused."""

from __future__ import annotations

import enum
from datetime import UTC, datetime, timedelta
from typing import Any

import polars as pl
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest.arrays import MOMENT, array, repeated

MOMENTS = st.datetimes(min_value=datetime(1970, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC))
TEXT = st.text(max_size=12)
KINDS: dict[str, tuple[pa.DataType, pl.DataType, st.SearchStrategy[Any]]] = {
    "int32": (pa.int32(), pl.Int32(), st.integers(-(2**31), 2**31 - 1)),
    "int64": (pa.int64(), pl.Int64(), st.integers(-(2**63), 2**63 - 1)),
    "bool": (pa.bool_(), pl.Boolean(), st.booleans()),
    "text": (pa.large_string(), pl.String(), TEXT),
    "ascii": (pa.large_string(), pl.String(), st.text(alphabet="abcxyz:-_ 019", max_size=12)),
    "bytes": (pa.large_binary(), pl.Binary(), st.binary(max_size=12)),
    "time": (pa.timestamp("us", tz="UTC"), pl.Datetime("us", "UTC"), MOMENTS),
    "texts": (pa.large_list(pa.large_string()), pl.List(pl.String()), st.lists(TEXT, max_size=4)),
}


@pytest.mark.parametrize("kind", sorted(KINDS))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_every_column_type_gives_the_array_polars_gave(kind: str, data: st.DataObject) -> None:
    type_, dtype, values = KINDS[kind]
    column = data.draw(st.lists(st.none() | values, max_size=40))
    made = array(column, type_)
    made.validate(full=True)
    expected = pl.Series("x", column, dtype=dtype, strict=True).to_arrow()
    assert made.type == expected.type == type_
    assert made.to_pylist() == expected.to_pylist()
    assert made.null_count == sum(v is None for v in column)


def test_a_time_without_a_zone_is_utc_and_a_text_enum_is_text() -> None:
    class Word(enum.StrEnum):
        GOLD = "gold"

    moment = datetime(2026, 12, 5, 9, 30, tzinfo=UTC)
    times = array([moment.replace(tzinfo=None), moment + timedelta(microseconds=1)], pa.timestamp("us", tz="UTC"))
    assert times.to_pylist() == [moment, moment + timedelta(microseconds=1)]
    assert array([Word.GOLD, "pick"], pa.large_string()).to_pylist() == ["gold", "pick"]
    assert array([], pa.large_string()).to_pylist() == []


def test_one_time_repeated_is_the_array_of_that_time_each_time() -> None:
    moment = datetime(2026, 12, 5, 9, 30, 1, 250, tzinfo=UTC)
    for count in (0, 1, 3):
        made = repeated(moment, count)
        made.validate(full=True)
        assert made.equals(array([moment] * count, MOMENT))


@pytest.mark.parametrize(
    ("values", "type_", "reason"),
    [
        (["3"], pa.int32(), "expected a whole number, got str"),
        ([True], pa.int64(), "expected a whole number, got bool"),
        ([1.0], pa.int64(), "expected a whole number, got float"),
        ([2**31], pa.int32(), "out of the range of int32"),
        ([2**63], pa.int64(), "out of the range of int64"),
        ([b"x"], pa.large_string(), "expected text, got bytes"),
        (["x"], pa.large_binary(), "expected bytes, got str"),
        ([1], pa.bool_(), "expected true or false, got int"),
        (["2026-12-05"], pa.timestamp("us", tz="UTC"), "expected a time, got str"),
        (["ab"], pa.large_list(pa.large_string()), "expected a list of text, got str"),
        ([[1]], pa.large_list(pa.large_string()), "expected text, got int"),
        ([1], pa.float64(), "no Arrow array of double"),
    ],
)
def test_a_value_of_another_type_is_refused(values: list[Any], type_: pa.DataType, reason: str) -> None:
    with pytest.raises(TypeError, match=reason):
        array(values, type_)
