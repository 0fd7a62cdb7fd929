"""A table declared once, as a row type: its DDL and its Arrow types (and its Polars schema) come from it.

A row type is a class declared with :func:`table`: a slotted dataclass whose fields
are the table's columns, in order, with their Python types. The column types follow
from the field types (``int`` is a 32-bit ``INTEGER``, :data:`BigInt` a ``BIGINT``;
``X | None`` is a column that may be null, anything else is ``NOT NULL``), so a table
and the frames written into it cannot drift apart. One type is stored otherwise than
Python holds it: a :data:`Digest` is hex text in Python and in frames, 32 bytes in
DuckDB (:func:`selected` reads it back as text).

>>> @table("tally", key=("name",))
... class Tally(Row):
...     name: str
...     count: BigInt
...     note: str | None
>>> Tally(name="maps", count=3, note=None)
Tally(name='maps', count=3, note=None)
>>> print(create_table(Tally))
CREATE TABLE tally (
    name VARCHAR NOT NULL,
    count BIGINT NOT NULL,
    note VARCHAR,
    PRIMARY KEY (name)
)
>>> polars_schema(Tally)["count"]
Int64
"""

from __future__ import annotations

import binascii
import dataclasses
import operator
import struct
import types
from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import datetime
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    ClassVar,
    Final,
    TypeVar,
    Union,
    dataclass_transform,
    get_args,
    get_origin,
    get_type_hints,
)

import pyarrow as pa

from ingest.arrays import array

if TYPE_CHECKING:  # Polars for the frames of the analytics and verify, never for a store's rows
    import polars as pl

BigInt = Annotated[int, "BIGINT"]
"""A 64-bit integer column (a plain ``int`` field is a 32-bit ``INTEGER``)."""

Digest = Annotated[str, "DIGEST"]
"""A SHA-256 hash: 64 lowercase hex digits in Python, in frames and in the lake's
files, and its 32 bytes in DuckDB, stored uncompressed. A hash is random, so DuckDB's
string compression (dictionary, FSST) wins it nothing over the bytes but costs its
analysis at every write: the events' two hashes as hex text took two fifths of the
events' insert (246,304 events: 0.94 s of processor time against 0.58 s as bytes, the
file the same size)."""

DIGEST_BYTES: Final = 32
"""The bytes of a SHA-256 hash."""


class Row:
    """The base of every row type: the table it is a row of (``TABLE``) and its primary
    key (``KEY``), as :func:`table` sets them."""

    __slots__ = ()
    TABLE: ClassVar[str]
    KEY: ClassVar[tuple[str, ...]] = ()
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]


_R = TypeVar("_R", bound=Row)


@dataclass_transform(kw_only_default=True)
def table(
    name: str,
    *,
    key: tuple[str, ...] = (),
    frozen: bool = False,
    kw_only: bool = True,
) -> Callable[[type[_R]], type[_R]]:
    """Declare a row type: the class becomes a slotted dataclass (built keyword by
    keyword unless ``kw_only`` is off) whose fields are the columns of table ``name``."""

    def declare(row_type: type[_R]) -> type[_R]:
        row_type.TABLE, row_type.KEY = name, key
        return dataclasses.dataclass(slots=True, frozen=frozen, kw_only=kw_only)(row_type)

    return declare


@dataclasses.dataclass(frozen=True, slots=True)
class Column:
    """One column: its name, its DuckDB type, its Arrow type (:func:`arrow_table`),
    whether it may be null."""

    name: str
    sql: str
    arrow: pa.DataType
    nullable: bool
    digest: bool = False
    """A :data:`Digest`: text here, bytes in the table."""

    @property
    def read(self) -> str:
        """The column in a ``SELECT``, as Python holds it: a digest as hex text."""
        return f"lower(hex({self.name})) AS {self.name}" if self.digest else self.name


