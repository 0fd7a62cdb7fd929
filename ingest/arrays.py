"""Python values into Arrow arrays, with neither pandas nor Polars loaded.

The store's rows reach DuckDB as Arrow. ``pyarrow.array`` would make each column from
its list of values, but on its first call it imports pandas (some 50 MiB of every
process that stores rows, the ingest's workers among them), and Polars, which made them
until now, is another 35 MiB in each of those processes. Here each array is laid out
from its buffers (the values, the offsets of strings and lists, the validity bitmap)
through NumPy, which pyarrow loads anyway: the same types Polars gave (``large_string``,
``large_binary``, ``large_list``, ``timestamp[us, tz=UTC]``), as strictly — a value of
another type, or an integer out of its range, is a ``TypeError``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Final

import numpy as np
import pyarrow as pa

_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)
MOMENT: Final = pa.timestamp("us", tz="UTC")
"""The Arrow type of a time: microseconds, UTC."""
_INTEGERS: Final[dict[pa.DataType, type[np.integer[Any]]]] = {pa.int32(): np.int32, pa.int64(): np.int64}


def array(values: Sequence[Any], type_: pa.DataType) -> pa.Array:
    """``values`` (``None`` for a null) as an Arrow array of ``type_``: ``int32``,
    ``int64``, ``bool``, ``large_string``, ``large_binary``, ``timestamp[us, tz=UTC]``
    (a time without a zone is taken as UTC) or ``large_list<large_string>``."""
    count = len(values)
    kinds = set(map(type, values))  # every value's type, at C speed: the check is strict
    nulls = type(None) in kinds
    kinds.discard(type(None))
    validity = _validity(values) if nulls else None
    if type_ in _INTEGERS:
        _only(kinds, int, "a whole number")
        filled = [0 if v is None else v for v in values] if nulls else values
        try:
            numbers = np.array(filled, dtype=_INTEGERS[type_])
        except OverflowError as exc:
            raise TypeError(f"a whole number out of the range of {type_}") from exc
        return pa.Array.from_buffers(type_, count, [validity, pa.py_buffer(numbers)])
    if type_ == pa.bool_():
        _only(kinds, bool, "true or false")
        filled = [False if v is None else v for v in values] if nulls else values
        bits = np.packbits(np.array(filled, dtype=np.bool_), bitorder="little")
        return pa.Array.from_buffers(type_, count, [validity, pa.py_buffer(bits)])
    if type_ == pa.large_string():
        _only(kinds, str, "text")
        texts: Sequence[str] = ["" if v is None else v for v in values] if nulls else values
        joined = "".join(texts)
        if joined.isascii():  # a character a byte: the lengths are the texts' own
            return pa.Array.from_buffers(type_, count, [validity, _offsets(list(map(len, texts))), _buffer(joined)])
        return pa.Array.from_buffers(type_, count, [validity, *_packed(list(map(str.encode, texts)))])
    if type_ == pa.large_binary():
        _only(kinds, bytes, "bytes")
        return pa.Array.from_buffers(type_, count, [validity, *_packed([b"" if v is None else v for v in values])])
    if type_ == MOMENT:
        _only(kinds, datetime, "a time")
        since = [0 if v is None else micros(v) for v in values]
        return pa.Array.from_buffers(type_, count, [validity, pa.py_buffer(np.array(since, dtype=np.int64))])
    if type_ == pa.large_list(pa.large_string()):
        _only(kinds, (list, tuple), "a list of text")
        lists: list[Sequence[str]] = [() if v is None else v for v in values]
        child = array([item for texts in lists for item in texts], pa.large_string())
        return pa.Array.from_buffers(type_, count, [validity, _offsets(list(map(len, lists)))], children=[child])
    raise TypeError(f"no Arrow array of {type_} is made here")


def _only(kinds: set[type], kind: type | tuple[type, ...], words: str) -> None:
    """Refuse values of any type but ``kind`` and its subclasses (a ``StrEnum`` is text)
    but a ``bool`` where a whole number is wanted."""
    others = {k for k in kinds if not issubclass(k, kind) or (k is bool and kind is int)}
    if others:
        raise TypeError(f"expected {words}, got {', '.join(sorted(k.__name__ for k in others))}")


def _validity(values: Sequence[Any]) -> pa.Buffer:
    """The validity bitmap: a bit a value, least significant first."""
    present = np.array([v is not None for v in values], dtype=np.bool_)
    return pa.py_buffer(np.packbits(present, bitorder="little"))


def _packed(items: list[bytes]) -> tuple[pa.Buffer, pa.Buffer]:
    """Byte strings laid end to end, and where each begins (64-bit offsets)."""
    return _offsets(list(map(len, items))), pa.py_buffer(b"".join(items))


def _offsets(lengths: list[int]) -> pa.Buffer:
    offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(np.array(lengths, dtype=np.int64), out=offsets[1:])
    return pa.py_buffer(offsets)


def _buffer(ascii_text: str) -> pa.Buffer:
    return pa.py_buffer(ascii_text.encode("ascii"))


def repeated(moment: datetime, count: int) -> pa.Array:
    """One time ``count`` times (every event of a write shares its time): one number
    repeated, not a conversion a value."""
    return pa.Array.from_buffers(MOMENT, count, [None, pa.py_buffer(np.full(count, micros(moment), np.int64))])


def micros(moment: datetime) -> int:
    """A time as microseconds since 1970, UTC (a time without a zone is taken as UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    delta: timedelta = moment - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds
