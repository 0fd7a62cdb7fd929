"""A table declared once, as a row type: its DDL and its Polars schema both come from it.

A row type is a dataclass whose fields are the table's columns, in order, with their
Python types; class variables name the table and its keys. The column types follow
from the field types (``int`` is a 32-bit ``INTEGER``, :data:`BigInt` a ``BIGINT``;
``X | None`` is a column that may be null, anything else is ``NOT NULL``), so a table
and the frames written into it cannot drift apart.

>>> from dataclasses import dataclass
>>> @dataclass
... class Tally:
...     TABLE: ClassVar[str] = "tally"
...     KEY: ClassVar[tuple[str, ...]] = ("name",)
...     name: str
...     count: BigInt
...     note: str | None
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

import dataclasses
import operator
import types
from collections.abc import Sequence
from datetime import datetime
from functools import cache
from typing import Annotated, Any, ClassVar, Final, Protocol, Union, get_args, get_origin, get_type_hints

import polars as pl

BigInt = Annotated[int, "BIGINT"]
"""A 64-bit integer column (a plain ``int`` field is a 32-bit ``INTEGER``)."""


class Row(Protocol):
    """A row type: a dataclass naming its table (``TABLE``); ``KEY`` is its primary key
    and ``UNIQUE`` a further unique column set (both may be empty)."""

    TABLE: ClassVar[str]
    __dataclass_fields__: ClassVar[dict[str, Any]]


@dataclasses.dataclass(frozen=True, slots=True)
class Column:
    """One column: its name, its DuckDB type, its Polars dtype, whether it may be null."""

    name: str
    sql: str
    dtype: pl.DataType
    nullable: bool


_SCALARS: Final[dict[object, tuple[str, pl.DataType]]] = {
    int: ("INTEGER", pl.Int32()),
    BigInt: ("BIGINT", pl.Int64()),
    str: ("VARCHAR", pl.String()),
    bool: ("BOOLEAN", pl.Boolean()),
    bytes: ("BLOB", pl.Binary()),
    datetime: ("TIMESTAMPTZ", pl.Datetime("us", "UTC")),
    list[str]: ("VARCHAR[]", pl.List(pl.String())),
}
"""The Python types a column may have, with their DuckDB type and Polars dtype."""


def _column(name: str, hint: object) -> Column:
    nullable = False
    if get_origin(hint) in (Union, types.UnionType):
        present = [arg for arg in get_args(hint) if arg is not type(None)]
        nullable, hint = len(present) < len(get_args(hint)), present[0]
    sql, dtype = _SCALARS[hint]
    return Column(name, sql, dtype, nullable)


@cache
def columns(row_type: type[Row]) -> tuple[Column, ...]:
    """The table's columns, in the order of the row type's fields."""
    hints = get_type_hints(row_type, include_extras=True)
    return tuple(_column(field.name, hints[field.name]) for field in dataclasses.fields(row_type))


def names(row_type: type[Row]) -> tuple[str, ...]:
    """The table's column names, in order."""
    return tuple(column.name for column in columns(row_type))


def create_table(row_type: type[Row], *, if_not_exists: bool = False) -> str:
    """The ``CREATE TABLE`` statement of a row type's table."""
    lines = [f"{c.name} {c.sql}{'' if c.nullable else ' NOT NULL'}" for c in columns(row_type)]
    for constraint in ("KEY", "UNIQUE"):
        keys: tuple[str, ...] = getattr(row_type, constraint, ())
        if keys:
            lines.append(f"{'PRIMARY KEY' if constraint == 'KEY' else 'UNIQUE'} ({', '.join(keys)})")
    body = ",\n    ".join(lines)
    return f"CREATE TABLE {'IF NOT EXISTS ' if if_not_exists else ''}{row_type.TABLE} (\n    {body}\n)"


def polars_schema(row_type: type[Row]) -> dict[str, pl.DataType]:
    """The Polars schema of frames written into the row type's table."""
    return {c.name: c.dtype for c in columns(row_type)}


def frame(row_type: type[Row], rows: Sequence[Any]) -> pl.DataFrame:
    """Rows of one row type as a frame with the table's schema."""
    values = operator.attrgetter(*names(row_type))
    return pl.DataFrame([values(row) for row in rows], schema=polars_schema(row_type), orient="row", strict=False)