_SCALARS: Final[dict[object, tuple[str, pa.DataType]]] = {
    int: ("INTEGER", pa.int32()),
    BigInt: ("BIGINT", pa.int64()),
    str: ("VARCHAR", pa.large_string()),
    bool: ("BOOLEAN", pa.bool_()),
    bytes: ("BLOB", pa.large_binary()),
    datetime: ("TIMESTAMPTZ", pa.timestamp("us", tz="UTC")),
    list[str]: ("VARCHAR[]", pa.large_list(pa.large_string())),
    Digest: ("BLOB USING COMPRESSION uncompressed", pa.large_string()),
}
"""The Python types a column may have, with their DuckDB type and Arrow type (a
:data:`Digest` is text in Arrow until :func:`digests` makes it bytes)."""


def _column(name: str, hint: object) -> Column:
    nullable = False
    if get_origin(hint) in (Union, types.UnionType):
        present = [arg for arg in get_args(hint) if arg is not type(None)]
        nullable, hint = len(present) < len(get_args(hint)), present[0]
    sql, arrow = _SCALARS[hint]
    return Column(name, sql, arrow, nullable, digest=hint is Digest)


_COLUMNS: Final[dict[type[Row], tuple[Column, ...]]] = {}


def columns(row_type: type[Row]) -> tuple[Column, ...]:
    """The table's columns, in the order of the row type's fields (worked out once)."""
    if row_type not in _COLUMNS:
        hints = get_type_hints(row_type, include_extras=True)
        _COLUMNS[row_type] = tuple(_column(field.name, hints[field.name]) for field in dataclasses.fields(row_type))
    return _COLUMNS[row_type]


def names(row_type: type[Row]) -> tuple[str, ...]:
    """The table's column names, in order (worked out once: the writer asks for them
    with every file's rows)."""
    found = _NAMES.get(row_type)
    if found is None:
        found = _NAMES[row_type] = tuple(column.name for column in columns(row_type))
    return found


_NAMES: Final[dict[type[Row], tuple[str, ...]]] = {}


def create_table(row_type: type[Row], *, if_not_exists: bool = False, name: str | None = None) -> str:
    """The ``CREATE TABLE`` statement of a row type's table (under another ``name``, if
    given: a table made anew beside the old one, as an upgrade does)."""
    lines = [f"{c.name} {c.sql}{'' if c.nullable else ' NOT NULL'}" for c in columns(row_type)]
    if row_type.KEY:
        lines.append(f"PRIMARY KEY ({', '.join(row_type.KEY)})")
    body = ",\n    ".join(lines)
    return f"CREATE TABLE {'IF NOT EXISTS ' if if_not_exists else ''}{name or row_type.TABLE} (\n    {body}\n)"


def selected(row_type: type[Row], *, but: Collection[str] = ()) -> str:
    """The table's columns as a ``SELECT`` list that reads them as the row type holds
    them (:attr:`Column.read`), but those named in ``but``."""
    return ", ".join(c.read for c in columns(row_type) if c.name not in but)


def polars_schema(row_type: type[Row]) -> dict[str, pl.DataType]:
    """The Polars schema of frames written into the row type's table (Polars loaded
    here, by the commands that make frames)."""
    import polars as pl

    dtypes = {
        pa.int32(): pl.Int32(),
        pa.int64(): pl.Int64(),
        pa.large_string(): pl.String(),
        pa.bool_(): pl.Boolean(),
        pa.large_binary(): pl.Binary(),
        pa.timestamp("us", tz="UTC"): pl.Datetime("us", "UTC"),
        pa.large_list(pa.large_string()): pl.List(pl.String()),
    }
    return {c.name: dtypes[c.arrow] for c in columns(row_type)}


def frame(row_type: type[Row], rows: Sequence[Any]) -> pl.DataFrame:
    """Rows of one row type as a frame with the table's schema (built column by column:
    three times as fast as row by row)."""
    import polars as pl

    data = {name: [getattr(row, name) for row in rows] for name in names(row_type)}
    return pl.DataFrame(data, schema=polars_schema(row_type), strict=False)


def arrow_table(row_type: type[Row], data: Mapping[str, Sequence[Any] | pa.Array]) -> pa.Table:
    """Columns of one row type (every column, by name) as an Arrow table with the
    table's types: what the store inserts in bulk. A column given as an Arrow array is
    taken as it is; a list of values becomes one by :func:`ingest.arrays.array`, which
    loads neither pandas (``pyarrow.array`` would, on its first call) nor Polars."""
    return pa.table(
        {
            c.name: values if isinstance(values := data[c.name], pa.Array) else _array(c, values)
            for c in columns(row_type)
        }
    )


def _array(column: Column, values: Sequence[Any]) -> pa.Array:
    if column.digest:
        if any(len(v) != 2 * DIGEST_BYTES for v in values):
            raise ValueError(f"{column.name}: not hashes of {2 * DIGEST_BYTES} hex digits each")
        return digests("".join(values).encode("ascii"), column.name)
    if column.arrow == pa.large_binary() and len(values) == 1 and isinstance(values[0], bytes):
        return blob(values[0])
    try:
        return array(values, column.arrow)
    except TypeError as exc:
        raise TypeError(f"{column.name}: {exc}") from None


def blob(value: bytes) -> pa.Array:
    """One value of a ``BLOB`` column as an Arrow array that holds the bytes themselves,
    not a copy. An upload of 16 MiB is inserted alone (its run of uploads is one file:
    :data:`~ingest.store.chunks.UPLOAD_RUN_BYTES`); made into Arrow through Polars, as
    every column was before :mod:`ingest.arrays`, its bytes were copied twice on the way:
    33 MiB more at the peak of that insert measured alone."""
    offsets = pa.py_buffer(struct.pack("<qq", 0, len(value)))  # the column's type: large_binary
    return pa.Array.from_buffers(pa.large_binary(), 1, [None, offsets, pa.py_buffer(value)])


def digests(hex_digits: bytes, name: str = "hash") -> pa.Array:
    """Hashes laid end to end as ASCII hex digits (64 each) as the Arrow array of their
    bytes that a :data:`Digest` column stores: one conversion for them all, no object a
    hash. Digits that are not whole hashes of lowercase hex are refused."""
    count, rest = divmod(len(hex_digits), 2 * DIGEST_BYTES)
    if rest or hex_digits.translate(None, b"0123456789abcdef"):
        raise ValueError(f"{name}: not hashes of {2 * DIGEST_BYTES} lowercase hex digits each")
    raw = binascii.unhexlify(hex_digits)
    return pa.Array.from_buffers(pa.binary(DIGEST_BYTES), count, [None, pa.py_buffer(raw)])


def row_columns(row_type: type[Row], rows: Sequence[Any]) -> dict[str, Sequence[Any]]:
    """Rows of one row type as columns, by name (read a row at a time, by one getter of
    every field: faster than a getter per column)."""
    fields = names(row_type)
    if len(fields) == 1:
        return {fields[0]: [getattr(row, fields[0]) for row in rows]}
    values = list(zip(*map(operator.attrgetter(*fields), rows), strict=True)) or [() for _ in fields]
    return dict(zip(fields, values, strict=True))


@dataclasses.dataclass(slots=True)
class Columns:
    """Rows of one row type as columns (a list per column, by name): how an audited
    file carries its read-model rows from a worker to the writer.

    A row object costs the writer twice — unpickled from the worker, then read back a
    field at a time for the bulk insert — while a list of plain values per column
    pickles, joins another file's (:meth:`extend`) and becomes an Arrow array at C
    speed. The writer stamps what only it decides (an upload id, a revision) on a whole
    column at once (:meth:`with_column`).
    """

    row_type: type[Row]
    data: dict[str, list[Any]]

    @classmethod
    def of(cls, row_type: type[Row], rows: Sequence[Any]) -> Columns:
        """``rows`` (each a ``row_type``) as columns."""
        return cls(row_type, {name: list(values) for name, values in row_columns(row_type, rows).items()})

    @classmethod
    def empty(cls, row_type: type[Row]) -> Columns:
        return cls(row_type, {name: [] for name in names(row_type)})

    def __len__(self) -> int:
        return len(self.data[names(self.row_type)[0]])

    def extend(self, other: Columns) -> None:
        """Another file's rows of the same table after these."""
        if other.row_type is not self.row_type:
            raise ValueError(f"rows of {other.row_type.TABLE} joined to {self.row_type.TABLE}")
        for name, values in self.data.items():
            values.extend(other.data[name])

    def with_column(self, name: str, values: list[Any]) -> Columns:
        """A copy with column ``name`` replaced by ``values``, one per row."""
        if name not in self.data or len(values) != len(self):
            raise ValueError(f"{self.row_type.TABLE}.{name}: {len(values)} values for {len(self)} rows")
        return Columns(self.row_type, {**self.data, name: values})

    def __contains__(self, name: object) -> bool:
        return name in self.data

    def values(self, name: str) -> list[Any]:
        """Column ``name``'s values, one per row."""
        return self.data[name]

    def arrow(self) -> pa.Table:
        """The rows as the Arrow table the store inserts (:func:`arrow_table`)."""
        return arrow_table(self.row_type, self.data)


@dataclasses.dataclass(frozen=True, slots=True)
class ArrowColumns:
    """Rows of one row type as an Arrow table with the table's types: how a worker's
    task of files carries their rows to the writer (:func:`ingest.pipeline.audited_all`).

    :class:`Columns` of plain values cost the writer their unpickling, object by object
    (0.18 s for the rows of 1,000 simulated games, 2.1 million values), and their
    conversion into Arrow (0.10 s): the writer is an ingest's one serial step. A task's
    rows made one Arrow table in the worker pickle as a few buffers, and each file's
    rows are a slice of it in the writer, made without a copy (a slice pickled would
    carry the whole table's buffers, so the worker never sends one). The writer stamps
    what only it decides on a column at once, as on :class:`Columns`."""

    row_type: type[Row]
    table: pa.Table

    def __len__(self) -> int:
        return int(self.table.num_rows)

    def __contains__(self, name: object) -> bool:
        return name in self.table.column_names

    def values(self, name: str) -> list[Any]:
        """Column ``name``'s values, one per row."""
        return list(self.table.column(name).to_pylist())

    def slice(self, offset: int, length: int) -> ArrowColumns:
        """Rows ``offset`` to ``offset + length``, sharing these rows' buffers."""
        return ArrowColumns(self.row_type, self.table.slice(offset, length))

    def with_column(self, name: str, values: list[Any]) -> ArrowColumns:
        """A copy with column ``name`` replaced by ``values``, one per row."""
        if name not in self or len(values) != len(self):
            raise ValueError(f"{self.row_type.TABLE}.{name}: {len(values)} values for {len(self)} rows")
        index = self.table.column_names.index(name)
        column = columns(self.row_type)[names(self.row_type).index(name)]
        # made as arrow_table makes it (pyarrow.array of a list took 1.3 ms a call here)
        return ArrowColumns(self.row_type, self.table.set_column(index, name, _array(column, values)))

    def arrow(self) -> pa.Table:
        """The rows as the Arrow table the store inserts."""
        return self.table


TableColumns = Columns | ArrowColumns
"""Rows of one table as columns, of plain values or Arrow."""


def arrow_columns(parts: Sequence[TableColumns]) -> ArrowColumns:
    """Several files' rows of one table as one Arrow table (:func:`joined`)."""
    merged = joined(parts)
    return merged if isinstance(merged, ArrowColumns) else ArrowColumns(merged.row_type, merged.arrow())


def joined(parts: Sequence[TableColumns]) -> TableColumns:
    """Several files' rows of one table, in order, as one (every part of the same row
    type, at least one): plain values joined as plain values; with any part in Arrow,
    one Arrow table of one chunk."""
    row_type = parts[0].row_type
    if any(part.row_type is not row_type for part in parts):
        raise ValueError(f"rows of other tables joined to {row_type.TABLE}")
    if all(isinstance(part, Columns) for part in parts):
        merged = Columns.empty(row_type)
        for part in parts:
            merged.extend(part)  # type: ignore[arg-type]
        return merged
    # one chunk: DuckDB scans a table of a chunk a file (some 130 rows) at a fraction of the speed
    return ArrowColumns(row_type, pa.concat_tables([part.arrow() for part in parts]).combine_chunks())
